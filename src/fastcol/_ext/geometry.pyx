"""Geometry primitives (compiled twin of fastcol._ref.geometry).

The kernels are inline functions in geometry.pxd; this module holds the
primitives of one call, which validate their points, put the origin on the first
point, call a kernel and move the results back.  They keep the GIL: releasing it would
cost more than the work.
"""

from libc.math cimport sqrt

from .predicates cimport exact_origin, orient_sign
from .validate cimport point


cdef inline tuple _lift(double t, double ox, double oy, double ax, double ay,
                        double bx, double by, double lx, double ly):
    # absolute point from a local one; parameter 0 or 1 gives the endpoint itself
    cdef double p[2]
    lift(t, ox, oy, ax, ay, bx, by, lx, ly, p)
    return (p[0], p[1])


cpdef object closest_point_on_segment(object p, object a, object b):
    """``fastcol.closest_point_on_segment`` of one set of points."""
    cdef double px, py, ax, ay, bx, by, lx, ly, t
    point(p, "p", &px, &py)
    point(a, "a", &ax, &ay)
    point(b, "b", &bx, &by)
    t = closest_on_segment(px - ax, py - ay, 0.0, 0.0, bx - ax, by - ay, &lx, &ly)
    return _lift(t, ax, ay, ax, ay, bx, by, lx, ly), t


cpdef object closest_point_on_line(object p, object a, object b):
    """``fastcol.closest_point_on_line`` of one set of points."""
    cdef double px, py, ax, ay, bx, by, qx, qy, t
    point(p, "p", &px, &py)
    point(a, "a", &ax, &ay)
    point(b, "b", &bx, &by)
    t = closest_on_line(px, py, ax, ay, bx, by, &qx, &qy)
    return (qx, qy), t


cpdef object point_segment_distance(object p, object a, object b):
    """``fastcol.point_segment_distance`` of one set of points."""
    cdef double px, py, ax, ay, bx, by, ox, oy, qx, qy, d2
    point(p, "p", &px, &py)
    point(a, "a", &ax, &ay)
    point(b, "b", &bx, &by)
    # the origin on a, where that is exact (a point on the segment is at 0.0 exactly)
    ox = exact_origin(ax, min(px, ax, bx), max(px, ax, bx))
    oy = exact_origin(ay, min(py, ay, by), max(py, ay, by))
    px = px - ox
    py = py - oy
    ax = ax - ox
    ay = ay - oy
    bx = bx - ox
    by = by - oy
    point_segment(px, py, ax, ay, bx, by, -1.0, &qx, &qy, &d2)
    return sqrt(d2)


cdef int _four(a, b, c, d, double* v) except -1:
    # v (OUT): the four points parsed, as ax, ay, bx, by, cx, cy, dx, dy
    point(a, "a", &v[0], &v[1])
    point(b, "b", &v[2], &v[3])
    point(c, "c", &v[4], &v[5])
    point(d, "d", &v[6], &v[7])
    return 0


cdef SegClosest _segments(a, b, c, d, double* v, double* o) except *:
    # parses the four points (v, OUT) and runs the kernel with the origin (o, OUT) on a
    # where that is exact
    _four(a, b, c, d, v)
    return segments_local(v, o)


cpdef object segment_segment_closest(object a, object b, object c, object d):
    """``fastcol.segment_segment_closest`` of one set of points."""
    cdef double v[8]
    cdef double o[2]
    cdef SegClosest r = _segments(a, b, c, d, v, o)
    cdef tuple pa = _lift(r.s, o[0], o[1], v[0], v[1], v[2], v[3], r.px, r.py)
    if r.d2 == 0.0:
        # one point where they meet, the same on both
        return 0.0, r.s, r.t, pa, pa
    return sqrt(r.d2), r.s, r.t, pa, _lift(r.t, o[0], o[1], v[4], v[5], v[6], v[7], r.qx, r.qy)


cpdef object segment_segment_distance(object a, object b, object c, object d):
    """``fastcol.segment_segment_distance`` of one set of points."""
    cdef double v[8]
    _four(a, b, c, d, v)
    return sqrt(segments_local_d2(v))


cpdef object segments_intersect(object a, object b, object c, object d):
    """``fastcol.segments_intersect`` of one set of points."""
    cdef double v[8]
    _four(a, b, c, d, v)
    return segments_local_d2(v) == 0.0


cpdef object orient2d(object a, object b, object c):
    """``fastcol.orient2d`` of one set of points."""
    cdef double ax, ay, bx, by, cx, cy
    point(a, "a", &ax, &ay)
    point(b, "b", &bx, &by)
    point(c, "c", &cx, &cy)
    return orient_sign(ax, ay, bx, by, cx, cy)


cdef inline double crossing_ratio(double o0, double o1, int g0, int g1) noexcept nogil:
    # where along a segment the orientation goes from o0 to o1 (exact signs g0, g1, not
    # alike unless both 0), in [0, 1]: an end on the line gives 0.0 or 1.0, a value
    # that lost its sign counts as 0.0, and 0.5 when both did
    if g0 == 0:
        return 0.0
    if g1 == 0:
        return 1.0
    if not o0 * g0 > 0.0:
        o0 = 0.0
    if not o1 * g1 > 0.0:
        o1 = 0.0
    if o0 == 0.0 and o1 == 0.0:
        return 0.5
    return o0 / (o0 - o1)


cdef bint _collinear_meet(double ax, double ay, double bx, double by, double cx,
                          double cy, double dx, double dy, SegClosest* r) noexcept nogil:
    # two segments of positive length on one line: whether they meet, where their
    # extents overlap read on an axis along which the common line is not constant; r
    # (OUT) the meeting point when they do
    cdef double d1x = bx - ax
    cdef double d1y = by - ay
    cdef double a0, a1, c0, c1, pc, pd, pa
    if d1x != 0.0:
        a0 = ax
        a1 = bx
        c0 = cx
        c1 = dx
        pc = cx
        pd = dx
        pa = ax
    else:
        a0 = ay
        a1 = by
        c0 = cy
        c1 = dy
        pc = cy
        pd = dy
        pa = ay
    if a1 < a0:
        a0, a1 = a1, a0
    if c1 < c0:
        c0, c1 = c1, c0
    if a0 <= pc <= a1:
        r[0] = _meet(segment_param(cx - ax, cy - ay, d1x, d1y), 0.0, cx, cy)
        return True
    if a0 <= pd <= a1:
        r[0] = _meet(segment_param(dx - ax, dy - ay, d1x, d1y), 1.0, dx, dy)
        return True
    if c0 <= pa <= c1:
        # ab lies inside cd
        r[0] = _meet(0.0, segment_param(ax - cx, ay - cy, dx - cx, dy - cy), ax, ay)
        return True
    return False


cdef SegClosest segments_exact(double ax, double ay, double bx, double by, double cx,
                               double cy, double dx, double dy, double bound) noexcept nogil:
    # segment_segment of two segments of positive length where a rounded orientation
    # lies within its bound: every sign by the exact predicate (the reference's
    # segment_segment, step for step)
    cdef SegClosest r
    cdef double d1x = bx - ax
    cdef double d1y = by - ay
    cdef double d2x = dx - cx
    cdef double d2y = dy - cy
    cdef double left, right, o1, o2, o3, o4, s, t
    cdef int g1, g2, g3, g4
    left = d1x * (cy - ay)
    right = d1y * (cx - ax)
    o1 = left - right
    g1 = _orient(left, right, bound, ax, ay, bx, by, cx, cy)
    left = d1x * (dy - ay)
    right = d1y * (dx - ax)
    o2 = left - right
    g2 = _orient(left, right, bound, ax, ay, bx, by, dx, dy)
    if g1 == 0 and g2 == 0:
        # collinear: they meet where their extents overlap
        if _collinear_meet(ax, ay, bx, by, cx, cy, dx, dy, &r):
            return r
    elif g1 != g2:
        # c and d are not strictly on one side of ab: the same test of a and b on cd
        left = d2x * (ay - cy)
        right = d2y * (ax - cx)
        o3 = left - right
        g3 = _orient(left, right, bound, cx, cy, dx, dy, ax, ay)
        left = d2x * (by - cy)
        right = d2y * (bx - cx)
        o4 = left - right
        g4 = _orient(left, right, bound, cx, cy, dx, dy, bx, by)
        if g3 != g4:
            # they cross or touch: an end on the other segment is the meeting point
            # itself; a proper crossing is placed by the orientations' ratio
            t = crossing_ratio(o1, o2, g1, g2)
            s = crossing_ratio(o3, o4, g3, g4)
            if g1 == 0:
                return _meet(s, 0.0, cx, cy)
            if g2 == 0:
                return _meet(s, 1.0, dx, dy)
            if s == 0.0:
                return _meet(s, t, ax, ay)
            if s == 1.0:
                return _meet(s, t, bx, by)
            return _meet(s, t, ax + s * d1x, ay + s * d1y)
    # apart
    return nearest_ends(ax, ay, bx, by, cx, cy, dx, dy)
