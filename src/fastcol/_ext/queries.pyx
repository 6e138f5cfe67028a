"""The scalar queries (compiled twin of fastcol._ref.queries, which documents them).

A pair is put in canonical order (by kind, then by fields) so every query is exactly
symmetric, and the local origin is a reference point of the first shape.  Scalar
queries keep the GIL: releasing it would cost more than the work.
"""

from libc.math cimport sqrt

from .narrowphase cimport (
    Convex,
    Round,
    aabb_aabb_closest,
    convex_aabb,
    convex_convex_closest,
    convex_obb,
    convex_overlap,
    convex_polygon,
    round_convex_closest,
    round_convex_collide,
    round_result,
    round_round_closest,
    round_round_collide,
)
from .records cimport make_closest
from .shapes cimport (
    AABB,
    AABB_KIND,
    CAPSULE,
    CIRCLE,
    OBB,
    OBB_KIND,
    POLYGON,
    SEGMENT,
    Capsule,
    Circle,
    Polygon,
    Segment,
    Shape,
)

from fastcol import _batch
from fastcol._validate import shape_type_error

from . import batch


cdef int _check(object a, object b) except -1:
    if not isinstance(a, Shape):
        raise shape_type_error(a, "a")
    if not isinstance(b, Shape):
        raise shape_type_error(b, "b")
    return 0


cdef void view_of(Shape s, View* v) noexcept:
    # v (OUT): the numbers of a shape object
    cdef int k = s.kind
    v.kind = k
    if k == CIRCLE:
        v.f[0] = (<Circle>s)._x
        v.f[1] = (<Circle>s)._y
        v.f[2] = (<Circle>s)._r
    elif k == CAPSULE:
        v.f[0] = (<Capsule>s)._ax
        v.f[1] = (<Capsule>s)._ay
        v.f[2] = (<Capsule>s)._bx
        v.f[3] = (<Capsule>s)._by
        v.f[4] = (<Capsule>s)._r
    elif k == SEGMENT:
        v.f[0] = (<Segment>s)._ax
        v.f[1] = (<Segment>s)._ay
        v.f[2] = (<Segment>s)._bx
        v.f[3] = (<Segment>s)._by
    elif k == AABB_KIND:
        v.f[0] = (<AABB>s)._min_x
        v.f[1] = (<AABB>s)._min_y
        v.f[2] = (<AABB>s)._max_x
        v.f[3] = (<AABB>s)._max_y
    elif k == OBB_KIND:
        v.f[0] = (<OBB>s)._cx
        v.f[1] = (<OBB>s)._cy
        v.f[2] = (<OBB>s)._half_w
        v.f[3] = (<OBB>s)._half_h
        v.f[4] = (<OBB>s)._angle
        v.cos = (<OBB>s)._cos
        v.sin = (<OBB>s)._sin
    else:
        v.n = (<Polygon>s).n
        v.xs = (<Polygon>s).xs
        v.ys = (<Polygon>s).ys


cdef int[5] _NFIELDS = [3, 5, 4, 4, 5]


cdef bint _greater(const View* a, const View* b) noexcept nogil:
    # a > b comparing fields in order, as the reference compares a._values() tuples
    cdef int i
    if a.kind == POLYGON:
        for i in range(min(a.n, b.n)):
            if a.xs[i] != b.xs[i]:
                return a.xs[i] > b.xs[i]
            if a.ys[i] != b.ys[i]:
                return a.ys[i] > b.ys[i]
        return a.n > b.n
    for i in range(_NFIELDS[a.kind]):
        if a.f[i] != b.f[i]:
            return a.f[i] > b.f[i]
    return False


cdef bint views_swapped(const View* a, const View* b) noexcept nogil:
    return a.kind > b.kind or (a.kind == b.kind and _greater(a, b))


cdef void view_origin(const View* v, double* ox, double* oy) noexcept nogil:
    # ox, oy (OUT): the reference point of a shape, origin of the local coordinates
    # (the first two fields, or a polygon's first vertex)
    if v.kind == POLYGON:
        ox[0] = v.xs[0]
        oy[0] = v.ys[0]
    else:
        ox[0] = v.f[0]
        oy[0] = v.f[1]


cdef void view_core(const View* v, double ox, double oy, Round* out) noexcept nogil:
    # out (OUT): a round shape's core and radius in local coordinates
    if v.kind == CIRCLE:
        out.ax = v.f[0] - ox
        out.ay = v.f[1] - oy
        out.bx = out.ax
        out.by = out.ay
        out.r = v.f[2]
    else:
        out.ax = v.f[0] - ox
        out.ay = v.f[1] - oy
        out.bx = v.f[2] - ox
        out.by = v.f[3] - oy
        out.r = v.f[4] if v.kind == CAPSULE else 0.0


cdef void view_convex(const View* v, double ox, double oy, Convex* out) noexcept nogil:
    # out (OUT): an AABB, OBB or Polygon in local coordinates
    if v.kind == AABB_KIND:
        convex_aabb(out, v.f[0] - ox, v.f[1] - oy, v.f[2] - ox, v.f[3] - oy)
    elif v.kind == OBB_KIND:
        convex_obb(out, v.f[0] - ox, v.f[1] - oy, v.cos, v.sin, v.f[2], v.f[3])
    else:
        convex_polygon(out, v.xs, v.ys, v.n, ox, oy)


cdef bint collide_canonical(const View* a, const View* b) noexcept nogil:
    # collide of a pair already in canonical order (callers that order it anyway)
    cdef double ox, oy, dx, dy
    cdef Round ra, rb
    cdef Convex ca, cb
    view_origin(a, &ox, &oy)
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
    if a.kind == AABB_KIND and b.kind == AABB_KIND:
        # the separating axis test of two AABBs is two interval tests
        return aabbs_overlap(a.f, b.f)
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
    view_origin(a, &ox, &oy)
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


# NULL until batch registers it: no initialiser here, which would run after this
# module's `from . import batch` and undo the registration
cdef FastBatch _fast_collide


cdef void set_fast_collide(FastBatch f) noexcept:
    global _fast_collide
    _fast_collide = f


cdef inline bint _two_shapes(object a, object b, object out, object workers) except -1:
    # True for two shapes (a scalar query), False when an array is involved
    if isinstance(a, Shape) and isinstance(b, Shape):
        if out is not None or workers is not 1:
            _batch.no_out_for_shapes(out, workers)
        return True
    return False


def collide(a, b, out=None, workers=1):
    """Whether two shapes overlap or touch (exactly when ``distance(a, b) == 0.0``).

    Shape arrays are answered row by row (``bool[N]``, written to ``out`` if given,
    split over ``workers`` threads); see the reference for the full contract.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.collide(fc.Circle(0, 0, 1), fc.AABB(1, -1, 2, 1))   # touching counts
    True
    >>> fc.collide(fc.Circle(0, 0, 1), fc.CircleArray([[2, 0, 1], [3, 0, 1], [0, 0, float("nan")]]))
    array([ True, False, False])
    """
    cdef double dx, dy
    if type(a) is Circle and type(b) is Circle and out is None and workers is 1:
        # the commonest pair, and already symmetric: skip the canonical ordering
        dx = (<Circle>b)._x - (<Circle>a)._x
        dy = (<Circle>b)._y - (<Circle>a)._y
        return sqrt(dx * dx + dy * dy) <= (<Circle>a)._r + (<Circle>b)._r
    cdef View va, vb
    if not _two_shapes(a, b, out, workers):
        if out is None and workers is 1 and _fast_collide != NULL:
            # float64 rows without out= or threads: the batch module's direct entry
            # (None when the operands need the general path's conversions or errors)
            res = _fast_collide(a, b)
            if res is not None:
                return res
        return batch.collide(None, a, b, out, workers)
    view_of(a, &va)
    view_of(b, &vb)
    return collide_views(&va, &vb)


def distance(a, b, out=None, workers=1):
    """Separation of two shapes: 0.0 when they overlap or touch.

    Shape arrays are answered row by row (``float[N]``, NaN for a row that is no
    shape); see the reference for the full contract.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.distance(fc.Circle(0, 0, 1), fc.Circle(5, 0, 1))
    3.0
    """
    cdef double sep
    cdef double pts[4]
    cdef View va, vb
    if not _two_shapes(a, b, out, workers):
        return batch.distance(None, a, b, out, workers)
    view_of(a, &va)
    view_of(b, &vb)
    sep = closest_views(&va, &vb, pts)
    return sep if sep > 0.0 else 0.0


def closest_points(a, b, workers=1):
    """Closest points of two shapes and their distance, as a ``Closest`` record.

    Shape arrays are answered row by row: ``(point_a[N, 2], point_b[N, 2],
    distance[N])``; see the reference for the full contract.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.closest_points(fc.Circle(0, 0, 1), fc.Circle(5, 0, 1))
    Closest(point_a=(1.0, 0.0), point_b=(4.0, 0.0), distance=3.0)
    """
    cdef double sep
    cdef double out[4]
    cdef View va, vb
    if not _two_shapes(a, b, None, workers):
        return batch.closest_points(None, a, b, workers)
    view_of(a, &va)
    view_of(b, &vb)
    sep = closest_views(&va, &vb, out)
    return make_closest(out[0], out[1], out[2], out[3], sep if sep > 0.0 else 0.0)
