"""overlapping_pairs with filters of a few distinct values (classes), on both backends.

The compiled broadphase splits its grid by filter class when the rows hold at most four
distinct (category, mask, group) triples and some pair of them never passes: a shape
then looks only in the classes its filter passes.  These layouts reach each of its
paths (a dense grid, hashed levels, many shapes of one cell whose pair must be reported
once, a coarse shape, two arrays, too many classes to split, every class passing) and
check against the brute force of test_filters (the scalar ``collide`` of every pair and
the filter rule written out there), and the compiled answers against the reference's.
"""

from __future__ import annotations

import numpy as np
import pytest

from shapes import KINDS
from test_filters import ALL, brute_pairs
from test_index import array_class, random_array

# (category, mask, group) palettes: categories 1 and 2 meet only themselves; a shared
# non-zero group never passes; a row of every bit meets both; and five triples, more
# than the grid splits by
PALETTES = {
    "own": [(1, 1, 0), (2, 2, 0)],
    "bridge": [(1, 1, 0), (2, 2, 0), (3, 3, 0)],
    "groups": [(ALL, ALL, 1), (ALL, ALL, 2), (ALL, ALL, 0), (1, 2, 1)],
    "five": [(1, 1, 0), (2, 2, 0), (4, 4, 0), (8, 8, 0), (3, 3, 0)],
    "all pass": [(1, 3, 0), (2, 3, 0)],
}


def with_palette(arr, rng, palette):
    """arr with each row's filter drawn from palette."""
    pick = rng.integers(0, len(palette), len(arr))
    table = np.array(palette, dtype=np.int64)
    arr.categories = table[pick, 0]
    arr.masks = table[pick, 1]
    arr.groups = table[pick, 2]
    return arr


def circles(fc, rows):
    return array_class(fc, "Circle")(np.ascontiguousarray(rows, dtype=np.float64))


def layouts(fc, rng):
    """Circle arrays that reach the grid's dense and hashed levels and its corner cases."""
    n = 300
    out = {}
    # uniform: one dense level
    out["uniform"] = circles(fc, np.c_[rng.uniform(0, 60, (n, 2)), rng.uniform(0.5, 2, n)])
    # a thin diagonal line with far outliers: hashed levels
    t = rng.uniform(0, 3000, n)
    rows = np.c_[t, t + rng.uniform(0, 1, n), rng.uniform(0.5, 2, n)]
    rows[:3, :2] = [[1e6, -1e6], [-1e6, 1e6], [1e6, 1e6 + 1.0]]
    out["line"] = circles(fc, rows)
    # many touching and identical circles of one cell (each pair reported once)
    rows = np.tile([5.0, 5.0, 1.0], (60, 1))
    rows[::2, 0] += 2.0  # touching: centres 2 apart, radii 1 + 1
    out["one cell"] = circles(fc, rows)
    # small circles and one 1000 times larger: a coarse level over the rest
    rows = np.c_[rng.uniform(0, 60, (n, 2)), rng.uniform(0.5, 1, n)]
    rows[0] = [30.0, 30.0, 1000.0]
    out["huge"] = circles(fc, rows)
    return out


@pytest.mark.parametrize("palette", list(PALETTES))
def test_circle_layouts(fc, palette):
    rng = np.random.default_rng(3100 + list(PALETTES).index(palette))
    for name, A in layouts(fc, rng).items():
        with_palette(A, rng, PALETTES[palette])
        want = [list(p) for p in brute_pairs(fc, A)]
        assert name == "line" or len(want) > 0, name
        assert fc.overlapping_pairs(A).tolist() == want, name
        assert fc.overlapping_pairs(A, workers=2).tolist() == want, name


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("palette", ["own", "groups"])
def test_every_kind(fc, kind, palette):
    rng = np.random.default_rng(3200 + KINDS.index(kind))
    A = with_palette(random_array(fc, rng, kind, 60, hi=20.0), rng, PALETTES[palette])
    want = [list(p) for p in brute_pairs(fc, A)]
    assert len(want) > 0
    assert fc.overlapping_pairs(A).tolist() == want


@pytest.mark.parametrize("kind", ["Circle", "AABB", "Polygon"])
def test_two_arrays(fc, kind):
    rng = np.random.default_rng(3300 + KINDS.index(kind))
    A = with_palette(random_array(fc, rng, kind, 50, hi=20.0), rng, PALETTES["own"])
    B = with_palette(random_array(fc, rng, kind, 40, hi=20.0), rng, PALETTES["bridge"])
    want = brute_pairs(fc, A, B)
    assert len(want) > 0
    assert fc.overlapping_pairs(A, B).tolist() == [list(p) for p in want]
    assert fc.overlapping_pairs(B, A).tolist() == sorted([j, i] for i, j in want)
    # B unfiltered: its rows take the default filter (every bit), one more class
    B.categories = B.masks = B.groups = None
    want = brute_pairs(fc, A, B)
    assert fc.overlapping_pairs(A, B).tolist() == [list(p) for p in want]


def test_hand_worked_classes(fc):
    # four unit circles in a row, centres 1.5 apart: neighbours overlap.  Categories
    # 1, 2, 1, 2 meeting only themselves: no neighbour passes, and 0-2, 1-3 are apart
    A = circles(fc, [[0.0, 0.0, 1.0], [1.5, 0.0, 1.0], [3.0, 0.0, 1.0], [4.5, 0.0, 1.0]])
    A.categories = A.masks = [1, 2, 1, 2]
    assert fc.overlapping_pairs(A).tolist() == []
    # radius 2 instead: 0-2 and 1-3 touch (3.0 apart, 2 + 1), others still filtered
    A = circles(fc, [[0.0, 0.0, 2.0], [1.5, 0.0, 1.0], [3.0, 0.0, 1.0], [4.5, 0.0, 2.0]])
    A.categories = A.masks = [1, 2, 1, 2]
    assert fc.overlapping_pairs(A).tolist() == [[0, 2], [1, 3]]


def test_compiled_equals_reference(ext, ref):
    rng = np.random.default_rng(3400)
    seed = int(rng.integers(1 << 30))
    out = []
    for fc in (ext, ref):
        r = np.random.default_rng(seed)
        got = []
        for palette in PALETTES.values():
            for A in layouts(fc, r).values():
                got.append(fc.overlapping_pairs(with_palette(A, r, palette)))
        out.append(got)
    for a, b in zip(*out):
        assert np.array_equal(a, b)
