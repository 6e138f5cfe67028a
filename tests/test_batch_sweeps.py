"""contact, raycast and time_of_impact over shape arrays, on both backends.

Each row of a batch answer must be the scalar answer for that row: float64 bit for bit,
float32 the float64 answer on the same (widened) inputs rounded once.  Rows without an
answer follow DESIGN.md: zeros in a ContactArray, ``t = inf`` and zeros in a
RayHitArray, NaN from time_of_impact; array rows are data, so a row that is no shape or
no ray (NaN, a zero direction, a negative max_t) gives no answer rather than an error.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_batch import BATCH, PAIRS, _in, _widened, as_bytes, build_array, rows_of
from shapes import KINDS, make_hull, shape_specs

KIND_IDS = [f"{a}-{b}" for a, b in PAIRS]
# shapes near the origin, so that a good share of random pairs overlap
NEAR = {kind: shape_specs(kind, lim=2, size_lim=1) for kind in KINDS}
vectors = st.tuples(st.floats(-3, 3), st.floats(-3, 3))


def _arr(values, dtype=np.float64):
    return np.asarray(values, dtype=dtype).reshape(-1, 2)


# ------------------------------------------------------------------------- contact


def check_contact_rows(fc, a, b, n):
    res = fc.contact(a, b)
    assert isinstance(res, fc.ContactArray)
    hit, normal, depth, points, count = res  # unpacks in the documented order
    assert hit.shape == (n,) and hit.dtype == np.bool_
    assert normal.shape == (n, 2) and points.shape == (n, 2, 2) and depth.shape == (n,)
    assert count.shape == (n,) and count.dtype == np.int64
    for i, (p, q) in enumerate(zip(rows_of(a, n), rows_of(b, n))):
        c = fc.contact(p, q)
        assert bool(hit[i]) == (c is not None)
        if c is None:
            # no contact: zeros, so normal * depth moves nothing
            assert not normal[i].any() and depth[i] == 0.0 and not points[i].any()
            assert count[i] == 0
            continue
        assert normal[i].tobytes() == as_bytes(c.normal)
        assert depth[i].tobytes() == as_bytes(c.depth)
        assert count[i] == len(c.points)
        padded = list(c.points) + [(0.0, 0.0)] * (2 - len(c.points))
        assert points[i].tobytes() == as_bytes(padded)


@pytest.mark.parametrize("ka,kb", PAIRS, ids=KIND_IDS)
@BATCH
@given(data=st.data())
def test_contact_rows_equal_scalar_contact(fc, ka, kb, data):
    n = data.draw(st.integers(0, 5))
    sa = data.draw(st.lists(NEAR[ka], min_size=n, max_size=n))
    sb = data.draw(st.lists(NEAR[kb], min_size=n, max_size=n))
    check_contact_rows(fc, build_array(fc, ka, sa), build_array(fc, kb, sb), n)
    shape = make_hull(fc, data.draw(NEAR[ka]))
    arr = build_array(fc, kb, sb)
    check_contact_rows(fc, shape, arr, n)
    check_contact_rows(fc, arr, shape, n)


def test_contact_known_rows(fc):
    # worked by hand: overlap 0.5 along +x; touching (depth 0); apart; a NaN row
    a = fc.CircleArray([[0, 0, 1], [0, 0, 1], [0, 0, 1], [math.nan, 0, 1]])
    b = fc.CircleArray([[1.5, 0, 1], [0, 2, 1], [3, 0, 1], [0, 0, 1]])
    c = fc.contact(a, b)
    assert c.hit.tolist() == [True, True, False, False]
    assert c.normal.tolist() == [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
    assert c.depth.tolist() == [0.5, 0.0, 0.0, 0.0]
    assert c.count.tolist() == [1, 1, 0, 0]
    assert c.points[0].tolist() == [[0.75, 0.0], [0.0, 0.0]]
    assert c.points[1].tolist() == [[0.0, 1.0], [0.0, 0.0]]
    # two boxes sharing a face band: two points, midway (x = 1.5) on the overlap's ends
    boxes = fc.contact(fc.AABB(0, 0, 2, 2), fc.AABBArray([[1, 0.5, 4, 1.5]]))
    assert boxes.count.tolist() == [2]
    assert boxes.normal.tolist() == [[1.0, 0.0]] and boxes.depth.tolist() == [1.0]
    assert sorted(map(tuple, boxes.points[0].tolist())) == [(1.5, 0.5), (1.5, 1.5)]


def test_contact_float32_is_float64_rounded_once(fc, ref):
    rng = np.random.default_rng(7)
    a32 = fc.CapsuleArray(np.column_stack([rng.uniform(-2, 2, (64, 4)),
                                           rng.uniform(0, 1, 64)]).astype(np.float32))
    b32 = fc.PolygonArray([fc.Polygon.hull(rng.uniform(-2, 2, (6, 2))) for _ in range(64)],
                          dtype=np.float32)
    c32 = fc.contact(a32, b32)
    c64 = fc.contact(_widened(fc, a32), _widened(fc, b32))
    assert c32.hit.any() and not c32.hit.all()  # the draw has both kinds of rows
    assert c32.normal.dtype == c32.depth.dtype == c32.points.dtype == np.float32
    assert c32.hit.tolist() == c64.hit.tolist() and c32.count.tolist() == c64.count.tolist()
    for f32, f64 in zip(c32[1:4], c64[1:4]):
        assert f32.tobytes() == f64.astype(np.float32).tobytes()
    # the reference agrees on float32
    r32 = ref.contact(_in(ref, a32), _in(ref, b32))
    for mine, theirs in zip(c32, r32):
        assert mine.tobytes() == theirs.tobytes()


# ------------------------------------------------------------- contact with pairs=


def check_pairs_rows(fc, a, b, pairs, workers=1):
    """contact(a, b, pairs=p) against contact of the gathered rows (an np.take path)."""
    p = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    res = fc.contact(a, b, pairs=pairs, workers=workers)
    assert isinstance(res, fc.ContactArray)
    gathered = fc.contact(a[p[:, 0]], b[p[:, 1]])
    for mine, theirs in zip(res, gathered):
        assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
        assert mine.tobytes() == theirs.tobytes()
    return res


@pytest.mark.parametrize("ka,kb", PAIRS, ids=KIND_IDS)
@BATCH
@given(data=st.data())
def test_contact_pairs_equal_gathered_rows(fc, ka, kb, data):
    na = data.draw(st.integers(1, 5))
    nb = data.draw(st.integers(1, 5))
    a = build_array(fc, ka, data.draw(st.lists(NEAR[ka], min_size=na, max_size=na)))
    b = build_array(fc, kb, data.draw(st.lists(NEAR[kb], min_size=nb, max_size=nb)))
    # any pairs, repeats and both orders included
    pairs = data.draw(st.lists(st.tuples(st.integers(0, na - 1), st.integers(0, nb - 1)),
                               max_size=8))
    check_pairs_rows(fc, a, b, pairs)


def test_contact_pairs_known_rows(fc):
    # worked by hand: a = circles at x = 0, 1.5 and 9 (radius 1), b = a circle at
    # x = 2 and a NaN row; pairs pick b before a, a row twice, and the NaN row
    a = fc.CircleArray([[0, 0, 1], [1.5, 0, 1], [9, 0, 1]])
    b = fc.CircleArray([[2, 0, 1], [math.nan, 0, 1]])
    c = fc.contact(a, b, pairs=[[1, 0], [0, 0], [2, 0], [1, 0], [0, 1]])
    assert c.hit.tolist() == [True, True, False, True, False]
    assert c.depth.tolist() == [1.5, 0.0, 0.0, 1.5, 0.0]  # 2 - 0.5; touching at x = 1
    assert c.normal.tolist() == [[1.0, 0.0], [1.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, 0.0]]
    assert c.points[:, 0].tolist() == [[1.75, 0.0], [1.0, 0.0], [0.0, 0.0], [1.75, 0.0],
                                       [0.0, 0.0]]
    assert c.count.tolist() == [1, 1, 0, 1, 0]
    # the broadphase's pairs within one array: the one overlap, 0-1
    self_pairs = fc.overlapping_pairs(a)
    assert self_pairs.tolist() == [[0, 1]]
    assert fc.contact(a, a, pairs=self_pairs).depth.tolist() == [0.5]


def test_contact_pairs_between_arrays_of_any_kinds_and_lengths(fc):
    rng = np.random.default_rng(11)
    caps = fc.CapsuleArray(np.column_stack([rng.uniform(-3, 3, (30, 4)),
                                            rng.uniform(0, 1, 30)]))
    polys = fc.PolygonArray([fc.Polygon.hull(rng.uniform(-3, 3, (7, 2))) for _ in range(17)])
    pairs = fc.overlapping_pairs(caps, polys)
    res = check_pairs_rows(fc, caps, polys, pairs)
    assert res.hit.all() and len(pairs) > 50  # overlapping_pairs's pairs all collide
    # int32, unsigned and strided pairs name the same rows
    assert (fc.contact(caps, polys, pairs=pairs.astype(np.int32)).depth.tobytes()
            == res.depth.tobytes())
    assert (fc.contact(caps, polys, pairs=pairs.astype(np.uint16)).depth.tobytes()
            == res.depth.tobytes())
    every_other = fc.contact(caps, polys, pairs=pairs[::2])
    assert every_other.normal.tobytes() == res.normal[::2].tobytes()
    # runs of one row of a (the broadphase sorts its pairs so), with a row of a that
    # is no shape among them: each pair still answers for its own two rows
    near = fc.PolygonArray.from_padded(polys.vertices.copy(), polys.counts.copy())
    near.counts[4] = 2
    runs = np.array([[4, 0], [4, 1], [3, 1], [3, 1], [3, 2], [4, 2], [5, 2], [5, 3], [3, 3]])
    ran = check_pairs_rows(fc, near, caps, runs)
    assert not ran.hit[[0, 1, 5]].any() and ran.hit.any()
    # float32 arrays give float32 results, the float64 answer rounded once
    c32 = fc.contact(fc.CapsuleArray(caps.data.astype(np.float32)),
                     fc.PolygonArray.from_padded(polys.vertices.astype(np.float32),
                                                 polys.counts), pairs=pairs)
    assert c32.depth.dtype == np.float32
    assert c32.hit.tolist() == fc.contact(
        _widened(fc, fc.CapsuleArray(caps.data.astype(np.float32))),
        _widened(fc, fc.PolygonArray.from_padded(polys.vertices.astype(np.float32),
                                                 polys.counts)),
        pairs=pairs).hit.tolist()


@pytest.mark.parametrize("workers", [2, -1])
def test_contact_pairs_with_workers(fc, workers):
    n = 6000 if fc.backend == "compiled" else 200  # several blocks of rows compiled
    rng = np.random.default_rng(3)
    a = fc.CircleArray(np.column_stack([rng.uniform(0, 60, (n, 2)), rng.uniform(0.2, 1, n)]))
    b = fc.OBBArray(np.column_stack([rng.uniform(0, 60, (n // 2, 2)),
                                     rng.uniform(0.2, 1, (n // 2, 2)),
                                     rng.uniform(-3, 3, n // 2)]))
    pairs = fc.overlapping_pairs(a, b)
    check_pairs_rows(fc, a, b, pairs, workers=workers)


@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_contact_pairs_compiled_equals_reference(ext, ref, offset):
    # the two backends on the same arrays and pairs, bit for bit: boxes and polygons
    # against capsules, with a NaN row and a negative radius among them
    rng = np.random.default_rng(23)
    obb = np.column_stack([rng.uniform(-4, 4, (40, 2)) + offset, rng.uniform(0.1, 1.5, (40, 2)),
                           rng.uniform(-3, 3, 40)])
    caps = np.column_stack([rng.uniform(-4, 4, (25, 4)) + offset, rng.uniform(0, 1, 25)])
    caps[3, 0] = math.nan
    caps[7, 4] = -1.0
    polys = [[(x + offset, y + offset) for x, y in rng.uniform(-2, 2, (6, 2))] for _ in range(15)]
    pairs = np.column_stack([rng.integers(0, 40, 300), rng.integers(0, 25, 300)])
    mine = ext.contact(ext.OBBArray(obb), ext.CapsuleArray(caps), pairs=pairs, workers=2)
    theirs = ref.contact(ref.OBBArray(obb), ref.CapsuleArray(caps), pairs=pairs)
    assert mine.hit.any() and not mine.hit.all()
    assert [x.tobytes() for x in mine] == [x.tobytes() for x in theirs]
    ring = ext.PolygonArray([ext.Polygon.hull(p) for p in polys])
    pairs = np.column_stack([rng.integers(0, 15, 200), rng.integers(0, 25, 200)])
    mine = ext.contact(ring, ext.CapsuleArray(caps), pairs=pairs)
    theirs = ref.contact(_in(ref, ring), ref.CapsuleArray(caps), pairs=pairs)
    assert mine.hit.any() and not mine.hit.all()
    assert [x.tobytes() for x in mine] == [x.tobytes() for x in theirs]


def test_contact_pairs_empty(fc):
    a = fc.CircleArray([[0, 0, 1]])
    b = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)]], dtype=np.float32)
    c = fc.contact(a, b, pairs=np.empty((0, 2), dtype=np.int64))
    assert [x.shape for x in c] == [(0,), (0, 2), (0,), (0, 2, 2), (0,)]
    assert c.depth.dtype == np.float64  # float64 against float32: float64
    empty = fc.CircleArray(np.empty((0, 3)))
    assert len(fc.contact(empty, empty, pairs=np.zeros((0, 2), dtype=int)).hit) == 0
    assert len(fc.contact(a, a, pairs=[]).hit) == 0  # an empty list: no pairs


def test_contact_pairs_bad_arguments_are_named(fc):
    a = fc.CircleArray(np.zeros((3, 3)))
    b = fc.CapsuleArray(np.zeros((2, 5)))
    with pytest.raises(ValueError, match=r"^pairs\[1\] = \(3, 0\) is out of range for a of 3 "
                                         r"and b of 2 shapes"):
        fc.contact(a, b, pairs=[[0, 0], [3, 0], [-1, 0]])
    with pytest.raises(ValueError, match=r"^pairs\[0\] = \(0, 2\) is out of range"):
        fc.contact(a, b, pairs=[[0, 2]])
    with pytest.raises(ValueError, match=r"^pairs\[1\] = \(-1, 0\) is out of range"):
        fc.contact(a, b, pairs=[[0, 0], [-1, 0]])  # no counting from the end
    with pytest.raises(ValueError, match=r"^pairs\[0\] = \(18446744073709551615, 0\)"):
        fc.contact(a, b, pairs=np.array([[2**64 - 1, 0]], dtype=np.uint64))  # no wrapping
    with pytest.raises(ValueError, match=r"^pairs must have shape \(M, 2\), got \(2, 3\)"):
        fc.contact(a, b, pairs=np.zeros((2, 3), dtype=int))
    with pytest.raises(ValueError, match=r"^pairs must have shape \(M, 2\), got \(2,\)"):
        fc.contact(a, b, pairs=[0, 1])
    with pytest.raises(TypeError, match="^pairs must hold integers, not float64"):
        fc.contact(a, b, pairs=np.zeros((1, 2)))
    with pytest.raises(TypeError, match="^pairs must hold integers, not bool"):
        fc.contact(a, b, pairs=np.zeros((1, 2), dtype=bool))
    with pytest.raises(TypeError, match="^pairs must be an integer array"):
        fc.contact(a, b, pairs=3)
    with pytest.raises(TypeError, match="^pairs needs two shape arrays, but b is a single"):
        fc.contact(a, fc.Circle(0, 0, 1), pairs=[[0, 0]])
    with pytest.raises(TypeError, match="^pairs needs two shape arrays, but a is a single"):
        fc.contact(fc.Circle(0, 0, 1), fc.Circle(0, 0, 1), pairs=[[0, 0]])
    with pytest.raises(TypeError, match="^a must be a shape"):
        fc.contact("circles", b, pairs=[[0, 0]])
    with pytest.raises(ValueError, match="^workers must be >= 1"):
        fc.contact(a, b, pairs=[[0, 0]], workers=0)
    # a and b need not have the same length with pairs; without, they must
    with pytest.raises(ValueError, match="^a and b must have the same length"):
        fc.contact(a, b)
    # the arrays are left as they were
    assert not a.data.any() and not b.data.any()


# ------------------------------------------------------------------------- raycast


def check_ray_rows(fc, shapes, origins, directions, max_t, n):
    res = fc.raycast(shapes, origins, directions, max_t)
    assert isinstance(res, fc.RayHitArray)
    hit, t, point, normal = res
    assert hit.shape == (n,) and t.shape == (n,) and point.shape == normal.shape == (n, 2)
    o = np.broadcast_to(np.asarray(origins, dtype=float), (n, 2))
    d = np.broadcast_to(np.asarray(directions, dtype=float), (n, 2))
    lim = np.broadcast_to(np.asarray(max_t, dtype=float), (n,))
    for i, s in enumerate(rows_of(shapes, n)):
        h = fc.raycast(s, tuple(o[i].tolist()), tuple(d[i].tolist()), float(lim[i]))
        assert bool(hit[i]) == (h is not None)
        if h is None:
            assert t[i] == math.inf and not point[i].any() and not normal[i].any()
            continue
        assert t[i].tobytes() == as_bytes(h.t)
        assert point[i].tobytes() == as_bytes(h.point)
        assert normal[i].tobytes() == as_bytes(h.normal)


@pytest.mark.parametrize("kind", KINDS)
@BATCH
@given(data=st.data())
def test_raycast_rows_equal_scalar_raycast(fc, kind, data):
    n = data.draw(st.integers(0, 5))
    specs = data.draw(st.lists(NEAR[kind], min_size=n, max_size=n))
    arr = build_array(fc, kind, specs)
    origins = _arr(data.draw(st.lists(vectors, min_size=n, max_size=n)))
    dirs = data.draw(st.lists(vectors.filter(lambda v: v != (0.0, 0.0)), min_size=n, max_size=n))
    dirs = _arr(dirs)
    limits = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.5, 2.0, math.inf]),
                                         min_size=n, max_size=n)), dtype=float)
    one = data.draw(vectors)
    # N rays against N shapes, one ray over many shapes, many rays over one shape
    check_ray_rows(fc, arr, origins, dirs, limits, n)
    check_ray_rows(fc, arr, (-4.0, one[1]), (1.0, 0.25), math.inf, n)
    if n:
        shape = make_hull(fc, specs[0])
        check_ray_rows(fc, shape, origins, dirs, 3.0, n)
        check_ray_rows(fc, shape, one, dirs, limits, n)


def test_raycast_known_rows(fc):
    # worked by hand: a unit circle at (5, 0) hit from the origin at t = 4; a ray
    # passing above it; an origin inside (t = 0, zero normal); max_t short of the hit
    c = fc.Circle(5, 0, 1)
    res = fc.raycast(c, _arr([[0, 0], [0, 5], [5, 0.5], [0, 0]]), (1, 0),
                     np.array([10, 10, 10, 3.5]))
    assert res.hit.tolist() == [True, False, True, False]
    assert res.t.tolist() == [4.0, math.inf, 0.0, math.inf]
    assert res.point.tolist() == [[4.0, 0.0], [0, 0], [5.0, 0.5], [0, 0]]
    assert res.normal.tolist() == [[-1.0, 0.0], [0, 0], [0.0, 0.0], [0, 0]]


def test_rows_that_are_no_ray_have_no_hit(fc):
    circles = fc.CircleArray([[5, 0, 1]] * 6)
    origins = _arr([[0, 0], [math.nan, 0], [0, 0], [0, 0], [0, 0], [0, 0]])
    dirs = _arr([[1, 0], [1, 0], [0, 0], [math.inf, 0], [1, 0], [1, 0]])
    limits = np.array([10, 10, 10, 10, -1.0, math.nan])
    res = fc.raycast(circles, origins, dirs, limits)
    assert res.hit.tolist() == [True, False, False, False, False, False]
    assert res.t[1:].tolist() == [math.inf] * 5
    assert not res.point[1:].any() and not res.normal[1:].any()
    # and a row that is no shape
    bad = fc.CircleArray([[5, 0, -1], [math.nan, 0, 1], [5, 0, math.inf], [5, 0, 1]])
    assert fc.raycast(bad, (0, 0), (1, 0)).hit.tolist() == [False, False, False, True]
    boxes = fc.AABBArray([[4, -1, 3, 1], [4, 1, 6, -1], [4, -1, math.nan, 1],
                          [-math.inf, -1, 6, 1], [4, -1, 6, 1]])
    res = fc.raycast(boxes, (0, 0), (1, 0))
    assert res.hit.tolist() == [False, False, False, False, True]
    assert res.t.tolist() == [math.inf] * 4 + [4.0]


def test_raycast_float32(fc, ref):
    rng = np.random.default_rng(3)
    boxes = fc.OBBArray(np.column_stack([rng.uniform(-3, 3, (50, 2)), rng.uniform(0.1, 1, (50, 2)),
                                         rng.uniform(-3, 3, 50)]).astype(np.float32))
    origins = rng.uniform(-4, 4, (50, 2)).astype(np.float32)
    dirs = rng.uniform(-1, 1, (50, 2)).astype(np.float32)
    r32 = fc.raycast(boxes, origins, dirs)
    assert r32.t.dtype == r32.point.dtype == r32.normal.dtype == np.float32
    r64 = fc.raycast(_widened(fc, boxes), origins.astype(np.float64), dirs.astype(np.float64))
    assert r32.hit.any() and not r32.hit.all()
    assert r32.hit.tolist() == r64.hit.tolist()
    for f32, f64 in zip(r32[1:], r64[1:]):
        assert f32.tobytes() == f64.astype(np.float32).tobytes()
    # one float64 argument makes the answer float64
    assert fc.raycast(boxes, origins.astype(np.float64), dirs).t.dtype == np.float64
    assert fc.raycast(boxes, (0.0, 0.0), dirs).t.dtype == np.float32  # a tuple does not widen
    theirs = ref.raycast(_in(ref, boxes), origins, dirs)
    for mine, other in zip(r32, theirs):
        assert mine.tobytes() == other.tobytes()


def _box_ray_rows(rng, n):
    """AABB rows and rays of every kind the compiled AABB rows decide in lanes or
    leave to the scalar kernel: random rays, rays at a point of the box, at a corner
    (exactly and nudged by an ulp), along an axis, from inside, boxes of zero width or
    height, limits short of the box, rows that are no ray or no box, directions and
    times at the ends of the lanes' range (2**-500, 2**500; 2**-400, 2**400) and a
    subnormal direction component, at offsets 0 and 1e6."""
    boxes, origins, dirs, limits = [], [], [], []
    for _ in range(n):
        e = int(rng.choice([-540, -500, -499, -300, 0, 0, 0, 0, 300, 449, 499, 501]))
        scale = 2.0 ** e if abs(e) < 520 else 2.0 ** -520
        off = float(rng.choice([0.0, 1e6])) if 0 <= e < 300 else 0.0
        lo = off + scale * rng.uniform(-2, 2, 2)
        size = scale * rng.uniform(0, 2, 2) * rng.choice([0.0, 1.0, 1.0, 1.0], 2)
        box = [lo[0], lo[1], lo[0] + size[0], lo[1] + size[1]]
        o = off + scale * rng.uniform(-6, 6, 2)
        kind = int(rng.integers(0, 8))
        if kind == 0:
            d = rng.uniform(-1, 1, 2) * scale
        elif kind == 1:      # at a point of the box
            d = np.array([rng.uniform(box[0], box[2]) - o[0], rng.uniform(box[1], box[3]) - o[1]])
        elif kind == 2:      # at a corner, or an ulp beside it
            d = np.array([box[2 * rng.integers(0, 2)] - o[0], box[1 + 2 * rng.integers(0, 2)] - o[1]])
            k = int(rng.integers(0, 2))
            d[k] = np.nextafter(d[k], rng.choice([-np.inf, 0.0, np.inf]))
        elif kind == 3:      # along an axis
            d = np.array([rng.choice([-1.0, 1.0]), 0.0])[:: rng.choice([1, -1])]
        elif kind == 4:      # from inside
            o = np.array([rng.uniform(box[0], box[2]), rng.uniform(box[1], box[3])])
            d = rng.uniform(-1, 1, 2)
        elif kind == 5:      # a direction component far below the other
            d = np.array([rng.choice([-1.0, 1.0]), rng.choice([5e-324, 1e-310, 2.0 ** -480])])
            d *= rng.choice([2.0 ** -40, 1.0, 2.0 ** 40])
        if kind == 6:        # a component that _scaled cannot keep (over 1126 bits)
            d = np.array([rng.choice([-1.0, 1.0]) * 2.0 ** int(rng.integers(53, 400)),
                          rng.choice([-5e-324, 5e-324, 1e-320])])[:: rng.choice([1, -1])]
        elif kind == 7:      # a hair from the box, a huge direction: t near subnormal
            box = [x * 2.0 ** -540 for x in (0.0, 0.0, 3.0, 5.0)]
            o = np.array([-rng.integers(1, 9) * 2.0 ** -560, rng.uniform(0, 5) * 2.0 ** -540])
            d = np.array([1.0, rng.uniform(-0.5, 0.5)]) * 2.0 ** rng.choice([400, 450, 499])
        else:
            d = d * rng.choice([1.0, 1.0, 2.0 ** -520, 2.0 ** 100, 2.0 ** 420])
        limit = float(rng.choice([np.inf, np.inf, 0.0, 1e-3, 1.0, 2.0 ** 401]))
        boxes.append(box)
        origins.append(o)
        dirs.append(d)
        limits.append(limit)
    boxes, origins, dirs = np.array(boxes), np.array(origins), np.array(dirs)
    bad = rng.random(n) < 0.02
    boxes[bad, rng.integers(0, 4, n)[bad]] = rng.choice([np.nan, np.inf, -np.inf], bad.sum())
    swap = rng.random(n) < 0.01
    boxes[swap] = boxes[swap][:, [2, 3, 0, 1]]
    keep = np.isfinite(dirs).all(axis=1) & (dirs != 0).any(axis=1)
    return boxes[keep], origins[keep], dirs[keep], np.array(limits)[keep]


def _check_lane_ray_rows(fc, kind, rows, origins, directions, max_t):
    """raycast of circle or AABB rows against the scalar raycast of each row that is a
    shape (no hit for the others), float64 bit for bit; origins, directions and max_t
    may be one value for every row."""
    n = len(rows)
    with np.errstate(invalid="ignore", over="ignore"):
        array = fc.CircleArray(rows) if kind == "Circle" else fc.AABBArray(rows)
        hit, t, point, normal = fc.raycast(array, origins, directions, max_t)
    o = np.broadcast_to(np.asarray(origins, dtype=float), (n, 2))
    d = np.broadcast_to(np.asarray(directions, dtype=float), (n, 2))
    lim = np.broadcast_to(np.asarray(max_t, dtype=float), (n,))
    for i in range(n):
        b = rows[i]
        h = None
        if kind == "Circle" and np.isfinite(b).all() and b[2] >= 0:
            shape = fc.Circle(*b.tolist())
        elif kind == "AABB" and np.isfinite(b).all() and b[0] <= b[2] and b[1] <= b[3]:
            shape = fc.AABB(*b.tolist())
        else:
            shape = None
        if shape is not None:
            h = fc.raycast(shape, tuple(o[i].tolist()), tuple(d[i].tolist()), float(lim[i]))
        assert bool(hit[i]) == (h is not None), i
        if h is None:
            assert t[i] == math.inf and not point[i].any() and not normal[i].any(), i
            continue
        assert t[i].tobytes() == as_bytes(h.t), i
        assert point[i].tobytes() == as_bytes(h.point), i
        assert normal[i].tobytes() == as_bytes(h.normal), i
    return hit


def _check_lane_rays(fc, kind, rows, origins, dirs, limits):
    n = len(rows) - (len(rows) % 2 == 0)     # odd: the last row alone
    rows, origins, dirs, limits = rows[:n], origins[:n], dirs[:n], limits[:n]
    hits = _check_lane_ray_rows(fc, kind, rows, origins, dirs, limits)
    assert 0.1 < hits.mean() < 0.9
    # one origin, one direction or one limit for every row
    _check_lane_ray_rows(fc, kind, rows, origins[0], dirs, limits)
    _check_lane_ray_rows(fc, kind, rows, origins, dirs[1], limits[1])
    # float32 rows: the float64 answers for the widened rows, each rounded once
    make = fc.CircleArray if kind == "Circle" else fc.AABBArray
    with np.errstate(all="ignore"):    # float32 rounds the largest values to inf
        r32, o32, d32 = (x.astype(np.float32) for x in (rows, origins, dirs))
        res32 = fc.raycast(make(r32), o32, d32)
        res64 = fc.raycast(make(r32.astype(np.float64)), o32.astype(np.float64),
                           d32.astype(np.float64))
        assert res32.hit.tolist() == res64.hit.tolist()
        for f32, f64 in zip(res32[1:], res64[1:]):
            assert f32.tobytes() == f64.astype(np.float32).tobytes()


def test_raycast_box_rows_equal_scalar_raycast_on_hard_rays(fc):
    _check_lane_rays(fc, "AABB", *_box_ray_rows(np.random.default_rng(8), 4001))


def _circle_ray_rows(rng, n):
    """Circle rows and rays for the compiled circle rows' lanes and their limits:
    random rays, rays within the angle the circle spans, tangent to it (to rounding),
    from inside and from its rim, at points (r == 0), short limits, rows that are no
    ray or no circle, and p - c, d, r at the ends of the lanes' range (2**-300,
    2**300; |d| 2**-100, 2**100), offsets 0 and 1e6."""
    rows, origins, dirs, limits = [], [], [], []
    for _ in range(n):
        e = int(rng.choice([-320, -300, -250, -60, 0, 0, 0, 0, 60, 250, 299, 301]))
        scale = 2.0 ** e
        off = float(rng.choice([0.0, 1e6])) if 0 <= e < 100 else 0.0
        c = off + scale * rng.uniform(-2, 2, 2)
        r = scale * rng.uniform(0.1, 1.5) * rng.choice([0.0, 1.0, 1.0, 1.0, 1.0, 1.0])
        phi = rng.uniform(0, 2 * np.pi)
        dist = scale * rng.uniform(0.5, 8)
        o = c + dist * np.array([math.cos(phi), math.sin(phi)])
        kind = int(rng.integers(0, 6))
        to_c = c - o
        if kind == 0:
            d = rng.uniform(-1, 1, 2)
        elif kind in (1, 2):   # within the span, or tangent (to rounding)
            along = math.sqrt(max(dist * dist - r * r, 0.0))
            ang = math.atan2(r, along) * (rng.uniform(0, 1) if kind == 1 else 1.0)
            ang *= rng.choice([-1.0, 1.0])
            ca, sa = math.cos(ang), math.sin(ang)
            d = np.array([to_c[0] * ca - to_c[1] * sa, to_c[0] * sa + to_c[1] * ca])
        elif kind == 3:        # from inside, or from the rim
            o = c + r * rng.choice([rng.uniform(0, 1), 1.0]) * np.array([math.cos(phi), math.sin(phi)])
            d = rng.uniform(-1, 1, 2)
        elif kind == 4:        # straight at the centre
            d = to_c
        else:                  # along an axis
            d = np.array([rng.choice([-1.0, 1.0]), 0.0])[:: rng.choice([1, -1])]
        big = np.abs(d).max()
        if big > 0:
            d = d / big * 2.0 ** float(rng.choice([-110, -100, -99, -20, 0, 0, 0, 20, 99, 100, 110]))
        rows.append([c[0], c[1], r])
        origins.append(o)
        dirs.append(d)
        limits.append(float(rng.choice([np.inf, np.inf, 0.0, 1.0, 2.0 ** 120])))
    rows, origins, dirs = np.array(rows), np.array(origins), np.array(dirs)
    bad = rng.random(n) < 0.02
    rows[bad, rng.integers(0, 3, n)[bad]] = rng.choice([np.nan, np.inf, -1.0], bad.sum())
    keep = np.isfinite(dirs).all(axis=1) & (dirs != 0).any(axis=1) & np.isfinite(origins).all(axis=1)
    return rows[keep], origins[keep], dirs[keep], np.array(limits)[keep]


def test_raycast_circle_rows_equal_scalar_raycast_on_hard_rays(fc):
    _check_lane_rays(fc, "Circle", *_circle_ray_rows(np.random.default_rng(9), 4001))


# ------------------------------------------------------------------ time of impact


def check_toi_rows(fc, a, va, b, vb, max_t, n):
    res = fc.time_of_impact(a, va, b, vb, max_t)
    assert res.shape == (n,) and res.dtype == np.float64
    ua = np.broadcast_to(np.asarray(va, dtype=float), (n, 2))
    ub = np.broadcast_to(np.asarray(vb, dtype=float), (n, 2))
    lim = np.broadcast_to(np.asarray(max_t, dtype=float), (n,))
    want = []
    for i, (p, q) in enumerate(zip(rows_of(a, n), rows_of(b, n))):
        t = fc.time_of_impact(p, tuple(ua[i].tolist()), q, tuple(ub[i].tolist()), float(lim[i]))
        want.append(math.nan if t is None else t)
    assert res.tobytes() == as_bytes(want)


@pytest.mark.parametrize("ka,kb", PAIRS, ids=KIND_IDS)
@BATCH
@given(data=st.data())
def test_time_of_impact_rows_equal_scalar(fc, ka, kb, data):
    n = data.draw(st.integers(0, 5))
    sa = data.draw(st.lists(shape_specs(ka, lim=2, size_lim=1), min_size=n, max_size=n))
    sb = data.draw(st.lists(shape_specs(kb, lim=2, size_lim=1), min_size=n, max_size=n))
    a, b = build_array(fc, ka, sa), build_array(fc, kb, sb)
    va = _arr(data.draw(st.lists(vectors, min_size=n, max_size=n)))
    vb = _arr(data.draw(st.lists(vectors, min_size=n, max_size=n)))
    check_toi_rows(fc, a, va, b, vb, 2.0, n)
    check_toi_rows(fc, a, (0.0, 0.0), b, vb, np.full(n, math.inf), n)
    if n:
        check_toi_rows(fc, make_hull(fc, sa[0]), va, b, (0.5, -0.5), 3.0, n)
        # one pair of shapes swept with many velocities
        check_toi_rows(fc, make_hull(fc, sa[0]), (0.0, 0.0), make_hull(fc, sb[0]), vb, 5.0, n)


def test_time_of_impact_known_rows(fc):
    # worked by hand: closing at speed 2 over a gap of 8 (t = 4); moving apart; already
    # overlapping (0.0); a NaN velocity, a negative max_t and a NaN shape (NaN)
    a = fc.CircleArray([[0, 0, 1]] * 5 + [[math.nan, 0, 1]])
    b = fc.CircleArray([[10, 0, 1], [10, 0, 1], [1, 0, 1], [10, 0, 1], [10, 0, 1], [10, 0, 1]])
    vb = _arr([[-1, 0], [1, 0], [0, 0], [math.nan, 0], [-1, 0], [-1, 0]])
    t = fc.time_of_impact(a, (1, 0), b, vb, np.array([10, 10, 10, 10, -1, 10.0]))
    assert t[:3].tolist() == [4.0, pytest.approx(math.nan, nan_ok=True), 0.0]
    assert np.isnan(t[1]) and np.isnan(t[3:]).all()


def test_time_of_impact_float32(fc, ref):
    rng = np.random.default_rng(11)
    a = fc.CircleArray(np.column_stack([rng.uniform(-3, 3, (40, 2)),
                                        rng.uniform(0, 1, 40)]).astype(np.float32))
    b = fc.AABBArray(np.sort(rng.uniform(-3, 3, (40, 2, 2)), axis=1)
                     .transpose(0, 2, 1).reshape(40, 4).astype(np.float32))
    v = rng.uniform(-4, 4, (40, 2)).astype(np.float32)
    t32 = fc.time_of_impact(a, v, b, (0.0, 0.0))
    assert t32.dtype == np.float32
    t64 = fc.time_of_impact(_widened(fc, a), v.astype(np.float64), _widened(fc, b), (0.0, 0.0))
    assert np.isfinite(t64).any() and np.isnan(t64).any()
    assert t32.tobytes() == t64.astype(np.float32).tobytes()
    assert t32.tobytes() == ref.time_of_impact(_in(ref, a), v, _in(ref, b), (0.0, 0.0)).tobytes()


# -------------------------------------------------------------- shared behaviour


def test_empty_arrays(fc):
    empty = fc.CircleArray(np.empty((0, 3)))
    c = fc.contact(empty, fc.Circle(0, 0, 1))
    assert [x.shape for x in c] == [(0,), (0, 2), (0,), (0, 2, 2), (0,)]
    r = fc.raycast(empty, (0, 0), (1, 0))
    assert [x.shape for x in r] == [(0,), (0,), (0, 2), (0, 2)]
    assert fc.time_of_impact(empty, (0, 0), empty, (1, 0)).shape == (0,)
    assert fc.raycast(fc.Circle(0, 0, 1), np.empty((0, 2)), (1, 0)).t.shape == (0,)


@pytest.mark.parametrize("workers", [2, 3, -1])
def test_workers_give_the_same_rows(fc, workers):
    if fc.backend == "reference":
        n = 300  # the reference ignores workers: a short check of the argument
    else:
        n = 9000  # several chunks of rows
    rng = np.random.default_rng(5)
    a = fc.CircleArray(np.column_stack([rng.uniform(-20, 20, (n, 2)), rng.uniform(0, 2, n)]))
    b = fc.OBBArray(np.column_stack([rng.uniform(-20, 20, (n, 2)), rng.uniform(0, 2, (n, 2)),
                                     rng.uniform(-3, 3, n)]))
    v = rng.uniform(-5, 5, (n, 2))
    one = [x.tobytes() for x in fc.contact(a, b)]
    assert one == [x.tobytes() for x in fc.contact(a, b, workers=workers)]
    assert (fc.raycast(b, v, v[::-1].copy()).t.tobytes()
            == fc.raycast(b, v, v[::-1].copy(), workers=workers).t.tobytes())
    assert (fc.time_of_impact(a, v, b, (0, 0)).tobytes()
            == fc.time_of_impact(a, v, b, (0, 0), workers=workers).tobytes())


def test_lengths_must_match(fc):
    a = fc.CircleArray(np.zeros((3, 3)))
    b = fc.CircleArray(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="^a and b must have the same length, got 3 and 4"):
        fc.contact(a, b)
    with pytest.raises(ValueError, match="^shape and origin must have the same length"):
        fc.raycast(a, np.zeros((4, 2)), (1, 0))
    with pytest.raises(ValueError, match="^origin and direction must have the same length"):
        fc.raycast(fc.Circle(0, 0, 1), np.zeros((2, 2)), np.ones((3, 2)))
    with pytest.raises(ValueError, match="^shape and max_t must have the same length"):
        fc.raycast(a, (0, 0), (1, 0), np.ones(2))
    with pytest.raises(ValueError, match="^a and velocity_b must have the same length"):
        fc.time_of_impact(a, (0, 0), fc.Circle(0, 0, 1), np.zeros((2, 2)))


def test_bad_arguments_are_named(fc):
    arr = fc.CircleArray(np.zeros((2, 3)))
    with pytest.raises(TypeError, match="^b must be a shape"):
        fc.contact(arr, "circle")
    with pytest.raises(TypeError, match="^shape must be a shape"):
        fc.raycast(None, np.zeros((2, 2)), (1, 0))
    with pytest.raises(ValueError, match="^origin must have shape"):
        fc.raycast(arr, np.zeros((2, 3)), (1, 0))
    with pytest.raises(TypeError, match="^direction must hold real numbers"):
        fc.raycast(arr, (0, 0), np.zeros((2, 2), dtype=complex))
    # a single vector or limit is a plain argument: checked as in the scalar query
    with pytest.raises(ValueError, match="^direction must be non-zero"):
        fc.raycast(arr, (0, 0), (0, 0))
    with pytest.raises(ValueError, match="^max_t must be >= 0"):
        fc.raycast(arr, (0, 0), (1, 0), -1.0)
    with pytest.raises(ValueError, match=r"^velocity_a\[0\] must be finite"):
        fc.time_of_impact(arr, (math.nan, 0), arr, (0, 0))
    with pytest.raises(ValueError, match="^max_t must have shape"):
        fc.time_of_impact(arr, (0, 0), arr, (0, 0), np.zeros((2, 1)))
    with pytest.raises(ValueError, match="^workers must be >= 1"):
        fc.contact(arr, arr, workers=0)
    with pytest.raises(TypeError, match="^workers must be an integer"):
        fc.raycast(arr, (0, 0), (1, 0), workers=1.5)
    with pytest.raises(ValueError, match="^workers must be >= 1"):
        fc.time_of_impact(arr, (0, 0), arr, (1, 0), workers=-2)


def test_scalar_calls_accept_only_valid_workers(fc):
    a, b = fc.Circle(0, 0, 1), fc.Circle(1, 0, 1)
    assert fc.contact(a, b, workers=2) == fc.contact(a, b)
    assert fc.raycast(a, (-3, 0), (1, 0), workers=-1) == fc.raycast(a, (-3, 0), (1, 0))
    assert fc.time_of_impact(a, (0, 0), b, (1, 0), workers=2) == 0.0
    with pytest.raises(ValueError, match="^workers"):
        fc.contact(a, b, workers=0)
    with pytest.raises(TypeError, match="^workers"):
        fc.time_of_impact(a, (0, 0), b, (1, 0), workers="2")


def test_inputs_are_not_written_and_non_contiguous_work(fc):
    data = np.array([[0, 0, 1], [9, 9, 1], [3, 0, 1], [9, 9, 1]], dtype=float)
    data.setflags(write=False)
    arr = fc.CircleArray(data)
    origins = np.array([[-5, 0, 7], [-5, 0, 7]], dtype=">f8")[:, :2]  # big-endian, strided
    res = fc.raycast(arr[::2], origins, (1, 0))
    assert res.t.tolist() == [4.0, 7.0]
    assert data.tolist() == [[0, 0, 1], [9, 9, 1], [3, 0, 1], [9, 9, 1]]
