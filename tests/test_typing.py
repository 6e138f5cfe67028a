"""mypy sees fastcol's real types (``src/fastcol/__init__.pyi``), not ``Any``.

mypy (the test extra installs it) checks a small typed example, whose inferred types
are compared with what the queries return, and one that must fail.  It reads fastcol
as this interpreter imports it: an installed wheel, or the source tree of an editable
install (which mypy cannot follow through its import hook: MYPYPATH points there).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mypy import api

import fastcol

PACKAGE = Path(fastcol.__file__).resolve().parent
STUB = PACKAGE / "__init__.pyi"

GOOD = """\
import numpy as np
import fastcol as fc

c = fc.Circle(0, 0, 1)
reveal_type(fc.collide(c, fc.Circle(1, 0, 1)))
reveal_type(fc.closest_points(c, fc.AABB(0, 0, 1, 1)))
reveal_type(fc.contact(c, fc.Capsule(0, 0, 1, 0, 0.5)))
reveal_type(fc.raycast(c, (0, 0), (1, 0)))
reveal_type(fc.collide(fc.CircleArray(np.zeros((2, 3))), c))
reveal_type(fc.distance(c, fc.OBBArray(np.zeros((2, 5)))))
reveal_type(fc.overlapping_pairs(fc.CircleArray(np.zeros((2, 3)))))
reveal_type(fc.CircleArray([c])[0])
reveal_type(fc.orient2d((0, 0), (1, 0), (0, 1)))
reveal_type(fc.point_query(c, (0, 2)))
reveal_type(fc.contains(c, (0, 0)))
reveal_type(fc.point_query(c, np.zeros((2, 2))))
hit: bool = fc.collide(c, c)
"""

# the revealed type of each reveal_type line above, as patterns (mypy's spelling of
# NumPy types varies with the versions)
EXPECTED = [
    r"^bool$",
    r"fallback=fastcol\.Closest\]$",
    r"fallback=fastcol\.Contact\] \| None$",
    r"fallback=fastcol\.RayHit\] \| None$",
    r"^numpy\.ndarray\[.*numpy\.dtype\[numpy\.bool",
    r"^numpy\.ndarray\[.*numpy\.dtype\[numpy\.floating",
    r"^numpy\.ndarray\[.*numpy\.dtype\[numpy\.signedinteger\[.*64Bit\]\]\]$",
    r"^fastcol\.Circle$",
    r"^int$",
    r"fallback=fastcol\.PointQuery\]$",
    r"^bool$",
    r"fallback=fastcol\.PointQueryArray\]$",
]


def _mypy(tmp_path, monkeypatch, source):
    if not any(part in ("site-packages", "dist-packages") for part in PACKAGE.parts):
        monkeypatch.setenv("MYPYPATH", str(PACKAGE.parent))
    example = tmp_path / "example.py"
    example.write_text(source)
    out, err, status = api.run([
        "--no-incremental", "--cache-dir", str(tmp_path / "cache"), "--strict-optional",
        str(example),
    ])
    return out + err, status


def test_mypy_infers_the_public_types(tmp_path, monkeypatch):
    out, status = _mypy(tmp_path, monkeypatch, GOOD)
    assert status == 0, out
    revealed = re.findall(r'Revealed type is "(.*)"', out)
    assert len(revealed) == len(EXPECTED), out
    for got, want in zip(revealed, EXPECTED):
        assert re.search(want, got), (want, got)


def test_mypy_rejects_a_shape_of_strings(tmp_path, monkeypatch):
    out, status = _mypy(tmp_path, monkeypatch, 'import fastcol as fc\nfc.Circle("x", 0, 1)\n')
    assert status == 1
    assert 'Argument 1 to "Circle" has incompatible type "str"; expected "float"' in out


def test_the_stub_names_every_public_name():
    # a name added to fastcol.__all__ without its type would be missing from mypy's
    # view; a public name only in the stub would be a promise the package does not keep
    tree = ast.parse(STUB.read_text())
    defined = {node.name for node in tree.body
               if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    defined |= {t.target.id for t in tree.body if isinstance(t, ast.AnnAssign)}
    public = {name for name in defined if not name.startswith("_") or name == "__version__"}
    assert public == set(fastcol.__all__)
