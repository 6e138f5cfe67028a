"""Batch queries over shape arrays: a plain loop over the scalar queries.

The obviously-correct oracle of the compiled loops (``_ext/batch.pyx``): each row is
turned into a shape of this backend and handed to the scalar query.  A row that is no
shape (NaN or inf, a negative radius or half extent, ``min > max``) answers False or
NaN.  ``workers`` is checked and otherwise ignored: the reference runs in one thread.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .. import _batch
from . import contacts, geometry, queries, sweeps
from .shapes import SHAPE_TYPES, Polygon, _Shape

# what each primitive returns, part by part: "p" a point (an (N, 2) array), "f" a float,
# "b" a bool, "i" a sign (int8)
LAYOUTS = {
    "closest_point_on_segment": "pf",
    "closest_point_on_line": "pf",
    "point_segment_distance": "f",
    "segment_segment_closest": "fffpp",
    "segment_segment_distance": "f",
    "segments_intersect": "b",
    "orient2d": "i",
}


def _overflow_to_inf(func):
    """Run a batch query with NumPy's overflow warning off: a float64 answer beyond
    float32's range, stored in a float32 result, is inf, silently, as the compiled
    rows round it."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with np.errstate(over="ignore"):
            return func(*args, **kwargs)

    return wrapper


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


def collide(a, b, out, workers):
    """``bool[N]``: ``queries.collide`` row by row."""
    _batch.check_workers(workers)
    n, dtype, rows = _pairs(a, b)
    res = _batch.check_out(out, n, np.dtype(bool))
    for i, (sa, sb) in enumerate(rows):
        res[i] = sa is not None and sb is not None and queries.collide(sa, sb)
    return res


@_overflow_to_inf
def distance(a, b, out, workers):
    """``float[N]``: ``queries.distance`` row by row, NaN for no shape."""
    _batch.check_workers(workers)
    n, dtype, rows = _pairs(a, b)
    res = _batch.check_out(out, n, dtype)
    for i, (sa, sb) in enumerate(rows):
        res[i] = math.nan if sa is None or sb is None else queries.distance(sa, sb)
    return res


@_overflow_to_inf
def closest_points(a, b, workers):
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
            pa[i], pb[i], d[i] = queries.closest_points(sa, sb)
    return pa, pb, d


@_overflow_to_inf
def primitive(name, values, names, workers=1):
    """A geometry primitive row by row: ``geometry.<name>`` on each row's points.

    ``LAYOUTS[name]`` names the parts of its result.  A row holding NaN or inf gives
    NaN (False for ``"b"``, 0 for ``"i"``).  A single array result is returned as is,
    several as a tuple.
    """
    _batch.check_workers(workers)
    func = getattr(geometry, name)
    layout = LAYOUTS[name]
    arrays, n, dtype = _batch.point_args(values, names)
    kinds = {"b": bool, "i": np.int8}
    outs = [np.empty((n, 2) if k == "p" else n, dtype=kinds.get(k, np.float64)) for k in layout]
    for i in range(n):
        pts = [tuple(float(v) for v in arr[0 if len(arr) == 1 else i]) for arr in arrays]
        if all(math.isfinite(v) for pt in pts for v in pt):
            res = func(*pts)
            for out, value in zip(outs, (res,) if len(layout) == 1 else res):
                out[i] = value
        else:
            for out, kind in zip(outs, layout):
                out[i] = False if kind == "b" else 0 if kind == "i" else math.nan
    outs = [out if kind in kinds else out.astype(dtype, copy=False) for out, kind in zip(outs, layout)]
    return outs[0] if len(layout) == 1 else tuple(outs)


@_overflow_to_inf
def contact(a, b, workers, pairs=None):
    """``ContactArray``: ``contacts.contact`` row by row; no hit for no shape.

    With ``pairs``, row k is the contact of ``a[i]`` and ``b[j]`` for ``(i, j) =
    pairs[k]``: the rows are gathered first, then answered as two equal arrays.
    """
    _batch.check_workers(workers)
    if pairs is not None:
        index, _ = _batch.index_pairs(a, b, pairs, _Shape)
        k = _batch.first_pair_out_of_range(index, len(a), len(b))
        if k >= 0:
            raise _batch.pairs_range_error(k, index, len(a), len(b))
        a = a[index[:, 0]]
        b = b[index[:, 1]]
    n, dtype, rows = _pairs(a, b)
    res = _batch.contact_result(n, dtype)
    for i, (sa, sb) in enumerate(rows):
        c = None if sa is None or sb is None else contacts.contact(sa, sb)
        if c is not None:
            res.hit[i] = True
            res.normal[i] = c.normal
            res.depth[i] = c.depth
            res.count[i] = len(c.points)
            res.points[i, :len(c.points)] = c.points
    return res


def _vectors(arr, n):
    """The rows of a float64 ``(N, 2)`` or ``(1, 2)`` array as n pairs of floats."""
    if len(arr) == 1:
        return [(float(arr[0, 0]), float(arr[0, 1]))] * n
    return [(float(x), float(y)) for x, y in arr]


def _limits(arr, n):
    return [float(arr[0])] * n if len(arr) == 1 else [float(v) for v in arr]


def _finite(v):
    return math.isfinite(v[0]) and math.isfinite(v[1])


@_overflow_to_inf
def raycast(shape, origins, directions, max_t, workers):
    """``RayHitArray``: ``sweeps.raycast`` row by row.

    A row whose shape is no shape, whose origin or direction is not finite, whose
    direction is zero or whose ``max_t`` is negative or NaN has no hit.
    """
    _batch.check_workers(workers)
    n, dtype, o, d, t = _batch.ray_args(shape, origins, directions, max_t, _Shape)
    res = _batch.rayhit_result(n, dtype)
    rows = zip(_rows(shape, n), _vectors(o, n), _vectors(d, n), _limits(t, n))
    for i, (s, p, v, limit) in enumerate(rows):
        if s is None or not (_finite(p) and _finite(v)) or v == (0.0, 0.0) or not limit >= 0.0:
            continue
        h = sweeps.raycast(s, p, v, limit)
        if h is not None:
            res.hit[i] = True
            res.t[i] = h.t
            res.point[i] = h.point
            res.normal[i] = h.normal
    return res


@_overflow_to_inf
def time_of_impact(a, velocity_a, b, velocity_b, max_t, workers):
    """``float[N]``: ``sweeps.time_of_impact`` row by row, NaN for none.

    NaN also where a row is no shape, a velocity is not finite or ``max_t`` is
    negative or NaN.
    """
    _batch.check_workers(workers)
    n, dtype, va, vb, t = _batch.sweep_args(a, velocity_a, b, velocity_b, max_t, _Shape)
    res = np.full(n, math.nan, dtype=dtype)
    rows = zip(_rows(a, n), _vectors(va, n), _rows(b, n), _vectors(vb, n), _limits(t, n))
    for i, (sa, ua, sb, ub, limit) in enumerate(rows):
        if sa is None or sb is None or not (_finite(ua) and _finite(ub)) or not limit >= 0.0:
            continue
        toi = sweeps.time_of_impact(sa, ua, sb, ub, limit)
        if toi is not None:
            res[i] = toi
    return res


def shape_cast(a, velocity_a, b, velocity_b, max_t, workers):
    """``CastHitArray``: ``sweeps.shape_cast`` row by row; no hit also where a row is
    no shape, a velocity is not finite or ``max_t`` is negative or NaN."""
    _batch.check_workers(workers)
    n, dtype, va, vb, t = _batch.sweep_args(a, velocity_a, b, velocity_b, max_t, _Shape)
    res = _batch.casthit_result(n, dtype)
    rows = zip(_rows(a, n), _vectors(va, n), _rows(b, n), _vectors(vb, n), _limits(t, n))
    for i, (sa, ua, sb, ub, limit) in enumerate(rows):
        if sa is None or sb is None or not (_finite(ua) and _finite(ub)) or not limit >= 0.0:
            continue
        h = sweeps.shape_cast(sa, ua, sb, ub, limit)
        if h is not None:
            res.hit[i] = True
            res.t[i] = h.t
            res.point[i] = h.point
            res.normal[i] = h.normal
    return res
