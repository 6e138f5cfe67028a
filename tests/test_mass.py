"""``mass_properties`` on both backends, against exact arithmetic, shapely and closed forms.

The oracles are independent of the kernels' fan of triangles: polygons (and boxes as
polygons) are measured by the shoelace sums over their edges in exact ``Fraction``
arithmetic (area, first and second moments), and by shapely's ``area`` and
``centroid``; round shapes by their closed forms worked here, and capsules by a
fine polygon of their outline.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString
from shapely.geometry import Polygon as ShapelyPolygon


def exact_polygon(points):
    """``(area, cx, cy, polar moment about the centroid)`` of a counter-clockwise ring,
    exactly: the edge (shoelace) sums, with the moment moved to the centroid."""
    q = [(Fraction(x), Fraction(y)) for x, y in points]
    a = sx = sy = ixx = iyy = Fraction(0)
    for (x0, y0), (x1, y1) in zip(q, q[1:] + q[:1]):
        c = x0 * y1 - x1 * y0
        a += c
        sx += (x0 + x1) * c
        sy += (y0 + y1) * c
        ixx += (y0 * y0 + y0 * y1 + y1 * y1) * c
        iyy += (x0 * x0 + x0 * x1 + x1 * x1) * c
    area = a / 2
    cx, cy = sx / (6 * area), sy / (6 * area)
    polar = (ixx + iyy) / 12 - area * (cx * cx + cy * cy)
    return area, cx, cy, polar


def random_convex(rng, n, scale=1.0, offset=(0.0, 0.0)):
    """The hull of ``n`` random points in a disc of radius ``scale`` around ``offset``."""
    pts = []
    for _ in range(n):
        a = rng.uniform(0, 2 * math.pi)
        r = scale * math.sqrt(rng.uniform(0, 1))
        pts.append((offset[0] + r * math.cos(a), offset[1] + r * math.sin(a)))
    return pts


def close(value, exact, rel):
    return abs(Fraction(value) - exact) <= rel * abs(exact)


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1e6, -1e6), (3e8, 7.5)])
@pytest.mark.parametrize("scale", [1e-3, 1.0, 250.0])
def test_polygons_against_exact_sums(fc, offset, scale):
    rng = random.Random(17)
    for _ in range(25):
        poly = fc.Polygon.hull(random_convex(rng, rng.randint(3, 12), scale, offset))
        density = rng.uniform(0.1, 10.0)
        area, cx, cy, polar = exact_polygon(poly.vertices)
        m = fc.mass_properties(poly, density)
        assert close(m.mass, density * area, 1e-12)
        # the centroid within rounding of the polygon's size (not of its offset)
        size = Fraction(scale)
        assert abs(Fraction(m.centroid[0]) - cx) <= size * Fraction(1, 10**11) + abs(cx) * Fraction(1, 2**52)
        assert abs(Fraction(m.centroid[1]) - cy) <= size * Fraction(1, 10**11) + abs(cy) * Fraction(1, 2**52)
        assert close(m.inertia, density * polar, 1e-9)


def test_polygons_against_shapely(fc):
    rng = random.Random(5)
    for _ in range(50):
        poly = fc.Polygon.hull(random_convex(rng, rng.randint(3, 20), rng.uniform(0.5, 50)))
        geom = ShapelyPolygon(poly.vertices)
        m = fc.mass_properties(poly)
        assert m.mass == pytest.approx(geom.area, rel=1e-12)
        assert m.centroid == pytest.approx((geom.centroid.x, geom.centroid.y), rel=1e-12, abs=1e-12)


def test_triangle_fan_closed_forms(fc):
    # a right triangle with legs a, b: polar moment m (a^2 + b^2) / 18 about its centroid
    m = fc.mass_properties(fc.Polygon([(0, 0), (3, 0), (0, 6)]), density=2.0)
    assert m.mass == 18.0
    assert m.centroid == pytest.approx((1.0, 2.0), rel=1e-15)
    assert m.inertia == pytest.approx(18.0 * (9 + 36) / 18, rel=1e-14)
    # a regular hexagon of side s: area 3 sqrt(3) s^2 / 2, polar moment 5 sqrt(3) s^4 / 8
    s = 2.0
    hexagon = fc.Polygon([(s * math.cos(k * math.pi / 3), s * math.sin(k * math.pi / 3)) for k in range(6)])
    m = fc.mass_properties(hexagon)
    assert m.mass == pytest.approx(3 * math.sqrt(3) / 2 * s**2, rel=1e-14)
    assert m.centroid == pytest.approx((0.0, 0.0), abs=1e-15)
    assert m.inertia == pytest.approx(5 * math.sqrt(3) / 8 * s**4, rel=1e-14)


def test_disc(fc):
    m = fc.mass_properties(fc.Circle(3, -4, 2), density=0.5)
    assert m.mass == pytest.approx(2 * math.pi, rel=1e-15)
    assert m.centroid == (3.0, -4.0)
    assert m.inertia == pytest.approx(4 * math.pi, rel=1e-15)      # m r^2 / 2
    assert fc.mass_properties(fc.Circle(1, 1, 0)) == (0.0, (1.0, 1.0), 0.0)


@pytest.mark.parametrize("angle", [0.0, 0.3, math.pi / 2, 2.5, -1.0])
def test_rectangles(fc, angle):
    # w x h, density rho: mass rho w h, polar moment m (w^2 + h^2) / 12
    box = fc.OBB(1e6, 2.0, 1.5, 0.25, angle)
    m = fc.mass_properties(box, density=4.0)
    assert m.mass == 4.0 * 3.0 * 0.5
    assert m.centroid == (1e6, 2.0)
    assert m.inertia == pytest.approx(6.0 * (9.0 + 0.25) / 12, rel=1e-15)
    # the same box as the exact polygon of its corners (rounded once by cos and sin)
    c, s = math.cos(angle), math.sin(angle)
    corners = [(px * c - py * s, px * s + py * c)
               for px, py in ((-1.5, -0.25), (1.5, -0.25), (1.5, 0.25), (-1.5, 0.25))]
    area, _, _, polar = exact_polygon(corners)
    assert close(m.inertia, 4 * polar, 1e-14)
    aabb = fc.mass_properties(fc.AABB(-1, 10, 2, 10.5), density=4.0)
    assert aabb == (6.0, (0.5, 10.25), m.inertia)
    # zero width: a segment, no area
    assert fc.mass_properties(fc.AABB(0, 0, 0, 5)) == (0.0, (0.0, 2.5), 0.0)


@pytest.mark.parametrize("length,r", [(4.0, 1.0), (0.5, 2.0), (10.0, 0.01), (0.0, 1.5)])
def test_capsule_rectangle_plus_half_discs(fc, length, r):
    angle = 0.7
    ax, ay = 5.0, -2.0
    bx, by = ax + length * math.cos(angle), ay + length * math.sin(angle)
    m = fc.mass_properties(fc.Capsule(ax, ay, bx, by, r), density=2.0)
    # worked here: the rectangle L x 2r, and two half discs whose centroids lie 4r/(3 pi)
    # beyond the ends, each with moment m_half r^2 / 2 about its full circle's centre
    rect = 2.0 * length * 2 * r
    half = 2.0 * math.pi * r * r / 2
    d = 4 * r / (3 * math.pi)
    own = half * r * r / 2 - half * d * d          # a half disc about its own centroid
    want = rect * (length**2 + 4 * r * r) / 12 + 2 * (own + half * (length / 2 + d) ** 2)
    assert m.mass == pytest.approx(rect + 2 * half, rel=1e-14)
    assert m.centroid == pytest.approx(((ax + bx) / 2, (ay + by) / 2), rel=1e-15)
    assert m.inertia == pytest.approx(want, rel=1e-13)
    # and against a fine polygon of the outline (independent of both formulas)
    outline = LineString([(ax, ay), (bx, by)]).buffer(r, quad_segs=512) if length else \
        shapely.Point(ax, ay).buffer(r, quad_segs=512)
    area, cx, cy, polar = exact_polygon(list(outline.exterior.coords)[:-1][::-1]
                                        if not outline.exterior.is_ccw
                                        else list(outline.exterior.coords)[:-1])
    assert m.mass == pytest.approx(2.0 * float(area), rel=1e-4)
    assert m.inertia == pytest.approx(2.0 * float(polar), rel=1e-4)


def test_segment_has_no_mass(fc):
    assert fc.mass_properties(fc.Segment(0, 0, 4, 2), density=7.0) == (0.0, (2.0, 1.0), 0.0)
    assert fc.mass_properties(fc.Capsule(0, 0, 4, 2, 0.0)) == (0.0, (2.0, 1.0), 0.0)


def test_density_scales_mass_and_inertia(fc):
    poly = fc.Polygon([(0, 0), (4, 1), (3, 3), (-1, 2)])
    one = fc.mass_properties(poly)
    four = fc.mass_properties(poly, 4.0)
    assert four.mass == 4 * one.mass and four.centroid == one.centroid
    assert four.inertia == pytest.approx(4 * one.inertia, rel=1e-15)
    assert fc.mass_properties(poly, 0) == (0.0, one.centroid, 0.0)


def sample_arrays(fc, dtype=np.float64):
    rng = np.random.default_rng(3)
    n = 40
    xy = rng.uniform(-100, 100, (n, 2))
    size = rng.uniform(0.1, 5, (n, 2))
    circles = fc.CircleArray(np.column_stack([xy, size[:, 0]]).astype(dtype))
    ends = xy + rng.uniform(-3, 3, (n, 2))
    capsules = fc.CapsuleArray(np.column_stack([xy, ends, size[:, 1]]).astype(dtype))
    segments = fc.SegmentArray(np.column_stack([xy, ends]).astype(dtype))
    aabbs = fc.AABBArray(np.column_stack([xy, xy + size]).astype(dtype))
    obbs = fc.OBBArray(np.column_stack([xy, size, rng.uniform(-4, 4, n)]).astype(dtype))
    r = random.Random(9)
    polys = fc.PolygonArray([fc.Polygon.hull(random_convex(r, r.randint(3, 9), r.uniform(0.5, 9), tuple(p)))
                             for p in xy], dtype=dtype)
    return [circles, capsules, segments, aabbs, obbs, polys]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_arrays_equal_the_scalar_calls(fc, dtype):
    for arr in sample_arrays(fc, dtype):
        density = np.linspace(0.5, 3.0, len(arr))
        mass, centroid, inertia = fc.mass_properties(arr, density)
        assert mass.dtype == centroid.dtype == inertia.dtype == np.dtype(dtype)
        assert centroid.shape == (len(arr), 2)
        for i in range(len(arr)):
            m = fc.mass_properties(arr[i], float(density[i]))
            want = np.array([m.mass, *m.centroid, m.inertia]).astype(dtype)
            got = np.array([mass[i], *centroid[i], inertia[i]])
            assert np.array_equal(got, want), (type(arr).__name__, i)
        # one density for every row, and threads, change nothing else
        m1 = fc.mass_properties(arr, 2.0)
        m2 = fc.mass_properties(arr, np.full(len(arr), 2.0), workers=2)
        for a, b in zip(m1, m2):
            assert np.array_equal(a, b)


def test_rows_that_are_no_shape_give_nan(fc):
    nan = math.nan
    cases = [
        fc.CircleArray([[0, 0, 1], [nan, 0, 1], [0, 0, -1]]),
        fc.CapsuleArray([[0, 0, 1, 1, 1], [0, 0, 1, math.inf, 1], [0, 0, 1, 1, -1]]),
        fc.SegmentArray([[0, 0, 1, 1], [0, nan, 1, 1], [0, 0, 1, -math.inf]]),
        fc.AABBArray([[0, 0, 1, 1], [2, 0, 1, 1], [0, 0, nan, 1]]),
        fc.OBBArray([[0, 0, 1, 1, 0], [0, 0, -1, 1, 0], [0, 0, 1, 1, nan]]),
    ]
    polys = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)]] * 3)
    polys.vertices[1, 2, 0] = nan
    polys.counts[2] = 9          # written out of range after construction
    cases.append(polys)
    for arr in cases:
        mass, centroid, inertia = fc.mass_properties(arr)
        assert np.isfinite(mass[0]) and np.isfinite(inertia[0]) and np.isfinite(centroid[0]).all()
        assert np.isnan(mass[1:]).all() and np.isnan(inertia[1:]).all()
        assert np.isnan(centroid[1:]).all()


def test_empty_array(fc):
    mass, centroid, inertia = fc.mass_properties(fc.CircleArray(np.empty((0, 3))))
    assert mass.shape == (0,) and centroid.shape == (0, 2) and inertia.shape == (0,)


def test_bad_input(fc):
    c = fc.Circle(0, 0, 1)
    arr = fc.CircleArray([[0, 0, 1], [1, 1, 1]])
    for density in (-1.0, math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="density"):
            fc.mass_properties(c, density)
        with pytest.raises(ValueError, match="density"):
            fc.mass_properties(arr, density)
    with pytest.raises(ValueError, match=r"density\[1\]"):
        fc.mass_properties(arr, np.array([1.0, -2.0]))
    with pytest.raises(ValueError, match=r"density\[0\]"):
        fc.mass_properties(arr, np.array([math.nan, 1.0]))
    with pytest.raises(ValueError, match="density"):
        fc.mass_properties(arr, np.ones(3))
    for density in ("1", None, [1.0]):
        with pytest.raises(TypeError, match="density"):
            fc.mass_properties(c, density)
    with pytest.raises(TypeError, match="density"):
        fc.mass_properties(arr, np.array(["a", "b"]))
    for shape in (None, 3.0, (0, 0, 1), np.zeros((2, 3))):
        with pytest.raises(TypeError, match="shape"):
            fc.mass_properties(shape)
    # workers is checked for a shape too (as collide's), though one shape needs no threads
    assert fc.mass_properties(c, 1.0, workers=2) == fc.mass_properties(c)
    with pytest.raises(TypeError, match="workers"):
        fc.mass_properties(c, 1.0, workers=2.0)
    with pytest.raises(ValueError, match="workers"):
        fc.mass_properties(arr, 1.0, workers=0)


def test_backends_agree_bit_for_bit(ext, ref):
    for e, r in zip(sample_arrays(ext), sample_arrays(ref)):
        for a, b in zip(ext.mass_properties(e, 1.5), ref.mass_properties(r, 1.5)):
            assert np.array_equal(a, b, equal_nan=True)
        for i in range(len(e)):
            assert ext.mass_properties(e[i], 0.75) == ref.mass_properties(r[i], 0.75)
