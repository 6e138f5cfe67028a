"""Hand-worked known answers for collide, distance and closest_points.

Every unordered pair of the six shapes (21 pairs) is exercised in the situations that
make sense for it: separated, touching exactly, overlapping, one inside the other, and
degenerate sizes (zero radius, zero length, zero-size boxes, parallel and collinear
axes).  Each case is checked in both argument orders.  Every expected value was worked
out by hand (the comment on each case is the derivation), never copied from the code.

Notation in the comments: Q is the square [0, 2] x [0, 2], T the right triangle
(0, 0), (4, 0), (0, 3) whose hypotenuse lies on 3x + 4y = 12 with outward unit normal
(0.6, 0.8); "diamond" is OBB(0, 0, 1, 1, pi/4) with vertices (+-sqrt2, 0), (0, +-sqrt2);
R345 is OBB(0, 0, 2.5, 1, atan2(3, 4)) with axes u = (0.8, 0.6), v = (-0.6, 0.8), so
its +u face centre is 2.5u = (2, 1.5) and a point p has u-coordinate 0.8 px + 0.6 py.

Expected closest points are given where they are unique.  Where they are not:
  SHARED  - the shapes overlap or touch along more than one point: point_a == point_b
            and it lies in both shapes (checked with the independent oracle in
            tests/oracle.py);
  ANY     - separated with a non-unique closest pair (parallel faces): each point lies
            on its shape and they are `distance` apart.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from oracle import point_distance
from shapes import make

SQRT2 = math.sqrt(2.0)
A345 = math.atan2(3.0, 4.0)  # cos = 0.8, sin = 0.6
PI = math.pi

SHARED = "shared"
ANY = "any"

TOL_ON_SHAPE = 1e-9  # shapes below are of size ~10


def approx(x):
    return pytest.approx(x, rel=1e-12, abs=1e-12)


# Shape spec shorthands.
def C(x, y, r):
    return ("Circle", x, y, r)


def K(ax, ay, bx, by, r):
    return ("Capsule", ax, ay, bx, by, r)


def S(ax, ay, bx, by):
    return ("Segment", ax, ay, bx, by)


def B(x0, y0, x1, y1):
    return ("AABB", x0, y0, x1, y1)


def O(cx, cy, hw, hh, ang=0.0):  # noqa: E741, E743
    return ("OBB", cx, cy, hw, hh, ang)


def P(*verts):
    return ("Polygon", list(verts))


Q = P((0, 0), (2, 0), (2, 2), (0, 2))
T = P((0, 0), (4, 0), (0, 3))
DIAMOND = O(0, 0, 1, 1, PI / 4)
R345 = O(0, 0, 2.5, 1, A345)


def case(cid, a, b, hit, dist, pts):
    """One known answer.  pts: ((xa, ya), (xb, yb)) exact, or SHARED, or ANY."""
    if hit:
        assert dist == 0.0
    return pytest.param(a, b, hit, dist, pts, id=cid)


# the nearest-pair cases (the derivations are at their entries in CASES)
NEAR_VV = (P((0, -1), (1, 0), (0, 1), (-1, 0)), P((3, -1), (4, 0), (3, 1), (2, 0)))
NEAR_EDGE_A = (B(0, 0, 2, 2), P((3, 0.5), (4, -0.5), (5, 0.5), (4, 1.5)))
NEAR_EDGE_B = (B(0, 0, 1, 1), P((2, 2), (4, 2.5), (0.2, 3.6)))
NEAR_SEARCH = (B(0, 0, 1, 1), P((3, -0.5), (4, 4), (-0.5, 3)))

CASES = [
    # ----------------------------------------------------------------- circle-circle
    # centres (0,0),(3,4) are 5 apart; 5 - 1 - 1 = 3; points along (0.6, 0.8).
    case("circle-circle:separated-345", C(0, 0, 1), C(3, 4, 1), False, 3.0,
         ((0.6, 0.8), (2.4, 3.2))),
    # centres 5 apart on x; 5 - 1 - 2 = 2.
    case("circle-circle:separated-axis", C(0, 0, 1), C(5, 0, 2), False, 2.0,
         ((1.0, 0.0), (3.0, 0.0))),
    # centres 5 apart = 1 + 4: touch at 1 * (0.6, 0.8).
    case("circle-circle:touching-345", C(0, 0, 1), C(3, 4, 4), True, 0.0,
         ((0.6, 0.8), (0.6, 0.8))),
    # centres 2 apart = 1 + 1: touch at (1, 0).
    case("circle-circle:touching-axis", C(0, 0, 1), C(2, 0, 1), True, 0.0,
         ((1.0, 0.0), (1.0, 0.0))),
    # centres 3 apart < 2 + 2.
    case("circle-circle:overlapping", C(0, 0, 2), C(3, 0, 2), True, 0.0, SHARED),
    # |(1,1)| + 1 < 5.
    case("circle-circle:inside", C(0, 0, 5), C(1, 1, 1), True, 0.0, SHARED),
    # concentric: no direction between the centres, still a point inside both.
    case("circle-circle:concentric", C(0, 0, 1), C(0, 0, 2), True, 0.0, SHARED),
    # two points 5 apart.
    case("circle-circle:zero-radius-both", C(0, 0, 0), C(3, 4, 0), False, 5.0,
         ((0.0, 0.0), (3.0, 4.0))),
    # point (3,4) is exactly 5 from the centre: on the circle.
    case("circle-circle:zero-radius-on-boundary", C(3, 4, 0), C(0, 0, 5), True, 0.0,
         ((3.0, 4.0), (3.0, 4.0))),
    # point inside the circle: the only common point is the point itself.
    case("circle-circle:zero-radius-inside", C(1, 1, 0), C(0, 0, 5), True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    case("circle-circle:zero-radius-same-point", C(2, 3, 0), C(2, 3, 0), True, 0.0,
         ((2.0, 3.0), (2.0, 3.0))),
    # ---------------------------------------------------------------- circle-capsule
    # centre (2,5) projects inside the axis at (2,0): 5 - 1 - 1 = 3.
    case("circle-capsule:separated-side", C(2, 5, 1), K(0, 0, 4, 0, 1), False, 3.0,
         ((2.0, 4.0), (2.0, 1.0))),
    # centre (7,4) is beyond the end (4,0): offset (3,4), 5 - 1 - 1 = 3.
    case("circle-capsule:separated-cap-345", C(7, 4, 1), K(0, 0, 4, 0, 1), False, 3.0,
         ((6.4, 3.2), (4.6, 0.8))),
    # axis distance 3 = 1 + 2: touch at (2, 2).
    case("circle-capsule:touching-side", C(2, 3, 1), K(0, 0, 4, 0, 2), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    # (7,4) is 5 = 3 + 2 from the end (4,0): touch at (4,0) + 2 * (0.6, 0.8).
    case("circle-capsule:touching-cap-345", C(7, 4, 3), K(0, 0, 4, 0, 2), True, 0.0,
         ((5.2, 1.6), (5.2, 1.6))),
    # axis distance 1 < 1 + 1.
    case("circle-capsule:overlapping", C(2, 1, 1), K(0, 0, 4, 0, 1), True, 0.0, SHARED),
    # circle on the axis, radius 0.5 < 1.
    case("circle-capsule:circle-inside", C(2, 0, 0.5), K(0, 0, 4, 0, 1), True, 0.0,
         SHARED),
    # capsule reaches at most |(1,0)| + 1 = 2 < 5 from the centre.
    case("circle-capsule:capsule-inside", C(0, 0, 5), K(-1, 0, 1, 0, 1), True, 0.0,
         SHARED),
    # a == b: a circle at (1,1); centres 5 apart (3-4-5), 5 - 1 - 1 = 3.
    case("circle-capsule:zero-length-capsule", C(4, 5, 1), K(1, 1, 1, 1, 1), False, 3.0,
         ((3.4, 4.2), (1.6, 1.8))),
    # a point on the axis: inside.
    case("circle-capsule:zero-radius-circle-inside", C(2, 0, 0), K(0, 0, 4, 0, 1), True,
         0.0, ((2.0, 0.0), (2.0, 0.0))),
    # capsule of radius 0 is the segment; 3 - 1 = 2.
    case("circle-capsule:zero-radius-capsule", C(2, 3, 1), K(0, 0, 4, 0, 0), False, 2.0,
         ((2.0, 2.0), (2.0, 0.0))),
    # ---------------------------------------------------------------- circle-segment
    case("circle-segment:separated-side", C(2, 3, 1), S(0, 0, 4, 0), False, 2.0,
         ((2.0, 2.0), (2.0, 0.0))),
    # (7,4) to the end (4,0) is 5; 5 - 2 = 3; circle point (7,4) - 2*(0.6,0.8).
    case("circle-segment:separated-end-345", C(7, 4, 2), S(0, 0, 4, 0), False, 3.0,
         ((5.8, 2.4), (4.0, 0.0))),
    case("circle-segment:touching-side", C(2, 1, 1), S(0, 0, 4, 0), True, 0.0,
         ((2.0, 0.0), (2.0, 0.0))),
    # (7,4) is 5 from (4,0) = r.
    case("circle-segment:touching-end-345", C(7, 4, 5), S(0, 0, 4, 0), True, 0.0,
         ((4.0, 0.0), (4.0, 0.0))),
    # the segment passes through the circle.
    case("circle-segment:crossing", C(2, 0, 1), S(0, 0, 4, 0), True, 0.0, SHARED),
    case("circle-segment:segment-inside", C(0, 0, 2), S(-1, 0, 1, 0), True, 0.0, SHARED),
    # zero-length segment = point (3,4), 5 from the centre: 5 - 1 = 4.
    case("circle-segment:zero-length-segment", C(0, 0, 1), S(3, 4, 3, 4), False, 4.0,
         ((0.6, 0.8), (3.0, 4.0))),
    case("circle-segment:zero-length-inside", C(0, 0, 2), S(1, 1, 1, 1), True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    case("circle-segment:zero-radius-on-segment", C(2, 0, 0), S(0, 0, 4, 0), True, 0.0,
         ((2.0, 0.0), (2.0, 0.0))),
    case("circle-segment:zero-radius-off-segment", C(2, 3, 0), S(0, 0, 4, 0), False, 3.0,
         ((2.0, 3.0), (2.0, 0.0))),
    case("circle-segment:point-point", C(4, 5, 0), S(1, 1, 1, 1), False, 5.0,
         ((4.0, 5.0), (1.0, 1.0))),
    # ------------------------------------------------------------------- circle-aabb
    # nearest box point to (5,1) is (2,1): 3 - 1 = 2.
    case("circle-aabb:separated-face", C(5, 1, 1), B(0, 0, 2, 2), False, 2.0,
         ((4.0, 1.0), (2.0, 1.0))),
    # nearest box point to (5,6) is the corner (2,2), offset (3,4): 5 - 1 = 4.
    case("circle-aabb:separated-corner-345", C(5, 6, 1), B(0, 0, 2, 2), False, 4.0,
         ((4.4, 5.2), (2.0, 2.0))),
    case("circle-aabb:touching-face", C(3, 1, 1), B(0, 0, 2, 2), True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("circle-aabb:touching-corner-345", C(5, 6, 5), B(0, 0, 2, 2), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("circle-aabb:overlapping", C(2, 1, 1), B(0, 0, 2, 2), True, 0.0, SHARED),
    case("circle-aabb:circle-inside", C(2, 2, 1), B(0, 0, 4, 4), True, 0.0, SHARED),
    # box corners are sqrt2 < 5 from the centre.
    case("circle-aabb:box-inside", C(0, 0, 5), B(-1, -1, 1, 1), True, 0.0, SHARED),
    # zero-size box = point (3,4): 5 - 1 = 4.
    case("circle-aabb:zero-size-box", C(0, 0, 1), B(3, 4, 3, 4), False, 4.0,
         ((0.6, 0.8), (3.0, 4.0))),
    # zero-width box = segment x = 2, y in [0,4]; (5,2) is 3 away: 3 - 1 = 2.
    case("circle-aabb:zero-width-box", C(5, 2, 1), B(2, 0, 2, 4), False, 2.0,
         ((4.0, 2.0), (2.0, 2.0))),
    case("circle-aabb:zero-radius-inside", C(1, 1, 0), B(0, 0, 2, 2), True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    case("circle-aabb:zero-radius-on-corner", C(2, 2, 0), B(0, 0, 2, 2), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    # -------------------------------------------------------------------- circle-obb
    # OBB(1,1,1,1,0) is Q; as circle-aabb:separated-face.
    case("circle-obb:separated-angle0", C(5, 1, 1), O(1, 1, 1, 1), False, 2.0,
         ((4.0, 1.0), (2.0, 1.0))),
    # angle pi/2 swaps the extents: x in [-1,1], y in [-2,2]; (4,0) -> face x = 1.
    case("circle-obb:separated-quarter-turn", C(4, 0, 1), O(0, 0, 2, 1, PI / 2), False,
         2.0, ((3.0, 0.0), (1.0, 0.0))),
    # diamond vertex (sqrt2, 0) is nearest to (3,0): 3 - sqrt2 - 1.
    case("circle-obb:separated-diamond-vertex", C(3, 0, 1), DIAMOND, False, 2.0 - SQRT2,
         ((2.0, 0.0), (SQRT2, 0.0))),
    # diamond edge x + y = sqrt2; (2,2) is (4 - sqrt2)/sqrt2 = 2sqrt2 - 1 from it,
    # foot (sqrt2/2, sqrt2/2); minus r = 1.
    case("circle-obb:separated-diamond-edge", C(2, 2, 1), DIAMOND, False,
         2.0 * SQRT2 - 2.0, ((2.0 - SQRT2 / 2, 2.0 - SQRT2 / 2), (SQRT2 / 2, SQRT2 / 2))),
    # centre 5.5u = (4.4, 3.3), u-coordinate 5.5 vs face 2.5: 3 - 1 = 2.
    case("circle-obb:separated-345", C(4.4, 3.3, 1), R345, False, 2.0,
         ((3.6, 2.7), (2.0, 1.5))),
    case("circle-obb:touching-angle0", C(3, 1, 1), O(1, 1, 1, 1), True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    # centre (1,0): |x| + |y| = 1 < sqrt2, inside the diamond.
    case("circle-obb:overlapping", C(1, 0, 1), DIAMOND, True, 0.0, SHARED),
    # OBB(0,0,2,1,0.3) contains the disc of radius 1 (its half height) at its centre.
    case("circle-obb:circle-inside", C(0, 0, 0.5), O(0, 0, 2, 1, 0.3), True, 0.0, SHARED),
    # OBB(0,0,1,1,0.7) corners are sqrt2 < 2 from the centre.
    case("circle-obb:obb-inside", C(0, 0, 2), O(0, 0, 1, 1, 0.7), True, 0.0, SHARED),
    # zero-size OBB = point (3,4): 5 - 1 = 4.
    case("circle-obb:zero-size-obb", C(0, 0, 1), O(3, 4, 0, 0, 0.5), False, 4.0,
         ((0.6, 0.8), (3.0, 4.0))),
    # half_h = 0 at pi/2: the segment x = 0, y in [-2,2]; (3,0): 3 - 1 = 2.
    case("circle-obb:zero-height-obb", C(3, 0, 1), O(0, 0, 2, 0, PI / 2), False, 2.0,
         ((2.0, 0.0), (0.0, 0.0))),
    # ---------------------------------------------------------------- circle-polygon
    # hypotenuse midpoint (2,1.5) + 5 * (0.6,0.8) = (5,5.5); 5 - 2 = 3.
    case("circle-polygon:separated-edge-345", C(5, 5.5, 2), T, False, 3.0,
         ((3.8, 3.9), (2.0, 1.5))),
    case("circle-polygon:separated-vertex-345", C(5, 6, 1), Q, False, 4.0,
         ((4.4, 5.2), (2.0, 2.0))),
    case("circle-polygon:touching-edge", C(3, 1, 1), Q, True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("circle-polygon:touching-vertex-345", C(5, 6, 5), Q, True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("circle-polygon:overlapping", C(2, 1, 1), Q, True, 0.0, SHARED),
    case("circle-polygon:circle-inside", C(1, 1, 0.5), Q, True, 0.0, SHARED),
    # Q's corners are sqrt2 < 5 from (1,1).
    case("circle-polygon:polygon-inside", C(1, 1, 5), Q, True, 0.0, SHARED),
    case("circle-polygon:zero-radius-on-edge", C(1, 0, 0), Q, True, 0.0,
         ((1.0, 0.0), (1.0, 0.0))),
    case("circle-polygon:zero-radius-inside", C(1, 1, 0), T, True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    case("circle-polygon:zero-radius-outside", C(5, 5.5, 0), T, False, 5.0,
         ((5.0, 5.5), (2.0, 1.5))),
    # --------------------------------------------------------------- capsule-capsule
    # parallel axes 5 apart: 5 - 2 = 3, any x in [0,4].
    case("capsule-capsule:separated-parallel", K(0, 0, 4, 0, 1), K(0, 5, 4, 5, 1), False,
         3.0, ANY),
    # parallel, shifted: overlap of projections x in [2,4].
    case("capsule-capsule:separated-parallel-shifted", K(0, 0, 4, 0, 1),
         K(2, 5, 6, 5, 1), False, 3.0, ANY),
    # parallel, no projection overlap: ends (4,0),(7,4) are 5 apart; 5 - 2 = 3.
    case("capsule-capsule:separated-parallel-ends-345", K(0, 0, 4, 0, 1),
         K(7, 4, 11, 4, 1), False, 3.0, ((4.6, 0.8), (6.4, 3.2))),
    # collinear, axis gap 3: 3 - 2 = 1.
    case("capsule-capsule:separated-collinear", K(0, 0, 4, 0, 1), K(7, 0, 10, 0, 1),
         False, 1.0, ((5.0, 0.0), (6.0, 0.0))),
    # perpendicular: (2,0) to (2,4) is 4; 4 - 2 = 2.
    case("capsule-capsule:separated-perpendicular", K(0, 0, 4, 0, 1), K(2, 4, 2, 8, 1),
         False, 2.0, ((2.0, 1.0), (2.0, 3.0))),
    # axis distance 3 = 1 + 2.
    case("capsule-capsule:touching-perpendicular", K(0, 0, 4, 0, 1), K(2, 3, 2, 8, 2),
         True, 0.0, ((2.0, 1.0), (2.0, 1.0))),
    # collinear, axis gap 2 = 1 + 1.
    case("capsule-capsule:touching-collinear", K(0, 0, 4, 0, 1), K(6, 0, 9, 0, 1), True,
         0.0, ((5.0, 0.0), (5.0, 0.0))),
    # parallel axes 2 apart: touch along y = 1, x in [0,4].
    case("capsule-capsule:touching-parallel", K(0, 0, 4, 0, 1), K(0, 2, 4, 2, 1), True,
         0.0, SHARED),
    case("capsule-capsule:crossing", K(0, 0, 4, 0, 1), K(2, -2, 2, 2, 1), True, 0.0,
         SHARED),
    case("capsule-capsule:inside", K(0, 0, 4, 0, 1), K(1, 0, 3, 0, 0.5), True, 0.0,
         SHARED),
    # zero-length capsule = circle at (2,5): 5 - 2 = 3.
    case("capsule-capsule:zero-length", K(0, 0, 4, 0, 1), K(2, 5, 2, 5, 1), False, 3.0,
         ((2.0, 1.0), (2.0, 4.0))),
    case("capsule-capsule:zero-length-both-345", K(0, 0, 0, 0, 1), K(3, 4, 3, 4, 1),
         False, 3.0, ((0.6, 0.8), (2.4, 3.2))),
    # radius 0 capsules are segments crossing at (2,0).
    case("capsule-capsule:zero-radius-crossing", K(0, 0, 4, 0, 0), K(2, -2, 2, 2, 0),
         True, 0.0, ((2.0, 0.0), (2.0, 0.0))),
    # radius 0, collinear overlapping on x in [2,4].
    case("capsule-capsule:zero-radius-collinear-overlap", K(0, 0, 4, 0, 0),
         K(2, 0, 6, 0, 0), True, 0.0, SHARED),
    # --------------------------------------------------------------- capsule-segment
    case("capsule-segment:separated-perpendicular", K(0, 0, 4, 0, 1), S(2, 4, 2, 8),
         False, 3.0, ((2.0, 1.0), (2.0, 4.0))),
    case("capsule-segment:separated-parallel", K(0, 0, 4, 0, 1), S(1, 3, 3, 3), False,
         2.0, ANY),
    # ends (4,0),(7,4): 5 - 1 = 4.
    case("capsule-segment:separated-ends-345", K(0, 0, 4, 0, 1), S(7, 4, 9, 4), False,
         4.0, ((4.6, 0.8), (7.0, 4.0))),
    case("capsule-segment:separated-collinear", K(0, 0, 4, 0, 1), S(7, 0, 9, 0), False,
         2.0, ((5.0, 0.0), (7.0, 0.0))),
    case("capsule-segment:touching", K(0, 0, 4, 0, 1), S(2, 1, 2, 5), True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("capsule-segment:touching-collinear", K(0, 0, 4, 0, 1), S(5, 0, 9, 0), True,
         0.0, ((5.0, 0.0), (5.0, 0.0))),
    case("capsule-segment:crossing", K(0, 0, 4, 0, 1), S(2, -3, 2, 3), True, 0.0, SHARED),
    # both ends 0.5 from the axis.
    case("capsule-segment:segment-inside", K(0, 0, 4, 0, 1), S(1, 0.5, 3, -0.5), True,
         0.0, SHARED),
    case("capsule-segment:zero-length-segment", K(0, 0, 4, 0, 1), S(2, 3, 2, 3), False,
         2.0, ((2.0, 1.0), (2.0, 3.0))),
    case("capsule-segment:zero-length-capsule", K(0, 5, 0, 5, 1), S(-3, 0, 3, 0), False,
         4.0, ((0.0, 4.0), (0.0, 0.0))),
    # ------------------------------------------------------------------ capsule-aabb
    case("capsule-aabb:separated-end", K(5, 1, 8, 1, 1), B(0, 0, 2, 2), False, 2.0,
         ((4.0, 1.0), (2.0, 1.0))),
    # axis x = 4 parallel to face x = 2: 2 - 1 = 1.
    case("capsule-aabb:separated-parallel", K(4, 0, 4, 2, 1), B(0, 0, 2, 2), False, 1.0,
         ANY),
    # axis y = 6, x >= 5; nearest to the box is (5,6) -> corner (2,2): 5 - 1 = 4.
    case("capsule-aabb:separated-corner-345", K(5, 6, 9, 6, 1), B(0, 0, 2, 2), False,
         4.0, ((4.4, 5.2), (2.0, 2.0))),
    case("capsule-aabb:touching-end", K(3, 1, 6, 1, 1), B(0, 0, 2, 2), True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("capsule-aabb:touching-parallel", K(3, 0, 3, 2, 1), B(0, 0, 2, 2), True, 0.0,
         SHARED),
    case("capsule-aabb:crossing", K(-1, 1, 3, 1, 0.5), B(0, 0, 2, 2), True, 0.0, SHARED),
    case("capsule-aabb:capsule-inside", K(1, 1, 3, 1, 0.5), B(0, 0, 4, 2), True, 0.0,
         SHARED),
    # box corners (1 or 2, +-0.5) are 0.5 from the axis.
    case("capsule-aabb:box-inside", K(0, 0, 4, 0, 1), B(1, -0.5, 2, 0.5), True, 0.0,
         SHARED),
    case("capsule-aabb:zero-size-box", K(0, 0, 4, 0, 1), B(2, 3, 2, 3), False, 2.0,
         ((2.0, 1.0), (2.0, 3.0))),
    case("capsule-aabb:zero-length-capsule", K(5, 1, 5, 1, 1), B(0, 0, 2, 2), False, 2.0,
         ((4.0, 1.0), (2.0, 1.0))),
    # ------------------------------------------------------------------- capsule-obb
    case("capsule-obb:separated-angle0", K(5, 1, 8, 1, 1), O(1, 1, 1, 1), False, 2.0,
         ((4.0, 1.0), (2.0, 1.0))),
    # axis x = 3, y in [-1,1]; diamond has x <= sqrt2, only at (sqrt2,0): 3 - sqrt2 - 1.
    case("capsule-obb:separated-diamond-vertex", K(3, -1, 3, 1, 1), DIAMOND, False,
         2.0 - SQRT2, ((2.0, 0.0), (SQRT2, 0.0))),
    # axis from 5.5u to 8u along u; 5.5 - 2.5 - 1 = 2; capsule point 4.5u.
    case("capsule-obb:separated-345", K(4.4, 3.3, 6.4, 4.8, 1), R345, False, 2.0,
         ((3.6, 2.7), (2.0, 1.5))),
    case("capsule-obb:touching-angle0", K(3, 1, 6, 1, 1), O(1, 1, 1, 1), True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("capsule-obb:crossing", K(-2, 0, 2, 0, 0.5), DIAMOND, True, 0.0, SHARED),
    # OBB(0,0,2,1,pi/2) is x in [-1,1], y in [-2,2]; capsule x in [-.5,.5], y in [-1.5,1.5].
    case("capsule-obb:capsule-inside", K(0, -1, 0, 1, 0.5), O(0, 0, 2, 1, PI / 2), True,
         0.0, SHARED),
    case("capsule-obb:zero-size-obb", K(0, 0, 4, 0, 1), O(2, 3, 0, 0, 1.0), False, 2.0,
         ((2.0, 1.0), (2.0, 3.0))),
    # half_w = 0: the segment x = 0, y in [-2,2]; axis starts at x = 3: 3 - 1 = 2.
    case("capsule-obb:zero-width-obb", K(3, 0, 5, 0, 1), O(0, 0, 0, 2), False, 2.0,
         ((2.0, 0.0), (0.0, 0.0))),
    # --------------------------------------------------------------- capsule-polygon
    # axis starts at (5,5.5), 5 from T along the normal and goes further out: 5 - 2.
    case("capsule-polygon:separated-345", K(5, 5.5, 8, 9.5, 2), T, False, 3.0,
         ((3.8, 3.9), (2.0, 1.5))),
    case("capsule-polygon:separated-parallel", K(3, -1, 3, 3, 0.5), Q, False, 0.5, ANY),
    case("capsule-polygon:touching", K(3, 1, 6, 1, 1), Q, True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("capsule-polygon:crossing", K(-1, 1, 3, 1, 0.25), Q, True, 0.0, SHARED),
    case("capsule-polygon:capsule-inside", K(0.5, 1, 1.5, 1, 0.25), Q, True, 0.0, SHARED),
    # triangle points are within 1 of the axis y = 0, x in [0,1].
    case("capsule-polygon:polygon-inside", K(0, 0, 1, 0, 2), P((0, 0), (1, 0), (0, 1)),
         True, 0.0, SHARED),
    case("capsule-polygon:zero-length-capsule-345", K(5, 6, 5, 6, 1), Q, False, 4.0,
         ((4.4, 5.2), (2.0, 2.0))),
    # radius 0 capsule leaving Q's corner (2,2) along the diagonal.
    case("capsule-polygon:zero-radius-touching-vertex", K(2, 2, 4, 4, 0), Q, True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    # --------------------------------------------------------------- segment-segment
    case("segment-segment:separated-parallel", S(0, 0, 4, 0), S(0, 3, 4, 3), False, 3.0,
         ANY),
    case("segment-segment:separated-perpendicular", S(0, 0, 4, 0), S(2, 1, 2, 5), False,
         1.0, ((2.0, 0.0), (2.0, 1.0))),
    case("segment-segment:separated-ends-345", S(0, 0, 4, 0), S(7, 4, 9, 4), False, 5.0,
         ((4.0, 0.0), (7.0, 4.0))),
    # (1,7) = (4,3) + 5 * (-0.6, 0.8), (4,3) is the midpoint of the first; the second
    # leaves (1,7) along the same normal.
    case("segment-segment:separated-skew-345", S(0, 0, 8, 6), S(1, 7, -2, 11), False,
         5.0, ((4.0, 3.0), (1.0, 7.0))),
    case("segment-segment:separated-collinear", S(0, 0, 4, 0), S(6, 0, 9, 0), False, 2.0,
         ((4.0, 0.0), (6.0, 0.0))),
    case("segment-segment:touching-t", S(0, 0, 4, 0), S(2, 0, 2, 5), True, 0.0,
         ((2.0, 0.0), (2.0, 0.0))),
    case("segment-segment:touching-collinear-ends", S(0, 0, 4, 0), S(4, 0, 9, 0), True,
         0.0, ((4.0, 0.0), (4.0, 0.0))),
    case("segment-segment:crossing", S(0, 0, 4, 4), S(0, 4, 4, 0), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("segment-segment:collinear-overlapping", S(0, 0, 4, 0), S(2, 0, 6, 0), True,
         0.0, SHARED),
    case("segment-segment:identical", S(0, 0, 4, 0), S(0, 0, 4, 0), True, 0.0, SHARED),
    case("segment-segment:zero-length", S(2, 3, 2, 3), S(0, 0, 4, 0), False, 3.0,
         ((2.0, 3.0), (2.0, 0.0))),
    case("segment-segment:zero-length-on-segment", S(2, 0, 2, 0), S(0, 0, 4, 0), True,
         0.0, ((2.0, 0.0), (2.0, 0.0))),
    # a point on the line of the other segment but beyond its end.
    case("segment-segment:zero-length-collinear-beyond", S(5, 0, 5, 0), S(0, 0, 4, 0),
         False, 1.0, ((5.0, 0.0), (4.0, 0.0))),
    case("segment-segment:zero-length-both", S(0, 0, 0, 0), S(3, 4, 3, 4), False, 5.0,
         ((0.0, 0.0), (3.0, 4.0))),
    case("segment-segment:zero-length-both-same", S(1, 2, 1, 2), S(1, 2, 1, 2), True,
         0.0, ((1.0, 2.0), (1.0, 2.0))),
    # ------------------------------------------------------------------ segment-aabb
    case("segment-aabb:separated", S(4, 1, 6, 1), B(0, 0, 2, 2), False, 2.0,
         ((4.0, 1.0), (2.0, 1.0))),
    case("segment-aabb:separated-parallel", S(3, 0, 3, 2), B(0, 0, 2, 2), False, 1.0,
         ANY),
    case("segment-aabb:separated-corner-345", S(5, 6, 9, 6), B(0, 0, 2, 2), False, 5.0,
         ((5.0, 6.0), (2.0, 2.0))),
    case("segment-aabb:touching-face", S(2, 1, 5, 1), B(0, 0, 2, 2), True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("segment-aabb:touching-corner", S(2, 2, 4, 4), B(0, 0, 2, 2), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("segment-aabb:crossing", S(-1, 1, 3, 1), B(0, 0, 2, 2), True, 0.0, SHARED),
    case("segment-aabb:crossing-diagonal", S(-1, -1, 3, 3), B(0, 0, 2, 2), True, 0.0,
         SHARED),
    case("segment-aabb:inside", S(0.5, 0.5, 1.5, 1.5), B(0, 0, 2, 2), True, 0.0, SHARED),
    # lies along the edge y = 0: shares x in [0,2].
    case("segment-aabb:collinear-with-edge", S(-1, 0, 3, 0), B(0, 0, 2, 2), True, 0.0,
         SHARED),
    case("segment-aabb:zero-size-box", S(-1, 0, 3, 0), B(1, 1, 1, 1), False, 1.0,
         ((1.0, 0.0), (1.0, 1.0))),
    case("segment-aabb:zero-length-inside", S(1, 1, 1, 1), B(0, 0, 2, 2), True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    # zero-width box = segment x = 2, y in [0,4], crossed at (2,2).
    case("segment-aabb:zero-width-box-crossing", S(0, 2, 4, 2), B(2, 0, 2, 4), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    # ------------------------------------------------------------------- segment-obb
    case("segment-obb:separated-angle0", S(4, 1, 6, 1), O(1, 1, 1, 1), False, 2.0,
         ((4.0, 1.0), (2.0, 1.0))),
    case("segment-obb:separated-diamond-vertex", S(3, -1, 3, 1), DIAMOND, False,
         3.0 - SQRT2, ((3.0, 0.0), (SQRT2, 0.0))),
    case("segment-obb:separated-345", S(4.4, 3.3, 6.4, 4.8), R345, False, 3.0,
         ((4.4, 3.3), (2.0, 1.5))),
    case("segment-obb:touching-angle0", S(2, 1, 5, 1), O(1, 1, 1, 1), True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("segment-obb:crossing", S(-3, 0, 3, 0), DIAMOND, True, 0.0, SHARED),
    case("segment-obb:inside", S(-0.5, 0, 0.5, 0), DIAMOND, True, 0.0, SHARED),
    case("segment-obb:zero-size-obb", S(0, 0, 4, 0), O(2, 3, 0, 0, 0.3), False, 3.0,
         ((2.0, 0.0), (2.0, 3.0))),
    # OBB(0,0,2,1,pi/2) is x in [-1,1], y in [-2,2]; point (5,0): 4.
    case("segment-obb:zero-length-segment", S(5, 0, 5, 0), O(0, 0, 2, 1, PI / 2), False,
         4.0, ((5.0, 0.0), (1.0, 0.0))),
    # --------------------------------------------------------------- segment-polygon
    case("segment-polygon:separated-345", S(5, 5.5, 8, 9.5), T, False, 5.0,
         ((5.0, 5.5), (2.0, 1.5))),
    case("segment-polygon:separated-parallel", S(3, 0, 3, 2), Q, False, 1.0, ANY),
    case("segment-polygon:touching", S(2, 1, 5, 1), Q, True, 0.0,
         ((2.0, 1.0), (2.0, 1.0))),
    case("segment-polygon:crossing", S(-1, 1, 3, 1), Q, True, 0.0, SHARED),
    case("segment-polygon:inside", S(0.5, 0.5, 1.5, 1.5), Q, True, 0.0, SHARED),
    case("segment-polygon:collinear-with-edge", S(1, 0, 3, 0), Q, True, 0.0, SHARED),
    case("segment-polygon:zero-length-on-vertex", S(2, 2, 2, 2), Q, True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("segment-polygon:zero-length-separated", S(5, 6, 5, 6), Q, False, 5.0,
         ((5.0, 6.0), (2.0, 2.0))),
    # --------------------------------------------------------------------- aabb-aabb
    case("aabb-aabb:separated-parallel", B(0, 0, 2, 2), B(5, 0, 7, 2), False, 3.0, ANY),
    case("aabb-aabb:separated-corner-345", B(0, 0, 2, 2), B(5, 6, 7, 8), False, 5.0,
         ((2.0, 2.0), (5.0, 6.0))),
    case("aabb-aabb:touching-face", B(0, 0, 2, 2), B(2, 1, 4, 3), True, 0.0, SHARED),
    case("aabb-aabb:touching-corner", B(0, 0, 2, 2), B(2, 2, 4, 4), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("aabb-aabb:overlapping", B(0, 0, 2, 2), B(1, 1, 3, 3), True, 0.0, SHARED),
    case("aabb-aabb:inside", B(0, 0, 4, 4), B(1, 1, 2, 2), True, 0.0, SHARED),
    case("aabb-aabb:identical", B(0, 0, 2, 2), B(0, 0, 2, 2), True, 0.0, SHARED),
    case("aabb-aabb:zero-size-both", B(3, 4, 3, 4), B(0, 0, 0, 0), False, 5.0,
         ((3.0, 4.0), (0.0, 0.0))),
    case("aabb-aabb:zero-size-inside", B(1, 1, 1, 1), B(0, 0, 2, 2), True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    case("aabb-aabb:zero-width-crossing", B(1, -1, 1, 3), B(0, 0, 2, 2), True, 0.0,
         SHARED),
    # a horizontal and a vertical zero-thickness box crossing at (1,1).
    case("aabb-aabb:zero-thickness-cross", B(0, 1, 2, 1), B(1, 0, 1, 2), True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    # ---------------------------------------------------------------------- aabb-obb
    # OBB(5,1,1,1,0) is [4,6] x [0,2]: gap 2 between parallel faces.
    case("aabb-obb:separated-angle0", B(0, 0, 2, 2), O(5, 1, 1, 1), False, 2.0, ANY),
    # diamond at (5,0): left vertex (5 - sqrt2, 0) faces x = 2: 3 - sqrt2.
    case("aabb-obb:separated-diamond-vertex", B(0, -1, 2, 1), O(5, 0, 1, 1, PI / 4),
         False, 3.0 - SQRT2, ((2.0, 0.0), (5.0 - SQRT2, 0.0))),
    # box min corner 5.5u = (4.4,3.3), the box's smallest u-coordinate; 5.5 - 2.5 = 3.
    case("aabb-obb:separated-345", B(4.4, 3.3, 6, 5), R345, False, 3.0,
         ((4.4, 3.3), (2.0, 1.5))),
    case("aabb-obb:touching-corner-angle0", B(0, 0, 2, 2), O(3, 3, 1, 1), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("aabb-obb:touching-face-angle0", B(0, 0, 2, 2), O(3, 1, 1, 1), True, 0.0,
         SHARED),
    case("aabb-obb:overlapping", B(0, 0, 2, 2), O(2, 1, 1, 1, PI / 4), True, 0.0, SHARED),
    # half diagonal sqrt(0.5) < 1: OBB inside.
    case("aabb-obb:obb-inside", B(0, 0, 2, 2), O(1, 1, 0.5, 0.5, 0.6), True, 0.0,
         SHARED),
    # box corners have |x| + |y| = 1 < sqrt2: inside the diamond.
    case("aabb-obb:aabb-inside", B(-0.5, -0.5, 0.5, 0.5), DIAMOND, True, 0.0, SHARED),
    case("aabb-obb:zero-size-obb-345", B(0, 0, 2, 2), O(5, 6, 0, 0, 0.4), False, 5.0,
         ((2.0, 2.0), (5.0, 6.0))),
    case("aabb-obb:zero-size-aabb", B(3, 0, 3, 0), O(0, 0, 2, 1, PI / 2), False, 2.0,
         ((3.0, 0.0), (1.0, 0.0))),
    # ------------------------------------------------------------------ aabb-polygon
    case("aabb-polygon:separated-corner-345", B(5, 6, 7, 8), Q, False, 5.0,
         ((5.0, 6.0), (2.0, 2.0))),
    # box points have 3x + 4y >= 37 (only at (5,5.5)): (37 - 12)/5 = 5.
    case("aabb-polygon:separated-edge-345", B(5, 5.5, 6, 6.5), T, False, 5.0,
         ((5.0, 5.5), (2.0, 1.5))),
    case("aabb-polygon:touching-face", B(2, 0.5, 3, 1.5), Q, True, 0.0, SHARED),
    case("aabb-polygon:touching-corner", B(2, 2, 3, 3), Q, True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("aabb-polygon:overlapping", B(1, 1, 3, 3), Q, True, 0.0, SHARED),
    case("aabb-polygon:aabb-inside", B(0.5, 0.5, 1.5, 1.5), Q, True, 0.0, SHARED),
    case("aabb-polygon:polygon-inside", B(-1, -1, 5, 5), T, True, 0.0, SHARED),
    # (1,1): 3 + 4 = 7 <= 12, inside T.
    case("aabb-polygon:zero-size-inside", B(1, 1, 1, 1), T, True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    case("aabb-polygon:zero-size-separated", B(5, 5.5, 5, 5.5), T, False, 5.0,
         ((5.0, 5.5), (2.0, 1.5))),
    # ----------------------------------------------------------------------- obb-obb
    case("obb-obb:separated-angle0-345", O(1, 1, 1, 1), O(6, 7, 1, 1), False, 5.0,
         ((2.0, 2.0), (5.0, 6.0))),
    # vertices (sqrt2, 0) and (5 - sqrt2, 0) face each other.
    case("obb-obb:separated-diamonds", DIAMOND, O(5, 0, 1, 1, PI / 4), False,
         5.0 - 2.0 * SQRT2, ((SQRT2, 0.0), (5.0 - SQRT2, 0.0))),
    # second is [4.4,5.4] x [3.3,4.3]; its min corner 5.5u is its smallest u.
    case("obb-obb:separated-345", R345, O(4.9, 3.8, 0.5, 0.5), False, 3.0,
         ((2.0, 1.5), (4.4, 3.3))),
    case("obb-obb:separated-parallel", O(1, 1, 1, 1), O(5, 1, 1, 1), False, 2.0, ANY),
    case("obb-obb:touching-face", O(1, 1, 1, 1), O(3, 1, 1, 1), True, 0.0, SHARED),
    case("obb-obb:touching-corner", O(1, 1, 1, 1), O(3, 3, 1, 1), True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    # (0.5,0.5) is within the first's inscribed disc (radius 1) about its centre.
    case("obb-obb:overlapping", O(0, 0, 2, 1, 0.3), O(0.5, 0.5, 2, 1, -0.4), True, 0.0,
         SHARED),
    # half diagonal sqrt(0.5) < 2 (the outer's inscribed radius).
    case("obb-obb:inside", O(0, 0, 2, 2, 0.3), O(0, 0, 0.5, 0.5, 1.0), True, 0.0, SHARED),
    case("obb-obb:zero-size-both", O(3, 4, 0, 0, 0.5), O(0, 0, 0, 0), False, 5.0,
         ((3.0, 4.0), (0.0, 0.0))),
    # half_h = 0 (x in [-2,2]) and half_w = 0 (y in [-2,2]) cross at the origin.
    case("obb-obb:zero-thickness-cross", O(0, 0, 2, 0), O(0, 0, 0, 2), True, 0.0,
         ((0.0, 0.0), (0.0, 0.0))),
    # (1,1) has |x| + |y| = 2 < 2sqrt2: inside the big diamond.
    case("obb-obb:zero-size-inside", O(1, 1, 0, 0), O(0, 0, 2, 2, PI / 4), True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    # ------------------------------------------------------------------- obb-polygon
    case("obb-polygon:separated-angle0-345", O(6, 7, 1, 1), Q, False, 5.0,
         ((5.0, 6.0), (2.0, 2.0))),
    # diamond at (5,1): vertex (5 - sqrt2, 1) faces Q's edge x = 2.
    case("obb-polygon:separated-diamond-vertex", O(5, 1, 1, 1, PI / 4), Q, False,
         3.0 - SQRT2, ((5.0 - SQRT2, 1.0), (2.0, 1.0))),
    # triangle's vertex (4.4,3.3) = 5.5u has the smallest u-coordinate.
    case("obb-polygon:separated-345", R345, P((4.4, 3.3), (8, 3.3), (4.4, 6)), False, 3.0,
         ((2.0, 1.5), (4.4, 3.3))),
    case("obb-polygon:touching-face", O(3, 1, 1, 1), Q, True, 0.0, SHARED),
    case("obb-polygon:touching-corner", O(3, 3, 1, 1), Q, True, 0.0,
         ((2.0, 2.0), (2.0, 2.0))),
    case("obb-polygon:overlapping", O(2, 2, 1, 1, PI / 4), Q, True, 0.0, SHARED),
    case("obb-polygon:obb-inside", O(1, 1, 0.5, 0.5, 0.3), Q, True, 0.0, SHARED),
    # triangle points are within 1 of the centre; the OBB's inscribed radius is 2.
    case("obb-polygon:polygon-inside", O(0, 0, 2, 2, 0.5), P((0, 0), (1, 0), (0, 1)),
         True, 0.0, SHARED),
    case("obb-polygon:zero-size-inside", O(1, 1, 0, 0, 0.2), Q, True, 0.0,
         ((1.0, 1.0), (1.0, 1.0))),
    case("obb-polygon:zero-size-separated", O(5, 6, 0, 0, 0.2), Q, False, 5.0,
         ((5.0, 6.0), (2.0, 2.0))),
    # --------------------------------------------------------------- polygon-polygon
    case("polygon-polygon:separated-corner-345", Q, P((5, 6), (7, 6), (7, 8), (5, 8)),
         False, 5.0, ((2.0, 2.0), (5.0, 6.0))),
    # second triangle's points have 3x + 4y >= 37, only at (5,5.5).
    case("polygon-polygon:separated-edge-345", T, P((5, 5.5), (9, 5.5), (5, 9)), False,
         5.0, ((2.0, 1.5), (5.0, 5.5))),
    case("polygon-polygon:separated-parallel", Q, P((3, 0), (5, 0), (5, 2), (3, 2)),
         False, 1.0, ANY),
    # clockwise input winding.
    case("polygon-polygon:separated-clockwise-input", P((0, 0), (0, 2), (2, 2), (2, 0)),
         P((5, 6), (5, 8), (7, 8), (7, 6)), False, 5.0, ((2.0, 2.0), (5.0, 6.0))),
    case("polygon-polygon:touching-corner", Q, P((2, 2), (4, 2), (4, 4), (2, 4)), True,
         0.0, ((2.0, 2.0), (2.0, 2.0))),
    case("polygon-polygon:touching-edge", Q, P((2, 0), (4, 0), (2, 2)), True, 0.0,
         SHARED),
    # vertex (2,1) of the second lies on Q's edge x = 2.
    case("polygon-polygon:touching-vertex-on-edge", Q, P((2, 1), (4, 0), (4, 2)), True,
         0.0, ((2.0, 1.0), (2.0, 1.0))),
    case("polygon-polygon:overlapping", Q, P((1, 1), (3, 1), (3, 3), (1, 3)), True, 0.0,
         SHARED),
    case("polygon-polygon:inside", Q, P((0.5, 0.5), (1.5, 0.5), (1, 1.5)), True, 0.0,
         SHARED),
    case("polygon-polygon:identical", T, T, True, 0.0, SHARED),
    # ------------------------------------- separated convex pairs: the nearest-pair test
    # distance starts from the extreme vertices along the line between the vertex means
    # and keeps them when they pass the optimality test of two convex sets (see
    # test_nearest_pair_cases_take_each_branch); these four reach each of its outcomes.
    # NEAR_VV: diamonds tip to tip, (1,0) and (2,0): both tips' edges turn away from
    # the line between them.
    case("polygon-polygon:nearest-pair-vertex-vertex", *NEAR_VV, False, 1.0,
         ((1.0, 0.0), (2.0, 0.0))),
    # NEAR_EDGE_A: Q's corner (2,0) is extreme, but its edge up to (2,2) turns towards
    # the diamond's tip (3,0.5), whose foot on it is (2,0.5), 1 away.
    case("aabb-polygon:nearest-pair-edge-of-a", *NEAR_EDGE_A, False, 1.0,
         ((2.0, 0.5), (3.0, 0.5))),
    # NEAR_EDGE_B: the box's corner p = (1,1) against the triangle's edge from (0.2,3.6)
    # to (2,2), direction (1.8,-1.6), normal (1.6,1.8) of length sqrt(5.8);
    # p - (0.2,3.6) = (0.8,-2.6) is -3.4 along (1.6,1.8), so the distance is
    # 3.4/sqrt(5.8) = 17 sqrt(5.8)/29 and the foot p + (17/29)(1.6,1.8) =
    # (281/145, 298/145), at t = 5.6/5.8 along the edge.
    case("aabb-polygon:nearest-pair-edge-of-b", *NEAR_EDGE_B, False,
         17.0 * math.sqrt(5.8) / 29.0, ((1.0, 1.0), (281.0 / 145.0, 298.0 / 145.0))),
    # NEAR_SEARCH: the triangle's edge from (-0.5,3) to (3,-0.5) lies on x + y = 2.5
    # and faces the corner (1,1) at (2.5 - 2)/sqrt2 with foot (1.25,1.25); its two ends
    # are equally extreme and the first, (3,-0.5), is nowhere near: the full search.
    case("aabb-polygon:nearest-pair-by-search", *NEAR_SEARCH, False, 0.5 / SQRT2,
         ((1.0, 1.0), (1.25, 1.25))),
]


@pytest.mark.parametrize("pair, outcome", [
    (NEAR_VV, "vertex-vertex"), (NEAR_EDGE_A, "edge of a"), (NEAR_EDGE_B, "edge of b"),
    (NEAR_SEARCH, "search"),
])
def test_nearest_pair_cases_take_each_branch(ref, monkeypatch, pair, outcome):
    # white box: the reference's nearest-pair test (mirrored by the compiled kernel,
    # which the differential test holds to the same answers) reaches the outcome each
    # known answer above was written for, so those answers keep covering every branch
    from fastcol._ref import narrowphase
    from fastcol._ref.queries import _canonical, _origin

    a, b, _ = _canonical(make(ref, pair[0]), make(ref, pair[1]))
    ox, oy = _origin(a)
    ca = narrowphase.convex_local(a, ox, oy)
    cb = narrowphase.convex_local(b, ox, oy)
    calls = []
    certified = narrowphase._certified
    monkeypatch.setattr(narrowphase, "_certified",
                        lambda *args: calls.append(certified(*args)) or calls[-1])
    narrowphase.convex_convex_closest(ca, cb)
    assert len(calls) == 1
    found = calls[0]
    if outcome == "search":
        assert found is None
        return
    _, pax, pay, pbx, pby = found
    # a vertex of both, or a vertex of one and a point inside an edge of the other
    assert ((pax, pay) in zip(ca.xs, ca.ys)) == (outcome != "edge of a")
    assert ((pbx, pby) in zip(cb.xs, cb.ys)) == (outcome != "edge of b")


def _pair_ids():
    return sorted({p.id.split(":")[0] for p in CASES})


def test_every_unordered_pair_is_covered():
    kinds = ["circle", "capsule", "segment", "aabb", "obb", "polygon"]
    expected = {f"{kinds[i]}-{kinds[j]}" for i in range(6) for j in range(i, 6)}
    assert set(_pair_ids()) == expected
    assert len(expected) == 21


def test_hand_answers_agree_with_independent_helper():
    """Sanity check of the table itself (independent of fastcol): unique expected
    points lie on their shapes and are `dist` apart."""
    for p in CASES:
        a, b, hit, dist, pts = p.values
        if isinstance(pts, tuple):
            pa, pb = pts
            assert point_distance(a, pa) <= TOL_ON_SHAPE, p.id
            assert point_distance(b, pb) <= TOL_ON_SHAPE, p.id
            assert math.hypot(pa[0] - pb[0], pa[1] - pb[1]) == approx(dist), p.id


ORDERS = [pytest.param(False, id="ab"), pytest.param(True, id="ba")]


def _swap(a, b, pts, swap):
    if not swap:
        return a, b, pts
    if isinstance(pts, tuple):
        pts = (pts[1], pts[0])
    return b, a, pts


@pytest.mark.parametrize("swap", ORDERS)
@pytest.mark.parametrize("a, b, hit, dist, pts", CASES)
def test_collide(fc, a, b, hit, dist, pts, swap):
    a, b, pts = _swap(a, b, pts, swap)
    got = fc.collide(make(fc, a), make(fc, b))
    assert got is hit


@pytest.mark.parametrize("swap", ORDERS)
@pytest.mark.parametrize("a, b, hit, dist, pts", CASES)
def test_distance(fc, a, b, hit, dist, pts, swap):
    a, b, pts = _swap(a, b, pts, swap)
    got = fc.distance(make(fc, a), make(fc, b))
    assert type(got) is float
    if dist == 0.0:
        assert got == 0.0
    else:
        assert got == approx(dist)


@pytest.mark.parametrize("swap", ORDERS)
@pytest.mark.parametrize("a, b, hit, dist, pts", CASES)
def test_closest_points(fc, a, b, hit, dist, pts, swap):
    a, b, pts = _swap(a, b, pts, swap)
    sa, sb = make(fc, a), make(fc, b)
    res = fc.closest_points(sa, sb)
    pa, pb, d = res
    assert res.point_a == pa and res.point_b == pb and res.distance == d
    assert d == fc.distance(sa, sb)
    if dist == 0.0:
        assert d == 0.0
    else:
        assert d == approx(dist)
    for p in (pa, pb):
        assert type(p) is tuple and len(p) == 2
        assert type(p[0]) is float and type(p[1]) is float
    if hit:
        # touching or overlapping: one common point
        assert pa == pb
    if isinstance(pts, tuple):
        ea, eb = pts
        assert pa == (approx(ea[0]), approx(ea[1]))
        assert pb == (approx(eb[0]), approx(eb[1]))
    else:
        assert point_distance(a, pa) <= TOL_ON_SHAPE
        assert point_distance(b, pb) <= TOL_ON_SHAPE
        assert math.hypot(pa[0] - pb[0], pa[1] - pb[1]) == approx(dist)


@pytest.mark.parametrize("a, b, hit, dist, pts", CASES)
def test_queries_exactly_symmetric(fc, a, b, hit, dist, pts):
    sa, sb = make(fc, a), make(fc, b)
    assert fc.distance(sa, sb) == fc.distance(sb, sa)
    assert fc.collide(sa, sb) == fc.collide(sb, sa)
    pa, pb, d = fc.closest_points(sa, sb)
    assert fc.closest_points(sb, sa) == (pb, pa, d)


# ---------------------------------------------------------------------------------------
# Touching at a rotated OBB: exact in real arithmetic, but the OBB's cos/sin are rounded,
# so the shapes may touch, overlap or be apart by ~1e-16.  Whatever the verdict, the
# distance is 0 to within 1e-12, both closest points are the touching point, and collide
# agrees with distance.
#
# HEX is OBB(0, 0.5, 6, 0.25, -pi/3): u = (1/2, -sqrt3/2), v = (sqrt3/2, 1/2).  The origin
# relative to the centre is (0, -0.5): u-coordinate sqrt3/4 (inside [-6, 6]) and
# v-coordinate -1/4 = -half_h, so the origin lies on HEX's long lower edge, whose outward
# normal is -v = (-sqrt3/2, -1/2).
HEX = O(0, 0.5, 6, 0.25, -PI / 3)

ROUNDED_TOUCH = [
    # a point on the edge
    pytest.param(C(0, 0, 0), HEX, (0.0, 0.0), id="circle-obb:point-on-rotated-edge"),
    pytest.param(B(0, 0, 0, 0), HEX, (0.0, 0.0), id="aabb-obb:point-on-rotated-edge"),
    pytest.param(O(0, 0, 0, 0), HEX, (0.0, 0.0), id="obb-obb:point-on-rotated-edge"),
    # the box [-1,0]^2 lies behind the edge's line (its corners have v-coordinate
    # <= -1/4) and touches it only at its corner (0,0).
    pytest.param(B(-1, -1, 0, 0), HEX, (0.0, 0.0), id="aabb-obb:corner-on-rotated-edge"),
    # the triangle's vertices (-1,-1), (0,-2) have v-coordinates -1.62 and -1.12.
    pytest.param(P((0, 0), (-1, -1), (0, -2)), HEX, (0.0, 0.0),
                 id="polygon-obb:vertex-on-rotated-edge"),
    # the segment leaves the edge along (-1,-1), which points outside (v decreases).
    pytest.param(S(0, 0, -1, -1), HEX, (0.0, 0.0), id="segment-obb:end-on-rotated-edge"),
    pytest.param(K(0, 0, -1, -1, 0), HEX, (0.0, 0.0), id="capsule-obb:end-on-rotated-edge"),
    # OBB(3,3,1,1,pi) is [2,4]^2 up to the rounding of pi: corner to corner at (2,2).
    pytest.param(B(0, 0, 2, 2), O(3, 3, 1, 1, PI), (2.0, 2.0), id="aabb-obb:corner-pi"),
    pytest.param(O(1, 1, 1, 1), O(3, 3, 1, 1, PI), (2.0, 2.0), id="obb-obb:corner-pi"),
    pytest.param(Q, O(3, 3, 1, 1, PI), (2.0, 2.0), id="polygon-obb:corner-pi"),
    # the diamond's vertex (sqrt2, 0) on the face x = sqrt2 of a box.
    pytest.param(B(SQRT2, -1, 3, 1), DIAMOND, (SQRT2, 0.0), id="aabb-obb:diamond-vertex-on-face"),
]


def test_rounded_touch_table_agrees_with_independent_helper():
    """Sanity check of the table itself: the touching point is on both shapes."""
    for p in ROUNDED_TOUCH:
        a, b, point = p.values
        assert point_distance(a, point) <= TOL_ON_SHAPE, p.id
        assert point_distance(b, point) <= TOL_ON_SHAPE, p.id


@pytest.mark.parametrize("swap", ORDERS)
@pytest.mark.parametrize("a, b, point", ROUNDED_TOUCH)
def test_touching_rotated_obb(fc, a, b, point, swap):
    if swap:
        a, b = b, a
    sa, sb = make(fc, a), make(fc, b)
    pa, pb, d = fc.closest_points(sa, sb)
    assert d == pytest.approx(0.0, abs=1e-12)
    assert d == fc.distance(sa, sb)
    assert fc.collide(sa, sb) is (d == 0.0)
    assert pa == (approx(point[0]), approx(point[1]))
    assert pb == (approx(point[0]), approx(point[1]))


# ---------------------------------------------------------------------------------------
# Geometry primitives


@pytest.mark.parametrize(
    "p, a, b, point, t",
    [
        # projection of (2,3) on y = 0 falls at x = 2, t = 2/4.
        pytest.param((2, 3), (0, 0), (4, 0), (2.0, 0.0), 0.5, id="interior"),
        pytest.param((1, 0), (0, 0), (4, 0), (1.0, 0.0), 0.25, id="on-segment"),
        # (1,7) - (0,0) dotted with (8,6) is 50, over |(8,6)|^2 = 100: t = 0.5.
        pytest.param((1, 7), (0, 0), (8, 6), (4.0, 3.0), 0.5, id="interior-345"),
        pytest.param((-3, 4), (0, 0), (4, 0), (0.0, 0.0), 0.0, id="before-start"),
        pytest.param((7, 4), (0, 0), (4, 0), (4.0, 0.0), 1.0, id="after-end"),
        # projection exactly at the ends.
        pytest.param((0, 5), (0, 0), (4, 0), (0.0, 0.0), 0.0, id="t-exactly-0"),
        pytest.param((4, -5), (0, 0), (4, 0), (4.0, 0.0), 1.0, id="t-exactly-1"),
        pytest.param((1, 1), (1, 1), (3, 5), (1.0, 1.0), 0.0, id="p-is-a"),
        pytest.param((3, 5), (1, 1), (3, 5), (3.0, 5.0), 1.0, id="p-is-b"),
        # zero-length segment: t = 0, the point is a.
        pytest.param((4, 5), (1, 1), (1, 1), (1.0, 1.0), 0.0, id="zero-length"),
        pytest.param((1, 1), (1, 1), (1, 1), (1.0, 1.0), 0.0, id="zero-length-p-on"),
    ],
)
def test_closest_point_on_segment(fc, p, a, b, point, t):
    got_point, got_t = fc.closest_point_on_segment(p, a, b)
    assert type(got_t) is float
    assert got_t == approx(t)
    assert got_point == (approx(point[0]), approx(point[1]))


@pytest.mark.parametrize(
    "p, a, b, clamp_t",
    [
        pytest.param((-1.0, 0.0), (0.1, 0.2), (0.7, 0.3), 0.0, id="before-start"),
        pytest.param((5.0, 1.0), (0.1, 0.2), (0.7, 0.3), 1.0, id="after-end"),
        pytest.param((0.1, 0.2), (0.1, 0.2), (0.7, 0.3), 0.0, id="at-a"),
        pytest.param((0.7, 0.3), (0.1, 0.2), (0.7, 0.3), 1.0, id="at-b"),
    ],
)
def test_closest_point_on_segment_endpoints_are_exact(fc, p, a, b, clamp_t):
    # a + 1.0 * (b - a) need not round to b in floating point; the contract says the
    # point is exactly a at t == 0 and exactly b at t == 1.
    point, t = fc.closest_point_on_segment(p, a, b)
    assert t == clamp_t
    assert point == (a if clamp_t == 0.0 else b)


@pytest.mark.parametrize(
    "p, a, b, point, t",
    [
        pytest.param((7, 4), (0, 0), (4, 0), (7.0, 0.0), 1.75, id="beyond-end"),
        pytest.param((-2, 1), (0, 0), (4, 0), (-2.0, 0.0), -0.5, id="before-start"),
        pytest.param((2, 3), (0, 0), (4, 0), (2.0, 0.0), 0.5, id="interior"),
        # (5,10) = 2 * (4,3) + (-3,4), (-3,4) perpendicular to (4,3): t = 2.
        pytest.param((5, 10), (0, 0), (4, 3), (8.0, 6.0), 2.0, id="beyond-345"),
        pytest.param((4, 5), (1, 1), (1, 1), (1.0, 1.0), 0.0, id="zero-length"),
    ],
)
def test_closest_point_on_line(fc, p, a, b, point, t):
    got_point, got_t = fc.closest_point_on_line(p, a, b)
    assert got_t == approx(t)
    assert got_point == (approx(point[0]), approx(point[1]))


@pytest.mark.parametrize(
    "p, a, b, dist",
    [
        pytest.param((2, 3), (0, 0), (4, 0), 3.0, id="interior"),
        pytest.param((7, 4), (0, 0), (4, 0), 5.0, id="beyond-end-345"),
        pytest.param((-3, -4), (0, 0), (4, 0), 5.0, id="before-start-345"),
        pytest.param((4, 5), (1, 1), (1, 1), 5.0, id="zero-length-345"),
        pytest.param((1, 7), (0, 0), (8, 6), 5.0, id="interior-345"),
        pytest.param((3, 0), (0, 0), (4, 0), 0.0, id="on-segment"),
        pytest.param((4, 0), (0, 0), (4, 0), 0.0, id="at-end"),
        pytest.param((5, 0), (0, 0), (4, 0), 1.0, id="collinear-beyond"),
        pytest.param((1, 1), (1, 1), (1, 1), 0.0, id="zero-length-p-on"),
    ],
)
def test_point_segment_distance(fc, p, a, b, dist):
    got = fc.point_segment_distance(p, a, b)
    assert type(got) is float
    if dist == 0.0:
        assert got == 0.0
    else:
        assert got == approx(dist)


# (a, b, c, d, distance, s, t, point_on_ab, point_on_cd); s/t/points None where not
# unique (then the points are checked for consistency instead).
SEGSEG = [
    # diagonals of the square [0,4]^2 cross at the centre.
    pytest.param((0, 0), (4, 4), (0, 4), (4, 0), 0.0, 0.5, 0.5, (2, 2), (2, 2),
                 id="crossing"),
    # T: (2,0) is the start of cd and the midpoint of ab.
    pytest.param((0, 0), (4, 0), (2, 0), (2, 5), 0.0, 0.5, 0.0, (2, 0), (2, 0),
                 id="t-touching-t0"),
    pytest.param((0, 0), (4, 0), (2, 5), (2, 0), 0.0, 0.5, 1.0, (2, 0), (2, 0),
                 id="t-touching-t1"),
    pytest.param((2, 0), (2, 5), (0, 0), (4, 0), 0.0, 0.0, 0.5, (2, 0), (2, 0),
                 id="t-touching-s0"),
    pytest.param((2, 5), (2, 0), (0, 0), (4, 0), 0.0, 1.0, 0.5, (2, 0), (2, 0),
                 id="t-touching-s1"),
    pytest.param((0, 0), (4, 0), (2, 1), (2, 5), 1.0, 0.5, 0.0, (2, 0), (2, 1),
                 id="perpendicular-separated"),
    pytest.param((0, 0), (4, 0), (7, 4), (9, 4), 5.0, 1.0, 0.0, (4, 0), (7, 4),
                 id="ends-345"),
    pytest.param((0, 0), (4, 0), (7, 4), (10, 4), 5.0, 1.0, 0.0, (4, 0), (7, 4),
                 id="parallel-disjoint-projection-345"),
    pytest.param((0, 0), (8, 6), (1, 7), (-2, 11), 5.0, 0.5, 0.0, (4, 3), (1, 7),
                 id="skew-345"),
    pytest.param((0, 0), (4, 0), (1, 3), (3, 3), 3.0, None, None, None, None,
                 id="parallel-overlapping-projection"),
    pytest.param((0, 0), (4, 0), (6, 0), (9, 0), 2.0, 1.0, 0.0, (4, 0), (6, 0),
                 id="collinear-disjoint"),
    pytest.param((0, 0), (4, 0), (9, 0), (6, 0), 2.0, 1.0, 1.0, (4, 0), (6, 0),
                 id="collinear-disjoint-reversed"),
    pytest.param((4, 0), (0, 0), (6, 0), (9, 0), 2.0, 0.0, 0.0, (4, 0), (6, 0),
                 id="collinear-disjoint-first-reversed"),
    pytest.param((0, 0), (4, 0), (4, 0), (8, 0), 0.0, 1.0, 0.0, (4, 0), (4, 0),
                 id="collinear-touching"),
    pytest.param((0, 0), (4, 0), (2, 0), (6, 0), 0.0, None, None, None, None,
                 id="collinear-overlapping"),
    pytest.param((0, 0), (4, 0), (0, 0), (4, 0), 0.0, None, None, None, None,
                 id="identical"),
    pytest.param((2, 3), (2, 3), (0, 0), (4, 0), 3.0, 0.0, 0.5, (2, 3), (2, 0),
                 id="zero-length-first"),
    pytest.param((0, 0), (4, 0), (2, 3), (2, 3), 3.0, 0.5, 0.0, (2, 0), (2, 3),
                 id="zero-length-second"),
    pytest.param((0, 0), (0, 0), (3, 4), (3, 4), 5.0, 0.0, 0.0, (0, 0), (3, 4),
                 id="zero-length-both"),
    pytest.param((1, 2), (1, 2), (1, 2), (1, 2), 0.0, 0.0, 0.0, (1, 2), (1, 2),
                 id="zero-length-both-same"),
    pytest.param((0, 0), (4, 0), (1, 0), (1, 0), 0.0, 0.25, 0.0, (1, 0), (1, 0),
                 id="zero-length-on-segment"),
    pytest.param((0, 0), (4, 0), (5, 0), (5, 0), 1.0, 1.0, 0.0, (4, 0), (5, 0),
                 id="zero-length-collinear-beyond"),
]


@pytest.mark.parametrize("a, b, c, d, dist, s, t, pab, pcd", SEGSEG)
def test_segment_segment_closest(fc, a, b, c, d, dist, s, t, pab, pcd):
    got_d, got_s, got_t, got_pab, got_pcd = fc.segment_segment_closest(a, b, c, d)
    if dist == 0.0:
        assert got_d == 0.0
        assert got_pab == got_pcd
    else:
        assert got_d == approx(dist)
    assert 0.0 <= got_s <= 1.0 and 0.0 <= got_t <= 1.0
    # the points are the parameters' points on each segment
    assert got_pab == (approx(a[0] + got_s * (b[0] - a[0])),
                       approx(a[1] + got_s * (b[1] - a[1])))
    assert got_pcd == (approx(c[0] + got_t * (d[0] - c[0])),
                       approx(c[1] + got_t * (d[1] - c[1])))
    assert math.hypot(got_pab[0] - got_pcd[0], got_pab[1] - got_pcd[1]) == approx(dist)
    if s is not None:
        assert got_s == approx(s)
        assert got_t == approx(t)
        assert got_pab == (approx(pab[0]), approx(pab[1]))
        assert got_pcd == (approx(pcd[0]), approx(pcd[1]))
    assert fc.segment_segment_distance(a, b, c, d) == got_d


@pytest.mark.parametrize("a, b, c, d, dist, s, t, pab, pcd", SEGSEG)
def test_segment_segment_distance(fc, a, b, c, d, dist, s, t, pab, pcd):
    got = fc.segment_segment_distance(a, b, c, d)
    assert type(got) is float
    if dist == 0.0:
        assert got == 0.0
    else:
        assert got == approx(dist)
    # swapping the segments, or the ends of a segment, does not change the distance
    assert fc.segment_segment_distance(c, d, a, b) == approx(got)
    assert fc.segment_segment_distance(b, a, d, c) == approx(got)


@pytest.mark.parametrize(
    "a, b, c, d, expected",
    [
        pytest.param((0, 0), (4, 4), (0, 4), (4, 0), True, id="crossing"),
        pytest.param((0, 0), (4, 0), (2, 0), (2, 5), True, id="t-touching"),
        pytest.param((0, 0), (4, 0), (2, 5), (2, 0), True, id="t-touching-at-end"),
        pytest.param((0, 0), (4, 0), (4, 0), (4, 3), True, id="endpoint-to-endpoint"),
        pytest.param((0, 0), (4, 0), (2, 1), (2, 5), False, id="near-miss"),
        pytest.param((0, 0), (4, 0), (0, 3), (4, 3), False, id="parallel"),
        pytest.param((0, 0), (4, 0), (2, 0), (6, 0), True, id="collinear-overlapping"),
        pytest.param((0, 0), (4, 0), (1, 0), (3, 0), True, id="collinear-contained"),
        pytest.param((0, 0), (4, 0), (4, 0), (8, 0), True, id="collinear-touching"),
        pytest.param((0, 0), (4, 0), (5, 0), (8, 0), False, id="collinear-disjoint"),
        pytest.param((0, 0), (4, 0), (1, 0), (1, 0), True, id="zero-length-on"),
        pytest.param((0, 0), (4, 0), (5, 0), (5, 0), False,
                     id="zero-length-on-line-beyond"),
        pytest.param((0, 0), (4, 0), (1, 1), (1, 1), False, id="zero-length-off"),
        pytest.param((1, 2), (1, 2), (1, 2), (1, 2), True, id="zero-length-both-same"),
        pytest.param((1, 2), (1, 2), (1, 3), (1, 3), False, id="zero-length-both-apart"),
        # lines cross at (5,5), outside both segments.
        pytest.param((0, 0), (4, 4), (10, 0), (6, 4), False, id="lines-cross-outside"),
    ],
)
def test_segments_intersect(fc, a, b, c, d, expected):
    for args in [(a, b, c, d), (c, d, a, b), (b, a, c, d), (a, b, d, c)]:
        assert fc.segments_intersect(*args) is expected
    assert (fc.segment_segment_distance(a, b, c, d) == 0.0) is expected


# Two flat boxes (OBBs of zero height, i.e. segments) meeting end to side: a's end lies
# on b, so they touch; rounding puts that end an ulp or so off b's line, where it can
# fall on the inner side of both of b's long edges (they lie on one line) and was then
# compared with b's corners only.  The pair below (found by test_time_of_impact) gave
# distance 0.518: a's end (centre - half_w * (cos, sin)) is at 0.0941 of the way
# along b from its first end, in both coordinates (checked by hand).
FLAT_T = ((-2.25, 7.999999999999999, 1.75, 0.0, -6.8888067719382455),
          (-2.5726012871001624, 7.062984661883093, 2.75, 0.0, -1.0471975511965976))


def _check_touching_at(fc, a, b, point, size):
    for x, y in ((a, b), (b, a)):
        assert fc.distance(x, y) <= 1e-12 * size
        pa, pb, d = fc.closest_points(x, y)
        assert math.dist(pa, pb) <= 1e-12 * size
        assert math.dist(pa, point) <= 1e-12 * size


def test_flat_boxes_meeting_end_to_side_touch(fc):
    a, b = fc.OBB(*FLAT_T[0]), fc.OBB(*FLAT_T[1])
    end = (a.cx - a.half_w * math.cos(a.angle), a.cy - a.half_w * math.sin(a.angle))
    _check_touching_at(fc, a, b, end, 10.0)


@settings(max_examples=150, database=None, deadline=None)
@given(cx=st.floats(-10, 10), cy=st.floats(-10, 10), hb=st.floats(0.01, 5),
       tb=st.floats(-7, 7), where=st.floats(-0.95, 0.95), ha=st.floats(0.01, 5),
       ta=st.floats(-7, 7), far=st.sampled_from([0.0, 1e6]))
# found by a CI run: the end of a lies on b by rounding only (no corner inside the
# other, no edges crossing), so the witness comes from the nearest-pair fallback,
# which once tried a's vertices alone
@example(cx=0.0, cy=0.0, hb=2.00001, tb=5.6953125, where=0.009765625, ha=0.0625, ta=0.0,
         far=0.0)
def test_flat_boxes_meeting_end_to_side_touch_anywhere(fc, cx, cy, hb, tb, where, ha, ta, far):
    cx += far
    b = fc.OBB(cx, cy, hb, 0.0, tb)
    px = cx + where * hb * math.cos(tb)
    py = cy + where * hb * math.sin(tb)
    a = fc.OBB(px + ha * math.cos(ta), py + ha * math.sin(ta), ha, 0.0, ta)
    # unless a lies along b (then they overlap along a stretch), a's end is the contact
    if abs(math.sin(ta - tb)) > 1e-3:
        _check_touching_at(fc, a, b, (px, py), max(10.0, far))
