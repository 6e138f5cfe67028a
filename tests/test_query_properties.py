"""Properties of collide, distance and closest_points on random shapes.

Every unordered pair of the six shape types is drawn by hypothesis (degenerate sizes
included: zero radius, zero length, zero-size boxes) and each property is checked in
both argument orders, so all 36 ordered pairs are covered.  The answers are compared
with the independent plain-math oracle in tests/oracle.py: every shape is a convex core
(a point, a segment or a convex polygon) grown by a radius, and the distance between two
such shapes is the distance between the cores minus both radii.

Tolerances are relative to the size of the shapes (never an absolute length), except
for the translation test, which states the absolute bound (1e-7) the contract promises
for unit-sized shapes at coordinates of 1e6.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import clearly_overlapping, oracle_distance, point_distance
from shapes import PAIR_PARAMS as PAIRS
from shapes import make_hull, scale, shape_specs, size_of, translate

REL = 1e-9  # tolerance relative to the size of the configuration
# the distance of shapes apart by exact signs whose rounded distance is 0.0
APART_FLOOR = math.sqrt(5e-324)

# 21 pairs x 2 tests x 75 examples keeps the file under ~20 s per backend (most of it
# is hypothesis drawing the shapes); the slow variants draw ten times as many.
FAST = settings(max_examples=75, database=None)
SLOW = settings(max_examples=750, database=None)


# ---------------------------------------------------------------------------------------
# Checks shared by the tests


def check_pair(fc, sa, sb, tol):
    """All contract properties of one ordered pair, against the oracle."""
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    hit = fc.collide(a, b)
    d = fc.distance(a, b)
    res = fc.closest_points(a, b)
    pa, pb, cd = res
    assert type(hit) is bool
    assert type(d) is float
    assert math.isfinite(d) and d >= 0.0
    assert hit == (d == 0.0)
    assert cd == d and res.distance == d
    assert res.point_a == pa and res.point_b == pb
    # each closest point lies on/in its own shape
    assert point_distance(sa, pa) <= tol
    assert point_distance(sb, pb) <= tol
    if hit:
        assert pa == pb
    else:
        assert abs(math.hypot(pa[0] - pb[0], pa[1] - pb[1]) - d) <= tol
    # the distance is the true separation
    assert abs(d - oracle_distance(sa, sb)) <= tol
    return hit, d, pa, pb


def check_symmetric(fc, sa, sb):
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    dab, dba = fc.distance(a, b), fc.distance(b, a)
    assert dab == dba and math.copysign(1.0, dab) == math.copysign(1.0, dba)
    assert fc.collide(a, b) is fc.collide(b, a)
    pa, pb, d = fc.closest_points(a, b)
    assert fc.closest_points(b, a) == (pb, pa, d)


# ---------------------------------------------------------------------------------------
# Tests


def _draw_pair(data, ka, kb, **lims):
    """Draw the specs of shapes a (of kind ka) and b (of kind kb)."""
    sa = data.draw(shape_specs(ka, **lims), label="a")
    sb = data.draw(shape_specs(kb, **lims), label="b")
    return sa, sb


def _oracle_case(fc, sa, sb):
    L = size_of(sa, sb)
    tol = REL * L
    check_symmetric(fc, sa, sb)
    hit, d, _, _ = check_pair(fc, sa, sb, tol)
    check_pair(fc, sb, sa, tol)
    if clearly_overlapping(sa, sb, 1e-6 * L):
        assert hit is True


@pytest.mark.parametrize("ka, kb", PAIRS)
@FAST
@given(data=st.data())
def test_queries_consistent_with_oracle(fc, ka, kb, data):
    _oracle_case(fc, *_draw_pair(data, ka, kb))


@pytest.mark.slow
@pytest.mark.parametrize("ka, kb", PAIRS)
@SLOW
@given(data=st.data())
def test_queries_consistent_with_oracle_long(fc, ka, kb, data):
    _oracle_case(fc, *_draw_pair(data, ka, kb))


OFFSETS = [(1e6, 1e6), (-1e6, -1e6), (1e6, -3e6)]


def _invariance_case(fc, sa, sb):
    """Unit-sized shapes near the origin, then moved far away, then scaled."""
    L = size_of(sa, sb)
    a0, b0 = make_hull(fc, sa), make_hull(fc, sb)
    hit0, d0 = fc.collide(a0, b0), fc.distance(a0, b0)
    # clear verdicts: rounding the moved coordinates (half an ulp of 3e6 is 2.3e-10)
    # or scaling them by an inexact 1e-3 cannot flip them
    separated = d0 > 1e-6 * max(L, 1.0)
    overlapping = clearly_overlapping(sa, sb, 1e-3 * max(L, 1.0))

    # moved by 1e6: the same verdict where it is clear, distance within 1e-7
    for dx, dy in OFFSETS:
        ta, tb = translate(sa, dx, dy), translate(sb, dx, dy)
        a1, b1 = make_hull(fc, ta), make_hull(fc, tb)
        d1 = fc.distance(a1, b1)
        assert abs(d1 - d0) <= 1e-7, (dx, dy)
        if separated:
            assert fc.collide(a1, b1) is False, (dx, dy)
        if overlapping:
            assert fc.collide(a1, b1) is True, (dx, dy)
        check_symmetric(fc, ta, tb)
        check_pair(fc, ta, tb, 1e-7)

    # size 1e-3: the same answer, scaled (1e-3 is inexact in binary, hence the tolerance)
    k = 1e-3
    ka_, kb_ = scale(sa, k), scale(sb, k)
    a1, b1 = make_hull(fc, ka_), make_hull(fc, kb_)
    d1 = fc.distance(a1, b1)
    assert d1 == pytest.approx(k * d0, rel=1e-9, abs=1e-9 * k * L)
    if separated:
        assert fc.collide(a1, b1) is False
    if overlapping:
        assert fc.collide(a1, b1) is True
    check_pair(fc, ka_, kb_, REL * k * L)

    # a power of two scales every float operation exactly: no absolute epsilon may
    # change the verdict, even for exactly touching shapes.  Shapes that exact signs
    # find apart while the rounded distance is 0.0 are reported at the one distance
    # sqrt(5e-324) at every scale
    for k2 in (2.0**-10, 2.0**10):
        a2, b2 = make_hull(fc, scale(sa, k2)), make_hull(fc, scale(sb, k2))
        assert fc.collide(a2, b2) is hit0, k2
        if d0 == APART_FLOOR:
            assert fc.distance(a2, b2) == APART_FLOOR, k2
        else:
            assert fc.distance(a2, b2) == pytest.approx(k2 * d0, rel=1e-12, abs=0.0), k2


@pytest.mark.parametrize("ka, kb", PAIRS)
@FAST
@given(data=st.data())
def test_translation_and_scale_invariance(fc, ka, kb, data):
    # (b, a) gives bit-identical answers: check_symmetric asserts it at every offset
    _invariance_case(fc, *_draw_pair(data, ka, kb, lim=2, size_lim=1))


@pytest.mark.slow
@pytest.mark.parametrize("ka, kb", PAIRS)
@SLOW
@given(data=st.data())
def test_translation_and_scale_invariance_long(fc, ka, kb, data):
    # (b, a) gives bit-identical answers: check_symmetric asserts it at every offset
    _invariance_case(fc, *_draw_pair(data, ka, kb, lim=2, size_lim=1))


# Configurations where an OBB rotated by a multiple of pi/4 (whose cos/sin are rounded)
# touches the other shape at a corner that rounds onto it: the verdict may go either
# way by 1e-16, but collide, distance and closest_points must agree (found by fuzzing;
# the assertions are the contract, not recorded outputs).
ROUNDED_ROTATIONS = [
    pytest.param(("AABB", 0.0, 0.0, 2.0, 2.0), ("OBB", 3.0, 3.0, 1.0, 1.0, math.pi),
                 id="aabb-obb-pi-corner"),
    pytest.param(("OBB", 1.0, 1.0, 1.0, 1.0, 0.0), ("OBB", 3.0, 3.0, 1.0, 1.0, math.pi),
                 id="obb-obb-pi-corner"),
    pytest.param(("AABB", -1.0, 0.5, -1.0, 1.5), ("OBB", 0.0, 2.0, 0.5, 1.0, math.pi / 2),
                 id="zero-width-aabb-obb-half-pi"),
    pytest.param(("AABB", 0.0, 0.0, 2.0, 2.0), ("OBB", 3.0, 2.5, 1.0, 0.5, math.pi),
                 id="aabb-obb-pi-corner-2"),
    pytest.param(("AABB", -1.75, 0.25, -1.25, 1.25),
                 ("OBB", -1.25, 0.0, 0.25, 0.0, 3 * math.pi / 2),
                 id="aabb-zero-height-obb-three-half-pi"),
    pytest.param(("OBB", 2.0, 1.5, 0.0, 0.5, math.pi / 4),
                 ("Polygon", ((1.75, 1.75), (-0.75, -1.25), (-1.25, -2.0))),
                 id="zero-width-obb-quarter-pi-polygon"),
    pytest.param(("Polygon", ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))),
                 ("OBB", 3.0, 3.0, 1.0, 1.0, math.pi), id="polygon-obb-pi-corner"),
    pytest.param(("Circle", 2.0, 2.0, 0.0), ("OBB", 3.0, 3.0, 1.0, 1.0, math.pi),
                 id="point-obb-pi-corner"),
    pytest.param(("Segment", 2.0, 2.0, 2.0, 5.0), ("OBB", 3.0, 3.0, 1.0, 1.0, math.pi),
                 id="segment-obb-pi-edge"),
    pytest.param(("OBB", 0.5, -0.5, 0.25, 0.0, math.pi / 2),
                 ("OBB", 0.0, 0.25, 0.5, 0.5, 0.0), id="zero-height-obb-half-pi-corner"),
    # the point (0,0) lies on the edge v = -half_h of the OBB (u = sqrt3/4, v = -1/4)
    pytest.param(("AABB", 0.0, 0.0, 0.0, 0.0),
                 ("OBB", 0.0, 0.5, 0.7087085034198065, 0.25, -math.pi / 3),
                 id="point-aabb-on-obb-edge-third-pi"),
    pytest.param(("AABB", 0.0, 0.0, 0.0, 0.0),
                 ("OBB", 0.0, 0.5, 0.71875, 0.25, -math.pi / 3),
                 id="point-aabb-on-obb-edge-third-pi-2"),
]


@pytest.mark.parametrize("sa, sb", ROUNDED_ROTATIONS)
def test_verdicts_agree_at_rounded_rotations(fc, sa, sb):
    _oracle_case(fc, sa, sb)
    _invariance_case(fc, sa, sb)


# A gap of 1e-170 between unit shapes: within the stated accuracy the distance may be
# 1e-170 or 0.0 (a squared distance of 1e-340 underflows), but collide must say the
# same thing as distance (found by hypothesis: an OBB at an angle of 3.5e-186).
TINY_GAPS = [
    pytest.param(("AABB", 0.0, 0.0, 1.0, 1.0),
                 ("Polygon", ((-1.0, 0.0), (-1e-170, 0.0), (-1.0, 1.0))),
                 id="aabb-polygon"),
    pytest.param(("Polygon", ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))),
                 ("OBB", -1e-170, 2.0, 0.0, 1.0, 0.0), id="polygon-obb"),
    pytest.param(("AABB", 0.0, 0.0, 0.0, 0.0), ("OBB", 0.0, 1.0, 0.0, 1.0, 1e-170),
                 id="point-aabb-obb-tiny-angle"),
    pytest.param(("AABB", 0.0, 0.0, 0.0, 0.0),
                 ("OBB", 0.0, 0.25, 0.0, 0.25, 3.4973105469536802e-186),
                 id="point-aabb-obb-tiny-angle-found"),
    pytest.param(("OBB", 0.0, 0.0, 0.0, 0.0, 0.0),
                 ("OBB", 1.0, 0.0, 1.0, 0.0, 2.7098603283234726e-198),
                 id="point-obb-obb-tiny-angle"),
    pytest.param(("AABB", 0.0, 0.0, 0.0, 0.0), ("OBB", 0.0, 0.0, 0.0, 0.25, 5e-324),
                 id="point-aabb-obb-subnormal-angle"),
]


@pytest.mark.parametrize("sa, sb", TINY_GAPS)
def test_verdicts_agree_at_tiny_gaps(fc, sa, sb):
    _oracle_case(fc, sa, sb)
