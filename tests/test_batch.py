"""Batch queries over shape arrays, on both backends.

An array query must equal the scalar query row by row: float64 results bit for bit
(the same kernels run on the same numbers), float32 results are the float64 answer for
the same float32 inputs rounded once to float32.  Rows that are no shape give False or
NaN; every argument is checked before any kernel runs.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exact
from test_differential import PRIMITIVES  # name -> number of point arguments
from shapes import ARRAY, KINDS, WIDTH, make_hull, shape_specs

BATCH = settings(max_examples=40, database=None, deadline=None)


def build_array(fc, kind, specs, dtype=np.float64):
    if kind == "Polygon":
        return fc.PolygonArray([make_hull(fc, s) for s in specs], dtype=dtype)
    rows = np.array([s[1:] for s in specs], dtype=dtype).reshape(len(specs), WIDTH[kind])
    return getattr(fc, ARRAY[kind])(rows)


def shape_specs_example(kind):
    return {
        "Circle": ("Circle", 0.0, 0.0, 1.0),
        "Capsule": ("Capsule", 0.0, 0.0, 1.0, 0.0, 1.0),
        "Segment": ("Segment", 0.0, 0.0, 1.0, 0.0),
        "AABB": ("AABB", 0.0, 0.0, 1.0, 1.0),
        "OBB": ("OBB", 0.0, 0.0, 1.0, 1.0, 0.5),
        "Polygon": ("Polygon", ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))),
    }[kind]


def rows_of(x, n):
    """The scalar shapes a batch query pairs up: the shape itself, or arr[i]."""
    if hasattr(x, "dtype"):
        return [x[i] for i in range(n)]
    return [x] * n


def as_bytes(values, dtype=np.float64):
    return np.asarray(values, dtype=dtype).tobytes()


def check_rows(fc, a, b, n):
    """Every batch query on (a, b) against the scalar query on each row."""
    ra, rb = rows_of(a, n), rows_of(b, n)
    hit = fc.collide(a, b)
    assert hit.dtype == np.bool_ and hit.shape == (n,)
    assert hit.tolist() == [fc.collide(p, q) for p, q in zip(ra, rb)]
    d = fc.distance(a, b)
    assert d.dtype == np.float64 and d.shape == (n,)
    assert d.tobytes() == as_bytes([fc.distance(p, q) for p, q in zip(ra, rb)])
    pa, pb, dd = fc.closest_points(a, b)
    assert pa.shape == pb.shape == (n, 2) and dd.shape == (n,)
    scalar = [fc.closest_points(p, q) for p, q in zip(ra, rb)]
    assert pa.tobytes() == as_bytes([r.point_a for r in scalar])
    assert pb.tobytes() == as_bytes([r.point_b for r in scalar])
    assert dd.tobytes() == d.tobytes()


PAIRS = [(ka, kb) for ka in KINDS for kb in KINDS]


@pytest.mark.parametrize("ka,kb", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
@BATCH
@given(data=st.data())
def test_array_against_array_equals_scalar_rows(fc, ka, kb, data):
    n = data.draw(st.integers(0, 5))
    sa = data.draw(st.lists(shape_specs(ka), min_size=n, max_size=n))
    sb = data.draw(st.lists(shape_specs(kb), min_size=n, max_size=n))
    check_rows(fc, build_array(fc, ka, sa), build_array(fc, kb, sb), n)


@pytest.mark.parametrize("ka,kb", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
@BATCH
@given(data=st.data())
def test_shape_against_array_equals_scalar_rows(fc, ka, kb, data):
    shape = make_hull(fc, data.draw(shape_specs(ka)))
    sb = data.draw(st.lists(shape_specs(kb), min_size=0, max_size=5))
    arr = build_array(fc, kb, sb)
    check_rows(fc, shape, arr, len(sb))
    check_rows(fc, arr, shape, len(sb))


@pytest.mark.parametrize("ka,kb", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
@BATCH
@given(data=st.data())
def test_float32_is_float64_rounded_once(fc, ref, ka, kb, data):
    n = data.draw(st.integers(1, 4))
    sa = data.draw(st.lists(shape_specs(ka), min_size=n, max_size=n))
    sb = data.draw(st.lists(shape_specs(kb), min_size=n, max_size=n))
    a32 = build_array(fc, ka, sa, np.float32)
    b32 = build_array(fc, kb, sb, np.float32)
    d32 = fc.distance(a32, b32)
    assert d32.dtype == np.float32
    # the same float32 numbers, widened exactly and answered in float64
    a64 = _widened(fc, a32)
    b64 = _widened(fc, b32)
    d64 = fc.distance(a64, b64)
    assert d32.tobytes() == d64.astype(np.float32).tobytes()
    pa, pb, dd = fc.closest_points(a32, b32)
    qa, qb, _ = fc.closest_points(a64, b64)
    assert pa.dtype == np.float32
    assert pa.tobytes() == qa.astype(np.float32).tobytes()
    assert pb.tobytes() == qb.astype(np.float32).tobytes()
    assert fc.collide(a32, b32).tolist() == fc.collide(a64, b64).tolist()
    # a float32 array against a float64 one computes and answers in float64
    assert fc.distance(a32, b64).dtype == np.float64
    assert fc.distance(a32, b64).tobytes() == d64.tobytes()
    # the reference agrees with the compiled loops on float32 too
    assert fc.distance(a32, b32).tobytes() == ref.distance(_in(ref, a32), _in(ref, b32)).tobytes()


def _widened(fc, arr):
    if isinstance(arr, fc.PolygonArray):
        return fc.PolygonArray.from_padded(arr.vertices.astype(np.float64), arr.counts)
    return type(arr)(arr.data.astype(np.float64))


def _in(mod, arr):
    """The same rows as an array of another backend (arrays share their data)."""
    if hasattr(arr, "counts"):
        return mod.PolygonArray.from_padded(arr.vertices, arr.counts)
    return getattr(mod, type(arr).__name__)(arr.data)


# --------------------------------------------------------------------------- no shape


BAD_ROWS = {
    "Circle": [[math.nan, 0, 1], [0, math.inf, 1], [0, 0, -1.0], [0, 0, math.nan]],
    "Capsule": [[0, 0, math.nan, 0, 1], [0, 0, 1, 0, -0.5], [-math.inf, 0, 1, 0, 1]],
    "Segment": [[0, 0, math.nan, 0], [math.inf, 0, 1, 0]],
    "AABB": [[2, 0, 1, 1], [0, 2, 1, 1], [0, 0, math.nan, 1]],
    "OBB": [[0, 0, -1, 1, 0], [0, 0, 1, -1, 0], [0, 0, 1, 1, math.inf], [math.nan, 0, 1, 1, 0]],
}


@pytest.mark.parametrize("kind", sorted(BAD_ROWS))
def test_rows_that_are_no_shape_give_false_and_nan(fc, kind):
    good = list(shape_specs_example(kind)[1:])
    data = np.array([good] + BAD_ROWS[kind], dtype=np.float64)
    arr = getattr(fc, ARRAY[kind])(data)
    probe = fc.Circle(0.25, 0.25, 10.0)  # overlaps the good row
    assert fc.collide(arr, probe).tolist() == [True] + [False] * len(BAD_ROWS[kind])
    d = fc.distance(probe, arr)
    assert d[0] == 0.0 and np.isnan(d[1:]).all()
    pa, pb, dd = fc.closest_points(arr, probe)
    assert np.isnan(pa[1:]).all() and np.isnan(pb[1:]).all() and np.isnan(dd[1:]).all()
    assert not np.isnan(pa[0]).any()
    # two bad rows against each other, element-wise
    assert fc.collide(arr, arr).tolist() == [True] + [False] * len(BAD_ROWS[kind])




@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_circle_collide_rows_at_the_extremes(fc, dtype):
    # the circle-circle collide loop skips the finite checks while r0 + r1 < inf: every
    # value from huge to NaN in each column, element-wise and one against many, must
    # still give the scalar answer for rows that are shapes (sums and differences that
    # overflow included) and False for the others
    big = float(np.finfo(dtype).max)   # float32 rows are widened: no overflow there
    rng = np.random.default_rng(7)
    values = np.array([0.0, 1.0, -1.0, big, -big, math.inf, -math.inf, math.nan], dtype=dtype)
    picks = rng.choice(values, size=(4000, 6))
    picks[:200, 2] = picks[:200, 5] = big          # radii whose sum overflows: a hit
    picks[200:400, 0], picks[200:400, 3] = -big, big   # dx overflows
    a = fc.CircleArray(np.ascontiguousarray(picks[:, :3]))
    b = fc.CircleArray(np.ascontiguousarray(picks[:, 3:]))

    def expected(p, q):
        if not (np.isfinite(p).all() and np.isfinite(q).all() and p[2] >= 0 and q[2] >= 0):
            return False
        return fc.collide(fc.Circle(*map(float, p)), fc.Circle(*map(float, q)))

    want = [expected(p, q) for p, q in zip(picks[:, :3], picks[:, 3:])]
    assert True in want and False in want
    assert fc.collide(a, b).tolist() == want
    assert fc.collide(b, a).tolist() == want
    for fixed in ([0.0, 0.0, 1.0], [big, -big, big], [-big, 0.0, 0.0]):
        probe = fc.Circle(*fixed)
        want = [expected(np.array(fixed), q) for q in picks[:, 3:]]
        assert fc.collide(probe, b).tolist() == want
        assert fc.collide(b, probe).tolist() == want

    # distance: the loop takes max(sep, 0.0) by arithmetic; the scalar answer (rounded
    # once for float32) on every row that is two shapes, NaN on the others
    def distance(p, q):
        if not (np.isfinite(p).all() and np.isfinite(q).all() and p[2] >= 0 and q[2] >= 0):
            return math.nan
        return fc.distance(fc.Circle(*map(float, p)), fc.Circle(*map(float, q)))

    with np.errstate(over="ignore"):   # float32: distances beyond its range are inf
        want = np.array([distance(p, q) for p, q in zip(picks[:, :3], picks[:, 3:])],
                        dtype=dtype)
    assert (want == 0.0).any() and (want > 0.0).any() and np.isinf(want).any()
    for got in (fc.distance(a, b), fc.distance(b, a)):
        assert np.array_equal(got, want, equal_nan=True)
        assert not np.signbit(got[got == 0.0]).any()


def _band_rows(rng, n, exponents):
    """Circle-circle and circle-AABB rows whose distance is within a few ulps of the
    radius (or of the radii's sum): the square roots decide them, and the compiled
    loops' filter by squares (batch.pyx _roots_within) must leave them to the roots.
    Scales across the filter's range: squares near 2**-1020 and near DBL_MAX,
    subnormal radii; offsets 0 and 1e6."""
    circles_a, circles_b, boxes, centres = [], [], [], []
    for _ in range(n):
        e = int(rng.choice(exponents))
        scale = 2.0 ** e
        off = float(rng.choice([0.0, 1e6])) if e > -100 else 0.0
        r0 = scale * float(rng.uniform(0.25, 1.0))
        r1 = scale * float(rng.uniform(0.25, 1.0))
        reach = (r0 + r1) * (1.0 + int(rng.integers(-6, 7)) * 2.0 ** -52)
        angle = float(rng.choice([0.0, 0.5 * math.pi, rng.uniform(0, 2 * math.pi)]))
        ux, uy = (1.0, 0.0) if angle == 0.0 else (math.cos(angle), math.sin(angle))
        x0, y0 = off + scale * float(rng.uniform(-1, 1)), off
        circles_a.append((x0, y0, r0))
        circles_b.append((x0 + reach * ux, y0 + reach * uy, r1))
        # a box whose right side or top-right corner is r0 (give or take ulps) away
        w = scale * float(rng.uniform(0.1, 1.0))
        gap = r0 * (1.0 + int(rng.integers(-6, 7)) * 2.0 ** -52)
        boxes.append((x0 - w, y0 - w, x0, y0))
        if rng.random() < 0.5:
            centres.append((x0 + gap, y0 - w * float(rng.random()), r0))
        else:
            centres.append((x0 + gap * ux if ux > 0 else x0 + gap, y0 + gap * abs(uy), r0))
    return circles_a, circles_b, boxes, centres


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_circle_rows_at_the_roots_band_equal_the_scalar_answers(fc, dtype):
    rng = np.random.default_rng(11)
    exponents = ([-1074, -1060, -530, -516, -511, -510, -509, -100, 0, 100, 509, 510, 511]
                 if dtype == np.float64 else [-149, -140, -126, -60, 0, 60, 125])
    ca, cb, boxes, centres = _band_rows(rng, 2001, exponents)   # odd: a last row alone
    with np.errstate(over="ignore", under="ignore"):
        A, B = fc.CircleArray(np.array(ca, dtype)), fc.CircleArray(np.array(cb, dtype))
        C, X = fc.CircleArray(np.array(centres, dtype)), fc.AABBArray(np.array(boxes, dtype))
    hits = set()

    def same(got, want):
        # the first row that differs, or None (a short message for long arrays)
        bad = np.flatnonzero(~((got == want) | (np.isnan(got) & np.isnan(want))))
        return None if bad.size == 0 else (int(bad[0]), got[bad[0]], want[bad[0]])

    for p, q in ((A, B), (C, X)):
        n = len(p)
        want_hit = np.array([fc.collide(p[i], q[i]) for i in range(n)])
        want_dist = np.array([fc.distance(p[i], q[i]) for i in range(n)], dtype=dtype)
        hits.update(want_hit.tolist())
        for x, y in ((p, q), (q, p)):
            assert same(fc.collide(x, y), want_hit) is None
            assert same(fc.distance(x, y), want_dist) is None
        # one shape against every row, on either side
        for k in (0, 1, n - 1):
            want = np.array([fc.collide(p[k], q[i]) for i in range(n)])
            assert same(fc.collide(p[k], q), want) is None
            assert same(fc.collide(q, p[k]), want) is None
            want = np.array([fc.collide(p[i], q[k]) for i in range(n)])
            assert same(fc.collide(p, q[k]), want) is None
    assert hits == {True, False}


ROW_KINDS = sorted(WIDTH)


@pytest.mark.parametrize("kind_a", ROW_KINDS)
@pytest.mark.parametrize("kind_b", ROW_KINDS)
def test_small_collide_calls_answer_as_the_general_path(fc, kind_a, kind_b):
    # collide without out= or workers on float64 rows takes a direct entry (compiled
    # backend): every row kind against every other, element-wise and one against many,
    # must give what the general path (out=) and the scalar query give
    offsets = [(0.0, 0.0), (0.5, 0.25), (1.5, -0.5), (3.0, 0.0), (-0.9, 1.1)]

    a = build_array(fc, kind_a, [(kind_a, *make_hull(fc, shape_specs_example(kind_a))
                                  .translated(dx, dy)._values()) for dx, dy in offsets])
    b = build_array(fc, kind_b, [(kind_b, *make_hull(fc, shape_specs_example(kind_b))
                                  .translated(-dy, dx)._values()) for dx, dy in offsets])
    n = len(offsets)
    want = [fc.collide(a[i], b[i]) for i in range(n)]
    assert True in want and False in want
    assert fc.collide(a, b).tolist() == want
    assert fc.collide(a, b, out=np.empty(n, dtype=bool)).tolist() == want
    probe = b[1]
    want = [fc.collide(a[i], probe) for i in range(n)]
    assert fc.collide(a, probe).tolist() == want
    assert fc.collide(probe, a).tolist() == want
    assert fc.collide(a, probe, out=np.empty(n, dtype=bool)).tolist() == want
    assert fc.collide(a[:0], probe).shape == (0,)


def test_polygon_rows_that_are_no_shape(fc):
    polys = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (1, 1), (0, 1)]] * 2)
    polys.vertices[1, 2, 0] = math.nan
    polys.counts[2] = 99   # counts written later: never read past the row
    polys.counts[3] = 2
    probe = fc.Circle(0.2, 0.2, 0.1)
    assert fc.collide(polys, probe).tolist() == [True, False, False, False]
    d = fc.distance(polys, probe)
    assert d[0] == 0.0 and np.isnan(d[1:]).all()


def test_empty_arrays_give_empty_results(fc):
    empty = fc.CircleArray(np.zeros((0, 3)))
    assert fc.collide(empty, fc.Circle(0, 0, 1)).shape == (0,)
    assert fc.distance(empty, empty).shape == (0,)
    pa, pb, d = fc.closest_points(fc.AABB(0, 0, 1, 1), empty)
    assert pa.shape == pb.shape == (0, 2) and d.shape == (0,)
    none = fc.PolygonArray([])
    assert len(none) == 0 and fc.distance(none, fc.Circle(0, 0, 1)).shape == (0,)


# ------------------------------------------------------------------ input arrays


def test_wraps_without_copying_and_writes_move_shapes(fc):
    data = np.array([[0.0, 0.0, 1.0], [10.0, 0.0, 1.0]])
    balls = fc.CircleArray(data)
    assert balls.data is data
    probe = fc.Circle(3.0, 0.0, 1.0)
    assert fc.collide(balls, probe).tolist() == [False, False]
    data[1, 0] = 4.0      # moving a shape is writing to its row
    assert fc.collide(balls, probe).tolist() == [False, True]
    polys = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)]])
    polys.vertices[0] += 2.5
    assert fc.distance(polys, fc.Circle(0, 0, 0)).tolist() == [math.hypot(2.5, 2.5)]


def test_read_only_non_contiguous_big_endian_and_integer_input(fc):
    base = np.array([[0.0, 0.0, 1.0, 9.0], [3.0, 0.0, 1.0, 9.0]])
    expected = fc.distance(fc.CircleArray(base[:, :3].copy()), fc.Circle(0, 3, 1))
    ro = base[:, :3].copy()
    ro.flags.writeable = False
    strided = base[:, :3]                       # not C-contiguous: copied once
    big = base[:, :3].astype(">f8")             # big-endian: converted once
    ints = np.array([[0, 0, 1], [3, 0, 1]], dtype=np.int32)
    for data in (ro, strided, big, ints, base[:, :3].tolist()):
        arr = fc.CircleArray(data)
        assert arr.dtype == np.float64
        assert fc.distance(arr, fc.Circle(0, 3, 1)).tobytes() == expected.tobytes()
    assert fc.CircleArray(ro).data is ro        # read-only arrays are wrapped as they are
    assert fc.CircleArray(base[:, :3].astype(">f4")).dtype == np.float32


def test_copy_false_wraps_or_refuses_and_copy_true_copies(fc):
    data = np.array([[0.0, 0.0, 1.0], [10.0, 0.0, 1.0]])
    assert fc.CircleArray(data, copy=False).data is data
    copied = fc.CircleArray(data, copy=True)
    assert copied.data is not data and copied.data.tolist() == data.tolist()
    data[0, 0] = 5.0      # the copy does not move
    assert copied.data[0, 0] == 0.0
    wide = np.zeros((2, 6))
    for needs_a_copy in (data.astype(np.int64), wide[:, ::2], np.asfortranarray(data),
                         data.astype(">f8"), data.tolist()):
        with pytest.raises(ValueError, match=r"^data .*copy=False"):
            fc.CircleArray(needs_a_copy, copy=False)
        # without copy=False the same input is converted into a new array
        assert fc.CircleArray(needs_a_copy).data is not needs_a_copy
    vertices = np.array([[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]])
    counts = np.array([3], dtype=np.int64)
    polys = fc.PolygonArray.from_padded(vertices, counts, copy=False)
    assert polys.vertices is vertices and polys.counts is counts
    polys = fc.PolygonArray.from_padded(vertices, counts, copy=True)
    assert polys.vertices is not vertices and polys.counts is not counts
    assert polys.vertices.tolist() == vertices.tolist() and polys.counts.tolist() == [3]
    with pytest.raises(ValueError, match=r"^counts .*copy=False"):
        fc.PolygonArray.from_padded(vertices, counts.astype(np.int32), copy=False)
    with pytest.raises(ValueError, match=r"^vertices .*copy=False"):
        fc.PolygonArray.from_padded(vertices.astype(np.float16), counts, copy=False)
    with pytest.raises(ValueError, match=r"vertices must have shape \(N, K, 2\)"):
        fc.PolygonArray.from_padded(np.zeros((2, 3)), [3, 3])


@pytest.mark.parametrize("kind", sorted(WIDTH))
def test_arrays_build_from_lists_of_their_shapes(fc, kind):
    rows = {"Circle": [[0, 0, 1], [3, 1, 2]], "Capsule": [[0, 0, 4, 0, 1], [1, 1, 2, 3, 0.5]],
            "Segment": [[0, 0, 4, 0], [1, 1, 2, 3]], "AABB": [[0, 0, 1, 2], [-1, -2, 3, 4]],
            "OBB": [[0, 0, 1, 2, 0.5], [3, 1, 0.5, 0.25, -1.0]]}[kind]
    shapes = [getattr(fc, kind)(*row) for row in rows]
    cls = getattr(fc, ARRAY[kind])
    arr = cls(shapes)
    assert arr.data.dtype == np.float64 and arr.data.tolist() == rows
    assert list(arr) == shapes
    assert cls(tuple(shapes)).data.tolist() == rows
    with pytest.raises(ValueError, match="copy=False"):
        cls(shapes, copy=False)


@pytest.mark.parametrize("bad", [np.array([["a", "b", "c"]]), np.array([[1 + 1j, 0, 1]]),
                                 np.array([[True, False, True]]), [[object(), 0, 1]]])
def test_non_numeric_data_is_a_type_error(fc, bad):
    with pytest.raises(TypeError, match="data"):
        fc.CircleArray(bad)


@pytest.mark.parametrize("shape", [(3,), (2, 4), (2, 3, 1), (0,)])
def test_wrong_layout_is_a_value_error(fc, shape):
    with pytest.raises(ValueError, match="data"):
        fc.CircleArray(np.zeros(shape))


def test_indexing(fc):
    arr = fc.AABBArray([[0, 0, 1, 1], [1, 1, 2, 2], [2, 2, 3, 3]])
    assert arr[0] == fc.AABB(0, 0, 1, 1) and arr[-1] == fc.AABB(2, 2, 3, 3)
    assert arr[np.int64(1)] == fc.AABB(1, 1, 2, 2)
    assert len(arr[1:]) == 2 and arr[1:][0] == fc.AABB(1, 1, 2, 2)
    picked = arr[[2, 0]]
    assert type(picked) is type(arr) and [picked[0], picked[1]] == [arr[2], arr[0]]
    assert len(arr[np.array([True, False, True])]) == 2
    assert list(arr) == [arr[0], arr[1], arr[2]]
    with pytest.raises(IndexError):
        arr[3]
    with pytest.raises(TypeError):
        arr[0, 1]
    polys = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)], fc.Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])])
    assert polys[1] == fc.Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    assert polys[[1]].counts.tolist() == [4] and polys[::-1][0] == polys[1]


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.intp])
def test_index_arrays_gather_rows_as_fancy_indexing_does(fc, dtype):
    # 1-D integer arrays take a faster path (np.take): the same rows, a copy, the
    # same errors
    arr = fc.CircleArray([[0, 0, 1], [1, 1, 2], [2, 2, 3]])
    idx = np.array([2, 0, 2, 1], dtype=dtype)
    picked = arr[idx]
    assert type(picked) is type(arr) and picked.data.tolist() == arr.data[idx].tolist()
    picked.data[0, 2] = 9.0
    assert arr.data[2, 2] == 3.0
    if np.dtype(dtype).kind == "i":
        assert arr[np.array([-1, -3], dtype=dtype)].data.tolist() == [[2, 2, 3], [0, 0, 1]]
    assert len(arr[np.array([], dtype=dtype)]) == 0
    with pytest.raises(IndexError):
        arr[np.array([0, 3], dtype=dtype)]
    # the gathered rows are not checked again: they must already be what the
    # constructor makes (C-contiguous, the same dtype), and the kernels must read them
    narrow = fc.CircleArray(np.array([[0, 0, 1], [5, 0, 1], [1.5, 0, 1]], dtype=np.float32))
    got = narrow[np.array([2, 0], dtype=dtype)]
    assert got.dtype == np.float32 and got.data.flags.c_contiguous and got.data.shape == (2, 3)
    assert fc.collide(got, narrow[np.array([0, 0], dtype=dtype)]).tolist() == [True, True]
    polys = fc.PolygonArray([[(0, 0), (1, 0), (0, 1)], fc.Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])])
    got = polys[np.array([1, 0, 1], dtype=dtype)]
    assert type(got) is type(polys) and got.counts.tolist() == [4, 3, 4]
    assert [got[0], got[1], got[2]] == [polys[1], polys[0], polys[1]]
    with pytest.raises(IndexError):
        polys[np.array([2], dtype=dtype)]


def test_polygon_array_construction(fc):
    sq = [(0, 0), (0, 1), (1, 1), (1, 0)]          # clockwise: normalised
    polys = fc.PolygonArray([sq, [(0, 0), (1, 0), (0, 1)]], dtype=np.float32)
    assert polys.dtype == np.float32 and polys.counts.tolist() == [4, 3]
    assert polys[0] == fc.Polygon(sq)
    # padding repeats the last vertex
    assert polys.vertices[1, 3].tolist() == polys.vertices[1, 2].tolist()
    wrapped = fc.PolygonArray.from_padded(polys.vertices, polys.counts)
    assert wrapped.vertices is polys.vertices
    with pytest.raises(ValueError, match="counter-clockwise"):
        fc.PolygonArray.from_padded(np.array([[[0, 0], [0, 1], [1, 0]]], float), [3])
    star = [(math.cos(4 * math.pi * k / 5), math.sin(4 * math.pi * k / 5)) for k in range(5)]
    with pytest.raises(ValueError, match=r"vertices\[1\] must wind once"):
        fc.PolygonArray.from_padded(np.array([polys.vertices[1, :3].tolist() + [[0, 1]] * 2, star]), [3, 5])
    with pytest.raises(ValueError, match="collinear"):
        fc.PolygonArray.from_padded(np.array([[[0, 0], [1, 0], [2, 0], [0, 1]]], float), [4])
    with pytest.raises(ValueError, match="finite"):
        fc.PolygonArray.from_padded(np.array([[[0, 0], [1, 0], [math.nan, 1]]]), [3])
    with pytest.raises(ValueError, match="counts"):
        fc.PolygonArray.from_padded(np.zeros((1, 3, 2)), [4])
    with pytest.raises(ValueError, match="counts"):
        fc.PolygonArray.from_padded(np.zeros((2, 3, 2)), [3])
    with pytest.raises(TypeError, match="counts"):
        fc.PolygonArray.from_padded(np.zeros((1, 3, 2)), [3.0])
    with pytest.raises(ValueError, match="vertices"):
        fc.PolygonArray.from_padded(np.zeros((1, 3, 3)), [3])
    with pytest.raises(TypeError, match="dtype"):
        fc.PolygonArray([sq], dtype=np.int32)
    with pytest.raises(TypeError, match=r"polygons\[1\]"):
        fc.PolygonArray([sq, 5])
    with pytest.raises(ValueError, match="convex"):
        fc.PolygonArray([[(0, 0), (2, 0), (1, 0.2), (1, 2)]])


# ----------------------------------------------------------------- call arguments


def test_out_is_written_and_returned(fc):
    arr = fc.CircleArray([[0, 0, 1], [5, 0, 1]])
    out = np.zeros(2, dtype=bool)
    assert fc.collide(arr, fc.Circle(2, 0, 1), out=out) is out
    assert out.tolist() == [True, False]
    dist = np.full(2, -1.0)
    assert fc.distance(arr, fc.Circle(2, 0, 1), out=dist) is dist
    assert dist.tolist() == [0.0, 1.0]
    f32 = fc.CircleArray(np.array([[0, 0, 1]], np.float32))
    d32 = np.zeros(1, np.float32)
    assert fc.distance(f32, fc.Circle(3, 0, 1), out=d32) is d32 and d32[0] == 1.0


@pytest.mark.parametrize("query", ["collide", "distance"])
def test_out_is_checked(fc, query):
    arr = fc.CircleArray([[0, 0, 1], [5, 0, 1]])
    f = getattr(fc, query)
    good = np.dtype(bool) if query == "collide" else np.dtype(np.float64)
    wrong = np.float64 if query == "collide" else np.float32
    with pytest.raises(TypeError, match="out"):
        f(arr, arr, out=np.zeros(2, dtype=wrong))
    with pytest.raises(TypeError, match="out"):
        f(arr, arr, out=[0, 0])
    with pytest.raises(ValueError, match="out"):
        f(arr, arr, out=np.zeros(3, dtype=good))
    ro = np.zeros(2, dtype=good)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        f(arr, arr, out=ro)
    with pytest.raises(ValueError, match="out"):
        f(arr, arr, out=np.zeros(4, dtype=good)[::2])
    with pytest.raises(TypeError, match="out"):
        f(fc.Circle(0, 0, 1), fc.Circle(1, 0, 1), out=np.zeros(1, dtype=good))


def test_lengths_and_operands_are_checked(fc):
    two = fc.CircleArray([[0, 0, 1], [5, 0, 1]])
    three = fc.AABBArray([[0, 0, 1, 1]] * 3)
    for query in (fc.collide, fc.distance, fc.closest_points):
        with pytest.raises(ValueError, match="same length"):
            query(two, three)
        with pytest.raises(TypeError, match="b must be"):
            query(two, np.zeros((2, 3)))
        with pytest.raises(TypeError, match="a must be"):
            query("circles", two)


@pytest.mark.parametrize("workers,error", [(0, ValueError), (-2, ValueError),
                                           (1.5, TypeError), ("2", TypeError), (True, TypeError)])
def test_workers_is_checked(fc, workers, error):
    arr = fc.CircleArray([[0, 0, 1]])
    for query in (fc.collide, fc.distance, fc.closest_points):
        with pytest.raises(error, match="workers"):
            query(arr, fc.Circle(0, 0, 1), workers=workers)
        with pytest.raises(error, match="workers"):
            query(fc.Circle(0, 0, 1), fc.Circle(0, 0, 1), workers=workers)


def test_workers_split_rows_without_changing_answers(fc):
    rng = np.random.default_rng(7)
    n = 20_000 if fc.backend == "compiled" else 600
    data = np.column_stack([rng.uniform(0, 100, (n, 2)), rng.uniform(0, 3, n)])
    balls = fc.CircleArray(data)
    probe = fc.Capsule(10, 10, 80, 60, 5)
    one = fc.distance(balls, probe, workers=1)
    for workers in (2, 3, -1):
        assert fc.distance(balls, probe, workers=workers).tobytes() == one.tobytes()
        assert (fc.collide(balls, probe, workers=workers) == (one == 0.0)).all()


def test_another_thread_runs_while_a_batch_runs(ext):
    # the compiled loops release the GIL: a Python thread keeps counting meanwhile
    rng = np.random.default_rng(3)
    n = 2_000_000
    polys = ext.PolygonArray([ext.Polygon.hull(rng.uniform(0, 1, (8, 2)))] * 64)
    big = ext.PolygonArray.from_padded(np.tile(polys.vertices, (n // 64, 1, 1)),
                                      np.tile(polys.counts, n // 64))
    probe = ext.Polygon.hull(rng.uniform(3, 4, (8, 2)))
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    time.sleep(0.01)
    before = len(ticks)
    start = time.perf_counter()
    ext.distance(big, probe)
    elapsed = time.perf_counter() - start
    during = [x for x in ticks[before:] if start <= x <= start + elapsed]
    done.set()
    t.join()
    assert elapsed > 0.05, "the batch is too short to tell"
    # holding the GIL for the whole batch would leave no ticks inside it
    assert len(during) >= 5, (len(during), elapsed)


# ------------------------------------------------------------- geometry primitives

POINT = st.tuples(st.integers(-8, 8).map(lambda k: k / 4), st.integers(-8, 8).map(lambda k: k / 4)) | st.tuples(
    st.floats(-10, 10), st.floats(-10, 10))


def _flat(result):
    """A primitive's result as a flat list of numbers and bools."""
    out = []
    for part in result if isinstance(result, tuple) else (result,):
        out.extend(part if isinstance(part, tuple) else (part,))
    return out


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
@BATCH
@given(data=st.data())
def test_primitives_on_point_arrays_equal_scalar_rows(fc, name, data):
    k = PRIMITIVES[name]
    n = data.draw(st.integers(0, 6))
    rows = [data.draw(st.lists(POINT, min_size=n, max_size=n)) for _ in range(k)]
    # each argument an (N, 2) array, or a single point standing for every row
    single = data.draw(st.lists(st.booleans(), min_size=k, max_size=k))
    if all(single):
        single[0] = False
    points = [data.draw(POINT) for _ in range(k)]
    args = [points[j] if single[j] else np.array(rows[j], dtype=float).reshape(n, 2)
            for j in range(k)]
    f = getattr(fc, name)
    result = f(*args)
    parts = result if isinstance(result, tuple) else (result,)
    assert all(len(p) == n for p in parts)
    for i in range(n):
        scalar = f(*[points[j] if single[j] else rows[j][i] for j in range(k)])
        got = []
        for p in parts:
            got.extend(p[i].tolist() if p.ndim == 2 else [p[i].item()])
        assert got == _flat(scalar)
        assert as_bytes([x for x in got if not isinstance(x, bool)]) == as_bytes(
            [x for x in _flat(scalar) if not isinstance(x, bool)])


def _hard_cases(seed, n):
    """n cases of exact.py's hard kinds in turn (nearly collinear, shared ends, 1e6
    offsets, ...) with capsule radii; every fifth case a segment against itself or
    against one with the same first point, where the rows' canonical order is decided
    by later fields or not at all."""
    rng = random.Random(seed)
    cases = []
    for i in range(n):
        a, b, c, d = exact.GENERATORS[exact.CASES[i % len(exact.CASES)]](rng)
        if i % 5 == 4:
            c, d = (a, b) if i % 10 == 4 else (a, d)
        cases.append(((a, b, c, d), exact.radii(rng, (a, b, c, d))))
    return cases


ROUND_PAIRS = [("Segment", "Segment"), ("Capsule", "Capsule"), ("Segment", "Capsule"),
               ("Capsule", "Segment")]


@pytest.mark.parametrize("ka,kb", ROUND_PAIRS, ids=[f"{a}-{b}" for a, b in ROUND_PAIRS])
def test_round_distance_rows_on_hard_cases_equal_scalar_rows(fc, ka, kb):
    cases = _hard_cases(33, 270)

    def shapes(kind, first):
        rows = [(*(a + b if first else c + d), r[0 if first else 1])
                for (a, b, c, d), r in cases]
        if kind == "Segment":
            rows = [row[:4] for row in rows]
        return getattr(fc, ARRAY[kind])(np.array(rows, dtype=np.float64))

    arr_a, arr_b = shapes(ka, True), shapes(kb, False)
    for x, y in ((arr_a, arr_b), (arr_b, arr_a)):
        want = [fc.distance(p, q) for p, q in zip(rows_of(x, len(cases)),
                                                  rows_of(y, len(cases)))]
        got = fc.distance(x, y)
        assert got.tobytes() == as_bytes(want)
        assert fc.collide(x, y).tolist() == [d == 0.0 for d in want]
        # and the verdicts against exact arithmetic: the cores' exact distance
        # against the radii (the segments' r = 0), outside a band of 1e-12 of the size
        for d, (case, radii) in zip(got.tolist(), cases):
            total = Fraction(radii[0] if ka == "Capsule" else 0.0) + Fraction(
                radii[1] if kb == "Capsule" else 0.0)
            d2 = exact.segment_segment_dist2(*case)
            band = Fraction(1e-12) * (exact.frame_extent(case) + total)
            if d2 > (total + band) ** 2 or (total > band and d2 < (total - band) ** 2):
                assert (d == 0.0) is (d2 <= total * total), case
            if total == 0:
                assert (d == 0.0) is exact.segments_intersect(*case), case


def test_segment_primitives_on_hard_cases_equal_scalar_rows(fc):
    cases = [case for case, _ in _hard_cases(31, 270)]
    ends = [np.array([case[j] for case in cases]) for j in range(4)]
    want = [fc.segment_segment_distance(*case) for case in cases]
    assert fc.segment_segment_distance(*ends).tobytes() == as_bytes(want)
    assert fc.segments_intersect(*ends).tolist() == [d == 0.0 for d in want]
    assert [d == 0.0 for d in want] == [exact.segments_intersect(*case) for case in cases]


def test_primitive_arrays_nan_rows_float32_and_errors(fc):
    p = np.array([[1.0, 5.0], [math.nan, 0.0], [9.0, 1.0]])
    pts, t = fc.closest_point_on_segment(p, (0.0, 0.0), (4.0, 0.0))
    assert pts.tolist()[0] == [1.0, 0.0] and pts.tolist()[2] == [4.0, 0.0]
    assert np.isnan(pts[1]).all() and np.isnan(t[1]) and t[[0, 2]].tolist() == [0.25, 1.0]
    hit = fc.segments_intersect(p, (0.0, 0.0), (4.0, 0.0), np.array([[4.0, 9.0]] * 3))
    assert hit.dtype == np.bool_ and hit[1] == False  # noqa: E712 (a NumPy bool)
    d32 = fc.point_segment_distance(p.astype(np.float32), (0.0, 0.0), (4.0, 0.0))
    assert d32.dtype == np.float32
    assert d32.tobytes() == fc.point_segment_distance(
        p.astype(np.float32).astype(np.float64), (0.0, 0.0), (4.0, 0.0)).astype(np.float32).tobytes()
    with pytest.raises(ValueError, match="same length"):
        fc.segment_segment_distance(p, p[:2], (0.0, 0.0), (1.0, 1.0))
    with pytest.raises(ValueError, match="b must have shape"):
        fc.point_segment_distance(p, (0.0, 0.0), np.zeros((3, 3)))
    with pytest.raises(TypeError, match="a"):
        fc.point_segment_distance(p, "a", (1.0, 1.0))
    with pytest.raises(TypeError, match="c"):
        fc.segment_segment_distance(p, p, np.array([["x", "y"]] * 3), p)


def _parts(result):
    return result if isinstance(result, tuple) else (result,)


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_primitive_single_point_is_n_copies_and_bad_rows(fc, name):
    """One point in any argument gives the rows of N copies of it, bit for bit; a row
    with NaN or inf in any argument is NaN (False) in every output, the others are not."""
    k = PRIMITIVES[name]
    n = 40
    rng = np.random.default_rng(k)
    # quarter units: repeated points, zero-length segments and collinear rows are common
    arrays = [rng.integers(-4, 5, (n, 2)) / 4.0 for _ in range(k)]
    bad = set()
    for j in range(k):
        for row, value in ((3 + j, (math.nan, 0.0)), (10 + j, (1.0, math.inf)),
                           (20 + j, (-math.inf, -math.inf))):
            arrays[j][row] = value
            bad.add(row)
    f = getattr(fc, name)
    point = (0.25, -0.5)
    for j in range(k):
        single = arrays[:j] + [point] + arrays[j + 1:]
        copies = arrays[:j] + [np.tile(point, (n, 1))] + arrays[j + 1:]
        for x, y in zip(_parts(f(*single)), _parts(f(*copies))):
            assert x.dtype == y.dtype and x.tobytes() == y.tobytes()
    good = sorted(set(range(n)) - bad)
    for part in _parts(f(*arrays)):
        rows = part.reshape(n, -1)
        if part.dtype == np.bool_:
            assert not rows[sorted(bad)].any()
        else:
            assert np.isnan(rows[sorted(bad)]).all() and not np.isnan(rows[good]).any()


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_primitives_split_rows_over_workers(fc, name):
    k = PRIMITIVES[name]
    n = 9_000 if fc.backend == "compiled" else 200  # several chunks when compiled
    rng = np.random.default_rng(k)
    args = [rng.uniform(-3, 3, (n, 2)) for _ in range(k)]
    args[-1] = (0.5, -0.25)  # a single point stands for every row
    f = getattr(fc, name)
    one = f(*args)
    for workers in (2, 3, -1):
        other = f(*args, workers=workers)
        for x, y in zip(one if isinstance(one, tuple) else (one,),
                        other if isinstance(other, tuple) else (other,)):
            assert x.tobytes() == y.tobytes()
    # the scalar form takes a valid workers too, and checks it
    pts = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)][:k]
    assert f(*pts, workers=2) == f(*pts)
    for bad, error in ((0, ValueError), (1.5, TypeError)):
        with pytest.raises(error, match="^workers"):
            f(*args, workers=bad)
        with pytest.raises(error, match="^workers"):
            f(*pts, workers=bad)
