"""raycast: hand-worked answers for each shape, properties on random rays, bad input.

Every test runs once per backend through the ``fc`` fixture.  The properties are
checked against the independent plain-math oracle (tests/oracle.py); tolerances are
relative to the size of the configuration.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from oracle import oracle_distance, point_distance, signed_point_distance
from test_bad_input import NON_FINITE, WRONG_TYPES, raises_naming
from shapes import KINDS, make_hull, points, shape_specs, size_of, translate

R2 = math.sqrt(0.5)
INF = math.inf

# (shape spec, origin, direction, max_t, expected): expected is None (miss), "inside",
# or (t, point, normal), all worked out by hand
KNOWN = {
    # --- circle
    "circle-face": (("Circle", 5.0, 0.0, 1.0), (0, 0), (1, 0), INF, (4.0, (4.0, 0.0), (-1.0, 0.0))),
    "circle-slant": (("Circle", 0.0, 0.0, 5.0), (-13, 3), (1, 0), INF, (9.0, (-4.0, 3.0), (-0.8, 0.6))),
    "circle-non-unit": (("Circle", 5.0, 0.0, 1.0), (0, 0), (2, 0), INF, (2.0, (4.0, 0.0), (-1.0, 0.0))),
    "circle-tangent": (("Circle", 5.0, 1.0, 1.0), (0, 0), (1, 0), INF, (5.0, (5.0, 0.0), (0.0, -1.0))),
    "circle-miss": (("Circle", 5.0, 2.0, 1.0), (0, 0), (1, 0), INF, None),
    "circle-behind": (("Circle", -5.0, 0.0, 1.0), (0, 0), (1, 0), INF, None),
    "circle-inside": (("Circle", 5.0, 0.0, 1.0), (5.5, 0.25), (1, 0), INF, "inside"),
    "circle-on-surface": (("Circle", 5.0, 0.0, 1.0), (4, 0), (-1, 0), INF, "inside"),
    "circle-max-t-short": (("Circle", 5.0, 0.0, 1.0), (0, 0), (1, 0), 3.999, None),
    "circle-max-t-exact": (("Circle", 5.0, 0.0, 1.0), (0, 0), (1, 0), 4.0, (4.0, (4.0, 0.0), (-1.0, 0.0))),
    "circle-point-hit": (("Circle", 3.0, 3.0, 0.0), (0, 0), (1, 1), INF, (3.0, (3.0, 3.0), (-R2, -R2))),
    "circle-point-miss": (("Circle", 3.0, 3.0, 0.0), (0, 0), (1, 0), INF, None),
    "circle-1e6": (("Circle", 1e6 + 5, 1e6, 1.0), (1e6, 1e6), (1, 0), INF,
                   (4.0, (1e6 + 4, 1e6), (-1.0, 0.0))),
    # --- capsule (core (0,0)-(4,0), r = 1)
    "capsule-side": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (2, 5), (0, -1), INF, (4.0, (2.0, 1.0), (0.0, 1.0))),
    "capsule-side-below": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (1, -4), (0, 2), INF,
                           (1.5, (1.0, -1.0), (0.0, -1.0))),
    "capsule-cap-end-on": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (-5, 0), (1, 0), INF,
                           (4.0, (-1.0, 0.0), (-1.0, 0.0))),
    "capsule-cap-slant": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (4.6, 5), (0, -1), INF,
                          (4.2, (4.6, 0.8), (0.6, 0.8))),
    "capsule-cap-tangent": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (5, 5), (0, -1), INF,
                            (5.0, (5.0, 0.0), (1.0, 0.0))),
    "capsule-miss": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (5.5, 5), (0, -1), INF, None),
    # along the top face's line from beyond b: the ray first touches at b's end of the
    # face, not where it leaves it over a's circle (t 10); either order of the ends
    "capsule-along-face-from-b": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (10, 1), (-1, 0), INF,
                                  (6.0, (4.0, 1.0), (0.0, 1.0))),
    "capsule-along-face-from-b-reversed": (("Capsule", 4.0, 0.0, 0.0, 0.0, 1.0), (10, 1), (-1, 0),
                                           INF, (6.0, (4.0, 1.0), (0.0, 1.0))),
    "capsule-along-face-from-a": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (-6, -1), (1, 0), INF,
                                  (6.0, (0.0, -1.0), (0.0, -1.0))),
    # end-on into b's circle, through which the ray would go on into a's (t 8)
    "capsule-cap-far-end-on": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (9, 0), (-1, 0), INF,
                               (4.0, (5.0, 0.0), (1.0, 0.0))),
    "capsule-inside": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (2, 0.5), (0, 1), INF, "inside"),
    "capsule-on-surface": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (2, 1), (0, 1), INF, "inside"),
    "capsule-max-t": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (2, 5), (0, -1), 3.5, None),
    "capsule-zero-length": (("Capsule", 1.0, 1.0, 1.0, 1.0, 1.0), (1, 5), (0, -0.5), INF,
                            (6.0, (1.0, 2.0), (0.0, 1.0))),
    "capsule-1e6": (("Capsule", 1e6, 1e6, 1e6 + 4, 1e6, 1.0), (1e6 + 2, 1e6 + 5), (0, -1), INF,
                    (4.0, (1e6 + 2, 1e6 + 1), (0.0, 1.0))),
    # --- segment (0,0)-(4,0)
    "segment-broadside-below": (("Segment", 0.0, 0.0, 4.0, 0.0), (2, -3), (0, 2), INF,
                                (1.5, (2.0, 0.0), (0.0, -1.0))),
    "segment-broadside-above": (("Segment", 0.0, 0.0, 4.0, 0.0), (2, 3), (0, -1), INF,
                                (3.0, (2.0, 0.0), (0.0, 1.0))),
    "segment-slanted": (("Segment", 0.0, 0.0, 4.0, 0.0), (0, 2), (1, -1), INF,
                        (2.0, (2.0, 0.0), (0.0, 1.0))),
    "segment-end-on": (("Segment", 0.0, 0.0, 4.0, 0.0), (-5, 0), (2, 0), INF,
                       (2.5, (0.0, 0.0), (-1.0, 0.0))),
    "segment-end-on-far-end": (("Segment", 0.0, 0.0, 4.0, 0.0), (9, 0), (-1, 0), INF,
                               (5.0, (4.0, 0.0), (1.0, 0.0))),
    "segment-endpoint-corner": (("Segment", 0.0, 0.0, 4.0, 0.0), (-1, -1), (1, 1), INF,
                                (1.0, (0.0, 0.0), (0.0, -1.0))),
    "segment-miss": (("Segment", 0.0, 0.0, 4.0, 0.0), (5, -1), (0, 1), INF, None),
    "segment-parallel-miss": (("Segment", 0.0, 0.0, 4.0, 0.0), (-5, 1), (1, 0), INF, None),
    "segment-on": (("Segment", 0.0, 0.0, 4.0, 0.0), (3, 0), (0, 1), INF, "inside"),
    # on the segment, looking along it (a rounded distance would put it 1e-16 off)
    "segment-on-along-line": (("Segment", 0.0, 1.0, 0.0, -3.136307124063012), (0, 0), (0, -1), INF,
                              "inside"),
    "segment-max-t": (("Segment", 3.0, -1.0, 3.0, 1.0), (0, 0), (1, 0), 2.0, None),
    "segment-point": (("Segment", 2.0, 2.0, 2.0, 2.0), (0, 0), (1, 1), INF, (2.0, (2.0, 2.0), (-R2, -R2))),
    "segment-point-miss": (("Segment", 2.0, 2.0, 2.0, 2.0), (0, 0), (1, 0.999), INF, None),
    "segment-1e6": (("Segment", 1e6, 1e6, 1e6 + 4, 1e6), (1e6 + 2, 1e6 - 3), (0, 2), INF,
                    (1.5, (1e6 + 2, 1e6), (0.0, -1.0))),
    # --- AABB [0,2] x [0,2]
    "aabb-face": (("AABB", 0.0, 0.0, 2.0, 2.0), (-3, 1), (1, 0), INF, (3.0, (0.0, 1.0), (-1.0, 0.0))),
    "aabb-face-top": (("AABB", 0.0, 0.0, 2.0, 2.0), (1.5, 6), (0, -4), INF, (1.0, (1.5, 2.0), (0.0, 1.0))),
    # corners: ties go to the lower face index (bottom 0, right 1, top 2, left 3)
    "aabb-corner-bottom-left": (("AABB", 0.0, 0.0, 2.0, 2.0), (-1, -1), (1, 1), INF,
                                (1.0, (0.0, 0.0), (0.0, -1.0))),
    "aabb-corner-top-right": (("AABB", 0.0, 0.0, 2.0, 2.0), (3, 3), (-1, -1), INF,
                              (1.0, (2.0, 2.0), (1.0, 0.0))),
    "aabb-corner-bottom-right": (("AABB", 0.0, 0.0, 2.0, 2.0), (3, -1), (-1, 1), INF,
                                 (1.0, (2.0, 0.0), (0.0, -1.0))),
    "aabb-corner-top-left": (("AABB", 0.0, 0.0, 2.0, 2.0), (-1, 3), (1, -1), INF,
                             (1.0, (0.0, 2.0), (0.0, 1.0))),
    "aabb-corner-graze": (("AABB", 0.0, 0.0, 2.0, 2.0), (1, 3), (1, -1), INF,
                          (1.0, (2.0, 2.0), (0.0, 1.0))),
    "aabb-along-edge": (("AABB", 0.0, 0.0, 2.0, 2.0), (-1, 0), (1, 0), INF, (1.0, (0.0, 0.0), (-1.0, 0.0))),
    "aabb-miss": (("AABB", 0.0, 0.0, 2.0, 2.0), (-1, 3), (1, 0), INF, None),
    "aabb-miss-diagonal": (("AABB", 0.0, 0.0, 2.0, 2.0), (-1, 1.5), (1, 2), INF, None),
    "aabb-inside": (("AABB", 0.0, 0.0, 2.0, 2.0), (1, 1), (1, 0), INF, "inside"),
    "aabb-on-surface": (("AABB", 0.0, 0.0, 2.0, 2.0), (0, 1), (-1, 0), INF, "inside"),
    "aabb-max-t": (("AABB", 0.0, 0.0, 2.0, 2.0), (-3, 1), (1, 0), 2.5, None),
    "aabb-zero-width-broadside": (("AABB", 1.0, 0.0, 1.0, 2.0), (-1, 1), (1, 0), INF,
                                  (2.0, (1.0, 1.0), (-1.0, 0.0))),
    "aabb-zero-width-end-on": (("AABB", 1.0, 0.0, 1.0, 2.0), (1, -2), (0, 1), INF,
                               (2.0, (1.0, 0.0), (0.0, -1.0))),
    # a corner of a zero-width box: the face of positive length wins the tie
    "aabb-zero-width-corner": (("AABB", 1.0, 0.0, 1.0, 2.0), (0, -1), (1, 1), INF,
                               (1.0, (1.0, 0.0), (-1.0, 0.0))),
    "aabb-point": (("AABB", 1.0, 1.0, 1.0, 1.0), (0, 0), (1, 1), INF, (1.0, (1.0, 1.0), (-R2, -R2))),
    "aabb-point-miss": (("AABB", 1.0, 1.0, 1.0, 1.0), (0, 0), (1, 2), INF, None),
    "aabb-1e6": (("AABB", 1e6, 1e6, 1e6 + 2, 1e6 + 2), (1e6 - 3, 1e6 + 1), (1, 0), INF,
                 (3.0, (1e6, 1e6 + 1), (-1.0, 0.0))),
    # --- OBB
    "obb-axis-aligned-corner": (("OBB", 1.0, 1.0, 1.0, 1.0, 0.0), (-1, -1), (1, 1), INF,
                                (1.0, (0.0, 0.0), (0.0, -1.0))),
    "obb-axis-aligned-face": (("OBB", 1.0, 1.0, 1.0, 1.0, 0.0), (5, 1.5), (-2, 0), INF,
                              (1.5, (2.0, 1.5), (1.0, 0.0))),
    "obb-quarter-turn": (("OBB", 0.0, 0.0, 2.0, 1.0, math.pi / 2), (-5, 0), (1, 0), INF,
                         (4.0, (-1.0, 0.0), (-1.0, 0.0))),
    "obb-quarter-turn-long-side": (("OBB", 0.0, 0.0, 2.0, 1.0, math.pi / 2), (0, -7), (0, 1), INF,
                                   (5.0, (0.0, -2.0), (0.0, -1.0))),
    # a diamond: the upper-left face x - y = -sqrt(2), at y = 0.5
    "obb-diamond-face": (("OBB", 0.0, 0.0, 1.0, 1.0, math.pi / 4), (-5, 0.5), (1, 0), INF,
                         (5.5 - math.sqrt(2), (0.5 - math.sqrt(2), 0.5), (-R2, R2))),
    "obb-on-surface": (("OBB", 1.0, 1.0, 1.0, 1.0, 0.0), (2, 1.5), (1, 0), INF, "inside"),
    "obb-max-t": (("OBB", 1.0, 1.0, 1.0, 1.0, 0.0), (5, 1.5), (-2, 0), 1.25, None),
    "obb-along-edge": (("OBB", 1.0, 1.0, 1.0, 1.0, 0.0), (-1, 0), (1, 0), INF,
                       (1.0, (0.0, 0.0), (-1.0, 0.0))),
    "obb-miss": (("OBB", 0.0, 0.0, 1.0, 1.0, math.pi / 4), (-5, 1.5), (1, 0), INF, None),
    "obb-inside": (("OBB", 0.0, 0.0, 1.0, 1.0, 0.3), (0.1, 0.2), (1, 0), INF, "inside"),
    "obb-zero-size": (("OBB", 2.0, 2.0, 0.0, 0.0, 0.7), (0, 0), (1, 1), INF, (2.0, (2.0, 2.0), (-R2, -R2))),
    "obb-zero-width-broadside": (("OBB", 0.0, 0.0, 0.0, 1.0, 0.0), (-3, 0.5), (1, 0), INF,
                                 (3.0, (0.0, 0.5), (-1.0, 0.0))),
    "obb-1e6": (("OBB", 1e6, 1e6, 1.0, 1.0, 0.0), (1e6 + 5, 1e6), (-1, 0), INF,
                (4.0, (1e6 + 1, 1e6), (1.0, 0.0))),
    # --- polygon: triangle (0,0) (4,0) (0,3), hypotenuse 3x + 4y = 12
    "polygon-hypotenuse": (("Polygon", ((0, 0), (4, 0), (0, 3))), (5, 5), (-1, -1), INF,
                           (23 / 7, (12 / 7, 12 / 7), (0.6, 0.8))),
    "polygon-face": (("Polygon", ((0, 0), (4, 0), (0, 3))), (1, -2), (0, 1), INF,
                     (2.0, (1.0, 0.0), (0.0, -1.0))),
    "polygon-vertex-tie": (("Polygon", ((0, 0), (4, 0), (0, 3))), (-1, -1), (1, 1), INF,
                           (1.0, (0.0, 0.0), (0.0, -1.0))),
    "polygon-along-edge": (("Polygon", ((0, 0), (4, 0), (0, 3))), (-2, 0), (1, 0), INF,
                           (2.0, (0.0, 0.0), (-1.0, 0.0))),
    "polygon-miss": (("Polygon", ((0, 0), (4, 0), (0, 3))), (3, 3), (1, 0), INF, None),
    "polygon-inside": (("Polygon", ((0, 0), (4, 0), (0, 3))), (1, 1), (0, 1), INF, "inside"),
    "polygon-on-vertex": (("Polygon", ((0, 0), (4, 0), (0, 3))), (4, 0), (1, 0), INF, "inside"),
    "polygon-max-t": (("Polygon", ((0, 0), (4, 0), (0, 3))), (1, -2), (0, 1), 1.5, None),
    "polygon-1e6": (("Polygon", ((1e6, 1e6), (1e6 + 4, 1e6), (1e6, 1e6 + 3))), (1e6 + 1, 1e6 - 2),
                    (0, 0.5), INF, (4.0, (1e6 + 1, 1e6), (0.0, -1.0))),
}


@pytest.mark.parametrize("case", sorted(KNOWN))
def test_known_answer(fc, case):
    spec, origin, direction, max_t, expected = KNOWN[case]
    shape = make_hull(fc, spec)
    hit = fc.raycast(shape, origin, direction, max_t)
    if expected is None:
        assert hit is None
        return
    assert isinstance(hit, fc.RayHit)
    t, point, normal = hit
    assert type(t) is float and type(point[0]) is float and type(normal[0]) is float
    if expected == "inside":
        assert hit == (0.0, (float(origin[0]), float(origin[1])), (0.0, 0.0))
        return
    et, ep, en = expected
    assert t == pytest.approx(et, rel=1e-12, abs=1e-12)
    assert point == pytest.approx(ep, rel=1e-12, abs=1e-12)
    assert normal == pytest.approx(en, abs=1e-12)


def test_hit_fields_and_exact_values(fc):
    hit = fc.raycast(fc.Circle(5, 0, 1), (0, 0), (1, 0))
    assert hit == fc.RayHit(4.0, (4.0, 0.0), (-1.0, 0.0))
    assert hit.t == 4.0 and hit.point == (4.0, 0.0) and hit.normal == (-1.0, 0.0)
    # normals never carry a negative zero
    hit = fc.raycast(fc.Capsule(0, 0, 4, 0, 1), (2, 5), (0, -1))
    assert math.copysign(1.0, hit.normal[0]) == 1.0


def test_tiny_and_huge_directions(fc):
    # t is in units of the direction; squares of the direction would underflow/overflow
    c = fc.Circle(5, 0, 1)
    hit = fc.raycast(c, (0, 0), (1e-200, 0))
    assert hit is not None and hit.t == pytest.approx(4e200, rel=1e-15)
    hit = fc.raycast(c, (0, 0), (1e200, 0))
    assert hit.t == pytest.approx(4e-200, rel=1e-15) and hit.normal == (-1.0, 0.0)
    # a hit beyond the float range is a miss
    assert fc.raycast(c, (0, 0), (1e-310, 0)) is None


def test_default_max_t_is_infinite(fc):
    assert fc.raycast(fc.Circle(1e100, 0, 1), (0, 0), (1, 0)).t == pytest.approx(1e100)


# --------------------------------------------------------------------------- properties


def ray_specs():
    return st.tuples(points(10), points(4).filter(lambda d: d != (0.0, 0.0)),
                     st.one_of(st.just(INF), st.floats(0, 30)))


def _unit(d):
    n = math.hypot(*d)
    return d[0] / n, d[1] / n


def clearly_meets(p, q, spec, L):
    """Whether segment pq meets the shape in a way no rounding can undo.

    It must still meet the shape when moved sideways by a small ``eps`` (either way)
    and when either end is pulled in by ``eps``: a graze, or touching with an end
    only, does not count (the ray kernels may call those either way).
    """
    eps = 1e-7 * L
    if math.hypot(q[0] - p[0], q[1] - p[1]) <= eps:
        # a ray of length 0 (or shorter than the slack: its ends cannot be pulled in)
        # from outside: it meets the shape only if the origin is clearly inside it
        return signed_point_distance(spec, p) < -eps
    if oracle_distance(("Segment", *p, *q), spec) > 0.0:
        return False
    ux, uy = _unit((q[0] - p[0], q[1] - p[1]))
    variants = [
        (p[0] - uy * eps, p[1] + ux * eps, q[0] - uy * eps, q[1] + ux * eps),
        (p[0] + uy * eps, p[1] - ux * eps, q[0] + uy * eps, q[1] - ux * eps),
        (p[0], p[1], q[0] - ux * eps, q[1] - uy * eps),
        (p[0] + ux * eps, p[1] + uy * eps, q[0], q[1]),
    ]
    return all(oracle_distance(("Segment", *v), spec) == 0.0 for v in variants)


def check_ray(fc, spec, origin, direction, max_t):
    shape = make_hull(fc, spec)
    hit = fc.raycast(shape, origin, direction, max_t)
    L = size_of(spec, ("p",) + tuple(origin)) + 1.0
    dn = math.hypot(*direction)
    tol = 1e-9 * L
    if hit is not None:
        t, p, n = hit
        assert 0.0 <= t <= max_t and math.copysign(1.0, t) == 1.0
        if n == (0.0, 0.0):
            # inside or on the boundary: the origin itself
            assert t == 0.0 and p == (float(origin[0]), float(origin[1]))
            assert point_distance(spec, p) <= tol
            return hit
        assert abs(math.hypot(*n) - 1.0) <= 1e-12
        # the normal faces the ray (rounding allowed only for a tangent hit)
        assert n[0] * direction[0] + n[1] * direction[1] <= 1e-9 * dn
        assert p[0] == origin[0] + t * direction[0] and p[1] == origin[1] + t * direction[1]
        # the hit point lies on the shape's surface, and the normal points out of it
        assert point_distance(spec, p) <= tol
        assert point_distance(spec, (p[0] + tol * n[0] * 10, p[1] + tol * n[1] * 10)) > 0.0
        # nothing of the shape lies on the ray before the hit
        if 0.001 * t * dn > 10 * tol:
            pre = (origin[0] + 0.999 * t * direction[0], origin[1] + 0.999 * t * direction[1])
            assert not clearly_meets(origin, pre, spec, L), "the ray passed the shape before t"
    else:
        # a miss is a real miss: the ray does not pass through the shape
        k = max_t if max_t != INF else 1e3 * L / dn
        end = (origin[0] + k * direction[0], origin[1] + k * direction[1])
        assert not clearly_meets(origin, end, spec, L), "missed a crossing"
    return hit


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=150, database=None)
@given(data=st.data())
def test_random_rays(fc, kind, data):
    spec = data.draw(shape_specs(kind), label="shape")
    origin, direction, max_t = data.draw(ray_specs(), label="ray")
    check_ray(fc, spec, origin, direction, max_t)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=100, database=None)
@given(data=st.data())
def test_random_rays_aimed_at_the_shape(fc, kind, data):
    # aim at a vertex/centre of the shape, so that hits are common (corners included)
    spec = data.draw(shape_specs(kind), label="shape")
    origin = data.draw(points(10), label="origin")
    target = _anchor(spec, data.draw(st.integers(0, 7)))
    d = (target[0] - origin[0], target[1] - origin[1])
    assume(d != (0.0, 0.0))
    k = data.draw(st.sampled_from([1.0, 0.5, 3.0, 1e-3]))
    check_ray(fc, spec, origin, (d[0] * k, d[1] * k), data.draw(st.sampled_from([INF, 1.0 / k])))


def _anchor(spec, i):
    kind = spec[0]
    if kind == "Circle":
        return spec[1], spec[2]
    if kind in ("Capsule", "Segment", "AABB"):
        return (spec[1], spec[2]) if i % 2 else (spec[3], spec[4])
    if kind == "OBB":
        return spec[1], spec[2]
    pts = spec[1]
    return pts[i % len(pts)]


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=60, database=None)
@given(data=st.data())
def test_translation_invariance(fc, kind, data):
    spec = data.draw(shape_specs(kind, lim=2, size_lim=1), label="shape")
    origin, direction, max_t = data.draw(ray_specs(), label="ray")
    off = data.draw(st.sampled_from([(1e6, -1e6), (-3.5e6, 2e6)]))
    check_translated_ray(fc, spec, origin, direction, max_t, off)


def check_translated_ray(fc, spec, origin, direction, max_t, off):
    """The ray and the shape moved by ``off`` hit where the unmoved ones do, within
    what the move's rounding allows."""

    h0 = fc.raycast(make_hull(fc, spec), origin, direction, max_t)
    moved = make_hull(fc, translate(spec, *off))
    h1 = fc.raycast(moved, (origin[0] + off[0], origin[1] + off[1]), direction, max_t)
    check_translated_hits(spec, origin, direction, max_t, off, h0, h1)


def check_translated_hits(spec, origin, direction, max_t, off, h0, h1):
    """``check_translated_ray``'s verdict on the unmoved hit h0 and the moved one h1."""
    L = size_of(spec, ("p",) + tuple(origin)) + 1.0
    if h0 is None or h1 is None:
        # only a ray that does not clearly cross the shape (a graze, an exact hit of a
        # point, a hit exactly at max_t) may change its verdict under rounding
        h = h0 or h1
        if h is not None and h.t > 0.0:
            k = min(max_t, 2.0 * h.t)
            end = (origin[0] + k * direction[0], origin[1] + k * direction[1])
            assert not clearly_meets(origin, end, spec, L)
        elif h is not None:
            # an origin on the boundary may round to either side
            assert abs(signed_point_distance(spec, origin)) <= 1e-7 * L
        return
    # translating the shape rounds its coordinates (delta: a few ulps of the offset), so
    # the moved shape is another shape by that much.  A hit moves along the ray by about
    # delta / cos (cos: of the angle between the ray and the surface normal)
    delta = 4.0 * math.ulp(max(abs(off[0]), abs(off[1])) + L)
    crossings = [h for h in (h0, h1) if h.normal != (0.0, 0.0)]
    if not crossings:
        # the origin inside both (t == 0.0; check_ray checks such answers)
        return
    if len(crossings) == 1:
        # inside one and not the other: the origin is on the boundary within rounding
        assert abs(signed_point_distance(spec, origin)) <= 2.0 * delta
    length = math.hypot(*direction)
    n = crossings[0].normal
    cos = abs(n[0] * direction[0] + n[1] * direction[1]) / length
    if len(crossings) == 1 or cos < math.sqrt(delta / (2.0 * L)):
        # a graze (cos -> 0): the ray runs within delta of the surface over a stretch,
        # and a hit anywhere on it is right for one of the two shapes.  On a round face
        # the stretch is about sqrt(8 r delta) long (test_graze_after_translation_is_
        # exact_for_the_rounded_shape checks one such answer against exact arithmetic);
        # along a flat face it can be the whole face (a box edge tilted by cos(pi/2) ~
        # 6e-17).  So each crossing must lie on the unmoved shape's surface within
        # delta, and the ray must not clearly meet the shape before the earlier one
        for h in crossings:
            p = (origin[0] + h.t * direction[0], origin[1] + h.t * direction[1])
            assert abs(signed_point_distance(spec, p)) <= 2.0 * delta
        first = min(h.t for h in crossings)
        pre = (origin[0] + first * direction[0], origin[1] + first * direction[1])
        assert not clearly_meets(origin, pre, spec, L)
        return
    moved_by = 2.0 * delta / cos / length
    assert h1.t == pytest.approx(h0.t, abs=1e-7 * (1 + h0.t) + moved_by)


def test_translated_ray_from_a_tilted_box_edge(fc):
    """A ray from the middle of the bottom edge of an OBB turned by pi/2, up into it.

    The edge is tilted by cos(pi/2) ~ 6e-17 and its corners are rounded in each frame:
    unmoved the origin lies on the box (t = 0.0), moved by (1e6, -1e6) a hair below it
    (t = 5.6e-17, entering the bottom face).  Both are right for their shape.
    """
    spec = ("OBB", 0.0, 0.25, 0.25, 0.25, math.pi / 2)
    check_translated_ray(fc, spec, (0.0, 0.0), (0.0, 0.25), INF, (1e6, -1e6))
    h1 = fc.raycast(make_hull(fc, spec), (0.0, 0.0), (0.0, 0.25))
    assert h1.t == 0.0


def test_translated_ray_along_a_tilted_box_edge(fc):
    """A ray from a corner along the right edge of an OBB turned by pi/2.

    The edge is tilted by cos(pi/2) ~ 6e-17, so the ray runs within 1e-17 of it over
    its whole length (y in [-0.25, 0.25]): unmoved, the hit is a crossing of that edge
    at t = 0.2266; moved by (1e6, -1e6), the origin rounds onto the box (t = 0.0).
    Both are right for their shape.
    """
    hh = 0.07180038421469549
    spec = ("OBB", 0.0, 0.0, 0.25, hh, math.pi / 2)
    ray = ((hh, -0.25), (0.0, 1.0), INF)
    off = (1e6, -1e6)
    check_translated_ray(fc, spec, *ray, off)
    # the check still rejects a hit beyond the edge's end (0.25 off the surface)
    h0 = fc.raycast(make_hull(fc, spec), *ray)
    beyond = fc.RayHit(0.75, (hh, 0.5), h0.normal)
    with pytest.raises(AssertionError):
        check_translated_hits(spec, *ray, off, h0, beyond)


def test_graze_after_translation_is_exact_for_the_rounded_shape(fc):
    """A ray tangent to a capsule's end circle, the capsule moved by (1e6, -1e6).

    The move rounds the end's x by 2.2e-11 to just inside the radius, and the tangent
    hit at t = 0.25 becomes a shallow crossing at t = 0.2499945...: a graze's hit moves
    with the square root of a change to the shape.  The answer must be the exact one for
    the shape as rounded (worked out here with fractions), not the unmoved one.
    """
    from fractions import Fraction

    r = 0.6816820053138689
    spec = (0.75, 0.0, r, 0.25, r)
    off = (1e6, -1e6)
    plain = fc.raycast(fc.Capsule(*spec), (0.0, 0.0), (0.0, 1.0))
    moved = fc.Capsule(spec[0] + off[0], spec[1] + off[1], spec[2] + off[0], spec[3] + off[1],
                       r)
    hit = fc.raycast(moved, off, (0.0, 1.0))
    # the end circle at b, relative to the ray's origin, as the moved capsule holds it
    bx = Fraction(spec[2] + off[0]) - Fraction(off[0])
    by = Fraction(spec[3] + off[1]) - Fraction(off[1])
    assert bx < Fraction(r) and Fraction(spec[0] + off[0]) - Fraction(off[0]) > Fraction(r)
    # the ray x = 0 enters the circle where y = by - sqrt(r^2 - bx^2)
    exact = float(by) - math.sqrt(float(Fraction(r) ** 2 - bx ** 2))
    assert plain.t == pytest.approx(0.25, abs=1e-15)
    assert hit.t == pytest.approx(exact, abs=1e-12)
    assert abs(hit.t - 0.25) > 1e-6


# --------------------------------------------------------------------------- bad input


def _args(fc):
    return [fc.Circle(0, 0, 1), (0.0, -3.0), (0.0, 1.0), 10.0]


NAMES = ["shape", "origin", "direction", "max_t"]


@pytest.mark.parametrize("label", sorted(WRONG_TYPES))
def test_shape_wrong_type(fc, label):
    args = _args(fc)
    args[0] = WRONG_TYPES[label]
    with raises_naming(TypeError, "shape", ["origin", "direction", "max_t"]):
        fc.raycast(*args)


@pytest.mark.parametrize("index", [1, 2])
@pytest.mark.parametrize("value", ["ab", None, 1.0, object(), {"x": 1}, {1, 2}, b"xy"],
                         ids=["str", "None", "float", "object", "dict", "set", "bytes"])
def test_point_wrong_type(fc, index, value):
    args = _args(fc)
    args[index] = value
    with raises_naming(TypeError, NAMES[index], [n for n in NAMES if n != NAMES[index]]):
        fc.raycast(*args)


@pytest.mark.parametrize("index", [1, 2])
@pytest.mark.parametrize("value", [(1.0,), (1.0, 2.0, 3.0), [], np.zeros(3)],
                         ids=["len1", "len3", "empty", "array3"])
def test_point_wrong_length(fc, index, value):
    args = _args(fc)
    args[index] = value
    with raises_naming(ValueError, NAMES[index]):
        fc.raycast(*args)


@pytest.mark.parametrize("index", [1, 2])
@pytest.mark.parametrize("label", sorted(NON_FINITE))
@pytest.mark.parametrize("slot", [0, 1])
def test_point_non_finite(fc, index, label, slot):
    args = _args(fc)
    p = list(args[index])
    p[slot] = NON_FINITE[label]
    args[index] = tuple(p)
    with raises_naming(ValueError, NAMES[index], [n for n in NAMES if n != NAMES[index]]):
        fc.raycast(*args)


@pytest.mark.parametrize("label", sorted(set(WRONG_TYPES) - {"complex", "np.complex128"}))
def test_point_component_wrong_type(fc, label):
    args = _args(fc)
    args[2] = (WRONG_TYPES[label], 1.0)
    with raises_naming(TypeError, "direction"):
        fc.raycast(*args)


@pytest.mark.parametrize("zero", [(0, 0), (0.0, -0.0), np.zeros(2), [0, 0]],
                         ids=["ints", "signed", "array", "list"])
def test_zero_direction(fc, zero):
    with pytest.raises(ValueError, match="direction must be non-zero"):
        fc.raycast(fc.Circle(0, 0, 1), (5, 5), zero)


@pytest.mark.parametrize("value", [-1.0, -1e-300, -math.inf, math.nan, np.float64("nan"), -1, 10**400],
                         ids=["neg", "tiny-neg", "-inf", "nan", "np.nan", "neg-int", "huge-int"])
def test_bad_max_t_value(fc, value):
    with raises_naming(ValueError, "max_t", ["shape", "origin", "direction"]):
        fc.raycast(fc.Circle(0, 0, 1), (0, -3), (0, 1), value)


# a 1-D array is no wrong type for max_t: it is one limit per row of a batch
@pytest.mark.parametrize("label", sorted(set(WRONG_TYPES) - {"ndarray"}))
def test_bad_max_t_type(fc, label):
    with raises_naming(TypeError, "max_t", ["shape", "origin", "direction"]):
        fc.raycast(fc.Circle(0, 0, 1), (0, -3), (0, 1), WRONG_TYPES[label])


def test_max_t_accepts_ints_zero_and_inf(fc):
    c = fc.Circle(0, 0, 1)
    assert fc.raycast(c, (0, -3), (0, 1), 2).t == 2.0
    assert fc.raycast(c, (0, -3), (0, 1), 0) is None
    assert fc.raycast(c, (0, -1), (0, 1), 0.0).t == 0.0
    assert fc.raycast(c, (0, -3), (0, 1), math.inf).t == 2.0
    assert fc.raycast(c, (0, -3), (0, 1), np.float32(2.5)).t == 2.0


def test_keyword_arguments(fc):
    hit = fc.raycast(shape=fc.Circle(0, 0, 1), origin=(0, -3), direction=(0, 1), max_t=5.0)
    assert hit.t == 2.0


def _exact_ray_box(origin, direction, box):
    """Whether origin + t * direction meets the closed box for some t >= 0, in rational
    arithmetic (the slab test on the exact values)."""
    from fractions import Fraction

    lo_t, hi_t = Fraction(0), None
    for p, d, lo, hi in zip(origin, direction, box[:2], box[2:]):
        p, d, lo, hi = (Fraction(v) for v in (p, d, lo, hi))
        if d == 0:
            if not lo <= p <= hi:
                return False
            continue
        t1, t2 = sorted(((lo - p) / d, (hi - p) / d))
        lo_t = max(lo_t, t1)
        hi_t = t2 if hi_t is None else min(hi_t, t2)
    return hi_t is None or lo_t <= hi_t


@st.composite
def _corner_rays(draw):
    """A ray aimed at a corner of an AABB (the direction corner - origin as rounded,
    then nudged by up to two ulps), at offsets 0, 1e6 and -3e7 and scales from 1e-150
    to 1e150: whether it hits is decided by the exact side of the corner against the
    ray, each exact stage and the band between them included."""
    off = draw(st.sampled_from([0.0, 1e6, -3e7]))
    scale = draw(st.sampled_from([1e-150, 1e-3, 1.0, 1e3, 1e150]))
    unit = st.floats(-1, 1)
    x0, y0 = off + scale * draw(unit), off + scale * draw(unit)
    w = scale * draw(st.sampled_from([0.0, 0.5, 1.7]))
    h = scale * draw(st.sampled_from([0.0, 0.3, 2.1]))
    box = (x0, y0, x0 + w, y0 + h)
    origin = (off + 5 * scale * draw(unit), off + 5 * scale * draw(unit))
    corner = (box[draw(st.sampled_from([0, 2]))], box[draw(st.sampled_from([1, 3]))])
    d = [corner[0] - origin[0], corner[1] - origin[1]]
    axis, k = draw(st.sampled_from([0, 1])), draw(st.integers(-2, 2))
    for _ in range(abs(k)):
        d[axis] = math.nextafter(d[axis], math.copysign(INF, k))
    assume(d != [0.0, 0.0] and all(map(math.isfinite, d)))
    assume(_span(d) <= 1126)  # beyond, the smaller component is rounded (numerics.md)
    return box, origin, tuple(d)


def _span(d):
    """Bits from the top of the larger component of d down to the lowest set bit of
    the smaller one (0 when one is zero)."""
    small = min(map(abs, d))
    if small == 0.0:
        return 0
    num, den = small.as_integer_ratio()
    lowest = (num & -num).bit_length() - den.bit_length()
    return math.frexp(max(map(abs, d)))[1] - lowest


@settings(max_examples=400, database=None)
@given(case=_corner_rays())
def test_rays_at_box_corners_hit_exactly(fc, case):
    box, origin, direction = case
    want = _exact_ray_box(origin, direction, box)
    assert (fc.raycast(fc.AABB(*box), origin, direction) is not None) is want, case
    got = fc.raycast(fc.AABBArray([box]), np.array([origin]), np.array([direction]))
    assert bool(got.hit[0]) is want, case
    # a point swept along the ray meets the box exactly when the ray does
    point = fc.Segment(*origin, *origin)
    assert (fc.time_of_impact(fc.AABB(*box), (0, 0), point, direction, INF) is not None) is want


def test_a_subnormal_direction_component_is_kept(fc):
    # (-5, 5e-324) climbs 5e-324 over the run from x = 5 to x = 0: it passes above a
    # point at the origin and below nothing else.  Scaled so that its larger component
    # lies in [0.5, 1), the smaller one would round to 0.0 and the ray would run along
    # the x axis, through the point; the ray must stay the one given
    up, down = (-5.0, 5e-324), (-5.0, -5e-324)
    assert fc.raycast(fc.AABB(0, 0, 0, 0), (5.0, 0.0), up) is None
    assert fc.raycast(fc.Segment(0, 0, 0, 0), (5.0, 0.0), up) is None
    # it enters the unit box through its right side at t = 0.8
    assert fc.raycast(fc.AABB(0, 0, 1, 1), (5.0, 0.0), up).t == 0.8
    # below the triangle's bottom side y = 0 all the way
    assert fc.raycast(fc.Polygon([(0, 0), (1, 0), (0, 1)]), (5.0, 0.0), down) is None
    # the same in a sweep: a point moving that way passes over a point at the origin
    assert fc.time_of_impact(fc.AABB(0, 0, 0, 0), (0, 0), fc.Segment(5, 0, 5, 0), up) is None
    assert fc.time_of_impact(fc.Segment(0, 0, 0, 0), (0, 0), fc.Segment(5, 0, 5, 0), up) is None
    # components spanning more than 1126 bits cannot both be kept with the larger
    # below 2**52: the ray is cast as the one along the axis (docs/numerics.md)
    huge = (1e300, 5e-324)
    for shape in (fc.Circle(10, 0, 1), fc.AABB(9, -1, 11, 1), fc.OBB(10, 0, 1, 1, 0.3),
                  fc.Polygon([(9, -1), (11, -1), (10, 1)])):
        assert fc.raycast(shape, (0, 0), huge) == fc.raycast(shape, (0, 0), (1e300, 0.0))
        assert 8e-300 < fc.raycast(shape, (0, 0), huge).t < 1e-299


def _exact_ray_convex(origin, direction, ring):
    """Whether origin + t * direction meets the closed convex counter-clockwise ring for
    some t >= 0, in rational arithmetic: the ray's interval [0, inf) clipped by each
    edge's inner half-plane."""
    from fractions import Fraction

    (px, py), (dx, dy) = (map(Fraction, origin)), (map(Fraction, direction))
    lo, hi = Fraction(0), None
    n = len(ring)
    for i in range(n):
        (ax, ay), (bx, by) = (map(Fraction, ring[i])), (map(Fraction, ring[(i + 1) % n]))
        ex, ey = bx - ax, by - ay
        # inside: ex * (y - ay) - ey * (x - ax) >= 0 at p + t d, that is c0 + t c1 >= 0
        c0 = ex * (py - ay) - ey * (px - ax)
        c1 = ex * dy - ey * dx
        if c1 == 0:
            if c0 < 0:
                return False
        elif c1 > 0:
            lo = max(lo, -c0 / c1)
        else:
            hi = -c0 / c1 if hi is None else min(hi, -c0 / c1)
    return hi is None or lo <= hi


@st.composite
def _vertex_rays(draw):
    """A convex polygon (three to six vertices on a circle, as rounded) and a ray aimed
    at one of its vertices (the direction vertex - origin as rounded, nudged by up to
    two ulps), at offsets 0, 1e6 and -3e7 and scales 1e-3 to 1e3."""
    off = draw(st.sampled_from([0.0, 1e6, -3e7]))
    scale = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    n = draw(st.integers(3, 6))
    turns = sorted(draw(st.lists(st.floats(0, 1, exclude_max=True), min_size=n, max_size=n,
                                 unique=True)))
    ring = [(off + scale * math.cos(2 * math.pi * u), off + scale * math.sin(2 * math.pi * u))
            for u in turns]
    origin = (off + 4 * scale * draw(st.floats(-1, 1)), off + 4 * scale * draw(st.floats(-1, 1)))
    target = ring[draw(st.integers(0, n - 1))]
    d = [target[0] - origin[0], target[1] - origin[1]]
    axis, k = draw(st.sampled_from([0, 1])), draw(st.integers(-2, 2))
    for _ in range(abs(k)):
        d[axis] = math.nextafter(d[axis], math.copysign(INF, k))
    assume(d != [0.0, 0.0])
    return ring, origin, tuple(d)


@settings(max_examples=300, database=None)
@given(case=_vertex_rays())
def test_rays_at_polygon_vertices_hit_exactly(fc, case):
    ring, origin, direction = case
    try:
        poly = fc.Polygon(ring)
    except ValueError:
        assume(False)  # vertices too close to make a polygon of
    # the polygon as stored (counter-clockwise; a vertex exactly on a straight run dropped)
    want = _exact_ray_convex(origin, direction, poly.vertices)
    assert (fc.raycast(poly, origin, direction) is not None) is want, case
    # a point swept along the ray meets the polygon exactly when the ray does
    point = fc.Segment(*origin, *origin)
    assert (fc.time_of_impact(poly, (0, 0), point, direction, INF) is not None) is want, case


def _exact_ray_segment(origin, direction, a, b):
    """Whether origin + t * direction meets the closed segment ab for some t >= 0, in
    rational arithmetic."""
    from fractions import Fraction

    (px, py), (dx, dy) = (map(Fraction, origin)), (map(Fraction, direction))
    (ax, ay), (bx, by) = (map(Fraction, a)), (map(Fraction, b))
    ex, ey = bx - ax, by - ay
    den = dx * ey - dy * ex  # cross(d, e)
    wx, wy = ax - px, ay - py
    if den == 0:
        if wx * dy - wy * dx != 0:
            return False  # parallel, off the ray's line
        # on the ray's line: some point of ab at t >= 0
        return max(wx * dx + wy * dy, (bx - px) * dx + (by - py) * dy) >= 0
    t = (wx * ey - wy * ex) / den
    s = (wx * dy - wy * dx) / den
    return t >= 0 and 0 <= s <= 1


@st.composite
def _end_rays(draw):
    """A segment (of zero length, too) and a ray aimed at one of its ends or along it
    (the direction as rounded, nudged by up to two ulps), at offsets 0, 1e6 and -3e7
    and scales 1e-3 to 1e3."""
    off = draw(st.sampled_from([0.0, 1e6, -3e7]))
    scale = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    unit = st.floats(-1, 1)
    a = (off + scale * draw(unit), off + scale * draw(unit))
    b = draw(st.sampled_from([a, (off + scale * draw(unit), off + scale * draw(unit))]))
    origin = (off + 4 * scale * draw(unit), off + 4 * scale * draw(unit))
    if draw(st.booleans()):
        # from a point of the segment's line, beyond an end
        u = draw(st.sampled_from([-2.0, -0.5, 1.5, 3.0]))
        origin = (a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1]))
    target = draw(st.sampled_from([a, b]))
    d = [target[0] - origin[0], target[1] - origin[1]]
    axis, k = draw(st.sampled_from([0, 1])), draw(st.integers(-2, 2))
    for _ in range(abs(k)):
        d[axis] = math.nextafter(d[axis], math.copysign(INF, k))
    assume(d != [0.0, 0.0])
    # a segment whose squared length underflows is cast as a point (numerics.md)
    ex, ey = b[0] - a[0], b[1] - a[1]
    assume(a == b or ex * ex + ey * ey > 0.0)
    return a, b, origin, tuple(d)


@settings(max_examples=400, database=None)
@given(case=_end_rays())
def test_rays_at_segment_ends_hit_exactly(fc, case):
    a, b, origin, direction = case
    want = _exact_ray_segment(origin, direction, a, b)
    assert (fc.raycast(fc.Segment(*a, *b), origin, direction) is not None) is want, case
    got = fc.raycast(fc.SegmentArray([a + b]), np.array([origin]), np.array([direction]))
    assert bool(got.hit[0]) is want, case
    point = fc.Segment(*origin, *origin)
    assert (fc.time_of_impact(fc.Segment(*a, *b), (0, 0), point, direction, INF)
            is not None) is want, case


def test_a_sliver_edge_has_a_normal_and_a_gap(fc):
    # a triangle whose right edge, from (0.001, 0) up to (0.001, 4.3e-244), is so short
    # that its squared length underflows to 0.0: the ray entering through it takes its
    # outward normal (1, 0), and the separating axis it gives measures the gap to a
    # triangle 0.001 to the right (the reference divided by zero; the compiled backend
    # gave an infinite normal and distance)
    sliver = fc.Polygon([(0.001, 0.0), (0.001, 4.3429425998484276e-244),
                         (-0.001, 1.2246467991473531e-19)])
    hit = fc.raycast(sliver, (0.004, 0.0), (-0.003, 0.0))
    assert hit.t == 1.0 and hit.point == (0.001, 0.0) and hit.normal == (1.0, 0.0)
    other = fc.Polygon([(0.002, -0.001), (0.003, 0.0), (0.002, 0.001)])
    assert fc.collide(sliver, other) is False
    assert fc.distance(sliver, other) == pytest.approx(0.001, rel=1e-12)
    assert fc.time_of_impact(sliver, (0, 0), other, (-1, 0)) == pytest.approx(0.001, rel=1e-12)
