"""The installed package carries its compiled extension (issue 3: wheels).

A wheel or an install that lost its extension modules still imports: the façade falls
back to the pure-Python reference with a ``RuntimeWarning``.  These tests fail instead.
Every extension module must import and be a compiled module (its file ends with one of
this interpreter's extension suffixes), and the façade must have picked it.

CI, cibuildwheel's test-command and ``.ci/run`` set ``FASTCOL_REQUIRE_EXTENSIONS=1``, so
the backend check is then the contract itself; ``FASTCOL_NO_EXTENSIONS=1`` (the
reference job of ci.yml) asks for the reference explicitly, and then the façade must
use it.  The extension modules must import either way: the suite requires the compiled
build (see ``conftest.py``).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
from pathlib import Path

import pytest

# the extension modules setup.py declares (fastcol/_ext/<name>.pyx)
MODULES = ("geometry", "records", "shapes", "narrowphase", "queries", "_info")
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _flag(name: str) -> bool:
    # the same reading as fastcol._backend
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _shipped_pyx() -> set[str]:
    """Stems of the .pyx sources installed next to the extension (package data)."""
    import fastcol

    return {p.stem for p in (Path(fastcol.__file__).parent / "_ext").glob("*.pyx")}


@pytest.mark.parametrize("name", MODULES)
def test_extension_module_is_compiled(name):
    module = importlib.import_module(f"fastcol._ext.{name}")
    path = getattr(module, "__file__", None) or ""
    assert path.endswith(SUFFIXES), (
        f"fastcol._ext.{name} is not a compiled module: {path!r} "
        f"(expected one of {SUFFIXES})"
    )
    assert isinstance(module.__spec__.loader, importlib.machinery.ExtensionFileLoader)


def test_every_shipped_pyx_is_compiled():
    # a module added to setup.py but not to MODULES above is still checked here
    missing = []
    for name in sorted(_shipped_pyx() | set(MODULES)):
        try:
            module = importlib.import_module(f"fastcol._ext.{name}")
        except ImportError as exc:
            missing.append(f"{name}: {exc}")
            continue
        if not (getattr(module, "__file__", None) or "").endswith(SUFFIXES):
            missing.append(f"{name}: not compiled ({module.__file__})")
    assert not missing, "extension modules missing from the installed package: " + "; ".join(
        missing
    )


def test_facade_backend():
    import fastcol
    from fastcol._api import load

    if _flag("FASTCOL_NO_EXTENSIONS"):
        # an explicit request for the reference wins (DESIGN.md, Backends)
        assert fastcol.backend == "reference"
        assert fastcol.collide == load("reference").collide
        assert fastcol.Circle is importlib.import_module("fastcol._ref").Circle
        return
    # with FASTCOL_REQUIRE_EXTENSIONS=1 a missing extension already failed the import;
    # without it, the fallback would show here
    assert fastcol.backend == "compiled", (
        f"the façade uses the {fastcol.backend} backend "
        f"(FASTCOL_REQUIRE_EXTENSIONS={os.environ.get('FASTCOL_REQUIRE_EXTENSIONS', '')!r})"
    )
    # the public functions are the C entries in front of fastcol._api's
    assert fastcol.collide is load("compiled").collide
    assert type(fastcol.collide).__name__ == "builtin_function_or_method"
    assert fastcol.Circle is importlib.import_module("fastcol._ext").Circle


def test_extension_was_built_with_the_floating_point_policy():
    # setup.py records the flags it passed (FASTCOL_BUILD_FLAGS); a wheel built some
    # other way shows "unknown" and fails here
    from fastcol._ext._info import build_info

    info = build_info()
    flags = info["flags"].split()
    if info["compiler"].startswith("MSVC"):
        assert "/fp:precise" in flags, info
    else:
        assert "-ffp-contract=off" in flags, info
    assert not any("fast-math" in f or f.startswith("/fp:fast") for f in flags), info
