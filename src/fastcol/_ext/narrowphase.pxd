# Pair kernels on C doubles (compiled twin of fastcol._ref.narrowphase).

from libc.math cimport fabs, sqrt

from .predicates cimport orient_decide, orient_sign, orient_within, pair_bound, side_sign
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
    double reach        # no less than any |coordinate| of the local vertices


cdef inline double thin_limit(double cx, double cy, double hw, double hh) noexcept nogil:
    # the half extent below which an OBB's side is taken at zero thickness: 2**-48 of
    # its corners' magnitude (see the reference's THIN)
    return (max(fabs(cx), fabs(cy)) + hw + hh) * 3.552713678800501e-15


cdef inline int circle_obb_filter(double x, double y, double r, double cx, double cy,
                                  double c, double s, double hw, double hh,
                                  double size) noexcept nogil:
    # collide of the circle (x, y, r) and the OBB (centre, axis (c, s), half extents
    # as convex_obb keeps them) from the centre's distance d to the box in the box's
    # frame: 1 or 0 where d clears the radius by more than tol, 2 where the corners
    # must decide (round_convex_collide).  tol bounds the gap between d and the
    # distance that decides from the corners (to the quadrilateral of the corners as
    # computed): the corners' rounding (3 ulps of |centre| + hw + hh each, the axis a
    # hair off unit length), d's own rounding and the edges' point distances', each
    # a few ulps of size (no less than every |coordinate| of the pair), together
    # under 2**-46 size: 2**-40 size covers them 64 times over.  Sizes within
    # 2**-400..2**400 keep every square clear of underflow and overflow.  The same
    # differences x - cx in every exact frame: any frame's size will do
    cdef double dx = x - cx
    cdef double dy = y - cy
    cdef double gu = fabs(dx * c + dy * s) - hw
    cdef double gv = fabs(dy * c - dx * s) - hh
    cdef double tol = 9.094947017729282e-13 * size
    cdef double d
    if not (3.872591914849318e-121 <= size <= 2.5822498780869086e+120):
        return 2
    gu = gu if gu > 0.0 else 0.0
    gv = gv if gv > 0.0 else 0.0
    d = sqrt(gu * gu + gv * gv)
    # 0 beyond r + tol, 1 within r - tol, else 2: arithmetic, not branches (over
    # arrays of rows the verdict is a coin toss)
    return 2 - 2 * (d > r + tol) - (d < r - tol)


cdef void convex_aabb(Convex* cv, double x0, double y0, double x1, double y1) noexcept nogil
cdef void convex_obb(Convex* cv, double cx, double cy, double c, double s,
                     double hw, double hh) noexcept nogil
cdef void convex_polygon(Convex* cv, const double* xs, const double* ys, int n,
                         double ox, double oy, const double* lo,
                         const double* hi) noexcept nogil

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


cdef inline double point_box(double px, double py, double x0, double y0, double x1,
                             double y1, int* edge, double* qx, double* qy) noexcept nogil:
    # returns d2; q (OUT): the point of the box [x0, x1] x [y0, y1] nearest to a point p
    # outside it, p clamped into the box (exact); edge (OUT): the edge q lies on, in
    # convex_aabb's ring order (bottom 0, right 1, top 2, left 3; the lower at a corner)
    cdef double dx, dy, d2
    # clamped as a max, then a min: selections, no branches to mispredict
    qx[0] = x0 if px < x0 else px
    qx[0] = x1 if qx[0] > x1 else qx[0]
    qy[0] = y0 if py < y0 else py
    qy[0] = y1 if qy[0] > y1 else qy[0]
    dx = px - qx[0]
    dy = py - qy[0]
    d2 = dx * dx + dy * dy
    edge[0] = 0 if py < y0 else (1 if px > x1 else (2 if py > y1 else 3))
    # apart, nearer than the squares can tell: the smallest positive float (TINY)
    return d2 if d2 != 0.0 else 4.9406564584124654e-324


cdef inline bint circle_aabb_collide(double cx, double cy, double r, double x0, double y0,
                                     double x1, double y1) noexcept nogil:
    # the centre in the box or on it, or point_box's distance within r; only
    # differences of the coordinates enter: every exact shift gives this answer
    cdef int edge
    cdef double qx, qy
    if x0 <= cx <= x1 and y0 <= cy <= y1:
        return True
    return sqrt(point_box(cx, cy, x0, y0, x1, y1, &edge, &qx, &qy)) <= r


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


cdef inline void box_normal(double c, double s, int k, double* nx, double* ny) noexcept nogil:
    # nx, ny (OUT): the outward unit normal of a box's side k (bottom, right, top,
    # left) from its axis (c, s)
    if k == 0:
        nx[0] = s
        ny[0] = 0.0 - c
    elif k == 1:
        nx[0] = c
        ny[0] = s
    elif k == 2:
        nx[0] = 0.0 - s
        ny[0] = c
    else:
        nx[0] = 0.0 - c
        ny[0] = 0.0 - s


cdef inline int box_side(const Convex* cv, int k, double px, double py) noexcept nogil:
    # which side of an OBB's side k (corner k to k + 1) p lies on, exactly: 1 inner, 0
    # on its line, -1 outer; a side whose corners coincide (a box of zero width) is the
    # line through its corner square to the box's axis (see the reference)
    cdef int j = k + 1 if k < 3 else 0
    cdef double x0 = cv.box_x[k]
    cdef double y0 = cv.box_y[k]
    cdef double nx, ny
    if x0 != cv.box_x[j] or y0 != cv.box_y[j]:
        return orient_sign(x0, y0, cv.box_x[j], cv.box_y[j], px, py)
    box_normal(cv.cos, cv.sin, k, &nx, &ny)
    return side_sign(x0, y0, 0.0 - ny, nx, px, py)


cdef bint edge_apart_exact(double x0, double y0, double x1, double y1, const double* xs,
                           const double* ys, double ox, double oy, int m) noexcept nogil


cdef inline bint edge_apart(double x0, double y0, double x1, double y1, double top,
                            const double* xs, const double* ys, double ox, double oy,
                            int m, double size) noexcept nogil:
    # whether every point (xs[k] - ox, ys[k] - oy) lies strictly outside the edge from
    # (x0, y0) to (x1, y1), by exact signs, given top (edge_reach's largest rounded
    # cross product over them) and size (no less than any |coordinate| of the edge and
    # the points): each point's orient2d bound is at most errA (|ex| + |ey|) 2 size,
    # so top decides it beyond 1e-15 (|ex| + |ey|) size (1e-15 > 3 errA), and the
    # points one by one within that
    cdef double bound = (1e-15 * (fabs(x1 - x0) + fabs(y1 - y0)) * size
                         + 1.6e-322)
    if top < -bound:
        return True
    if top > bound:
        return False
    return edge_apart_exact(x0, y0, x1, y1, xs, ys, ox, oy, m)


cdef inline bint box_apart(const Convex* cv, int k, const double* xs, const double* ys,
                           double ox, double oy, int m) noexcept nogil:
    # whether every point (xs[j] - ox, ys[j] - oy) lies strictly outside side k of the
    # OBB cv (exact signs)
    cdef int j
    for j in range(m):
        if box_side(cv, k, xs[j] - ox, ys[j] - oy) >= 0:
            return False
    return True

