"""overlapping_pairs on both backends: the broadphase must find exactly the pairs that a
brute-force loop over all pairs finds with ``collide``.

The brute force is the element-wise batch ``collide`` over every pair of row indices
(``collide(A[ii], B[jj])``), a code path that shares nothing with the broadphase but
the exact kernels.  Scenes are random (every shape type, every pair of types, on grids
of quarters so that touching is common) and adversarial (every shape at one point, one
shape far larger than the rest, far outliers, thin strips, exact touching, 1e6 offsets,
float32); some answers are worked out by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shapes import ARRAY, KINDS, WIDTH, scale, shape_specs, translate
from test_batch import build_array

PAIRS = [(ka, kb) for ka in KINDS for kb in KINDS]
RANDOM = settings(max_examples=12, database=None, deadline=None)
def brute(fc, A, B=None):
    """The pairs by testing every one: ``(M, 2)`` int64, sorted."""
    n = len(A)
    m = n if B is None else len(B)
    ii, jj = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    ii, jj = ii.ravel(), jj.ravel()
    if B is None:
        keep = ii < jj
        ii, jj = ii[keep], jj[keep]
    if len(ii) == 0:
        return np.empty((0, 2), dtype=np.int64)
    hit = fc.collide(A[ii], (A if B is None else B)[jj])
    return np.stack([ii[hit], jj[hit]], axis=1).astype(np.int64)


def check(fc, A, B=None, expected=None, **kw):
    """overlapping_pairs(A, B) is well formed and equals the brute force (or expected)."""
    got = fc.overlapping_pairs(A, B, **kw)
    assert isinstance(got, np.ndarray)
    assert got.dtype == np.int64 and got.ndim == 2 and got.shape[1] == 2
    if len(got):
        # sorted lexicographically, each pair once
        keys = got[:, 0] * (len(B) if B is not None else len(A)) + got[:, 1]
        assert np.all(np.diff(keys) > 0)
        if B is None:
            assert np.all(got[:, 0] < got[:, 1])
    if expected is None:
        expected = brute(fc, A, B)
    expected = np.asarray(expected, dtype=np.int64).reshape(-1, 2)
    assert got.tolist() == expected.tolist()
    return got


def circles(fc, rows, dtype=np.float64):
    return fc.CircleArray(np.asarray(rows, dtype=dtype).reshape(-1, 3))


# ------------------------------------------------------------------------ known answers


def test_hand_worked_circles(fc):
    # 0 and 1 touch (centres 2 apart, radii 1 + 1), 1 and 2 overlap, 3 is alone, 4 is
    # NaN, 5 has a negative radius and sits on top of 0
    A = circles(fc, [[0, 0, 1], [2, 0, 1], [3, 0, 0.5], [10, 10, 1],
                     [0, 0, math.nan], [0, 0, -1]])
    check(fc, A, expected=[[0, 1], [1, 2]])


def test_hand_worked_boxes_and_walls(fc):
    # a 3 x 3 block of unit boxes: edges and corners touch, so each box pairs with
    # every neighbour, diagonals included: 2 * 3 * 2 + 2 * 2 * 2 = 20 pairs
    rows = [[x, y, x + 1, y + 1] for y in range(3) for x in range(3)]
    A = fc.AABBArray(rows)
    expected = [(i, j) for i in range(9) for j in range(i + 1, 9)
                if abs(i % 3 - j % 3) <= 1 and abs(i // 3 - j // 3) <= 1]
    assert len(expected) == 20
    check(fc, A, expected=expected)
    # the wall x = 1.5 crosses the middle column (boxes 1, 4, 7) only; the wall
    # y = 3 touches the top row (6, 7, 8)
    walls = fc.SegmentArray([[1.5, -5, 1.5, 5], [-5, 3, 5, 3]])
    check(fc, A, walls, expected=[[1, 0], [4, 0], [6, 1], [7, 0], [7, 1], [8, 1]])


def test_hand_worked_mixture(fc):
    # a capsule along the x axis; a triangle whose tip touches it from above; an OBB
    # (a diamond) whose corner touches the triangle's base; a far circle
    caps = fc.CapsuleArray([[0, 0, 4, 0, 1], [0, 20, 4, 20, 1]])
    polys = fc.PolygonArray([[(2, 1), (3, 3), (1, 3)], [(50, 50), (51, 50), (50, 51)]])
    obbs = fc.OBBArray([[2, 4, math.sqrt(0.5), math.sqrt(0.5), math.pi / 4]])
    check(fc, caps, polys, expected=[[0, 0]])
    check(fc, polys, caps, expected=[[0, 0]])
    # the diamond's lowest corner is at y = 4 - 1 = 3 (to rounding): compare with the
    # scalar collide rather than trust the rounding
    touching = fc.collide(polys[0], obbs[0])
    check(fc, polys, obbs, expected=[[0, 0]] if touching else [])
    check(fc, caps, obbs, expected=[])


def test_a_shape_is_never_paired_with_itself(fc):
    A = circles(fc, [[0, 0, 1], [0, 0, 1]])
    check(fc, A, expected=[[0, 1]])
    # passing the same array twice is the bipartite question: both orders and (i, i)
    check(fc, A, A, expected=[[0, 0], [0, 1], [1, 0], [1, 1]])


# --------------------------------------------------------------------------- random


@pytest.mark.parametrize("ka,kb", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
@RANDOM
@given(data=st.data())
def test_random_pairs_of_types(fc, ka, kb, data):
    sa = data.draw(st.lists(shape_specs(ka, 2, 1), max_size=14))
    sb = data.draw(st.lists(shape_specs(kb, 2, 1), max_size=14))
    A, B = build_array(fc, ka, sa), build_array(fc, kb, sb)
    check(fc, A, B)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=25, database=None, deadline=None)
@given(data=st.data())
def test_random_within_one_array(fc, kind, data):
    specs = data.draw(st.lists(shape_specs(kind, 2, 1), max_size=25))
    check(fc, build_array(fc, kind, specs))


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=10, database=None, deadline=None)
@given(data=st.data())
def test_random_sizes_spread_over_scales(fc, kind, data):
    # shapes of very different sizes land on different grid levels
    specs = data.draw(st.lists(shape_specs(kind, 8, 4), min_size=1, max_size=20))
    scales = data.draw(st.lists(st.sampled_from([1e-3, 1.0, 1e3]), min_size=len(specs),
                                max_size=len(specs)))

    A = build_array(fc, kind, [scale(s, k) for s, k in zip(specs, scales)])
    check(fc, A)


def grid_scene(fc, rng, kind, n):
    """n shapes on a grid of quarters: many points and zero-size shapes (whose boxes
    are only the padding), exact touching, sometimes scaled or moved to 1e6."""
    if kind == "Polygon":
        c = rng.integers(-8, 9, (n, 2)) / 4.0
        size = rng.integers(1, 4, n) / 4.0
        tri = np.stack([c, c + np.c_[size, 0 * size], c + np.c_[0 * size, size]], axis=1)
        return fc.PolygonArray.from_padded(tri, np.full(n, 3))
    rows = rng.integers(-8, 9, (n, WIDTH[kind])) / 4.0
    if kind in ("Circle", "Capsule"):
        rows[:, -1] = np.abs(rows[:, -1]) * (rng.random(n) < 0.7)
    if kind == "AABB":
        rows[:, 2:] = rows[:, :2] + np.abs(rows[:, 2:]) * (rng.random((n, 1)) < 0.6)
    if kind == "OBB":
        rows[:, 2:4] = np.abs(rows[:, 2:4]) * (rng.random((n, 1)) < 0.6)
        rows[:, 4] = rng.choice([0.0, math.pi / 4, 0.3], n)
    if kind in ("Segment", "Capsule"):
        k = rng.random(n) < 0.4
        rows[k, 2:4] = rows[k, :2]
    if rng.random() < 0.3:
        rows *= rng.choice([1e-6, 1e3, 1e6])
    if rng.random() < 0.2:
        rows[:, :2] += 1e6
    return getattr(fc, ARRAY[kind])(rows)


def test_seeded_grid_scenes(fc):
    # a fixed set of scenes (no hypothesis: the same ones every run) crowded with
    # points and zero-size shapes, within one array and across two of any types
    rng = np.random.default_rng(2024)
    scenes = 80 if fc.backend == "reference" else 600
    for _ in range(scenes):
        ka, kb = rng.choice(KINDS), rng.choice(KINDS)
        A = grid_scene(fc, rng, ka, rng.integers(0, 30))
        B = grid_scene(fc, rng, kb, rng.integers(0, 30)) if rng.random() < 0.5 else None
        check(fc, A, B)


def test_compiled_equals_reference_on_a_larger_scene(ext, ref):
    rng = np.random.default_rng(6)
    for kind, width in WIDTH.items():
        rows = rng.uniform(0, 30, (400, width))
        if kind == "AABB":
            rows[:, 2:] = rows[:, :2] + rng.uniform(0, 2, (400, 2))
        elif kind in ("Circle", "Capsule"):
            rows[:, -1] = rng.uniform(0, 1.5, 400)
        elif kind == "OBB":
            rows[:, 2:4] = rng.uniform(0, 1, (400, 2))
        got = ext.overlapping_pairs(getattr(ext, ARRAY[kind])(rows))
        want = ref.overlapping_pairs(getattr(ref, ARRAY[kind])(rows))
        assert len(want) > 50
        assert got.tolist() == want.tolist()


# ---------------------------------------------------------------------- adversarial


def test_every_shape_at_one_point(fc):
    n = 120 if fc.backend == "reference" else 1500
    A = circles(fc, np.tile([5.0, -3.0, 0.5], (n, 1)))
    i, j = np.triu_indices(n, 1)
    check(fc, A, expected=np.stack([i, j], axis=1))
    # points (radius 0) at one point touch too
    check(fc, circles(fc, np.tile([1.0, 1.0, 0.0], (30, 1))),
          expected=np.stack(np.triu_indices(30, 1), axis=1))


def test_one_huge_among_tiny(fc):
    # tiny circles on a grid, 10 apart (never touching each other), all inside one
    # circle a thousand times larger: exactly the pairs (k, huge)
    side = 12 if fc.backend == "reference" else 80
    xs, ys = np.meshgrid(np.arange(side) * 10.0, np.arange(side) * 10.0)
    tiny = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, 1.0)], axis=1)
    c = (side - 1) * 5.0
    rows = np.vstack([tiny, [[c, c, 1000.0 * side]]])
    n = len(rows) - 1
    check(fc, circles(fc, rows), expected=[[k, n] for k in range(n)])
    # and the same as a separate B
    check(fc, circles(fc, tiny), circles(fc, [[c, c, 1000.0 * side]]),
          expected=[[k, 0] for k in range(n)])


def test_size_ratio_beyond_the_coarsest_level(fc):
    # a box 1e20 times the median size (past any grid level the compiled backend
    # builds) among tiny ones: every tiny one overlaps it, none overlaps another
    rows = [[k * 1.0, 0.0, k + 1e-10, 1e-10] for k in range(40)]
    rows.append([-1e10, -1e10, 1e10, 1e10])
    A = fc.AABBArray(rows)
    check(fc, A, expected=[[k, 40] for k in range(40)])
    huge = fc.AABBArray(rows[-1:] * 2)
    check(fc, huge, A, expected=[[i, k] for i in range(2) for k in range(41)])
    check(fc, A, huge, expected=[[k, i] for k in range(41) for i in range(2)])
    # two of them in one array pair with each other once
    both = fc.AABBArray(rows + rows[-1:])
    check(fc, both, expected=[[k, j] for k in range(40) for j in (40, 41)] + [[40, 41]])


@pytest.mark.parametrize("where", [1e6, 1e12, 1e25, 1e300, -1e300])
def test_far_outliers(fc, where):
    rng = np.random.default_rng(1)
    rows = np.c_[rng.uniform(0, 20, (150, 2)), rng.uniform(0, 1.5, 150)]
    rows[:3, :2] = where  # three outliers at one far point: they pair with each other
    rows[3, :2] = (-where, where)
    got = check(fc, circles(fc, rows))
    assert {(0, 1), (0, 2), (1, 2)} <= set(map(tuple, got.tolist()))
    # and as a separate B, against a scene without outliers
    check(fc, circles(fc, rows[4:]), circles(fc, rows[:8]))


@pytest.mark.parametrize("axis", ["vertical", "horizontal", "diagonal"])
def test_thin_strip(fc, axis):
    n = 150 if fc.backend == "reference" else 3000
    t = np.arange(n) * 1.5  # radius 1, spacing 1.5: each overlaps its neighbours
    zero = np.zeros(n)
    x, y = {"vertical": (zero, t), "horizontal": (t, zero), "diagonal": (t, t)}[axis]
    rows = np.stack([x, y, np.ones(n)], axis=1)
    # by hand: centres 1.5 apart (vertical/horizontal) overlap, 3 apart do not; on
    # the diagonal the spacing is 1.5 * sqrt(2) > 2, so nothing touches
    expected = [] if axis == "diagonal" else [[k, k + 1] for k in range(n - 1)]
    check(fc, circles(fc, rows), expected=expected)
    # segments along the strip, each meeting the next end to end (touching)
    ends = np.stack([x, y], axis=1)
    segs = np.hstack([ends[:-1], ends[1:]])
    check(fc, fc.SegmentArray(segs), expected=[[k, k + 1] for k in range(n - 2)])


def test_touching_exactly_at_scale(fc):
    # boxes side by side on a line at 1e6 (exact binary fractions): each touches the next
    n = 60
    x0 = 1e6 + np.arange(n) * 0.25
    rows = np.stack([x0, np.full(n, 1e6), x0 + 0.25, np.full(n, 1e6 + 0.25)], axis=1)
    check(fc, fc.AABBArray(rows), expected=[[k, k + 1] for k in range(n - 1)])


@pytest.mark.parametrize("scale", [1.0, 1e6])
def test_apart_by_less_than_the_padding(fc, scale):
    # the grid pads every box by 2**-40 of its coordinates; a gap far below that
    # passes the padded boxes, and the exact test must still refuse the pair.  By
    # hand: box k spans [x_k, x_k + 0.25]; box k + 1 starts one ulp past box k's end
    # when k is even (apart) and exactly at it when k is odd (touching)
    n = 40
    x0 = np.empty(n)
    x0[0] = scale
    for k in range(1, n):
        end = x0[k - 1] + 0.25
        x0[k] = np.nextafter(end, np.inf) if k % 2 else end
    rows = np.stack([x0, np.full(n, scale), x0 + 0.25, np.full(n, scale + 0.25)], axis=1)
    boxes = fc.AABBArray(rows)
    check(fc, boxes, expected=[[k, k + 1] for k in range(1, n - 1, 2)])
    # the same gaps between two arrays (even rows against odd ones)
    check(fc, boxes[np.arange(0, n, 2)], boxes[np.arange(1, n, 2)],
          expected=[[k, k - 1] for k in range(1, n // 2)])


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=8, database=None, deadline=None)
@given(data=st.data())
def test_offset_by_a_million(fc, kind, data):

    specs = data.draw(st.lists(shape_specs(kind, 2, 1), max_size=16))
    check(fc, build_array(fc, kind, [translate(s, 1e6, -1e6) for s in specs]))


@pytest.mark.parametrize("ka,kb", [("Circle", "Circle"), ("Capsule", "Polygon"),
                                   ("OBB", "AABB"), ("Polygon", "Polygon")])
@settings(max_examples=10, database=None, deadline=None)
@given(data=st.data())
def test_float32(fc, ka, kb, data):
    sa = data.draw(st.lists(shape_specs(ka, 2, 1), max_size=14))
    sb = data.draw(st.lists(shape_specs(kb, 2, 1), max_size=14))
    A = build_array(fc, ka, sa, np.float32)
    B = build_array(fc, kb, sb, np.float32)
    check(fc, A)
    check(fc, A, B)
    # float32 against float64: computed in float64 from the same (widened) numbers
    check(fc, A, build_array(fc, kb, sb))


# ----------------------------------------------------------------------- bad rows


def test_rows_that_are_no_shape_are_never_paired(fc):
    # every shape overlaps every other; rows 1..5 are no shape
    rows = np.tile([0.0, 0.0, 1.0], (9, 1))
    rows[1, 0] = math.nan
    rows[2, 1] = math.inf
    rows[3, 2] = -1.0
    rows[4, 2] = math.nan
    rows[5, 0] = -math.inf
    good = [0, 6, 7, 8]
    expected = [[i, j] for i in good for j in good if i < j]
    check(fc, circles(fc, rows), expected=expected)
    check(fc, circles(fc, rows), circles(fc, rows),
          expected=[[i, j] for i in good for j in good])


def test_boxes_with_min_above_max_and_negative_extents(fc):
    boxes = fc.AABBArray([[0, 0, 1, 1], [0.5, 0.5, 0.2, 2], [0, 0, 2, 2]])
    check(fc, boxes, expected=[[0, 2]])
    obbs = fc.OBBArray([[0, 0, 1, 1, 0], [0, 0, -1, 1, 0], [0, 0, 1, math.nan, 0],
                        [1, 1, 1, 1, math.inf], [0.5, 0, 1, 1, 0.3]])
    check(fc, obbs, expected=[[0, 4]])
    caps = fc.CapsuleArray([[0, 0, 1, 0, 1], [0, 0, 1, 0, -0.5], [0, 0, 1, 0, 0.5]])
    check(fc, caps, expected=[[0, 2]])


def test_polygon_rows_that_are_no_shape(fc):
    polys = fc.PolygonArray([[(0, 0), (2, 0), (0, 2)]] * 4)
    polys.vertices[1, 0, 0] = math.nan
    polys.counts[2] = 2      # counts can be written: fewer than 3 vertices
    polys.counts[3] = 99     # or more than the padded size
    check(fc, polys, expected=[])
    polys.counts[2] = 3
    check(fc, polys, expected=[[0, 2]])


# ---------------------------------------------------------------------- empty input


@pytest.mark.parametrize("kind", KINDS)
def test_empty_arrays(fc, kind):
    empty = build_array(fc, kind, [])
    one = circles(fc, [[0, 0, 1]])
    for args in ((empty,), (empty, empty), (empty, one), (one, empty), (one,)):
        got = fc.overlapping_pairs(*args)
        assert got.dtype == np.int64 and got.shape == (0, 2)
    # nothing but bad rows is empty too
    got = fc.overlapping_pairs(circles(fc, [[math.nan, 0, 1]] * 3))
    assert got.dtype == np.int64 and got.shape == (0, 2)


def test_read_only_and_strided_input(fc):
    base = np.array([[0, 0, 1, 9], [1.5, 0, 1, 9], [9, 9, 1, 9]], dtype=np.float64)
    data = base[:, :3]            # not contiguous: copied by the array class
    data.flags.writeable = False
    check(fc, fc.CircleArray(data), expected=[[0, 1]])
    ro = np.array([[0, 0, 1], [1.5, 0, 1]])
    ro.flags.writeable = False
    check(fc, fc.CircleArray(ro), expected=[[0, 1]])


# ------------------------------------------------------------------------ arguments


@pytest.mark.parametrize("bad", [None, [[0, 0, 1]], np.zeros((2, 3)), "circles", 3],
                         ids=["None", "list", "ndarray", "str", "int"])
def test_a_must_be_a_shape_array(fc, bad):
    ok = circles(fc, [[0, 0, 1]])
    if bad is not None:
        with pytest.raises(TypeError, match=r"\bA must be a shape array"):
            fc.overlapping_pairs(bad)
        with pytest.raises(TypeError, match=r"\bB must be a shape array"):
            fc.overlapping_pairs(ok, bad)
    with pytest.raises(TypeError, match=r"\bA must be a shape array"):
        fc.overlapping_pairs(fc.Circle(0, 0, 1), ok)
    with pytest.raises(TypeError, match=r"\bB must be a shape array"):
        fc.overlapping_pairs(ok, fc.Circle(0, 0, 1))


def test_workers_argument(fc):
    A = circles(fc, [[0, 0, 1], [1, 0, 1]])
    for bad in (0, -2):
        with pytest.raises(ValueError, match="workers"):
            fc.overlapping_pairs(A, workers=bad)
    for bad in (1.5, "2", True, None):
        with pytest.raises(TypeError, match="workers"):
            fc.overlapping_pairs(A, workers=bad)
    for ok in (1, 2, -1, np.int64(3)):
        assert fc.overlapping_pairs(A, workers=ok).tolist() == [[0, 1]]


def test_workers_give_identical_answers(fc):
    # 40,000 rows: enough for the compiled backend to split the box and item passes
    # over threads too, not only the candidate testing
    n = 600 if fc.backend == "reference" else 40000
    rng = np.random.default_rng(3)
    side = math.sqrt(n * math.pi * 4 / 3)
    rows = np.c_[rng.uniform(0, side, (n, 2)), np.ones(n)]
    A = circles(fc, rows)
    one = fc.overlapping_pairs(A, workers=1)
    assert len(one) > n
    for w in (2, 3, -1):
        assert np.array_equal(fc.overlapping_pairs(A, workers=w), one)
    B = circles(fc, rows[: n // 2] + 0.5)
    one = fc.overlapping_pairs(A, B, workers=1)
    assert np.array_equal(fc.overlapping_pairs(A, B, workers=2), one)
    if not fc.backend == "reference":
        # the brute force over the first 3000 rows, in the same run
        sub = A[np.arange(3000)]
        check(fc, sub, workers=2)
        # polygons: each thread reads rows through its own scratch
        p = rng.uniform(0, side, (n, 2))
        tri = np.stack([p, p + [1.5, 0.0], p + [0.75, 1.2]], axis=1)
        P = fc.PolygonArray.from_padded(tri, np.full(n, 3))
        one = fc.overlapping_pairs(P, workers=1)
        assert len(one) > n // 2
        assert np.array_equal(fc.overlapping_pairs(P, workers=2), one)
        assert np.array_equal(fc.overlapping_pairs(P, A, workers=2),
                              fc.overlapping_pairs(P, A, workers=1))


def test_large_scene_equals_brute_force_compiled(ext):
    # mixed types at a density where a shape has a handful of neighbours
    rng = np.random.default_rng(11)
    n = 2500
    side = 60.0
    c = rng.uniform(0, side, (n, 2))
    caps = ext.CapsuleArray(np.c_[c, c + rng.uniform(-1, 1, (n, 2)), rng.uniform(0, 0.5, n)])
    polys = ext.PolygonArray(
        [[(x, y), (x + 1, y), (x + 0.5, y + 0.8)] for x, y in rng.uniform(0, side, (n, 2))])
    check(ext, caps)
    check(ext, caps, polys)
    check(ext, polys, caps)


def test_threads_at_once_give_the_answers_of_one(fc):
    # the compiled broadphase releases the GIL and shares a cache of scratch buffers
    # between calls: calls from 8 threads at once must not disturb each other
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(8)
    n = 300 if fc.backend == "reference" else 6000
    side = math.sqrt(n * math.pi * 4 / 3)
    a = rng.uniform(0, side, (n, 2))
    b = rng.uniform(0, side, (n, 2))
    scenes = [circles(fc, np.c_[rng.uniform(0, side, (n, 2)), rng.uniform(0.5, 1.5, n)]),
              fc.CapsuleArray(np.c_[a, a + rng.uniform(-2, 2, (n, 2)), rng.uniform(0, 1, n)]),
              fc.AABBArray(np.c_[b, b + rng.uniform(0, 2, (n, 2))])]
    expected = [fc.overlapping_pairs(s) for s in scenes]
    expected.append(fc.overlapping_pairs(scenes[0], scenes[2]))
    rounds = 2 if fc.backend == "reference" else 12

    def work(k):
        out = []
        for r in range(rounds):
            s = (k + r) % 4
            got = (fc.overlapping_pairs(scenes[0], scenes[2], workers=1 + r % 2) if s == 3
                   else fc.overlapping_pairs(scenes[s], workers=1 + r % 2))
            out.append(np.array_equal(got, expected[s]))
        return out

    with ThreadPoolExecutor(8) as pool:
        results = [ok for oks in pool.map(work, range(8)) for ok in oks]
    assert all(results) and len(results) == 8 * rounds
