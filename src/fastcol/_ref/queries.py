"""The scalar queries: ``collide``, ``distance`` and ``closest_points`` for every pair.

A pair is first put in canonical order (by kind: Circle, Capsule, Segment, AABB, OBB,
Polygon; two shapes of one kind by their fields), so every query is exactly symmetric:
``distance(a, b) == distance(b, a)`` to the bit.  The origin of the local coordinates is
then a reference point of the first shape.  Mirrored in ``_ext/queries.pyx``.
"""

from __future__ import annotations

import math

from .. import _batch
from .._validate import shape_type_error
from . import batch
from .predicates import exact_origin
from .narrowphase import (
    aabb_aabb_closest,
    circle_aabb_collide,
    convex_convex_closest,
    convex_local,
    convex_overlap,
    round_convex_closest,
    round_convex_collide,
    round_result,
    round_round_closest,
    round_round_collide,
)
from .records import Closest
from .shapes import AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, SEGMENT, _Shape


def _check(a, b):
    if not isinstance(a, _Shape):
        raise shape_type_error(a, "a")
    if not isinstance(b, _Shape):
        raise shape_type_error(b, "b")


def _canonical(a, b):
    """``(first, second, swapped)``: the pair in the order the kernels take it."""
    if a.kind > b.kind or (a.kind == b.kind and a._values() > b._values()):
        return b, a, True
    return a, b, False


def _origin(s):
    """The reference point of a shape: the origin of a pair's local coordinates."""
    k = s.kind
    if k == CIRCLE:
        return s._x, s._y
    if k <= SEGMENT:
        return s._ax, s._ay
    if k == AABB_KIND:
        return s._min_x, s._min_y
    if k == OBB_KIND:
        return s._cx, s._cy
    return s._xs[0], s._ys[0]


def _extent(s):
    """``(xlo, xhi, ylo, yhi)``: the least and largest of the coordinates from which the
    kernels subtract a pair's origin (an OBB's centre: its corners are computed from
    the centre in the pair's local coordinates)."""
    k = s.kind
    if k == CIRCLE:
        return s._x, s._x, s._y, s._y
    if k <= SEGMENT:
        return min(s._ax, s._bx), max(s._ax, s._bx), min(s._ay, s._by), max(s._ay, s._by)
    if k == AABB_KIND:
        return s._min_x, s._max_x, s._min_y, s._max_y
    if k == OBB_KIND:
        return s._cx, s._cx, s._cy, s._cy
    return min(s._xs), max(s._xs), min(s._ys), max(s._ys)


def _frame(a, b):
    """The origin of a canonical pair's local coordinates.

    The first shape's reference point, on each axis where subtracting it from every
    coordinate of the pair is exact (``exact_origin``), else 0.0: the kernels' exact
    signs are then exact for the shapes as stored.  Two circles, which no sign decides,
    keep the reference point.
    """
    ox, oy = _origin(a)
    if a.kind == CIRCLE and b.kind == CIRCLE:
        return ox, oy
    ax0, ax1, ay0, ay1 = _extent(a)
    bx0, bx1, by0, by1 = _extent(b)
    return (exact_origin(ox, min(ax0, bx0), max(ax1, bx1)),
            exact_origin(oy, min(ay0, by0), max(ay1, by1)))


def _core(s, ox, oy):
    """A round shape as ``(ax, ay, bx, by, r)`` in local coordinates."""
    k = s.kind
    if k == CIRCLE:
        x = s._x - ox
        y = s._y - oy
        return x, y, x, y, s._r
    if k == CAPSULE:
        return s._ax - ox, s._ay - oy, s._bx - ox, s._by - oy, s._r
    return s._ax - ox, s._ay - oy, s._bx - ox, s._by - oy, 0.0


def _collide(a, b):
    if a.kind == CIRCLE and b.kind == AABB_KIND:
        # no frame needed: only differences of the stored coordinates enter
        return circle_aabb_collide(a._x, a._y, a._r, b._min_x, b._min_y, b._max_x, b._max_y)
    ox, oy = _frame(a, b)
    if b.kind <= SEGMENT:
        if b.kind == CIRCLE:
            # two circles (a sorts first, so it is a circle too)
            dx = b._x - ox
            dy = b._y - oy
            return math.sqrt(dx * dx + dy * dy) <= a._r + b._r
        return round_round_collide(_core(a, ox, oy), _core(b, ox, oy))
    if a.kind <= SEGMENT:
        return round_convex_collide(_core(a, ox, oy), convex_local(b, ox, oy))
    if a.kind == AABB_KIND and b.kind == AABB_KIND:
        # the separating axis test of two AABBs is two interval tests (on the stored
        # coordinates, as in the exact local frame)
        return (
            b._min_x <= a._max_x
            and a._min_x <= b._max_x
            and b._min_y <= a._max_y
            and a._min_y <= b._max_y
        )
    return convex_overlap(convex_local(a, ox, oy), convex_local(b, ox, oy))


def _closest(a, b, ox, oy):
    """``(separation, pax, pay, pbx, pby)`` in local coordinates for a canonical pair."""
    if b.kind <= SEGMENT:
        if b.kind == CIRCLE:
            dx = b._x - ox
            dy = b._y - oy
            return round_result(dx * dx + dy * dy, a._r, b._r, 0.0, 0.0, dx, dy)
        return round_round_closest(_core(a, ox, oy), _core(b, ox, oy))
    if a.kind <= SEGMENT:
        return round_convex_closest(_core(a, ox, oy), convex_local(b, ox, oy))
    if a.kind == AABB_KIND and b.kind == AABB_KIND:
        return aabb_aabb_closest(_box(a, ox, oy), _box(b, ox, oy))
    return convex_convex_closest(convex_local(a, ox, oy), convex_local(b, ox, oy))


def _box(s, ox, oy):
    """An AABB as local ``(x0, y0, x1, y1)``."""
    return s._min_x - ox, s._min_y - oy, s._max_x - ox, s._max_y - oy


def collide(a, b, out=None, workers=1):
    """Whether two shapes overlap or touch.

    Parameters
    ----------
    a, b : shape or shape array
        Any two shapes (Circle, Capsule, Segment, AABB, OBB or Polygon), in either
        order; or a shape array and a shape, or two shape arrays of one length
        (``CircleArray``, ...), answered row by row.
    out : bool ndarray of shape (N,), optional
        For arrays: where to write the result (it is also returned).
    workers : int, optional
        For arrays: threads to split the rows over (``-1``: every core).

    Returns
    -------
    bool or bool ndarray of shape (N,)
        True when the shapes share at least one point: overlapping, one inside the
        other, or touching.  Exactly when ``distance(a, b) == 0.0``.  A row that is no
        shape (NaN, a negative radius, ``min > max``) gives False.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.collide(fc.Circle(0, 0, 1), fc.AABB(1, -1, 2, 1))   # touching counts
    True
    >>> fc.collide(fc.Capsule(0, 0, 4, 0, 1), fc.Segment(0, 3, 4, 3))
    False
    >>> fc.collide(fc.Circle(0, 0, 1), fc.CircleArray([[2, 0, 1], [3, 0, 1], [0, 0, float("nan")]]))
    array([ True, False, False])
    """
    if not (isinstance(a, _Shape) and isinstance(b, _Shape)):
        return batch.collide(_collide_shapes, a, b, out, workers)
    if out is not None or type(workers) is not int or workers != 1:
        _batch.no_out_for_shapes(out, workers)
    return _collide_shapes(a, b)


def _collide_shapes(a, b):
    a, b, _ = _canonical(a, b)
    return _collide(a, b)


def distance(a, b, out=None, workers=1):
    """Separation of two shapes: 0.0 when they overlap or touch.

    Parameters
    ----------
    a, b : shape or shape array
        Any two shapes, in either order, or arrays of them (see `collide`).
    out : float ndarray of shape (N,), optional
        For arrays: where to write the result (it is also returned); float32 when
        every array is float32, else float64.
    workers : int, optional
        For arrays: threads to split the rows over (``-1``: every core).

    Returns
    -------
    float or float ndarray of shape (N,)
        The length of the shortest segment joining the two shapes; exactly
        symmetric, and 0.0 exactly when ``collide(a, b)``.  NaN for a row that is no
        shape.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.distance(fc.Circle(0, 0, 1), fc.Circle(5, 0, 1))
    3.0
    >>> fc.distance(fc.Polygon([(0, 0), (2, 0), (0, 2)]), fc.AABB(0.5, 0.5, 3, 3))
    0.0
    """
    if not (isinstance(a, _Shape) and isinstance(b, _Shape)):
        return batch.distance(_distance_shapes, a, b, out, workers)
    if out is not None or type(workers) is not int or workers != 1:
        _batch.no_out_for_shapes(out, workers)
    return _distance_shapes(a, b)


def _distance_shapes(a, b):
    a, b, _ = _canonical(a, b)
    ox, oy = _frame(a, b)
    sep = _closest(a, b, ox, oy)[0]
    return sep if sep > 0.0 else 0.0


def closest_points(a, b, workers=1):
    """Closest points of two shapes, and their distance.

    Parameters
    ----------
    a, b : shape or shape array
        Any two shapes, in either order, or arrays of them (see `collide`).
    workers : int, optional
        For arrays: threads to split the rows over (``-1``: every core).

    Returns
    -------
    Closest, or (point_a, point_b, distance) arrays
        ``(point_a, point_b, distance)``: ``point_a`` on ``a``, ``point_b`` on ``b``,
        ``distance == distance(a, b)``.  When the shapes overlap or touch, ``point_a ==
        point_b`` is a point inside (or on the boundary of) both.  For arrays, three
        arrays of shapes (N, 2), (N, 2) and (N,), NaN in the rows that are no shape.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.closest_points(fc.Circle(0, 0, 1), fc.Circle(5, 0, 1))
    Closest(point_a=(1.0, 0.0), point_b=(4.0, 0.0), distance=3.0)
    >>> pa, pb, d = fc.closest_points(fc.Segment(0, 0, 2, 2), fc.Segment(0, 2, 2, 0))
    >>> pa == pb == (1.0, 1.0), d
    (True, 0.0)
    """
    if not (isinstance(a, _Shape) and isinstance(b, _Shape)):
        return batch.closest_points(_closest_points_shapes, a, b, workers)
    if type(workers) is not int or workers != 1:
        _batch.no_out_for_shapes(None, workers)
    return _closest_points_shapes(a, b)


def _closest_points_shapes(a, b):
    a, b, swapped = _canonical(a, b)
    ox, oy = _frame(a, b)
    sep, pax, pay, pbx, pby = _closest(a, b, ox, oy)
    pa = (pax + ox, pay + oy)
    pb = (pbx + ox, pby + oy)
    d = sep if sep > 0.0 else 0.0
    if swapped:
        return Closest(pb, pa, d)
    return Closest(pa, pb, d)
