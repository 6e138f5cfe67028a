# Geometry kernels, mirrored operation for operation from _ref/geometry.py.
#
# They are defined inline here rather than in geometry.pyx so that every module that
# cimports them (narrowphase, queries) compiles its own copy: the hot loops then make no
# indirect calls.  All coordinates are local (an origin near the shapes was subtracted).

from libc.math cimport INFINITY


cdef struct SegClosest:
    double d2     # squared distance
    double s      # parameter on ab
    double t      # parameter on cd
    double px     # closest point on ab
    double py
    double qx     # closest point on cd
    double qy


cdef inline double segment_param(double apx, double apy, double abx, double aby) noexcept nogil:
    cdef double den = abx * abx + aby * aby
    cdef double dot, t
    if den == 0.0:
        # zero-length segment: every t gives the same point, take its start
        return 0.0
    dot = apx * abx + apy * aby
    if den < INFINITY:
        # the ends, decided before the division (the same answers as the tests on t
        # below, without waiting for the quotient: most points lie beyond an end)
        if dot <= 0.0:
            return 0.0
        if dot >= den:
            return 1.0
    t = dot / den
    if t <= 0.0:
        return 0.0
    if t >= 1.0:
        return 1.0
    return t


cdef inline bint endpoint(double t, double ax, double ay, double bx, double by,
                         double* px, double* py) noexcept nogil:
    # the rule of every point found by a parameter along a segment ab: t exactly 0 or 1
    # gives the endpoint a or b itself, to the bit (p, OUT; returns True); any other t
    # leaves p to the caller (returns False)
    if t == 0.0:
        px[0] = ax
        py[0] = ay
        return True
    if t == 1.0:
        px[0] = bx
        py[0] = by
        return True
    return False


cdef inline void point_at(double t, double ax, double ay, double bx, double by,
                          double abx, double aby, double* px, double* py) noexcept nogil:
    # p (OUT): the point a + t (b - a) of segment ab (abx, aby = b - a), or its endpoint
    if not endpoint(t, ax, ay, bx, by, px, py):
        px[0] = ax + t * abx
        py[0] = ay + t * aby


cdef inline double closest_on_segment(double px, double py, double ax, double ay,
                                      double bx, double by,
                                      double* qx, double* qy) noexcept nogil:
    # returns t; q (OUT) is the point of ab nearest to p
    cdef double abx = bx - ax
    cdef double aby = by - ay
    cdef double t = segment_param(px - ax, py - ay, abx, aby)
    point_at(t, ax, ay, bx, by, abx, aby, qx, qy)
    return t


cdef inline double closest_on_line(double px, double py, double ax, double ay, double bx,
                                   double by, double* qx, double* qy) noexcept nogil:
    # returns t (unclamped); q (OUT) is the point of the line ab nearest to p
    cdef double abx = bx - ax
    cdef double aby = by - ay
    cdef double den = abx * abx + aby * aby
    cdef double t
    if den == 0.0:
        # a == b: the "line" is a point
        qx[0] = ax
        qy[0] = ay
        return 0.0
    t = ((px - ax) * abx + (py - ay) * aby) / den
    point_at(t, ax, ay, bx, by, abx, aby, qx, qy)
    return t


cdef inline void lift(double t, double ox, double oy, double ax, double ay, double bx,
                      double by, double lx, double ly, double* out) noexcept nogil:
    # out (OUT): the absolute point of a local one (l + o), or the endpoint of ab that
    # the parameter t names
    if not endpoint(t, ax, ay, bx, by, &out[0], &out[1]):
        out[0] = lx + ox
        out[1] = ly + oy


cdef inline double dist2(double ax, double ay, double bx, double by) noexcept nogil:
    cdef double dx = bx - ax
    cdef double dy = by - ay
    return dx * dx + dy * dy


cdef inline bint _same_point(double s, double ax, double ay, double bx, double by,
                             double px, double py) noexcept nogil:
    # whether p coincides with the end of ab that the clamped parameter s names
    if s == 0.0:
        return ax == px and ay == py
    return bx == px and by == py


cdef inline SegClosest _meet(double s, double t, double x, double y) noexcept nogil:
    cdef SegClosest r
    r.d2 = 0.0
    r.s = s
    r.t = t
    r.px = x
    r.py = y
    r.qx = x
    r.qy = y
    return r


cdef inline SegClosest segment_segment(double ax, double ay, double bx, double by,
                                       double cx, double cy, double dx, double dy) noexcept nogil:
    cdef SegClosest r
    cdef double d1x = bx - ax
    cdef double d1y = by - ay
    cdef double d2x = dx - cx
    cdef double d2y = dy - cy
    cdef double o1, o2, o3, o4, s_c, s_d, t_a, s, t, d, px, py, qx, qy
    if d1x * d1x + d1y * d1y == 0.0:
        # ab is a point: nearest point of cd to a
        r.t = closest_on_segment(ax, ay, cx, cy, dx, dy, &r.qx, &r.qy)
        r.d2 = dist2(ax, ay, r.qx, r.qy)
        r.s = 0.0
        r.px = ax
        r.py = ay
        return r
    if d2x * d2x + d2y * d2y == 0.0:
        # cd is a point: nearest point of ab to c
        r.s = closest_on_segment(cx, cy, ax, ay, bx, by, &r.px, &r.py)
        r.d2 = dist2(r.px, r.py, cx, cy)
        r.t = 0.0
        r.qx = cx
        r.qy = cy
        return r
    # which side of each segment's line the other segment's ends lie on
    o1 = d1x * (cy - ay) - d1y * (cx - ax)
    o2 = d1x * (dy - ay) - d1y * (dx - ax)
    o3 = d2x * (ay - cy) - d2y * (ax - cx)
    o4 = d2x * (by - cy) - d2y * (bx - cx)
    if (o1 == 0.0 and o2 == 0.0) or (o3 == 0.0 and o4 == 0.0):
        # collinear: they meet where their extents along ab overlap
        s_c = segment_param(cx - ax, cy - ay, d1x, d1y)
        if (s_c != 0.0 and s_c != 1.0) or _same_point(s_c, ax, ay, bx, by, cx, cy):
            return _meet(s_c, 0.0, cx, cy)
        s_d = segment_param(dx - ax, dy - ay, d1x, d1y)
        if (s_d != 0.0 and s_d != 1.0) or _same_point(s_d, ax, ay, bx, by, dx, dy):
            return _meet(s_d, 1.0, dx, dy)
        t_a = segment_param(ax - cx, ay - cy, d2x, d2y)
        if t_a != 0.0 and t_a != 1.0:
            # ab lies inside cd
            return _meet(0.0, t_a, ax, ay)
    elif (((o1 <= 0.0 and 0.0 <= o2) or (o2 <= 0.0 and 0.0 <= o1))
          and ((o3 <= 0.0 and 0.0 <= o4) or (o4 <= 0.0 and 0.0 <= o3))):
        # the segments cross or touch; each ratio lies in [0, 1] because the two
        # orientations it divides have opposite signs (and are not both zero)
        t = o1 / (o1 - o2)
        s = o3 / (o3 - o4)
        if s == 0.0:
            return _meet(s, t, ax, ay)
        if s == 1.0:
            return _meet(s, t, bx, by)
        return _meet(s, t, ax + s * d1x, ay + s * d1y)
    # disjoint: the nearest pair has an endpoint of one segment
    t = closest_on_segment(ax, ay, cx, cy, dx, dy, &qx, &qy)
    r.d2 = dist2(ax, ay, qx, qy)
    r.s = 0.0
    r.t = t
    r.px = ax
    r.py = ay
    r.qx = qx
    r.qy = qy
    t = closest_on_segment(bx, by, cx, cy, dx, dy, &qx, &qy)
    d = dist2(bx, by, qx, qy)
    if d < r.d2:
        r.d2 = d
        r.s = 1.0
        r.t = t
        r.px = bx
        r.py = by
        r.qx = qx
        r.qy = qy
    s = closest_on_segment(cx, cy, ax, ay, bx, by, &px, &py)
    d = dist2(px, py, cx, cy)
    if d < r.d2:
        r.d2 = d
        r.s = s
        r.t = 0.0
        r.px = px
        r.py = py
        r.qx = cx
        r.qy = cy
    s = closest_on_segment(dx, dy, ax, ay, bx, by, &px, &py)
    d = dist2(px, py, dx, dy)
    if d < r.d2:
        r.d2 = d
        r.s = s
        r.t = 1.0
        r.px = px
        r.py = py
        r.qx = dx
        r.qy = dy
    return r
