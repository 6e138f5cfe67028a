"""fastcol.dask: the element-wise queries and overlapping_pairs over dask arrays of rows.

Every answer is compared with the in-memory call on the computed rows, bit for bit
(bytes, dtype and shape), on both backends (``backend=fc``), on the threaded scheduler
and on a LocalCluster of two worker processes (one per module).  overlapping_pairs of
circles with dyadic coordinates is also checked against exact arithmetic
(``fractions.Fraction``), and scenes made for tile borders against pairs worked by hand.
"""

from __future__ import annotations

import doctest
import math
from fractions import Fraction

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="fastcol.dask needs the dask extra "
                                          "(pip install '.[dask]'; the test extra has it)")
distributed = pytest.importorskip("distributed", reason="the dask extra installs it")
da = pytest.importorskip("dask.array", reason="dask[array]")

import fastcol.dask as fcd  # noqa: E402

KINDS = ("circle", "capsule", "segment", "aabb", "obb", "polygon")
ARRAY = {"circle": "CircleArray", "capsule": "CapsuleArray", "segment": "SegmentArray",
         "aabb": "AABBArray", "obb": "OBBArray", "polygon": "PolygonArray"}
SHAPE = {"circle": "Circle", "capsule": "Capsule", "segment": "Segment", "aabb": "AABB",
         "obb": "OBB", "polygon": "Polygon"}
N = 40
CHUNKS = (7, 13, 1, 19)        # uneven row chunks of the first operand
OTHER_CHUNKS = (20, 20)        # the second operand's: rechunked to the first's
NAN_ROWS = (3, 21)


# ------------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def client():
    """Two worker processes, one thread each (started once for the module)."""
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=":0")
    c = distributed.Client(cluster, set_as_default=False)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(params=["threads", "processes"])
def scheduler(request):
    """What ``dask.compute`` runs on: the threaded scheduler or the LocalCluster."""
    if request.param == "threads":
        return "threads"
    return request.getfixturevalue("client")


def compute(scheduler, *values):
    return dask.compute(*values, scheduler=scheduler)


# ---------------------------------------------------------------------------- rows


def regular_polygons(rng, n, k=6):
    """n regular polygons of 3..k vertices, counter-clockwise, padded to k."""
    counts = rng.integers(3, k + 1, n)
    vertices = np.empty((n, k, 2))
    for i, m in enumerate(counts):
        centre = rng.uniform(0, 8, 2)
        radius, phase = rng.uniform(0.3, 1.5), rng.uniform(0, 2 * math.pi)
        a = phase + 2 * math.pi * np.arange(m) / m
        ring = centre + radius * np.c_[np.cos(a), np.sin(a)]
        vertices[i, :m] = ring
        vertices[i, m:] = ring[-1]
    return vertices, counts


def raw_rows(kind, n, seed, spread=8.0):
    """Rows of ``kind`` in a square of side ``spread`` (many pairs collide)."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, spread, (n, 2))
    if kind == "circle":
        return np.c_[p, rng.uniform(0.2, 1.5, n)]
    if kind in ("capsule", "segment"):
        q = p + rng.uniform(-2, 2, (n, 2))
        return np.c_[p, q, rng.uniform(0.1, 1, n)] if kind == "capsule" else np.c_[p, q]
    if kind == "aabb":
        return np.c_[p, p + rng.uniform(0.2, 2, (n, 2))]
    if kind == "obb":
        return np.c_[p, rng.uniform(0.1, 1.5, (n, 2)), rng.uniform(-math.pi, math.pi, n)]
    vertices, counts = regular_polygons(rng, n)
    vertices *= spread / 8.0
    return vertices, counts


class Rows:
    """One operand: its in-memory shape array and the same rows as dask arrays."""

    def __init__(self, fc, kind, raw, chunks, dtype=np.float64, nan_rows=NAN_ROWS):
        self.kind = kind
        if kind == "polygon":
            vertices, counts = raw
            self.memory = fc.PolygonArray.from_padded(vertices.astype(dtype), counts)
            for i in nan_rows:
                if i < len(counts):
                    self.memory.vertices[i, 0] = np.nan   # written after construction
            self.dask = (da.from_array(self.memory.vertices, chunks=(chunks, -1, -1)),
                         da.from_array(self.memory.counts, chunks=(chunks,)))
        else:
            data = np.array(raw, dtype=dtype)
            data[[i for i in nan_rows if i < len(data)], 0] = np.nan
            self.memory = getattr(fc, ARRAY[kind])(data)
            self.dask = da.from_array(data, chunks=(chunks, -1))


def rows(fc, kind, seed, chunks=CHUNKS, dtype=np.float64, n=N, **kw):
    return Rows(fc, kind, raw_rows(kind, n, seed), chunks, dtype, **kw)


def one_shape(fc, kind, seed):
    """A single shape of ``kind`` near the middle of the rows' square."""
    raw = raw_rows(kind, 1, seed + 100)
    if kind == "polygon":
        v, c = raw
        return fc.Polygon([tuple(p) for p in v[0, :c[0]]])
    return getattr(fc, SHAPE[kind])(*(float(v) for v in raw[0]))


def assert_same(got, want):
    """Bit for bit: dtype, shape and bytes (NaN, -0.0 and all), field by field."""
    if isinstance(want, np.ndarray):
        got = np.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
        assert got.tobytes() == want.tobytes(), (got, want)
        return
    assert type(got) is type(want) or not hasattr(want, "_fields"), (type(got), type(want))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)


def computed(scheduler, result):
    """A dask result (an array, or a record or tuple of them) computed as one graph."""
    if isinstance(result, da.Array):
        return compute(scheduler, result)[0]
    values = compute(scheduler, *result)
    return type(result)(*values) if hasattr(result, "_fields") else tuple(values)


def kind_params(pairs):
    return [pytest.param(a, b, id=f"{a}-{b}") for a, b in pairs]


# every kind against every kind for the cheap queries (threaded scheduler), one
# pair per kind on the cluster
ALL_PAIRS = [(a, b) for i, a in enumerate(KINDS) for b in KINDS[i:]]
SOME_PAIRS = [("circle", "polygon"), ("capsule", "obb"), ("segment", "aabb")]


# ------------------------------------------------------------- element-wise queries

QUERIES = ("collide", "distance", "closest_points", "contact")


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("kind_a, kind_b", kind_params(ALL_PAIRS))
def test_pair_queries_equal_the_in_memory_call(fc, query, kind_a, kind_b):
    a, b = rows(fc, kind_a, 1), rows(fc, kind_b, 2, chunks=OTHER_CHUNKS)
    want = getattr(fc, query)(a.memory, b.memory)
    got = getattr(fcd, query)(a.dask, b.dask, kind=kind_a, kind_b=kind_b, backend=fc)
    assert_same(computed("threads", got), want)
    # one shape against rows, either side
    s = one_shape(fc, kind_b, 3)
    assert_same(computed("threads", getattr(fcd, query)(a.dask, s, kind=kind_a, backend=fc)),
                getattr(fc, query)(a.memory, s))
    assert_same(computed("threads", getattr(fcd, query)(s, a.dask, kind_b=kind_a,
                                                         backend=fc)),
                getattr(fc, query)(s, a.memory))


@pytest.mark.parametrize("query", QUERIES + ("time_of_impact", "shape_cast"))
@pytest.mark.parametrize("kind_a, kind_b", kind_params(SOME_PAIRS))
def test_float32_rows_and_the_cluster(fc, scheduler, query, kind_a, kind_b):
    a = rows(fc, kind_a, 4, dtype=np.float32)
    b = rows(fc, kind_b, 5, chunks=OTHER_CHUNKS, dtype=np.float32)
    if query in ("time_of_impact", "shape_cast"):
        va = np.random.default_rng(6).uniform(-3, 3, (N, 2)).astype(np.float32)
        want = getattr(fc, query)(a.memory, va, b.memory, (0.5, -1.0), 2.0)
        got = getattr(fcd, query)(a.dask, da.from_array(va, chunks=(11, -1)), b.dask,
                                  (0.5, -1.0), 2.0, kind=kind_a, kind_b=kind_b, backend=fc)
    else:
        want = getattr(fc, query)(a.memory, b.memory)
        got = getattr(fcd, query)(a.dask, b.dask, kind=kind_a, kind_b=kind_b, backend=fc)
    result = computed(scheduler, got)
    assert_same(result, want)
    first = result if isinstance(result, np.ndarray) else result[1]
    if first.dtype.kind == "f":
        assert first.dtype == np.float32   # float32 rows give float32 answers


def test_mixed_precision_widens_as_in_memory(fc):
    a = rows(fc, "circle", 7, dtype=np.float32)
    b = rows(fc, "aabb", 8)
    got = fcd.distance(a.dask, b.dask, kind="circle", kind_b="aabb", backend=fc)
    assert got.dtype == np.float64
    assert_same(got.compute(scheduler="threads"), fc.distance(a.memory, b.memory))


@pytest.mark.parametrize("kind", KINDS)
def test_sweeps_equal_the_in_memory_call(fc, kind):
    rng = np.random.default_rng(9)
    a, b = rows(fc, kind, 10), rows(fc, "capsule", 11, chunks=OTHER_CHUNKS)
    va = rng.uniform(-3, 3, (N, 2))
    vb = rng.uniform(-3, 3, (N, 2))
    va[5] = np.nan     # a row that is no velocity
    limits = rng.uniform(0, 3, N)
    for query in ("time_of_impact", "shape_cast"):
        want = getattr(fc, query)(a.memory, va, b.memory, vb, limits)
        got = getattr(fcd, query)(a.dask, da.from_array(va, chunks=(9, -1)), b.dask,
                                  da.from_array(vb, chunks=(30, -1)),
                                  da.from_array(limits, chunks=5), kind=kind,
                                  kind_b="capsule", backend=fc)
        assert_same(computed("threads", got), want)
        s = one_shape(fc, "obb", 12)
        want = getattr(fc, query)(s, (1.0, 2.0), a.memory, vb, 1.5)
        got = getattr(fcd, query)(s, (1.0, 2.0), a.dask, da.from_array(vb, chunks=(25, -1)),
                                  1.5, kind_b=kind, backend=fc)
        assert_same(computed("threads", got), want)


@pytest.mark.parametrize("kind", KINDS)
def test_raycast_point_query_contains_mass(fc, kind):
    rng = np.random.default_rng(13)
    a = rows(fc, kind, 14)
    origins = rng.uniform(-2, 10, (N, 2))
    directions = rng.uniform(-1, 1, (N, 2))
    directions[6] = 0.0       # a row that is no ray
    limits = rng.uniform(0, 20, N)
    o, d = da.from_array(origins, chunks=(16, -1)), da.from_array(directions, chunks=(3, -1))
    t = da.from_array(limits, chunks=17)
    cases = [
        (fcd.raycast(a.dask, o, d, t, kind=kind, backend=fc),
         fc.raycast(a.memory, origins, directions, limits)),
        (fcd.raycast(a.dask, (4.0, -5.0), (0.0, 1.0), kind=kind, backend=fc),
         fc.raycast(a.memory, (4.0, -5.0), (0.0, 1.0))),
        (fcd.raycast(one_shape(fc, kind, 15), o, (1.0, 0.5), 8.0, kind=kind, backend=fc),
         fc.raycast(one_shape(fc, kind, 15), origins, (1.0, 0.5), 8.0)),
        (fcd.point_query(a.dask, o, kind=kind, backend=fc),
         fc.point_query(a.memory, origins)),
        (fcd.point_query(one_shape(fc, kind, 16), o, kind=kind, backend=fc),
         fc.point_query(one_shape(fc, kind, 16), origins)),
        (fcd.contains(a.dask, (4.0, 4.0), kind=kind, backend=fc),
         fc.contains(a.memory, (4.0, 4.0))),
        (fcd.mass_properties(a.dask, t, kind=kind, backend=fc),
         fc.mass_properties(a.memory, limits)),
        (fcd.mass_properties(a.dask, 2.5, kind=kind, backend=fc),
         fc.mass_properties(a.memory, 2.5)),
    ]
    for got, want in cases:
        assert_same(computed("threads", got), want)


PRIMITIVES = {
    "closest_point_on_segment": 3, "closest_point_on_line": 3, "point_segment_distance": 3,
    "segment_segment_closest": 4, "segment_segment_distance": 4, "segments_intersect": 4,
    "orient2d": 3,
}


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_primitives_equal_the_in_memory_call(fc, scheduler, name):
    rng = np.random.default_rng(17)
    points = [rng.integers(-4, 5, (N, 2)).astype(np.float64) for _ in range(PRIMITIVES[name])]
    points[0][4] = np.nan
    points[-1][[8, 9]] = points[0][[8, 9]]        # shared end points: touching, collinear
    chunks = [(13, -1), (40, -1), (1, -1), (20, -1)]
    dasks = [da.from_array(p, chunks=c) for p, c in zip(points, chunks)]
    want = getattr(fc, name)(*points)
    assert_same(computed(scheduler, getattr(fcd, name)(*dasks, backend=fc)), want)
    # a single point stands for every row; float32 rows stay float32
    mixed = [dasks[0].astype(np.float32), (1.0, -2.0)] + dasks[2:]
    want = getattr(fc, name)(points[0].astype(np.float32), (1.0, -2.0), *points[2:])
    assert_same(computed(scheduler, getattr(fcd, name)(*mixed, backend=fc)), want)


def test_results_are_dask_records_of_the_in_memory_types(fc):
    a = rows(fc, "circle", 18)
    c = fcd.contact(a.dask, fc.Circle(4, 4, 2), backend=fc)
    assert type(c) is fc.ContactArray and all(isinstance(f, da.Array) for f in c)
    assert c.points.shape == (N, 2, 2) and c.points.chunks[0] == CHUNKS
    h = fcd.raycast(a.dask, (0, 0), (1, 1), backend=fc)
    assert type(h) is fc.RayHitArray and h.t.chunks == (CHUNKS,)
    assert type(fcd.shape_cast(a.dask, (0, 0), a.dask, (1, 0), backend=fc)) is fc.CastHitArray
    assert type(fcd.point_query(a.dask, (0, 0), backend=fc)) is fc.PointQueryArray
    hit = fcd.collide(a.dask, fc.Circle(4, 4, 2), backend=fc)
    assert hit.dtype == bool and hit.chunks == (CHUNKS,)


def test_empty_rows(fc):
    empty = da.from_array(np.empty((0, 3)), chunks=(1, -1))
    assert_same(fcd.collide(empty, fc.Circle(0, 0, 1), backend=fc).compute(),
                np.zeros(0, dtype=bool))
    assert fcd.contact(empty, empty, backend=fc).points.compute().shape == (0, 2, 2)


def test_closed_forms(fc):
    """Answers worked by hand, through the dask path alone."""
    a = da.from_array([[0.0, 0, 1], [0, 0, 1], [0, 0, np.nan], [0, 0, -1]], chunks=(3, -1))
    b = da.from_array([[2.0, 0, 1], [3, 4, 1], [2, 0, 1], [0, 0, 1]], chunks=(1, -1))
    assert fcd.collide(a, b, backend=fc).compute().tolist() == [True, False, False, False]
    d = fcd.distance(a, b, backend=fc).compute()
    assert d[:2].tolist() == [0.0, 3.0] and np.isnan(d[2:]).all()
    toi = fcd.time_of_impact(a, (1, 0), fc.Circle(10, 0, 1), (-1, 0), 10, backend=fc)
    assert toi.compute()[:2].tolist() == [4.0, 4.0]


# ------------------------------------------------------------------ overlapping_pairs


def exact_circle_pairs(data):
    """Every pair i < j of circles that meet, in exact arithmetic (dyadic rows)."""
    key = data.tobytes()
    if key not in _EXACT:
        _EXACT[key] = _exact_circle_pairs(data)
    return _EXACT[key]


_EXACT: dict = {}


def _exact_circle_pairs(data):
    rows = [tuple(Fraction(float(v)) for v in r) if np.isfinite(r).all() and r[2] >= 0
            else None for r in data]
    out = []
    for i, p in enumerate(rows):
        if p is None:
            continue
        for j in range(i + 1, len(rows)):
            q = rows[j]
            if q is not None and (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 <= (p[2] + q[2]) ** 2:
                out.append((i, j))
    return np.array(out, dtype=np.int64).reshape(-1, 2)


def dask_pairs(scheduler, rows_, kind, fc, tile=None):
    result = fcd.overlapping_pairs(rows_, kind=kind, tile=tile, backend=fc)
    assert result.dtype == np.int64 and result.shape[1] == 2
    return compute(scheduler, result)[0]


def circle_scene(name, rng):
    """Dyadic circle rows (exact in float64), for the scenes the issue names."""
    q = 1 / 64
    if name == "uniform":
        p = np.round(rng.uniform(0, 40, (400, 2)) / q) * q
        return np.c_[p, np.full(len(p), 1.0)]
    if name == "clustered":
        centres = rng.uniform(0, 200, (4, 2))
        p = centres[rng.integers(0, 4, 400)] + rng.normal(0, 3, (400, 2))
        return np.c_[np.round(p / q) * q, np.round(rng.uniform(0.25, 1, 400) / q) * q]
    if name == "one huge":
        p = np.round(rng.uniform(0, 60, (300, 2)) / q) * q
        return np.r_[np.c_[p, np.full(300, 0.5)], [[30.0, 30.0, 25.0]]]
    if name == "one point":
        return np.tile([[5.0, -3.0, 0.0], [5.0, -3.0, 1.0]], (40, 1))
    if name == "nan rows":
        p = np.round(rng.uniform(0, 20, (200, 2)) / q) * q
        data = np.c_[p, np.full(200, 1.0)]
        data[::7, 0] = np.nan
        data[3::11, 2] = -1.0       # a negative radius is no shape either
        data[5::13, 1] = np.inf
        return data
    if name == "far apart":
        p = np.round(rng.uniform(0, 20, (200, 2)) / q) * q
        data = np.c_[p, np.full(200, 1.0)]
        data[:4, :2] = [[1e15, 1e15], [-1e15, 3e15], [1e15, 1e15 + 1.5], [1e300, -1e300]]
        return data
    raise ValueError(name)


SCENES = ("uniform", "clustered", "one huge", "one point", "nan rows", "far apart")


@pytest.mark.parametrize("scene", SCENES)
def test_pairs_of_circle_scenes(fc, scheduler, scene):
    data = circle_scene(scene, np.random.default_rng(21))
    want = exact_circle_pairs(data)
    assert_same(fc.overlapping_pairs(fc.CircleArray(data)), want)   # the in-memory call
    for chunks in ((len(data),), (50, 3, 120, 1, len(data) - 174)):
        got = dask_pairs(scheduler, da.from_array(data, chunks=(chunks, -1)), "circle", fc)
        assert_same(got, want)


@pytest.mark.parametrize("tile", [None, 0.5, 3.0, 0.01])
@pytest.mark.parametrize("kind", KINDS)
def test_pairs_of_every_kind(fc, kind, tile):
    """Equal to the in-memory call on the computed rows, whatever the tile: rows over
    many tiles (0.5), a tile of several rows (3.0), rows over more than 64 tiles, sent
    to every task (0.01)."""
    for dtype in (np.float64, np.float32):
        r = Rows(fc, kind, raw_rows(kind, 150, 22, spread=12.0), (40, 40, 7, 63), dtype)
        want = fc.overlapping_pairs(r.memory)
        assert len(want) > 50
        assert_same(dask_pairs("threads", r.dask, kind, fc, tile), want)


@pytest.mark.parametrize("kind", ["polygon", "obb", "capsule"])
def test_pairs_of_every_kind_on_the_cluster(fc, client, kind):
    r = Rows(fc, kind, raw_rows(kind, 150, 23, spread=12.0), (40, 40, 7, 63))
    assert_same(dask_pairs(client, r.dask, kind, fc, 1.0), fc.overlapping_pairs(r.memory))


def border_scene():
    """Shapes on the borders of tiles of side 1 (tiles start at multiples of the
    tile), with their pairs worked by hand."""
    boxes = np.array([
        [0.0, 0.0, 1.0, 1.0],     # 0: a tile exactly
        [1.0, 1.0, 2.0, 2.0],     # 1: touches 0 at the tile corner (1, 1)
        [1.0, 0.0, 2.0, 1.0],     # 2: touches 0 along x = 1, 1 along y = 1
        [0.0, 1.0, 1.0, 2.0],     # 3: touches 0 along y = 1, 1 and 2 at (1, 1)
        [3.0, 3.0, 4.0, 4.0],     # 4: alone, ends on borders
        [4.0, 2.0, 5.0, 3.0],     # 5: touches 4 at the corner (4, 3)
        [2.5, 0.0, 3.0, 0.5],     # 6: ends on x = 3, a border
        [3.0, 0.5, 3.5, 1.0],     # 7: touches 6 at the corner (3, 0.5) on the border x = 3
        [5.0, 5.0, 5.0, 6.0],     # 8: zero width, on x = 5
        [4.0, 5.5, 5.0, 5.5],     # 9: zero height, meets 8 at (5, 5.5)
    ])
    pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (4, 5), (6, 7), (8, 9)]
    return boxes, np.array(pairs, dtype=np.int64)


def test_pairs_on_tile_borders(fc, scheduler):
    boxes, want = border_scene()
    assert_same(fc.overlapping_pairs(fc.AABBArray(boxes)), want)
    cheap = scheduler != "threads"    # the cluster: one chunking, two tiles
    for chunks in ((3, 4, 3),) if cheap else ((10,), (1,) * 10, (3, 4, 3)):
        for tile in (1.0, None) if cheap else (1.0, 0.5, None):
            got = dask_pairs(scheduler, da.from_array(boxes, chunks=(chunks, -1)), "aabb",
                             fc, tile)
            assert_same(got, want)


def test_circles_touching_at_tile_corners(fc):
    """Four unit circles touching around the tile corner (2, 2) and across borders:
    each pair once."""
    data = np.array([[1.0, 1.0, 2 ** 0.5 / 2], [3.0, 1.0, 2 ** 0.5 / 2],
                     [1.0, 3.0, 1.0], [3.0, 3.0, 1.0], [2.0, 2.0, 0.0], [0.0, 2.0, 1.0]])
    data[:2, 2] = math.sqrt(2.0)          # meet the centre point (2, 2) within rounding
    want = fc.overlapping_pairs(fc.CircleArray(data))
    assert {(2, 3), (2, 5)} <= set(map(tuple, want.tolist()))
    for chunks in ((6,), (1,) * 6, (2, 4)):
        got = dask_pairs("threads", da.from_array(data, chunks=(chunks, -1)), "circle", fc,
                         1.0)
        assert_same(got, want)


def test_pairs_of_empty_and_all_invalid_rows(fc, scheduler):
    empty = da.from_array(np.empty((0, 3)), chunks=(1, -1))
    assert_same(dask_pairs(scheduler, empty, "circle", fc), np.empty((0, 2), dtype=np.int64))
    nan = da.from_array(np.full((9, 4), np.nan), chunks=(4, -1))
    assert_same(dask_pairs(scheduler, nan, "aabb", fc), np.empty((0, 2), dtype=np.int64))
    v, c = regular_polygons(np.random.default_rng(24), 5)
    c[:] = 2        # counts below 3: no polygon
    polys = (da.from_array(v, chunks=(2, -1, -1)), da.from_array(c, chunks=3))
    assert_same(dask_pairs(scheduler, polys, "polygon", fc), np.empty((0, 2), dtype=np.int64))


def test_pairs_blocks_follow_the_row_chunks(fc):
    data = circle_scene("uniform", np.random.default_rng(25))
    chunks = (100, 50, 250)
    result = fcd.overlapping_pairs(da.from_array(data, chunks=(chunks, -1)), backend=fc)
    assert result.numblocks == (3, 1) and all(math.isnan(c) for c in result.chunks[0])
    starts = np.cumsum((0,) + chunks)
    blocks = dask.compute(*result.to_delayed().ravel(), scheduler="threads")
    for k, block in enumerate(blocks):
        assert ((block[:, 0] >= starts[k]) & (block[:, 0] < starts[k + 1])).all()
    assert_same(np.concatenate(blocks), exact_circle_pairs(data))


# ---------------------------------------------------------------------- bad input


def test_bad_input_names_the_argument(fc):
    x = da.from_array(np.zeros((10, 3)), chunks=(5, -1))
    cases = [
        (ValueError, "kind must be one of", lambda: fcd.collide(x, x, kind="ball")),
        (TypeError, "kind must be a string", lambda: fcd.distance(x, x, kind=3)),
        (ValueError, "kind_b must be one of", lambda: fcd.collide(x, x, kind_b="box")),
        (ValueError, r"a must have shape \(N, 4\)", lambda: fcd.collide(x, x, kind="aabb")),
        (ValueError, "b must be chunked along rows only",
         lambda: fcd.collide(x, x.rechunk((5, 1)))),
        (ValueError, "a and b must have the same length",
         lambda: fcd.contact(x, x[:7])),
        (TypeError, "a must hold real numbers",
         lambda: fcd.collide(x.astype(complex), x)),
        (TypeError, "b must hold real numbers", lambda: fcd.collide(x, x.astype(bool))),
        (TypeError, "a must be a dask array of rows", lambda: fcd.collide([1, 2, 3], x)),
        (TypeError, "a or b must be a dask array",
         lambda: fcd.collide(fc.Circle(0, 0, 1), fc.Circle(0, 0, 1), backend=fc)),
        (ValueError, "a has unknown chunk sizes", lambda: fcd.collide(x[x[:, 0] > 0], x)),
        (ValueError, "direction", lambda: fcd.raycast(x, (0, 0), (0, 0))),
        (ValueError, "max_t", lambda: fcd.raycast(x, (0, 0), (1, 0), -1.0)),
        (ValueError, r"origin must have shape \(N, 2\), or be one point",
         lambda: fcd.raycast(x, x, (1, 0))),
        (ValueError, r"direction must have shape \(N, 2\), or be one point",
         lambda: fcd.raycast(x, (0, 0), da.ones(2, chunks=2))),
        (ValueError, r"max_t must have shape \(N,\), or be one number",
         lambda: fcd.raycast(x, (0, 0), (1, 0), da.ones((), chunks=()))),
        (ValueError, "shape and origin must have the same length",
         lambda: fcd.raycast(x, x[:4, :2], (1, 0))),
        (ValueError, "velocity_b", lambda: fcd.time_of_impact(x, (0, 0), x, (np.inf, 0))),
        (ValueError, "density", lambda: fcd.mass_properties(x, -1.0)),
        (TypeError, "p must be a point", lambda: fcd.closest_point_on_segment(None, x[:, :2],
                                                                                (0, 0))),
        (ValueError, "p and b must have the same length",
         lambda: fcd.closest_point_on_segment(x[:, :2], (0, 0), x[:3, :2])),
        (TypeError, "pair \\(vertices, counts\\)", lambda: fcd.collide(x, x, kind="polygon")),
        (TypeError, r"a\[1\] \(counts\) must hold integers",
         lambda: fcd.collide((da.zeros((10, 4, 2)), da.zeros(10)), x, kind="polygon",
                             kind_b="circle")),
        (ValueError, "backend must be", lambda: fcd.collide(x, x, backend="fast")),
        (ValueError, "rows must be chunked along rows only",
         lambda: fcd.overlapping_pairs(x.rechunk((5, 2)))),
        (ValueError, r"rows must have shape \(N, 5\)",
         lambda: fcd.overlapping_pairs(x, kind="obb")),
        (TypeError, "rows must hold real numbers",
         lambda: fcd.overlapping_pairs(x.astype(object))),
        (TypeError, "rows must be a dask array", lambda: fcd.overlapping_pairs("rows")),
        (ValueError, r"rows\[0\] and rows\[1\] must have the same length",
         lambda: fcd.overlapping_pairs((da.zeros((10, 4, 2)), da.zeros(9, dtype=int)),
                                       kind="polygon")),
        (ValueError, "tile must be positive", lambda: fcd.overlapping_pairs(x, tile=0.0)),
        (ValueError, "tile must be positive",
         lambda: fcd.overlapping_pairs(x, tile=math.nan)),
        (TypeError, "tile must be a number", lambda: fcd.overlapping_pairs(x, tile="big")),
        (ValueError, "kind must be one of", lambda: fcd.overlapping_pairs(x, kind="disc")),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()   # raised while the graph is built: nothing was computed


def test_a_shape_of_the_other_backend_is_refused(fc, ext, ref):
    other = ref if fc is ext else ext
    x = da.from_array(np.zeros((4, 3)), chunks=(2, -1))
    with pytest.raises(TypeError, match="b is a shape of another fastcol backend"):
        fcd.collide(x, other.Circle(0, 0, 1), backend=fc)


def _backends_run(x, monkeypatch):
    """The backends the blocks of ``x`` load when computed (threads: in this process)."""
    seen = set()
    load = fcd._api.load

    def spy(name):
        seen.add(name)
        return load(name)

    monkeypatch.setattr(fcd._api, "load", spy)
    x.compute(scheduler="threads")
    monkeypatch.setattr(fcd._api, "load", load)
    return seen


def test_without_backend_a_shape_operand_names_it(fc, monkeypatch):
    """backend=None runs the backend of a single shape given as an operand (so a
    reference shape works where the façade is compiled), and answers as it does."""
    x = da.from_array(np.array([[0.0, 0, 1], [5, 0, 1], [2, 0, 1]]), chunks=(2, -1))
    box = fc.AABB(1, -1, 2, 1)
    got = fcd.collide(box, x, kind_b="circle")
    assert _backends_run(got, monkeypatch) == {fc.backend}
    assert_same(got.compute(scheduler="threads"), fc.collide(box, fc.CircleArray(x.compute())))
    assert _backends_run(fcd.distance(x, x), monkeypatch) == {__import__("fastcol").backend}


def test_the_default_backend_is_the_facade_s():
    import fastcol

    x = da.from_array(np.array([[0.0, 0, 1], [5, 0, 1]]), chunks=(1, -1))
    got = fcd.distance(x, fastcol.Circle(0, 0, 1)).compute(scheduler="threads")
    assert_same(got, np.array([0.0, 3.0]))


def test_module_examples():
    result = doctest.testmod(fcd, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0


def test_integer_rows_convert_as_in_memory(fc):
    """Integer rows are converted once to float64, as the in-memory arrays convert them."""
    data = np.random.default_rng(26).integers(0, 12, (60, 3))
    data[:, 2] = np.random.default_rng(27).integers(0, 3, 60)
    x = da.from_array(data, chunks=(25, -1))
    memory = fc.CircleArray(data)
    assert memory.dtype == np.float64
    assert_same(fcd.distance(x, fc.Circle(5, 5, 1), backend=fc).compute(scheduler="threads"),
                fc.distance(memory, fc.Circle(5, 5, 1)))
    want = exact_circle_pairs(data.astype(np.float64))
    assert_same(fc.overlapping_pairs(memory), want)
    assert_same(dask_pairs("threads", x, "circle", fc, 2.0), want)
