"""Topological verdicts against the exact oracle: orient2d, segments, Segment and Capsule.

Every expected value comes from tests/exact.py, which computes in rational arithmetic
(never from the other backend, nor from a float oracle): a verdict that rounding flips
fails here on both backends.  The cases are the hard ones of exact.py's generators
(nearly collinear and nearly parallel segments, T-junctions, shared and nearly shared
ends, a hair across, zero length, collinear with a gap or overlapping) at offsets 0,
1e6 and -3e7 and scales 1e-3 to 1e3, drawn by hypothesis (replayable, shrinkable).

Verdicts (orient2d's sign, segments_intersect, distance == 0.0, collide of segments)
must be exact.  Lengths are floats, checked within a bound relative to the
configuration's size in its exact local frame (``exact.frame_extent``: M below).
Capsules are checked against the exact verdict outside a band of 1e-12 of the pair's
size (plus FLOOR, the distances' own) around touching, where a float length may go
either way.

The default tests keep under ~20 s per backend; the ``slow`` variants draw 10x more.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import exact

CASES = st.lists(exact.strategy(), min_size=1, max_size=8)
FAST = settings(max_examples=300, database=None)
SLOW = settings(max_examples=3000, database=None)

# |d - d_exact| <= DIST_ULPS * 2**-52 * M + FLOOR for segment_segment_distance: FLOOR
# is where squared distances go subnormal (distances below 2**-511 are not resolved
# further; apart segments nearer than the squares can tell come out as sqrt(5e-324))
DIST_ULPS = 8
FLOOR = Fraction(2) ** -535
# capsule verdicts are checked where the exact core distance is further than this
# times the pair's size (M plus both radii) from touching
BAND = 1e-12

NAN, INF = math.nan, math.inf


def rows(points):
    return np.array(points, dtype=np.float64).reshape(-1, 2)


def triples(case):
    """The four orientations a segment pair's verdict is made of."""
    a, b, c, d = case
    return [(a, b, c), (a, b, d), (c, d, a), (c, d, b)]


def show(case):
    return "a, b, c, d = " + ", ".join(repr(p) for p in case)


def within(d, d2_exact, bound):
    """Whether |d - sqrt(d2_exact)| <= bound, decided exactly."""
    d, bound = Fraction(d), Fraction(bound)
    if d2_exact > (d + bound) ** 2:
        return False
    return d <= bound or (d - bound) ** 2 <= d2_exact


def root(d2):
    """The float nearest sqrt of an exact Fraction (no underflow: for messages)."""
    with localcontext() as ctx:
        ctx.prec = 40
        return float((Decimal(d2.numerator) / Decimal(d2.denominator)).sqrt())


def distance_bound(case):
    return DIST_ULPS * Fraction(2) ** -52 * exact.frame_extent(case) + FLOOR


# ---------------------------------------------------------------------------- checks


def _check_orient(fc, cases):
    tri = [t for case in cases for t in triples(case)]
    expected = [exact.orient(*t) for t in tri]
    for t, want in zip(tri, expected):
        assert fc.orient2d(*t) == want, f"orient2d{t!r}"
    # arrays: the same signs as int8, and 0 for rows holding NaN or inf
    bad = [((NAN, 0.0), (1.0, 0.0), (0.0, 1.0)), ((0.0, 0.0), (INF, 0.0), (0.0, 1.0)),
           ((0.0, 0.0), (1.0, 0.0), (0.0, -INF)), ((0.0, 0.0), (1.0, 0.0), (1.0, NAN))]
    allt = tri + bad
    got = fc.orient2d(*(rows([t[i] for t in allt]) for i in range(3)))
    assert got.dtype == np.int8 and got.shape == (len(allt),)
    assert got.tolist() == expected + [0] * len(bad), tri


def _check_intersect(fc, cases):
    expected = [exact.segments_intersect(*case) for case in cases]
    for case, want in zip(cases, expected):
        assert fc.segments_intersect(*case) is want, show(case)
    got = fc.segments_intersect(*(rows([case[i] for case in cases]) for i in range(4)))
    assert got.tolist() == expected, cases


def _check_distance_value(d, case, meet):
    if meet:
        assert d == 0.0, show(case)
        return
    d2 = exact.segment_segment_dist2(*case)
    assert d > 0.0, show(case)
    bound = distance_bound(case)
    assert within(d, d2, bound), (
        f"{show(case)}: {d!r} vs exact {root(d2)!r}, bound {float(bound)!r}")


def _check_distance(fc, cases):
    meets = [exact.segments_intersect(*case) for case in cases]
    for case, meet in zip(cases, meets):
        _check_distance_value(fc.segment_segment_distance(*case), case, meet)
    got = fc.segment_segment_distance(*(rows([case[i] for case in cases]) for i in range(4)))
    for d, case, meet in zip(got.tolist(), cases, meets):
        _check_distance_value(d, case, meet)


def _check_closest(fc, cases):
    for case in cases:
        d, s, t, p, q = fc.segment_segment_closest(*case)
        assert (d == 0.0) is exact.segments_intersect(*case), show(case)
        assert 0.0 <= s <= 1.0 and 0.0 <= t <= 1.0, (show(case), s, t)
        if d == 0.0:
            assert tuple(p) == tuple(q), (show(case), p, q)


def _check_segment_collide(fc, cases):
    expected = [exact.segments_intersect(*case) for case in cases]
    for (a, b, c, d), want in zip(cases, expected):
        s1, s2 = fc.Segment(*a, *b), fc.Segment(*c, *d)
        assert fc.collide(s1, s2) is want, show((a, b, c, d))
        assert fc.collide(s2, s1) is want, show((a, b, c, d))
        assert (fc.distance(s1, s2) == 0.0) is want, show((a, b, c, d))
    arr1 = fc.SegmentArray(np.array([a + b for a, b, _, _ in cases], dtype=np.float64))
    arr2 = fc.SegmentArray(np.array([c + d for _, _, c, d in cases], dtype=np.float64))
    assert fc.collide(arr1, arr2).tolist() == expected, cases


def _check_capsules(fc, kind, case, ra, rb):
    a, b, c, d = case
    first = fc.Capsule(*a, *b, ra)
    if kind == "capsule-capsule":
        second, total = fc.Capsule(*c, *d, rb), Fraction(ra) + Fraction(rb)
    else:
        second, total = fc.Segment(*c, *d), Fraction(ra)
        rb = 0.0
    where = f"{show(case)}, ra, rb = {ra!r}, {rb!r}"
    hit = fc.collide(first, second)
    # consistency and symmetry hold everywhere, the band included
    assert fc.collide(second, first) is hit, where
    assert (fc.distance(first, second) == 0.0) is hit, where
    assert (fc.distance(second, first) == 0.0) is hit, where
    d2 = exact.segment_segment_dist2(*case)
    # the core distance is resolved to FLOOR at best (2**-537 reads as sqrt(5e-324))
    band = Fraction(BAND) * (exact.frame_extent(case) + Fraction(ra) + Fraction(rb)) + FLOOR
    outside = d2 > (total + band) ** 2 or (total > band and d2 < (total - band) ** 2)
    assume(outside)
    want = d2 <= total * total
    assert hit is want, f"{where}: exact core distance {root(d2)!r}, ra + rb {float(total)!r}"


# ------------------------------------------------------------------------- the tests


@FAST
@given(cases=CASES)
def test_orient2d_is_exact(fc, cases):
    _check_orient(fc, cases)


@FAST
@given(cases=CASES)
def test_segments_intersect_is_exact(fc, cases):
    _check_intersect(fc, cases)


@FAST
@given(cases=CASES)
def test_segment_segment_distance_zero_exactly_when_meeting(fc, cases):
    """d == 0.0 exactly when the segments meet; otherwise d > 0 and
    |d - d_exact| <= 8 * 2**-52 * M + 2**-535, where d_exact is the exact distance (the square
    root of exact.segment_segment_dist2) and M is exact.frame_extent of the four
    points: per axis, the largest |coordinate - a's coordinate| when every coordinate
    on that axis lies within a factor 2 of a's (same sign: the subtraction is exact,
    Sterbenz), else the largest |coordinate|."""
    _check_distance(fc, cases)


@FAST
@given(cases=CASES)
def test_segment_segment_closest_meeting_point(fc, cases):
    _check_closest(fc, cases)


@FAST
@given(cases=CASES)
def test_collide_segments_is_exact(fc, cases):
    _check_segment_collide(fc, cases)


@pytest.mark.parametrize("kind", ["capsule-capsule", "capsule-segment"])
@FAST
@given(data=st.data())
def test_collide_capsules_outside_band(fc, kind, data):
    case = data.draw(exact.strategy(), label="case")
    ra, rb = data.draw(exact.radii_strategy(case), label="radii")
    _check_capsules(fc, kind, case, ra, rb)


@pytest.mark.slow
@SLOW
@given(cases=CASES)
def test_orient2d_is_exact_long(fc, cases):
    _check_orient(fc, cases)


@pytest.mark.slow
@SLOW
@given(cases=CASES)
def test_segments_intersect_is_exact_long(fc, cases):
    _check_intersect(fc, cases)


@pytest.mark.slow
@SLOW
@given(cases=CASES)
def test_segment_segment_distance_zero_exactly_when_meeting_long(fc, cases):
    """The bound of test_segment_segment_distance_zero_exactly_when_meeting."""
    _check_distance(fc, cases)


@pytest.mark.slow
@SLOW
@given(cases=CASES)
def test_segment_segment_closest_meeting_point_long(fc, cases):
    _check_closest(fc, cases)


@pytest.mark.slow
@SLOW
@given(cases=CASES)
def test_collide_segments_is_exact_long(fc, cases):
    _check_segment_collide(fc, cases)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["capsule-capsule", "capsule-segment"])
@SLOW
@given(data=st.data())
def test_collide_capsules_outside_band_long(fc, kind, data):
    case = data.draw(exact.strategy(), label="case")
    ra, rb = data.draw(exact.radii_strategy(case), label="radii")
    _check_capsules(fc, kind, case, ra, rb)


# --------------------------------------------------------------------- plain cases

ISSUE = ((-0.37050899826797146, -0.22157418813329932), (0.8456438002738476, -0.6787876620351443),
         (1.067771125277651, -0.762296581338117), (2.0406933641111062, -1.128067360459593))


def test_issue_example(fc):
    a, b, c, d = ISSUE
    assert exact.segments_intersect(a, b, c, d) is False
    d2 = exact.segment_segment_dist2(a, b, c, d)
    assert math.sqrt(d2) == pytest.approx(0.23730631705981975, rel=1e-15)
    assert fc.segments_intersect(a, b, c, d) is False
    dist = fc.segment_segment_distance(a, b, c, d)
    assert within(dist, d2, distance_bound(ISSUE)), dist
    assert fc.collide(fc.Segment(*a, *b), fc.Segment(*c, *d)) is False
    k1, k2 = fc.Capsule(*a, *b, 0.01), fc.Capsule(*c, *d, 0.01)
    assert fc.collide(k1, k2) is False
    assert fc.contact(k1, k2) is None


ONE_UP = math.nextafter(1.0, 2.0)  # 1 + 2**-52

HAND = [
    # (case, meet, distance): worked by hand, and the exact oracle must agree
    pytest.param(((0.0, 0.0), (4.0, 0.0), (2.0, 0.0), (2.0, 3.0)), True, 0.0, id="t-junction"),
    pytest.param(((0.0, 0.0), (4.0, 2.0), (2.0, 1.0), (-1.0, 7.0)), True, 0.0,
                 id="t-junction-slanted"),
    pytest.param(((0.0, 0.0), (1.0, 1.0), (1.0, 1.0), (3.0, 3.0)), True, 0.0,
                 id="collinear-shared-end"),
    pytest.param(((3.0, -6.0), (1.0, -2.0), (-2.0, 4.0), (1.0, -2.0)), True, 0.0,
                 id="collinear-shared-end-reversed"),
    pytest.param(((0.0, 0.0), (1.0, 0.0), (ONE_UP, 0.0), (2.0, 0.0)), False, 2.0 ** -52,
                 id="collinear-ulp-gap"),
    pytest.param(((0.0, 3.0), (0.0, 1.0), (0.0, ONE_UP), (0.0, -4.0)), True, 0.0,
                 id="collinear-ulp-overlap"),
    pytest.param(((0.0, 0.0), (1.0, 1.0), (ONE_UP, ONE_UP), (2.0, 2.0)), False,
                 math.sqrt(2.0) * 2.0 ** -52, id="diagonal-ulp-gap"),
    pytest.param(((2.0, 1.0), (2.0, 1.0), (0.0, 0.0), (4.0, 2.0)), True, 0.0, id="point-on-segment"),
    pytest.param(((3.0, 1.0), (3.0, 1.0), (0.0, 0.0), (4.0, 2.0)), False, 1.0 / math.sqrt(5.0),
                 id="point-off-segment"),
    pytest.param(((6.0, 3.0), (6.0, 3.0), (0.0, 0.0), (4.0, 2.0)), False, math.sqrt(5.0),
                 id="point-on-line-beyond"),
]


@pytest.mark.parametrize("case, meet, dist", HAND)
def test_hand_worked(fc, case, meet, dist):
    a, b, c, d = case
    assert exact.segments_intersect(*case) is meet
    assert math.sqrt(exact.segment_segment_dist2(*case)) == pytest.approx(dist, rel=1e-15)
    for p, q, r, s in (case, (c, d, a, b), (b, a, d, c)):
        assert fc.segments_intersect(p, q, r, s) is meet
        got = fc.segment_segment_distance(p, q, r, s)
        if meet:
            assert got == 0.0
            d0, _, _, on1, on2 = fc.segment_segment_closest(p, q, r, s)
            assert d0 == 0.0 and tuple(on1) == tuple(on2)
        else:
            assert got == pytest.approx(dist, rel=1e-15)
        assert fc.collide(fc.Segment(*p, *q), fc.Segment(*r, *s)) is meet


@pytest.mark.parametrize("case", [
    ((0.0, 0.0), (0.0, 0.0), (5e-324, 0.0), (5e-324, 0.0)),
    ((0.0, -256.0), (0.0, -256.0), (-5e-324, -256.0), (-5e-324, -256.0)),
    ((0.0, 0.0), (1.0, 0.0), (0.5, 1e-170), (0.75, 1e-170)),
    ((0.0, 0.0), (0.0, 0.0), (1e-160, 0.0), (1e-160, 0.0)),
], ids=["one-subnormal-ulp", "one-subnormal-ulp-at-y-256", "1e-170-above", "1e-160-apart"])
def test_distance_below_squared_underflow(fc, case):
    """Distances whose square underflows (below ~1.5e-154) are resolved to 2**-535 and
    stay positive: the bound of test_segment_segment_distance_zero_exactly_when_meeting,
    whose M is the distance itself in all but 1e-170-above (whose M is 1)."""
    assert exact.segments_intersect(*case) is False
    _check_distance_value(fc.segment_segment_distance(*case), case, False)


def test_orient2d_hand_worked(fc):
    # 0.2, 0.7, 0.95 and 1.4000000000000001 are not the decimals they print as: the
    # rounded determinant is +1.1e-16, the exact one negative (the docstring's case)
    a, b, c = (0.2, 0.2), (1.0, 0.7), (1.4000000000000001, 0.95)
    assert exact.orient(a, b, c) == -1
    assert fc.orient2d(a, b, c) == -1
    assert fc.orient2d((0, 0), (1, 0), (0, 1)) == 1
    assert fc.orient2d((0, 0), (1, 0), (0, -1)) == -1
    assert fc.orient2d((1e6, 1e6), (1e6 + 3, 1e6 + 3), (1e6 - 7, 1e6 - 7)) == 0
    assert fc.orient2d((0.0, 0.0), (1.0, 1.0), (ONE_UP, 1.0)) == -1


def test_polygon_keeps_a_vertex_a_hair_off_a_straight_run(fc):
    # (0.6, 0.0) lies a hair to the right of the line from (0.1, 0.3) to (1.3, -0.42):
    # the ring turns left there by exact signs, though the rounded cross product is
    # 0.0, so the vertex stays; a vertex exactly on a straight run is dropped
    p, c, n, q = (0.1, 0.3), (0.6, 0.0), (1.3, -0.42), (0.8, 1.0)
    assert (c[0] - p[0]) * (n[1] - p[1]) - (c[1] - p[1]) * (n[0] - p[0]) == 0.0
    assert exact.orient(p, c, n) == 1
    assert len(fc.Polygon([p, c, n, q]).vertices) == 4
    assert len(fc.Polygon([(0, 0), (1, 1), (3, 3), (0, 3)]).vertices) == 3
    # closed the other way (below the run) the same hair is a reflex vertex
    with pytest.raises(ValueError, match="reflex vertex at \\(0.6, 0.0\\)"):
        fc.Polygon([p, c, n, (0.8, -1.0)])


def _triangle_on(a, b):
    """A counter-clockwise triangle with the edge ab and an apex off its left side
    (a + the edge turned a quarter left, rounded), or None when that is degenerate."""
    apex = (a[0] - (b[1] - a[1]), a[1] + (b[0] - a[0]))
    ring = [a, b, apex]
    if exact.orient(*ring) <= 0 or not all(map(math.isfinite, apex)):
        return None
    return ring


def _check_segment_polygon(fc, case):
    a, b, c, d = case
    ring = _triangle_on(a, b)
    assume(ring is not None)
    poly = fc.Polygon(ring)
    assume(len(poly.vertices) == 3)
    seg = fc.Segment(*c, *d)
    meet = exact.segment_meets_ring(c, d, [tuple(v) for v in poly.vertices])
    assert fc.collide(seg, poly) is meet, show(case)
    assert fc.collide(poly, seg) is meet, show(case)
    assert (fc.distance(seg, poly) == 0.0) is meet, show(case)
    assert (fc.contact(seg, poly) is not None) is meet, show(case)
    # the ring's corners as an AABB where ab is horizontal or vertical: none here in
    # general, so the box test takes the segment's own bounding box corners instead
    x0, x1 = sorted((c[0], d[0]))
    y0, y1 = sorted((c[1], d[1]))
    box_ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    other = fc.Segment(*a, *b)
    meet_box = (exact.segment_meets_ring(a, b, box_ring) if x0 < x1 and y0 < y1
                else exact.segments_intersect(a, b, (x0, y0), (x1, y1)))
    assert fc.collide(other, fc.AABB(x0, y0, x1, y1)) is meet_box, show(case)


@FAST
@given(case=exact.strategy())
def test_segment_polygon_and_box_verdicts_are_exact(fc, case):
    """A segment against a triangle on another segment of the hard cases (the edge a
    hair from it, across it, along it), and a segment against the bounding box of the
    other: collide, distance == 0.0 and contact agree with the exact verdict."""
    _check_segment_polygon(fc, case)


@pytest.mark.slow
@SLOW
@given(case=exact.strategy())
def test_segment_polygon_and_box_verdicts_are_exact_long(fc, case):
    _check_segment_polygon(fc, case)


def test_ray_through_a_vertex_and_a_hair_past_it(fc):
    # a ray exactly through the triangle's vertex (1, 1) enters there, through the
    # first of the two faces that meet at it in ring order (edge 0, normal (1, -1) /
    # sqrt 2); one ulp above it enters the top face, one below the bottom one
    tri = fc.Polygon([(0.0, 0.0), (1.0, 1.0), (0.0, 2.0)])
    h = 1.0 / math.sqrt(2.0)  # as the normal is formed: the edge (1, 1) over its length
    hit = fc.raycast(tri, (3.0, 1.0), (-1.0, 0.0))
    assert hit == (2.0, (1.0, 1.0), (h, -h))
    above = fc.raycast(tri, (3.0, math.nextafter(1.0, 2.0)), (-1.0, 0.0))
    below = fc.raycast(tri, (3.0, math.nextafter(1.0, 0.0)), (-1.0, 0.0))
    assert above.normal == (h, h) and below.normal == (h, -h)
    # along the line x + y = 2 (through (1, 1) and (0, 2), the top face) from beyond
    # (0, 2): it runs along that face and enters at (0, 2), the left face's end
    along = fc.raycast(tri, (-1.0, 3.0), (1.0, -1.0))
    assert along is not None and along.t == 1.0 and along.point == (0.0, 2.0)
    # a hair above that line it misses the triangle
    assert fc.raycast(tri, (-1.0, math.nextafter(3.0, 4.0)), (1.0, -1.0)) is None


@st.composite
def _obb_and_point(draw):
    """An OBB (thick, thin, flat, at 1e6) and a point on or next to one of its sides."""
    off = draw(st.sampled_from([0.0, 0.37, 1e6, -3e7]))
    scale = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    extent = st.one_of(st.floats(0.01, 1.0), st.just(0.0),
                       st.integers(20, 60).map(lambda k: 2.0 ** -k))
    hw = scale * draw(extent)
    hh = scale * draw(extent)
    angle = draw(st.one_of(st.floats(-4.0, 4.0), st.sampled_from(
        [0.0, math.pi / 4, math.pi / 2, math.pi])))
    cx = off + scale * draw(st.floats(-1.0, 1.0))
    cy = off + scale * draw(st.floats(-1.0, 1.0))
    c, s = math.cos(angle), math.sin(angle)
    su, sv = draw(st.sampled_from([(-1, -1), (1, -1), (1, 1), (-1, 1)]))
    t = draw(st.floats(-1.2, 1.2))
    u, v = (su * hw, t * hh) if draw(st.booleans()) else (t * hw, sv * hh)
    px, py = cx + u * c - v * s, cy + u * s + v * c
    for step in draw(st.lists(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]),
                              max_size=3)):
        px = math.nextafter(px, math.copysign(math.inf, step[0])) if step[0] else px
        py = math.nextafter(py, math.copysign(math.inf, step[1])) if step[1] else py
    return (cx, cy, hw, hh, angle), (px, py), scale


def _check_obb_point(ext, ref, box, p, scale):
    ob_e, ob_r = ext.OBB(*box), ref.OBB(*box)
    for build in (lambda fc: fc.Circle(*p, 0.0),
                  lambda fc: fc.Segment(*p, p[0] + 0.3 * scale, p[1] - 0.7 * scale),
                  lambda fc: fc.AABB(*p, p[0] + 0.1 * scale, p[1] + 0.1 * scale)):
        e, r = build(ext), build(ref)
        assert ext.collide(e, ob_e) is ref.collide(r, ob_r), (r, ob_r)
        assert ext.distance(e, ob_e) == ref.distance(r, ob_r), (r, ob_r)


@FAST
@given(case=_obb_and_point())
def test_obb_sides_near_points_agree(ext, ref, case):
    """The compiled backend decides an OBB's sides from the box's frame within a
    proven tolerance and by exact signs within it; the reference takes the exact signs
    of every side: on points an ulp or three off the sides of thick, thin and flat
    boxes, at 1e6 and -3e7, both say the same."""
    _check_obb_point(ext, ref, *case)


@pytest.mark.slow
@SLOW
@given(case=_obb_and_point())
def test_obb_sides_near_points_agree_long(ext, ref, case):
    _check_obb_point(ext, ref, *case)


@st.composite
def _extreme_triple(draw):
    """Three points of one line (rounded) or not, at magnitudes from subnormal to 1e300,
    mixed within one triple: every branch of the exact sum, overflowing products and
    underflowing ones included."""
    mag = st.sampled_from([5e-324, 1e-310, 1e-300, 1e-150, 1.0, 1e150, 1e300, 1.7e308])
    a = (draw(st.floats(-1, 1)) * draw(mag), draw(st.floats(-1, 1)) * draw(mag))
    b = (draw(st.floats(-1, 1)) * draw(mag), draw(st.floats(-1, 1)) * draw(mag))
    t = draw(st.sampled_from([-2.0, 0.5, 3.0, 0.1]))
    c = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
    if draw(st.booleans()) or not all(map(math.isfinite, c)):
        c = (draw(st.floats(-1, 1)) * draw(mag), draw(st.floats(-1, 1)) * draw(mag))
    return a, b, c


@FAST
@given(triple=_extreme_triple())
def test_orient2d_is_exact_at_every_magnitude(fc, triple):
    a, b, c = triple
    assert fc.orient2d(a, b, c) == exact.orient(a, b, c), triple
    assert fc.orient2d(rows([a]), rows([b]), rows([c]))[0] == exact.orient(a, b, c)


def _bezout(x, y):
    """(g, s, t) with s * x + t * y == g == gcd(x, y) (extended Euclid)."""
    s0, s1, t0, t1 = 1, 0, 0, 1
    while y:
        q, x, y = x // y, y, x % y
        s0, s1, t0, t1 = s1, s0 - q * s1, t1, t0 - q * t1
    return x, s0, t0


@st.composite
def _grid_triple(draw):
    """Three points whose coordinates are integer multiples of one power of two u (so
    every difference of them is exact), u inside the band where the compiled
    backend's first exact stage works (2**-480 to 2**480), at its edges and outside
    it.  The third point lies on the line of the first two, or off it by the least
    the grid allows (the determinant gcd(dx, dy) u**2 against products near 2**55
    u**2, which the filter cannot decide and which the products' rounding errors
    decide): the signs of each exact stage, and across its edge."""
    u = 2.0 ** draw(st.sampled_from([-540, -482, -481, -480, -479, -40, 0, 30, 424, 425,
                                     426, 470, 490]))
    big = st.integers(2**25, 2**26).map(lambda v: v * draw(st.sampled_from([-1, 1])))
    ax, ay = draw(st.integers(-2**26, 2**26)), draw(st.integers(-2**26, 2**26))
    dx, dy = draw(big), draw(big)
    t = draw(st.sampled_from([-2, -1, 2, 3]))
    g, s_, t_ = _bezout(abs(dx), abs(dy))
    # dx * oy - dy * ox == side * g
    side = draw(st.sampled_from([-1, 0, 1]))
    ox, oy = -side * t_ * (1 if dy > 0 else -1), side * s_ * (1 if dx > 0 else -1)
    a = (ax * u, ay * u)
    b = ((ax + dx) * u, (ay + dy) * u)
    c = ((ax + t * dx + ox) * u, (ay + t * dy + oy) * u)
    return a, b, c


@FAST
@given(triple=_grid_triple())
def test_orient2d_is_exact_across_the_exact_stages(fc, triple):
    a, b, c = triple
    want = exact.orient(a, b, c)
    assert fc.orient2d(a, b, c) == want, triple
    assert fc.orient2d(rows([a]), rows([b]), rows([c]))[0] == want, triple


def test_orient2d_hand_worked_extremes(fc):
    # the products overflow (1e300 squared) or underflow (5e-324 squared) in floating
    # point; the signs are plain to see
    big, tiny = 1e300, 5e-324
    assert fc.orient2d((-big, -big), (big, -big), (0.0, big)) == 1
    assert fc.orient2d((-big, -big), (big, big), (big, -big)) == -1
    assert fc.orient2d((0.0, 0.0), (tiny, 0.0), (0.0, tiny)) == 1
    assert fc.orient2d((0.0, 0.0), (tiny, tiny), (2 * tiny, 2 * tiny)) == 0
    assert fc.orient2d((0.0, 0.0), (big, tiny), (2 * big, 2 * tiny)) == 0
    assert fc.orient2d((0.0, 0.0), (big, tiny), (2 * big, 3 * tiny)) == 1


def test_ray_all_but_along_a_flat_box_hits_on_it(fc):
    # a zero-width OBB (a segment from (-0.15, 3.7) to (-1.35, 5.3), its corners
    # rounded) and a ray along its line within rounding: the exact signs say the ray's
    # line crosses the box's long side between its corners, so the hit lies on the box
    # (the rounded crossing of two all but parallel lines once landed beyond its far
    # end, 0.25 away from it), at a time between its ends' (44/15 and 76/15)
    box = fc.OBB(-0.75, 4.5, 0.0, 1.0, 0.6435011087932844)
    hit = fc.raycast(box, (1.5, 1.5), (-0.5625, 0.75))
    assert 2.9333 < hit.t <= 5.0667
    assert fc.distance(box, fc.Circle(*hit.point, 0.0)) < 1e-12
    t = fc.time_of_impact(box, (0.0, 0.0), fc.Segment(1.5, 1.5, 1.5, 1.5), (-0.5625, 0.75), 10.0)
    p = (1.5 - 0.5625 * t, 1.5 + 0.75 * t)
    assert 2.9333 < t <= 5.0667 and fc.distance(box, fc.Circle(*p, 0.0)) < 1e-12
