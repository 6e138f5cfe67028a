"""Rotation and translation of shape arrays: a plain loop over the rows.

The oracle of the compiled loops (``_ext/transforms.pyx``).  Each row is read as
floats, checked as the shape's constructor checks it, turned or moved with the very
formulas of the scalar ``rotated`` and ``translated`` (``geometry.rotate_point``,
``geometry.polygon_centroid``), and written, so a row's answer is the scalar answer bit
for bit (float32 rows are computed in float64 and rounded once).  A row that is no
shape (NaN or inf, a negative radius or half extent, ``min > max``, a polygon count
outside 3..K), or whose angle, pivot or offset is not finite, becomes a row of NaN.
Polygon rows keep their vertex order and count (a turn keeps a ring
counter-clockwise); their padding vertices turn with them.  ``workers`` is checked and
otherwise ignored.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _batch, _transforms
from .._transforms import TAU
from .geometry import polygon_centroid, rotate_point
from .shapes import AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, POLYGON, SEGMENT


def _finite(values):
    return all(math.isfinite(v) for v in values)


def _valid(kind, f):
    """Whether the row ``f`` (floats) is a shape of ``kind``, as its constructor says."""
    if not _finite(f):
        return False
    if kind == CIRCLE:
        return f[2] >= 0.0
    if kind == CAPSULE:
        return f[4] >= 0.0
    if kind == AABB_KIND:
        return f[0] <= f[2] and f[1] <= f[3]
    if kind == OBB_KIND:
        return f[2] >= 0.0 and f[3] >= 0.0
    return True


def _turn(kind, f, a, pivot):
    """The row ``f`` of a shape of ``kind`` turned by ``a`` about ``pivot`` (None: the
    shape's centroid), as the scalar ``rotated`` turns it: the new row's values."""
    c = math.cos(a)
    s = math.sin(a)
    if kind == CIRCLE:
        qx, qy = (f[0], f[1]) if pivot is None else pivot
        return rotate_point(f[0], f[1], qx, qy, c, s) + (f[2],)
    if kind in (CAPSULE, SEGMENT):
        qx, qy = ((f[0] + f[2]) * 0.5, (f[1] + f[3]) * 0.5) if pivot is None else pivot
        ends = rotate_point(f[0], f[1], qx, qy, c, s) + rotate_point(f[2], f[3], qx, qy, c, s)
        return ends + tuple(f[4:])
    if kind == AABB_KIND:
        cx = (f[0] + f[2]) * 0.5
        cy = (f[1] + f[3]) * 0.5
        qx, qy = (cx, cy) if pivot is None else pivot
        return rotate_point(cx, cy, qx, qy, c, s) + (
            (f[2] - f[0]) * 0.5, (f[3] - f[1]) * 0.5, math.remainder(a, TAU))
    # an OBB
    qx, qy = (f[0], f[1]) if pivot is None else pivot
    return rotate_point(f[0], f[1], qx, qy, c, s) + (
        f[2], f[3], math.remainder(f[4] + a, TAU))


def _polygon_rows(shapes, res, step):
    """Each polygon row through ``step(i, xs, ys, m)`` -> new ``(xs, ys)`` of all K
    vertices, or a row of NaN where the row is no polygon."""
    src = shapes.vertices
    dst = res.vertices
    k = src.shape[1]
    for i in range(len(shapes)):
        m = int(shapes.counts[i])
        xs = [float(v) for v in src[i, :, 0]]
        ys = [float(v) for v in src[i, :, 1]]
        turned = None
        if 3 <= m <= k and _finite(xs[:m] + ys[:m]):
            turned = step(i, xs, ys, m)
        if turned is None:
            dst[i] = math.nan
        else:
            dst[i, :, 0] = turned[0]
            dst[i, :, 1] = turned[1]


def _pivot(pivots, i):
    """Row i's pivot: None (the centroid), or a pair, or False when it is not finite."""
    if pivots is None:
        return None
    q = pivots[i if len(pivots) > 1 else 0]
    qx, qy = float(q[0]), float(q[1])
    return (qx, qy) if math.isfinite(qx) and math.isfinite(qy) else False


def rotate(shapes, angle, about, out, workers):
    """``fc.rotate`` row by row (see the module docstring)."""
    _batch.check_workers(workers)
    shapes, angles, one, pivots = _transforms.rotate_args(shapes, angle, about)
    kind = shapes.kind
    if kind == AABB_KIND:
        from .arrays import OBBArray as cls
        res = _transforms.result_of(shapes, out, OBB_KIND, cls)
    else:
        res = _transforms.result_of(shapes, out, kind, type(shapes))

    def turn_of(i):
        # row i's angle and pivot, or None when either is not finite
        a = one if angles is None else float(angles[i])
        q = _pivot(pivots, i)
        return None if q is False or not math.isfinite(a) else (a, q)

    with np.errstate(over="ignore"):
        if kind == POLYGON:
            def step(i, xs, ys, m):
                t = turn_of(i)
                if t is None:
                    return None
                a, q = t
                qx, qy = polygon_centroid(xs, ys, m) if q is None else q
                c = math.cos(a)
                s = math.sin(a)
                pts = [rotate_point(x, y, qx, qy, c, s) for x, y in zip(xs, ys)]
                return [p[0] for p in pts], [p[1] for p in pts]

            _polygon_rows(shapes, res, step)
            return res
        src = shapes.data
        dst = res.data
        for i in range(len(shapes)):
            f = tuple(float(v) for v in src[i])
            t = turn_of(i)
            if t is None or not _valid(kind, f):
                dst[i] = math.nan
            else:
                dst[i] = _turn(kind, f, *t)
    return res


def translate(shapes, offset, out, workers):
    """``fc.translate`` row by row (see the module docstring)."""
    _batch.check_workers(workers)
    shapes, offsets = _transforms.translate_args(shapes, offset)
    kind = shapes.kind
    res = _transforms.result_of(shapes, out, kind, type(shapes))

    def offset_of(i):
        d = offsets[i if len(offsets) > 1 else 0]
        dx, dy = float(d[0]), float(d[1])
        return (dx, dy) if math.isfinite(dx) and math.isfinite(dy) else None

    with np.errstate(over="ignore"):
        if kind == POLYGON:
            def step(i, xs, ys, m):
                d = offset_of(i)
                if d is None:
                    return None
                return [x + d[0] for x in xs], [y + d[1] for y in ys]

            _polygon_rows(shapes, res, step)
            return res
        src = shapes.data
        dst = res.data
        for i in range(len(shapes)):
            f = [float(v) for v in src[i]]
            d = offset_of(i)
            if d is None or not _valid(kind, f):
                dst[i] = math.nan
                continue
            dx, dy = d
            # the points of the row (an AABB's two corners, a capsule's two ends)
            points = 1 if kind in (CIRCLE, OBB_KIND) else 2
            for j in range(points):
                f[2 * j] += dx
                f[2 * j + 1] += dy
            dst[i] = f
    return res
