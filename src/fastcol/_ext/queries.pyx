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

from fastcol._validate import shape_type_error


cdef int _check(object a, object b) except -1:
    if not isinstance(a, Shape):
        raise shape_type_error(a, "a")
    if not isinstance(b, Shape):
        raise shape_type_error(b, "b")
    return 0


cdef int _fields(Shape s, double* v) noexcept:
    # v (OUT): the fields of a non-polygon shape in _fields order; returns their count
    if s.kind == CIRCLE:
        v[0] = (<Circle>s)._x
        v[1] = (<Circle>s)._y
        v[2] = (<Circle>s)._r
        return 3
    if s.kind == CAPSULE:
        v[0] = (<Capsule>s)._ax
        v[1] = (<Capsule>s)._ay
        v[2] = (<Capsule>s)._bx
        v[3] = (<Capsule>s)._by
        v[4] = (<Capsule>s)._r
        return 5
    if s.kind == SEGMENT:
        v[0] = (<Segment>s)._ax
        v[1] = (<Segment>s)._ay
        v[2] = (<Segment>s)._bx
        v[3] = (<Segment>s)._by
        return 4
    if s.kind == AABB_KIND:
        v[0] = (<AABB>s)._min_x
        v[1] = (<AABB>s)._min_y
        v[2] = (<AABB>s)._max_x
        v[3] = (<AABB>s)._max_y
        return 4
    v[0] = (<OBB>s)._cx
    v[1] = (<OBB>s)._cy
    v[2] = (<OBB>s)._half_w
    v[3] = (<OBB>s)._half_h
    v[4] = (<OBB>s)._angle
    return 5


cdef bint _greater(Shape a, Shape b) noexcept:
    # a > b comparing fields in order, as the reference compares a._values() tuples
    cdef double va[5]
    cdef double vb[5]
    cdef int i, n
    cdef Polygon pa, pb
    if a.kind == POLYGON:
        pa = <Polygon>a
        pb = <Polygon>b
        for i in range(min(pa.n, pb.n)):
            if pa.xs[i] != pb.xs[i]:
                return pa.xs[i] > pb.xs[i]
            if pa.ys[i] != pb.ys[i]:
                return pa.ys[i] > pb.ys[i]
        return pa.n > pb.n
    n = _fields(a, va)
    _fields(b, vb)
    for i in range(n):
        if va[i] != vb[i]:
            return va[i] > vb[i]
    return False


cdef bint _swapped(Shape a, Shape b) noexcept:
    return a.kind > b.kind or (a.kind == b.kind and _greater(a, b))


cdef void _origin(Shape s, double* ox, double* oy) noexcept:
    # ox, oy (OUT): the reference point of a shape, origin of the local coordinates
    cdef int k = s.kind
    if k == CIRCLE:
        ox[0] = (<Circle>s)._x
        oy[0] = (<Circle>s)._y
    elif k == CAPSULE:
        ox[0] = (<Capsule>s)._ax
        oy[0] = (<Capsule>s)._ay
    elif k == SEGMENT:
        ox[0] = (<Segment>s)._ax
        oy[0] = (<Segment>s)._ay
    elif k == AABB_KIND:
        ox[0] = (<AABB>s)._min_x
        oy[0] = (<AABB>s)._min_y
    elif k == OBB_KIND:
        ox[0] = (<OBB>s)._cx
        oy[0] = (<OBB>s)._cy
    else:
        ox[0] = (<Polygon>s).xs[0]
        oy[0] = (<Polygon>s).ys[0]


cdef void _core(Shape s, double ox, double oy, Round* out) noexcept:
    # out (OUT): a round shape's core and radius in local coordinates
    cdef int k = s.kind
    if k == CIRCLE:
        out.ax = (<Circle>s)._x - ox
        out.ay = (<Circle>s)._y - oy
        out.bx = out.ax
        out.by = out.ay
        out.r = (<Circle>s)._r
    elif k == CAPSULE:
        out.ax = (<Capsule>s)._ax - ox
        out.ay = (<Capsule>s)._ay - oy
        out.bx = (<Capsule>s)._bx - ox
        out.by = (<Capsule>s)._by - oy
        out.r = (<Capsule>s)._r
    else:
        out.ax = (<Segment>s)._ax - ox
        out.ay = (<Segment>s)._ay - oy
        out.bx = (<Segment>s)._bx - ox
        out.by = (<Segment>s)._by - oy
        out.r = 0.0


cdef void _convex(Shape s, double ox, double oy, Convex* out) noexcept:
    # out (OUT): an AABB, OBB or Polygon in local coordinates
    cdef int k = s.kind
    cdef OBB o
    cdef Polygon p
    if k == AABB_KIND:
        convex_aabb(out, (<AABB>s)._min_x - ox, (<AABB>s)._min_y - oy,
                    (<AABB>s)._max_x - ox, (<AABB>s)._max_y - oy)
    elif k == OBB_KIND:
        o = <OBB>s
        convex_obb(out, o._cx - ox, o._cy - oy, o._cos, o._sin, o._half_w, o._half_h)
    else:
        p = <Polygon>s
        convex_polygon(out, p.xs, p.ys, p.n, ox, oy)


cdef bint _collide(Shape a, Shape b) noexcept:
    cdef double ox, oy, dx, dy
    cdef Round ra, rb
    cdef Convex ca, cb
    cdef AABB ba, bb
    _origin(a, &ox, &oy)
    if b.kind <= SEGMENT:
        if b.kind == CIRCLE:
            # two circles (a sorts first, so it is a circle too)
            dx = (<Circle>b)._x - ox
            dy = (<Circle>b)._y - oy
            return sqrt(dx * dx + dy * dy) <= (<Circle>a)._r + (<Circle>b)._r
        _core(a, ox, oy, &ra)
        _core(b, ox, oy, &rb)
        return round_round_collide(&ra, &rb)
    if a.kind <= SEGMENT:
        _core(a, ox, oy, &ra)
        _convex(b, ox, oy, &cb)
        return round_convex_collide(&ra, &cb)
    if a.kind == AABB_KIND and b.kind == AABB_KIND:
        # the separating axis test of two AABBs is two interval tests
        ba = <AABB>a
        bb = <AABB>b
        return (bb._min_x - ox <= ba._max_x - ox
                and ba._min_x - ox <= bb._max_x - ox
                and bb._min_y - oy <= ba._max_y - oy
                and ba._min_y - oy <= bb._max_y - oy)
    _convex(a, ox, oy, &ca)
    _convex(b, ox, oy, &cb)
    return convex_overlap(&ca, &cb)


cdef double _closest(Shape a, Shape b, double ox, double oy, double* out) noexcept:
    # separation of a canonical pair; out (OUT) = (pax, pay, pbx, pby), local
    cdef double dx, dy
    cdef Round ra, rb
    cdef Convex ca, cb
    cdef AABB ba, bb
    if b.kind <= SEGMENT:
        if b.kind == CIRCLE:
            dx = (<Circle>b)._x - ox
            dy = (<Circle>b)._y - oy
            return round_result(dx * dx + dy * dy, (<Circle>a)._r, (<Circle>b)._r,
                                0.0, 0.0, dx, dy, out)
        _core(a, ox, oy, &ra)
        _core(b, ox, oy, &rb)
        return round_round_closest(&ra, &rb, out)
    if a.kind <= SEGMENT:
        _core(a, ox, oy, &ra)
        _convex(b, ox, oy, &cb)
        return round_convex_closest(&ra, &cb, out)
    if a.kind == AABB_KIND and b.kind == AABB_KIND:
        ba = <AABB>a
        bb = <AABB>b
        return aabb_aabb_closest(ba._min_x - ox, ba._min_y - oy, ba._max_x - ox, ba._max_y - oy,
                                 bb._min_x - ox, bb._min_y - oy, bb._max_x - ox, bb._max_y - oy,
                                 out)
    _convex(a, ox, oy, &ca)
    _convex(b, ox, oy, &cb)
    return convex_convex_closest(&ca, &cb, out)


def collide(a, b):
    """Whether two shapes overlap or touch (exactly when ``distance(a, b) == 0.0``).

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.collide(fc.Circle(0, 0, 1), fc.AABB(1, -1, 2, 1))   # touching counts
    True
    """
    cdef double dx, dy
    if type(a) is Circle and type(b) is Circle:
        # the commonest pair, and already symmetric: skip the canonical ordering
        dx = (<Circle>b)._x - (<Circle>a)._x
        dy = (<Circle>b)._y - (<Circle>a)._y
        return sqrt(dx * dx + dy * dy) <= (<Circle>a)._r + (<Circle>b)._r
    _check(a, b)
    if _swapped(a, b):
        return _collide(b, a)
    return _collide(a, b)


def distance(a, b):
    """Separation of two shapes: 0.0 when they overlap or touch.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.distance(fc.Circle(0, 0, 1), fc.Circle(5, 0, 1))
    3.0
    """
    cdef double ox, oy, sep
    cdef double out[4]
    _check(a, b)
    if _swapped(a, b):
        a, b = b, a
    _origin(a, &ox, &oy)
    sep = _closest(a, b, ox, oy, out)
    return sep if sep > 0.0 else 0.0


def closest_points(a, b):
    """Closest points of two shapes and their distance, as a ``Closest`` record.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.closest_points(fc.Circle(0, 0, 1), fc.Circle(5, 0, 1))
    Closest(point_a=(1.0, 0.0), point_b=(4.0, 0.0), distance=3.0)
    """
    cdef double ox, oy, sep, d
    cdef double out[4]
    cdef bint swapped
    _check(a, b)
    swapped = _swapped(a, b)
    if swapped:
        a, b = b, a
    _origin(a, &ox, &oy)
    sep = _closest(a, b, ox, oy, out)
    d = sep if sep > 0.0 else 0.0
    if swapped:
        return make_closest(out[2] + ox, out[3] + oy, out[0] + ox, out[1] + oy, d)
    return make_closest(out[0] + ox, out[1] + oy, out[2] + ox, out[3] + oy, d)
