"""Geometry primitives (compiled twin of fastcol._ref.geometry).

The kernels are inline functions in geometry.pxd; this module holds the public
functions, which validate their points, put the origin on the first point, call a
kernel and move the results back.  Scalar calls keep the GIL: releasing it would cost
more than the work.
"""

from libc.math cimport sqrt

from .predicates cimport exact_origin, orient_sign
from .validate cimport point

import numpy as np

from fastcol import _batch


cdef object _ndarray = np.ndarray


cdef inline bint _rows(object a, object b, object c, object d) noexcept:
    # whether a batch call: an argument is an array (the scalar path takes tuples)
    return (type(a) is _ndarray or type(b) is _ndarray or type(c) is _ndarray
            or type(d) is _ndarray) and _batch.has_rows(a, b, c, d)


cdef object _batch_primitive(str name, tuple values, tuple names, object workers):
    from . import batch
    return batch.primitive(name, values, names, workers)


cdef inline tuple _lift(double t, double ox, double oy, double ax, double ay,
                        double bx, double by, double lx, double ly):
    # absolute point from a local one; parameter 0 or 1 gives the endpoint itself
    cdef double p[2]
    lift(t, ox, oy, ax, ay, bx, by, lx, ly, p)
    return (p[0], p[1])


def closest_point_on_segment(p, a, b, workers=1):
    """Point of segment ab nearest to p, and its parameter t clamped to [0, 1].

    See fastcol._ref.geometry.closest_point_on_segment for the full documentation.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.closest_point_on_segment((1.0, 5.0), (0.0, 0.0), (4.0, 0.0))
    ((1.0, 0.0), 0.25)
    """
    if _rows(p, a, b, None):
        return _batch_primitive("closest_point_on_segment", (p, a, b), ("p", "a", "b"), workers)
    if workers is not 1:
        _batch.check_workers(workers)
    cdef double px, py, ax, ay, bx, by, lx, ly, t
    point(p, "p", &px, &py)
    point(a, "a", &ax, &ay)
    point(b, "b", &bx, &by)
    t = closest_on_segment(px - ax, py - ay, 0.0, 0.0, bx - ax, by - ay, &lx, &ly)
    return _lift(t, ax, ay, ax, ay, bx, by, lx, ly), t


def closest_point_on_line(p, a, b, workers=1):
    """Point of the line through a and b nearest to p, and its unclamped parameter t.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.closest_point_on_line((6.0, 3.0), (0.0, 0.0), (4.0, 0.0))
    ((6.0, 0.0), 1.5)
    """
    if _rows(p, a, b, None):
        return _batch_primitive("closest_point_on_line", (p, a, b), ("p", "a", "b"), workers)
    if workers is not 1:
        _batch.check_workers(workers)
    cdef double px, py, ax, ay, bx, by, qx, qy, t
    point(p, "p", &px, &py)
    point(a, "a", &ax, &ay)
    point(b, "b", &bx, &by)
    t = closest_on_line(px, py, ax, ay, bx, by, &qx, &qy)
    return (qx, qy), t


def point_segment_distance(p, a, b, workers=1):
    """Distance from point p to segment ab.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.point_segment_distance((3.0, 4.0), (0.0, 0.0), (0.0, 0.0))
    5.0
    """
    if _rows(p, a, b, None):
        return _batch_primitive("point_segment_distance", (p, a, b), ("p", "a", "b"), workers)
    if workers is not 1:
        _batch.check_workers(workers)
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


def segment_segment_closest(a, b, c, d, workers=1):
    """Closest points of segments ab and cd: ``(distance, s, t, point_on_ab, point_on_cd)``.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.segment_segment_closest((0, 0), (2, 0), (1, 1), (1, 3))
    (1.0, 0.5, 0.0, (1.0, 0.0), (1.0, 1.0))
    """
    if _rows(a, b, c, d):
        return _batch_primitive("segment_segment_closest", (a, b, c, d), ("a", "b", "c", "d"), workers)
    if workers is not 1:
        _batch.check_workers(workers)
    cdef double v[8]
    cdef double o[2]
    cdef SegClosest r = _segments(a, b, c, d, v, o)
    cdef tuple pa = _lift(r.s, o[0], o[1], v[0], v[1], v[2], v[3], r.px, r.py)
    if r.d2 == 0.0:
        # one point where they meet, the same on both
        return 0.0, r.s, r.t, pa, pa
    return sqrt(r.d2), r.s, r.t, pa, _lift(r.t, o[0], o[1], v[4], v[5], v[6], v[7], r.qx, r.qy)


def segment_segment_distance(a, b, c, d, workers=1):
    """Distance between segments ab and cd (0.0 when they intersect or touch).

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.segment_segment_distance((0, 0), (4, 0), (5, 3), (9, 3))
    3.1622776601683795
    """
    if _rows(a, b, c, d):
        return _batch_primitive("segment_segment_distance", (a, b, c, d), ("a", "b", "c", "d"), workers)
    if workers is not 1:
        _batch.check_workers(workers)
    cdef double v[8]
    _four(a, b, c, d, v)
    return sqrt(segments_local_d2(v))


def segments_intersect(a, b, c, d, workers=1):
    """Whether segments ab and cd intersect; touching and collinear overlap count.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.segments_intersect((0, 0), (2, 0), (2, 0), (3, 5))
    True
    """
    if _rows(a, b, c, d):
        return _batch_primitive("segments_intersect", (a, b, c, d), ("a", "b", "c", "d"), workers)
    if workers is not 1:
        _batch.check_workers(workers)
    cdef double v[8]
    _four(a, b, c, d, v)
    return segments_local_d2(v) == 0.0


def orient2d(a, b, c, workers=1):
    """Which side of the directed line a -> b the point c lies on, exactly: 1 (left,
    counter-clockwise), -1 (right) or 0 (on the line).

    See fastcol._ref.geometry.orient2d for the full documentation.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.orient2d((0, 0), (1, 0), (0, 1))
    1
    >>> fc.orient2d((0.2, 0.2), (1.0, 0.7), (1.4000000000000001, 0.95))
    -1
    """
    if _rows(a, b, c, None):
        return _batch_primitive("orient2d", (a, b, c), ("a", "b", "c"), workers)
    if workers is not 1:
        _batch.check_workers(workers)
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
