"""Each row of docs/design.md's kernel table, compiled against reference, bit for bit.

The table names, for each query and family of shapes, the kernels that answer it, twins
by name in both backends (tests/test_kernel_table.py checks that each exists).  Here
every row runs: shapes of the family's kinds, placed so that the row's kernels do the
work (pairs moved next to each other, so most collide and ``contact`` reaches its
kernels; rays and sweeps aimed at a vertex or centre), answered by both backends and
compared bit for bit (the helpers of the other differential tests).  A row whose family
this file does not know fails: a new kernel's family needs its kinds here.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shapes import KINDS, ROUND
from test_differential import (  # noqa: F401  (pytestmark: x86-64 only)
    EXT,
    REF,
    assert_same,
    build,
    pytestmark,
    specs,
)
from test_differential_contact import check_contact_pair
from test_differential_sweeps import anchors, check_ray, check_toi
from test_kernel_table import DESIGN, table_rows

CONVEX = [k for k in KINDS if k not in ROUND]
PAIRS = list(itertools.combinations_with_replacement(KINDS, 2))
ROUND_PAIRS = list(itertools.combinations_with_replacement(ROUND, 2))

# each family of the table as the kinds (pairs of kinds, or single kinds for a ray)
# whose queries its kernels answer
FAMILIES = {
    "any pair": PAIRS,
    "apart or overlapping cores (every family)": PAIRS,
    "round–round": ROUND_PAIRS,
    "circle–circle": [("Circle", "Circle")],
    "circle–AABB": [("Circle", "AABB")],
    "round–convex": [(r, c) for r in ROUND for c in CONVEX],
    "circle–convex": [("Circle", c) for c in CONVEX],
    "AABB–AABB": [("AABB", "AABB")],
    "convex–convex": list(itertools.combinations_with_replacement(CONVEX, 2)),
    "every other pair": [p for p in PAIRS if p not in ROUND_PAIRS],
    "any shape": [(k,) for k in KINDS],
    "circle": [("Circle",)],
    "AABB": [("AABB",)],
    "capsule, segment": [("Capsule",), ("Segment",)],
    "OBB, polygon": [("OBB",), ("Polygon",)],
}


def _cases():
    if not DESIGN.exists():
        return []  # a copy of the tests run alone: test_kernel_table skips likewise
    cases = []
    for queries, family, kernels in table_rows():
        for kinds in FAMILIES.get(family, [None]):
            for query in sorted(queries):
                label = "-".join([query, family.replace("–", "-"), *(kinds or ["?"])])
                cases.append(pytest.param(query, family, kinds, id=label))
    return cases


def _anchor(spec):
    kind, p = spec
    return p[0] if kind == "Polygon" else (p[0], p[1])


@pytest.mark.parametrize("query, family, kinds", _cases())
@settings(max_examples=25)
@given(data=st.data())
def test_kernel_rows_bit_identical(query, family, kinds, data):
    assert kinds is not None, f"the table's family {family!r} has no kinds in FAMILIES"
    if query == "raycast":
        (kind,) = kinds
        spec = data.draw(specs(kind))
        origin = (data.draw(st.integers(-12, 12)) / 2, data.draw(st.integers(-12, 12)) / 2)
        pts = anchors(spec)
        tx, ty = pts[data.draw(st.integers(0, len(pts) - 1))]
        k = data.draw(st.sampled_from([1.0, 0.5, 3.0, 1e-3]))
        d = ((tx - origin[0]) * k, (ty - origin[1]) * k)
        if d != (0.0, 0.0):
            check_ray(spec, origin, d)
        return
    if query in ("point_query", "contains"):
        (kind,) = kinds
        spec = data.draw(specs(kind))
        pts = anchors(spec)
        px, py = pts[data.draw(st.integers(0, len(pts) - 1))]
        # the anchor itself (a vertex, a centre, an edge's midpoint) or a step off it
        step = data.draw(st.sampled_from([0.0, 0.5, -0.25, 1e-9]))
        p = (px + step, py - step)
        assert_same(query, (build(REF, spec), p), (build(EXT, spec), p))
        return
    sa, sb = data.draw(specs(kinds[0])), data.draw(specs(kinds[1]))
    if query == "shape_cast":
        # one anchor of b travels straight at one anchor of a, in both orders
        pa, pb = anchors(sa), anchors(sb)
        (ax, ay) = pa[data.draw(st.integers(0, len(pa) - 1))]
        (bx, by) = pb[data.draw(st.integers(0, len(pb) - 1))]
        k = data.draw(st.sampled_from([0.25, 1.0, 1e3]))
        v = ((ax - bx) * k, (ay - by) * k)
        ra, rb, ea, eb = build(REF, sa), build(REF, sb), build(EXT, sa), build(EXT, sb)
        inf = float("inf")
        assert_same(query, (ra, (0.0, 0.0), rb, v, inf), (ea, (0.0, 0.0), eb, v, inf))
        assert_same(query, (rb, v, ra, (0.0, 0.0), inf), (eb, v, ea, (0.0, 0.0), inf))
        return
    if query == "time_of_impact":
        # one anchor of b travels straight at one anchor of a
        pa, pb = anchors(sa), anchors(sb)
        (ax, ay) = pa[data.draw(st.integers(0, len(pa) - 1))]
        (bx, by) = pb[data.draw(st.integers(0, len(pb) - 1))]
        k = data.draw(st.sampled_from([0.25, 1.0, 1e3]))
        check_toi(sa, (0.0, 0.0), sb, ((ax - bx) * k, (ay - by) * k), float("inf"))
        return
    # b's reference point moved next to a's: most of these pairs collide
    ax, ay = _anchor(sa)
    bx, by = _anchor(sb)
    move = (ax - bx + data.draw(st.integers(-8, 8)) / 4,
            ay - by + data.draw(st.integers(-8, 8)) / 4)
    if query == "contact":
        check_contact_pair(sa, sb, move_b=move)
        return
    # translated(), not a moved spec: rounding may collapse a moved sliver polygon
    ra, rb = build(REF, sa), build(REF, sb).translated(*move)
    ea, eb = build(EXT, sa), build(EXT, sb).translated(*move)
    assert_same(query, (ra, rb), (ea, eb))
    assert_same(query, (rb, ra), (eb, ea))


def test_every_family_of_the_table_is_placed():
    if not DESIGN.exists():
        pytest.skip("docs/ is not beside tests/ (a copy of the tests run alone)")
    families = {family for _, family, _ in table_rows()}
    assert families <= set(FAMILIES), sorted(families - set(FAMILIES))
