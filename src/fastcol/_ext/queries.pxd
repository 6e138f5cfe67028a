# Shapes as Views (from a shape object or an array row), their canonical pair order
# and local-coordinate forms, and the collide decision: shared by every query module
# (queries, contacts, sweeps, batch) so every query orders pairs the same way.

from .narrowphase cimport Convex, Round, convex_aabb, convex_obb, convex_polygon
from .predicates cimport exact_origin
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


cdef struct View:
    # one shape as plain numbers, from a shape object or an array row: the kind, its
    # fields in _fields order (an OBB also its angle's cosine and sine), or a
    # polygon's vertex count and arrays
    int kind
    int n
    double f[5]
    double cos, sin
    const double* xs
    const double* ys
    # a polygon's box: its least and largest x and y (view_frame's, gathered once)
    double lo[2]
    double hi[2]


cdef bint collide_views(const View* a, const View* b) noexcept nogil
cdef bint collide_canonical(const View* a, const View* b) noexcept nogil
cdef double closest_views(const View* a, const View* b, double* out) noexcept nogil

cdef int _check(object a, object b) except -1

# one pair of shape objects, checked by the caller (entries' C entry, the defs)
cdef object collide_pair(object a, object b)
cdef object distance_pair(object a, object b)
cdef object closest_points_pair(object a, object b)


cdef inline bint aabbs_overlap(const double* a, const double* b) noexcept nogil:
    # collide of two AABBs (min_x, min_y, max_x, max_y): two interval tests on the
    # stored coordinates, as in the exact local frame (collide_canonical's own test)
    return b[0] <= a[2] and a[0] <= b[2] and b[1] <= a[3] and a[1] <= b[3]


cdef inline bint aabb_rows_collide(const double* a, const double* b) noexcept nogil:
    # collide of two AABB rows in either order: the canonical order compares the
    # fields in turn (as views_swapped does), then aabbs_overlap
    cdef int i
    for i in range(4):
        if a[i] != b[i]:
            if a[i] > b[i]:
                return aabbs_overlap(b, a)
            break
    return aabbs_overlap(a, b)


# ----------------------------------------------------------------- shapes as views
# inline here, not in queries.pyx: every module that answers scalar queries compiles
# its own copy, so the compiler inlines these few loads into each query instead of
# calling across modules through Cython's function pointers

cdef inline void view_extent(const View* v, double* lo, double* hi) noexcept nogil:
    # lo, hi (OUT): the least and largest x and y from which the kernels subtract a
    # pair's origin: the shape's box (an OBB's centre, whose corners are computed from
    # it; a polygon's box as gathered)
    if v.kind == POLYGON:
        lo[0] = v.lo[0]
        lo[1] = v.lo[1]
        hi[0] = v.hi[0]
        hi[1] = v.hi[1]
    elif v.kind == CIRCLE or v.kind == OBB_KIND:
        lo[0] = hi[0] = v.f[0]
        lo[1] = hi[1] = v.f[1]
    else:
        lo[0] = min(v.f[0], v.f[2])
        hi[0] = max(v.f[0], v.f[2])
        lo[1] = min(v.f[1], v.f[3])
        hi[1] = max(v.f[1], v.f[3])


cdef inline void view_of(Shape s, View* v) noexcept:
    # v (OUT): the numbers of a shape object.  Callers have checked isinstance(s,
    # Shape) and pass <Shape>x: an unchecked cast (passing an object would make
    # Cython walk the type's MRO a second time, on every scalar query)
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
        v.lo[0] = (<Polygon>s).x0
        v.lo[1] = (<Polygon>s).y0
        v.hi[0] = (<Polygon>s).x1
        v.hi[1] = (<Polygon>s).y1


cdef inline bint _greater(const View* a, const View* b) noexcept nogil:
    # a > b comparing fields in order, as the reference compares a._values() tuples
    cdef int i
    if a.kind == POLYGON:
        for i in range(min(a.n, b.n)):
            if a.xs[i] != b.xs[i]:
                return a.xs[i] > b.xs[i]
            if a.ys[i] != b.ys[i]:
                return a.ys[i] > b.ys[i]
        return a.n > b.n
    # the number of fields of each kind but a polygon's
    cdef int nfields = (3 if a.kind == CIRCLE
                        else 5 if a.kind == CAPSULE or a.kind == OBB_KIND else 4)
    for i in range(nfields):
        if a.f[i] != b.f[i]:
            return a.f[i] > b.f[i]
    return False


cdef inline bint views_swapped(const View* a, const View* b) noexcept nogil:
    return a.kind > b.kind or (a.kind == b.kind and _greater(a, b))


cdef inline void view_origin(const View* v, double* ox, double* oy) noexcept nogil:
    # ox, oy (OUT): the reference point of a shape, origin of the local coordinates
    # (the first two fields, or a polygon's first vertex)
    if v.kind == POLYGON:
        ox[0] = v.xs[0]
        oy[0] = v.ys[0]
    else:
        ox[0] = v.f[0]
        oy[0] = v.f[1]


cdef inline void view_frame(const View* a, const View* b, double* ox, double* oy) noexcept nogil:
    # ox, oy (OUT): the origin of a canonical pair's local coordinates: a's reference
    # point on each axis where subtracting it from every coordinate of the pair is
    # exact, else 0.0 (see fastcol._ref.queries._frame); two circles keep the point
    cdef double alo[2]
    cdef double ahi[2]
    cdef double blo[2]
    cdef double bhi[2]
    view_origin(a, ox, oy)
    if a.kind == CIRCLE and b.kind == CIRCLE:
        return
    view_extent(a, alo, ahi)
    view_extent(b, blo, bhi)
    ox[0] = exact_origin(ox[0], min(alo[0], blo[0]), max(ahi[0], bhi[0]))
    oy[0] = exact_origin(oy[0], min(alo[1], blo[1]), max(ahi[1], bhi[1]))


cdef inline void view_core(const View* v, double ox, double oy, Round* out) noexcept nogil:
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


cdef inline void view_convex(const View* v, double ox, double oy, Convex* out) noexcept nogil:
    # out (OUT): an AABB, OBB or Polygon in local coordinates
    if v.kind == AABB_KIND:
        convex_aabb(out, v.f[0] - ox, v.f[1] - oy, v.f[2] - ox, v.f[3] - oy)
    elif v.kind == OBB_KIND:
        convex_obb(out, v.f[0] - ox, v.f[1] - oy, v.cos, v.sin, v.f[2], v.f[3])
    else:
        convex_polygon(out, v.xs, v.ys, v.n, ox, oy, v.lo, v.hi)
