"""Exact sign predicates (compiled twin of fastcol._ref.predicates).

The filters are inline in predicates.pxd.  This module holds the exact arithmetic for
the inputs they cannot decide, in two stages:

1. Expansion arithmetic (Dekker's TwoProduct, Shewchuk's Two_Two_Diff): when each
   difference in the determinant's two products is exact as rounded and every factor
   lies where no product overflows and no rounding error underflows (0, or 2**-480 to
   2**480 in magnitude), the determinant is exactly a sum of four doubles, whose sign
   is that of the largest of them that is not zero.  That is every input of the
   kernels' local frames short of the extremes, at a few dozen operations.
2. Otherwise the determinant written out as a sum of products of two input doubles,
   each product an exact 106-bit integer times a power of two, added into a
   fixed-point integer wide enough for every finite double (bits 2**-2148 to 2**2048):
   exact for every finite input, some ten times slower.

The reference computes the same signs with ``fractions.Fraction``.
"""

from libc.math cimport fabs
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy, memset


# ------------------------------------------------------ stage 1: expansion arithmetic

cdef inline double _diff_tail(double a, double b, double x) noexcept nogil:
    # (a - b) - x exactly, for x = a - b as rounded (Knuth's two-sum; finite inputs)
    cdef double bv = a - x
    cdef double av = x + bv
    return (a - av) + (bv - b)


cdef inline double _sum_tail(double a, double b, double x) noexcept nogil:
    # (a + b) - x exactly, for x = a + b as rounded
    cdef double bv = x - a
    cdef double av = x - bv
    return (a - av) + (b - bv)


cdef inline bint _in_band(double x) noexcept nogil:
    # 0, or 2**-480 <= |x| <= 2**480: a product of two such numbers neither overflows
    # (nor does Dekker's split, which multiplies by 2**27 + 1) nor has a rounding
    # error off the subnormal grid (every bit of it is at least 2**(-2 * 532)); NaN
    # is outside
    cdef double m = fabs(x)
    return m == 0.0 or (3.2033329522929615e-145 <= m and m <= 3.1217485503159922e+144)


cdef inline void _product(double a, double b, double* p, double* e) noexcept nogil:
    # p, e (OUT): a * b as rounded and its error, p + e == a * b exactly (Dekker's
    # TwoProduct: each factor split into two halves of at most 26 bits, whose
    # products are exact; no fused multiply-add, which the build turns off)
    cdef double c = 134217729.0 * a
    cdef double ahi = c - (c - a)
    cdef double alo = a - ahi
    c = 134217729.0 * b
    cdef double bhi = c - (c - b)
    cdef double blo = b - bhi
    p[0] = a * b
    e[0] = alo * blo - (((p[0] - ahi * bhi) - alo * bhi) - ahi * blo)


cdef inline int _sign(double x) noexcept nogil:
    return 1 if x > 0.0 else (-1 if x < 0.0 else 0)


cdef int _products_sign(double a, double b, double c, double d) noexcept nogil:
    # the sign of a * b - c * d, exact for factors in _in_band's band: (p1 + e1) -
    # (p2 + e2) as the nonoverlapping expansion x3 + x2 + x1 + x0 (Shewchuk's
    # Two_Two_Diff, largest part first), whose sign is its largest nonzero part's
    cdef double p1, e1, p2, e2, i, j, k, x0, x1, x2, x3
    _product(a, b, &p1, &e1)
    _product(c, d, &p2, &e2)
    i = e1 - e2
    x0 = _diff_tail(e1, e2, i)
    j = p1 + i
    k = _sum_tail(p1, i, j)
    i = k - p2
    x1 = _diff_tail(k, p2, i)
    x3 = j + i
    x2 = _sum_tail(j, i, x3)
    if x3 != 0.0:
        return _sign(x3)
    if x2 != 0.0:
        return _sign(x2)
    if x1 != 0.0:
        return _sign(x1)
    return _sign(x0)


cdef inline bint _exact_in_band(double a, double b, double x) noexcept nogil:
    # whether x, a - b as rounded, is exact and in _in_band's band
    return _diff_tail(a, b, x) == 0.0 and _in_band(x)


# ------------------------------------------------------------ stage 2: integer sum

cdef enum:
    # a product of two doubles is M * 2**E with M < 2**106 and -2148 <= E <= 1942: bit
    # k of the sum is bit k - _LOW of the accumulator, and 68 words hold the top bit
    # (< 2**2048) of a sum of up to 64 terms
    _LOW = 2148
    _WORDS = 68


cdef inline void _parts(double x, uint64_t* m, int* e) noexcept nogil:
    # x == +-m * 2**e exactly (m < 2**53), for finite x; the sign is the caller's
    cdef uint64_t bits
    memcpy(&bits, &x, 8)
    cdef int biased = <int>((bits >> 52) & 2047)
    m[0] = bits & ((<uint64_t>1 << 52) - 1)
    if biased == 0:
        # subnormal (or zero)
        e[0] = -1074
    else:
        m[0] |= <uint64_t>1 << 52
        e[0] = biased - 1075


cdef inline void _add_at(uint64_t* acc, uint64_t lo, uint64_t hi, int bit) noexcept nogil:
    # acc += (hi * 2**64 + lo) * 2**bit
    cdef int w = bit >> 6
    cdef int s = bit & 63
    cdef uint64_t v0, v1, v2, old, carry
    if s == 0:
        v0 = lo
        v1 = hi
        v2 = 0
    else:
        v0 = lo << s
        v1 = (lo >> (64 - s)) | (hi << s)
        v2 = hi >> (64 - s)
    old = acc[w]
    acc[w] = old + v0
    carry = acc[w] < old
    w += 1
    old = acc[w]
    acc[w] = old + v1 + carry
    carry = (acc[w] < old) or (carry and acc[w] == old)
    w += 1
    old = acc[w]
    acc[w] = old + v2 + carry
    carry = (acc[w] < old) or (carry and acc[w] == old)
    w += 1
    while carry and w < _WORDS:
        acc[w] += 1
        carry = acc[w] == 0
        w += 1


cdef inline void _add_product(uint64_t* pos, uint64_t* neg, double x, double y,
                              bint negate) noexcept nogil:
    # pos or neg (IN/OUT): += |x * y|, into neg when x * y * (-1 if negate) < 0
    cdef uint64_t mx, my, a0, a1, b0, b1, p00, mid, lo, hi
    cdef int ex, ey
    if x == 0.0 or y == 0.0:
        return
    _parts(x, &mx, &ex)
    _parts(y, &my, &ey)
    # the 106-bit product of two 53-bit integers, in 32-bit halves (no 128-bit type)
    a0 = mx & ((<uint64_t>1 << 32) - 1)
    a1 = mx >> 32
    b0 = my & ((<uint64_t>1 << 32) - 1)
    b1 = my >> 32
    p00 = a0 * b0
    mid = a0 * b1 + a1 * b0
    lo = p00 + (mid << 32)
    hi = a1 * b1 + (mid >> 32) + (lo < p00)
    if ((x < 0.0) != (y < 0.0)) != negate:
        _add_at(neg, lo, hi, ex + ey + _LOW)
    else:
        _add_at(pos, lo, hi, ex + ey + _LOW)


cdef inline int _compare(const uint64_t* pos, const uint64_t* neg) noexcept nogil:
    # the sign of pos - neg
    cdef int w
    for w in range(_WORDS - 1, -1, -1):
        if pos[w] != neg[w]:
            return 1 if pos[w] > neg[w] else -1
    return 0


cdef inline bint _finite(double a, double b, double c, double d, double e,
                         double f) noexcept nogil:
    # all six finite: x - x is 0.0 for a finite x, NaN for NaN and inf
    return (a - a) + (b - b) + (c - c) + (d - d) + (e - e) + (f - f) == 0.0


cdef int orient_exact(double ax, double ay, double bx, double by, double cx,
                      double cy) noexcept nogil:
    # (bx - ax)(cy - ay) - (by - ay)(cx - ax), multiplied out (the ax * ay terms cancel)
    cdef uint64_t pos[_WORDS]
    cdef uint64_t neg[_WORDS]
    cdef double u, v, w, z
    if (ax == bx or ay == cy) and (ay == by or ax == cx):
        # both products have a zero factor: the determinant is exactly zero
        return 0
    if not _finite(ax, ay, bx, by, cx, cy):
        # NaN or inf: no sign (callers never pass them; the row loops filter them)
        return 0
    u = bx - ax
    v = cy - ay
    w = by - ay
    z = cx - ax
    if (_exact_in_band(bx, ax, u) and _exact_in_band(cy, ay, v)
            and _exact_in_band(by, ay, w) and _exact_in_band(cx, ax, z)):
        return _products_sign(u, v, w, z)
    memset(pos, 0, sizeof(pos))
    memset(neg, 0, sizeof(neg))
    _add_product(pos, neg, bx, cy, False)
    _add_product(pos, neg, bx, ay, True)
    _add_product(pos, neg, ax, cy, True)
    _add_product(pos, neg, by, cx, True)
    _add_product(pos, neg, by, ax, False)
    _add_product(pos, neg, ay, cx, False)
    return _compare(pos, neg)


cdef int side_exact(double px, double py, double dx, double dy, double qx,
                    double qy) noexcept nogil:
    # dx (qy - py) - dy (qx - px), multiplied out
    cdef uint64_t pos[_WORDS]
    cdef uint64_t neg[_WORDS]
    cdef double u, z
    if (dx == 0.0 or qy == py) and (dy == 0.0 or qx == px):
        return 0
    if not _finite(px, py, dx, dy, qx, qy):
        return 0
    u = qy - py
    z = qx - px
    if (_exact_in_band(qy, py, u) and _exact_in_band(qx, px, z) and _in_band(dx)
            and _in_band(dy)):
        return _products_sign(dx, u, dy, z)
    memset(pos, 0, sizeof(pos))
    memset(neg, 0, sizeof(neg))
    _add_product(pos, neg, dx, qy, False)
    _add_product(pos, neg, dx, py, True)
    _add_product(pos, neg, dy, qx, True)
    _add_product(pos, neg, dy, px, False)
    return _compare(pos, neg)
