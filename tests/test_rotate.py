"""Turning and moving shapes: ``rotated``, ``vertices``, ``a``/``b``, ``OBB.from_corners``,
``fc.rotate`` and ``fc.translate``, on both backends.

The turns are checked against shapely's ``affinity.rotate`` on the shapes as shapely
geometries (a circle's centre, a capsule's core, a box's corners, a polygon's ring),
against closed forms worked by hand, and the arrays against the scalar calls row by
row (bit for bit for float64).  Random cases are seeded; hard ones are made on purpose
(angles 0, pi/2, pi, tiny and huge; coordinates at 1e6; zero-size boxes; a == b).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import shapely
from shapely import affinity

KINDS = ("Circle", "Capsule", "Segment", "AABB", "OBB", "Polygon")
# the kind of the turned shape
TURNED = {"AABB": "OBB"}
ANGLES = (0.0, math.pi / 2, math.pi, -math.pi, 2 * math.pi, 1e-300, 5e-17, 1e-9, 0.7,
          -2.5, 1e6, -3e15, 1e300)


# ------------------------------------------------------------------- shape makers


def random_shape(fc, kind, rng, offset=0.0, size=1.0):
    """A shape of ``kind`` near ``(offset, offset)``, of about ``size``; a tenth of
    them degenerate (a == b, zero width)."""
    c = offset + rng.uniform(-10, 10, 2) * size
    degenerate = rng.random() < 0.1
    if kind == "Circle":
        return fc.Circle(c[0], c[1], 0.0 if degenerate else rng.uniform(0, 2) * size)
    if kind in ("Capsule", "Segment"):
        b = c if degenerate else c + rng.uniform(-3, 3, 2) * size
        args = (c[0], c[1], b[0], b[1])
        return fc.Capsule(*args, rng.uniform(0, 1) * size) if kind == "Capsule" else fc.Segment(*args)
    if kind == "AABB":
        w, h = rng.uniform(0, 3, 2) * size
        return fc.AABB(c[0], c[1], c[0] + (0.0 if degenerate else w), c[1] + h)
    if kind == "OBB":
        hw, hh = rng.uniform(0, 2, 2) * size
        return fc.OBB(c[0], c[1], 0.0 if degenerate else hw, hh, rng.uniform(-4, 4))
    n = int(rng.integers(3, 9))
    phase = rng.uniform(0, 2 * math.pi)
    radius = rng.uniform(0.5, 2) * size
    squash = rng.uniform(0.3, 1)
    pts = [(c[0] + radius * math.cos(phase + 2 * math.pi * k / n),
            c[1] + squash * radius * math.sin(phase + 2 * math.pi * k / n)) for k in range(n)]
    return fc.Polygon(pts)


def geometry(shape):
    """The shape as shapely sees its defining points: a circle's centre, a capsule's or
    segment's core, a box's or polygon's corners."""
    name = type(shape).__name__
    if name == "Circle":
        return shapely.Point(shape.x, shape.y)
    if name in ("Capsule", "Segment"):
        return shapely.LineString([shape.a, shape.b])
    return shapely.Polygon(shape.vertices)


def pivot_of(shape):
    """The default pivot worked independently: the centre, the core's midpoint, the box
    centre, the area centroid (shapely's)."""
    name = type(shape).__name__
    if name == "Circle":
        return (shape.x, shape.y)
    if name in ("Capsule", "Segment"):
        return ((shape.ax + shape.bx) / 2, (shape.ay + shape.by) / 2)
    if name == "AABB":
        return ((shape.min_x + shape.max_x) / 2, (shape.min_y + shape.max_y) / 2)
    if name == "OBB":
        return (shape.cx, shape.cy)
    c = shapely.Polygon(shape.vertices).centroid
    return (c.x, c.y)


def points_of(shape):
    """The defining points of a shape, in its own order."""
    name = type(shape).__name__
    if name == "Circle":
        return [(shape.x, shape.y)]
    if name in ("Capsule", "Segment"):
        return [shape.a, shape.b]
    return list(shape.vertices)


def close_sets(got, want, tol):
    """Whether two point lists hold the same points up to order, each within tol."""
    if len(got) != len(want):
        return False
    left = list(want)
    for p in got:
        best = min(range(len(left)), key=lambda k: math.hypot(p[0] - left[k][0], p[1] - left[k][1]))
        if math.hypot(p[0] - left[best][0], p[1] - left[best][1]) > tol:
            return False
        left.pop(best)
    return True


def scale_of(shape, about=(0.0, 0.0)):
    pts = points_of(shape) + [about]
    return max(max(abs(x), abs(y)) for x, y in pts) + 1e-300


# --------------------------------------------------------------- rotated vs shapely


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_rotated_matches_shapely(fc, kind, offset):
    rng = np.random.default_rng(35 + KINDS.index(kind) + int(offset))
    for trial in range(150):
        shape = random_shape(fc, kind, rng, offset=offset)
        angle = ANGLES[trial % len(ANGLES)] if trial < 2 * len(ANGLES) else rng.uniform(-7, 7)
        about = None if trial % 3 == 0 else tuple(offset + rng.uniform(-20, 20, 2))
        turned = shape.rotated(angle, about)
        assert type(turned).__name__ == TURNED.get(kind, kind)
        origin = pivot_of(shape) if about is None else about
        want = affinity.rotate(geometry(shape), angle, origin=origin, use_radians=True)
        want_pts = [tuple(p) for p in shapely.get_coordinates(want)]
        if isinstance(want, shapely.Polygon):
            want_pts = want_pts[:-1]
        got = points_of(turned)
        # a turn moves a point by rounding of its distance from the pivot, and shapely
        # rounds its own way: a few ulps of the coordinates' magnitude
        tol = 1e-14 * scale_of(shape, origin)
        if kind == "Polygon":
            # the stored ring may drop a vertex rounding made collinear: compare as sets
            assert close_sets(got, want_pts, tol) or close_sets(
                got, [p for p in want_pts if min(math.hypot(p[0] - q[0], p[1] - q[1])
                                                 for q in got) <= tol], tol)
        elif kind in ("Circle", "Capsule", "Segment"):
            # the ends keep their order
            for p, q in zip(got, want_pts):
                assert math.hypot(p[0] - q[0], p[1] - q[1]) <= tol, (shape, angle, about)
        else:
            # a box's new angle is remainder(angle + turn, 2*pi) with 2*pi rounded: k
            # whole turns taken off leave its axis k * 2.4e-16 rad from the exact turn
            # (documented); its centre turns by the exact cosine and sine
            start = shape.angle if kind == "OBB" else 0.0
            assert turned.angle == math.remainder(start + angle, 2 * math.pi)
            ctr = affinity.rotate(shapely.Point(pivot_of(shape)), angle, origin=origin,
                                  use_radians=True)
            assert math.hypot(turned.cx - ctr.x, turned.cy - ctr.y) <= tol
            turns = abs(start + angle) / (2 * math.pi) + 1
            extent = max(math.hypot(x - turned.cx, y - turned.cy) for x, y in got)
            if turns < 1e9:
                box_tol = tol + turns * 2.5e-16 * extent
                assert close_sets(got, want_pts, box_tol), (shape, angle, about, got, want_pts)
        # radii and half extents are carried over untouched
        if kind in ("Circle", "Capsule"):
            assert turned.r == shape.r
        if kind == "OBB":
            assert (turned.half_w, turned.half_h) == (shape.half_w, shape.half_h)


@pytest.mark.parametrize("kind", KINDS)
def test_rotated_by_two_pi_and_back(fc, kind):
    rng = np.random.default_rng(7 + KINDS.index(kind))
    for _ in range(100):
        shape = random_shape(fc, kind, rng, offset=rng.choice([0.0, 1e6]))
        about = None if rng.random() < 0.5 else tuple(rng.uniform(-20, 20, 2))
        a = rng.uniform(-10, 10)
        tol = 1e-13 * scale_of(shape, about or (0.0, 0.0))
        base = shape if kind != "AABB" else shape.rotated(0.0)   # as an OBB
        for other in (shape.rotated(2 * math.pi, about), shape.rotated(a, about).rotated(-a, about)):
            assert close_sets(points_of(other), points_of(base), tol), (shape, a, about)


def test_rotated_closed_forms(fc):
    # worked by hand: a quarter turn maps (x, y) about q to q + (-(y - qy), x - qx)
    c = fc.Circle(3, 1, 2).rotated(math.pi / 2, about=(1, 1))
    assert (round(c.x, 15), c.y, c.r) == (1.0, 3.0, 2.0)
    assert fc.Circle(3, 1, 2).rotated(1.234) == fc.Circle(3, 1, 2)   # about its centre
    s = fc.Segment(-1, 0, 1, 0).rotated(math.pi / 2)                  # about (0, 0)
    assert [round(v, 15) for v in s.a + s.b] == [0.0, -1.0, 0.0, 1.0]
    cap = fc.Capsule(2, 2, 2, 2, 0.5).rotated(math.pi, about=(0, 0))  # a == b
    assert [round(v, 15) for v in cap.a + cap.b] == [-2.0, -2.0, -2.0, -2.0] and cap.r == 0.5
    box = fc.AABB(0, 0, 4, 2).rotated(0.0)
    assert box == fc.OBB(2, 1, 2, 1, 0.0)
    flat = fc.AABB(1, 1, 1, 5).rotated(math.pi, about=(0, 0))         # zero width
    assert (flat.half_w, flat.half_h, round(flat.cx, 14), round(flat.cy, 14)) == (0.0, 2.0, -1.0, -3.0)
    assert flat.angle == math.pi                                       # remainder(pi, 2 pi)
    # an OBB's angle is the IEEE remainder by 2*pi: exactly, in [-pi, pi]
    turned = fc.OBB(0, 0, 1, 1, 3.0).rotated(0.5)
    assert turned.angle == math.remainder(3.5, 2 * math.pi) == 3.5 - 2 * math.pi
    assert fc.OBB(0, 0, 1, 1, 100.0).rotated(0.0).angle == math.remainder(100.0, 2 * math.pi)


def test_obb_spinning_for_hours_keeps_its_angle(fc):
    box = fc.OBB(0, 0, 2, 1, 0.0)
    step = 2 * math.pi / 60 / 7      # a turn every 7 s at 60 frames a second
    for _ in range(20000):
        box = box.rotated(step)
        assert -math.pi <= box.angle <= math.pi
    exact = math.remainder(20000 * step, 2 * math.pi)
    assert abs(box.angle - exact) < 1e-9
    assert (box.cx, box.cy, box.half_w, box.half_h) == (0.0, 0.0, 2.0, 1.0)


def test_polygon_rotated_is_stored_normalised(fc):
    rng = np.random.default_rng(3)
    for _ in range(50):
        poly = random_shape(fc, "Polygon", rng)
        turned = poly.rotated(rng.uniform(-7, 7), tuple(rng.uniform(-5, 5, 2)))
        assert turned == fc.Polygon(turned.vertices)                     # as Polygon stores it
        assert turned.vertices[0] == min(turned.vertices)
        assert shapely.Polygon(turned.vertices).area == pytest.approx(
            shapely.Polygon(poly.vertices).area, rel=1e-12)


def test_polygon_rotated_falls_back_to_the_hull(fc):
    # a thin sliver along a line, its middle vertex an ulp or so outside: turned, the
    # rounding puts that vertex on or inside the line in some turns; then the stored ring
    # is the hull of the turned points (the vertex dropped), never an error
    rng = np.random.default_rng(11)
    dropped = 0
    for _ in range(400):
        t = rng.uniform(0.2, 0.8)
        mid = (t * 1e3, t * 1e3 * 0.7)
        mid = (mid[0], math.nextafter(math.nextafter(mid[1], -math.inf), -math.inf))
        poly = fc.Polygon([(0.0, 0.0), mid, (1e3, 700.0), (0.0, 5.0)])
        if len(poly.vertices) != 4:
            continue
        angle = rng.uniform(-3, 3)
        turned = poly.rotated(angle, about=(0.0, 0.0))
        c, s = math.cos(angle), math.sin(angle)
        raw = [(x * c - y * s, x * s + y * c) for x, y in poly.vertices]
        assert set(turned.vertices) <= set(raw)
        assert len(turned.vertices) >= 3
        if len(turned.vertices) == 3:
            dropped += 1
            # the hull of the turned points, exactly (an independent check: Fraction signs)
            ex = [(Fraction(x), Fraction(y)) for x, y in turned.vertices]
            for k in range(3):
                (ax, ay), (bx, by), (qx, qy) = ex[k - 2], ex[k - 1], ex[k]
                assert (bx - ax) * (qy - ay) - (by - ay) * (qx - ax) > 0
    assert dropped > 0, "no turn of the sliver lost its vertex: the test proves nothing"


# -------------------------------------------------------------- vertices, a and b


def test_aabb_vertices(fc):
    assert fc.AABB(-1, 2, 3, 5).vertices == ((-1.0, 2.0), (3.0, 2.0), (3.0, 5.0), (-1.0, 5.0))
    assert fc.AABB(1, 1, 1, 1).vertices == ((1.0, 1.0),) * 4
    with pytest.raises(AttributeError):
        fc.AABB(0, 0, 1, 1).vertices = ()


def test_obb_vertices_closed_form(fc):
    rng = np.random.default_rng(5)
    for trial in range(300):
        cx, cy = rng.uniform(-10, 10, 2) + (1e6 if trial % 4 == 0 else 0.0)
        hw, hh = rng.uniform(0.01, 3, 2)
        angle = rng.uniform(-7, 7)
        box = fc.OBB(cx, cy, hw, hh, angle)
        v = box.vertices
        assert isinstance(v, tuple) and len(v) == 4 and all(type(p) is tuple for p in v)
        # exact corners of the box the stored angle's cosine and sine describe
        c, s = Fraction(math.cos(angle)), Fraction(math.sin(angle))
        signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))     # bottom-left first, CCW, own frame
        for (x, y), (su, sv) in zip(v, signs):
            ex = Fraction(cx) + su * Fraction(hw) * c - sv * Fraction(hh) * s
            ey = Fraction(cy) + su * Fraction(hw) * s + sv * Fraction(hh) * c
            assert abs(float(Fraction(x) - ex)) <= 4 * math.ulp(abs(cx) + hw + hh)
            assert abs(float(Fraction(y) - ey)) <= 4 * math.ulp(abs(cy) + hw + hh)
        ring = shapely.Polygon(v)
        assert ring.exterior.is_ccw
        assert ring.area == pytest.approx(4 * hw * hh, rel=1e-8)
    with pytest.raises(AttributeError):
        fc.OBB(0, 0, 1, 1).vertices = ()


def test_obb_vertices_are_the_box_the_queries_see(fc):
    # the queries' exact signs decide on the corners as the kernels compute them; for a
    # box centred on the origin the pair's local frame is the stored coordinates, and
    # those corners are exactly the vertices: each touches the box, which is its polygon
    rng = np.random.default_rng(8)
    for _ in range(200):
        box = fc.OBB(0.0, 0.0, *rng.uniform(0.1, 3, 2), rng.uniform(-4, 4))
        poly = fc.Polygon(box.vertices)
        for x, y in box.vertices:
            assert fc.collide(fc.Circle(x, y, 0.0), box)
            assert fc.collide(fc.Circle(x, y, 0.0), poly)
        assert fc.distance(poly, box) == 0.0


def test_capsule_and_segment_ends(fc):
    cap = fc.Capsule(1, 2, 3, 4, 0.5)
    seg = fc.Segment(-1, -2, 5, 6)
    assert (cap.a, cap.b, seg.a, seg.b) == ((1.0, 2.0), (3.0, 4.0), (-1.0, -2.0), (5.0, 6.0))
    assert all(type(v) is float for p in (cap.a, cap.b, seg.a, seg.b) for v in p)
    cap.ax = 7
    assert cap.a == (7.0, 2.0)
    for obj, name in ((cap, "a"), (cap, "b"), (seg, "a"), (seg, "b")):
        with pytest.raises(AttributeError):
            setattr(obj, name, (0.0, 0.0))


# ------------------------------------------------------------------ from_corners


def test_from_corners_gives_back_the_box(fc):
    rng = np.random.default_rng(13)
    for trial in range(300):
        centre = rng.uniform(-50, 50, 2) + (1e6 if trial % 5 == 0 else 0.0)
        size = 10.0 ** rng.uniform(-3, 3)
        hw, hh = rng.uniform(0.05, 1, 2) * size
        box = fc.OBB(centre[0], centre[1], hw, hh, rng.uniform(-7, 7))
        corners = list(box.vertices)
        tol = 1e-13 * (abs(centre).max() + size)
        for ring in (corners, corners[::-1]):
            for start in range(4):
                got = fc.OBB.from_corners(ring[start:] + ring[:start])
                assert close_sets(got.vertices, corners, tol), (box, start)
                assert math.hypot(got.cx - box.cx, got.cy - box.cy) <= tol
                assert sorted((got.half_w, got.half_h)) == pytest.approx(
                    sorted((hw, hh)), rel=1e-12, abs=tol)
        # from the first corner, counter-clockwise: the very parameters
        got = fc.OBB.from_corners(np.array(corners))
        assert got.half_w == pytest.approx(hw, rel=1e-12, abs=tol)
        assert got.half_h == pytest.approx(hh, rel=1e-12, abs=tol)
        # the first edge's direction, to the rounding of its corners' coordinates
        slack = 1e-13 + 8 * math.ulp(abs(centre).max() + size) / (2 * hw)
        assert math.remainder(got.angle - box.angle, 2 * math.pi) == pytest.approx(0.0, abs=slack)


def test_from_corners_closed_forms(fc):
    # a laser beam given by its corners, clockwise, from its far end
    beam = fc.OBB.from_corners([(10, 1), (10, -1), (0, -1), (0, 1)])
    assert (beam.cx, beam.cy) == (5.0, 0.0)
    assert (beam.half_w, beam.half_h, beam.angle) == (5.0, 1.0, math.pi)
    # a box of zero width: its axis comes from its second edge
    flat = fc.OBB(3, 4, 0.0, 2.0, 0.3)
    got = fc.OBB.from_corners(flat.vertices)
    assert got.half_w == 0.0 and got.half_h == pytest.approx(2.0, rel=1e-15)
    assert got.angle == pytest.approx(0.3, rel=1e-14)
    # a point: every corner the same
    assert fc.OBB.from_corners([(1, 1)] * 4) == fc.OBB(1, 1, 0, 0, 0.0)


@pytest.mark.parametrize("points, error", [
    ([(0, 0), (1, 0), (1, 1)], ValueError),                        # 3 corners
    ([(0, 0), (1, 0), (1, 1), (0, 1), (0, 0.5)], ValueError),      # 5
    ([(0, 0), (2, 0), (3, 1), (1, 1)], ValueError),                # a parallelogram
    ([(0, 0), (4, 0), (3, 1), (1, 1)], ValueError),                # a trapezoid
    ([(0, 0), (1, -1), (2, 0), (1, 3)], ValueError),               # a kite
    ([(0, 0), (2, 0), (0, 1), (2, 1)], ValueError),                # crossed (a bow tie)
    ([(0, 0), (1, 0), (1, float("nan")), (0, 1)], ValueError),
    ([(0, 0), (1, 0), (1, math.inf), (0, 1)], ValueError),
    ("abcd", TypeError),
    ([(0, 0), (1, 0), ("a", 1), (0, 1)], TypeError),
    (None, TypeError),
])
def test_from_corners_rejects(fc, points, error):
    with pytest.raises(error, match="points"):
        fc.OBB.from_corners(points)


def test_from_corners_tolerance_is_relative(fc):
    # a corner off by 2**-30 of the size is rejected at every scale; 2**-40 accepted
    for size in (1e-6, 1.0, 1e6):
        for off, ok in ((2.0 ** -30, False), (2.0 ** -40, True)):
            pts = [(0, 0), (size, 0), (size, size * (0.5 + off)), (0, size * 0.5)]
            if ok:
                fc.OBB.from_corners(pts)
            else:
                with pytest.raises(ValueError, match="points"):
                    fc.OBB.from_corners(pts)


# ------------------------------------------------------------ scalar bad arguments


@pytest.mark.parametrize("kind", KINDS)
def test_rotated_bad_arguments(fc, kind):
    shape = random_shape(fc, kind, np.random.default_rng(1))
    for angle in (math.nan, math.inf, -math.inf, 10 ** 400):
        with pytest.raises(ValueError, match="angle"):
            shape.rotated(angle)
    for angle in ("1", None, 1j, [1.0]):
        with pytest.raises(TypeError, match="angle"):
            shape.rotated(angle)
    for about in ((math.nan, 0.0), (0.0, math.inf), (1.0,), (1.0, 2.0, 3.0)):
        with pytest.raises(ValueError, match="about"):
            shape.rotated(1.0, about)
    for about in ("xy", 3.0, ("a", 1.0)):
        with pytest.raises(TypeError, match="about"):
            shape.rotated(1.0, about)
    # numbers of any real type are fine
    assert shape.rotated(np.float32(0.5), np.array([1, 2])) == shape.rotated(
        float(np.float32(0.5)), (1.0, 2.0))


# ------------------------------------------------------------------ fc.rotate arrays


def shape_array(fc, kind, shapes, dtype=np.float64):
    """The array of ``shapes`` (of one kind) in ``dtype``."""
    if kind == "Polygon":
        return fc.PolygonArray(shapes, dtype=dtype)
    return getattr(fc, kind + "Array")(np.array([s._values() for s in shapes], dtype=dtype))


def random_array(fc, kind, n, seed, dtype=np.float64, offset=0.0):
    rng = np.random.default_rng(seed)
    shapes = [random_shape(fc, kind, rng, offset=offset) for _ in range(n)]
    arr = shape_array(fc, kind, shapes, dtype)
    # the scalar shapes of the rows as stored (float32 rows widened)
    return arr, [arr[i] for i in range(n)]


def row_values(arr, i):
    """Row i of a result as a tuple of floats (a polygon row: its ring's vertex set)."""
    if hasattr(arr, "counts"):
        return frozenset(map(tuple, arr.vertices[i, : arr.counts[i]].tolist()))
    return tuple(arr.data[i].tolist())


def scalar_values(shape, dtype):
    """A scalar result as the row would hold it (rounded to dtype)."""
    if type(shape).__name__ == "Polygon":
        return frozenset((float(dtype(x)), float(dtype(y))) for x, y in shape.vertices)
    return tuple(float(dtype(v)) for v in shape._values())


def abouts(rng, n, offset=0.0):
    return [None, (offset + 1.5, offset - 2.25), offset + rng.uniform(-20, 20, (n, 2))]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_rotate_rows_equal_scalar_calls(fc, kind, dtype, offset):
    n = 60
    arr, shapes = random_array(fc, kind, n, 100 + KINDS.index(kind), dtype, offset)
    rng = np.random.default_rng(1)
    for angle in (0.7, math.pi, 1e-300, rng.uniform(-9, 9, n), list(rng.uniform(-1, 1, n))):
        for about in abouts(rng, n, offset):
            res = fc.rotate(arr, angle, about)
            assert type(res).__name__ == TURNED.get(kind, kind) + "Array"
            assert res.dtype == arr.dtype and len(res) == n
            for i in range(n):
                a = angle if np.ndim(angle) == 0 else float(angle[i])
                q = about if about is None or isinstance(about, tuple) else tuple(about[i])
                want = shapes[i].rotated(a, q)
                assert row_values(res, i) == scalar_values(want, dtype), (i, angle, about)
            if kind == "Polygon":
                # the padding repeats each row's last vertex, turned with it
                last = res.vertices[np.arange(n), res.counts - 1]
                for k in range(res.vertices.shape[1]):
                    pad = k >= res.counts
                    assert (res.vertices[pad, k] == last[pad]).all()
                assert (res.counts == arr.counts).all()


def test_rotate_polygon_rows_keep_their_order(fc):
    arr, shapes = random_array(fc, "Polygon", 40, 9)
    res = fc.rotate(arr, 2.0, (3.0, -1.0))
    for i in range(len(arr)):
        m = arr.counts[i]
        got = res.vertices[i, :m].tolist()
        c, s = math.cos(2.0), math.sin(2.0)
        # vertex k of the row is vertex k turned (worked directly, no library call)
        for (x, y), (gx, gy) in zip(arr.vertices[i, :m].tolist(), got):
            assert gx == 3.0 + ((x - 3.0) * c - (y + 1.0) * s)
            assert gy == -1.0 + ((x - 3.0) * s + (y + 1.0) * c)
        assert shapely.Polygon(got).exterior.is_ccw


@pytest.mark.parametrize("kind", KINDS)
def test_rotate_matches_shapely(fc, kind):
    n = 50
    arr, shapes = random_array(fc, kind, n, 300 + KINDS.index(kind))
    angles = np.random.default_rng(2).uniform(-7, 7, n)
    res = fc.rotate(arr, angles, (2.0, -3.0))
    for i in range(n):
        want = affinity.rotate(geometry(shapes[i]), angles[i], origin=(2.0, -3.0), use_radians=True)
        want_pts = [tuple(p) for p in shapely.get_coordinates(want)]
        if isinstance(want, shapely.Polygon):
            want_pts = want_pts[:-1]
        got = points_of(res[i])
        assert close_sets(got, want_pts, 1e-12 * scale_of(shapes[i], (2.0, -3.0))), i


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_rotate_in_place_and_workers(fc, kind, dtype):
    n = 50000 if fc.backend == "compiled" else 300
    arr, _ = random_array(fc, kind, 50, 7, dtype)
    arr = arr[np.arange(n) % 50]
    angles = np.random.default_rng(3).uniform(-4, 4, n)
    want = fc.rotate(arr, angles, (1.0, -2.0))
    assert (fc.rotate(arr, angles, (1.0, -2.0), workers=2).__getattribute__(
        "vertices" if kind == "Polygon" else "data") == want.__getattribute__(
        "vertices" if kind == "Polygon" else "data")).all()
    if kind == "AABB":
        out = fc.OBBArray(np.zeros((n, 5), dtype=dtype))
        assert fc.rotate(arr, angles, (1.0, -2.0), out=out) is out
        assert (out.data == want.data).all()
        return
    field = "vertices" if kind == "Polygon" else "data"
    copy = getattr(arr, field).copy()
    assert fc.rotate(arr, angles, (1.0, -2.0), out=arr, workers=2) is arr      # in place
    assert (getattr(arr, field) == getattr(want, field)).all()
    assert not (getattr(arr, field) == copy).all()


def test_rotate_frame_loop_in_place_matches_scalar_steps(fc):
    # a frame loop turning its boxes in place, step after step, is the scalar step
    boxes = fc.OBBArray([[1, 2, 1, 0.5, 0.0], [1e6, -1e6, 3, 2, 3.0]])
    scalar = [boxes[0], boxes[1]]
    for _ in range(500):
        fc.rotate(boxes, 0.05, about=(0.0, 0.0), out=boxes)
        scalar = [b.rotated(0.05, (0.0, 0.0)) for b in scalar]
    assert [boxes[0], boxes[1]] == scalar
    assert (np.abs(boxes.data[:, 4]) <= math.pi).all()


def test_rotate_out_of_another_polygon_array_takes_the_counts(fc):
    arr = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)], [(0, 0), (2, 0), (2, 2), (0, 2)]])
    out = fc.PolygonArray([[(0, 0), (1, 0), (1, 1), (0, 1)], [(5, 5), (6, 5), (5, 6)]])
    fc.rotate(arr, 1.0, out=out)
    assert out.counts.tolist() == [3, 4]
    assert out[1] == arr[1].rotated(1.0)


@pytest.mark.parametrize("kind", KINDS)
def test_rotate_nan_rows(fc, kind):
    arr, shapes = random_array(fc, kind, 8, 21)
    rows = arr.vertices if kind == "Polygon" else arr.data
    rows[1, 0] = np.nan
    rows[2, -1] = np.inf if kind != "Polygon" else rows[2, -1]
    if kind in ("Circle", "Capsule"):
        rows[3, -1] = -1.0                       # a negative radius
    if kind == "OBB":
        rows[3, 2] = -1.0                        # a negative half extent
    if kind == "AABB":
        rows[3, 0] = rows[3, 2] + 1.0            # min_x > max_x
    if kind == "Polygon":
        arr.counts[3] = 2                        # counts are data too
        arr.counts[2] = rows.shape[1] + 1
    angles = np.full(8, 0.5)
    angles[4] = np.nan
    pivots = np.zeros((8, 2))
    pivots[5, 1] = -np.inf
    res = fc.rotate(arr, angles, pivots)
    out = res.vertices if kind == "Polygon" else res.data
    shape_bad = [1, 2] + ([] if kind == "Segment" else [3])     # rows that are no shape
    bad = shape_bad + [4, 5]
    for i in range(8):
        if i in bad:
            assert np.isnan(out[i]).all(), i
        else:
            assert np.isfinite(out[i]).all() and row_values(res, i) == scalar_values(
                shapes[i].rotated(0.5, (0.0, 0.0)), np.float64)
    moved = fc.translate(arr, pivots)
    out = moved.vertices if kind == "Polygon" else moved.data
    for i in range(8):
        assert np.isnan(out[i]).all() == (i in shape_bad + [5]), i
        assert np.isnan(out[i]).any() == (i in shape_bad + [5]), i


@pytest.mark.parametrize("kind", KINDS)
def test_rotate_and_translate_empty(fc, kind):
    if kind == "Polygon":
        arr = fc.PolygonArray([])
    else:
        arr = getattr(fc, kind + "Array")(np.empty((0, 5 if kind in ("Capsule", "OBB") else
                                                    3 if kind == "Circle" else 4)))
    res = fc.rotate(arr, 1.0)
    assert len(res) == 0 and type(res).__name__ == TURNED.get(kind, kind) + "Array"
    assert len(fc.rotate(arr, np.empty(0), np.empty((0, 2)))) == 0
    assert len(fc.translate(arr, (1, 2))) == 0
    with pytest.raises(ValueError, match="angle"):
        fc.rotate(arr, np.zeros(1))


# ------------------------------------------------------------------ fc.translate


def test_translate_closed_forms(fc):
    off = (10.0, -1.0)
    assert fc.translate(fc.CircleArray([[1, 2, 3]]), off).data.tolist() == [[11, 1, 3]]
    assert fc.translate(fc.CapsuleArray([[1, 2, 3, 4, 5]]), off).data.tolist() == [[11, 1, 13, 3, 5]]
    assert fc.translate(fc.SegmentArray([[1, 2, 3, 4]]), off).data.tolist() == [[11, 1, 13, 3]]
    aabb = fc.translate(fc.AABBArray([[1, 2, 3, 4]]), off)
    assert type(aabb).__name__ == "AABBArray" and aabb.data.tolist() == [[11, 1, 13, 3]]
    assert fc.translate(fc.OBBArray([[1, 2, 3, 4, 0.5]]), off).data.tolist() == [[11, 1, 3, 4, 0.5]]
    poly = fc.translate(fc.PolygonArray([[(0, 0), (1, 0), (0, 1)], [(0, 0), (2, 0), (2, 2), (0, 2)]]),
                        np.array([[1.0, 1.0], [-2.0, 0.5]]))
    assert poly.vertices.tolist() == [[[1, 1], [2, 1], [1, 2], [1, 2]],
                                      [[-2, 0.5], [0, 0.5], [0, 2.5], [-2, 2.5]]]
    # a tiny step at 1e6 rounds as the scalar translated rounds it
    big = fc.translate(fc.CircleArray([[1e6, 1e6, 1]]), (1e-7, 3e-11))
    assert big[0] == fc.Circle(1e6, 1e6, 1).translated(1e-7, 3e-11)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_translate_rows_equal_scalar_calls(fc, kind, dtype):
    n = 40
    arr, shapes = random_array(fc, kind, n, 50 + KINDS.index(kind), dtype, 1e6)
    offsets = np.random.default_rng(4).uniform(-3, 3, (n, 2))
    for offset in ((0.1, -7.3), offsets):
        res = fc.translate(arr, offset)
        for i in range(n):
            d = offset if isinstance(offset, tuple) else tuple(offset[i])
            assert row_values(res, i) == scalar_values(shapes[i].translated(*d), dtype)
    field = "vertices" if kind == "Polygon" else "data"
    want = getattr(fc.translate(arr, offsets), field)
    assert fc.translate(arr, offsets, out=arr, workers=2) is arr
    assert (getattr(arr, field) == want).all()


# ------------------------------------------------------------------ bad arguments


def test_rotate_bad_arguments(fc):
    boxes = fc.OBBArray(np.zeros((3, 5)))
    polys = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)]] * 3)
    cases = [
        (lambda: fc.rotate(fc.OBB(0, 0, 1, 1), 1.0), TypeError, "shapes"),
        (lambda: fc.rotate(np.zeros((3, 5)), 1.0), TypeError, "shapes"),
        (lambda: fc.rotate(None, 1.0), TypeError, "shapes"),
        (lambda: fc.rotate(boxes, math.nan), ValueError, "angle"),
        (lambda: fc.rotate(boxes, -math.inf), ValueError, "angle"),
        (lambda: fc.rotate(boxes, np.float64("nan")), ValueError, "angle"),
        (lambda: fc.rotate(boxes, "1"), TypeError, "angle"),
        (lambda: fc.rotate(boxes, None), TypeError, "angle"),
        (lambda: fc.rotate(boxes, 1j), TypeError, "angle"),
        (lambda: fc.rotate(boxes, np.zeros(4)), ValueError, "angle"),
        (lambda: fc.rotate(boxes, np.zeros((3, 1))), ValueError, "angle"),
        (lambda: fc.rotate(boxes, np.zeros(3, dtype=complex)), TypeError, "angle"),
        (lambda: fc.rotate(boxes, np.array(["a", "b", "c"])), TypeError, "angle"),
        (lambda: fc.rotate(boxes, 1.0, (math.nan, 0.0)), ValueError, "about"),
        (lambda: fc.rotate(boxes, 1.0, (1.0, 2.0, 3.0)), ValueError, "about"),
        (lambda: fc.rotate(boxes, 1.0, "xy"), TypeError, "about"),
        (lambda: fc.rotate(boxes, 1.0, np.zeros((4, 2))), ValueError, "about"),
        (lambda: fc.rotate(boxes, 1.0, np.zeros((3, 3))), ValueError, "about"),
        (lambda: fc.rotate(boxes, 1.0, np.zeros((3, 2), dtype=object)), TypeError, "about"),
        (lambda: fc.rotate(boxes, 1.0, out=np.zeros((3, 5))), TypeError, "out"),
        (lambda: fc.rotate(boxes, 1.0, out=fc.CircleArray(np.zeros((3, 3)))), TypeError, "out"),
        (lambda: fc.rotate(boxes, 1.0, out=fc.OBBArray(np.zeros((4, 5)))), ValueError, "out"),
        (lambda: fc.rotate(boxes, 1.0, out=fc.OBBArray(np.zeros((3, 5), np.float32))),
         TypeError, "out"),
        (lambda: fc.rotate(fc.AABBArray(np.zeros((3, 4))), 1.0,
                           out=fc.AABBArray(np.zeros((3, 4)))), TypeError, "out"),
        (lambda: fc.rotate(polys, 1.0, out=fc.PolygonArray([[(0, 0), (1, 0), (1, 1), (0, 1)]] * 3)),
         ValueError, "out"),
        (lambda: fc.rotate(boxes, 1.0, workers=0), ValueError, "workers"),
        (lambda: fc.rotate(boxes, 1.0, workers=1.5), TypeError, "workers"),
        (lambda: fc.translate(boxes, (math.inf, 0.0)), ValueError, "offset"),
        (lambda: fc.translate(boxes, 1.0), TypeError, "offset"),
        (lambda: fc.translate(boxes, None), TypeError, "offset"),
        (lambda: fc.translate(boxes, np.zeros((2, 2))), ValueError, "offset"),
        (lambda: fc.translate(boxes, np.zeros((3, 2), dtype=complex)), TypeError, "offset"),
        (lambda: fc.translate(fc.Circle(0, 0, 1), (1, 1)), TypeError, "shapes"),
        (lambda: fc.translate(boxes, (1, 1), out=fc.CircleArray(np.zeros((3, 3)))), TypeError, "out"),
        (lambda: fc.translate(boxes, (1, 1), out=polys), TypeError, "out"),
    ]
    for call, error, name in cases:
        with pytest.raises(error, match=name):
            call()
    ro = np.zeros((3, 5))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        fc.rotate(boxes, 1.0, out=fc.OBBArray(ro))
    # a read-only input is read, never written
    res = fc.rotate(fc.OBBArray(ro), 1.0)
    assert res.data.flags.writeable and (ro == 0).all()


def test_rotate_obb_angles_are_the_ieee_remainder(fc):
    # the compiled rows take a short cut to remainder(angle + turn, 2*pi) for the usual
    # angles: every tie, zero, sign and boundary must still be IEEE's, to the bit
    tau = 2 * math.pi
    near = []
    for v in (0.0, math.pi, tau, 1.5 * tau, 3 * math.pi, 19.9, 20.0, 20.1, 1e6):
        for x in (v, -v):
            near += [x, math.nextafter(x, math.inf), math.nextafter(x, -math.inf)]
    starts = [math.pi, -math.pi, 0.0, -0.0, 1.0, -3.0, math.nextafter(math.pi, 0.0)]
    rows, turns = [], []
    for t in starts:
        for d in near:
            rows.append([0.0, 0.0, 1.0, 1.0, t])
            turns.append(d)
    boxes = fc.OBBArray(np.array(rows))
    res = fc.rotate(boxes, np.array(turns))
    got = res.data[:, 4]
    want = [math.remainder(t + d, tau) for (*_, t), d in zip(rows, turns)]
    assert [math.copysign(1, g) for g in got] == [math.copysign(1, w) for w in want]
    assert got.tolist() == want
    # one angle for every row takes the same path; an AABB turned has angle remainder(turn)
    for d in near:
        assert fc.rotate(boxes, d).data[:, 4].tolist() == [math.remainder(t + d, tau) for t in
                                                           boxes.data[:, 4]]
        turned = fc.rotate(fc.AABBArray([[0, 0, 1, 1]]), d).data[0, 4]
        assert math.copysign(1, turned) == math.copysign(1, math.remainder(d, tau))
        assert turned == math.remainder(d, tau)


@pytest.mark.parametrize("kind", KINDS)
def test_rotate_one_row_with_a_bad_pivot_row(fc, kind):
    # an (N, 2) pivot array of one row is a row (data), not a point (an argument)
    arr, _ = random_array(fc, kind, 1, 4)
    for bad in ([[np.nan, 0.0]], [[0.0, np.inf]]):
        res = fc.rotate(arr, 0.3, np.array(bad))
        assert np.isnan(res.vertices if kind == "Polygon" else res.data).all()
        res = fc.translate(arr, np.array(bad))
        assert np.isnan(res.vertices if kind == "Polygon" else res.data).all()
