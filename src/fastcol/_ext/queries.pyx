"""The scalar queries (compiled twin of fastcol._ref.queries).

A pair is put in canonical order (by kind, then by fields) so every query is exactly
symmetric, and the local origin is a reference point of the first shape.  Scalar
queries keep the GIL: releasing it would cost more than the work.
"""

from libc.math cimport sqrt

from .narrowphase cimport (
    Convex,
    Round,
    aabb_aabb_closest,
    circle_aabb_collide,
    convex_convex_closest,
    convex_overlap,
    round_convex_closest,
    round_convex_collide,
    round_result,
    round_round_closest,
    round_round_collide,
)
from .records cimport make_closest
from .shapes cimport AABB_KIND, CIRCLE, SEGMENT, Circle, Shape, is_shape

from fastcol._validate import shape_type_error


cdef int _check(object a, object b) except -1:
    if not is_shape(a):
        raise shape_type_error(a, "a")
    if not is_shape(b):
        raise shape_type_error(b, "b")
    return 0


cdef bint collide_canonical(const View* a, const View* b) noexcept nogil:
    # collide of a pair already in canonical order (callers that order it anyway)
    cdef double ox, oy, dx, dy
    cdef Round ra, rb
    cdef Convex ca, cb
    if a.kind == AABB_KIND and b.kind == AABB_KIND:
        # the separating axis test of two AABBs is two interval tests (no frame needed)
        return aabbs_overlap(a.f, b.f)
    if a.kind == CIRCLE and b.kind == AABB_KIND:
        # no frame needed: only differences of the stored coordinates enter
        return circle_aabb_collide(a.f[0], a.f[1], a.f[2], b.f[0], b.f[1], b.f[2], b.f[3])
    view_frame(a, b, &ox, &oy)
    if b.kind <= SEGMENT:
        if b.kind == CIRCLE:
            # two circles (a sorts first, so it is a circle too)
            dx = b.f[0] - ox
            dy = b.f[1] - oy
            return sqrt(dx * dx + dy * dy) <= a.f[2] + b.f[2]
        view_core(a, ox, oy, &ra)
        view_core(b, ox, oy, &rb)
        return round_round_collide(&ra, &rb)
    if a.kind <= SEGMENT:
        view_core(a, ox, oy, &ra)
        view_convex(b, ox, oy, &cb)
        return round_convex_collide(&ra, &cb)
    view_convex(a, ox, oy, &ca)
    view_convex(b, ox, oy, &cb)
    return convex_overlap(&ca, &cb)


cdef bint collide_views(const View* a, const View* b) noexcept nogil:
    # whether two shapes overlap or touch, in either order
    if views_swapped(a, b):
        return collide_canonical(b, a)
    return collide_canonical(a, b)


cdef double _closest(const View* a, const View* b, double ox, double oy, double* out) noexcept nogil:
    # separation of a canonical pair; out (OUT) = (pax, pay, pbx, pby), local
    cdef double dx, dy
    cdef Round ra, rb
    cdef Convex ca, cb
    if b.kind <= SEGMENT:
        if b.kind == CIRCLE:
            dx = b.f[0] - ox
            dy = b.f[1] - oy
            return round_result(dx * dx + dy * dy, a.f[2], b.f[2], 0.0, 0.0, dx, dy, out)
        view_core(a, ox, oy, &ra)
        view_core(b, ox, oy, &rb)
        return round_round_closest(&ra, &rb, out)
    if a.kind <= SEGMENT:
        view_core(a, ox, oy, &ra)
        view_convex(b, ox, oy, &cb)
        return round_convex_closest(&ra, &cb, out)
    if a.kind == AABB_KIND and b.kind == AABB_KIND:
        return aabb_aabb_closest(a.f[0] - ox, a.f[1] - oy, a.f[2] - ox, a.f[3] - oy,
                                 b.f[0] - ox, b.f[1] - oy, b.f[2] - ox, b.f[3] - oy,
                                 out)
    view_convex(a, ox, oy, &ca)
    view_convex(b, ox, oy, &cb)
    return convex_convex_closest(&ca, &cb, out)


cdef double closest_views(const View* a, const View* b, double* out) noexcept nogil:
    # the separation of two shapes in either order (negative when they overlap); out
    # (OUT) = (pax, pay, pbx, pby) in world coordinates, point a on the first
    cdef double ox, oy, sep, px, py
    cdef bint swapped = views_swapped(a, b)
    if swapped:
        a, b = b, a
    view_frame(a, b, &ox, &oy)
    sep = _closest(a, b, ox, oy, out)
    if swapped:
        px = out[0]
        py = out[1]
        out[0] = out[2] + ox
        out[1] = out[3] + oy
        out[2] = px + ox
        out[3] = py + oy
    else:
        out[0] = out[0] + ox
        out[1] = out[1] + oy
        out[2] = out[2] + ox
        out[3] = out[3] + oy
    return sep


# ------------------------------------------------------------ one pair of shapes
# The *_pair functions take two shape objects (the caller has checked them: entries'
# C entry, or the defs below); the defs are what fastcol._api calls for two shapes.

cdef object collide_pair(object a, object b):
    cdef double dx, dy
    cdef View va, vb
    if type(a) is Circle and type(b) is Circle:
        # the commonest pair, and already symmetric: skip the canonical ordering
        dx = (<Circle>b)._x - (<Circle>a)._x
        dy = (<Circle>b)._y - (<Circle>a)._y
        return sqrt(dx * dx + dy * dy) <= (<Circle>a)._r + (<Circle>b)._r
    view_of(<Shape>a, &va)
    view_of(<Shape>b, &vb)
    return collide_views(&va, &vb)


cdef object distance_pair(object a, object b):
    cdef double sep
    cdef double pts[4]
    cdef View va, vb
    view_of(<Shape>a, &va)
    view_of(<Shape>b, &vb)
    sep = closest_views(&va, &vb, pts)
    return sep if sep > 0.0 else 0.0


cdef object closest_points_pair(object a, object b):
    cdef double sep
    cdef double out[4]
    cdef View va, vb
    view_of(<Shape>a, &va)
    view_of(<Shape>b, &vb)
    sep = closest_views(&va, &vb, out)
    return make_closest(out[0], out[1], out[2], out[3], sep if sep > 0.0 else 0.0)


def collide(a, b):
    """``collide`` of two shapes (``fastcol.collide`` documents it)."""
    _check(a, b)
    return collide_pair(a, b)


def distance(a, b):
    """``distance`` of two shapes."""
    _check(a, b)
    return distance_pair(a, b)


def closest_points(a, b):
    """``closest_points`` of two shapes."""
    _check(a, b)
    return closest_points_pair(a, b)
