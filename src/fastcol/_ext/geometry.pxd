# Geometry kernels, mirrored operation for operation from _ref/geometry.py.
#
# They are defined inline here rather than in geometry.pyx so that every module that
# cimports them (narrowphase, queries) compiles its own copy: the hot loops then make no
# indirect calls.  All coordinates are local (an origin near the shapes was subtracted).

from cython cimport floating
from libc.math cimport INFINITY, fabs
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from .predicates cimport exact_origin, orient_within, own_bound


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


cdef inline int _orient(double left, double right, double bound, double ax, double ay,
                        double bx, double by, double cx, double cy) noexcept nogil:
    # orient2d's exact sign from its two rounded products: against the caller's pair
    # bound (a loop over many edges gathers one), or with bound < 0 each by its own
    # filter (a pair of segments: four signs cost less than the bound)
    if bound < 0.0:
        bound = own_bound(left, right)
    return orient_within(left - right, bound, ax, ay, bx, by, cx, cy)


cdef inline bint on_segment(double px, double py, double ax, double ay, double bx,
                            double by, double bound) noexcept nogil:
    # whether p lies on segment ab: on its line by the exact sign, within its extent on
    # an axis along which the line is not constant (a point segment: p == a); bound:
    # as _orient takes it
    if ax != bx:
        return (((ax <= px <= bx) or (bx <= px <= ax))
                and _orient((bx - ax) * (py - ay), (by - ay) * (px - ax), bound, ax, ay,
                            bx, by, px, py) == 0)
    if ay != by:
        return (((ay <= py <= by) or (by <= py <= ay))
                and _orient((bx - ax) * (py - ay), (by - ay) * (px - ax), bound, ax, ay,
                            bx, by, px, py) == 0)
    return px == ax and py == ay


cdef inline double point_segment(double px, double py, double ax, double ay, double bx,
                                 double by, double bound, double* qx, double* qy,
                                 double* d2) noexcept nogil:
    # returns t; q (OUT) is the point of ab nearest to p and d2 (OUT) the squared
    # distance: 0.0 exactly when p lies on ab (q == p then), else at least TINY
    cdef double t = closest_on_segment(px, py, ax, ay, bx, by, qx, qy)
    if on_segment(px, py, ax, ay, bx, by, bound):
        qx[0] = px
        qy[0] = py
        d2[0] = 0.0
        return t
    d2[0] = dist2(px, py, qx[0], qy[0])
    if d2[0] == 0.0:
        # apart by the exact signs, nearer than the squares can tell: the smallest
        # positive float (the reference's TINY)
        d2[0] = 4.9406564584124654e-324
    return t


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


cdef SegClosest segments_exact(double ax, double ay, double bx, double by, double cx,
                               double cy, double dx, double dy, double bound) noexcept nogil


cdef inline bint _clear(double left, double right, double bound) noexcept nogil:
    # whether left - right as rounded has its exact sign: beyond the caller's pair
    # bound, or with bound < 0 beyond its own filter's (see _orient)
    cdef double c = left - right
    if bound < 0.0:
        bound = own_bound(left, right)
    return c > bound or c < -bound


cdef inline SegClosest nearest_ends(double ax, double ay, double bx, double by, double cx,
                                    double cy, double dx, double dy) noexcept nogil:
    # the closest points of segments ab and cd that do not meet (the exact signs said
    # so): the nearest pair has an endpoint of one segment
    cdef SegClosest r
    cdef double s, t, d, px, py, qx, qy
    r.t = closest_on_segment(ax, ay, cx, cy, dx, dy, &r.qx, &r.qy)
    r.d2 = dist2(ax, ay, r.qx, r.qy)
    r.s = 0.0
    r.px = ax
    r.py = ay
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
    if r.d2 == 0.0:
        # apart by the exact signs, nearer than the squares can tell: the smallest
        # positive float
        r.d2 = 4.9406564584124654e-324
    return r


cdef inline int _straddle(double ax, double ay, double bx, double by, double cx,
                          double cy, double dx, double dy, double bound,
                          double* o) noexcept nogil:
    # whether non-degenerate segments ab and cd cross (1) or lie apart (0) by the
    # rounded orientations, each clear of its bound; 2 when one is not (the exact
    # predicate must decide).  o (OUT): o1, o2 (c and d against ab) and, on a
    # crossing, o3, o4 (a and b against cd)
    cdef double left, right
    cdef bint clear
    left = (bx - ax) * (cy - ay)
    right = (by - ay) * (cx - ax)
    o[0] = left - right
    clear = _clear(left, right, bound)
    left = (bx - ax) * (dy - ay)
    right = (by - ay) * (dx - ax)
    o[1] = left - right
    if not (clear and _clear(left, right, bound)):
        return 2
    if (o[0] > 0.0) == (o[1] > 0.0):
        return 0
    # c and d on both sides of ab: the same test of a and b on cd
    left = (dx - cx) * (ay - cy)
    right = (dy - cy) * (ax - cx)
    o[2] = left - right
    clear = _clear(left, right, bound)
    left = (dx - cx) * (by - cy)
    right = (dy - cy) * (bx - cx)
    o[3] = left - right
    if not (clear and _clear(left, right, bound)):
        return 2
    return 1 if (o[2] > 0.0) != (o[3] > 0.0) else 0


cdef inline SegClosest segment_segment(double ax, double ay, double bx, double by,
                                       double cx, double cy, double dx, double dy,
                                       double bound) noexcept nogil:
    # closest points of segments ab and cd, whether they meet decided by exact signs
    # (see the reference); bound: as _orient takes it (a pair_bound of magnitudes no
    # less than the points' coordinates, or -1.0).  Where every rounded orientation
    # is clear of its bound, its sign is the exact one and this decides alone;
    # otherwise segments_exact decides with the exact predicate
    cdef SegClosest r
    cdef double s, t
    cdef double o[4]
    cdef int k
    if ax == bx and ay == by:
        # ab is a point: nearest point of cd to a
        r.t = point_segment(ax, ay, cx, cy, dx, dy, bound, &r.qx, &r.qy, &r.d2)
        r.s = 0.0
        r.px = ax
        r.py = ay
        return r
    if cx == dx and cy == dy:
        # cd is a point: nearest point of ab to c
        r.s = point_segment(cx, cy, ax, ay, bx, by, bound, &r.px, &r.py, &r.d2)
        r.t = 0.0
        r.qx = cx
        r.qy = cy
        return r
    k = _straddle(ax, ay, bx, by, cx, cy, dx, dy, bound, o)
    if k == 2:
        return segments_exact(ax, ay, bx, by, cx, cy, dx, dy, bound)
    if k == 1:
        # a proper crossing, placed by the orientations' ratios
        t = o[0] / (o[0] - o[1])
        s = o[2] / (o[2] - o[3])
        if s == 0.0:
            return _meet(s, t, ax, ay)
        if s == 1.0:
            return _meet(s, t, bx, by)
        return _meet(s, t, ax + s * (bx - ax), ay + s * (by - ay))
    # apart (one segment's ends strictly on one side of the other's line)
    return nearest_ends(ax, ay, bx, by, cx, cy, dx, dy)


cdef inline double pick(bint c, double x, double y) noexcept nogil:
    # c ? x : y by bit masks rather than a branch: where c is a coin toss from row to
    # row (random data) a mispredicted branch costs more than these integer steps
    cdef uint64_t bx, by
    cdef uint64_t m = 0 - <uint64_t>c
    memcpy(&bx, &x, sizeof(double))
    memcpy(&by, &y, sizeof(double))
    bx = (bx & m) | (by & ~m)
    memcpy(&x, &bx, sizeof(double))
    return x


cdef inline double _end_d2(double px, double py, double ax, double ay, double bx,
                           double by, double abx, double aby, double t) noexcept nogil:
    # dist2 of p and closest_on_segment's point of ab for p, given t, the unclamped
    # parameter dot / den: a + t ab with t clamped at 0 (a + 0 ab is a), or b itself
    # from t = 1 on
    if t < 1.0:
        t = t if t > 0.0 else 0.0
        return dist2(px, py, ax + t * abx, ay + t * aby)
    return dist2(px, py, bx, by)


cdef inline double _end_picked_d2(double px, double py, double ax, double ay, double bx,
                                  double by, double abx, double aby,
                                  double t) noexcept nogil:
    # _end_d2, the same number, picked rather than branched on (over random rows its
    # branches are coin tosses)
    t = pick(t > 0.0, t, 0.0)
    return pick(t < 1.0, dist2(px, py, ax + t * abx, ay + t * aby), dist2(px, py, bx, by))


cdef struct Ends:
    # two segments ab, cd: their directions, and the four ends' parameters on the
    # other segment (unclamped); ok: both lengths positive and finite, no NaN
    double abx, aby, cdx, cdy, ta, tb, sc, sd
    bint ok


cdef inline Ends _ends(double ax, double ay, double bx, double by, double cx, double cy,
                       double dx, double dy) noexcept nogil:
    cdef Ends e
    e.abx = bx - ax
    e.aby = by - ay
    e.cdx = dx - cx
    e.cdy = dy - cy
    cdef double dab = e.abx * e.abx + e.aby * e.aby
    cdef double dcd = e.cdx * e.cdx + e.cdy * e.cdy
    e.ta = ((ax - cx) * e.cdx + (ay - cy) * e.cdy) / dcd
    e.tb = ((bx - cx) * e.cdx + (by - cy) * e.cdy) / dcd
    e.sc = ((cx - ax) * e.abx + (cy - ay) * e.aby) / dab
    e.sd = ((dx - ax) * e.abx + (dy - ay) * e.aby) / dab
    e.ok = ((dab > 0.0) & (dab < INFINITY) & (dcd > 0.0) & (dcd < INFINITY)
            & (e.ta == e.ta) & (e.tb == e.tb) & (e.sc == e.sc) & (e.sd == e.sd))
    return e


cdef inline double _least(double d0, double d1, double d2, double d3) noexcept nogil:
    # the least of four squared distances, by selections; apart by the exact signs,
    # nearer than the squares can tell: the smallest float
    d0 = d1 if d1 < d0 else d0
    d0 = d2 if d2 < d0 else d0
    d0 = d3 if d3 < d0 else d0
    return d0 if d0 != 0.0 else 4.9406564584124654e-324


cdef inline double nearest_ends_d2(double ax, double ay, double bx, double by, double cx,
                                   double cy, double dx, double dy) noexcept nogil:
    # nearest_ends(...).d2, the same number, with the four ends' parameters divided
    # out at once.  Where a segment's squared length is 0 or not finite, or a
    # parameter is NaN (products that overflow), nearest_ends's own steps decide
    cdef Ends e = _ends(ax, ay, bx, by, cx, cy, dx, dy)
    if not e.ok:
        return nearest_ends(ax, ay, bx, by, cx, cy, dx, dy).d2
    return _least(_end_d2(ax, ay, cx, cy, dx, dy, e.cdx, e.cdy, e.ta),
                  _end_d2(bx, by, cx, cy, dx, dy, e.cdx, e.cdy, e.tb),
                  _end_d2(cx, cy, ax, ay, bx, by, e.abx, e.aby, e.sc),
                  _end_d2(dx, dy, ax, ay, bx, by, e.abx, e.aby, e.sd))


cdef inline double nearest_ends_picked_d2(double ax, double ay, double bx, double by,
                                          double cx, double cy, double dx,
                                          double dy) noexcept nogil:
    # nearest_ends_d2, the same number, for row loops: its branches picked
    cdef Ends e = _ends(ax, ay, bx, by, cx, cy, dx, dy)
    if not e.ok:
        return nearest_ends(ax, ay, bx, by, cx, cy, dx, dy).d2
    return _least(_end_picked_d2(ax, ay, cx, cy, dx, dy, e.cdx, e.cdy, e.ta),
                  _end_picked_d2(bx, by, cx, cy, dx, dy, e.cdx, e.cdy, e.tb),
                  _end_picked_d2(cx, cy, ax, ay, bx, by, e.abx, e.aby, e.sc),
                  _end_picked_d2(dx, dy, ax, ay, bx, by, e.abx, e.aby, e.sd))


cdef inline double segment_segment_d2(double ax, double ay, double bx, double by,
                                      double cx, double cy, double dx, double dy,
                                      double bound) noexcept nogil:
    # segment_segment(...).d2 without the closest points (collide and distance of
    # round shapes need no more)
    cdef double qx, qy, d2
    cdef double o[4]
    cdef int k
    if ax == bx and ay == by:
        point_segment(ax, ay, cx, cy, dx, dy, bound, &qx, &qy, &d2)
        return d2
    if cx == dx and cy == dy:
        point_segment(cx, cy, ax, ay, bx, by, bound, &qx, &qy, &d2)
        return d2
    k = _straddle(ax, ay, bx, by, cx, cy, dx, dy, bound, o)
    if k == 2:
        return segments_exact(ax, ay, bx, by, cx, cy, dx, dy, bound).d2
    if k == 1:
        return 0.0
    return nearest_ends_d2(ax, ay, bx, by, cx, cy, dx, dy)


cdef inline double segments_local_d2(const double* v) noexcept nogil:
    # segments_local(v, o).d2, the frame's origin not kept
    cdef double ox = exact_origin(v[0], min(min(v[0], v[2]), min(v[4], v[6])),
                                  max(max(v[0], v[2]), max(v[4], v[6])))
    cdef double oy = exact_origin(v[1], min(min(v[1], v[3]), min(v[5], v[7])),
                                  max(max(v[1], v[3]), max(v[5], v[7])))
    return segment_segment_d2(v[0] - ox, v[1] - oy, v[2] - ox, v[3] - oy, v[4] - ox,
                              v[5] - oy, v[6] - ox, v[7] - oy, -1.0)


cdef inline double _origin_sel(double o, double lo, double hi) noexcept nogil:
    # exact_origin(o, lo, hi), the same number, its tests combined into one selection
    # (over arrays of rows its branches are coin tosses)
    cdef bint keep = (((o > 0.0) & (lo + lo >= o) & (hi <= o + o))
                      | ((o < 0.0) & (hi + hi <= o) & (lo >= o + o)))
    return o if keep else 0.0


cdef inline bint _clear_sel(double left, double right) noexcept nogil:
    # _clear(left, right, -1.0), without its short circuit
    return fabs(left - right) > own_bound(left, right)


cdef inline double segments_rows_d2(double ax, double ay, double bx, double by, double cx,
                                    double cy, double dx, double dy) noexcept nogil:
    # segments_local_d2 of the points ab, cd, the same number, for row loops: the
    # frame, the four orientations and the nearest ends are all worked out and the
    # answer selected, where segment_segment_d2 branches on each (for random rows
    # coin tosses).  Degenerate segments and signs within their filters take
    # segment_segment_d2 itself
    cdef double ox = _origin_sel(ax, min(min(ax, bx), min(cx, dx)),
                                 max(max(ax, bx), max(cx, dx)))
    cdef double oy = _origin_sel(ay, min(min(ay, by), min(cy, dy)),
                                 max(max(ay, by), max(cy, dy)))
    ax = ax - ox
    ay = ay - oy
    bx = bx - ox
    by = by - oy
    cx = cx - ox
    cy = cy - oy
    dx = dx - ox
    dy = dy - oy
    cdef double abx = bx - ax
    cdef double aby = by - ay
    cdef double cdx = dx - cx
    cdef double cdy = dy - cy
    # _straddle's four products, in its order
    cdef double l0 = abx * (cy - ay)
    cdef double r0 = aby * (cx - ax)
    cdef double l1 = abx * (dy - ay)
    cdef double r1 = aby * (dx - ax)
    cdef double l2 = cdx * (ay - cy)
    cdef double r2 = cdy * (ax - cx)
    cdef double l3 = cdx * (by - cy)
    cdef double r3 = cdy * (bx - cx)
    cdef bint point = ((ax == bx) & (ay == by)) | ((cx == dx) & (cy == dy))
    cdef bint clear = (_clear_sel(l0, r0) & _clear_sel(l1, r1) & _clear_sel(l2, r2)
                       & _clear_sel(l3, r3))
    cdef bint cross
    if point or not clear:
        return segment_segment_d2(ax, ay, bx, by, cx, cy, dx, dy, -1.0)
    cross = ((l0 - r0 > 0.0) != (l1 - r1 > 0.0)) & ((l2 - r2 > 0.0) != (l3 - r3 > 0.0))
    if cross:
        return 0.0
    return nearest_ends_picked_d2(ax, ay, bx, by, cx, cy, dx, dy)


cdef inline SegClosest segments_local(const double* v, double* o) noexcept nogil:
    # segment_segment of the absolute points v = (ax, ay, bx, by, cx, cy, dx, dy), with
    # the origin o (OUT) on a where that is exact (the public primitives' frame)
    o[0] = exact_origin(v[0], min(min(v[0], v[2]), min(v[4], v[6])),
                        max(max(v[0], v[2]), max(v[4], v[6])))
    o[1] = exact_origin(v[1], min(min(v[1], v[3]), min(v[5], v[7])),
                        max(max(v[1], v[3]), max(v[5], v[7])))
    cdef double ax = v[0] - o[0]
    cdef double ay = v[1] - o[1]
    cdef double bx = v[2] - o[0]
    cdef double by = v[3] - o[1]
    cdef double cx = v[4] - o[0]
    cdef double cy = v[5] - o[1]
    cdef double dx = v[6] - o[0]
    cdef double dy = v[7] - o[1]
    return segment_segment(ax, ay, bx, by, cx, cy, dx, dy, -1.0)



# ------------------------------------------------------------ moving and measuring

cdef inline void rotate_point(double px, double py, double qx, double qy, double c,
                              double s, double* x, double* y) noexcept nogil:
    # x, y (OUT): p turned about the pivot q by the angle of cosine c and sine s; the
    # one rotation of fastcol, the reference's rotate_point to the operation
    cdef double dx = px - qx
    cdef double dy = py - qy
    x[0] = qx + (dx * c - dy * s)
    y[0] = qy + (dx * s + dy * c)


cdef inline void polygon_centroid(const floating* xs, const floating* ys, Py_ssize_t step,
                                  Py_ssize_t n, double* cx, double* cy) noexcept nogil:
    # c (OUT): the area centroid of the ring of n vertices (xs[k * step], ys[k * step]):
    # a fan of triangles from the first vertex, relative to it (the reference's
    # polygon_centroid); a rounded area of 0.0 gives the vertices' mean
    cdef double x0 = xs[0]
    cdef double y0 = ys[0]
    cdef double a2 = 0.0, sx = 0.0, sy = 0.0
    cdef double ax = xs[step] - x0
    cdef double ay = ys[step] - y0
    cdef double bx, by, cross
    cdef Py_ssize_t k
    for k in range(2, n):
        bx = xs[k * step] - x0
        by = ys[k * step] - y0
        cross = ax * by - ay * bx
        a2 += cross
        sx += cross * (ax + bx)
        sy += cross * (ay + by)
        ax = bx
        ay = by
    if a2 == 0.0:
        # no area to weigh by: the vertices' mean
        for k in range(1, n):
            sx += xs[k * step] - x0
            sy += ys[k * step] - y0
        cx[0] = x0 + sx / <double>n
        cy[0] = y0 + sy / <double>n
        return
    cx[0] = x0 + sx / (3.0 * a2)
    cy[0] = y0 + sy / (3.0 * a2)

# the primitives of one call (geometry.pyx): fastcol._api calls them, entries' C entry too
cpdef object closest_point_on_segment(object p, object a, object b)
cpdef object closest_point_on_line(object p, object a, object b)
cpdef object point_segment_distance(object p, object a, object b)
cpdef object segment_segment_closest(object a, object b, object c, object d)
cpdef object segment_segment_distance(object a, object b, object c, object d)
cpdef object segments_intersect(object a, object b, object c, object d)
cpdef object orient2d(object a, object b, object c)
