# Exact sign predicates (compiled twin of fastcol._ref.predicates, which explains them).
#
# The filters are inline here, so every kernel module compiles its own copy and the
# common case costs a few operations more than the bare determinant; the exact
# arithmetic for the inputs the filter cannot decide lives in predicates.pyx.

from libc.math cimport fabs

cdef int orient_exact(double ax, double ay, double bx, double by, double cx,
                      double cy) noexcept nogil
cdef int side_exact(double px, double py, double dx, double dy, double qx,
                    double qy) noexcept nogil


cdef inline double own_bound(double left, double right) noexcept nogil:
    # the error bound of left - right for two rounded products of differences of
    # doubles: Shewchuk's ccwerrboundA, (3 + 16 eps) eps with eps = 2**-53, times the
    # products' magnitudes, plus 2**-1069 (a few subnormal units for products that
    # underflow)
    return 3.3306690738754716e-16 * (fabs(left) + fabs(right)) + 1.6e-322


cdef inline int _filtered(double left, double right) noexcept nogil:
    # the sign of left - right for two rounded products of differences of doubles
    # (orient2d's, or a direction's cross product), where rounding cannot change it;
    # 2 where it can.  Products of opposite signs (or one zero) decide it without a
    # bound: a rounded product keeps its sign, and one that underflowed to zero is
    # smaller than any that did not (as in Shewchuk's orient2d).  Otherwise own_bound
    cdef double det, bound
    if left > 0.0:
        if right <= 0.0:
            return 1
    elif left < 0.0:
        if right >= 0.0:
            return -1
    elif right != 0.0:
        return -1 if right > 0.0 else 1
    det = left - right
    bound = own_bound(left, right)
    if det > bound:
        return 1
    if det < -bound:
        return -1
    return 2


cdef inline int orient_decide(double left, double right, double ax, double ay, double bx,
                              double by, double cx, double cy) noexcept nogil:
    # the sign of left - right, exact, for left = (bx - ax) * (cy - ay) and
    # right = (by - ay) * (cx - ax) as the caller computed them
    cdef int sign = _filtered(left, right)
    return orient_exact(ax, ay, bx, by, cx, cy) if sign == 2 else sign


cdef inline int orient_sign(double ax, double ay, double bx, double by, double cx,
                            double cy) noexcept nogil:
    # 1, -1 or 0: c to the left of, to the right of, or on the directed line a -> b
    return orient_decide((bx - ax) * (cy - ay), (by - ay) * (cx - ax), ax, ay, bx, by, cx, cy)


cdef inline int side_sign(double px, double py, double dx, double dy, double qx,
                          double qy) noexcept nogil:
    # 1, -1 or 0: q to the left of, to the right of, or on the line p + s d: the sign
    # of dx * (qy - py) - dy * (qx - px), exact
    cdef int sign = _filtered(dx * (qy - py), dy * (qx - px))
    return side_exact(px, py, dx, dy, qx, qy) if sign == 2 else sign


cdef inline double exact_origin(double o, double lo, double hi) noexcept nogil:
    # the origin of an exact local frame on one axis: o when every coordinate in
    # [lo, hi] minus o is exact (within a factor 2 of o, same sign: Sterbenz), else 0.0
    # (see fastcol._ref.predicates.exact_origin); NaN gives 0.0
    if o > 0.0:
        return o if lo + lo >= o and hi <= o + o else 0.0
    if o < 0.0:
        return o if hi + hi <= o and lo >= o + o else 0.0
    return 0.0


cdef inline double pair_bound(double size) noexcept nogil:
    # a bound on orient_decide's own (errA (|left| + |right|) plus underflow) for every
    # orientation of three points whose local coordinates are at most size in
    # magnitude: |ex| + |ey| <= 4 size and |px - x0|, |py - y0| <= 2 size, so
    # |left| + |right| <= 8 size**2 and errA 8 size**2 < 4e-15 size**2
    return 4e-15 * size * size + 1.6e-322


cdef inline int orient_within(double c, double bound, double x0, double y0, double x1,
                              double y1, double px, double py) noexcept nogil:
    # the exact sign of orient2d((x0, y0), (x1, y1), p), given c, its rounded value as
    # (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0), and bound from pair_bound: c
    # decides beyond the bound, the exact predicate within it
    if c > bound:
        return 1
    if c < -bound:
        return -1
    return orient_exact(x0, y0, x1, y1, px, py)


cdef inline double ray_bound(double dx, double dy, double size) noexcept nogil:
    # a bound on side_sign's own for every point p, q whose coordinates are at most
    # size in magnitude: |dx (qy - py)| + |dy (qx - px)| <= (|dx| + |dy|) 2 size, and
    # errA 2 < 1e-15
    return 1e-15 * (fabs(dx) + fabs(dy)) * size + 1.6e-322


cdef inline int side_within(double v, double bound, double px, double py, double dx,
                            double dy, double qx, double qy) noexcept nogil:
    # the exact sign of side_sign(p, d, q), given v, its rounded value as
    # dx * (qy - py) - dy * (qx - px), and bound from ray_bound
    if v > bound:
        return 1
    if v < -bound:
        return -1
    return side_exact(px, py, dx, dy, qx, qy)
