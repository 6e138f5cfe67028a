"""time_of_impact: hand-worked answers per pair family, properties on random pairs of
all 36 ordered kinds, bad input.

Every test runs once per backend through the ``fc`` fixture.  Tolerances are relative
to the size of the configuration (shapes and the distance they travel).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_bad_input import NON_FINITE, WRONG_TYPES, raises_naming
from shapes import KINDS, make_hull, points, shape_specs, size_of, translate

INF = math.inf
R2 = math.sqrt(2.0)

# (a, velocity_a, b, velocity_b, max_t, expected), worked out by hand
KNOWN = {
    "circle-circle-head-on": (("Circle", 0, 0, 1), (1, 0), ("Circle", 10, 0, 1), (-1, 0), 10, 4.0),
    "circle-circle-one-static": (("Circle", 0, 0, 1), (0, 0), ("Circle", 10, 0, 1), (-2, 0), 10, 4.0),
    "circle-circle-diagonal": (("Circle", 0, 0, 1), (0, 0), ("Circle", 6, 8, 1), (-3, -4), 10, 1.6),
    "circle-circle-miss-beside": (("Circle", 0, 0, 1), (0, 0), ("Circle", -10, 3, 1), (1, 0), 100, None),
    "circle-circle-graze": (("Circle", 0, 0, 1), (0, 0), ("Circle", -10, 2, 1), (1, 0), 100, 10.0),
    "capsule-capsule-crossing": (("Capsule", -2, 0, 2, 0, 0.5), (0, 0), ("Capsule", 0, 3, 0, 5, 0.5),
                                 (0, -1), 10, 2.0),
    "capsule-capsule-parallel": (("Capsule", 0, 0, 4, 0, 0.5), (0, 0.5), ("Capsule", 1, 4, 5, 4, 0.25),
                                 (0, -0.5), 10, 3.25),
    "capsule-zero-length": (("Capsule", 0, 0, 0, 0, 1), (0, 0), ("Circle", 5, 0, 1), (-1, 0), 10, 3.0),
    "segment-segment-endpoint": (("Segment", 0, -1, 0, 1), (0, 0), ("Segment", 2, 0, 3, 0), (-1, 0), 10, 2.0),
    "segment-segment-cross-mid": (("Segment", 0, -1, 0, 1), (1, 0), ("Segment", 3, -2, 3, 2), (0, 0), 10, 3.0),
    "segment-circle-end-on": (("Segment", -5, 0, -3, 0), (1, 0), ("Circle", 0, 0, 1), (0, 0), 10, 2.0),
    "circle-box-corner": (("AABB", 0, 0, 2, 2), (0, 0), ("Circle", 5, 5, 1), (-1, -1), 10,
                          3.0 - 1.0 / R2),
    "circle-box-face": (("AABB", 0, 0, 2, 2), (0.5, 0), ("Circle", 6, 1, 1), (-0.5, 0), 10, 3.0),
    "polygon-polygon-face": (("Polygon", ((0, 0), (1, 0), (1, 1), (0, 1))), (0, 0),
                             ("Polygon", ((3, 0), (5, 0), (3, 1))), (-0.5, 0), 10, 4.0),
    "polygon-circle-hypotenuse": (("Polygon", ((0, 0), (4, 0), (0, 3))), (0, 0), ("Circle", 5, 5, 1),
                                  (-1, -1), 10, 18 / 7),
    "obb-diamond-vertex-to-box": (("OBB", 0, 0, 1, 1, math.pi / 4), (0, 0), ("AABB", 3, -1, 4, 1),
                                  (-1, 0), 10, 3 - R2),
    "box-box-corner-to-corner": (("AABB", 0, 0, 1, 1), (0, 0), ("AABB", 3, 3, 4, 4), (-1, -1), 10, 2.0),
    "obb-capsule-face": (("OBB", 0, 0, 2, 1, 0), (0, 1), ("Capsule", -1, 5, 1, 5, 0.5), (0, -1), 10, 1.75),
    "touching-already": (("Circle", 0, 0, 1), (3, 0), ("AABB", 1, -1, 2, 1), (5, 0), 1, 0.0),
    "overlapping-already": (("Polygon", ((0, 0), (4, 0), (0, 3))), (0, 0), ("Circle", 1, 1, 1), (9, 9), 1, 0.0),
    "moving-apart": (("Circle", 0, 0, 1), (-1, 0), ("Circle", 5, 0, 1), (1, 0), INF, None),
    "parallel-motion": (("Circle", 0, 0, 1), (1, 0), ("Circle", 0, 5, 1), (1, 0), INF, None),
    "both-static": (("AABB", 0, 0, 1, 1), (0, 0), ("OBB", 5, 5, 1, 1, 0.3), (0, 0), INF, None),
    "max-t-too-short": (("Circle", 0, 0, 1), (1, 0), ("Circle", 10, 0, 1), (-1, 0), 3.9, None),
    "max-t-exact": (("Circle", 0, 0, 1), (1, 0), ("Circle", 10, 0, 1), (-1, 0), 4.0, 4.0),
    # a small fast circle crosses a thin segment within one step: caught
    "bullet-through-wall": (("Segment", 0, -1, 0, 1), (0, 0), ("Circle", -5, 0, 0.1), (100, 0), 1, 0.049),
    "bullet-past-wall-end": (("Segment", 0, -1, 0, 1), (0, 0), ("Circle", -5, 1.2, 0.1), (100, 0), 1, None),
    "far-from-origin": (("Circle", 1e6, 1e6, 1), (1, 0), ("Circle", 1e6 + 10, 1e6, 1), (-1, 0), 10, 4.0),
}


@pytest.mark.parametrize("case", sorted(KNOWN))
def test_known_answer(fc, case):
    sa, va, sb, vb, max_t, expected = KNOWN[case]
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    for t in (fc.time_of_impact(a, va, b, vb, max_t), fc.time_of_impact(b, vb, a, va, max_t)):
        if expected is None:
            assert t is None
        else:
            assert type(t) is float
            assert t == pytest.approx(expected, rel=1e-12, abs=1e-12)
            if expected == 0.0:
                assert t == 0.0


def test_zero_exactly_when_collide(fc):
    a = fc.Circle(0, 0, 1)
    assert fc.time_of_impact(a, (0, 0), fc.Circle(2, 0, 1), (0, 0)) == 0.0
    assert fc.time_of_impact(a, (0, 0), fc.Circle(2.0000000001, 0, 1), (-1, 0)) > 0.0


def test_default_max_t_is_one(fc):
    a, b = fc.Circle(0, 0, 1), fc.Circle(10, 0, 1)
    assert fc.time_of_impact(a, (0, 0), b, (-8, 0)) == 1.0
    assert fc.time_of_impact(a, (0, 0), b, (-7.9, 0)) is None


def test_apart_by_a_hair_never_touches_at_time_zero(fc):
    # collide says apart (by about 2e-16, the box's left face and the OBB's right
    # corner): moving apart they never touch; moving together they touch after a
    # positive time of about the gap over the speed, never at 0.0 (which is for collide)
    a = fc.AABB(min_x=1.3960034939166386, min_y=-2.9677799718169062,
                max_x=4.143248523495458, max_y=-0.5374845935495216)
    b = fc.OBB(cx=0.5375204206701824, cy=-0.32873965999953825, half_w=0.7961599949781102,
               half_h=0.38301030890815824, angle=0.20986436345900827)
    v = (-0.6701121321712259, 0.07490715155731031)
    assert fc.collide(a, b) is False
    assert fc.time_of_impact(a, (0, 0), b, v) is None
    assert fc.time_of_impact(b, v, a, (0, 0)) is None
    t = fc.time_of_impact(a, (0, 0), b, (-v[0], -v[1]))
    assert 0.0 < t < 1e-15
    assert fc.time_of_impact(b, (-v[0], -v[1]), a, (0, 0)) == t


def test_segment_all_but_on_the_other_touches_only_moving_towards_it(fc):
    # b lies 6e-16 to the right of a (both ends, by exact signs), all along a's line:
    # the rounded cross product of b's first end with a is 0.0.  Moving away from a
    # (v . n < 0 for a's left normal n ~ (-0.644, 0.765)) they never touch; moving
    # towards it they touch after about 6e-16 / (v . n), rounding noise at this scale
    a = fc.Segment(-1.1433750441754782, -0.8185615245890911, 2.3291555869566816,
                   2.104125638409987)
    b = fc.Segment(2.3291555869532092, 2.1041256384070643, -0.9488233920318625,
                   -0.6548331289459299)
    assert fc.collide(a, b) is False
    assert fc.orient2d((a.ax, a.ay), (a.bx, a.by), (b.ax, b.ay)) == -1
    assert fc.orient2d((a.ax, a.ay), (a.bx, a.by), (b.bx, b.by)) == -1
    for v in ((1.0, 0.0), (0.3, -2.0)):
        assert fc.time_of_impact(a, (0, 0), b, v) is None
        assert fc.time_of_impact(b, v, a, (0, 0)) is None
    for v in ((-1.0, 0.0), (0.0, 1.0)):
        t = fc.time_of_impact(a, (0, 0), b, v)
        assert 0.0 < t < 1e-14
        assert fc.time_of_impact(b, v, a, (0, 0)) == t


def test_ray_along_a_nearly_straight_box_edge(fc):
    # an OBB at angle pi/2 has edges tilted by cos(pi/2) ~ 6e-17.  The circle's centre
    # then moves (relative to the box) exactly along the line of a side face of the
    # grown box, where the face's crossing t is rounding noise; it once gave t = 1 /
    # 0.40625 (the shapes still 0.125 apart).  The first touch is the top face: a gap
    # of 1.625 - 0.25 - 0.25 = 1.125 closed at 0.40625 a unit of time
    a = fc.Circle(0.0, 1.625, 0.25)
    b = fc.OBB(0.0, 0.0, 0.25, 0.25, math.pi / 2)
    for t in (fc.time_of_impact(a, (0, 0), b, (0, 0.40625), 10.0),
              fc.time_of_impact(b, (0, 0.40625), a, (0, 0), 10.0)):
        assert t == pytest.approx(1.125 / 0.40625, rel=1e-12)


def test_impact_at_max_t_within_rounding(fc):
    # the circle's bottom (5.25 - 2.5 - 3 t) meets the box's top (-0.25) at t = 1.0
    # exactly, which the kernels compute as 1.0000000000000002: None for max_t = 1.0,
    # while the shapes moved to t = 1.0 touch; check_toi accepts that touch at the end
    sa, sb = ("Circle", 0.25, 5.25, 2.5), ("AABB", 0.0, -3.0, 2.4487629575551426, -0.25)
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    assert fc.time_of_impact(a, (0, -3), b, (0, 0), 2.0) == pytest.approx(1.0, rel=1e-15)
    check_toi(fc, sa, (0.0, -3.0), sb, (0.0, 0.0), 1.0)


def test_huge_and_tiny_velocities(fc):
    a, b = fc.Circle(0, 0, 1), fc.Circle(10, 0, 1)
    # the relative velocity overflows: both are halved, exactly
    assert fc.time_of_impact(a, (-1.7e308, 0), b, (1.7e308, 0), INF) is None
    t = fc.time_of_impact(a, (1.7e308, 0), b, (-1.7e308, 0), INF)
    assert t == pytest.approx(8 / 3.4e308, rel=1e-12)
    t = fc.time_of_impact(a, (1e-300, 0), b, (0, 0), INF)
    assert t == pytest.approx(8e300, rel=1e-12)
    # beyond the float range: never
    assert fc.time_of_impact(a, (1e-310, 0), b, (0, 0), INF) is None


# --------------------------------------------------------------------------- properties

PAIRS = [pytest.param(a, b, id=f"{a.lower()}-{b.lower()}") for a, b in itertools.product(KINDS, KINDS)]
velocities = points(4)
limits = st.sampled_from([1.0, INF, 2.5]) | st.floats(0, 4)


def _moved(fc, s, v, t):
    return s.translated(v[0] * t, v[1] * t)


def _speed(va, vb):
    return math.hypot(*va) + math.hypot(*vb)


def check_toi(fc, sa, va, sb, vb, max_t):
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    t = fc.time_of_impact(a, va, b, vb, max_t)
    # exactly symmetric
    t2 = fc.time_of_impact(b, vb, a, va, max_t)
    assert t == t2 and type(t) is type(t2)
    assert (t == 0.0) == fc.collide(a, b)
    L = size_of(sa, sb) + 1.0
    if t is None:
        # apart along the whole way: sampled times.  An impact a rounding hair beyond
        # max_t (exactly at max_t in exact arithmetic) may show as touching at max_t;
        # one within max_t would be a missed impact, and fails
        later = fc.time_of_impact(a, va, b, vb, INF)
        T = max_t if max_t != INF else 4.0 * L / max(_speed(va, vb), 1e-300)
        for k in range(17):
            s = T * k / 16
            ma, mb = _moved(fc, a, va, s), _moved(fc, b, vb, s)
            # apart, or sliding along each other within rounding (a graze)
            assert (fc.distance(ma, mb) > 0.0 or _grazing(fc, ma, mb, va, vb, L)
                    or (later is not None and max_t < later <= s * (1.0 + 1e-12))), s
        return t
    assert type(t) is float and 0.0 <= t <= max_t
    if t == 0.0:
        return t
    tol = 1e-8 * (L + t * _speed(va, vb))
    # at t they touch
    assert fc.distance(_moved(fc, a, va, t), _moved(fc, b, vb, t)) <= tol
    # just before they were apart (a real gap, unless t is at rounding level)
    before = t * (1 - 1e-6)
    ma, mb = _moved(fc, a, va, before), _moved(fc, b, vb, before)
    assert fc.distance(ma, mb) > 0.0 or t * _speed(va, vb) <= tol or _grazing(fc, ma, mb, va, vb, L)
    return t


def _grazing(fc, a, b, va, vb, L):
    """Whether touching shapes only graze: b moved a little across the relative motion,
    one way or the other, clears a.  Shapes that really cross (a segment through a
    segment, a corner inside a box) still meet after both moves."""
    vx, vy = vb[0] - va[0], vb[1] - va[1]
    n = math.hypot(vx, vy)
    if n == 0.0:
        return False
    eps = 1e-7 * L
    ux, uy = -vy / n * eps, vx / n * eps
    return fc.distance(a, b.translated(ux, uy)) > 0.0 or fc.distance(a, b.translated(-ux, -uy)) > 0.0


@pytest.mark.parametrize("ka, kb", PAIRS)
@settings(max_examples=40, database=None)
@given(data=st.data())
def test_random_pairs(fc, ka, kb, data):
    sa = data.draw(shape_specs(ka), label="a")
    sb = data.draw(shape_specs(kb), label="b")
    va = data.draw(velocities, label="va")
    vb = data.draw(velocities, label="vb")
    check_toi(fc, sa, va, sb, vb, data.draw(limits, label="max_t"))


@pytest.mark.parametrize("ka, kb", PAIRS)
@settings(max_examples=40, database=None)
@given(data=st.data())
def test_random_pairs_on_collision_course(fc, ka, kb, data):
    # b is aimed at a's reference point, so most draws do meet
    sa = data.draw(shape_specs(ka), label="a")
    sb = data.draw(shape_specs(kb), label="b")
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    ba, bb = a.bounds(), b.bounds()
    ca = ((ba.min_x + ba.max_x) / 2, (ba.min_y + ba.max_y) / 2)
    cb = ((bb.min_x + bb.max_x) / 2, (bb.min_y + bb.max_y) / 2)
    k = data.draw(st.sampled_from([0.25, 0.5, 1.0]), label="speed")
    va = data.draw(st.sampled_from([(0.0, 0.0), (0.5, -0.25)]), label="va")
    vb = (va[0] + (ca[0] - cb[0]) * k, va[1] + (ca[1] - cb[1]) * k)
    check_toi(fc, sa, va, sb, vb, INF)


@pytest.mark.parametrize("ka, kb", PAIRS)
@settings(max_examples=25, database=None)
@given(data=st.data())
def test_translation_invariance(fc, ka, kb, data):
    sa = data.draw(shape_specs(ka, lim=2, size_lim=1), label="a")
    sb = data.draw(shape_specs(kb, lim=2, size_lim=1), label="b")
    va, vb = data.draw(velocities, label="va"), data.draw(velocities, label="vb")
    off = data.draw(st.sampled_from([(1e6, -1e6), (-3.5e6, 2e6)]), label="offset")
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    ma, mb = make_hull(fc, translate(sa, *off)), make_hull(fc, translate(sb, *off))
    t0 = fc.time_of_impact(a, va, b, vb, INF)
    t1 = fc.time_of_impact(ma, va, mb, vb, INF)
    speed = _speed(va, vb)
    if t0 is not None and t1 is not None:
        # the offset moves the shapes by up to an ulp of 1e6: about 1e-10 in distance
        assert abs(t0 - t1) * speed <= 1e-7 * (1 + speed * max(t0, t1))
        return
    # a verdict may flip only for a pair that comes within rounding of touching
    t = t0 if t0 is not None else t1
    if t is not None:
        d = fc.distance(_moved(fc, a, va, t), _moved(fc, b, vb, t))
        assert d <= 1e-7 * (1 + speed * t)
        # the closest approach is a graze: slightly later they are apart again, or
        # they only touch; a real crossing would overlap by much more than rounding
        later = t + 1e-3 / max(speed, 1e-300)
        ca, cb = _moved(fc, a, va, later), _moved(fc, b, vb, later)
        assert fc.distance(ca, cb) > 0.0 or _penetration(fc, ca, cb) <= 1e-6


def _penetration(fc, a, b):
    """How far b must move (along any of 16 directions, least of them) to clear a."""
    best = INF
    for k in range(16):
        ang = 2 * math.pi * k / 16
        u = (math.cos(ang), math.sin(ang))
        lo, hi = 0.0, 64.0
        if fc.collide(a, b.translated(u[0] * hi, u[1] * hi)):
            continue
        for _ in range(40):
            mid = (lo + hi) / 2
            if fc.collide(a, b.translated(u[0] * mid, u[1] * mid)):
                lo = mid
            else:
                hi = mid
        best = min(best, hi)
    return best


# ---------------------------------------------------------------------------------------
# Two round shapes with cores of positive length: the sweep tests only the faces that
# face the motion and three corners (``_sweep_cores``).  Against the least of every
# vertex ray (each end of b's core against a's capsule with its end circles, each end
# of a's against b's faces), worked out here with the reference's ray kernel in world
# coordinates, it must give the same time up to rounding.


def _every_vertex_ray(sa, sb, v):
    """The least t over all vertex rays of two round specs (None: no hit)."""
    from fastcol._ref.sweeps import INSIDE, MISS, ray_round

    def core(spec):
        if spec[0] == "Capsule":
            return spec[1:5], spec[5]
        return spec[1:5], 0.0

    (ax, ay, bx, by), ra = core(sa)
    (cx, cy, dx, dy), rb = core(sb)
    r = ra + rb
    best = INF
    for (px, py), (d0, d1), (p, q, s, w), ends in (
            ((cx, cy), v, (ax, ay, bx, by), True), ((dx, dy), v, (ax, ay, bx, by), True),
            ((ax, ay), (-v[0], -v[1]), (cx, cy, dx, dy), False),
            ((bx, by), (-v[0], -v[1]), (cx, cy, dx, dy), False)):
        st, t, _, _ = ray_round(px, py, d0, d1, p, q, s, w, r, ends)
        if st == INSIDE:
            t = 0.0
        if st != MISS and t < best:
            best = t
    return None if best == INF else best


def _same_sweep(fc, sa, sb, v):
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    if fc.collide(a, b):
        return
    t = fc.time_of_impact(a, (0.0, 0.0), b, v, INF)
    expected = _every_vertex_ray(sa, sb, v)
    L = size_of(sa, sb) + 1.0
    speed = math.hypot(*v)
    if t is None or expected is None:
        # a verdict may differ only for a graze, where the closest approach touches
        assert t == expected or fc.distance(
            a, _moved(fc, b, v, t if t is not None else expected)) <= 1e-9 * L
        return
    # the same impact: the moved distance agrees to rounding
    assert abs(t - expected) * speed <= 1e-9 * (L + speed * expected)


ROUND_CORES = ("Capsule", "Segment")
# (a, b, v): parallel cores (both ends near), cores a hair off parallel, motion along a
# core (no face approached), each corner of the two nearer ends winning, an end of one
# segment on the other's line, and the same far from the origin
CORE_CASES = {
    "parallel-offset": (("Capsule", 0, 0, 4, 0, 0.5), ("Capsule", 1, 3, 5, 3, 0.5), (0, -1)),
    "parallel-beyond-end": (("Capsule", 0, 0, 4, 0, 0.5), ("Capsule", 5, 3, 9, 3, 0.5), (-1, -1)),
    "nearly-parallel": (("Capsule", 0, 0, 4, 0, 0.5), ("Capsule", 1, 3, 5, 3 + 1e-12, 0.5),
                        (0, -1)),
    "nearly-parallel-segments": (("Segment", 0, 0, 4, 0), ("Segment", 1, 3, 5, 3 - 1e-13),
                                 (0.5, -1)),
    "along-a": (("Capsule", 0, 0, 4, 0, 0.5), ("Capsule", 7, 0.5, 8, 2, 0.25), (-1, 0)),
    "along-both": (("Segment", 0, 0, 4, 0), ("Segment", 6, 0, 8, 0), (-1, 0)),
    "near-corner": (("Capsule", -0.5, -0.25, 0.5, 0.25, 0.5),
                    ("Capsule", 1.75, 0.5, 2.75, 0.0, 0.5), (-3, 0)),
    "side-corner-a": (("Capsule", 0, 0, 2, 0, 0.25), ("Capsule", 3, 1, 3, 3, 0.25), (-1, -0.2)),
    "side-corner-b": (("Capsule", 0, 0, 2, 0, 0.25), ("Capsule", -1, 1, 1, 3, 0.25), (0.3, -1)),
    "face-of-b": (("Segment", -1, -0.5, 1, 0.5), ("Segment", 1.25, 0.75, 3.25, -0.25), (-3, 0)),
    "end-on-line": (("Segment", 0, 0, 4, 0), ("Segment", 5, 0, 5, 2), (-1, 0)),
    "crossing-later": (("Segment", 0, -1, 0, 1), ("Segment", 3, -2, 4, 2), (-1, 0)),
}


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1e6, -3e6)])
@pytest.mark.parametrize("case", sorted(CORE_CASES))
def test_round_cores_sweep_equals_every_vertex_ray(fc, case, offset):
    sa, sb, v = CORE_CASES[case]
    sa, sb = translate(sa, *offset), translate(sb, *offset)
    for a, b, w in ((sa, sb, v), (sb, sa, (-v[0], -v[1]))):
        _same_sweep(fc, a, b, w)


@pytest.mark.parametrize("ka, kb", list(itertools.product(ROUND_CORES, repeat=2)))
@settings(max_examples=150, database=None)
@given(data=st.data())
def test_random_round_cores_sweep_equals_every_vertex_ray(fc, ka, kb, data):
    sa = data.draw(shape_specs(ka), label="a")
    sb = data.draw(shape_specs(kb), label="b")
    v = data.draw(velocities, label="v")
    if v == (0.0, 0.0):
        return
    _same_sweep(fc, sa, sb, v)


# --------------------------------------------------------------------------- bad input

NAMES = ["a", "velocity_a", "b", "velocity_b", "max_t"]
# shape_cast takes time_of_impact's arguments and checks them alike
SWEEPS = ["time_of_impact", "shape_cast"]


def _args(fc):
    return [fc.Circle(0, 0, 1), (1.0, 0.0), fc.Circle(5, 0, 1), (0.0, 0.0), 10.0]


def _others(name):
    return [n for n in NAMES if n != name]


@pytest.mark.parametrize("index", [0, 2])
@pytest.mark.parametrize("label", sorted(WRONG_TYPES))
@pytest.mark.parametrize("query", SWEEPS)
def test_shape_wrong_type(fc, query, index, label):
    args = _args(fc)
    args[index] = WRONG_TYPES[label]
    with raises_naming(TypeError, NAMES[index], _others(NAMES[index])):
        getattr(fc, query)(*args)


@pytest.mark.parametrize("index", [1, 3])
@pytest.mark.parametrize("value", ["ab", None, 1.0, object(), {"x": 1}, {1, 2}, b"xy"],
                         ids=["str", "None", "float", "object", "dict", "set", "bytes"])
@pytest.mark.parametrize("query", SWEEPS)
def test_velocity_wrong_type(fc, query, index, value):
    args = _args(fc)
    args[index] = value
    with raises_naming(TypeError, NAMES[index], _others(NAMES[index])):
        getattr(fc, query)(*args)


@pytest.mark.parametrize("index", [1, 3])
@pytest.mark.parametrize("value", [(1.0,), (1.0, 2.0, 3.0), [], np.zeros(3)],
                         ids=["len1", "len3", "empty", "array3"])
@pytest.mark.parametrize("query", SWEEPS)
def test_velocity_wrong_length(fc, query, index, value):
    args = _args(fc)
    args[index] = value
    with raises_naming(ValueError, NAMES[index]):
        getattr(fc, query)(*args)


@pytest.mark.parametrize("index", [1, 3])
@pytest.mark.parametrize("label", sorted(NON_FINITE))
@pytest.mark.parametrize("slot", [0, 1])
@pytest.mark.parametrize("query", SWEEPS)
def test_velocity_non_finite(fc, query, index, label, slot):
    args = _args(fc)
    v = list(args[index])
    v[slot] = NON_FINITE[label]
    args[index] = tuple(v)
    with raises_naming(ValueError, NAMES[index], _others(NAMES[index])):
        getattr(fc, query)(*args)


@pytest.mark.parametrize("value", [-1.0, -1e-300, -math.inf, math.nan, np.float64("nan"), -1, 10**400],
                         ids=["neg", "tiny-neg", "-inf", "nan", "np.nan", "neg-int", "huge-int"])
@pytest.mark.parametrize("query", SWEEPS)
def test_bad_max_t_value(fc, query, value):
    args = _args(fc)
    args[4] = value
    with raises_naming(ValueError, "max_t", _others("max_t")):
        getattr(fc, query)(*args)


# a 1-D array is no wrong type for max_t: it is one limit per row of a batch
@pytest.mark.parametrize("label", sorted(set(WRONG_TYPES) - {"ndarray"}))
@pytest.mark.parametrize("query", SWEEPS)
def test_bad_max_t_type(fc, query, label):
    args = _args(fc)
    args[4] = WRONG_TYPES[label]
    with raises_naming(TypeError, "max_t", _others("max_t")):
        getattr(fc, query)(*args)


def test_valid_unusual_arguments(fc):
    a, b = fc.Circle(0, 0, 1), fc.Circle(5, 0, 1)
    # zero velocities are a static body, ints, lists and arrays are points
    assert fc.time_of_impact(a, [0, 0], b, np.array([-1.0, 0.0]), 5) == 3.0
    assert fc.time_of_impact(a, (0, 0), b, (-1, 0), max_t=np.float32(3.0)) == 3.0
    assert fc.time_of_impact(a, (0, 0), b, (-1, 0), 0) is None
    assert fc.time_of_impact(a=a, velocity_a=(1, 0), b=b, velocity_b=(0, 0), max_t=INF) == 3.0
