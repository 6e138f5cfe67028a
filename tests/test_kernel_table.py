"""docs/design.md's table of kernels by query names twins that exist in both backends.

Each name is a ``def``, ``cdef`` or ``cpdef`` function of ``_ext/<module>.pyx`` or
``.pxd`` and a ``def`` of ``_ref/<module>.py``.  A kernel renamed or removed in either
backend without its row fails here, so the table stays the map of both.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
SRC = ROOT / "src" / "fastcol"
QUERIES = {"collide", "distance", "closest_points", "contact", "raycast", "time_of_impact",
           "shape_cast", "point_query", "contains"}


def table_rows():
    """``(queries, family, kernels cell)`` of each row of the table."""
    text = DESIGN.read_text(encoding="utf-8")
    section = text.split("### Kernels by query", 1)[1]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| "):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("query", "---"):
            continue
        rows.append(({q.strip() for q in cells[0].split(",")}, cells[1], cells[2]))
    return rows


def names(cell):
    """The ``module.name`` references of a cell."""
    return re.findall(r"`(\w+)\.(\w+)`", cell)


def source(backend, module):
    if backend == "compiled":
        paths = [SRC / "_ext" / f"{module}.pyx", SRC / "_ext" / f"{module}.pxd"]
    else:
        paths = [SRC / "_ref" / f"{module}.py"]
    return "\n".join(p.read_text(encoding="utf-8") for p in paths if p.exists())


def defines(text, name):
    # a def, or a cdef/cpdef with any return type, of this name, at the start of a line
    return re.search(rf"^c?p?def\b[^=(\n]*\b{re.escape(name)}\s*\(", text, re.M) is not None


pytestmark = pytest.mark.skipif(
    not (DESIGN.exists() and SRC.is_dir()),
    reason="docs/ and src/ are not beside tests/ (a copy of the tests run alone)",
)


def test_the_table_covers_every_query():
    rows = table_rows()
    assert len(rows) >= 20
    assert set().union(*(q for q, *_ in rows)) == QUERIES
    for queries, family, kernels in rows:
        assert names(kernels), (queries, family)


@pytest.mark.parametrize("backend", ["compiled", "reference"])
def test_every_kernel_named_exists(backend):
    missing = []
    for queries, family, kernels in table_rows():
        for module, name in names(kernels):
            if not defines(source(backend, module), name):
                missing.append(f"{module}.{name} ({sorted(queries)[0]}, {family})")
    assert not missing, f"named in docs/design.md but not defined ({backend}): {missing}"


def test_the_check_sees_a_missing_name():
    # the check itself: a name that is nowhere is reported, a real one is found
    assert defines(source("reference", "queries"), "collide_canonical")
    assert defines(source("compiled", "queries"), "collide_canonical")
    assert not defines(source("compiled", "queries"), "no_such_kernel")
