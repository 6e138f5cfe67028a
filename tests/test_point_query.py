"""point_query and contains: against shapely and exact arithmetic, on both backends.

The oracles share nothing with the library: shapely (GEOS) measures the distance from
a point to a box's or polygon's boundary and to a capsule's core (a circle is its exact
formula, not shapely's buffered polygon, which would blur it); ``fractions.Fraction``
decides exactly whether a point lies inside, on or outside a polygon as stored and an
axis-aligned box.  ``contains`` must equal ``collide`` with a circle of radius 0 on
every input, and ``point_query``'s distance outside must equal ``distance`` to the bit.

Tolerances are relative to the size of the configuration (its largest coordinate or
size): ``REL`` of it for distances and boundary points.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point
from shapely.geometry import Polygon as ShapelyPolygon

from test_bad_input import NON_FINITE, WRONG_TYPES, raises_naming
from shapes import KINDS, make_hull, points, shape_specs

# distances, boundary points and the identity p == point + distance * normal hold
# within REL of the configuration's size (shapely's own rounding included)
REL = 1e-12
UP = math.inf
DOWN = -math.inf

# hard shapes: unit-sized, at 1e6, tiny, huge and degenerate (zero radius, zero width,
# zero length); specs as tests/shapes.py builds them
HARD = {
    "circle": ("Circle", 0.0, 0.0, 1.0),
    "circle-1e6": ("Circle", 1e6 + 0.5, -1e6, 2.5),
    "circle-r0": ("Circle", 3.0, 4.0, 0.0),
    "circle-tiny": ("Circle", 1e-3, 2e-3, 1e-9),
    "circle-huge": ("Circle", 0.0, 0.0, 1e9),
    "capsule": ("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0),
    "capsule-slant-1e6": ("Capsule", 1e6, 1e6, 1e6 + 3.0, 1e6 + 4.0, 0.5),
    "capsule-point-core": ("Capsule", 1.0, 1.0, 1.0, 1.0, 2.0),
    "capsule-r0": ("Capsule", 0.0, 0.0, 3.0, 4.0, 0.0),
    "capsule-tiny": ("Capsule", 0.0, 0.0, 3e-7, 1e-7, 1e-8),
    "segment": ("Segment", 0.0, 0.0, 4.0, 0.0),
    "segment-slant": ("Segment", 0.1, 0.2, 3.7, -1.3),
    "segment-point": ("Segment", 2.0, 2.0, 2.0, 2.0),
    "segment-1e6": ("Segment", 1e6, -1e6, 1e6 + 0.7, -1e6 + 0.3),
    "aabb": ("AABB", 0.0, 0.0, 4.0, 2.0),
    "aabb-1e6": ("AABB", 1e6, 1e6, 1e6 + 1.0, 1e6 + 0.5),
    "aabb-zero-width": ("AABB", 1.0, 0.0, 1.0, 3.0),
    "aabb-point": ("AABB", 1.0, 1.0, 1.0, 1.0),
    "aabb-huge": ("AABB", -1e9, -2e9, 3e9, 1e9),
    "obb": ("OBB", 0.0, 0.0, 2.0, 1.0, 0.3),
    "obb-1e6": ("OBB", 1e6, -1e6, 0.5, 0.25, 1.0),
    "obb-square-45": ("OBB", 0.0, 0.0, 1.0, 1.0, math.pi / 4),
    "obb-flat": ("OBB", 0.0, 0.0, 2.0, 0.0, 0.7),
    "obb-tiny": ("OBB", 1e-4, 0.0, 1e-7, 3e-8, 2.0),
    "triangle": ("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))),
    "pentagon": ("Polygon", tuple((math.cos(0.3 + 2 * math.pi * k / 5),
                                   math.sin(0.3 + 2 * math.pi * k / 5)) for k in range(5))),
    "polygon-1e6": ("Polygon", ((1e6, 1e6), (1e6 + 3.0, 1e6 + 0.5), (1e6 + 1.5, 1e6 + 2.0),
                                (1e6 - 0.25, 1e6 + 1.0))),
    "polygon-tiny": ("Polygon", ((0.0, 0.0), (2e-6, 0.0), (1e-6, 1.5e-6))),
    "sliver": ("Polygon", ((0.0, 0.0), (10.0, 0.0), (10.0, 1e-3))),
}


def build(fc, spec):
    kind = spec[0]
    return fc.Polygon(spec[1]) if kind == "Polygon" else getattr(fc, kind)(*spec[1:])


def corners(shape):
    """The vertices of a box or polygon (a box's from its stored fields, in the ring
    order of the kernels: bottom-left first in the box's frame), counter-clockwise."""
    kind = type(shape).__name__
    if kind == "AABB":
        x0, y0, x1, y1 = shape.min_x, shape.min_y, shape.max_x, shape.max_y
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if kind == "OBB":
        c, s = math.cos(shape.angle), math.sin(shape.angle)
        return [(shape.cx + i * shape.half_w * c - j * shape.half_h * s,
                 shape.cy + i * shape.half_w * s + j * shape.half_h * c)
                for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return [tuple(v) for v in shape.vertices]


def size_of(shape, p=(0.0, 0.0)):
    """The configuration's size: its largest coordinate or extent (at least 1e-300)."""
    kind = type(shape).__name__
    vals = [abs(p[0]), abs(p[1]), 1e-300]
    if kind == "Circle":
        vals += [abs(shape.x), abs(shape.y), shape.r]
    elif kind in ("Capsule", "Segment"):
        vals += [abs(shape.ax), abs(shape.ay), abs(shape.bx), abs(shape.by)]
        vals.append(shape.r if kind == "Capsule" else 0.0)
    else:
        vals += [abs(c) for v in corners(shape) for c in v]
    return max(vals)


def solid(shape):
    """Whether the shape has an inside (area > 0)."""
    kind = type(shape).__name__
    if kind == "Circle":
        return shape.r > 0.0
    if kind == "Capsule":
        return shape.r > 0.0
    if kind == "Segment":
        return False
    return ShapelyPolygon(corners(shape)).area > 0.0


def boundary_distance(shape, p):
    """Unsigned distance from p to the shape's boundary, by an oracle."""
    kind = type(shape).__name__
    if kind == "Circle":
        return abs(math.hypot(p[0] - shape.x, p[1] - shape.y) - shape.r)
    if kind in ("Capsule", "Segment"):
        r = shape.r if kind == "Capsule" else 0.0
        core = (LineString([(shape.ax, shape.ay), (shape.bx, shape.by)])
                if (shape.ax, shape.ay) != (shape.bx, shape.by) else Point(shape.ax, shape.ay))
        return abs(core.distance(Point(p)) - r)
    verts = corners(shape)
    ring = ShapelyPolygon(verts)
    if ring.area == 0.0:
        return LineString(verts + verts[:1]).distance(Point(p))
    return ring.exterior.distance(Point(p))


def covered(shape, p):
    """Whether p lies in the closed shape, by an oracle (rounded for round shapes)."""
    kind = type(shape).__name__
    if kind == "Circle":
        return math.hypot(p[0] - shape.x, p[1] - shape.y) <= shape.r
    if kind in ("Capsule", "Segment"):
        r = shape.r if kind == "Capsule" else 0.0
        core = (LineString([(shape.ax, shape.ay), (shape.bx, shape.by)])
                if (shape.ax, shape.ay) != (shape.bx, shape.by) else Point(shape.ax, shape.ay))
        return core.distance(Point(p)) <= r
    verts = corners(shape)
    geom = ShapelyPolygon(verts)
    if geom.area == 0.0:
        return LineString(verts + verts[:1]).distance(Point(p)) == 0.0
    return geom.covers(Point(p))


def probes(shape):
    """Adversarial points for a shape: its vertices and core ends, a hair either side
    of them, edge midpoints and points along edges, its centre, and points far away."""
    kind = type(shape).__name__
    if kind == "Circle":
        base = [(shape.x, shape.y), (shape.x + shape.r, shape.y), (shape.x, shape.y - shape.r),
                (shape.x + 0.6 * shape.r, shape.y + 0.8 * shape.r)]
    elif kind in ("Capsule", "Segment"):
        a, b = (shape.ax, shape.ay), (shape.bx, shape.by)
        r = shape.r if kind == "Capsule" else 0.0
        ex, ey = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ex, ey) or 1.0
        nx, ny = -ey / length, ex / length
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        base = [a, b, mid, (mid[0] + nx * r, mid[1] + ny * r),
                (mid[0] - nx * r * 0.5, mid[1] - ny * r * 0.5),
                (b[0] + ex / length * r, b[1] + ey / length * r)]
    else:
        verts = corners(shape)
        base = list(verts)
        n = len(verts)
        for i in range(n):
            a, b = verts[i], verts[(i + 1) % n]
            for t in (0.5, 0.25, 1 / 3):
                base.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
        base.append((sum(v[0] for v in verts) / n, sum(v[1] for v in verts) / n))
    out = []
    for x, y in base:
        out.append((x, y))
        # one ulp either way (off 0.0: the least subnormal)
        for dx, dy in ((UP, 0), (DOWN, 0), (0, UP), (0, DOWN)):
            out.append((math.nextafter(x, dx) if dx else x, math.nextafter(y, dy) if dy else y))
    s = size_of(shape)
    cx, cy = out[0]
    out += [(cx + 3 * s + 1.0, cy), (cx, cy - 2 * s - 1.0), (cx + 1e6, cy - 1e6),
            (cx - 0.37 * s, cy + 0.21 * s)]
    return out


CASES = [pytest.param(spec, id=name) for name, spec in HARD.items()]


def check_query(fc, shape, p):
    """Every property of one point query, against the oracles."""
    q = fc.point_query(shape, p)
    inside = fc.contains(shape, p)
    (qx, qy), d, (nx, ny) = q
    assert type(d) is float and type(inside) is bool
    s = size_of(shape, p)
    tol = REL * s
    # contains is collide with a zero circle
    assert inside == fc.collide(shape, fc.Circle(p[0], p[1], 0.0))
    # the sign follows contains
    if d < 0.0:
        assert inside
    if d > 0.0:
        assert not inside
    if not inside:
        assert d > 0.0
        # outside: distance's answer, to the bit
        assert d == fc.distance(shape, fc.Circle(p[0], p[1], 0.0))
    if not solid(shape):
        assert d >= 0.0
    # |distance| against the oracle, the boundary point on the boundary
    assert abs(abs(d) - boundary_distance(shape, p)) <= tol, (q, boundary_distance(shape, p))
    assert boundary_distance(shape, (qx, qy)) <= tol
    # a unit normal, and p == point + distance * normal
    assert abs(math.hypot(nx, ny) - 1.0) <= 4e-16
    assert math.hypot(qx + d * nx - p[0], qy + d * ny - p[1]) <= tol
    # the oracle's verdict where the point is clear of the boundary
    if boundary_distance(shape, p) > 8 * tol:
        assert inside == covered(shape, p)
    # the normal points out: a step along it leaves a solid shape, a step back enters it
    if solid(shape):
        step = 1e-6 * min_extent(shape)
        out_pt = (qx + step * nx, qy + step * ny)
        in_pt = (qx - step * nx, qy - step * ny)
        if step > 64 * REL * size_of(shape):
            assert not covered(shape, out_pt), (q, out_pt)
            # (stepping back from a corner along one edge's normal can leave by the
            # other edge: only away from the corners)
            if kind_of(shape) in ("Circle", "Capsule") or min(
                    math.dist((qx, qy), v) for v in corners(shape)) > 4 * step:
                assert covered(shape, in_pt), (q, in_pt)


def kind_of(shape):
    return type(shape).__name__


def min_extent(shape):
    """The smallest extent of a solid shape (its thickness)."""
    kind = type(shape).__name__
    if kind == "Circle":
        return shape.r
    if kind == "Capsule":
        return shape.r
    verts = corners(shape)
    geom = ShapelyPolygon(verts)
    return geom.area / max(geom.length, 1e-300)


@pytest.mark.parametrize("spec", CASES)
def test_hard_points_against_the_oracles(fc, spec):
    shape = build(fc, spec)
    for p in probes(shape):
        check_query(fc, shape, p)


@settings(max_examples=150)
@given(kind=st.sampled_from(KINDS), data=st.data(), offset=st.sampled_from([0.0, 1e6, -3e5]))
def test_random_points_against_the_oracles(fc, kind, data, offset):
    spec = data.draw(shape_specs(kind))
    from shapes import translate

    shape = make_hull(fc, translate(spec, offset, offset))
    p = data.draw(points(12))
    check_query(fc, shape, (p[0] + offset, p[1] + offset))


# ------------------------------------------------------------------- hand-worked answers

KNOWN = {
    # circle: outside along a 3-4-5 triangle, inside, at the centre (normal (1, 0))
    "circle-out": (("Circle", 0.0, 0.0, 1.0), (3.0, 4.0), ((0.6, 0.8), 4.0, (0.6, 0.8))),
    "circle-in": (("Circle", 0.0, 0.0, 2.0), (0.0, -0.5), ((0.0, -2.0), -1.5, (0.0, -1.0))),
    "circle-centre": (("Circle", 1.0, 2.0, 3.0), (1.0, 2.0), ((4.0, 2.0), -3.0, (1.0, 0.0))),
    "circle-r0-on": (("Circle", 1.0, 2.0, 0.0), (1.0, 2.0), ((1.0, 2.0), 0.0, (1.0, 0.0))),
    # capsule: beside the core, beyond an end, on the core (its left perpendicular)
    "capsule-side": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (2.0, -3.0),
                     ((2.0, -1.0), 2.0, (0.0, -1.0))),
    "capsule-end": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (7.0, 4.0),
                    ((4.6, 0.8), 4.0, (0.6, 0.8))),
    "capsule-inside": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (1.0, 0.25),
                       ((1.0, 1.0), -0.75, (0.0, 1.0))),
    "capsule-on-core": (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (3.0, 0.0),
                        ((3.0, 1.0), -1.0, (0.0, 1.0))),
    "capsule-on-core-reversed": (("Capsule", 4.0, 0.0, 0.0, 0.0, 1.0), (3.0, 0.0),
                                 ((3.0, -1.0), -1.0, (0.0, -1.0))),
    "capsule-point-core-centre": (("Capsule", 1.0, 1.0, 1.0, 1.0, 2.0), (1.0, 1.0),
                                  ((3.0, 1.0), -2.0, (1.0, 0.0))),
    # segment: no inside; on it, its left perpendicular; a point segment (1, 0)
    "segment-on": (("Segment", 0.0, 0.0, 0.0, 4.0), (0.0, 1.0), ((0.0, 1.0), 0.0, (-1.0, 0.0))),
    "segment-beside": (("Segment", 0.0, 0.0, 4.0, 0.0), (1.0, 2.0), ((1.0, 0.0), 2.0, (0.0, 1.0))),
    "segment-end": (("Segment", 0.0, 0.0, 4.0, 0.0), (7.0, -4.0), ((4.0, 0.0), 5.0, (0.6, -0.8))),
    "segment-point-on": (("Segment", 2.0, 2.0, 2.0, 2.0), (2.0, 2.0), ((2.0, 2.0), 0.0, (1.0, 0.0))),
    # aabb: inside (least depth; ties: ring order bottom, right, top, left), on a side,
    # at a corner (the lower-numbered edge), outside at a corner
    "aabb-in": (("AABB", 0.0, 0.0, 4.0, 2.0), (3.5, 1.0), ((4.0, 1.0), -0.5, (1.0, 0.0))),
    "aabb-in-tie": (("AABB", 0.0, 0.0, 2.0, 2.0), (1.0, 1.0), ((1.0, 0.0), -1.0, (0.0, -1.0))),
    "aabb-in-tie-top-left": (("AABB", 0.0, 0.0, 4.0, 4.0), (1.0, 3.0),
                             ((1.0, 4.0), -1.0, (0.0, 1.0))),
    "aabb-on-top": (("AABB", 0.0, 0.0, 4.0, 2.0), (1.0, 2.0), ((1.0, 2.0), 0.0, (0.0, 1.0))),
    "aabb-corner-top-right": (("AABB", 0.0, 0.0, 4.0, 2.0), (4.0, 2.0),
                              ((4.0, 2.0), 0.0, (1.0, 0.0))),
    "aabb-corner-top-left": (("AABB", 0.0, 0.0, 4.0, 2.0), (0.0, 2.0),
                             ((0.0, 2.0), 0.0, (0.0, 1.0))),
    "aabb-corner-bottom-left": (("AABB", 0.0, 0.0, 4.0, 2.0), (0.0, 0.0),
                                ((0.0, 0.0), 0.0, (0.0, -1.0))),
    "aabb-out-corner": (("AABB", 0.0, 0.0, 4.0, 2.0), (7.0, 6.0), ((4.0, 2.0), 5.0, (0.6, 0.8))),
    "aabb-out-side": (("AABB", 0.0, 0.0, 4.0, 2.0), (-3.0, 1.0), ((0.0, 1.0), 3.0, (-1.0, 0.0))),
    "aabb-zero-width-on": (("AABB", 1.0, 0.0, 1.0, 3.0), (1.0, 2.0), ((1.0, 2.0), 0.0, (1.0, 0.0))),
    "aabb-1e6-in": (("AABB", 1e6, 1e6, 1e6 + 4.0, 1e6 + 2.0), (1e6 + 1.0, 1e6 + 1.5),
                    ((1e6 + 1.0, 1e6 + 2.0), -0.5, (0.0, 1.0))),
    # obb at angle 0 is an AABB about its centre
    "obb-in": (("OBB", 0.0, 0.0, 2.0, 1.0, 0.0), (1.5, 0.0), ((2.0, 0.0), -0.5, (1.0, 0.0))),
    "obb-on-bottom": (("OBB", 0.0, 0.0, 2.0, 1.0, 0.0), (0.5, -1.0), ((0.5, -1.0), 0.0, (0.0, -1.0))),
    "obb-out": (("OBB", 0.0, 0.0, 2.0, 1.0, 0.0), (0.5, 4.0), ((0.5, 1.0), 3.0, (0.0, 1.0))),
    # polygon: inside (least depth), on the hypotenuse, at a vertex, outside
    "triangle-in": (("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))), (0.5, 1.0),
                    ((0.0, 1.0), -0.5, (-1.0, 0.0))),
    "triangle-in-hypotenuse": (("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))), (1.5, 2.0),
                               ((1.75, 2.25), -0.25 * math.sqrt(2.0),
                                (math.sqrt(0.5), math.sqrt(0.5)))),
    "triangle-on-edge": (("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))), (1.0, 3.0),
                         ((1.0, 3.0), 0.0, (math.sqrt(0.5), math.sqrt(0.5)))),
    "triangle-vertex-0": (("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))), (0.0, 0.0),
                          ((0.0, 0.0), 0.0, (0.0, -1.0))),
    "triangle-vertex-1": (("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))), (4.0, 0.0),
                          ((4.0, 0.0), 0.0, (0.0, -1.0))),
    "triangle-out": (("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))), (2.0, -3.0),
                     ((2.0, 0.0), 3.0, (0.0, -1.0))),
}


@pytest.mark.parametrize("spec, p, want", KNOWN.values(), ids=list(KNOWN))
def test_known_answers(fc, spec, p, want):
    q = fc.point_query(build(fc, spec), p)
    (qx, qy), d, (nx, ny) = q
    (wx, wy), wd, (wnx, wny) = want
    assert d == pytest.approx(wd, rel=1e-15, abs=1e-15)
    assert (qx, qy) == pytest.approx((wx, wy), rel=1e-15, abs=1e-15)
    assert (nx, ny) == pytest.approx((wnx, wny), rel=1e-15, abs=1e-15)
    assert q.point == (qx, qy) and q.distance == d and q.normal == (nx, ny)
    assert fc.contains(build(fc, spec), p) == (wd <= 0.0)


def test_boundary_answers_are_exact(fc):
    # on a boundary the distance is exactly 0.0 and the point is the query point itself
    for spec, p in [(("AABB", 0.0, 0.0, 4.0, 2.0), (4.0, 1.0)),
                    (("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))), (1.0, 3.0)),
                    (("Segment", 0.1, 0.2, 0.1, 0.9), (0.1, 0.5)),
                    (("Capsule", 0.0, 0.0, 4.0, 0.0, 1.0), (2.0, 1.0))]:
        q = fc.point_query(build(fc, spec), p)
        assert q.distance == 0.0 and math.copysign(1.0, q.distance) == 1.0
        assert q.point == p


# ------------------------------------------------------------- exact topology (Fraction)


def exact_class(verts, p):
    """-1 outside, 0 on the boundary, 1 strictly inside the CCW ring ``verts``, by
    exact rational arithmetic; with the first edge (ring order) whose line holds p."""
    F = Fraction
    px, py = F(p[0]), F(p[1])
    signs = []
    for i in range(len(verts)):
        a, b = verts[i], verts[(i + 1) % len(verts)]
        ax, ay, bx, by = F(a[0]), F(a[1]), F(b[0]), F(b[1])
        c = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        signs.append((c > 0) - (c < 0))
    if min(signs) < 0:
        return -1, None
    if 0 in signs:
        return 0, signs.index(0)
    return 1, None


def edge_probes(verts, offset):
    """Points on, next to and around the edges and vertices of a ring: points along
    each edge rounded to floats (some exactly on it) and their neighbours one ulp off."""
    out = []
    n = len(verts)
    for i in range(n):
        a, b = verts[i], verts[(i + 1) % n]
        out.append(a)
        for t in (0.5, 0.125, 0.3, 0.7, 1 / 3, 0.999):
            x = a[0] + t * (b[0] - a[0])
            y = a[1] + t * (b[1] - a[1])
            for dx in (DOWN, None, UP):
                for dy in (DOWN, None, UP):
                    out.append((math.nextafter(x, dx) if dx else x,
                                math.nextafter(y, dy) if dy else y))
    return [(x + offset, y + offset) for x, y in out]


RINGS = {
    "triangle": [(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)],
    "float-ring": [(0.1, 0.2), (3.3, -0.7), (4.1, 2.9), (0.7, 3.1)],
    "thirds": [(1 / 3, 0.0), (2.0, 1 / 7), (1.0, 5 / 3)],
    "sliver": [(0.0, 0.0), (10.0, 0.0), (10.0, 1e-3)],
}


@pytest.mark.parametrize("offset", [0.0, 1e6, -2.5e5])
@pytest.mark.parametrize("name", list(RINGS))
def test_polygon_topology_is_exact(fc, name, offset):
    ring = [(x + offset, y + offset) for x, y in RINGS[name]]
    poly = fc.Polygon(ring)
    verts = [tuple(v) for v in poly.vertices]
    seen = set()
    for p in edge_probes(verts, 0.0):
        cls, edge = exact_class(verts, p)
        seen.add(cls)
        inside = fc.contains(poly, p)
        assert inside == fc.collide(poly, fc.Circle(p[0], p[1], 0.0))
        assert inside == (cls >= 0), (p, cls)
        q = fc.point_query(poly, p)
        if cls < 0:
            assert q.distance > 0.0
        elif cls == 0:
            assert q.distance == 0.0 and q.point == p
            a, b = verts[edge], verts[(edge + 1) % len(verts)]
            ex, ey = b[0] - a[0], b[1] - a[1]
            length = math.hypot(ex, ey)
            assert q.normal == pytest.approx((ey / length, -ex / length), rel=1e-12, abs=1e-12)
        else:
            assert q.distance < 0.0
    # the probes reach every class (else this test would prove less than it claims)
    assert seen == {-1, 0, 1}


@pytest.mark.parametrize("offset", [0.0, 1e6, -3.0])
def test_aabb_topology_is_exact(fc, offset):
    box = fc.AABB(offset, offset + 1.0, offset + 2.0, offset + 1.5)
    xs = [offset, offset + 1.0, offset + 2.0]
    ys = [offset + 1.0, offset + 1.25, offset + 1.5]
    for x in xs:
        for y in ys:
            for px in (math.nextafter(x, DOWN), x, math.nextafter(x, UP)):
                for py in (math.nextafter(y, DOWN), y, math.nextafter(y, UP)):
                    inside = box.min_x <= px <= box.max_x and box.min_y <= py <= box.max_y
                    on = inside and (px in (box.min_x, box.max_x) or py in (box.min_y, box.max_y))
                    assert fc.contains(box, (px, py)) == inside
                    assert fc.collide(box, fc.Circle(px, py, 0.0)) == inside
                    d = fc.point_query(box, (px, py)).distance
                    assert (d > 0.0) == (not inside) and (d == 0.0) == on and (d < 0.0) == (inside and not on)


def test_contains_equals_collide_on_obb_corners(fc):
    # an OBB's corners as computed decide: whatever the verdict near a corner, it is
    # collide's, and the sign of point_query's distance follows it
    for spec in [("OBB", 0.0, 0.0, 2.0, 1.0, 0.3), ("OBB", 1e6, -1e6, 0.5, 0.25, 1.0),
                 ("OBB", 3.0, 1.0, 1.0, 1.0, math.pi / 4), ("OBB", 0.0, 0.0, 2.0, 0.0, 0.7)]:
        box = build(fc, spec)
        for p in probes(box):
            inside = fc.contains(box, p)
            assert inside == fc.collide(box, fc.Circle(p[0], p[1], 0.0))
            d = fc.point_query(box, p).distance
            assert (d > 0.0) == (not inside)


def test_segment_on_and_off(fc):
    # points exactly on a slanted segment (exact: Fraction) give distance 0.0 and the
    # left perpendicular; one ulp off it, a positive distance
    seg = fc.Segment(0.0, 0.0, 3.0, 1.5)
    F = Fraction
    hits = 0
    for k in range(1, 40):
        x = k * 0.0625
        for px in (math.nextafter(x, DOWN), x, math.nextafter(x, UP)):
            py = 0.5 * x
            on = F(3.0) * F(py) - F(1.5) * F(px) == 0 and 0 <= px <= 3.0
            assert fc.contains(seg, (px, py)) == on
            q = fc.point_query(seg, (px, py))
            if on:
                hits += 1
                assert q.distance == 0.0
                assert q.normal == pytest.approx((-1.5 / math.hypot(3, 1.5), 3 / math.hypot(3, 1.5)))
            else:
                assert q.distance > 0.0
    assert hits >= 39


# ------------------------------------------------------------------------------ arrays


def _array(fc, kind, shapes, dtype=np.float64):
    if kind == "Polygon":
        return fc.PolygonArray(shapes, dtype=dtype)
    rows = [[getattr(s, f) for f in FIELDS[kind]] for s in shapes]
    return getattr(fc, kind + "Array")(np.array(rows, dtype=dtype))


FIELDS = {"Circle": ("x", "y", "r"), "Capsule": ("ax", "ay", "bx", "by", "r"),
          "Segment": ("ax", "ay", "bx", "by"), "AABB": ("min_x", "min_y", "max_x", "max_y"),
          "OBB": ("cx", "cy", "half_w", "half_h", "angle")}


def _kind_shapes(fc, kind):
    return [build(fc, spec) for spec in HARD.values() if spec[0] == kind]


def _points_for(shapes, n):
    pts = []
    for s in shapes:
        pts += probes(s)
    return np.array(pts[:n], dtype=np.float64)


@pytest.mark.parametrize("kind", KINDS)
def test_arrays_equal_scalar_calls(fc, kind):
    shapes = _kind_shapes(fc, kind)
    arr = _array(fc, kind, shapes)
    n = len(shapes)
    pts = np.array([probes(s)[3 * i + 1] for i, s in enumerate(shapes)])
    # N shapes against N points, N shapes against one point, one shape against N points
    forms = [(arr, pts, lambda i: (shapes[i], tuple(pts[i]))),
             (arr, (0.5, 0.25), lambda i: (shapes[i], (0.5, 0.25))),
             (shapes[0], pts, lambda i: (shapes[0], tuple(pts[i])))]
    for shape_arg, point_arg, row in forms:
        res = fc.point_query(shape_arg, point_arg)
        hit = fc.contains(shape_arg, point_arg)
        assert isinstance(res, fc.PointQueryArray)
        assert res.point.shape == (n, 2) and res.distance.shape == (n,) and res.normal.shape == (n, 2)
        assert hit.dtype == np.bool_ and hit.shape == (n,)
        for i in range(n):
            s, p = row(i)
            q = fc.point_query(s, p)
            assert (tuple(res.point[i]), float(res.distance[i]), tuple(res.normal[i])) == tuple(q)
            assert hit[i] == fc.contains(s, p)
        # workers split the rows, the answer does not change
        res2 = fc.point_query(shape_arg, point_arg, workers=2)
        for a, b in zip(res, res2):
            assert np.array_equal(a, b)
        assert np.array_equal(fc.contains(shape_arg, point_arg, workers=-1), hit)


def test_many_rows_over_workers(fc):
    rng = np.random.default_rng(7)
    n = 3000
    boxes = np.column_stack([rng.uniform(-5, 5, n), rng.uniform(-5, 5, n),
                             rng.uniform(0, 2, n), rng.uniform(0, 2, n), rng.uniform(-4, 4, n)])
    arr = fc.OBBArray(boxes)
    pts = rng.uniform(-6, 6, (n, 2))
    one = fc.point_query(arr, pts, workers=1)
    two = fc.point_query(arr, pts, workers=2)
    for a, b in zip(one, two):
        assert np.array_equal(a, b)
    assert np.array_equal(fc.contains(arr, pts, workers=2), fc.contains(arr, pts))
    assert np.array_equal(fc.contains(arr, pts), one.distance <= 0.0)


@pytest.mark.parametrize("kind", KINDS)
def test_float32_rows(fc, kind):
    shapes = _kind_shapes(fc, kind)
    arr32 = _array(fc, kind, shapes, np.float32)
    pts32 = np.array([[0.5, 0.25]] * len(shapes), dtype=np.float32)
    res = fc.point_query(arr32, pts32)
    assert res.point.dtype == res.distance.dtype == res.normal.dtype == np.float32
    # the float32 rows, widened exactly, give the float64 answer rounded to float32
    arr64 = _array(fc, kind, [arr32[i] for i in range(len(arr32))])
    want = fc.point_query(arr64, pts32.astype(np.float64))
    for got, ref in zip(res, want):
        assert np.array_equal(got, ref.astype(np.float32))
    # a float64 point array widens the answer; one point (a tuple) does not
    assert fc.point_query(arr32, pts32.astype(np.float64)).distance.dtype == np.float64
    assert fc.point_query(arr32, (0.5, 0.25)).distance.dtype == np.float32
    assert fc.contains(arr32, pts32).dtype == np.bool_


def test_nan_rows(fc):
    arr = fc.CircleArray(np.array([[0, 0, 1], [np.nan, 0, 1], [0, 0, -1.0], [0, 0, 1]]))
    pts = np.array([[2.0, 0.0], [2.0, 0.0], [2.0, 0.0], [np.inf, 0.0]])
    res = fc.point_query(arr, pts)
    assert res.distance[0] == 1.0 and tuple(res.point[0]) == (1.0, 0.0)
    for i in (1, 2, 3):
        assert np.isnan(res.distance[i]) and np.isnan(res.point[i]).all() and np.isnan(res.normal[i]).all()
    assert fc.contains(arr, pts).tolist() == [False, False, False, False]
    assert fc.contains(arr, (0.5, 0.0)).tolist() == [True, False, False, True]
    polys = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (0, 1)]])
    polys.vertices[1, 0, 0] = np.nan
    assert fc.contains(polys, (0.25, 0.25)).tolist() == [True, False]
    assert np.isnan(fc.point_query(polys, (0.25, 0.25)).distance[1])


@pytest.mark.parametrize("kind", KINDS)
def test_empty_arrays(fc, kind):
    arr = _array(fc, kind, _kind_shapes(fc, kind))[np.zeros(0, dtype=np.int64)]
    res = fc.point_query(arr, (0.0, 0.0))
    assert res.point.shape == (0, 2) and res.distance.shape == (0,) and res.normal.shape == (0, 2)
    assert fc.contains(arr, np.zeros((0, 2))).shape == (0,)
    assert fc.point_query(fc.Circle(0, 0, 1), np.zeros((0, 2))).distance.shape == (0,)


def test_contains_out(fc):
    arr = fc.CircleArray(np.array([[0, 0, 1], [5, 0, 1]]))
    out = np.zeros(2, dtype=bool)
    assert fc.contains(arr, (0.5, 0.0), out=out) is out
    assert out.tolist() == [True, False]
    with raises_naming(TypeError, "out"):
        fc.contains(arr, (0.5, 0.0), out=np.zeros(2, dtype=np.float64))
    with raises_naming(ValueError, "out"):
        fc.contains(arr, (0.5, 0.0), out=np.zeros(3, dtype=bool))
    with raises_naming(TypeError, "out"):
        fc.contains(fc.Circle(0, 0, 1), (0.5, 0.0), out=out)


def test_read_only_and_strided_points(fc):
    pts = np.array([[0.5, 0.0, 9.0], [3.0, 0.0, 9.0]])[:, :2]
    pts.flags.writeable = False
    res = fc.point_query(fc.Circle(0, 0, 1), pts)
    assert res.distance.tolist() == [-0.5, 2.0]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("query", ["point_query", "contains"])
def test_bad_input_names_the_argument(fc, query):
    f = getattr(fc, query)
    circle = fc.Circle(0, 0, 1)
    arr = fc.CircleArray(np.zeros((3, 3)))
    for bad in WRONG_TYPES.values():
        with raises_naming(TypeError, "shape", ("point",)):
            f(bad, (0.0, 0.0))
    with raises_naming(TypeError, "shape", ("point",)):
        f([circle], (0.0, 0.0))
    with raises_naming(TypeError, "shape"):
        f("circle", np.zeros((2, 2)))
    for bad in NON_FINITE.values():
        with raises_naming(ValueError, "point", ("shape",)):
            f(circle, (bad, 0.0))
        with raises_naming(ValueError, "point", ("shape",)):
            f(arr, (0.0, bad))
    for bad in ("xy", None, 1.0, object()):
        with raises_naming(TypeError, "point", ("shape",)):
            f(circle, bad)
    with raises_naming(ValueError, "point"):
        f(circle, (1.0, 2.0, 3.0))
    with raises_naming(ValueError, "point"):
        f(arr, np.zeros((3, 3)))
    with raises_naming(TypeError, "point"):
        f(arr, np.zeros((3, 2), dtype=complex))
    with raises_naming(ValueError, "point"):
        f(arr, np.zeros((4, 2)))
    with raises_naming(TypeError, "workers"):
        f(arr, (0.0, 0.0), workers=1.5)
    with raises_naming(ValueError, "workers"):
        f(arr, (0.0, 0.0), workers=0)
    with raises_naming(ValueError, "workers"):
        f(circle, (0.0, 0.0), workers=0)
