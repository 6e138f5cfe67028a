"""Geometry primitives (compiled twin of fastcol._ref.geometry).

The kernels are inline functions in geometry.pxd; this module holds the public
functions, which validate their points, put the origin on the first point, call a
kernel and move the results back.  Scalar calls keep the GIL: releasing it would cost
more than the work.
"""

from libc.math cimport sqrt

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
    cdef double px, py, ax, ay, bx, by, lpx, lpy, qx, qy
    point(p, "p", &px, &py)
    point(a, "a", &ax, &ay)
    point(b, "b", &bx, &by)
    lpx = px - ax
    lpy = py - ay
    closest_on_segment(lpx, lpy, 0.0, 0.0, bx - ax, by - ay, &qx, &qy)
    return sqrt(dist2(lpx, lpy, qx, qy))


cdef SegClosest _segments(a, b, c, d, double* ax, double* ay, double* bx, double* by,
                          double* cx, double* cy, double* dx, double* dy) except *:
    # parses the four points (OUT: absolute coordinates) and runs the kernel with the
    # origin on a
    point(a, "a", ax, ay)
    point(b, "b", bx, by)
    point(c, "c", cx, cy)
    point(d, "d", dx, dy)
    return segment_segment(0.0, 0.0, bx[0] - ax[0], by[0] - ay[0], cx[0] - ax[0],
                           cy[0] - ay[0], dx[0] - ax[0], dy[0] - ay[0])


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
    cdef double ax, ay, bx, by, cx, cy, dx, dy
    cdef SegClosest r = _segments(a, b, c, d, &ax, &ay, &bx, &by, &cx, &cy, &dx, &dy)
    cdef tuple pa = _lift(r.s, ax, ay, ax, ay, bx, by, r.px, r.py)
    if r.d2 == 0.0:
        # one point where they meet, the same on both
        return 0.0, r.s, r.t, pa, pa
    return sqrt(r.d2), r.s, r.t, pa, _lift(r.t, ax, ay, cx, cy, dx, dy, r.qx, r.qy)


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
    cdef double ax, ay, bx, by, cx, cy, dx, dy
    return sqrt(_segments(a, b, c, d, &ax, &ay, &bx, &by, &cx, &cy, &dx, &dy).d2)


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
    cdef double ax, ay, bx, by, cx, cy, dx, dy
    return _segments(a, b, c, d, &ax, &ay, &bx, &by, &cx, &cy, &dx, &dy).d2 == 0.0
