# Pair kernels on C doubles (compiled twin of fastcol._ref.narrowphase).

from .shapes cimport AABB_KIND

cdef struct Round:
    # a round shape's core segment ab (a == b for a circle) and radius, local coordinates
    double ax, ay, bx, by, r


cdef struct Convex:
    # an AABB, OBB or Polygon in local coordinates: vertex k is
    # (xs[k] - ox, ys[k] - oy), counter-clockwise; boxes keep their corners in box_x/y
    int kind
    int n
    const double* xs
    const double* ys
    double ox, oy
    double cx, cy, cos, sin, hw, hh     # OBB only
    double box_x[4]
    double box_y[4]


cdef void convex_aabb(Convex* cv, double x0, double y0, double x1, double y1) noexcept nogil
cdef void convex_obb(Convex* cv, double cx, double cy, double c, double s,
                     double hw, double hh) noexcept nogil
cdef void convex_polygon(Convex* cv, const double* xs, const double* ys, int n,
                         double ox, double oy) noexcept nogil

cdef bint point_in_convex(const Convex* cv, double px, double py) noexcept nogil
cdef bint convex_overlap(const Convex* a, const Convex* b) noexcept nogil
cdef double convex_convex_closest(const Convex* a, const Convex* b, double* out) noexcept nogil
cdef double aabb_aabb_closest(double ax0, double ay0, double ax1, double ay1,
                              double bx0, double by0, double bx1, double by1,
                              double* out) noexcept nogil

cdef double round_result(double d2, double ra, double rb, double pax, double pay,
                         double pbx, double pby, double* out) noexcept nogil
cdef bint round_round_collide(const Round* a, const Round* b) noexcept nogil
cdef double round_round_closest(const Round* a, const Round* b, double* out) noexcept nogil
cdef bint round_convex_collide(const Round* a, const Convex* cv) noexcept nogil
cdef double round_convex_closest(const Round* a, const Convex* cv, double* out) noexcept nogil


cdef inline void box_gaps(const Convex* cv, double x, double y, double* g) noexcept nogil:
    # g[0:4] (IN/OUT): the least gaps so far of points beyond the right, left, top and
    # bottom sides of the box cv, in its own frame, updated with the point (x, y).  The
    # separating axis test and contact's box faces both measure with this, so their
    # verdicts agree to the bit
    cdef double u, v, dx, dy
    if cv.kind == AABB_KIND:
        g[0] = min(g[0], x - cv.box_x[1])
        g[1] = min(g[1], cv.box_x[0] - x)
        g[2] = min(g[2], y - cv.box_y[2])
        g[3] = min(g[3], cv.box_y[0] - y)
    else:
        dx = x - cv.cx
        dy = y - cv.cy
        u = dx * cv.cos + dy * cv.sin
        v = dy * cv.cos - dx * cv.sin
        g[0] = min(g[0], u - cv.hw)
        g[1] = min(g[1], -cv.hw - u)
        g[2] = min(g[2], v - cv.hh)
        g[3] = min(g[3], -cv.hh - v)


cdef inline double edge_reach(double x0, double y0, double ex, double ey, const double* xs,
                              const double* ys, double ox, double oy, int m) noexcept nogil:
    # the largest cross product ex * (y - y0) - ey * (x - x0) over the m points
    # (xs[k] - ox, ys[k] - oy): negative exactly when every point lies strictly outside
    # the edge from (x0, y0) along (ex, ey).  The separating axis test and contact's
    # polygon faces both measure with this, so their verdicts agree to the bit
    cdef int k
    cdef double c
    cdef double top = ex * ((ys[0] - oy) - y0) - ey * ((xs[0] - ox) - x0)
    for k in range(1, m):
        c = ex * ((ys[k] - oy) - y0) - ey * ((xs[k] - ox) - x0)
        if c > top:
            top = c
    return top
