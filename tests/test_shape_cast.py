"""shape_cast: hand-worked hits, properties of the point and normal on random and
adversarial pairs of all 36 ordered kinds, arrays against the scalar calls, bad input.

Every test runs once per backend through the ``fc`` fixture.  The tolerance of "touch"
and "on the surface" is ``TOL * (L + t * speed)``: ``L`` the largest coordinate or size
of the pair, ``t * speed`` the distance travelled, ``TOL = 1e-8`` (as
tests/test_time_of_impact.py, which adds 1 to L; here tiny shapes keep a tiny
tolerance); the normal's test moves b by 1e-9 of the shapes' extent (at least 1e-12
of L); the point is measured with fastcol's ``distance`` to a
zero circle and, independently, with closed forms (round shapes) or shapely (the
polygonal kinds).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from shapes import ARRAY, KINDS, make_hull, points, shape_specs, size_of, translate
from test_bad_input import raises_naming

INF = math.inf
R2 = math.sqrt(2.0)
TOL = 1e-8


def _moved(s, v, t):
    return s.translated(v[0] * t, v[1] * t)


def _speed(va, vb):
    return math.hypot(*va) + math.hypot(*vb)


# ------------------------------------------------------------ independent distances


def _seg_dist(px, py, ax, ay, bx, by):
    """Distance from p to the segment ab (Ericson 5.1.2, written out here)."""
    ex, ey = bx - ax, by - ay
    ee = ex * ex + ey * ey
    u = 0.0 if ee == 0.0 else max(0.0, min(1.0, ((px - ax) * ex + (py - ay) * ey) / ee))
    return math.hypot(px - (ax + u * ex), py - (ay + u * ey))


def _polygon_of(s):
    """A polygonal shape as shapely geometry (a zero-size box as a line or a point)."""
    kind = type(s).__name__
    if kind == "Segment":
        return shapely.LineString([(s.ax, s.ay), (s.bx, s.by)])
    pts = list(s.vertices)
    ring = shapely.Polygon(pts)
    if ring.area > 0.0:
        return ring
    return shapely.LineString(pts + pts[:1])


def _surface_gap(s, p):
    """Distance from p to the boundary of s, computed without fastcol's kernels."""
    kind = type(s).__name__
    if kind == "Circle":
        return abs(math.hypot(p[0] - s.x, p[1] - s.y) - s.r)
    if kind == "Capsule":
        return abs(_seg_dist(p[0], p[1], s.ax, s.ay, s.bx, s.by) - s.r)
    g = _polygon_of(s)
    if isinstance(g, shapely.Polygon):
        g = g.exterior
    return g.distance(shapely.Point(p))


# ------------------------------------------------------------------- the check


def _extent(*shapes):
    """The largest width or height of the shapes' bounds."""
    return max(max(b.max_x - b.min_x, b.max_y - b.min_y) for b in (s.bounds() for s in shapes))



def check_cast(fc, sa, va, sb, vb, max_t):
    """shape_cast of the spec pair against time_of_impact, the surfaces, contact, and
    itself swapped; returns the hit."""
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    h = fc.shape_cast(a, va, b, vb, max_t)
    t = fc.time_of_impact(a, va, b, vb, max_t)
    # the same time, to the bit (None together)
    if h is None:
        assert t is None
        assert fc.shape_cast(b, vb, a, va, max_t) is None
        return None
    assert type(h).__name__ == "CastHit"
    assert type(h.t) is float and h.t == t and math.copysign(1, h.t) == math.copysign(1, t)
    # swapped with their velocities: the same t and point, the normal negated (for
    # shapes already colliding, as contact has it: two equal shapes give one normal)
    h2 = fc.shape_cast(b, vb, a, va, max_t)
    assert h2.t == h.t and h2.point == h.point
    if t > 0.0 or fc.contact(b, a).normal != h.normal:
        assert h2.normal == (-h.normal[0], -h.normal[1])
    nx, ny = h.normal
    assert abs(math.hypot(nx, ny) - 1.0) <= 1e-12
    if t == 0.0:
        # already colliding: contact's normal and point (the midpoint of two)
        c = fc.contact(a, b)
        assert c is not None and h.normal == c.normal
        if len(c.points) == 1:
            assert h.point == c.points[0]
        else:
            (x0, y0), (x1, y1) = c.points
            assert h.point == (0.5 * x0 + 0.5 * x1, 0.5 * y0 + 0.5 * y1)
        return h
    L = size_of(sa, sb)
    # (each distance travelled alone: their sum may overflow)
    tol = TOL * (L + t * math.hypot(*va) + t * math.hypot(*vb))
    ma, mb = _moved(a, va, t), _moved(b, vb, t)
    # at t they touch
    assert fc.distance(ma, mb) <= tol
    # the point lies on both moved surfaces: fastcol's distance, and independently
    p = fc.Circle(h.point[0], h.point[1], 0.0)
    assert fc.distance(p, ma) <= tol and fc.distance(p, mb) <= tol
    assert _surface_gap(ma, h.point) <= tol and _surface_gap(mb, h.point) <= tol
    # b a little further along +normal clears a; along -normal it overlaps a, where
    # one of them has area (two points, or a point and a segment, only ever touch).
    # "A little": 1e-9 of the shapes' extent, and at least 1e-12 of the coordinates
    # (beyond the rounding of a touch, far below the tolerance above).  Corner to
    # corner too: there the normal is inside the Minkowski difference's normal cone
    step = max(1e-9 * _extent(ma, mb), 1e-12 * L)
    assert fc.distance(ma, mb.translated(nx * step, ny * step)) > 0.0
    if fc.mass_properties(ma).mass > 0.0 or fc.mass_properties(mb).mass > 0.0:
        assert fc.collide(ma, mb.translated(-nx * step, -ny * step))
    return h


# --------------------------------------------------------------- known answers

# (a, velocity_a, b, velocity_b, max_t, t, point, normal), worked out by hand; a point
# of None: checked by check_cast only (a face-to-face touch along a segment)
KNOWN = {
    "circles-head-on": (("Circle", 0, 0, 1), (1, 0), ("Circle", 10, 0, 1), (-1, 0), 10,
                        4.0, (5.0, 0.0), (1.0, 0.0)),
    "circle-onto-box-face": (("Circle", 0, 3, 1), (0, -1), ("AABB", -5, -1, 5, 0), (0, 0), 5,
                             2.0, (0.0, 0.0), (0.0, -1.0)),
    "circles-graze": (("Circle", 0, 0, 1), (0, 0), ("Circle", -10, 2, 1), (1, 0), 100,
                      10.0, (0.0, 1.0), (0.0, 1.0)),
    "circle-box-corner": (("AABB", 0, 0, 2, 2), (0, 0), ("Circle", 5, 5, 1), (-1, -1), 10,
                          3.0 - 1.0 / R2, (2.0, 2.0), (1 / R2, 1 / R2)),
    "diamond-vertex-to-box": (("OBB", 0, 0, 1, 1, math.pi / 4), (0, 0), ("AABB", 3, -1, 4, 1),
                              (-1, 0), 10, 3 - R2, (R2, 0.0), (1.0, 0.0)),
    "polygon-vertex-onto-box": (("Polygon", ((0, 2), (2, 2), (1, 1))), (0, -1),
                                ("AABB", -5, -1, 5, 0), (0, 0), 10, 1.0, (1.0, 0.0),
                                (0.0, -1.0)),
    "segment-end-on": (("Segment", -5, 0, -3, 0), (1, 0), ("Circle", 0, 0, 1), (0, 0), 10,
                       2.0, (-1.0, 0.0), (1.0, 0.0)),
    "bullet-through-wall": (("Segment", 0, -1, 0, 1), (0, 0), ("Circle", -5, 0, 0.1), (100, 0),
                            1, 0.049, (0.0, 0.0), (-1.0, 0.0)),
    "capsules-crossing": (("Capsule", -2, 0, 2, 0, 0.5), (0, 0), ("Capsule", 0, 3, 0, 5, 0.5),
                          (0, -1), 10, 2.0, (0.0, 0.5), (0.0, 1.0)),
    "huge": (("Circle", 0, 0, 1e6), (0, 0), ("Circle", 3e6, 0, 1e6), (-1e6, 0), 10,
             1.0, (1e6, 0.0), (1.0, 0.0)),
    "tiny": (("Circle", 0, 0, 1e-6), (0, 0), ("Circle", 3e-6, 0, 1e-6), (-1e-6, 0), 10,
             1.0, (1e-6, 0.0), (1.0, 0.0)),
    "at-1e6": (("Circle", 1e6, 1e6, 1), (1, 0), ("Circle", 1e6 + 10, 1e6, 1), (-1, 0), 10,
               4.0, (1e6 + 5, 1e6), (1.0, 0.0)),
    "box-at-1e6": (("AABB", 1e6, 1e6, 1e6 + 1, 1e6 + 1), (0, 0),
                   ("Circle", 1e6 + 0.5, 1e6 + 4, 1), (0, -1), 10, 2.0,
                   (1e6 + 0.5, 1e6 + 1), (0.0, 1.0)),
    "parallel-faces": (("AABB", 0, 0, 1, 1), (0, 0), ("AABB", 3, 0.5, 4, 1.5), (-1, 0), 10,
                       2.0, None, (1.0, 0.0)),
    "capsule-lands-flat": (("Segment", -10, 0, 10, 0), (0, 0), ("Capsule", 0, 5, 4, 5, 1),
                           (0, -1), 10, 4.0, None, (0.0, 1.0)),
    "polygons-face": (("Polygon", ((0, 0), (1, 0), (1, 1), (0, 1))), (0, 0),
                      ("Polygon", ((3, 0), (5, 0), (3, 1))), (-0.5, 0), 10, 4.0, None,
                      (1.0, 0.0)),
    "obb-capsule-face": (("OBB", 0, 0, 2, 1, 0), (0, 1), ("Capsule", -1, 5, 1, 5, 0.5), (0, -1),
                         10, 1.75, None, (0.0, 1.0)),
}


@pytest.mark.parametrize("case", sorted(KNOWN))
def test_known_answer(fc, case):
    sa, va, sb, vb, max_t, t, point, normal = KNOWN[case]
    h = check_cast(fc, sa, va, sb, vb, max_t)
    assert h.t == pytest.approx(t, rel=1e-12)
    assert h.normal == pytest.approx(normal, rel=1e-12, abs=1e-12)
    scale = size_of(sa, sb)
    if point is not None:
        assert h.point == pytest.approx(point, rel=1e-12, abs=1e-12 * scale)


def test_parallel_faces_touch_at_an_end_of_the_shared_segment(fc):
    # the faces x = 1 of a and x = 3 - 2 of b meet along y in [0.5, 1]: the point is an
    # end of that segment (the vertex whose ray came first), not its middle
    h = fc.shape_cast(fc.AABB(0, 0, 1, 1), (0, 0), fc.AABB(3, 0.5, 4, 1.5), (-1, 0), 10)
    assert h.point[0] == 1.0 and h.point[1] in (0.5, 1.0)


# ------------------------------------------------------------ corner meets corner
# Where a vertex meets a vertex, the normal is the bisector of the Minkowski
# difference's normal cone: a's outward normal cone at its corner (between its two
# sides' normals) met with b's negated (a segment's end: the half-plane beyond it; a
# point: every direction).  Each answer below is worked from those cones by hand.


def _deg(a):
    return (math.cos(math.radians(a)), math.sin(math.radians(a)))


def _wedge(apex, towards, half, length=4.0):
    """A polygon with a corner of 2 * half degrees at apex, its body towards the
    direction ``towards`` (degrees): the corner's normal cone is the directions within
    90 - half degrees of the opposite direction."""
    (x, y), pts = apex, [apex]
    for a in (towards - half, towards + half):
        c, s = _deg(a)
        pts.append((x + length * c, y + length * s))
    return ("Polygon", tuple(pts))


C225 = (math.cos(math.pi / 8), math.sin(math.pi / 8))
# (a, velocity_a, b, velocity_b, t, point, normal): the point is the corner
CORNERS = {
    # two boxes corner to corner, moving diagonally: (1, 1) / sqrt 2 by symmetry
    "boxes-diagonal": (("AABB", 0, 0, 1, 1), (0, 0), ("AABB", 3, 3, 4, 4), (-1, -1),
                       2.0, (1.0, 1.0), (1 / R2, 1 / R2)),
    # a's corner cone [0, 90] degrees, b's bottom-left negated [0, 90]: 45 degrees
    "box-grazes-past-box": (("AABB", 0, 0, 1, 1), (0, 0), ("AABB", 2, 1, 3, 2), (-1, 0),
                            1.0, (1.0, 1.0), (1 / R2, 1 / R2)),
    # a diamond's corner [-45, 45] against a box's bottom-left [0, 90]: 22.5 degrees
    "diamond-meets-box-corner": (("OBB", 0, 0, 1, 1, math.pi / 4), (0, 0),
                                 ("AABB", 4, 0, 5, 1), (-1, 0), None, None, C225),
    # 30-degree wedges: a's apex cone [-75, 75]; b's body towards 30 degrees, its
    # cone [135, 285] negated [-45, 105]: they meet in [-45, 75], bisector 15
    "wedges-30": (_wedge((0.0, 0.0), 180, 15), (0, 0), _wedge((3.0, 0.0), 30, 15), (-1, 0),
                  3.0, (0.0, 0.0), _deg(15)),
    # head on, the same wedges mirrored: straight along the axis
    "wedges-head-on": (_wedge((0.0, 0.0), 180, 15), (0.5, 0), _wedge((2.0, 0.0), 0, 15),
                       (-0.5, 0), 2.0, (1.0, 0.0), (1.0, 0.0)),
    # a box's corner slides along the line of a wedge's apex: [0, 90] with [-75, 75]
    "box-grazes-past-wedge": (_wedge((0.0, 0.0), 180, 15), (0, 0), ("AABB", 1, 0, 2, 1),
                              (-1, 0), 1.0, (0.0, 0.0), _deg(37.5)),
    # a segment's end: the half-plane beyond it, here around (1, -2), negated: with
    # the box's [0, 90] it leaves [atan(1/2), 90]
    "segment-end-on-box-corner": (("AABB", 0, 0, 1, 1), (0, 0), ("Segment", 2, 2, 1, 4),
                                  (-1, -1), 1.0, (1.0, 1.0),
                                  _deg(math.degrees((math.atan(0.5) + math.pi / 2) / 2))),
    # a point: the box's corner cone alone decides
    "point-on-box-corner": (("AABB", 0, 0, 1, 1), (0, 0), ("Circle", 3, 2, 0), (-2, -1),
                            1.0, (1.0, 1.0), (1 / R2, 1 / R2)),
    "point-on-wedge-apex": (_wedge((0.0, 0.0), 180, 15), (0, 0), ("Circle", 2, 1, 0),
                            (-2, -1), 1.0, (0.0, 0.0), (1.0, 0.0)),
    # a zero-radius capsule is a segment: its end against the wedge's apex, the end's
    # half-plane around (-1, 0) negated: [-90, 90] with [-75, 75]
    "segment-end-on-wedge-apex": (_wedge((0.0, 0.0), 180, 15), (0, 0),
                                  ("Capsule", 1, 0, 2, 0, 0), (-1, 0), 1.0, (0.0, 0.0),
                                  (1.0, 0.0)),
    # an OBB of zero thickness stood upright (its side tilted by cos(pi/2) ~ 6e-17)
    # whose end a box's corner lands on, the box's face along it: the cones meet in
    # one ray, (1, 0), which rounding can miss
    "upright-sliver-meets-box": (("OBB", -0.5, 0.0, 0.75, 0.0, math.pi / 2), (0, 0),
                                 ("AABB", 0, 0, 0.25, 0.25), (-0.5, -0.75), 1.0,
                                 (-0.5, -0.75), (1.0, 0.0)),
}


def _corner_cases():
    for name, case in CORNERS.items():
        yield name, case
        # the same at 1e6 (the moved corners stay exact: the offsets are on their grid)
        sa, va, sb, vb, t, point, normal = case
        sa, sb = translate(sa, 1e6, -1e6), translate(sb, 1e6, -1e6)
        if point is not None:
            point = (point[0] + 1e6, point[1] - 1e6)
        yield name + "-at-1e6", (sa, va, sb, vb, t, point, normal)


CORNER_CASES = dict(_corner_cases())


@pytest.mark.parametrize("case", sorted(CORNER_CASES))
def test_corner_meets_corner(fc, case):
    sa, va, sb, vb, t, point, normal = CORNER_CASES[case]
    h = check_cast(fc, sa, va, sb, vb, 10.0)
    # check_cast has checked -normal overlaps, +normal separates, and the swap
    # negates the normal to the bit; here the hand-worked values
    L = size_of(sa, sb)
    if t is not None:
        assert h.t == pytest.approx(t, rel=1e-12)
        assert h.point == pytest.approx(point, rel=1e-12, abs=1e-12 * L)
    # (wedges at 1e6 have their far vertices rounded to 1e6's grid: their sides turn
    # by up to 1e-10 radians)
    tol = 1e-8 if L > 1e5 else 1e-12
    assert h.normal == pytest.approx(normal, rel=tol, abs=tol)


def test_face_meets_corner_keeps_the_face(fc):
    # a vertex onto a face's middle, and a box's corner onto a face: the face's normal
    h = check_cast(fc, ("AABB", 0, 0, 4, 1), (0, 0), _wedge((2.0, 3.0), 90, 15), (0, -1), 10)
    assert h.t == 2.0 and h.normal == (0.0, 1.0)
    h = check_cast(fc, ("AABB", 0, 0, 4, 1), (0, 0), ("AABB", 1, 2, 2, 3), (0, -1), 10)
    assert h.t == 1.0 and h.normal == (0.0, 1.0)


# the kinds without radius that have corners (a point is all corner)
CORNERED = ("Circle", "Capsule", "Segment", "AABB", "OBB", "Polygon")


def _grid(rng, n=None, lim=16):
    return rng.integers(-lim, lim + 1, size=n) / 4


def _cornered_spec(rng, kind):
    """A random shape without radius on the quarter grid (an OBB's corners are
    computed: near the grid)."""
    x, y = _grid(rng, 2)
    if kind == "Circle":
        return ("Circle", x, y, 0.0)
    if kind in ("Capsule", "Segment"):
        u, w = _grid(rng, 2)
        return (kind, x, y, u, w) + ((0.0,) if kind == "Capsule" else ())
    if kind == "AABB":
        w, h = rng.integers(0, 9, size=2) / 4
        return ("AABB", x, y, x + w, y + h)
    if kind == "OBB":
        w, h = rng.integers(0, 9, size=2) / 8
        angle = rng.choice([0.0, math.pi / 4, math.pi / 6, 1.0, -2.5])
        return ("OBB", x, y, w, h, angle)
    while True:
        pts = [tuple(p) for p in _grid(rng, (rng.integers(3, 7), 2), 8)]
        if shapely.Polygon(pts).convex_hull.area > 0.0:
            return ("Polygon", tuple(pts))


def corner_casts(fc, ka, kb, n, seed):
    """n casts of a kb shape whose leading corner along v lands on a ka shape's
    trailing corner at t (on the grid, exactly): ``(sa, sb, v, t, corner)``, a at rest.

    v is a random grid direction, or along one of a's sides (a corner grazing past
    another), so the corners are the shapes' extremes along v: the shapes first touch
    there, at t."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        sa, sb = _cornered_spec(rng, ka), _cornered_spec(rng, kb)
        a, b = make_hull(fc, sa), make_hull(fc, sb)
        pa, pb = _anchors(a), _anchors(b)
        if rng.random() < 0.3 and len(pa) > 1:
            k = rng.integers(len(pa))
            (x0, y0), (x1, y1) = pa[k], pa[(k + 1) % len(pa)]
            v = (x1 - x0, y1 - y0)
        else:
            v = tuple(_grid(rng, 2))
        if v == (0.0, 0.0):
            continue
        if rng.random() < 0.5:
            v = (v[0] * 0.5, v[1] * 0.5)
        cx, cy = max(pa, key=lambda p: -(p[0] * v[0] + p[1] * v[1]))
        qx, qy = max(pb, key=lambda p: p[0] * v[0] + p[1] * v[1])
        t = float(rng.choice([0.5, 1.0, 2.0]))
        out.append((sa, translate(sb, cx - qx - t * v[0], cy - qy - t * v[1]), v, t,
                    (cx, cy)))
    return out


@pytest.mark.parametrize("ka, kb", [pytest.param(a, b, id=f"{a.lower()}-{b.lower()}")
                                    for a, b in itertools.product(CORNERED, CORNERED)])
def test_corners_placed_on_corners(fc, ka, kb):
    # every ordered pair of kinds without radius (check_cast swaps each too): -normal
    # overlaps, +normal separates, also where the corners meet exactly
    met = 0
    for sa, sb, v, t, corner in corner_casts(fc, ka, kb, 40, 36):
        h = check_cast(fc, sa, (0.0, 0.0), sb, v, INF)
        if h is not None and h.t == pytest.approx(t, rel=1e-9) and h.point == pytest.approx(
                corner, abs=1e-9):
            met += 1
        # at 1e6 too
        check_cast(fc, translate(sa, 1e6, 1e6), (0.0, 0.0), translate(sb, 1e6, 1e6), v, INF)
    # the placement works: most of them meet at the corners chosen
    assert met >= 20


def test_already_colliding_gives_contact(fc):
    # one contact point, and two (parallel faces overlapping): their midpoint
    a, b = fc.Circle(0, 0, 1), fc.Circle(1.5, 0, 1)
    h = fc.shape_cast(a, (3, 0), b, (5, 0))
    c = fc.contact(a, b)
    assert h.t == 0.0 and h.normal == c.normal == (1.0, 0.0) and h.point == c.points[0]
    a, b = fc.AABB(0, 0, 4, 1), fc.AABB(1, 0.5, 3, 2)
    c = fc.contact(a, b)
    assert len(c.points) == 2
    h = fc.shape_cast(a, (0, 0), b, (0, -1))
    (x0, y0), (x1, y1) = c.points
    assert h == (0.0, ((x0 + x1) / 2, (y0 + y1) / 2), c.normal)


def test_touching_counts_as_colliding(fc):
    h = fc.shape_cast(fc.Circle(0, 0, 1), (0, 0), fc.AABB(1, -1, 2, 1), (5, 0))
    assert h == (0.0, (1.0, 0.0), (1.0, 0.0))


def test_none_cases(fc):
    a, b = fc.Circle(0, 0, 1), fc.Circle(10, 0, 1)
    assert fc.shape_cast(a, (1, 0), b, (-1, 0), 3.9) is None  # max_t too short
    assert fc.shape_cast(a, (-1, 0), b, (1, 0), INF) is None  # moving apart
    assert fc.shape_cast(a, (1, 0), b, (1, 0), INF) is None  # same motion
    assert fc.shape_cast(a, (0, 0), b, (-8, 0)).t == 1.0  # default max_t
    assert fc.shape_cast(a, (0, 0), b, (-7.9, 0)) is None


def test_records_unpack_and_compare(fc):
    h = fc.shape_cast(fc.Circle(0, 0, 1), (1, 0), fc.Circle(10, 0, 1), (-1, 0), 10)
    t, point, normal = h
    assert (t, point, normal) == (4.0, (5.0, 0.0), (1.0, 0.0))
    assert h == fc.CastHit(4.0, (5.0, 0.0), (1.0, 0.0)) and h[1] == (5.0, 0.0)
    assert h._fields == ("t", "point", "normal")
    assert repr(h) == "CastHit(t=4.0, point=(5.0, 0.0), normal=(1.0, 0.0))"


def test_huge_relative_velocity(fc):
    # the relative velocity overflows (both halved, exactly): the point is still placed
    h = check_cast(fc, ("Circle", 0, 0, 1), (1.7e308, 0), ("Circle", 10, 0, 1), (-1.7e308, 0),
                   INF)
    assert h.t == pytest.approx(8 / 3.4e308, rel=1e-12)
    assert h.point == pytest.approx((5.0, 0.0), abs=1e-12)  # they meet half way


# ------------------------------------------------------------------ properties

PAIRS = [pytest.param(a, b, id=f"{a.lower()}-{b.lower()}") for a, b in itertools.product(KINDS, KINDS)]
velocities = points(4)
limits = st.sampled_from([1.0, INF, 2.5]) | st.floats(0, 4)


@pytest.mark.parametrize("ka, kb", PAIRS)
@settings(max_examples=30, database=None)
@given(data=st.data())
def test_random_pairs(fc, ka, kb, data):
    sa = data.draw(shape_specs(ka), label="a")
    sb = data.draw(shape_specs(kb), label="b")
    va = data.draw(velocities, label="va")
    vb = data.draw(velocities, label="vb")
    check_cast(fc, sa, va, sb, vb, data.draw(limits, label="max_t"))


def _centre(s):
    bb = s.bounds()
    return (bb.min_x + bb.max_x) / 2, (bb.min_y + bb.max_y) / 2


@pytest.mark.parametrize("ka, kb", PAIRS)
@settings(max_examples=30, database=None)
@given(data=st.data())
def test_random_pairs_on_collision_course(fc, ka, kb, data):
    # b aimed at a's centre, so most draws meet; sometimes far out, huge or tiny
    sa = data.draw(shape_specs(ka), label="a")
    sb = data.draw(shape_specs(kb), label="b")
    off = data.draw(st.sampled_from([(0.0, 0.0), (1e6, -1e6)]), label="offset")
    sa, sb = translate(sa, *off), translate(sb, *off)
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    ca, cb = _centre(a), _centre(b)
    k = data.draw(st.sampled_from([0.25, 0.5, 1.0]), label="speed")
    va = data.draw(st.sampled_from([(0.0, 0.0), (0.5, -0.25)]), label="va")
    vb = (va[0] + (ca[0] - cb[0]) * k, va[1] + (ca[1] - cb[1]) * k)
    check_cast(fc, sa, va, sb, vb, INF)


def _anchors(s):
    """Vertices and core ends of a shape: targets for corner-to-corner sweeps."""
    kind = type(s).__name__
    if kind == "Circle":
        return [(s.x, s.y)]
    if kind in ("Capsule", "Segment"):
        return [s.a, s.b]
    return list(s.vertices)


@pytest.mark.parametrize("ka, kb", PAIRS)
@settings(max_examples=25, database=None)
@given(data=st.data())
def test_vertex_aimed_at_vertex(fc, ka, kb, data):
    # a vertex (core end) of b travels straight at one of a's: corner to corner,
    # grazing and edge-on cases
    sa = data.draw(shape_specs(ka), label="a")
    sb = data.draw(shape_specs(kb), label="b")
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    pa, pb = _anchors(a), _anchors(b)
    i = data.draw(st.integers(0, 7), label="i")
    j = data.draw(st.integers(0, 7), label="j")
    (ax, ay), (bx, by) = pa[i % len(pa)], pb[j % len(pb)]
    vb = (ax - bx, ay - by)
    if vb != (0.0, 0.0):
        check_cast(fc, sa, (0.0, 0.0), sb, vb, INF)


@pytest.mark.parametrize("k", [1e-6, 1.0, 1e6])
@pytest.mark.parametrize("ka, kb", list(itertools.product(KINDS, KINDS)))
def test_scaled_sweeps(fc, ka, kb, k):
    # one configuration of each ordered pair, scaled tiny, unit and huge
    specs = {
        "Circle": ("Circle", 0.0, 0.0, 1.0),
        "Capsule": ("Capsule", -0.5, -0.25, 0.5, 0.75, 0.5),
        "Segment": ("Segment", -1.0, 0.5, 1.0, -0.25),
        "AABB": ("AABB", -1.0, -0.5, 1.0, 0.75),
        "OBB": ("OBB", 0.0, 0.0, 1.0, 0.5, 0.3),
        "Polygon": ("Polygon", ((-1.0, -1.0), (1.0, -0.5), (0.5, 1.0), (-0.75, 0.5))),
    }
    from shapes import scale

    sa = scale(specs[ka], k)
    sb = scale(translate(specs[kb], 5.0, 1.5), k)
    h = check_cast(fc, sa, (0.0, 0.0), sb, (-k, -0.2 * k), INF)
    assert h is not None and h.t > 0.0


# ------------------------------------------------------------------------ arrays


def _array(fc, kind, shapes, dtype=np.float64):
    if kind == "Polygon":
        return fc.PolygonArray(shapes, dtype=dtype)
    return getattr(fc, ARRAY[kind])(np.array([s._values() for s in shapes], dtype=dtype))


def check_rows(fc, A, va, B, vb, max_t, n, workers=1):
    """Rows of shape_cast against the scalar calls, bit for bit (float64)."""
    h = fc.shape_cast(A, va, B, vb, max_t, workers=workers)
    assert type(h).__name__ == "CastHitArray"
    for i in range(n):
        a = A[i] if isinstance(A, fc._array_types) else A
        b = B[i] if isinstance(B, fc._array_types) else B
        ua = tuple(va[i]) if isinstance(va, np.ndarray) and va.ndim == 2 else va
        ub = tuple(vb[i]) if isinstance(vb, np.ndarray) and vb.ndim == 2 else vb
        lim = float(max_t[i]) if isinstance(max_t, np.ndarray) else max_t
        one = fc.shape_cast(a, ua, b, ub, lim)
        if one is None:
            assert not h.hit[i] and h.t[i] == INF
            assert tuple(h.point[i]) == (0.0, 0.0) and tuple(h.normal[i]) == (0.0, 0.0)
        else:
            assert h.hit[i]
            assert (float(h.t[i]), tuple(map(float, h.point[i])),
                    tuple(map(float, h.normal[i]))) == tuple(one)
    return h


@pytest.mark.parametrize("ka, kb", PAIRS)
@settings(max_examples=5, database=None)
@given(data=st.data())
def test_rows_equal_scalar_calls(fc, ka, kb, data):
    n = 6
    sa = [data.draw(shape_specs(ka), label="a") for _ in range(n)]
    sb = [data.draw(shape_specs(kb), label="b") for _ in range(n)]
    A = _array(fc, ka, [make_hull(fc, s) for s in sa])
    B = _array(fc, kb, [make_hull(fc, s) for s in sb])
    va = np.array([data.draw(velocities, label="va") for _ in range(n)])
    # b aimed at a's centre in most rows
    cb = [_centre(B[i]) for i in range(n)]
    ca = [_centre(A[i]) for i in range(n)]
    vb = np.array([(ca[i][0] - cb[i][0], ca[i][1] - cb[i][1]) for i in range(n)])
    max_t = np.array([INF, 1.0, 0.5, INF, 2.0, 0.0])
    check_rows(fc, A, va, B, vb, max_t, n)
    # one shape against rows, rows against one shape, workers
    check_rows(fc, A[0], (0.0, 0.0), B, vb, INF, n)
    check_rows(fc, A, va, B[0], (1.0, -0.5), 2.0, n, workers=2)


def test_rows_workers_equal_one(fc):
    rng = np.random.default_rng(7)
    n = 3000
    A = fc.CapsuleArray(np.column_stack([rng.uniform(-5, 5, (n, 4)), rng.uniform(0, 1, n)]))
    B = fc.OBBArray(np.column_stack([rng.uniform(-5, 5, (n, 2)), rng.uniform(0, 1, (n, 2)),
                                     rng.uniform(-3, 3, n)]))
    v = rng.uniform(-4, 4, (n, 2))
    one = fc.shape_cast(A, v, B, (0.0, 0.0), INF)
    two = fc.shape_cast(A, v, B, (0.0, 0.0), INF, workers=2)
    assert one.hit.sum() > n // 4
    for x, y in zip(one, two):
        assert x.tobytes() == y.tobytes()


def test_rows_float32(fc):
    # float32 rows in, float32 out: the float64 answer of the float32 rows, rounded once
    rng = np.random.default_rng(3)
    n = 200
    A = fc.CircleArray(np.column_stack([rng.uniform(-5, 5, (n, 2)), rng.uniform(0, 1, n)])
                       .astype(np.float32))
    B = fc.AABBArray(np.sort(rng.uniform(-5, 5, (n, 2, 2)), axis=1).transpose(0, 2, 1)
                     .reshape(n, 4)[:, [0, 2, 1, 3]].astype(np.float32))
    v = rng.uniform(-8, 8, (n, 2)).astype(np.float32)
    h32 = fc.shape_cast(A, v, B, (0.0, 0.0), INF)
    assert h32.t.dtype == h32.point.dtype == h32.normal.dtype == np.float32
    A64, B64 = fc.CircleArray(A.data.astype(np.float64)), fc.AABBArray(B.data.astype(np.float64))
    h64 = fc.shape_cast(A64, v.astype(np.float64), B64, (0.0, 0.0), INF)
    assert (h32.hit == h64.hit).all() and h64.hit.sum() > n // 8
    for x, y in zip(h32[1:], h64[1:]):
        assert x.tobytes() == y.astype(np.float32).tobytes()


def test_rows_that_are_no_shape_or_no_motion_have_no_hit(fc):
    A = fc.CircleArray([[0, 0, 1], [np.nan, 0, 1], [0, 0, -1], [0, 0, 1], [0, 0, 1], [0, 0, 1]])
    v = np.array([[1, 0], [1, 0], [1, 0], [np.inf, 0], [1, 0], [1, 0]], dtype=float)
    max_t = np.array([10, 10, 10, 10, -1, np.nan])
    h = fc.shape_cast(A, v, fc.Circle(5, 0, 1), (0, 0), max_t)
    assert h.hit.tolist() == [True, False, False, False, False, False]
    assert h.t[0] == 3.0 and (h.t[1:] == INF).all()
    assert (h.point[1:] == 0).all() and (h.normal[1:] == 0).all()


@pytest.mark.parametrize("ka, kb", [("AABB", "AABB"), ("OBB", "Polygon"), ("Segment", "OBB"),
                                    ("Polygon", "Circle"), ("Capsule", "Polygon")])
def test_corner_rows_equal_scalar_calls(fc, ka, kb):
    # corners placed on corners, as rows: the rows share the scalar kernel
    cases = corner_casts(fc, ka, kb, 24, 5)
    A = _array(fc, ka, [make_hull(fc, c[0]) for c in cases])
    B = _array(fc, kb, [make_hull(fc, c[1]) for c in cases])
    vb = np.array([c[2] for c in cases])
    h = check_rows(fc, A, (0.0, 0.0), B, vb, INF, len(cases))
    assert h.hit.sum() >= len(cases) // 2
    check_rows(fc, B, vb, A, (0.0, 0.0), INF, len(cases), workers=2)


def test_empty_rows(fc):
    h = fc.shape_cast(fc.CircleArray(np.zeros((0, 3))), (1, 0), fc.Circle(0, 0, 1), (0, 0))
    assert h.hit.shape == (0,) and h.point.shape == (0, 2)


# --------------------------------------------------------------------- bad input
# (the scalar arguments: tests/test_time_of_impact.py checks both sweeps alike)


def test_array_arguments_are_checked(fc):
    A = fc.CircleArray([[0, 0, 1], [1, 1, 1]])
    with raises_naming(ValueError, "velocity_a"):
        fc.shape_cast(A, np.zeros((3, 2)), fc.Circle(0, 0, 1), (0, 0))
    with raises_naming(ValueError, "max_t"):
        fc.shape_cast(A, (0, 0), fc.Circle(0, 0, 1), (1, 0), np.ones(5))
    with raises_naming((TypeError, ValueError), "velocity_b"):
        fc.shape_cast(A, (0, 0), fc.Circle(0, 0, 1), np.zeros((2, 3)))
    with raises_naming(TypeError, "b"):
        fc.shape_cast(A, (0, 0), "circle", (1, 0))
    with raises_naming((TypeError, ValueError), "workers"):
        fc.shape_cast(A, (0, 0), fc.Circle(0, 0, 1), (1, 0), workers=0)
