"""Point queries: ``point_query`` and ``contains``, one point against one shape.

``contains(shape, p)`` is ``collide(shape, Circle(px, py, 0.0))``, decided by the very
kernels of collide, so the two agree for every input.  ``point_query`` measures in the
local frame that ``distance(shape, Circle(px, py, 0.0))`` uses (the point circle sorts
first in the canonical order, so its point is the frame's origin where that is exact)
and with the same kernels, so outside the shape ``|distance|`` is ``distance``'s to
the bit.  Inside it measures the depth: a round shape's radius less the core's
distance; a box's or polygon's least distance to an edge's line, whose foot lies on
that edge (the disc of that radius lies inside every edge's half-plane).  Whether a
point lies on a box's or polygon's boundary is decided by exact signs.

Kernels return ``(qx, qy, distance, nx, ny)``: the nearest boundary point, the signed
distance (negative inside, 0.0 on the boundary) and the unit outward normal.  Mirrored
operation for operation in ``_ext/points.pyx``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _batch
from .._validate import as_point, shape_type_error
from .batch import _overflow_to_inf, _rows, _vectors
from .geometry import APART, TINY, UNDERFLOW_SCALE, point_segment
from .narrowphase import box_normal, box_side, convex_local, point_box, round_convex_closest
from .predicates import orient_sign, side_sign
from .queries import _canonical, _core, _frame, collide_canonical
from .records import PointQuery
from .shapes import AABB_KIND, CIRCLE, OBB_KIND, SEGMENT, Circle, _Shape

# vectors shorter than this (or longer than its inverse) are scaled by a power of two
# before their length is taken, so the squares neither underflow nor overflow
_SMALL = 2.0 ** -500
_LARGE = 2.0 ** 500
_UNSCALE = 2.0 ** -600


def unit(vx, vy):
    """``(vx, vy) / |(vx, vy)|`` for a vector that is not zero (scaled exactly first
    where its squares would underflow or overflow)."""
    m = abs(vx) if abs(vx) > abs(vy) else abs(vy)
    if m < _SMALL:
        vx = vx * UNDERFLOW_SCALE
        vy = vy * UNDERFLOW_SCALE
    elif m > _LARGE:
        vx = vx * _UNSCALE
        vy = vy * _UNSCALE
    length = math.sqrt(vx * vx + vy * vy)
    return vx / length, vy / length


def beside(t, px, py, ax, ay, bx, by):
    """Whether the point of segment ab nearest to p lies inside it, not at an end:
    ``0 < t < 1``, or an end that the rounding of t chose while p lies strictly
    between the lines through the ends square to ab (exact signs).  Then the normal
    is ab's perpendicular: p - q points elsewhere when p is within rounding of an
    end."""
    if 0.0 < t < 1.0:
        return True
    ex = bx - ax
    ey = by - ay
    if ex == 0.0 and ey == 0.0:
        return False
    if t == 0.0:
        return side_sign(ax, ay, ey, 0.0 - ex, px, py) > 0
    return side_sign(bx, by, ey, 0.0 - ex, px, py) < 0


def contains_point(shape, px, py):
    """Whether the point lies inside the shape or on its boundary: collide of the shape
    and a circle of radius 0 at the point, by collide's own kernels."""
    a, b, _ = _canonical(shape, Circle(px, py, 0.0))
    return collide_canonical(a, b)


def point_circle(cx, cy, r, px, py):
    """A circle: the centre's distance less the radius (``distance``'s two circles,
    ``|p - c|`` being the same in either order); at the centre the normal is (1, 0)."""
    mx = px - cx
    my = py - cy
    d = math.sqrt(mx * mx + my * my)
    if mx == 0.0 and my == 0.0:
        nx, ny = 1.0, 0.0
    else:
        nx, ny = unit(mx, my)
    return cx + nx * r, cy + ny * r, d - r, nx, ny


def point_round(ax, ay, bx, by, r, px, py):
    """A capsule or segment (core ab, radius r; local coordinates): the core's nearest
    point q, the distance to it less r, and the normal from q towards p."""
    t, qx, qy, d2 = point_segment(px, py, ax, ay, bx, by)
    dist = math.sqrt(d2) - (0.0 + r)
    if d2 == 0.0:
        # on the core exactly: no direction from it; the core's left perpendicular
        # (a point core: (1, 0), as a circle's centre)
        if ax == bx and ay == by:
            nx, ny = 1.0, 0.0
        else:
            nx, ny = unit(ay - by, bx - ax)
    elif beside(t, px, py, ax, ay, bx, by):
        # beside the core: its perpendicular on p's side (exact sign), not p - q,
        # whose direction q's rounding would spoil for a point near the core
        if orient_sign(ax, ay, bx, by, px, py) > 0:
            nx, ny = unit(ay - by, bx - ax)
        else:
            nx, ny = unit(by - ay, ax - bx)
    else:
        # nearest to an end (q is that end, exactly)
        nx, ny = unit(px - qx, py - qy)
    return qx + nx * r, qy + ny * r, dist, nx, ny


# an AABB's sides in ring order (bottom, right, top, left): outward normals
_BOX_NORMALS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))


def point_aabb_inside(x0, y0, x1, y1, px, py):
    """A point inside the box [x0, x1] x [y0, y1] (or on it), world coordinates: on a
    side exactly, the first side in ring order; else the side of least depth (a
    difference of two coordinates, > 0), its foot exact."""
    if py == y0:
        return px, py, 0.0, 0.0, -1.0
    if px == x1:
        return px, py, 0.0, 1.0, 0.0
    if py == y1:
        return px, py, 0.0, 0.0, 1.0
    if px == x0:
        return px, py, 0.0, -1.0, 0.0
    depths = (py - y0, x1 - px, y1 - py, px - x0)
    k = 0
    for j in range(1, 4):
        if depths[j] < depths[k]:
            k = j
    feet = ((px, y0), (x1, py), (px, y1), (x0, py))
    nx, ny = _BOX_NORMALS[k]
    return feet[k][0], feet[k][1], 0.0 - depths[k], nx, ny


def point_aabb_outside(x0, y0, x1, y1, px, py):
    """A point outside the box (local coordinates): ``point_box``'s nearest point,
    as ``distance``'s point core and box measure it."""
    d2, _, qx, qy = point_box(px, py, x0, y0, x1, y1)
    nx, ny = unit(px - qx, py - qy)
    return qx, qy, math.sqrt(d2) - (0.0 + 0.0), nx, ny


def _side(cv, k, px, py):
    """Which side of edge k of cv the point lies on (exact): 1 inner, 0 on, -1 outer;
    2 for a polygon's edge of zero length, which has no side."""
    if cv.kind == OBB_KIND:
        return box_side(cv, k, px, py)
    n = len(cv.xs)
    j = k + 1 if k + 1 < n else 0
    if cv.xs[k] == cv.xs[j] and cv.ys[k] == cv.ys[j]:
        return 2
    return orient_sign(cv.xs[k], cv.ys[k], cv.xs[j], cv.ys[j], px, py)


def _edge_normal(cv, k):
    """The outward unit normal of edge k (of positive length for a polygon)."""
    if cv.kind == OBB_KIND:
        return box_normal(cv.cos, cv.sin, k)
    n = len(cv.xs)
    j = k + 1 if k + 1 < n else 0
    ux, uy = unit(cv.xs[j] - cv.xs[k], cv.ys[j] - cv.ys[k])
    return uy, 0.0 - ux


def _edge_depth(cv, k, px, py):
    """How far inside edge k's line the point lies (rounded)."""
    if cv.kind == OBB_KIND:
        dx = px - cv.cx
        dy = py - cv.cy
        u = dx * cv.cos + dy * cv.sin
        v = dy * cv.cos - dx * cv.sin
        if k == 0:
            return v + cv.hh
        if k == 1:
            return cv.hw - u
        if k == 2:
            return cv.hh - v
        return u + cv.hw
    n = len(cv.xs)
    j = k + 1 if k + 1 < n else 0
    ux, uy = unit(cv.xs[j] - cv.xs[k], cv.ys[j] - cv.ys[k])
    return ux * (py - cv.ys[k]) - uy * (px - cv.xs[k])


def point_convex_inside(cv, px, py):
    """A point inside an OBB or polygon (or on it; local coordinates).  On an edge's
    line by the exact sign: the first such edge in ring order, distance 0.0.  Else the
    edge of least depth (ties: the first), the foot p + depth n; a depth the rounding
    took to 0.0 or below is the smallest positive float (p is strictly inside)."""
    best = math.inf
    kb = -1
    for k in range(len(cv.xs)):
        s = _side(cv, k, px, py)
        if s == 2:
            continue
        if s <= 0:
            nx, ny = _edge_normal(cv, k)
            return px, py, 0.0, nx, ny
        depth = _edge_depth(cv, k, px, py)
        if depth < best:
            best = depth
            kb = k
    if kb < 0:
        # a polygon row whose vertices all coincide, the point on them
        return px, py, 0.0, 1.0, 0.0
    if not best > 0.0:
        best = TINY
    nx, ny = _edge_normal(cv, kb)
    return px + nx * best, py + ny * best, 0.0 - best, nx, ny


def point_convex_outside(cv, px, py):
    """A point outside an OBB or polygon (local coordinates): ``distance``'s kernel
    for a point core, the normal from the nearest point towards p."""
    sep = round_convex_closest((px, py, px, py, 0.0), cv)[0]
    # the nearest feature among the edges p lies strictly outside of (the nearest
    # point of a convex shape lies on one): inside an edge, that edge's normal (not
    # p - q, whose direction q's rounding would spoil for a point near the edge); at
    # a vertex, the direction from it (ties: the first edge in ring order)
    n = len(cv.xs)
    best = math.inf
    kb = 0
    tb = qx = qy = 0.0
    for k in range(n):
        if _side(cv, k, px, py) < 0:
            j = k + 1 if k + 1 < n else 0
            t, x, y, d2 = point_segment(px, py, cv.xs[k], cv.ys[k], cv.xs[j], cv.ys[j])
            if d2 < best:
                best, kb, tb, qx, qy = d2, k, t, x, y
    j = kb + 1 if kb + 1 < n else 0
    if beside(tb, px, py, cv.xs[kb], cv.ys[kb], cv.xs[j], cv.ys[j]):
        nx, ny = _edge_normal(cv, kb)
    else:
        nx, ny = unit(px - qx, py - qy)
    return qx, qy, sep, nx, ny


def query_point(shape, px, py):
    """``(inside, qx, qy, distance, nx, ny)`` of a finite point and a shape: inside is
    ``contains``; the rest as the module docstring says, in world coordinates."""
    inside = contains_point(shape, px, py)
    k = shape.kind
    if k == CIRCLE:
        qx, qy, dist, nx, ny = point_circle(shape._x, shape._y, shape._r, px, py)
    elif k == AABB_KIND and inside:
        qx, qy, dist, nx, ny = point_aabb_inside(shape._min_x, shape._min_y, shape._max_x,
                                                 shape._max_y, px, py)
    else:
        # the frame of the pair (point circle, shape): the point circle sorts first
        ox, oy = _frame(Circle(px, py, 0.0), shape)
        lx = px - ox
        ly = py - oy
        if k <= SEGMENT:
            ax, ay, bx, by, r = _core(shape, ox, oy)
            qx, qy, dist, nx, ny = point_round(ax, ay, bx, by, r, lx, ly)
        elif k == AABB_KIND:
            qx, qy, dist, nx, ny = point_aabb_outside(shape._min_x - ox, shape._min_y - oy,
                                                      shape._max_x - ox, shape._max_y - oy,
                                                      lx, ly)
        elif inside:
            qx, qy, dist, nx, ny = point_convex_inside(convex_local(shape, ox, oy), lx, ly)
        else:
            qx, qy, dist, nx, ny = point_convex_outside(convex_local(shape, ox, oy), lx, ly)
        qx = qx + ox
        qy = qy + oy
    # the sign follows contains (not reached otherwise: the same kernels decide both)
    if inside and dist > 0.0:
        dist = 0.0
    elif not inside and not dist > 0.0:
        dist = APART
    return inside, qx, qy, dist, nx, ny


# ------------------------------------------------------------------ public entry points


def point_query(shape, point):
    """``point_query`` of one shape and one point (``fastcol.point_query`` documents it)."""
    if not isinstance(shape, _Shape):
        raise shape_type_error(shape, "shape")
    px, py = as_point(point, "point")
    _, qx, qy, dist, nx, ny = query_point(shape, px, py)
    return PointQuery((qx, qy), dist, (nx, ny))


def contains(shape, point):
    """``contains`` of one shape and one point."""
    if not isinstance(shape, _Shape):
        raise shape_type_error(shape, "shape")
    px, py = as_point(point, "point")
    return contains_point(shape, px, py)


def _point_rows(shape, points):
    """``(n, dtype, [(shape or None, point or None), ...])`` of a batch call."""
    n, dtype, p = _batch.point_query_args(shape, points, _Shape)
    pts = [v if math.isfinite(v[0]) and math.isfinite(v[1]) else None
           for v in _vectors(p, n)]
    return n, dtype, zip(_rows(shape, n), pts)


@_overflow_to_inf
def point_query_rows(shape, points, workers):
    """``PointQueryArray`` row by row; NaN where the shape or the point is not one."""
    _batch.check_workers(workers)
    n, dtype, rows = _point_rows(shape, points)
    res = _batch.pointquery_result(n, dtype)
    for i, (s, p) in enumerate(rows):
        if s is None or p is None:
            res.point[i] = res.distance[i] = res.normal[i] = math.nan
            continue
        _, qx, qy, dist, nx, ny = query_point(s, p[0], p[1])
        res.point[i] = (qx, qy)
        res.distance[i] = dist
        res.normal[i] = (nx, ny)
    return res


def contains_rows(shape, points, out, workers):
    """``bool[N]`` row by row; False where the shape or the point is not one."""
    _batch.check_workers(workers)
    n, dtype, rows = _point_rows(shape, points)
    res = _batch.check_out(out, n, np.dtype(bool))
    for i, (s, p) in enumerate(rows):
        res[i] = s is not None and p is not None and contains_point(s, p[0], p[1])
    return res
