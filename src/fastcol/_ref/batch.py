"""Batch queries over shape arrays: a plain loop over the scalar queries.

The obviously-correct oracle of the compiled loops (``_ext/batch.pyx``): each row is
turned into a shape of this backend and handed to the scalar query.  A row that is no
shape (NaN or inf, a negative radius or half extent, ``min > max``) answers False or
NaN.  ``workers`` is checked and otherwise ignored: the reference runs in one thread.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _batch
from .shapes import SHAPE_TYPES, Polygon, _Shape


def _rows(x, n):
    """The shapes of an operand, one per row (None for a row that is no shape)."""
    if not _batch.is_array(x):
        return [x] * n
    if x.kind == Polygon.kind:
        out = []
        capacity = x.vertices.shape[1]
        for ring, count in zip(x.vertices, x.counts):
            if not 3 <= count <= capacity:
                # counts can be written after construction
                out.append(None)
                continue
            xs = [float(v) for v in ring[:count, 0]]
            ys = [float(v) for v in ring[:count, 1]]
            finite = all(math.isfinite(v) for v in xs + ys)
            # the row's vertices as stored: the kernels take them in that order
            out.append(Polygon._trusted(xs, ys) if finite else None)
        return out
    cls = SHAPE_TYPES[x.kind]
    out = []
    for row in x.data:
        try:
            out.append(cls(*(float(v) for v in row)))
        except ValueError:
            out.append(None)
    return out


def _pairs(a, b):
    n, dtype = _batch.pair(a, b, _Shape)
    return n, dtype, zip(_rows(a, n), _rows(b, n))


def collide(query, a, b, out, workers):
    """``bool[N]``: ``query`` (the scalar collide) row by row."""
    _batch.check_workers(workers)
    n, dtype, rows = _pairs(a, b)
    res = _batch.check_out(out, n, np.dtype(bool))
    for i, (sa, sb) in enumerate(rows):
        res[i] = sa is not None and sb is not None and query(sa, sb)
    return res


def distance(query, a, b, out, workers):
    """``float[N]``: ``query`` (the scalar distance) row by row, NaN for no shape."""
    _batch.check_workers(workers)
    n, dtype, rows = _pairs(a, b)
    res = _batch.check_out(out, n, dtype)
    for i, (sa, sb) in enumerate(rows):
        res[i] = math.nan if sa is None or sb is None else query(sa, sb)
    return res


def closest_points(query, a, b, workers):
    """``(point_a[N, 2], point_b[N, 2], distance[N])`` row by row, NaN for no shape."""
    _batch.check_workers(workers)
    n, dtype, rows = _pairs(a, b)
    pa = np.empty((n, 2), dtype=dtype)
    pb = np.empty((n, 2), dtype=dtype)
    d = np.empty(n, dtype=dtype)
    for i, (sa, sb) in enumerate(rows):
        if sa is None or sb is None:
            pa[i] = pb[i] = d[i] = math.nan
        else:
            pa[i], pb[i], d[i] = query(sa, sb)
    return pa, pb, d


def primitive(func, values, names, layout):
    """A geometry primitive row by row: ``func`` on each row's points.

    ``layout`` names the parts of ``func``'s result: ``"p"`` a point (an ``(N, 2)``
    array), ``"f"`` a float, ``"b"`` a bool.  A row holding NaN or inf gives NaN (False
    for ``"b"``).  A single array result is returned as is, several as a tuple.
    """
    arrays, n, dtype = _batch.point_args(values, names)
    outs = [np.empty((n, 2) if k == "p" else n, dtype=bool if k == "b" else np.float64)
            for k in layout]
    for i in range(n):
        pts = [tuple(float(v) for v in arr[0 if len(arr) == 1 else i]) for arr in arrays]
        if all(math.isfinite(v) for pt in pts for v in pt):
            res = func(*pts)
            for out, value in zip(outs, (res,) if len(layout) == 1 else res):
                out[i] = value
        else:
            for out, kind in zip(outs, layout):
                out[i] = False if kind == "b" else math.nan
    outs = [out if kind == "b" else out.astype(dtype, copy=False) for out, kind in zip(outs, layout)]
    return outs[0] if len(layout) == 1 else tuple(outs)
