"""contact(a, b): hand-worked answers for every pair of kinds, and properties on random shapes.

The known answers were worked out on paper from the definitions (least penetration
over face normals, closest points of cores apart, clipped incident features); each is
checked in both argument orders (the normal negates, depth and points stay).  The
properties use the independent oracle in tests/oracle.py: moving ``b`` by
``normal * depth`` leaves the shapes touching, a little further separates them, and
each contact point lies within ``depth`` of both shapes.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import oracle_distance, point_distance
from shapes import PAIR_PARAMS as PAIRS, make_hull, shape_specs, size_of, translate

REL = 1e-9  # tolerance relative to the size of the configuration
R2 = math.sqrt(2.0)
TRI = ((0.0, 0.0), (4.0, 0.0), (0.0, 3.0))
HEX = tuple((math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6))


def S(kind, *args):
    return (kind,) + args


# (spec a, spec b, expected normal, depth, points) -- None for no contact.  Points are
# compared as a set (their order is not part of the contract).
KNOWN = {
    # -- circle / circle
    "circles-overlap": (S("Circle", 0.0, 0.0, 1.0), S("Circle", 1.5, 0.0, 1.0),
                        (1.0, 0.0), 0.5, [(0.75, 0.0)]),
    "circles-touch": (S("Circle", 0.0, 0.0, 1.0), S("Circle", 2.0, 0.0, 1.0),
                      (1.0, 0.0), 0.0, [(1.0, 0.0)]),
    "circles-apart": (S("Circle", 0.0, 0.0, 1.0), S("Circle", 3.0, 0.0, 1.0), None),
    # concentric: the fixed normal (1, 0) of the canonical pair (the smaller radius
    # sorts first); surfaces at x = 1 (a, along +x) and x = -2 (b, along -x)
    "circles-coincident": (S("Circle", 0.0, 0.0, 1.0), S("Circle", 0.0, 0.0, 2.0),
                           (1.0, 0.0), 3.0, [(-0.5, 0.0)]),
    "circles-contained": (S("Circle", 0.0, 0.0, 5.0), S("Circle", 1.0, 0.0, 1.0),
                          (1.0, 0.0), 5.0, [(2.5, 0.0)]),
    # -- circle / capsule
    "circle-capsule-side": (S("Circle", 2.0, 1.5, 1.0), S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0),
                            (0.0, -1.0), 0.5, [(2.0, 0.75)]),
    # the centre on the core: least penetration across the core, a's surface y = 0.5,
    # b's y = -1
    "circle-on-capsule-core": (S("Circle", 1.0, 0.0, 0.5), S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0),
                               (0.0, 1.0), 1.5, [(1.0, -0.25)]),
    "circle-zero-length-capsule": (S("Circle", 0.0, 0.0, 1.0), S("Capsule", 1.0, 0.0, 1.0, 0.0, 1.0),
                                   (1.0, 0.0), 1.0, [(0.5, 0.0)]),
    "circle-capsule-apart": (S("Circle", 0.0, 3.0, 1.0), S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), None),
    # -- circle / segment
    "circle-segment": (S("Circle", 0.0, 0.0, 1.0), S("Segment", 0.5, -2.0, 0.5, 2.0),
                       (1.0, 0.0), 0.5, [(0.75, 0.0)]),
    "circle-segment-touch": (S("Circle", 0.0, 0.0, 1.0), S("Segment", 1.0, -5.0, 1.0, 5.0),
                             (1.0, 0.0), 0.0, [(1.0, 0.0)]),
    "point-on-segment": (S("Circle", 1.0, 1.0, 0.0), S("Segment", 0.0, 0.0, 2.0, 2.0),
                         (-1 / R2, 1 / R2), 0.0, [(1.0, 1.0)]),
    # the centre on the segment up to rounding (the computed closest point is off by an
    # ulp along the segment): the answer is across the segment, never along it
    "circle-on-segment-rounded": (S("Circle", 0.0, 0.9783847661518101, 0.25), S("Segment", 0.0, 1.75, 0.0, 0.0),
                                  (1.0, 0.0), 0.25, [(0.125, 0.9783847661518101)]),
    "circle-segment-apart": (S("Circle", 0.0, 0.0, 1.0), S("Segment", 1.5, -1.0, 1.5, 1.0), None),
    # -- capsule / capsule
    "capsules-parallel": (S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), S("Capsule", 1.0, 1.5, 3.0, 1.5, 1.0),
                          (0.0, 1.0), 0.5, [(1.0, 0.75), (3.0, 0.75)]),
    # crossing cores: least penetration is up across a (b's lower end must clear it),
    # the point midway between b's end surface (y = -1.5) and a's top (y = 0.5)
    "capsules-crossing": (S("Capsule", -2.0, 0.0, 2.0, 0.0, 0.5), S("Capsule", 0.0, -1.0, 0.0, 3.0, 0.5),
                          (0.0, 1.0), 2.0, [(0.0, -0.5)]),
    "capsules-collinear": (S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), S("Capsule", 2.0, 0.0, 6.0, 0.0, 1.0),
                           (0.0, -1.0), 2.0, [(2.0, 0.0), (4.0, 0.0)]),
    "capsules-apart": (S("Capsule", 0.0, 0.0, 4.0, 0.0, 0.5), S("Capsule", 0.0, 2.0, 4.0, 2.0, 0.5), None),
    # -- capsule / segment
    "capsule-segment-parallel": (S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), S("Segment", 1.0, 0.5, 3.0, 0.5),
                                 (0.0, 1.0), 0.5, [(1.0, 0.75), (3.0, 0.75)]),
    "capsule-segment-touch": (S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), S("Segment", 1.0, 1.0, 3.0, 1.0),
                              (0.0, 1.0), 0.0, [(1.0, 1.0), (3.0, 1.0)]),
    "capsule-segment-apart": (S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), S("Segment", 0.0, 2.0, 4.0, 2.0), None),
    # -- segment / segment
    "segments-crossing": (S("Segment", 0.0, 0.0, 2.0, 2.0), S("Segment", 0.0, 2.0, 2.0, 0.0),
                          (1 / R2, -1 / R2), R2, [(0.5, 1.5)]),
    "segments-T": (S("Segment", 0.0, 0.0, 4.0, 0.0), S("Segment", 2.0, 0.0, 2.0, 3.0),
                   (0.0, 1.0), 0.0, [(2.0, 0.0)]),
    "segments-collinear": (S("Segment", 0.0, 0.0, 4.0, 0.0), S("Segment", 2.0, 0.0, 6.0, 0.0),
                           (0.0, -1.0), 0.0, [(2.0, 0.0), (4.0, 0.0)]),
    "segments-parallel-apart": (S("Segment", 0.0, 0.0, 4.0, 0.0), S("Segment", 1.0, 1.0, 3.0, 1.0), None),
    # -- circle / AABB
    "circle-aabb": (S("Circle", 0.0, 0.0, 1.0), S("AABB", 0.5, -1.0, 2.0, 1.0),
                    (1.0, 0.0), 0.5, [(0.75, 0.0)]),
    "circle-aabb-touch": (S("Circle", 0.0, 0.0, 1.0), S("AABB", 1.0, -1.0, 2.0, 1.0),
                          (1.0, 0.0), 0.0, [(1.0, 0.0)]),
    # centre inside, nearest the bottom face: surfaces y = 0.75 (circle) and y = 0 (box)
    "circle-in-aabb": (S("Circle", 1.0, 0.5, 0.25), S("AABB", 0.0, 0.0, 4.0, 1.0),
                       (0.0, 1.0), 0.75, [(1.0, 0.375)]),
    # coincident centres: all four faces tie, the first (bottom) wins
    "circle-aabb-coincident": (S("Circle", 1.0, 1.0, 0.5), S("AABB", 0.0, 0.0, 2.0, 2.0),
                               (0.0, 1.0), 1.5, [(1.0, 0.75)]),
    "circle-zero-width-aabb": (S("Circle", 0.0, 0.0, 1.5), S("AABB", 1.0, -1.0, 1.0, 1.0),
                               (1.0, 0.0), 0.5, [(1.25, 0.0)]),
    "circle-aabb-apart": (S("Circle", 0.0, 0.0, 1.0), S("AABB", 1.0, 1.0, 2.0, 2.0), None),
    # -- circle / OBB: a diamond's corner at (sqrt 2, 0)
    "circle-obb": (S("Circle", 2.0, 0.0, 1.0), S("OBB", 0.0, 0.0, 1.0, 1.0, math.pi / 4),
                   (-1.0, 0.0), R2 - 1.0, [((R2 + 1.0) / 2, 0.0)]),
    "circle-obb-apart": (S("Circle", 3.0, 0.0, 1.0), S("OBB", 0.0, 0.0, 1.0, 1.0, math.pi / 4), None),
    # -- circle / polygon
    "circle-polygon": (S("Circle", 2.0, -0.5, 1.0), S("Polygon", TRI),
                       (0.0, 1.0), 0.5, [(2.0, 0.25)]),
    "circle-polygon-apart": (S("Circle", 4.0, 4.0, 1.0), S("Polygon", TRI), None),
    # -- capsule / AABB
    # crossing the box: every face gives 0.6, the capsule's first side wins
    "capsule-crossing-aabb": (S("Capsule", -5.0, 0.5, 5.0, 0.5, 0.1), S("AABB", 0.0, 0.0, 1.0, 1.0),
                              (0.0, -1.0), 0.6, [(0.0, 0.7), (1.0, 0.7)]),
    # lying on the top face, core outside: the overlap of the parallel edges
    "capsule-on-aabb": (S("Capsule", 1.0, 3.0, 3.0, 3.0, 1.5), S("AABB", 0.0, 0.0, 4.0, 2.0),
                        (0.0, -1.0), 0.5, [(1.0, 1.75), (3.0, 1.75)]),
    # past the box's corners: the nearest points include a corner, yet the contact is
    # still the stretch of the top face under the capsule
    "capsule-on-aabb-right-corner": (S("Capsule", 1.0, 3.0, 5.0, 3.0, 1.5), S("AABB", 0.0, 0.0, 4.0, 2.0),
                                     (0.0, -1.0), 0.5, [(1.0, 1.75), (4.0, 1.75)]),
    "capsule-on-aabb-left-corner": (S("Capsule", -1.0, 3.0, 3.0, 3.0, 1.5), S("AABB", 0.0, 0.0, 4.0, 2.0),
                                    (0.0, -1.0), 0.5, [(0.0, 1.75), (3.0, 1.75)]),
    "capsule-aabb-apart": (S("Capsule", 1.0, 3.0, 3.0, 3.0, 0.5), S("AABB", 0.0, 0.0, 4.0, 2.0), None),
    # -- capsule / OBB
    "capsule-on-obb": (S("Capsule", -1.0, 1.5, 1.0, 1.5, 1.0), S("OBB", 0.0, 0.0, 2.0, 1.0, 0.0),
                       (0.0, -1.0), 0.5, [(-1.0, 0.75), (1.0, 0.75)]),
    # -- capsule / polygon: the core beside the triangle's corner (4, 0)
    "capsule-polygon": (S("Capsule", 5.0, 0.0, 5.0, 4.0, 1.5), S("Polygon", TRI),
                        (-1.0, 0.0), 0.5, [(3.75, 0.0)]),
    # -- segment / AABB: crossing the left face; both ways out tie, the segment's wins
    "segment-aabb": (S("Segment", -1.0, 0.5, 0.5, 0.5), S("AABB", 0.0, 0.0, 2.0, 2.0),
                     (0.0, 1.0), 0.5, [(0.0, 0.25), (0.5, 0.25)]),
    "segment-aabb-apart": (S("Segment", -1.0, 0.5, -0.5, 0.5), S("AABB", 0.0, 0.0, 2.0, 2.0), None),
    # -- segment / OBB: through the centre, the box's left face against the segment
    "segment-obb": (S("Segment", 0.0, -3.0, 0.0, 3.0), S("OBB", 0.0, 0.0, 1.0, 1.0, 0.0),
                    (1.0, 0.0), 1.0, [(-0.5, -1.0), (-0.5, 1.0)]),
    # -- segment / polygon: crossing the bottom edge; pushing the triangle right wins
    "segment-polygon": (S("Segment", 1.0, -1.0, 1.0, 1.0), S("Polygon", TRI),
                        (1.0, 0.0), 1.0, [(0.5, 0.0), (0.5, 1.0)]),
    # -- AABB / AABB
    "aabbs": (S("AABB", 0.0, 0.0, 2.0, 2.0), S("AABB", 1.0, 1.0, 4.0, 4.0),
              (1.0, 0.0), 1.0, [(1.5, 1.0), (1.5, 2.0)]),
    "aabbs-corner-touch": (S("AABB", 0.0, 0.0, 1.0, 1.0), S("AABB", 1.0, 1.0, 2.0, 2.0),
                           (1.0, 0.0), 0.0, [(1.0, 1.0)]),
    "aabb-zero-width": (S("AABB", -1.0, 0.5, 1.0, 1.0), S("AABB", 0.0, 0.0, 0.0, 2.0),
                        (1.0, 0.0), 1.0, [(0.5, 0.5), (0.5, 1.0)]),
    "aabbs-apart": (S("AABB", 0.0, 0.0, 1.0, 1.0), S("AABB", 1.5, 0.0, 2.0, 1.0), None),
    # -- AABB / OBB
    "aabb-obb": (S("AABB", 0.0, 0.0, 2.0, 2.0), S("OBB", 3.0, 1.0, 1.5, 0.5, 0.0),
                 (1.0, 0.0), 0.5, [(1.75, 0.5), (1.75, 1.5)]),
    # -- AABB / polygon: touching along x = 1 at the corner (1, 0)
    "aabb-polygon-touch": (S("AABB", 0.0, 0.0, 1.0, 1.0), S("Polygon", ((1.0, 0.0), (2.0, 0.0), (2.0, 1.0))),
                           (1.0, 0.0), 0.0, [(1.0, 0.0)]),
    # -- OBB / OBB
    "obbs": (S("OBB", 0.0, 0.0, 1.0, 1.0, 0.0), S("OBB", 1.5, 0.0, 1.0, 1.0, 0.0),
             (1.0, 0.0), 0.5, [(0.75, -1.0), (0.75, 1.0)]),
    # a diamond's corner into a's right face
    "obb-diamond": (S("OBB", 0.0, 0.0, 1.0, 1.0, 0.0), S("OBB", 2.2, 0.0, 1.0, 1.0, math.pi / 4),
                    (1.0, 0.0), 1.0 - (2.2 - R2), [((1.0 + 2.2 - R2) / 2, 0.0)]),
    # -- OBB / polygon: the tilted box's right face into the polygon's left face x = 0.5
    "obb-polygon": (S("OBB", 0.0, 0.0, 1.0, 1.0, 0.3), S("Polygon", ((0.5, -3.0), (3.0, -3.0), (3.0, 3.0), (0.5, 3.0))),
                    (1.0, 0.0), math.cos(0.3) + math.sin(0.3) - 0.5,
                    [((math.cos(0.3) + math.sin(0.3) + 0.5) / 2, math.sin(0.3) - math.cos(0.3)),
                     ((math.cos(0.3) - math.sin(0.3) + 0.5) / 2, math.sin(0.3) + math.cos(0.3))]),
    # -- polygon / polygon
    "triangles-vertex-touch": (S("Polygon", TRI), S("Polygon", ((4.0, 0.0), (8.0, 0.0), (4.0, 3.0))),
                               (0.6, 0.8), 0.0, [(4.0, 0.0)]),
    "squares": (S("Polygon", ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))),
                S("Polygon", ((1.5, 0.5), (3.5, 0.5), (3.5, 2.5), (1.5, 2.5))),
                (1.0, 0.0), 0.5, [(1.75, 0.5), (1.75, 2.0)]),
    "polygons-apart": (S("Polygon", TRI), S("Polygon", ((5.0, 0.0), (8.0, 0.0), (5.0, 3.0))), None),
}


def _close(u, v, tol=1e-12):
    return abs(u - v) <= tol


def _same_points(got, want, tol=1e-12):
    if len(got) != len(want):
        return False
    rest = list(want)
    for p in got:
        for q in rest:
            if _close(p[0], q[0], tol) and _close(p[1], q[1], tol):
                rest.remove(q)
                break
        else:
            return False
    return True


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_answers(fc, name):
    sa, sb, *expected = KNOWN[name]
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    for first, second, sign in ((a, b, 1.0), (b, a, -1.0)):
        got = fc.contact(first, second)
        if expected == [None]:
            assert got is None
            assert fc.collide(first, second) is False
            continue
        normal, depth, points = expected
        assert isinstance(got, fc.Contact)
        assert type(got.depth) is float and all(type(v) is float for v in got.normal)
        assert _close(got.normal[0], sign * normal[0]) and _close(got.normal[1], sign * normal[1]), got
        assert _close(got.depth, depth), got
        if depth == 0.0:
            # touching is exactly 0.0
            assert got.depth == 0.0, got
        assert _same_points(got.points, points), got


def test_known_answers_cover_every_pair_of_kinds():
    pairs = {tuple(sorted((v[0][0], v[1][0]))) for v in KNOWN.values()}
    assert len(pairs) == 21


def test_exact_values_where_no_rounding_happens(fc):
    c = fc.contact(fc.Circle(0, 0, 1), fc.Circle(1.5, 0, 1))
    assert c == ((1.0, 0.0), 0.5, ((0.75, 0.0),))
    assert c.normal == (1.0, 0.0) and c.depth == 0.5 and c.points == ((0.75, 0.0),)
    n, d, pts = fc.contact(fc.AABB(0, 0, 2, 2), fc.AABB(1, 1, 4, 4))
    assert (n, d) == ((1.0, 0.0), 1.0)


def _convex_touching_pairs():
    """Pairs with a convex shape at the edge of the verdict: touching exactly, a hair
    apart or in, flat boxes, round shapes on faces and corners, and the differential
    tests' adversarial families, also at 1e6."""
    from test_differential import build
    from test_differential_contact import CASES

    convex = ("AABB", "OBB", "Polygon")
    for spec_a, spec_b in CASES:
        if spec_a[0] in convex or spec_b[0] in convex:
            yield build, spec_a, spec_b, None
            yield build, spec_a, spec_b, (1e6, -3e6)
    square = ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
    for gap in (0.0, 2.0 ** -40, -(2.0 ** -40), 0.5, 1e-300):
        for box in (("Polygon", square), ("AABB", (0.0, 0.0, 2.0, 2.0)), ("OBB", (1.0, 1.0, 1.0, 1.0, 0.0))):
            # a circle on the right face and at the top-right corner's diagonal, a
            # capsule lying along the top face, a segment ending on it, a point
            yield build, ("Circle", (3.0 + gap, 1.0, 1.0)), box, None
            yield build, ("Circle", (2.0 + 0.6 + gap, 2.0 + 0.8, 1.0)), box, None
            yield build, ("Capsule", (0.5, 2.5 + gap, 1.5, 2.5 + gap, 0.5)), box, None
            yield build, ("Segment", (1.0, 2.0 + gap, 1.0, 3.0)), box, None
            yield build, ("Circle", (2.0 + gap, 0.5, 0.0)), box, None
        for shift in (0.0, 0.5, 1.999, 2.0, 2.0 + 2.0 ** -51):
            edge = 2.0 + gap
            yield build, ("AABB", (0.0, 0.0, 2.0, 2.0)), ("AABB", (edge, shift, edge + 1.0, shift + 1.0)), None
            yield build, ("Polygon", square), ("AABB", (edge, shift, edge + 1.0, shift + 1.0)), None
            yield build, ("Polygon", square), ("Polygon", tuple((x + edge, y + shift) for x, y in square)), None
            yield build, ("OBB", (1.0, 1.0, 1.0, 1.0, 0.0)), ("Polygon", tuple((x + edge, y + shift) for x, y in square)), None
            # a flat box (zero height) lying on the square's top face, or just above it
            yield build, ("Polygon", square), ("OBB", (1.0 + shift, 2.0 + gap, 1.0, 0.0, 0.0)), None
            yield build, ("Polygon", square), ("AABB", (shift, 2.0 + gap, shift + 1.0, 2.0 + gap)), None


def test_convex_contact_is_none_exactly_when_collide_is_false(fc):
    """A convex shape with any other: contact reads collide's verdict from its own
    work (the faces' depths are the separating axis test's gaps; a round shape's
    nearest-edge search is round_convex_collide's) instead of running collide first;
    on every touching, flat and far-away case the two must still agree, both orders."""
    checked = hits = 0
    for build, spec_a, spec_b, move in _convex_touching_pairs():
        a, b = build(fc, spec_a), build(fc, spec_b)
        if move is not None:
            a, b = a.translated(*move), b.translated(*move)
        for first, second in ((a, b), (b, a)):
            hit = fc.collide(first, second)
            c = fc.contact(first, second)
            assert (c is not None) is hit, (first, second, c)
            checked += 1
            hits += hit
    # the cases are about the edge: both verdicts occur, and plenty of each
    assert checked > 300 and 0.2 * checked < hits < 0.9 * checked, (checked, hits)


def test_equal_shapes_give_one_contact_both_ways(fc):
    for spec in (S("Polygon", HEX), S("OBB", 1.0, 2.0, 1.0, 0.5, 0.3), S("Circle", 1.0, 1.0, 0.0),
                 S("AABB", 0.0, 0.0, 0.0, 0.0), S("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0)):
        a, b = make_hull(fc, spec), make_hull(fc, spec)
        c1, c2 = fc.contact(a, b), fc.contact(b, a)
        # equal shapes cannot tell which came first: the same contact both ways
        assert c1 == c2
        assert math.isfinite(c1.normal[0]) and abs(math.hypot(*c1.normal) - 1.0) < 1e-15
    # two points: the documented fixed normal of the canonical pair
    p = fc.contact(fc.Circle(1, 1, 0), fc.Circle(1, 1, 0))
    assert p == ((1.0, 0.0), 0.0, ((1.0, 1.0),))
    hexes = fc.contact(make_hull(fc, S("Polygon", HEX)), make_hull(fc, S("Polygon", HEX)))
    assert _close(hexes.depth, math.sqrt(3.0))


def test_repeated_vertex_written_into_a_polygon_array(fc):
    """A ring written into ``PolygonArray.vertices`` is not checked again: a repeated
    vertex there (a flat run in the cross products a face's depth climbs over) must
    give the contact of the polygon without it, in either argument."""
    hexagon = [(math.cos(math.pi * i / 3), math.sin(math.pi * i / 3)) for i in range(6)]
    seven = [(math.cos(2 * math.pi * i / 7), math.sin(2 * math.pi * i / 7)) for i in range(7)]
    checked = 0
    for j in range(6):
        ring = hexagon[: j + 1] + [hexagon[j]] + hexagon[j + 1 :]
        arr = fc.PolygonArray([seven])
        arr.vertices[0] = ring
        for k in range(24):
            a = 2 * math.pi * k / 24
            other = [(1.2 + 0.8 * math.cos(a + 2 * math.pi * i / 5),
                      0.3 + 0.8 * math.sin(a + 2 * math.pi * i / 5)) for i in range(5)]
            for first in (True, False):
                pair = (arr, fc.PolygonArray([other])) if first else (fc.PolygonArray([other]), arr)
                got = fc.contact(*pair)
                plain = (fc.Polygon(hexagon), fc.Polygon(other))
                want = fc.contact(*(plain if first else plain[::-1]))
                assert want is not None and got.hit[0]
                # the same polygon from another first vertex: local frames that differ,
                # so equal to rounding (an early stop in the climb is off by 0.08)
                assert got.depth[0] == pytest.approx(want.depth, abs=1e-12)
                assert tuple(got.normal[0]) == pytest.approx(want.normal, abs=1e-12)
                checked += 1
    assert checked == 288


@pytest.mark.parametrize("position", ["a", "b"])
@pytest.mark.parametrize("bad", [None, 1.0, (0.0, 0.0, 1.0), "Circle(0, 0, 1)"])
def test_bad_input_names_the_argument(fc, position, bad):
    good = fc.Circle(0.0, 0.0, 1.0)
    # contact takes shape arrays too, so the message names both, as collide's does
    with pytest.raises(TypeError, match=rf"^{position} must be a shape \(Circle.*or a shape array"):
        fc.contact(bad, good) if position == "a" else fc.contact(good, bad)


def test_other_backends_shapes_are_rejected(ref, ext):
    with pytest.raises(TypeError, match="^b must be"):
        ref.contact(ref.Circle(0, 0, 1), ext.Circle(0, 0, 1))
    with pytest.raises(TypeError, match="^a must be"):
        ext.contact(ref.Circle(0, 0, 1), ext.Circle(0, 0, 1))


# ------------------------------------------------------------------------- properties

FAST = settings(max_examples=60, database=None)


def _vec(c):
    return c.normal[0], c.normal[1]


def check_contact(fc, sa, sb, L, tol):
    """Every promised property of contact(a, b), one order; returns the contact."""
    a, b = make_hull(fc, sa), make_hull(fc, sb)
    c = fc.contact(a, b)
    hit = fc.collide(a, b)
    assert (c is not None) is hit
    if c is None:
        return None
    nx, ny = _vec(c)
    assert abs(math.hypot(nx, ny) - 1.0) <= 1e-12
    assert c.depth >= 0.0 and math.isfinite(c.depth)
    assert len(c.points) in (1, 2)
    # moved by normal * depth: touching; a little further: apart
    moved = translate(sb, nx * c.depth, ny * c.depth)
    assert oracle_distance(sa, moved) <= tol, (c, oracle_distance(sa, moved))
    extra = 1e-6 * L
    further = translate(sb, nx * (c.depth + extra), ny * (c.depth + extra))
    assert oracle_distance(sa, further) >= 0.5 * extra, c
    # contact points lie within depth of both shapes
    for p in c.points:
        assert point_distance(sa, p) <= c.depth + tol, (c, p)
        assert point_distance(sb, p) <= c.depth + tol, (c, p)
    return c


def _contact_case(fc, sa, sb):
    L = max(size_of(sa, sb), 1.0)
    tol = REL * L
    c1 = check_contact(fc, sa, sb, L, tol)
    c2 = check_contact(fc, sb, sa, L, tol)
    if c1 is not None and make_hull(fc, sa) == make_hull(fc, sb):
        # equal shapes cannot tell which came first: the same contact both ways
        assert c2 == c1
    elif c1 is not None:
        # exact symmetry: negated normal, same depth and points
        assert c2.normal == (-c1.normal[0], -c1.normal[1])
        assert c2.depth == c1.depth and c2.points == c1.points
    else:
        assert c2 is None


@pytest.mark.parametrize("ka, kb", PAIRS)
@FAST
@given(data=st.data())
def test_contact_properties(fc, ka, kb, data):
    sa = data.draw(shape_specs(ka), label="a")
    sb = data.draw(shape_specs(kb), label="b")
    _contact_case(fc, sa, sb)


@pytest.mark.parametrize("ka, kb", PAIRS)
@FAST
@given(data=st.data())
def test_contact_properties_small_unit_shapes(fc, ka, kb, data):
    # a smaller field: overlaps, crossings and containment are common
    sa = data.draw(shape_specs(ka, lim=2, size_lim=1), label="a")
    sb = data.draw(shape_specs(kb, lim=2, size_lim=1), label="b")
    _contact_case(fc, sa, sb)


OFFSETS = [(1e6, 1e6), (-1e6, 3e6)]


@pytest.mark.parametrize("ka, kb", PAIRS)
@settings(max_examples=40, database=None)
@given(data=st.data())
def test_contact_far_from_origin(fc, ka, kb, data):
    """Shapes moved by 1e6 give the contact of the unmoved ones, up to 1e-7 relative.

    A near tie between two faces may resolve the other way once the coordinates are
    rounded; either face is then a right answer, so the moved contact is checked
    against the unmoved shapes' geometry rather than against the unmoved contact.
    """
    sa = data.draw(shape_specs(ka, lim=2, size_lim=1), label="a")
    sb = data.draw(shape_specs(kb, lim=2, size_lim=1), label="b")
    L = max(size_of(sa, sb), 1.0)
    tol = 1e-7 * L
    a0, b0 = make_hull(fc, sa), make_hull(fc, sb)
    c0 = fc.contact(a0, b0)
    for dx, dy in OFFSETS:
        c1 = fc.contact(make_hull(fc, translate(sa, dx, dy)), make_hull(fc, translate(sb, dx, dy)))
        if c0 is None or c1 is None:
            # only a borderline verdict (touching within rounding) may differ
            c = c0 or c1
            if c is not None:
                assert c.depth <= tol
            continue
        assert abs(c1.depth - c0.depth) <= tol
        nx, ny = _vec(c1)
        assert abs(math.hypot(nx, ny) - 1.0) <= 1e-12
        moved = translate(sb, nx * c1.depth, ny * c1.depth)
        assert oracle_distance(sa, moved) <= tol
        for p in c1.points:
            q = (p[0] - dx, p[1] - dy)
            assert point_distance(sa, q) <= c1.depth + tol
            assert point_distance(sb, q) <= c1.depth + tol


def _incident_by_definition(core, mx, my):
    # every face's unit normal dotted with m, the least winning (the first on ties)
    from fastcol._ref import contacts as rc

    best, face = math.inf, 0
    for j in range(core.n):
        ok, nx, ny = rc._normal(core, j)
        if ok and nx * mx + ny * my < best:
            best, face = nx * mx + ny * my, j
    return face


@settings(max_examples=300, database=None)
@given(
    n=st.integers(3, 9),
    turn=st.floats(0.0, 2.0 * math.pi),
    angle=st.floats(0.0, 2.0 * math.pi),
    axis=st.sampled_from([None, 0, 1, 2, 3]),
)
def test_incident_face_is_the_most_anti_parallel(n, turn, angle, axis):
    # white box (reference): the incident face, found among the faces whose edge turns
    # the normal's way, is the face the definition gives, for rings, segments and the
    # segment parallel to the normal (no face turns its way: every face is compared)
    from fastcol._ref import contacts as rc

    ring = rc._Core(n, [math.cos(turn + 2 * math.pi * k / n) for k in range(n)],
                    [math.sin(turn + 2 * math.pi * k / n) for k in range(n)],
                    None, 0.0, 0.0, 0.0)
    seg = rc._round_core(-1.0, 0.5, 2.0, -1.0, 0.0)
    mx, my = math.cos(angle), math.sin(angle)
    if axis is not None:
        # a segment along the normal: no face turns its way (4 * is exact, so both
        # cross products are 4 * mx * my), and every face is compared
        mx, my = [(1.0, 0.0), (0.0, -1.0), (mx, my), (-my, mx)][axis]
        seg = rc._round_core(0.0, 0.0, 4.0 * mx, 4.0 * my, 0.0)
        assert (4.0 * my) * mx - (4.0 * mx) * my == 0.0
    for core in (ring, seg):
        assert rc._incident_face(core, mx, my) == _incident_by_definition(core, mx, my)
