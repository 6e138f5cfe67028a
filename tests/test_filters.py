"""Collision filters (categories, masks, groups) on both backends.

Every answer is checked against a brute force computed here: every pair (or query and
item) through the scalar queries, then the rule written out again in this file (a pair
is tested only when each one's category meets the other's mask, and never when both
have one non-zero group).  Defaults must change nothing; the filters must survive
indexing, slicing, pickling, ``from_padded`` and ``refit``; bad values are errors
naming the argument; and the compiled answers equal the reference's bit for bit.
"""

from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest

from shapes import KINDS
from test_index import random_array

ALL = 0xFFFFFFFF
CROSS = list(zip(KINDS, KINDS[1:] + KINDS[:1]))


# ------------------------------------------------------------------------ the rule


def row_filters(arr):
    """Each row's (category, mask, group) as Python ints, defaults where unset."""
    n = len(arr)
    cat = [ALL] * n if arr.categories is None else [int(v) for v in arr.categories]
    mask = [ALL] * n if arr.masks is None else [int(v) for v in arr.masks]
    group = [0] * n if arr.groups is None else [int(v) for v in arr.groups]
    return list(zip(cat, mask, group))


def passes_rule(a, b):
    """The rule, written out: pymunk's ShapeFilter and Box2D's bits."""
    (ca, ma, ga), (cb, mb, gb) = a, b
    if ga != 0 and ga == gb:
        return False
    return (ca & mb) != 0 and (cb & ma) != 0


def random_filters(rng, n, bits=3, groups=3):
    """Random filters of n rows over a few bits and groups (a negative group too);
    each of the three sometimes left unset."""
    kw = {"categories": rng.integers(1, 1 << bits, n).astype(np.int64),
          "masks": rng.integers(0, 1 << bits, n),
          "groups": rng.integers(-1, groups, n)}
    for name in list(kw):
        if rng.random() < 0.2:
            del kw[name]
    return kw


def filtered(fc, rng, kind, n, **kw):
    arr = random_array(fc, rng, kind, n, **kw)
    for name, value in random_filters(rng, n).items():
        setattr(arr, name, value)
    return arr


# ---------------------------------------------------------------------- brute force


def brute_pairs(fc, A, B=None):
    fa = row_filters(A)
    fb = fa if B is None else row_filters(B)
    other = A if B is None else B
    return [(i, j) for i in range(len(A)) for j in range(len(other))
            if (B is not None or i < j) and passes_rule(fa[i], fb[j])
            and fc.collide(A[i], other[j])]


def items_of(arrays):
    shapes, filters = [], []
    for a in arrays:
        shapes += list(a)
        filters += row_filters(a)
    return shapes, filters


def brute_query(fc, arrays, Q):
    items, fi = items_of(arrays)
    fq = row_filters(Q)
    return [(i, j) for i in range(len(Q)) for j, s in enumerate(items)
            if passes_rule(fq[i], fi[j]) and fc.collide(Q[i], s)]


def brute_nearest(fc, arrays, queries, fq, k):
    items, fi = items_of(arrays)
    out = []
    for q, f in zip(queries, fq):
        near = sorted((fc.distance(q, s), j) for j, s in enumerate(items) if passes_rule(f, fi[j]))
        near = near[:k] + [(math.inf, -1)] * (k - len(near[:k]))
        out.append(([j for _, j in near], [d for d, _ in near]))
    return out


def brute_raycast(fc, arrays, origins, directions, fr):
    items, fi = items_of(arrays)
    out = []
    for o, d, f in zip(origins, directions, fr):
        best = (math.inf, -1)
        for j, s in enumerate(items):
            if not passes_rule(f, fi[j]):
                continue
            h = fc.raycast(s, tuple(o), tuple(d))
            if h is not None and h.t < best[0]:
                best = (h.t, j)
        out.append(best)
    return out


def brute_cast(fc, arrays, Q, velocities):
    items, fi = items_of(arrays)
    fq = row_filters(Q)
    out = []
    for i, v in enumerate(velocities):
        best = (math.inf, -1)
        for j, s in enumerate(items):
            if not passes_rule(fq[i], fi[j]):
                continue
            h = fc.shape_cast(Q[i], tuple(v), s, (0.0, 0.0), 5.0)
            if h is not None and h.t < best[0]:
                best = (h.t, j)
        out.append(best)
    return out


def as_rows(kw, n):
    """Filters given as keywords (numbers or arrays) as per-row triples."""
    def col(name, default):
        v = kw.get(name)
        if v is None:
            return [default] * n
        return [int(x) for x in np.broadcast_to(np.asarray(v), (n,))]
    return list(zip(col("categories", ALL), col("masks", ALL), col("groups", 0)))


# --------------------------------------------------------------------- the answers


@pytest.mark.parametrize("kind", KINDS)
def test_pairs_within_one_array(fc, kind):
    rng = np.random.default_rng(100 + KINDS.index(kind))
    for _ in range(3):
        A = filtered(fc, rng, kind, 40, hi=15.0)
        want = brute_pairs(fc, A)
        assert fc.overlapping_pairs(A).tolist() == [list(p) for p in want]
        assert fc.overlapping_pairs(A, workers=2).tolist() == [list(p) for p in want]


@pytest.mark.parametrize("ka, kb", CROSS, ids=[f"{a}-{b}" for a, b in CROSS])
def test_pairs_of_two_arrays(fc, ka, kb):
    rng = np.random.default_rng(200 + KINDS.index(ka))
    A = filtered(fc, rng, ka, 30, hi=15.0)
    B = filtered(fc, rng, kb, 30, hi=15.0)
    want = brute_pairs(fc, A, B)
    assert fc.overlapping_pairs(A, B).tolist() == [list(p) for p in want]
    # one side without filters: it passes every filter but the other side's
    B.categories = B.masks = B.groups = None
    want = brute_pairs(fc, A, B)
    assert len(want) > 0
    assert fc.overlapping_pairs(A, B).tolist() == [list(p) for p in want]
    assert fc.overlapping_pairs(B, A).tolist() == sorted([j, i] for i, j in want)


def test_pairs_with_an_index(fc):
    rng = np.random.default_rng(300)
    walls = filtered(fc, rng, "Segment", 25, hi=15.0)
    boxes = filtered(fc, rng, "OBB", 25, hi=15.0)
    balls = filtered(fc, rng, "Circle", 30, hi=15.0)
    idx = fc.ShapeIndex([walls, boxes])
    want = brute_query(fc, [walls, boxes], balls)
    assert fc.overlapping_pairs(balls, idx).tolist() == [list(p) for p in want]
    assert idx.query(balls).tolist() == [list(p) for p in want]


@pytest.mark.parametrize("kind", KINDS)
def test_index_queries(fc, kind):
    rng = np.random.default_rng(400 + KINDS.index(kind))
    arrays = [filtered(fc, rng, kind, 30, hi=20.0), filtered(fc, rng, "Circle", 20, hi=20.0)]
    idx = fc.ShapeIndex(arrays)
    Q = filtered(fc, rng, KINDS[(KINDS.index(kind) + 2) % 6], 25, hi=20.0)
    assert idx.query(Q).tolist() == [list(p) for p in brute_query(fc, arrays, Q)]
    # nearest of shapes: the query array's filters
    items, dist = idx.nearest(Q, k=3)
    want = brute_nearest(fc, arrays, list(Q), row_filters(Q), 3)
    assert items.tolist() == [w[0] for w in want]
    assert dist.tolist() == [w[1] for w in want]
    # nearest of points: filters as keywords, numbers and arrays
    pts = rng.uniform(0, 20, (15, 2))
    for kw in ({"masks": 2}, {"categories": rng.integers(1, 8, 15), "groups": 1},
               {"groups": rng.integers(0, 3, 15), "masks": rng.integers(0, 8, 15)}):
        items, dist = idx.nearest(pts, k=2, **kw)
        circles = [fc.Circle(float(x), float(y), 0.0) for x, y in pts]
        want = brute_nearest(fc, arrays, circles, as_rows(kw, 15), 2)
        assert items.tolist() == [w[0] for w in want]
        assert dist.tolist() == [w[1] for w in want]
    # raycast: the rays' filters as keywords
    origins = rng.uniform(0, 20, (20, 2))
    directions = rng.normal(size=(20, 2))
    for kw in ({}, {"masks": 1}, {"categories": rng.integers(1, 8, 20),
                                  "masks": rng.integers(0, 8, 20), "groups": 2}):
        h = idx.raycast(origins, directions, **kw)
        want = brute_raycast(fc, arrays, origins, directions, as_rows(kw, 20))
        assert h.item.tolist() == [j for _, j in want]
        assert h.t.tolist() == [t for t, _ in want]
        assert h.hit.tolist() == [j >= 0 for _, j in want]
    # cast: the moving array's filters
    velocities = rng.normal(size=(25, 2)) * 4
    h = idx.cast(Q, velocities, max_t=5.0)
    want = brute_cast(fc, arrays, Q, velocities)
    assert h.item.tolist() == [j for _, j in want]
    assert h.t.tolist() == [t for t, _ in want]


def test_one_point_and_one_shape(fc):
    # by hand: items 0 (category 1) and 1 (category 2) 1 and 3 from the origin
    idx = fc.ShapeIndex(fc.CircleArray([[2, 0, 1], [4, 0, 1]], categories=[1, 2]))
    assert idx.nearest((0.0, 0.0))[0].tolist() == [0]
    assert idx.nearest((0.0, 0.0), masks=2)[0].tolist() == [1]
    assert idx.nearest(fc.Circle(0, 0, 0.5), masks=2)[1].tolist() == [2.5]
    assert idx.nearest((0.0, 0.0), masks=4) == (np.array([-1]), np.array([math.inf]))
    assert idx.raycast((0, 0), (1, 0), masks=2).t.tolist() == [3.0]
    assert idx.raycast((0, 0), (1, 0), categories=0).item.tolist() == [-1]
    # a single shape in query() has no filter: every item
    assert idx.query(fc.Circle(3, 0, 0.5)).tolist() == [0, 1]


def test_hand_worked_pairs(fc):
    # a row of touching unit circles: 0-1, 1-2, 2-3 touch; 0 and 1 share group 5, 2 is
    # category 2 that 3 does not accept, the NaN row never pairs
    A = fc.CircleArray([[0, 0, 1], [2, 0, 1], [4, 0, 1], [6, 0, 1], [1, 0, math.nan]],
                       categories=[1, 1, 2, 1, 1], masks=[3, 3, 3, 1, 3],
                       groups=[5, 5, 0, 0, 0])
    assert fc.overlapping_pairs(A).tolist() == [[1, 2]]
    # at 1e6, with a negative group on both sides (non-zero: never tested)
    B = fc.AABBArray([[1e6, 1e6, 1e6 + 1, 1e6 + 1], [1e6 + 1, 1e6, 1e6 + 2, 1e6 + 1],
                      [1e6 + 2, 1e6, 1e6 + 3, 1e6 + 1]], groups=[-1, -1, 0])
    assert fc.overlapping_pairs(B).tolist() == [[1, 2]]
    B.groups = None
    assert fc.overlapping_pairs(B).tolist() == [[0, 1], [1, 2]]


def test_float32_and_large_coordinates(fc):
    rng = np.random.default_rng(500)
    A = filtered(fc, rng, "Capsule", 40, dtype=np.float32, lo=1e6, hi=1e6 + 15)
    B = filtered(fc, rng, "AABB", 40, lo=1e6, hi=1e6 + 15)
    assert fc.overlapping_pairs(A, B).tolist() == [list(p) for p in brute_pairs(fc, A, B)]
    assert fc.overlapping_pairs(A).tolist() == [list(p) for p in brute_pairs(fc, A)]


# ------------------------------------------------------------------ defaults, survival


def test_default_filters_change_nothing(fc):
    rng = np.random.default_rng(600)
    for kind in KINDS:
        A = random_array(fc, rng, kind, 60, hi=20.0)
        B = random_array(fc, rng, "Circle", 40, hi=20.0)
        plain = [fc.overlapping_pairs(A), fc.overlapping_pairs(A, B)]
        idx = fc.ShapeIndex([A, B])
        o, d = rng.uniform(0, 20, (30, 2)), rng.normal(size=(30, 2))
        q = [idx.query(B), *idx.nearest(B, k=2), *idx.raycast(o, d), *idx.nearest(o, k=2)]
        A.categories, A.masks, A.groups = ALL, np.full(len(A), ALL, np.uint32), 0
        B.groups = np.zeros(len(B), np.int8)
        assert np.array_equal(fc.overlapping_pairs(A), plain[0])
        assert np.array_equal(fc.overlapping_pairs(A, B), plain[1])
        idx.refit()
        q2 = [idx.query(B), *idx.nearest(B, k=2), *idx.raycast(o, d, categories=ALL, groups=0),
              *idx.nearest(o, k=2, masks=ALL)]
        for x, y in zip(q, q2):
            assert np.array_equal(x, y)


def test_filters_survive_indexing_slicing_pickling(fc):
    rng = np.random.default_rng(700)
    for kind in KINDS:
        A = filtered(fc, rng, kind, 12)
        A.categories, A.masks, A.groups = np.arange(1, 13), 7, np.arange(12) % 3
        rows = np.array([5, 0, 11])
        for sub, sel in ((A[rows], rows), (A[2:9:3], np.arange(2, 9, 3)),
                         (A[[1, 4]], np.array([1, 4]))):
            assert sub.categories.tolist() == (np.arange(1, 13)[sel]).tolist()
            assert sub.masks.tolist() == [7] * len(sel)
            assert sub.groups.tolist() == (np.arange(12)[sel] % 3).tolist()
            assert sub.categories.dtype == np.uint32 and sub.groups.dtype == np.int32
        for other in (pickle.loads(pickle.dumps(A)), copy.copy(A), copy.deepcopy(A)):
            for name in ("categories", "masks", "groups"):
                assert np.array_equal(getattr(other, name), getattr(A, name))
            assert np.array_equal(fc.overlapping_pairs(other), fc.overlapping_pairs(A))
        assert "categories=" in repr(A) and "groups=" in repr(A)
        assert "categories" not in repr(random_array(fc, rng, kind, 2))
        # a scalar shape has no filter; a new index pickles with its arrays' filters
        idx = pickle.loads(pickle.dumps(fc.ShapeIndex(A)))
        assert idx.arrays[0].categories.tolist() == A.categories.tolist()


def test_rotate_and_translate_keep_the_filters(fc):
    rng = np.random.default_rng(701)
    for kind in KINDS:
        A = filtered(fc, rng, kind, 6)
        A.categories, A.masks, A.groups = np.arange(1, 7), 5, [0, 1, 1, 2, 0, 2]
        for moved in (fc.rotate(A, 0.5), fc.translate(A, (1.0, -2.0))):
            for name in ("categories", "masks", "groups"):
                assert np.array_equal(getattr(moved, name), getattr(A, name))
                # copies: the new array's filters are its own
                assert not np.shares_memory(getattr(moved, name), getattr(A, name))
        assert fc.rotate(random_array(fc, rng, kind, 3), 1.0).categories is None


def test_from_padded_and_polygon_constructor(fc):
    polys = fc.PolygonArray([[(0, 0), (2, 0), (1, 2)], [(1, 0), (3, 0), (2, 2)],
                             [(2, 0), (4, 0), (3, 2)]], groups=[1, 1, 0])
    assert fc.overlapping_pairs(polys).tolist() == [[0, 2], [1, 2]]
    wrapped = fc.PolygonArray.from_padded(polys.vertices, polys.counts, categories=[1, 2, 4],
                                          masks=[2, 1, 1])
    assert wrapped.groups is None
    assert fc.overlapping_pairs(wrapped).tolist() == [[0, 1]]
    assert fc.overlapping_pairs(wrapped[::-1]).tolist() == [[1, 2]]


def test_filters_written_after_build_take_effect_at_refit(fc):
    walls = fc.SegmentArray([[0, -5, 0, 5], [3, -5, 3, 5]])
    idx = fc.ShapeIndex(walls)
    ray = ((-1.0, 0.0), (1.0, 0.0))
    assert idx.raycast(*ray).item.tolist() == [0]
    walls.categories = [2, 1]
    # not yet: the index reads filters with the rows, at refit
    assert idx.raycast(*ray, masks=1).item.tolist() == [0]
    idx.refit()
    assert idx.raycast(*ray, masks=1).item.tolist() == [1]
    assert idx.query(fc.CircleArray([[0, 0, 4]], masks=1)).tolist() == [[0, 1]]
    walls.categories = None
    idx.rebuild()
    assert idx.raycast(*ray, masks=1).item.tolist() == [0]


# ----------------------------------------------------------------------- bad input


@pytest.mark.parametrize("name", ["categories", "masks", "groups"])
def test_bad_filters_are_errors_naming_the_argument(fc, name):
    data = [[0, 0, 1], [1, 0, 1], [2, 0, 1]]
    big = 2 ** 31 if name == "groups" else 2 ** 32
    for bad, error in ((np.array([1.0, 2.0, 3.0]), TypeError), ([True, False, True], TypeError),
                       (True, TypeError), (np.array([1, 2, 3], dtype=object), TypeError),
                       ("abc", TypeError), (1.5, TypeError), ([1, 2], ValueError),
                       ([[1, 2, 3]], ValueError), (-(2 ** 31) - 1 if name == "groups" else -1,
                                                   ValueError),
                       ([0, big, 0], ValueError), (2 ** 80, ValueError)):
        with pytest.raises(error, match=rf"^{name}\b"):
            fc.CircleArray(data, **{name: bad})
        arr = fc.CircleArray(data)
        with pytest.raises(error, match=rf"^{name}\b"):
            setattr(arr, name, bad)
        assert getattr(arr, name) is None   # unchanged
        with pytest.raises(error, match=rf"^{name}\b"):
            fc.PolygonArray([[(0, 0), (1, 0), (0, 1)]] * 3, **{name: bad})
    # the largest values are fine, and wrap nowhere
    arr = fc.CircleArray(data, **{name: big - 1})
    assert int(getattr(arr, name)[0]) == big - 1
    idx = fc.ShapeIndex(arr)
    with pytest.raises(TypeError, match=rf"^{name}\b"):
        idx.raycast((0, 0), (1, 0), **{name: 1.0})
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        idx.raycast((0, 0), (1, 0), **{name: -(2 ** 40)})
    with pytest.raises(ValueError, match=name):
        idx.raycast(np.zeros((3, 2)), (1, 0), **{name: [1, 2]})
    with pytest.raises(ValueError, match=name):
        idx.nearest(np.zeros((3, 2)), **{name: [1, 2]})
    with pytest.raises(ValueError, match=name):
        idx.nearest((0, 0), **{name: [1, 2]})
    with pytest.raises(TypeError, match=name):
        idx.nearest(arr, **{name: 1})


# --------------------------------------------------------------------- differential


def test_compiled_equals_reference_bit_for_bit(ext, ref):
    rng = np.random.default_rng(800)
    for trial in range(4):
        out = []
        seed = int(rng.integers(1 << 30))
        for fc in (ext, ref):
            r = np.random.default_rng(seed)
            A = filtered(fc, r, KINDS[trial], 150, hi=40.0)
            B = filtered(fc, r, KINDS[trial + 2], 100, hi=40.0)
            idx = fc.ShapeIndex([A, B])
            o, d = r.uniform(0, 40, (60, 2)), r.normal(size=(60, 2))
            rays = idx.raycast(o, d, categories=r.integers(0, 8, 60), masks=r.integers(0, 8, 60))
            out.append([fc.overlapping_pairs(A), fc.overlapping_pairs(A, B),
                        fc.overlapping_pairs(B, idx), idx.query(A), *idx.nearest(B, k=3),
                        *idx.nearest(o, k=2, groups=r.integers(0, 3, 60)), *rays])
        for x, y in zip(*out):
            assert x.dtype == y.dtype and x.shape == y.shape
            assert x.tobytes() == y.tobytes()
