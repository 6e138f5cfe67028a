"""The scalar queries: ``collide``, ``distance`` and ``closest_points`` for every pair.

A pair is first put in canonical order (by kind: Circle, Capsule, Segment, AABB, OBB,
Polygon; two shapes of one kind by their fields), so every query is exactly symmetric:
``distance(a, b) == distance(b, a)`` to the bit.  The origin of the local coordinates is
then a reference point of the first shape.  Mirrored in ``_ext/queries.pyx``.
"""

from __future__ import annotations

import math

from .._validate import shape_type_error
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


def collide_canonical(a, b):
    """collide of a pair in canonical order."""
    if a.kind == AABB_KIND and b.kind == AABB_KIND:
        return aabbs_overlap(a, b)
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
    return convex_overlap(convex_local(a, ox, oy), convex_local(b, ox, oy))


def aabbs_overlap(a, b):
    """collide of two AABBs: the separating axis test of two boxes is two interval
    tests (on the stored coordinates, as in the exact local frame)."""
    return (
        b._min_x <= a._max_x
        and a._min_x <= b._max_x
        and b._min_y <= a._max_y
        and a._min_y <= b._max_y
    )


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


def collide(a, b):
    """``collide`` of two shapes (``fastcol.collide`` documents it)."""
    _check(a, b)
    a, b, _ = _canonical(a, b)
    return collide_canonical(a, b)


def distance(a, b):
    """``distance`` of two shapes."""
    _check(a, b)
    a, b, _ = _canonical(a, b)
    ox, oy = _frame(a, b)
    sep = _closest(a, b, ox, oy)[0]
    return sep if sep > 0.0 else 0.0


def closest_points(a, b):
    """``closest_points`` of two shapes."""
    _check(a, b)
    a, b, swapped = _canonical(a, b)
    ox, oy = _frame(a, b)
    sep, pax, pay, pbx, pby = _closest(a, b, ox, oy)
    pa = (pax + ox, pay + oy)
    pb = (pbx + ox, pby + oy)
    d = sep if sep > 0.0 else 0.0
    if swapped:
        return Closest(pb, pa, d)
    return Closest(pa, pb, d)
