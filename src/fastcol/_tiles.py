"""The tasks of ``fastcol.dask.overlapping_pairs``: rows to spatial tiles and back.

Plain NumPy and the in-memory fastcol, no dask: each function is one task of the graph
``overlapping_pairs`` builds (see its docstring for the tiles, the halo and the owner
rule), and runs on a worker.
"""

from __future__ import annotations

import math

import numpy as np

from . import _api

# the in-memory array class of each kind whose rows are one block (polygons are a
# (vertices, counts) pair: PolygonArray._as_data)
ARRAYS = {"circle": "CircleArray", "capsule": "CapsuleArray", "segment": "SegmentArray",
          "aabb": "AABBArray", "obb": "OBBArray"}


def _aligned(block):
    """``block``, copied when its data is not aligned to its items: arrays that
    ``distributed`` receives from another process can start at any byte, and NumPy
    and the kernels read those three times slower."""
    if isinstance(block, np.ndarray) and not block.flags.aligned:
        return block.copy()
    return block


# Row boxes are widened by this fraction of their largest coordinate (plus a tiny
# amount): 16 times the broadphase's own pad (_ext/broadphase.pyx), so a box here holds
# the box the in-memory broadphase gives the row (an OBB's sine and cosine may differ
# by an ulp between NumPy and libm), and no pair it finds can have boxes apart here.
PAD = 2.0 ** -36
TINY = 1e-290
# tiles per tile task when the grid is sized from the data (dealt round robin, so a
# cluster spreads over the tasks); a tile is never smaller than this many typical
# row extents
TILES_PER_TASK = 4
EXTENTS_PER_TILE = 4.0
# a row touching more tiles than this goes to every tile task (a superset is always
# correct: the owner rule decides which task keeps a pair)
SPREAD_LIMIT = 64
# no more tiles than this along an axis (the last tile takes the rest: still correct)
MAX_TILES = 1 << 20
# rows of each chunk whose boxes size the grid, and the share of them left out at each
# end of an axis (far outliers must not stretch the grid: the end tiles take them)
SAMPLE = 4096
TRIM = 0.001


def _boxes(kind, blocks):
    """``(x0, y0, x1, y1, valid)``: float64 boxes of the rows, padded outward, and
    whether each row is a shape (not NaN or inf, no negative radius or half extent, no
    ``min > max``, a polygon count within 3..K)."""
    with np.errstate(invalid="ignore", over="ignore"):
        if kind == "polygon":
            v = np.asarray(blocks[0], dtype=np.float64)
            counts = np.asarray(blocks[1]).astype(np.int64)
            k = v.shape[1]
            used = np.arange(k)[None, :] < counts[:, None]
            valid = (counts >= 3) & (counts <= k) & np.where(
                used, np.isfinite(v).all(axis=2), True).all(axis=1)
            x0 = np.where(used, v[..., 0], np.inf).min(axis=1, initial=np.inf)
            y0 = np.where(used, v[..., 1], np.inf).min(axis=1, initial=np.inf)
            x1 = np.where(used, v[..., 0], -np.inf).max(axis=1, initial=-np.inf)
            y1 = np.where(used, v[..., 1], -np.inf).max(axis=1, initial=-np.inf)
        else:
            d = np.asarray(blocks[0])
            cols = [d[:, c].astype(np.float64) for c in range(d.shape[1])]
            valid = np.isfinite(cols[0])
            for c in cols[1:]:
                valid &= np.isfinite(c)
            if kind == "circle":
                x, y, r = cols
                valid &= r >= 0.0
                x0, y0, x1, y1 = x - r, y - r, x + r, y + r
            elif kind in ("capsule", "segment"):
                x0, x1 = np.minimum(cols[0], cols[2]), np.maximum(cols[0], cols[2])
                y0, y1 = np.minimum(cols[1], cols[3]), np.maximum(cols[1], cols[3])
                if kind == "capsule":
                    r = cols[4]
                    valid &= r >= 0.0
                    x0, y0, x1, y1 = x0 - r, y0 - r, x1 + r, y1 + r
            elif kind == "aabb":
                x0, y0, x1, y1 = cols
                valid &= (x0 <= x1) & (y0 <= y1)
            else:
                cx, cy, hw, hh, angle = cols
                valid &= (hw >= 0.0) & (hh >= 0.0)
                c, s = np.cos(angle), np.sin(angle)
                ex = np.abs(hw * c) + np.abs(hh * s)
                ey = np.abs(hw * s) + np.abs(hh * c)
                x0, y0, x1, y1 = cx - ex, cy - ey, cx + ex, cy + ey
        reach = np.maximum(np.maximum(np.abs(x0), np.abs(x1)),
                           np.maximum(np.abs(y0), np.abs(y1)))
        pad = reach * PAD + TINY
        return x0 - pad, y0 - pad, x1 + pad, y1 + pad, valid


def _sample(kind, *blocks):
    """What the grid is sized from, for one chunk (a task): the finite boxes ``(m, 4)``
    of an evenly spaced sample of its rows that are shapes."""
    step = max(1, len(blocks[0]) // SAMPLE)
    x0, y0, x1, y1, valid = _boxes(kind, [b[::step] for b in blocks])
    box = np.stack([x0, y0, x1, y1], axis=1)[valid]
    return box[np.isfinite(box).all(axis=1)]


def _grid(samples, tile, tasks):
    """``(x0, y0, tile, nx, ny)``: the uniform grid of the tiles (a task)."""
    box = np.concatenate(samples)
    if len(box) == 0:
        return 0.0, 0.0, 1.0 if tile is None else tile, 1, 1
    x0, y0 = np.quantile(box[:, 0], TRIM), np.quantile(box[:, 1], TRIM)
    x1, y1 = np.quantile(box[:, 2], 1 - TRIM), np.quantile(box[:, 3], 1 - TRIM)
    with np.errstate(over="ignore"):
        span_x, span_y = max(float(x1 - x0), 0.0), max(float(y1 - y0), 0.0)
    if tile is None:
        typical = float(np.median(np.maximum(box[:, 2] - box[:, 0], box[:, 3] - box[:, 1])))
        count = TILES_PER_TASK * tasks
        with np.errstate(over="ignore"):
            tile = max(math.sqrt(span_x) * math.sqrt(span_y / count),
                       max(span_x, span_y) / count, EXTENTS_PER_TILE * typical)
        if not 0.0 < tile < math.inf:
            tile = 1.0 if not tile > 0.0 else float(np.finfo(np.float64).max)
    # the grid starts at a multiple of the tile: tile borders at k * tile
    with np.errstate(over="ignore", invalid="ignore"):
        ox, oy = (float(np.floor(v / tile) * tile) for v in (x0, y0))
        ox = ox if math.isfinite(ox) else float(x0)
        oy = oy if math.isfinite(oy) else float(y0)
        nx, ny = (int(np.clip(np.ceil((hi - o) / tile), 1, MAX_TILES))
                  for hi, o in ((x1, ox), (y1, oy)))
    return ox, oy, float(tile), nx, ny


def _cells(v, origin, tile, n):
    """The tile numbers along one axis of coordinates ``v``: ``floor((v - origin) /
    tile)`` clamped to ``0..n-1`` (monotone in ``v``, infinities included)."""
    # in place: a chunk's temporaries are what a worker spends its time on
    with np.errstate(over="ignore", invalid="ignore"):
        q = np.subtract(v, origin)
        q /= tile
    # clamped first, truncation is the floor (and -0.5 clamps to 0 either way)
    np.clip(q, 0, n - 1, out=q)
    with np.errstate(invalid="ignore"):
        # (a NaN row's number is meaningless: such rows are sent nowhere)
        return q.astype(np.int64)


def _route(kind, start, grid, tasks, *blocks):
    """One chunk's rows split by tile task (a task of ``tasks`` outputs).

    Each row that is a shape goes to every task one of whose tiles its box touches (the
    halo).  Part ``k`` holds, rows ascending: their global numbers, the tile columns
    and rows of their boxes' lower-left corners, and the rows themselves.
    """
    ox, oy, tile, nx, ny = grid
    blocks = [_aligned(b) for b in blocks]
    x0, y0, x1, y1, valid = _boxes(kind, blocks)
    ix0, ix1 = _cells(x0, ox, tile, nx), _cells(x1, ox, tile, nx)
    iy0, iy1 = _cells(y0, oy, tile, ny), _cells(y1, oy, tile, ny)
    # each row's own task, its lower-left tile's (-1: no shape, sent nowhere)
    task = iy0 * nx
    task += ix0
    task %= tasks
    task[~valid] = -1
    # the rows over several tiles also go to the other tasks of their tiles (the halo)
    spread = np.flatnonzero(valid & ((ix1 != ix0) | (iy1 != iy0)))
    wide = ix1[spread] - ix0[spread] + 1
    m = wide * (iy1[spread] - iy0[spread] + 1)
    few = m <= SPREAD_LIMIT
    r = np.repeat(spread[few], m[few])
    offset = np.arange(len(r)) - np.repeat(np.cumsum(m[few]) - m[few], m[few])
    w = np.repeat(wide[few], m[few])
    cell = (iy0[r] + offset // w) * nx + ix0[r] + offset % w
    key = np.unique(r * tasks + cell % tasks)       # (row, task) once each
    halo_row, halo_task = key // tasks, key % tasks
    many = spread[~few]                               # every task takes these
    parts = []
    for k in range(tasks):
        mine = task == k
        mine[halo_row[halo_task == k]] = True
        mine[many] = True
        local = np.flatnonzero(mine)                  # ascending
        parts.append((local + start, ix0[local].astype(np.int32),
                      iy0[local].astype(np.int32),
                      *[np.take(b, local, axis=0) for b in blocks]))
    return tuple(parts)


def _tile(backend, kind, k, tasks, grid, starts, *parts):
    """Tile task ``k``: the pairs among its rows (the in-memory broadphase, one thread)
    that it owns, split by the input chunk of their first row (``len(starts) - 1``
    outputs, each sorted)."""
    api = _api.load(backend)
    nx = grid[3]
    rows = np.concatenate([p[0] for p in parts])
    ix0 = np.concatenate([p[1] for p in parts])
    iy0 = np.concatenate([p[2] for p in parts])
    blocks = [np.concatenate([p[3 + j] for p in parts]) for j in range(len(parts[0]) - 3)]
    if kind == "polygon":
        arr = api.PolygonArray._as_data(*blocks)
    else:
        arr = getattr(api, ARRAYS[kind])(blocks[0])
    pairs = api.overlapping_pairs(arr, workers=1)
    i, j = pairs[:, 0].copy(), pairs[:, 1].copy()
    # the owner: the tile of the lower-left corner of the boxes' intersection, whose
    # tile numbers are the larger of the two rows' on each axis (the numbering is
    # monotone); most pairs have both corners in one tile, which is then the owner
    cell = iy0.astype(np.int64) * nx + ix0
    owner = np.take(cell, i)
    cross = np.flatnonzero(owner != np.take(cell, j))
    if len(cross):
        a, b = i[cross], j[cross]
        owner[cross] = (np.maximum(iy0[a], iy0[b]).astype(np.int64) * nx
                        + np.maximum(ix0[a], ix0[b]))
    # global numbers, still sorted (the rows ascend)
    kept = np.take(rows, pairs.compress(owner % tasks == k, axis=0))
    cuts = np.searchsorted(kept[:, 0], starts)
    return tuple(kept[cuts[c]:cuts[c + 1]] for c in range(len(starts) - 1))


def _merge(start, stop, n, *parts):
    """One output block: the pairs whose first row lies in ``start..stop-1``, sorted."""
    pairs = np.concatenate(parts)
    if len(pairs) == 0:
        return np.empty((0, 2), dtype=np.int64)
    if (stop - start) * n < 2 ** 62:
        # one int64 key a pair, sorted (the parts are sorted runs: timsort merges
        # them) and read back: cheaper than sorting an index and gathering the pairs
        key = np.sort((pairs[:, 0] - start) * n + pairs[:, 1], kind="stable")
        out = np.empty_like(pairs)
        np.floor_divide(key, n, out=out[:, 0])
        out[:, 0] += start
        np.remainder(key, n, out=out[:, 1])
        return out
    return np.ascontiguousarray(pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))])
