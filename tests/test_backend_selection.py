"""Backend selection (``fastcol._backend``) and the parity of the two backends' APIs.

Selection happens once, at ``import fastcol``, from environment variables, so each
case runs in a fresh interpreter (``sys.executable -c ...``) with the test process's
PYTHONPATH (plus the directory this ``fastcol`` was found in).  A broken extension is
simulated by a meta path finder that refuses to import ``fastcol._ext``.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# the directory holding the fastcol package under test (found without importing it,
# so a broken extension cannot break collection of this module)
_SPEC = importlib.util.find_spec("fastcol")
assert _SPEC is not None and _SPEC.origin is not None, "fastcol is not importable"
SRC_DIR = str(Path(_SPEC.origin).resolve().parent.parent)

BLOCK_EXT = textwrap.dedent(
    """
    import sys

    class BrokenExtension:
        # what a failed build or an ABI mismatch looks like at import time
        def find_spec(self, name, path=None, target=None):
            if name == "fastcol._ext" or name.startswith("fastcol._ext."):
                raise ImportError("simulated broken build: undefined symbol fc_kernel")
            return None

    sys.meta_path.insert(0, BrokenExtension())
    """
)

REPORT = textwrap.dedent(
    """
    import json, sys, warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            import fastcol
        except BaseException as exc:
            cause = exc.__cause__
            print(json.dumps({
                "error": type(exc).__name__,
                "is_import_error": isinstance(exc, ImportError),
                "message": str(exc),
                "cause": "" if cause is None else str(cause),
                "warnings": [[w.category.__name__, str(w.message)] for w in caught],
            }))
            raise SystemExit(0)
        c = fastcol.Circle(0, 0, 1)
        touching = fastcol.collide(c, fastcol.Circle(2, 0, 1))
    print(json.dumps({
        "backend": fastcol.backend,
        "circle_module": type(c).__module__,
        "touching": touching,
        "ext_imported": "fastcol._ext" in sys.modules,
        "facade_is_ref": fastcol.Circle is sys.modules["fastcol._ref"].Circle
            if "fastcol._ref" in sys.modules else False,
        "facade_is_ext": fastcol.Circle is getattr(sys.modules.get("fastcol._ext"), "Circle", None),
        "warnings": [[w.category.__name__, str(w.message)] for w in caught],
    }))
    """
)


def run_python(code: str, tmp_path, **env_vars: str) -> dict:
    """Run ``code`` in a fresh interpreter; return the JSON object it prints last."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FASTCOL_")}
    inherited = env.get("PYTHONPATH")
    env["PYTHONPATH"] = SRC_DIR + (os.pathsep + inherited if inherited else "")
    env.update(env_vars)
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=tmp_path,  # nothing importable by accident from the working directory
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    lines = proc.stdout.strip().splitlines()
    assert lines, f"no output\nstderr:\n{proc.stderr}"
    return json.loads(lines[-1])


def test_no_extensions_selects_reference(tmp_path):
    out = run_python(REPORT, tmp_path, FASTCOL_NO_EXTENSIONS="1")
    assert out.get("error") is None, out
    assert out["backend"] == "reference"
    assert out["circle_module"].startswith("fastcol._ref")
    assert out["facade_is_ref"] is True
    assert out["touching"] is True
    # asking for the reference is not a failure: no warning...
    assert out["warnings"] == []
    # ...and the extension (which may be the very thing that crashes) is not touched
    assert out["ext_imported"] is False


def test_no_extensions_wins_over_require(tmp_path):
    out = run_python(
        REPORT, tmp_path, FASTCOL_NO_EXTENSIONS="1", FASTCOL_REQUIRE_EXTENSIONS="1"
    )
    assert out.get("error") is None, out
    assert out["backend"] == "reference"
    assert out["warnings"] == []


@pytest.mark.parametrize("require", [None, "1"], ids=["default", "require"])
def test_default_selects_compiled(tmp_path, require):
    # This suite requires a built extension (CI sets FASTCOL_REQUIRE_EXTENSIONS=1):
    # "reference" here is a failure whatever the environment, never a skip.
    env = {} if require is None else {"FASTCOL_REQUIRE_EXTENSIONS": require}
    out = run_python(REPORT, tmp_path, **env)
    assert out.get("error") is None, (
        "the compiled extension cannot be imported "
        f"(FASTCOL_REQUIRE_EXTENSIONS={os.environ.get('FASTCOL_REQUIRE_EXTENSIONS')!r} "
        f"in the test process): {out}"
    )
    assert out["backend"] == "compiled", out
    assert out["circle_module"].startswith("fastcol._ext")
    assert out["facade_is_ext"] is True
    assert out["touching"] is True
    assert out["warnings"] == []


def test_broken_extension_falls_back_with_warning(tmp_path):
    out = run_python(BLOCK_EXT + REPORT, tmp_path)
    assert out.get("error") is None, out
    assert out["backend"] == "reference"
    assert out["circle_module"].startswith("fastcol._ref")
    assert out["facade_is_ref"] is True
    assert out["touching"] is True
    runtime = [msg for cat, msg in out["warnings"] if cat == "RuntimeWarning"]
    assert len(runtime) == 1, out["warnings"]
    assert re.search(r"\breference\b", runtime[0]), runtime[0]
    # the warning says why: the import error's own message is in it
    assert "undefined symbol fc_kernel" in runtime[0], runtime[0]
    assert [cat for cat, _ in out["warnings"]] == ["RuntimeWarning"]


@pytest.mark.parametrize("value", ["1", "true"])
def test_broken_extension_with_require_raises(tmp_path, value):
    out = run_python(BLOCK_EXT + REPORT, tmp_path, FASTCOL_REQUIRE_EXTENSIONS=value)
    assert "backend" not in out, f"fell back silently: {out}"
    assert out["is_import_error"] is True, out
    # the reason survives, in the message or as the chained cause
    assert "undefined symbol fc_kernel" in out["message"] + out["cause"], out


# --------------------------------------------------------------------------- API parity

EXCLUDED = {"backend", "__version__"}
_SIG_LINE = re.compile(r"^\s*(?:[\w.]+\.)?(\w+)\((.*)\)\s*(?:->.*)?$")


def _params_from_doc(obj):
    """Parameters from an embedded signature (Cython ``embedsignature``), used only
    when ``inspect.signature`` cannot see through an extension type's slot wrapper."""
    doc = inspect.getdoc(obj) or ""
    first = doc.splitlines()[0] if doc else ""
    m = _SIG_LINE.match(first)
    if not m:
        return None
    params = []
    for part in filter(None, (p.strip() for p in m.group(2).split(","))):
        name, _, default = part.partition("=")
        name = name.split(":")[0].split()[-1].lstrip("*")  # "double x" -> "x"
        if name in ("self", "cls", "/", ""):
            continue
        params.append((name, default.strip() or None))
    return params


def params(obj):
    """``[(name, default)]`` of a callable, ``default`` as text, None when required."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        sig = None
    if sig is not None:
        kinds = {p.kind for p in sig.parameters.values()}
        generic = inspect.Parameter.VAR_POSITIONAL in kinds or inspect.Parameter.VAR_KEYWORD in kinds
        if not generic:
            return [
                (p.name, None if p.default is inspect.Parameter.empty else repr(p.default))
                for p in sig.parameters.values()
                if p.name not in ("self", "cls")
            ]
    from_doc = _params_from_doc(obj)
    if from_doc is None:
        pytest.fail(f"no introspectable signature for {obj!r}")
    return [(n, None if d is None else repr(eval(d, {}))) for n, d in from_doc]  # noqa: S307


def _public(cls):
    return {n for n in dir(cls) if not n.startswith("_")}


def _public_names():
    """The public names (``fastcol._names.PUBLIC``, which ``fastcol.__all__`` extends
    by ``backend``), read from the source so that collecting this module does not
    import (and select a backend for) the package."""
    tree = ast.parse((Path(_SPEC.origin).parent / "_names.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "PUBLIC" for t in node.targets
        ):
            return [n for n in ast.literal_eval(node.value) if n not in EXCLUDED]
    raise AssertionError("fastcol/_names.py defines no literal PUBLIC")


def test_public_names_exist_in_both_backends(ext, ref):
    names = _public_names()
    assert len(names) >= 16
    missing = [(n, b.backend) for n in names for b in (ext, ref) if not hasattr(b, n)]
    assert missing == []


RECORD_SAMPLES = {
    "Closest": ((0.5, 1.0), (2.0, -1.0), 2.5),
    "Contact": ((0.0, 1.0), 0.25, ((1.0, 2.0), (3.0, 2.0))),
    "RayHit": (1.5, (2.0, 3.0), (-1.0, 0.0)),
    "PointQuery": ((2.0, 3.0), -0.5, (0.0, 1.0)),
    "CastHit": (0.5, (2.0, 3.0), (0.0, -1.0)),
}

SAMPLES = {
    "Circle": (0, 0, 1),
    "Capsule": (0, 0, 1, 1, 1),
    "Segment": (0, 0, 1, 1),
    "AABB": (0, 0, 1, 1),
    "OBB": (0, 0, 1, 1, 0.5),
    "Polygon": ([(0, 0), (1, 0), (0, 1)],),
    "CircleArray": ([[0, 0, 1]],),
    "CapsuleArray": ([[0, 0, 1, 1, 1]],),
    "SegmentArray": ([[0, 0, 1, 1]],),
    "AABBArray": ([[0, 0, 1, 1]],),
    "OBBArray": ([[0, 0, 1, 1, 0.5]],),
    "PolygonArray": ([[(0, 0), (1, 0), (0, 1)]],),
    "ShapeIndex": ([],),
}


def test_all_matches_the_imported_package():
    import fastcol  # a broken extension warns here, and warnings are errors: good

    assert [n for n in fastcol.__all__ if n not in EXCLUDED] == _public_names()


@pytest.mark.parametrize("name", _public_names())
def test_same_signature_in_both_backends(ext, ref, name):
    r, e = getattr(ref, name), getattr(ext, name)
    if name in ("ContactArray", "RayHitArray", "IndexHitArray", "PointQueryArray", "MassData",
                "CastHitArray", "IndexCastArray"):
        # the records of array answers, and MassData (no hot path): one class shared
        # by both backends
        assert r is e
        want = {"ContactArray": ("hit", "normal", "depth", "points", "count"),
                "RayHitArray": ("hit", "t", "point", "normal"),
                "IndexHitArray": ("hit", "t", "point", "normal", "item"),
                "PointQueryArray": ("point", "distance", "normal"),
                "CastHitArray": ("hit", "t", "point", "normal"),
                "IndexCastArray": ("hit", "t", "point", "normal", "item"),
                "MassData": ("mass", "centroid", "inertia")}[name]
        assert r._fields == want
        return
    if name in RECORD_SAMPLES:
        # a record: the same fields in the same order, built alike in both backends;
        # records of the two backends compare equal to each other and to the plain tuple
        args = RECORD_SAMPLES[name]
        rr, re_ = r(*args), e(*args)
        assert r._fields == e._fields == tuple(p[0] for p in params(r))
        for rec in (rr, re_):
            assert len(rec) == 3 and tuple(rec) == args
            assert tuple(getattr(rec, f) for f in r._fields) == args
        assert rr == re_ and re_ == rr and hash(rr) == hash(re_)
        if name != "Closest":
            return
        # and the record a query returns
        rr = ref.closest_points(ref.Circle(0, 0, 1), ref.Circle(4, 3, 1))
        re_ = ext.closest_points(ext.Circle(0, 0, 1), ext.Circle(4, 3, 1))
        assert type(rr) is r and type(re_) is e
        for rec in (rr, re_):
            assert len(rec) == 3
            assert (rec.point_a, rec.point_b, rec.distance) == tuple(rec) == (rec[0], rec[1], rec[2])
            flat = (*rec.point_a, *rec.point_b, rec.distance)
            assert flat == pytest.approx((0.8, 0.6, 3.2, 2.4, 3.0), rel=1e-12)
        assert rr == re_ and re_ == rr
        assert tuple(rr) == tuple(re_)
        return
    assert callable(r) and callable(e)
    assert isinstance(r, type) == isinstance(e, type), name
    assert params(r) == params(e), name
    if isinstance(r, type):
        # the same public attributes and methods, with the same signatures
        assert _public(r) == _public(e), name
        ir, ie = r(*SAMPLES[name]), e(*SAMPLES[name])
        for attr in sorted(_public(r)):
            mr, me = getattr(ir, attr), getattr(ie, attr)
            assert callable(mr) == callable(me), f"{name}.{attr}"
            if callable(mr):
                assert params(mr) == params(me), f"{name}.{attr}"
