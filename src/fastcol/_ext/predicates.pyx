"""Exact sign predicates (compiled twin of fastcol._ref.predicates).

The filters are inline in predicates.pxd.  This module holds the exact arithmetic for
the inputs they cannot decide: the determinant written out as a sum of products of two
input doubles, each product an exact 106-bit integer times a power of two, added into
a fixed-point integer wide enough for every finite double (bits 2**-2148 to 2**2048).
Expansion arithmetic (Shewchuk's TwoProduct) would need its inputs' exponents inside a
band where no product overflows and no rounding error underflows; the integer sum has
no such band, so one path is exact for every finite input.  The reference computes the
same signs with ``fractions.Fraction``.
"""

from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy, memset

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
    if (ax == bx or ay == cy) and (ay == by or ax == cx):
        # both products have a zero factor: the determinant is exactly zero
        return 0
    if not _finite(ax, ay, bx, by, cx, cy):
        # NaN or inf: no sign (callers never pass them; the row loops filter them)
        return 0
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
    if (dx == 0.0 or qy == py) and (dy == 0.0 or qx == px):
        return 0
    if not _finite(px, py, dx, dy, qx, qy):
        return 0
    memset(pos, 0, sizeof(pos))
    memset(neg, 0, sizeof(neg))
    _add_product(pos, neg, dx, qy, False)
    _add_product(pos, neg, dx, py, True)
    _add_product(pos, neg, dy, qx, True)
    _add_product(pos, neg, dy, px, False)
    return _compare(pos, neg)
