"""Batch queries over shape arrays: typed loops that run without the GIL.

Compiled twin of fastcol._ref.batch.  Each row is read into a ``View`` (float32 rows
are widened exactly to double) and handed to the very kernels of the scalar queries, so
a row's answer is bit for bit the scalar answer; results are rounded to float32 only
when every array is float32.  The common pairs have loops of their own, some two rows
at a time in SIMD lanes (fc_pairs.h), that give the same bits.  A row that is no shape (NaN or inf, a negative radius or
half extent, ``min > max``, a polygon count outside 3..K) answers False or NaN.  With
``workers`` above 1 the rows go in blocks to the calling thread and the helper threads
of pool.pyx, each block a GIL-free loop.
"""

cimport cython
from cpython.buffer cimport (
    PyBUF_ANY_CONTIGUOUS,
    PyBUF_WRITABLE,
    PyBuffer_Release,
    PyObject_GetBuffer,
)
from cython cimport floating
from libc.math cimport INFINITY, NAN, cos, fabs, isfinite, sin, sqrt
from libc.stdlib cimport free, malloc, realloc
from cpython.ref cimport PyObject, Py_INCREF

cimport numpy as cnp

from .geometry cimport (
    SegClosest, closest_on_line, closest_on_segment, dist2, lift, point_segment,
    segment_segment, segments_local, segments_rows_d2,
)
from .predicates cimport exact_origin, orient_sign
from .narrowphase cimport (
    Round, circle_obb_filter, round_result, round_round_closest,
    round_round_collide, thin_limit,
)
from .contacts cimport Hit, contact_circles, contact_views
from .queries cimport (
    View,
    closest_views,
    collide_views,
    view_of,
)
# two rows at a time, one per lane
from .lanes cimport *
from .pool cimport run_rows, slots_for
from .sweeps cimport cast_views, ray_unframed, raycast_view, toi_views
from .shapes cimport AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, POLYGON, SEGMENT, Shape

import numpy as np

from fastcol import _batch

from .arrays import AABBArray, CapsuleArray, CircleArray, OBBArray, SegmentArray
from .._arrays import ShapeArray as _ShapeArray

cnp.import_array()


cdef enum:
    COLLIDE = 0
    DISTANCE = 1
    CLOSEST = 2
    CONTACT = 3
    RAYCAST = 4
    SWEEP = 5
    CAST = 6


cdef void _loop(int query, Side* a, Side* b, const floating* da, const floating* db,
                Py_ssize_t start, Py_ssize_t stop, unsigned char* hit, floating* dist,
                floating* pa, floating* pb) noexcept nogil:
    # rows start..stop of one query; writes hit, or dist (and pa, pb for CLOSEST)
    cdef Py_ssize_t i
    cdef bint ok
    cdef double sep
    cdef double out[4]
    for i in range(start, stop):
        ok = a.fixed or load_row(a, da + i * a.width, i)
        ok = (b.fixed or load_row(b, db + i * b.width, i)) and ok
        if query == COLLIDE:
            hit[i] = ok and collide_views(&a.view, &b.view)
            continue
        if not ok:
            dist[i] = NAN
            if query == CLOSEST:
                pa[2 * i] = pa[2 * i + 1] = pb[2 * i] = pb[2 * i + 1] = NAN
            continue
        sep = closest_views(&a.view, &b.view, out)
        dist[i] = <floating>(sep if sep > 0.0 else 0.0)
        if query == CLOSEST:
            pa[2 * i] = <floating>out[0]
            pa[2 * i + 1] = <floating>out[1]
            pb[2 * i] = <floating>out[2]
            pb[2 * i + 1] = <floating>out[3]


cdef struct Core:
    # a round shape as read from a row: its fields in _fields order (for the
    # canonical order) and its core segment and radius in world coordinates
    int kind
    double f[5]
    double ax, ay, bx, by, r


cdef inline bint _read_core(int kind, const floating* row, Core* c) noexcept nogil:
    # c (OUT): the circle, capsule or segment in a row; False when it is no shape
    # (x - x is 0.0 for every finite x and NaN for NaN and inf)
    cdef double x0 = row[0]
    cdef double y0 = row[1]
    cdef double x1, y1, r
    c.kind = kind
    c.f[0] = c.ax = x0
    c.f[1] = c.ay = y0
    if kind == CIRCLE:
        r = row[2]
        c.f[2] = c.r = r
        c.bx = x0
        c.by = y0
        return r >= 0.0 and (x0 - x0) + (y0 - y0) + (r - r) == 0.0
    x1 = row[2]
    y1 = row[3]
    c.f[2] = c.bx = x1
    c.f[3] = c.by = y1
    r = row[4] if kind == CAPSULE else 0.0
    c.f[4] = c.r = r
    return r >= 0.0 and (x0 - x0) + (y0 - y0) + (x1 - x1) + (y1 - y1) + (r - r) == 0.0


cdef void _core_of(const View* v, Core* c) noexcept nogil:
    # c (OUT): a fixed round shape
    cdef int k
    c.kind = v.kind
    for k in range(5):
        c.f[k] = v.f[k]
    c.ax = v.f[0]
    c.ay = v.f[1]
    if v.kind == CIRCLE:
        c.bx = v.f[0]
        c.by = v.f[1]
        c.r = v.f[2]
    else:
        c.bx = v.f[2]
        c.by = v.f[3]
        c.r = v.f[4] if v.kind == CAPSULE else 0.0


cdef inline bint _core_greater(const Core* a, const Core* b) noexcept nogil:
    # the canonical order of two round shapes: by kind, then fields in order
    cdef int k, n
    if a.kind != b.kind:
        return a.kind > b.kind
    n = 3 if a.kind == CIRCLE else (5 if a.kind == CAPSULE else 4)
    for k in range(n):
        if a.f[k] != b.f[k]:
            return a.f[k] > b.f[k]
    return False


cdef void _round_loop(int query, Side* sa, Side* sb, const floating* da,
                      const floating* db, Py_ssize_t start, Py_ssize_t stop,
                      unsigned char* hit, floating* dist, floating* pa,
                      floating* pb) noexcept nogil:
    # the loop for two round operands: the View path's operations, without its
    # copies (queries.pyx _collide and _closest, for a canonical round pair)
    cdef Py_ssize_t i
    cdef bint ok, swapped
    cdef Core ca, cb
    cdef const Core* p
    cdef const Core* q
    cdef Round lp, lq
    cdef double ox, oy, dx, dy, sep, t
    cdef double out[4]
    if sa.fixed:
        _core_of(&sa.view, &ca)
    if sb.fixed:
        _core_of(&sb.view, &cb)
    for i in range(start, stop):
        ok = sa.fixed or _read_core(sa.kind, da + i * sa.width, &ca)
        ok = (sb.fixed or _read_core(sb.kind, db + i * sb.width, &cb)) and ok
        if not ok:
            if query == COLLIDE:
                hit[i] = False
            else:
                dist[i] = NAN
                if query == CLOSEST:
                    pa[2 * i] = pa[2 * i + 1] = pb[2 * i] = pb[2 * i + 1] = NAN
            continue
        swapped = _core_greater(&ca, &cb)
        p = &cb if swapped else &ca
        q = &ca if swapped else &cb
        ox = p.ax
        oy = p.ay
        if q.kind == CIRCLE:
            # two circles (p sorts first, so it is a circle too)
            dx = q.ax - ox
            dy = q.ay - oy
            if query == COLLIDE:
                hit[i] = sqrt(dx * dx + dy * dy) <= p.r + q.r
                continue
            sep = round_result(dx * dx + dy * dy, p.r, q.r, 0.0, 0.0, dx, dy, out)
        elif query == DISTANCE:
            # round_round_closest's separation, without its points (segments_rows_d2
            # forms view_frame's exact local frame itself)
            sep = sqrt(segments_rows_d2(p.ax, p.ay, p.bx, p.by, q.ax, q.ay, q.bx,
                                        q.by)) - (p.r + q.r)
        else:
            # the exact local frame of view_frame
            ox = exact_origin(ox, min(min(p.ax, p.bx), min(q.ax, q.bx)),
                              max(max(p.ax, p.bx), max(q.ax, q.bx)))
            oy = exact_origin(oy, min(min(p.ay, p.by), min(q.ay, q.by)),
                              max(max(p.ay, p.by), max(q.ay, q.by)))
            lp.ax = p.ax - ox
            lp.ay = p.ay - oy
            lp.bx = p.bx - ox
            lp.by = p.by - oy
            lp.r = p.r
            lq.ax = q.ax - ox
            lq.ay = q.ay - oy
            lq.bx = q.bx - ox
            lq.by = q.by - oy
            lq.r = q.r
            if query == COLLIDE:
                hit[i] = round_round_collide(&lp, &lq)
                continue
            sep = round_round_closest(&lp, &lq, out)
        dist[i] = <floating>(sep if sep > 0.0 else 0.0)
        if query == CLOSEST:
            # back to world coordinates and the caller's order, as closest_views does
            if swapped:
                t = out[0]
                out[0] = out[2]
                out[2] = t
                t = out[1]
                out[1] = out[3]
                out[3] = t
            pa[2 * i] = <floating>(out[0] + ox)
            pa[2 * i + 1] = <floating>(out[1] + oy)
            pb[2 * i] = <floating>(out[2] + ox)
            pb[2 * i + 1] = <floating>(out[3] + oy)


cdef void _cores_distance(const Side* sa, const Side* sb, const floating* da,
                          const floating* db, Py_ssize_t start, Py_ssize_t stop,
                          floating* dist) noexcept nogil:
    # distance of two arrays of capsules or segments: _round_loop's answer, with the
    # rows read in place, the canonical order a choice of pointers and the segment
    # distance segments_rows_d2's (for random rows their branches are coin tosses)
    cdef Py_ssize_t i
    cdef Py_ssize_t wa = sa.width
    cdef Py_ssize_t wb = sb.width
    cdef bint round_a = sa.kind == CAPSULE
    cdef bint round_b = sb.kind == CAPSULE
    # kinds differ: the lower kind comes first; the same: the first differing field
    cdef int order = (sa.kind > sb.kind) - (sa.kind < sb.kind)
    cdef int k
    cdef const floating* ra
    cdef const floating* rb
    cdef const floating* p
    cdef const floating* q
    cdef double r, sep
    cdef bint sw
    for i in range(start, stop):
        ra = da + i * wa
        rb = db + i * wb
        r = (ra[4] if round_a else 0.0) + (rb[4] if round_b else 0.0)
        if not ((ra[4] >= 0.0 if round_a else True) & (rb[4] >= 0.0 if round_b else True)
                & ((ra[0] - ra[0]) + (ra[1] - ra[1]) + (ra[2] - ra[2]) + (ra[3] - ra[3])
                   + (rb[0] - rb[0]) + (rb[1] - rb[1]) + (rb[2] - rb[2]) + (rb[3] - rb[3])
                   + (r - r) == 0.0)):
            dist[i] = NAN
            continue
        sw = order > 0
        if order == 0:
            # _core_greater of two rows of one kind
            for k in range(wa):
                if ra[k] != rb[k]:
                    sw = ra[k] > rb[k]
                    break
        p = rb if sw else ra
        q = ra if sw else rb
        sep = sqrt(segments_rows_d2(p[0], p[1], p[2], p[3], q[0], q[1], q[2], q[3])) - r
        dist[i] = <floating>(sep if sep > 0.0 else 0.0)


cdef inline bint _circles_hit(double x0, double y0, double r0, double x1, double y1,
                              double r1) noexcept nogil:
    # collide of two circles read from rows: False unless all six numbers are finite
    # and both radii are >= 0.  Bitwise & rather than `and`: no branch to mispredict
    cdef double dx = x1 - x0
    cdef double dy = y1 - y0
    cdef double s = r0 + r1
    cdef bint hit = (r0 >= 0.0) & (r1 >= 0.0) & (sqrt(dx * dx + dy * dy) <= s)
    # no finite check is needed while s < inf: a NaN or inf anywhere makes s NaN (no
    # hit) or dx, dy NaN or inf (d2 NaN or inf: no hit), and finite rows whose dx or
    # dy overflows answer False as the scalar query does.  Only an infinite s (an
    # infinite radius, or finite radii whose sum overflows, a hit) checks the inputs
    if s == INFINITY:
        hit = ((r0 >= 0.0) & (r1 >= 0.0) & ((x0 - x0) + (y0 - y0) + (r0 - r0) + (x1 - x1)
                                             + (y1 - y1) + (r1 - r1) == 0.0))
    return hit


cdef inline void _row_fields(const floating* d, Py_ssize_t i, int n, bint two,
                             fc_v2* f) noexcept nogil:
    # f (OUT): the n fields of rows i and i + 1 of an array of rows (two), or of row i
    # twice
    cdef double v[4]
    cdef int k
    if floating is double:
        fc_rows(d + n * i, n, n if two else 0, f)
    elif two:
        fc_rows_f(d + n * i, n, f)
    else:
        for k in range(n):
            v[k] = d[n * i + k]
        fc_rows(v, n, 0, f)


cdef inline void _side_rows(const Side* s, const floating* d, Py_ssize_t i, int n,
                            bint two, fc_v2* f) noexcept nogil:
    # _row_fields of an operand, or its one shape in both lanes where it stands for
    # every row
    if s.fixed:
        fc_rows(s.view.f, n, 0, f)
    else:
        _row_fields(d, i, n, two, f)


cdef inline void _store_first(floating* out, Py_ssize_t i, fc_v2 v) noexcept nogil:
    # out[i] (OUT): v's first lane, rounded to float where out holds floats
    cdef double two[2]
    fc_store(two, v)
    out[i] = <floating>two[0]


cdef double _BELOW = 1.0 - 2.0 ** -51
cdef double _ABOVE = 1.0 + 2.0 ** -50
# the least s * s for which the square's relative rounding error is at most 2**-53
cdef double _SQUARE_MIN = 2.0 ** -1020


cdef inline fc_m2 _roots_within(fc_v2 d2, fc_v2 s, fc_m2* sure) noexcept nogil:
    # sqrt(d2) <= s in each lane, decided by squares where the lane's sure (OUT) is
    # set.  With p = s * s normal, d2 <= p (1 - 2**-51) means d2 < s**2 (so sqrt(d2)
    # < s) and d2 > p (1 + 2**-50) means sqrt(d2) > s (1 + 2**-53) >= s + ulp(s) / 2
    # (so the root rounds above s); docs/numerics.md
    cdef fc_v2 p = fc_mul(s, s)
    cdef fc_m2 yes = fc_le(d2, fc_mul(p, fc_splat(_BELOW)))
    cdef fc_m2 no = fc_lt(fc_mul(p, fc_splat(_ABOVE)), d2)
    sure[0] = fc_and(fc_or(yes, no),
                     fc_and(fc_le(fc_splat(_SQUARE_MIN), p), fc_lt(p, fc_splat(INFINITY))))
    return yes


# rows per round of the two-row loops: the pairs of rows they leave undecided are
# listed (without a branch) and decided after the round
cdef enum:
    ROUND = 512
    PAIRS = 256


cdef void _circles_collide(const Side* sa, const Side* sb, const floating* da,
                           const floating* db, Py_ssize_t start, Py_ssize_t stop,
                           unsigned char* hit) noexcept nogil:
    # collide of two circle operands, the same answers as the scalar query (which
    # needs no canonical order for two circles: dx and dy only change sign), two rows
    # at a time; rows the squares cannot decide go to _circles_hit
    cdef Py_ssize_t i = start
    cdef Py_ssize_t j, k, end
    cdef Py_ssize_t m = 0
    cdef Py_ssize_t undecided[PAIRS]
    cdef int bits
    cdef fc_v2 dx, dy, s
    cdef fc_m2 sure
    cdef fc_v2 fa[3]
    cdef fc_v2 fb[3]
    cdef double a[3]
    cdef double b[3]
    cdef fc_v2 zero = fc_splat(0.0)
    # the operands copied into locals: the stores of the answers (bytes may alias
    # anything, doubles the operands' numbers) would otherwise reload them every row
    cdef Side la = sa[0]
    cdef Side lb = sb[0]
    sa = &la
    sb = &lb
    while i + 2 <= stop:
        end = min(i + ROUND, stop - 1)
        m = 0
        while i < end:
            _side_rows(sa, da, i, 3, True, fa)
            _side_rows(sb, db, i, 3, True, fb)
            dx = fc_sub(fb[0], fa[0])
            dy = fc_sub(fb[1], fa[1])
            bits = fc_bits(fc_and(
                _roots_within(fc_add(fc_mul(dx, dx), fc_mul(dy, dy)), fc_add(fa[2], fb[2]),
                              &sure),
                fc_and(fc_le(zero, fa[2]), fc_le(zero, fb[2]))))
            hit[i] = bits & 1
            hit[i + 1] = bits >> 1
            undecided[m] = i
            m += fc_bits(sure) != 3
            i += 2
        for j in range(m):
            # the rounded roots decide, as in _circles_hit; an infinite sum of radii
            # (both lanes then) goes to _circles_hit itself
            k = undecided[j]
            _side_rows(sa, da, k, 3, True, fa)
            _side_rows(sb, db, k, 3, True, fb)
            dx = fc_sub(fb[0], fa[0])
            dy = fc_sub(fb[1], fa[1])
            s = fc_add(fa[2], fb[2])
            bits = fc_bits(fc_and(fc_le(fc_sqrt(fc_add(fc_mul(dx, dx), fc_mul(dy, dy))), s),
                                  fc_and(fc_le(zero, fa[2]), fc_le(zero, fb[2]))))
            hit[k] = bits & 1
            hit[k + 1] = bits >> 1
            if fc_bits(fc_eq(s, fc_splat(INFINITY))):
                for k in range(undecided[j], undecided[j] + 2):
                    _fields(sa, da, k, 3, a)
                    _fields(sb, db, k, 3, b)
                    hit[k] = _circles_hit(a[0], a[1], a[2], b[0], b[1], b[2])
    if i < stop:
        _fields(sa, da, i, 3, a)
        _fields(sb, db, i, 3, b)
        hit[i] = _circles_hit(a[0], a[1], a[2], b[0], b[1], b[2])


cdef inline void _store(floating* out, Py_ssize_t i, fc_v2 v) noexcept nogil:
    # out[i], out[i + 1] (OUT): v's lanes, rounded to float where out holds floats
    if floating is double:
        fc_store(out + i, v)
    else:
        fc_store_f(out + i, v)


cdef inline fc_m2 _finite(const fc_v2* f, int n) noexcept nogil:
    # whether the n numbers f[0:n] are all finite, in each lane: x - x is 0.0 for
    # every finite x, NaN for NaN and inf
    cdef fc_v2 t = fc_sub(f[0], f[0])
    cdef int k
    for k in range(1, n):
        t = fc_add(t, fc_sub(f[k], f[k]))
    return fc_eq(t, fc_splat(0.0))


cdef void _circles_distance(const Side* sa, const Side* sb, const floating* da,
                            const floating* db, Py_ssize_t start, Py_ssize_t stop,
                            floating* dist) noexcept nogil:
    # distance of two circle operands, two rows at a time.  Both answers depend on
    # the pair's order only through a sign and a commutative sum, so no canonical
    # ordering is needed: the scalar queries' numbers, at memory speed
    cdef Py_ssize_t i = start
    cdef fc_v2 dx, dy, s, sep
    cdef fc_v2 fa[3]
    cdef fc_v2 fb[3]
    cdef fc_m2 ok
    cdef fc_v2 zero = fc_splat(0.0)
    # the operands copied into locals: the stores of the answers (bytes may alias
    # anything, doubles the operands' numbers) would otherwise reload them every row
    cdef Side la = sa[0]
    cdef Side lb = sb[0]
    sa = &la
    sb = &lb
    while i < stop:
        _side_rows(sa, da, i, 3, i + 2 <= stop, fa)
        _side_rows(sb, db, i, 3, i + 2 <= stop, fb)
        dx = fc_sub(fb[0], fa[0])
        dy = fc_sub(fb[1], fa[1])
        ok = fc_and(fc_and(fc_le(zero, fa[2]), fc_le(zero, fb[2])),
                    fc_and(_finite(fa, 3), _finite(fb, 3)))
        s = fc_add(fa[2], fb[2])
        sep = fc_sub(fc_sqrt(fc_add(fc_mul(dx, dx), fc_mul(dy, dy))), s)
        # max(sep, 0.0) by arithmetic: exact, as sep is at most sqrt(DBL_MAX) or inf ...
        sep = fc_mul(fc_add(sep, fc_abs(sep)), fc_splat(0.5))
        # ... or -inf or NaN where the radii's sum overflows: overlapping
        sep = fc_select(fc_eq(s, fc_splat(INFINITY)), zero, sep)
        sep = fc_select(ok, sep, fc_splat(NAN))
        if i + 2 <= stop:
            _store(dist, i, sep)
        else:
            _store_first(dist, i, sep)
        i += 2


cdef inline void _fields(const Side* s, const floating* d, Py_ssize_t i, Py_ssize_t w,
                         double* v) noexcept nogil:
    # v (OUT): the w numbers of row i of an operand (of its shape, where one shape
    # stands for every row)
    cdef Py_ssize_t k
    if s.fixed:
        for k in range(w):
            v[k] = s.view.f[k]
        return
    for k in range(w):
        v[k] = d[w * i + k]


cdef inline fc_v2 _circle_box_lanes(const fc_v2* c, const fc_v2* box, fc_m2* ok,
                                    fc_m2* inside) noexcept nogil:
    # point_box's d2 from a circle's centre to an AABB, in each lane: the centre
    # clamped into the box as a max, then a min (MAXPD's and MINPD's rules are
    # point_box's selections), TINY for a zero square.  ok (OUT): both rows are
    # shapes (finite, r >= 0, min <= max); inside (OUT): the centre in the box or on it
    cdef fc_v2 zero = fc_splat(0.0)
    cdef fc_v2 dx = fc_sub(c[0], fc_min(box[2], fc_max(box[0], c[0])))
    cdef fc_v2 dy = fc_sub(c[1], fc_min(box[3], fc_max(box[1], c[1])))
    cdef fc_v2 d2 = fc_add(fc_mul(dx, dx), fc_mul(dy, dy))
    ok[0] = fc_and(fc_and(fc_le(zero, c[2]), fc_and(fc_le(box[0], box[2]),
                                                    fc_le(box[1], box[3]))),
                   fc_and(_finite(c, 3), _finite(box, 4)))
    inside[0] = fc_and(fc_and(fc_le(box[0], c[0]), fc_le(c[0], box[2])),
                       fc_and(fc_le(box[1], c[1]), fc_le(c[1], box[3])))
    return fc_select(fc_eq(d2, zero), fc_splat(4.9406564584124654e-324), d2)


cdef inline fc_v2 _circle_box_pair(const Side* sc, const floating* dc, const Side* sb,
                                   const floating* dd, Py_ssize_t i, bint two, fc_v2* c,
                                   fc_m2* ok, fc_m2* inside) noexcept nogil:
    # _circle_box_lanes of rows i and i + 1 (two), or of row i twice, of a circle
    # operand and an AABB one; c (OUT): the circles' fields
    cdef fc_v2 box[4]
    _side_rows(sc, dc, i, 3, two, c)
    _side_rows(sb, dd, i, 4, two, box)
    return _circle_box_lanes(c, box, ok, inside)


cdef void _circle_box_rows(int query, const Side* a, const Side* b, const floating* da,
                           const floating* db, Py_ssize_t start, Py_ssize_t stop,
                           unsigned char* hit, floating* dist) noexcept nogil:
    # collide or distance of a circle operand and an AABB one, in either order, two
    # rows at a time: the scalar queries' answers (circle_aabb_collide; point_box and
    # round_result), which only differences of the coordinates enter, so no canonical
    # order and no frame.  collide decides by squares where they can (_roots_within)
    # and lists the pairs of rows that need the rounded roots for after the round
    cdef const floating* dc = da if a.kind == CIRCLE else db
    cdef const floating* dd = db if a.kind == CIRCLE else da
    # the operands copied into locals: the stores of the answers (bytes may alias
    # anything, doubles the operands' numbers) would otherwise reload them every row
    cdef Side lc = a[0] if a.kind == CIRCLE else b[0]
    cdef Side lb = b[0] if a.kind == CIRCLE else a[0]
    cdef const Side* sc = &lc
    cdef const Side* sb = &lb
    cdef Py_ssize_t i = start
    cdef Py_ssize_t j, end
    cdef Py_ssize_t m = 0
    cdef Py_ssize_t undecided[PAIRS]
    cdef int bits
    cdef bint two
    cdef fc_v2 d2, sep
    cdef fc_v2 c[3]
    cdef fc_m2 ok, inside, sure, within
    cdef fc_v2 zero = fc_splat(0.0)
    while i < stop:
        end = min(i + ROUND, stop)
        m = 0
        while i < end:
            two = i + 2 <= stop
            d2 = _circle_box_pair(sc, dc, sb, dd, i, two, c, &ok, &inside)
            if query == COLLIDE:
                within = _roots_within(d2, c[2], &sure)
                bits = fc_bits(fc_and(ok, fc_or(inside, within)))
                hit[i] = bits & 1
                if two:
                    hit[i + 1] = bits >> 1
                # a lane is decided when the squares decide, inside, or no shape
                undecided[m] = i
                m += (fc_bits(fc_or(sure, inside)) | (3 & ~fc_bits(ok))) != 3
            else:
                sep = fc_sub(fc_sqrt(d2), fc_add(c[2], zero))
                sep = fc_select(fc_lt(zero, sep), sep, zero)
                sep = fc_select(ok, fc_select(inside, zero, sep), fc_splat(NAN))
                if two:
                    _store(dist, i, sep)
                else:
                    _store_first(dist, i, sep)
            i += 2
        for j in range(m):
            # the rounded roots decide, as in circle_aabb_collide
            i = undecided[j]
            two = i + 2 <= stop
            d2 = _circle_box_pair(sc, dc, sb, dd, i, two, c, &ok, &inside)
            bits = fc_bits(fc_and(ok, fc_or(inside, fc_le(fc_sqrt(d2), c[2]))))
            hit[i] = bits & 1
            if two:
                hit[i + 1] = bits >> 1
        i = end


cdef void _circle_obb_rows(Side* a, Side* b, const floating* da, const floating* db,
                           Py_ssize_t start, Py_ssize_t stop,
                           unsigned char* hit) noexcept nogil:
    # collide of a circle operand and an OBB one, in either order: circle_obb_filter
    # on the rows as stored (its differences are the same in every exact frame, and
    # the world's size bounds the frame's), and where it cannot decide, or the box is
    # thin enough for convex_obb to flatten, the general path
    cdef Side* sc = a if a.kind == CIRCLE else b
    cdef Side* sb = b if a.kind == CIRCLE else a
    cdef const floating* dc = da if a.kind == CIRCLE else db
    cdef const floating* dd = db if a.kind == CIRCLE else da
    cdef Py_ssize_t i
    cdef int k
    cdef double x, y, r, cx, cy, hw, hh, angle, thin
    # a fixed box's axis, from its view; a row's, from its angle below
    cdef double c = sb.view.cos if sb.fixed else 1.0
    cdef double s = sb.view.sin if sb.fixed else 0.0
    cdef double v[3]
    cdef double box[5]
    for i in range(start, stop):
        _fields(sc, dc, i, 3, v)
        _fields(sb, dd, i, 5, box)
        x, y, r = v[0], v[1], v[2]
        cx, cy, hw, hh, angle = box[0], box[1], box[2], box[3], box[4]
        # load_row's rule: every number finite, r, hw and hh >= 0
        if not ((r >= 0.0) & (hw >= 0.0) & (hh >= 0.0)
                & ((x - x) + (y - y) + (r - r) + (cx - cx) + (cy - cy) + (hw - hw)
                   + (hh - hh) + (angle - angle) == 0.0)):
            hit[i] = False
            continue
        if not sb.fixed:
            c = cos(angle)
            s = sin(angle)
        thin = thin_limit(cx, cy, hw, hh)
        k = 2
        if hw >= thin and hh >= thin:
            # convex_obb's corners' reach, and the circle's coordinates
            k = circle_obb_filter(x, y, r, cx, cy, c, s, hw, hh,
                                  max(max(fabs(cx), fabs(cy)) + 2.0 * (hw + hh),
                                      max(fabs(x), fabs(y))))
        if k == 2:
            # the rows as load_row reads them (without a second cos and sin)
            sc.view.f[0] = x
            sc.view.f[1] = y
            sc.view.f[2] = r
            sb.view.f[0] = cx
            sb.view.f[1] = cy
            sb.view.f[2] = hw
            sb.view.f[3] = hh
            sb.view.f[4] = angle
            sb.view.cos = c
            sb.view.sin = s
            k = collide_views(&sc.view, &sb.view)
        hit[i] = k == 1


cdef void _collide_rows(Side* a, Side* b, const floating* da, const floating* db,
                        Py_ssize_t start, Py_ssize_t stop, unsigned char* hit) noexcept nogil:
    # rows start..stop of collide, by the loop for the operands' kinds (_Job.run and
    # the small-call entry, fast_collide, both come here)
    if a.kind == CIRCLE and b.kind == CIRCLE:
        _circles_collide(a, b, da, db, start, stop, hit)
    elif (a.kind == CIRCLE and b.kind == AABB_KIND) or (a.kind == AABB_KIND and b.kind == CIRCLE):
        _circle_box_rows(COLLIDE, a, b, da, db, start, stop, hit, <floating*>NULL)
    elif ((a.kind == CIRCLE and b.kind == OBB_KIND)
          or (a.kind == OBB_KIND and b.kind == CIRCLE)):
        _circle_obb_rows(a, b, da, db, start, stop, hit)
    elif a.kind <= SEGMENT and b.kind <= SEGMENT:
        _round_loop(COLLIDE, a, b, da, db, start, stop, hit, <floating*>NULL,
                    <floating*>NULL, <floating*>NULL)
    else:
        _loop(COLLIDE, a, b, da, db, start, stop, hit, <floating*>NULL, <floating*>NULL,
              <floating*>NULL)


# the contact of two shape views (contact_views, or contact_circles for two circles)
ctypedef bint (*ContactViews)(const View*, const View*, Hit*) noexcept nogil


cdef void _contact_loop(Side* a, Side* b, const floating* da, const floating* db,
                       Py_ssize_t start, Py_ssize_t stop, unsigned char* hit,
                       floating* depth, floating* normal, floating* points,
                       long long* count) noexcept nogil:
    # rows start..stop of contact: every field of every row is written (zeros for
    # a row without a contact)
    cdef Py_ssize_t i, ia, ib
    cdef Py_ssize_t loaded = -1
    cdef bint ok, ok_a = a.fixed
    cdef Hit h
    # two circle operands: contact_views's own steps for them, picked once per block
    cdef ContactViews contact = contact_views
    if a.kind == CIRCLE and b.kind == CIRCLE:
        contact = contact_circles
    for i in range(start, stop):
        ia = ib = i
        if a.index != NULL:
            # pairs= (both sides have one): the call's own copy, checked in range
            ia = a.index[2 * i]
            ib = b.index[2 * i]
        if not a.fixed and ia != loaded:
            # a's row is read once for a run of pairs that repeat it (the
            # broadphase's pairs come sorted by a's row; the contact kernels only
            # read a.view)
            ok_a = load_row(a, da + ia * a.width, ia)
            loaded = ia
        ok = (b.fixed or load_row(b, db + ib * b.width, ib)) and ok_a
        if ok and contact(&a.view, &b.view, &h):
            hit[i] = True
            depth[i] = <floating>h.depth
            normal[2 * i] = <floating>h.nx
            normal[2 * i + 1] = <floating>h.ny
            points[4 * i] = <floating>h.p0x
            points[4 * i + 1] = <floating>h.p0y
            points[4 * i + 2] = <floating>h.p1x
            points[4 * i + 3] = <floating>h.p1y
            count[i] = h.count
        else:
            hit[i] = False
            depth[i] = normal[2 * i] = normal[2 * i + 1] = 0.0
            points[4 * i] = points[4 * i + 1] = points[4 * i + 2] = points[4 * i + 3] = 0.0
            count[i] = 0


cdef inline bint _finite2(double x, double y) noexcept nogil:
    # x - x is 0.0 for every finite x, NaN for NaN and inf
    return (x - x) + (y - y) == 0.0


cdef inline void _ray_out(bint ok, const double* out, Py_ssize_t i, unsigned char* hit,
                          floating* t, floating* point, floating* normal) noexcept nogil:
    # row i of a RayHitArray: out = (t, point, normal) of a hit, or no hit
    hit[i] = ok
    if ok:
        t[i] = <floating>out[0]
        point[2 * i] = <floating>out[1]
        point[2 * i + 1] = <floating>out[2]
        normal[2 * i] = <floating>out[3]
        normal[2 * i + 1] = <floating>out[4]
    else:
        t[i] = <floating>INFINITY
        point[2 * i] = point[2 * i + 1] = normal[2 * i] = normal[2 * i + 1] = 0.0


cdef inline bint _ray_of(Py_ssize_t i, const double* org, Py_ssize_t so,
                         const double* dirs, Py_ssize_t sd, const double* lim,
                         Py_ssize_t sl, double* r) noexcept nogil:
    # r (OUT): row i's origin, direction and max_t (so, sd, sl: their row strides, 0
    # for one value standing for every row); whether the row is a ray: finite, a
    # direction that is not zero, max_t >= 0 (not NaN)
    r[0] = org[i * so]
    r[1] = org[i * so + 1]
    r[2] = dirs[i * sd]
    r[3] = dirs[i * sd + 1]
    r[4] = lim[i * sl]
    return (_finite2(r[0], r[1]) and _finite2(r[2], r[3])
            and not (r[2] == 0.0 and r[3] == 0.0) and r[4] >= 0.0)


cdef void _ray_loop(Side* a, const floating* da, const double* org, Py_ssize_t so,
                    const double* dirs, Py_ssize_t sd, const double* lim, Py_ssize_t sl,
                    Py_ssize_t start, Py_ssize_t stop, unsigned char* hit, floating* t,
                    floating* point, floating* normal) noexcept nogil:
    # rows start..stop of raycast; so, sd, sl: the row strides of the origins,
    # directions and limits (0 for one value standing for every row)
    cdef Py_ssize_t i
    cdef double r[5]
    cdef double out[5]
    for i in range(start, stop):
        # a row that is no ray or no shape has no hit
        _ray_out(_ray_of(i, org, so, dirs, sd, lim, sl, r)
                 and (a.fixed or load_row(a, da + i * a.width, i))
                 and raycast_view(&a.view, r[0], r[1], r[2], r[3], r[4], out), out, i,
                 hit, t, point, normal)


cdef void _ray_rows(int kind, const floating* da, const double* org, Py_ssize_t so,
                    const double* dirs, Py_ssize_t sd, const double* lim, Py_ssize_t sl,
                    Py_ssize_t start, Py_ssize_t stop, unsigned char* hit, floating* t,
                    floating* point, floating* normal) noexcept nogil:
    # _ray_loop over an array of circles or AABBs: raycast_view's frame-free path
    # (ray_unframed), on the row read in place
    cdef Py_ssize_t i, k
    cdef bint circle = kind == CIRCLE
    cdef Py_ssize_t width = 3 if circle else 4
    cdef double r[5]
    cdef double f[4]
    cdef double out[5]
    cdef bint ok
    f[3] = 0.0
    for i in range(start, stop):
        for k in range(width):
            f[k] = da[i * width + k]
        # a ray, and load_row's rule: finite, and a radius >= 0 or lower corner <=
        # upper corner
        ok = (_ray_of(i, org, so, dirs, sd, lim, sl, r) and _finite2(f[0], f[1])
              and _finite2(f[2], f[3])
              and (f[2] >= 0.0 if circle else (f[0] <= f[2] and f[1] <= f[3]))
              and ray_unframed(circle, r[0], r[1], r[2], r[3], f, r[4], out))
        _ray_out(ok, out, i, hit, t, point, normal)


# the lanes' range: direction components and coordinates whose products neither
# overflow nor lose the direction in _scaled (which keeps it exactly: the components
# span under 1126 bits), and times whose scaling by the direction's 2**-e stays normal,
# so that (uin - pu) / du is the double _ray_hit makes of the scaled quotient
cdef double _RAY_LEAST = 2.0 ** -500
cdef double _RAY_MOST = 2.0 ** 500
cdef double _T_LEAST = 2.0 ** -400
cdef double _T_MOST = 2.0 ** 400


cdef inline fc_m2 _is_ray(const fc_v2* p, const fc_v2* d, fc_v2 limit) noexcept nogil:
    # whether each lane's row is a ray, _ray_of's rule: finite, a direction that is
    # not zero, max_t >= 0 (not NaN)
    cdef fc_v2 zero = fc_splat(0.0)
    cdef fc_v2 f[4]
    f[0] = p[0]
    f[1] = p[1]
    f[2] = d[0]
    f[3] = d[1]
    return fc_and(_finite(f, 4), fc_andnot(fc_and(fc_eq(d[0], zero), fc_eq(d[1], zero)),
                                           fc_le(zero, limit)))


cdef inline int _ray_box_lanes(const fc_v2* p, const fc_v2* d, fc_v2 limit,
                               const fc_v2* b, fc_v2* out) noexcept nogil:
    # raycast_view of two rays (origin p, direction d, max_t) at two AABBs b = (x0,
    # y0, x1, y1), in lanes, as ray_unframed decides: out (OUT) = (hit mask as 0.0 or
    # not, t, point x, point y, normal x, normal y) in each lane (t inf and zeros for
    # no hit).  Returns the lanes decided (bit k for lane k): rows that are no ray or no
    # box, an origin inside, slab_quick's misses, and slab_entry's rays off both axes
    # whose two corner signs clear ray_bound (the exact signs, so the same face; t from
    # the unscaled direction, the same double within the range above).  Undecided:
    # axis-parallel rays, corners within the bound, a face of zero length, the ends of
    # the range
    cdef fc_v2 zero = fc_splat(0.0)
    cdef fc_v2 one = fc_splat(1.0)
    cdef fc_v2 px = p[0]
    cdef fc_v2 py = p[1]
    cdef fc_v2 dx = d[0]
    cdef fc_v2 dy = d[1]
    cdef fc_m2 ok, inside, miss, general, upos, vpos, on_u, through, hit, undecided
    cdef fc_v2 uin, uout, vin, vout, su, sv, size, bound, c1, c2, cu, cv, num, t, nx, ny
    # a ray and a box (finite, min <= max)
    ok = fc_and(_is_ray(p, d, limit),
                fc_and(_finite(b, 4), fc_and(fc_le(b[0], b[2]), fc_le(b[1], b[3]))))
    inside = fc_and(fc_and(fc_le(b[0], px), fc_le(px, b[2])),
                    fc_and(fc_le(b[1], py), fc_le(py, b[3])))
    # slab_quick: outside a slab and not heading into it
    miss = fc_or(fc_or(fc_and(fc_lt(b[2], px), fc_le(zero, dx)),
                       fc_and(fc_lt(px, b[0]), fc_le(dx, zero))),
                 fc_or(fc_and(fc_lt(b[3], py), fc_le(zero, dy)),
                       fc_and(fc_lt(py, b[1]), fc_le(dy, zero))))
    general = fc_andnot(fc_or(inside, miss), ok)
    # slab_entry: the entering and exiting sides of each slab
    upos = fc_lt(zero, dx)
    vpos = fc_lt(zero, dy)
    uin = fc_select(upos, b[0], b[2])
    uout = fc_select(upos, b[2], b[0])
    vin = fc_select(vpos, b[1], b[3])
    vout = fc_select(vpos, b[3], b[1])
    su = fc_select(upos, one, fc_splat(-1.0))
    sv = fc_select(vpos, one, fc_splat(-1.0))
    size = fc_max(fc_max(fc_max(fc_abs(px), fc_abs(py)), fc_max(fc_abs(b[0]), fc_abs(b[2]))),
                  fc_max(fc_abs(b[1]), fc_abs(b[3])))
    bound = fc_add(fc_mul(fc_mul(fc_splat(1e-15), fc_add(fc_abs(dx), fc_abs(dy))), size),
                   fc_splat(1.6e-322))
    # the corner (uin, vin): tu - tv has the sign of -S su sv
    c1 = fc_mul(fc_mul(fc_sub(fc_mul(dx, fc_sub(vin, py)), fc_mul(dy, fc_sub(uin, px))),
                       su), sv)
    on_u = fc_lt(c1, zero)
    # the corner that bounds the entering face: (uin, vout) or (uout, vin)
    cu = fc_select(on_u, uin, uout)
    cv = fc_select(on_u, vout, vin)
    c2 = fc_mul(fc_mul(fc_sub(fc_mul(dx, fc_sub(cv, py)), fc_mul(dy, fc_sub(cu, px))), su),
                sv)
    through = fc_or(fc_and(on_u, fc_lt(zero, c2)), fc_andnot(on_u, fc_lt(c2, zero)))
    num = fc_select(on_u, fc_sub(uin, px), fc_sub(vin, py))
    t = fc_div(num, fc_select(on_u, dx, dy))
    # ahead (num * the slab's sign > 0), and through the face
    hit = fc_and(fc_lt(zero, fc_mul(num, fc_select(on_u, su, sv))), through)
    undecided = fc_or(fc_or(fc_or(fc_eq(dx, zero), fc_eq(dy, zero)),
                            fc_or(fc_le(fc_abs(c1), bound), fc_le(fc_abs(c2), bound))),
                      fc_or(fc_lt(fc_min(fc_abs(dx), fc_abs(dy)), fc_splat(_RAY_LEAST)),
                            fc_lt(fc_splat(_RAY_MOST), fc_max(size, fc_max(fc_abs(dx),
                                                                           fc_abs(dy))))))
    undecided = fc_or(undecided, fc_and(hit, fc_or(
        fc_or(fc_lt(t, fc_splat(_T_LEAST)), fc_lt(fc_splat(_T_MOST), t)),
        fc_eq(fc_select(on_u, fc_sub(b[3], b[1]), fc_sub(b[2], b[0])), zero))))
    hit = fc_and(fc_and(general, hit), fc_le(t, limit))
    # the face's outward normal: (-su, 0) or (0, -sv)
    nx = fc_select(on_u, fc_sub(zero, su), zero)
    ny = fc_select(on_u, zero, fc_sub(zero, sv))
    out[1] = fc_select(hit, t, fc_select(fc_and(ok, inside), zero, fc_splat(INFINITY)))
    out[2] = fc_select(hit, fc_add(px, fc_mul(t, dx)), fc_select(fc_and(ok, inside), px, zero))
    out[3] = fc_select(hit, fc_add(py, fc_mul(t, dy)), fc_select(fc_and(ok, inside), py, zero))
    out[4] = fc_select(hit, nx, zero)
    out[5] = fc_select(hit, ny, zero)
    out[0] = fc_select(fc_or(hit, fc_and(ok, inside)), one, zero)
    return 3 & ~fc_bits(fc_and(general, undecided))


# the circle lanes' range: each of p - c and d zero or within 2**-300..2**300, r
# within it, |d| within 2**-100..2**100 (so _scaled's e within -153..101); then every
# product and square, scaled or not, is normal, and so are the two below where checked
cdef double _ROUND_LEAST = 2.0 ** -300
cdef double _ROUND_MOST = 2.0 ** 300
cdef double _DIR_LEAST = 2.0 ** -100
cdef double _DIR_MOST = 2.0 ** 100


cdef inline fc_m2 _zero_or_within(fc_v2 x, double least, double most) noexcept nogil:
    cdef fc_v2 a = fc_abs(x)
    return fc_or(fc_eq(a, fc_splat(0.0)),
                 fc_and(fc_le(fc_splat(least), a), fc_le(a, fc_splat(most))))


cdef inline int _ray_circle_lanes(const fc_v2* p, const fc_v2* d, fc_v2 limit,
                                  const fc_v2* c, fc_v2* out) noexcept nogil:
    # raycast_view of two rays at two circles c = (x, y, r), in lanes, as ray_unframed
    # decides (ray_disc, ray_circle, _ray_hit); out (OUT) as _ray_box_lanes gives it.
    # The scalar kernel scales the direction by 2**-e first (_scaled); within the range
    # above each of b, h, L, r L, the half chord's square and t scales by the same
    # power of two exactly and t d, the normal and the point do not change, so the
    # unscaled direction gives the same doubles.  Returns the lanes decided: no ray or
    # no circle, inside (where the squares decide: _roots_within), heading away,
    # passing by, and hits whose chord square and t are zero or within 2**-700..2**700
    # and 2**-800..2**800 and whose hit point is not the centre.  Undecided: a point
    # (r == 0), the range's ends
    cdef fc_v2 zero = fc_splat(0.0)
    cdef fc_v2 px = p[0]
    cdef fc_v2 py = p[1]
    cdef fc_v2 dx = d[0]
    cdef fc_v2 dy = d[1]
    cdef fc_v2 r = c[2]
    cdef fc_v2 mx = fc_sub(px, c[0])
    cdef fc_v2 my = fc_sub(py, c[1])
    cdef fc_m2 ok, inside, sure, inrange, hit, undecided
    cdef fc_v2 m2, b, L, h, rl, sq, t, hx, hy, hl, big
    # a ray and a circle (finite, r >= 0)
    ok = fc_and(_is_ray(p, d, limit), fc_and(_finite(c, 3), fc_le(zero, r)))
    # ray_disc: the origin within r (dist2 squares c - p, the same squares)
    m2 = fc_add(fc_mul(mx, mx), fc_mul(my, my))
    inside = _roots_within(m2, r, &sure)
    big = fc_max(fc_abs(dx), fc_abs(dy))
    inrange = fc_and(fc_and(fc_and(_zero_or_within(mx, _ROUND_LEAST, _ROUND_MOST),
                                   _zero_or_within(my, _ROUND_LEAST, _ROUND_MOST)),
                            fc_and(_zero_or_within(dx, _ROUND_LEAST, _ROUND_MOST),
                                   _zero_or_within(dy, _ROUND_LEAST, _ROUND_MOST))),
                     fc_and(fc_and(fc_le(fc_splat(_ROUND_LEAST), r),
                                   fc_le(r, fc_splat(_ROUND_MOST))),
                            fc_and(fc_le(fc_splat(_DIR_LEAST), big),
                                   fc_le(big, fc_splat(_DIR_MOST)))))
    # ray_circle and _circle_t: heading away, or passing by (h > r L), is a miss
    b = fc_add(fc_mul(mx, dx), fc_mul(my, dy))
    L = fc_sqrt(fc_add(fc_mul(dx, dx), fc_mul(dy, dy)))
    h = fc_abs(fc_sub(fc_mul(mx, dy), fc_mul(my, dx)))
    rl = fc_mul(r, L)
    hit = fc_and(fc_andnot(inside, ok), fc_and(fc_lt(b, zero), fc_le(h, rl)))
    # (a point, r == 0, is among the lanes the squares leave to the roots)
    undecided = fc_andnot(fc_and(sure, inrange), fc_eq(zero, zero))
    inside = fc_and(ok, inside)
    out[0] = fc_select(inside, fc_splat(1.0), zero)
    out[1] = fc_select(inside, zero, fc_splat(INFINITY))
    out[2] = fc_select(inside, px, zero)
    out[3] = fc_select(inside, py, zero)
    out[4] = zero
    out[5] = zero
    if fc_bits(hit):
        # the near root as a quotient of positive terms; c0 < 0 (inside by the
        # squares) is 0
        sq = fc_mul(fc_sub(rl, h), fc_add(rl, h))
        t = fc_sub(m2, fc_mul(r, r))
        t = fc_div(fc_select(fc_lt(t, zero), zero, t), fc_sub(fc_sqrt(sq), b))
        hx = fc_add(mx, fc_mul(t, dx))
        hy = fc_add(my, fc_mul(t, dy))
        hl = fc_sqrt(fc_add(fc_mul(hx, hx), fc_mul(hy, hy)))
        # a hit point at the centre takes the end-on rule: left to the scalar kernel
        undecided = fc_or(undecided, fc_and(hit, fc_or(
            fc_eq(hl, zero), fc_andnot(fc_and(_zero_or_within(sq, 2.0 ** -700, 2.0 ** 700),
                                              _zero_or_within(t, 2.0 ** -800, 2.0 ** 800)),
                                       fc_eq(zero, zero)))))
        hit = fc_and(hit, fc_le(t, limit))
        out[0] = fc_select(hit, fc_splat(1.0), out[0])
        out[1] = fc_select(hit, fc_add(t, zero), out[1])
        out[2] = fc_select(hit, fc_add(px, fc_mul(t, dx)), out[2])
        out[3] = fc_select(hit, fc_add(py, fc_mul(t, dy)), out[3])
        out[4] = fc_select(hit, fc_div(hx, hl), zero)
        out[5] = fc_select(hit, fc_div(hy, hl), zero)
    return 3 & ~fc_bits(fc_and(ok, undecided))


cdef void _ray_lane_rows(int kind, const floating* da, const double* org, Py_ssize_t so,
                         const double* dirs, Py_ssize_t sd, const double* lim,
                         Py_ssize_t sl, Py_ssize_t start, Py_ssize_t stop,
                         unsigned char* hit, floating* t, floating* point,
                         floating* normal) noexcept nogil:
    # _ray_rows over an array of circles or AABBs, two rows at a time
    # (_ray_circle_lanes, _ray_box_lanes); the pairs of rows the lanes leave undecided
    # are listed and cast by _ray_rows after the round
    cdef Py_ssize_t i = start
    cdef Py_ssize_t j, end
    cdef Py_ssize_t m = 0
    cdef Py_ssize_t undecided[PAIRS]
    cdef bint two
    cdef int bits
    cdef fc_v2 p[2]
    cdef fc_v2 d[2]
    cdef fc_v2 lm[1]
    cdef fc_v2 b[4]
    cdef fc_v2 out[6]
    while i < stop:
        end = min(i + ROUND, stop)
        m = 0
        while i < end:
            two = i + 2 <= stop
            fc_rows(org + i * so, 2, so if two else 0, p)
            fc_rows(dirs + i * sd, 2, sd if two else 0, d)
            fc_rows(lim + i * sl, 1, sl if two else 0, lm)
            undecided[m] = i
            if kind == CIRCLE:
                _row_fields(da, i, 3, two, b)
                m += _ray_circle_lanes(p, d, lm[0], b, out) != 3
            else:
                _row_fields(da, i, 4, two, b)
                m += _ray_box_lanes(p, d, lm[0], b, out) != 3
            bits = fc_bits(fc_lt(fc_splat(0.0), out[0]))
            hit[i] = bits & 1
            if two:
                hit[i + 1] = bits >> 1
                if floating is double:
                    fc_store(t + i, out[1])
                    fc_store_xy(point + 2 * i, out[2], out[3])
                    fc_store_xy(normal + 2 * i, out[4], out[5])
                else:
                    fc_store_f(t + i, out[1])
                    fc_store_xy_f(point + 2 * i, out[2], out[3])
                    fc_store_xy_f(normal + 2 * i, out[4], out[5])
            else:
                _store_first(t, i, out[1])
                _store_first(point, 2 * i, out[2])
                _store_first(point, 2 * i + 1, out[3])
                _store_first(normal, 2 * i, out[4])
                _store_first(normal, 2 * i + 1, out[5])
            i += 2
        for j in range(m):
            _ray_rows(kind, da, org, so, dirs, sd, lim, sl, undecided[j],
                      min(undecided[j] + 2, stop), hit, t, point, normal)
        i = end


cdef void _sweep_loop(Side* a, Side* b, const floating* da, const floating* db,
                      const double* va, Py_ssize_t sa, const double* vb, Py_ssize_t sb,
                      const double* lim, Py_ssize_t sl, Py_ssize_t start, Py_ssize_t stop,
                      floating* res) noexcept nogil:
    # rows start..stop of time_of_impact: the time, or NaN for none (and for a row
    # that is no shape, a velocity that is not finite, max_t < 0 or NaN)
    cdef Py_ssize_t i
    cdef double vax, vay, vbx, vby, limit, toi
    cdef bint ok
    for i in range(start, stop):
        vax = va[i * sa]
        vay = va[i * sa + 1]
        vbx = vb[i * sb]
        vby = vb[i * sb + 1]
        limit = lim[i * sl]
        ok = a.fixed or load_row(a, da + i * a.width, i)
        ok = (b.fixed or load_row(b, db + i * b.width, i)) and ok
        toi = -1.0
        if ok and _finite2(vax, vay) and _finite2(vbx, vby) and limit >= 0.0:
            toi = toi_views(&a.view, vax, vay, &b.view, vbx, vby, limit)
        res[i] = <floating>(NAN if toi < 0.0 else toi)


cdef void _cast_loop(Side* a, Side* b, const floating* da, const floating* db,
                     const double* va, Py_ssize_t sa, const double* vb, Py_ssize_t sb,
                     const double* lim, Py_ssize_t sl, Py_ssize_t start, Py_ssize_t stop,
                     unsigned char* hit, floating* t, floating* point,
                     floating* normal) noexcept nogil:
    # rows start..stop of shape_cast: _sweep_loop's rows, a CastHitArray's fields
    cdef Py_ssize_t i
    cdef double vax, vay, vbx, vby, limit
    cdef double out[5]
    cdef bint ok
    for i in range(start, stop):
        vax = va[i * sa]
        vay = va[i * sa + 1]
        vbx = vb[i * sb]
        vby = vb[i * sb + 1]
        limit = lim[i * sl]
        ok = a.fixed or load_row(a, da + i * a.width, i)
        ok = (b.fixed or load_row(b, db + i * b.width, i)) and ok
        _ray_out(ok and _finite2(vax, vay) and _finite2(vbx, vby) and limit >= 0.0
                 and cast_views(&a.view, vax, vay, &b.view, vbx, vby, limit, out),
                 out, i, hit, t, point, normal)


cdef class Buffers:
    # a call's arrays, held until the end: two per polygon operand (vertices and
    # counts), one per other operand, and the outputs; a batch primitive holds up to
    # four point arrays and five outputs

    cdef void* address(self, object arr, bint writable) except NULL:
        # the memory of a C-contiguous array, held by this object (never NULL)
        cdef Py_buffer* view
        cdef Py_buffer* grown
        if self.held < MAX_BUFFERS:
            view = &self.buffers[self.held]
        else:
            if self.held - MAX_BUFFERS == self.room:
                grown = <Py_buffer*>realloc(self.more, (2 * self.room + 8) * sizeof(Py_buffer))
                if grown == NULL:
                    raise MemoryError()
                self.more = grown
                self.room = 2 * self.room + 8
            view = &self.more[self.held - MAX_BUFFERS]
        PyObject_GetBuffer(arr, view, PyBUF_ANY_CONTIGUOUS | (PyBUF_WRITABLE if writable else 0))
        self.held += 1
        return view.buf if view.buf != NULL else <void*>view

    def __dealloc__(self):
        cdef int k
        for k in range(self.held):
            PyBuffer_Release(&self.buffers[k] if k < MAX_BUFFERS else &self.more[k - MAX_BUFFERS])
        free(self.more)


cdef const void* array_side(Buffers held, Side* s, object x, object dtype) except NULL:
    # fills s from a shape array (rows read by load_row); returns the memory of its
    # rows, converted to dtype if needed and held by held.  A dtype equal to dtype but
    # not the same object (an array from pickle or np.load) is not converted: the
    # identity test is the quick answer, == the exact one
    cdef object rows
    s.fixed = False
    s.kind = x.kind
    s.view.kind = s.kind
    s.counts = NULL
    s.index = NULL
    if s.kind == POLYGON:
        rows = x.vertices
        if rows.dtype is not dtype and rows.dtype != dtype:
            rows = rows.astype(dtype)
        s.capacity = rows.shape[1]
        s.width = 2 * s.capacity
        s.counts = <const long long*>held.address(x.counts, False)
    else:
        rows = x.data
        if rows.dtype is not dtype and rows.dtype != dtype:
            rows = rows.astype(dtype)
        s.width = rows.shape[1]
        s.capacity = 0
    return held.address(rows, False)


cdef struct JobRows:
    # one batch query: its operands and outputs (a _Job's, read without the GIL)
    int query
    Side a, b
    bint f32
    const void* da
    const void* db
    unsigned char* hit
    void* dist
    void* pa
    void* pb
    long long* count
    # rays and sweeps: origins and directions (or the two velocities) and max_t, as
    # float64 rows; a step of 0 for one value standing for every row
    const double* vec[2]
    Py_ssize_t vstep[2]
    const double* lim
    Py_ssize_t lstep
    bint failed             # a block found no memory for its polygon scratch


cdef void _job_rows(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # rows start..stop of a batch query (a pool block, or the whole call)
    cdef JobRows* r = <JobRows*>ctx
    # each block has its own copy of the sides, and its own polygon scratch
    cdef Side a = r.a
    cdef Side b = r.b
    cdef bint failed = False
    a.xs = a.ys = b.xs = b.ys = NULL
    if not a.fixed and a.kind == POLYGON:
        a.xs = <double*>malloc(2 * a.capacity * sizeof(double))
        a.ys = a.xs + a.capacity
        failed = a.xs == NULL
    if not b.fixed and b.kind == POLYGON:
        b.xs = <double*>malloc(2 * b.capacity * sizeof(double))
        b.ys = b.xs + b.capacity
        failed = failed or b.xs == NULL
    if failed:
        r.failed = True
    elif r.query == CONTACT:
        if r.f32:
            _contact_loop[float](&a, &b, <const float*>r.da, <const float*>r.db,
                                 start, stop, r.hit, <float*>r.dist,
                                 <float*>r.pa, <float*>r.pb, r.count)
        else:
            _contact_loop[double](&a, &b, <const double*>r.da,
                                  <const double*>r.db, start, stop, r.hit,
                                  <double*>r.dist, <double*>r.pa,
                                  <double*>r.pb, r.count)
    elif r.query == RAYCAST and not a.fixed and (a.kind == CIRCLE or a.kind == AABB_KIND):
        if r.f32:
            _ray_lane_rows[float](a.kind, <const float*>r.da, r.vec[0], r.vstep[0],
                                  r.vec[1], r.vstep[1], r.lim, r.lstep, start, stop,
                                  r.hit, <float*>r.dist, <float*>r.pa, <float*>r.pb)
        else:
            _ray_lane_rows[double](a.kind, <const double*>r.da, r.vec[0], r.vstep[0],
                                   r.vec[1], r.vstep[1], r.lim, r.lstep, start, stop,
                                   r.hit, <double*>r.dist, <double*>r.pa, <double*>r.pb)
    elif r.query == RAYCAST:
        if r.f32:
            _ray_loop[float](&a, <const float*>r.da, r.vec[0], r.vstep[0],
                             r.vec[1], r.vstep[1], r.lim, r.lstep,
                             start, stop, r.hit, <float*>r.dist,
                             <float*>r.pa, <float*>r.pb)
        else:
            _ray_loop[double](&a, <const double*>r.da, r.vec[0], r.vstep[0],
                              r.vec[1], r.vstep[1], r.lim, r.lstep,
                              start, stop, r.hit, <double*>r.dist,
                              <double*>r.pa, <double*>r.pb)
    elif r.query == SWEEP:
        if r.f32:
            _sweep_loop[float](&a, &b, <const float*>r.da, <const float*>r.db,
                               r.vec[0], r.vstep[0], r.vec[1],
                               r.vstep[1], r.lim, r.lstep, start, stop,
                               <float*>r.dist)
        else:
            _sweep_loop[double](&a, &b, <const double*>r.da,
                                <const double*>r.db, r.vec[0], r.vstep[0],
                                r.vec[1], r.vstep[1], r.lim, r.lstep,
                                start, stop, <double*>r.dist)
    elif r.query == CAST:
        if r.f32:
            _cast_loop[float](&a, &b, <const float*>r.da, <const float*>r.db,
                              r.vec[0], r.vstep[0], r.vec[1], r.vstep[1], r.lim,
                              r.lstep, start, stop, r.hit, <float*>r.dist,
                              <float*>r.pa, <float*>r.pb)
        else:
            _cast_loop[double](&a, &b, <const double*>r.da, <const double*>r.db,
                               r.vec[0], r.vstep[0], r.vec[1], r.vstep[1], r.lim,
                               r.lstep, start, stop, r.hit, <double*>r.dist,
                               <double*>r.pa, <double*>r.pb)
    elif r.query == COLLIDE:
        if r.f32:
            _collide_rows[float](&a, &b, <const float*>r.da,
                                 <const float*>r.db, start, stop, r.hit)
        else:
            _collide_rows[double](&a, &b, <const double*>r.da,
                                  <const double*>r.db, start, stop, r.hit)
    elif a.kind == CIRCLE and b.kind == CIRCLE and r.query == DISTANCE:
        if r.f32:
            _circles_distance[float](&a, &b, <const float*>r.da,
                                     <const float*>r.db, start, stop,
                                     <float*>r.dist)
        else:
            _circles_distance[double](&a, &b, <const double*>r.da,
                                      <const double*>r.db, start, stop,
                                      <double*>r.dist)
    elif r.query == DISTANCE and ((a.kind == CIRCLE and b.kind == AABB_KIND)
                                  or (a.kind == AABB_KIND and b.kind == CIRCLE)):
        if r.f32:
            _circle_box_rows[float](DISTANCE, &a, &b, <const float*>r.da,
                                    <const float*>r.db, start, stop, NULL, <float*>r.dist)
        else:
            _circle_box_rows[double](DISTANCE, &a, &b, <const double*>r.da,
                                     <const double*>r.db, start, stop, NULL,
                                     <double*>r.dist)
    elif (r.query == DISTANCE and not (a.fixed or b.fixed) and a.kind != CIRCLE
          and b.kind != CIRCLE and a.kind <= SEGMENT and b.kind <= SEGMENT):
        if r.f32:
            _cores_distance[float](&a, &b, <const float*>r.da, <const float*>r.db,
                                   start, stop, <float*>r.dist)
        else:
            _cores_distance[double](&a, &b, <const double*>r.da, <const double*>r.db,
                                    start, stop, <double*>r.dist)
    elif a.kind <= SEGMENT and b.kind <= SEGMENT:
        if r.f32:
            _round_loop[float](r.query, &a, &b, <const float*>r.da,
                               <const float*>r.db, start, stop, r.hit,
                               <float*>r.dist, <float*>r.pa, <float*>r.pb)
        else:
            _round_loop[double](r.query, &a, &b, <const double*>r.da,
                                <const double*>r.db, start, stop, r.hit,
                                <double*>r.dist, <double*>r.pa,
                                <double*>r.pb)
    else:
        if r.f32:
            _loop[float](r.query, &a, &b, <const float*>r.da,
                         <const float*>r.db, start, stop, r.hit,
                         <float*>r.dist, <float*>r.pa, <float*>r.pb)
        else:
            _loop[double](r.query, &a, &b, <const double*>r.da,
                          <const double*>r.db, start, stop, r.hit,
                          <double*>r.dist, <double*>r.pa, <double*>r.pb)
    free(a.xs)
    free(b.xs)


cdef class _Job(Buffers):
    # one batch query: its operands and outputs, run over blocks of rows
    cdef JobRows r


cdef const void* _side(_Job job, Side* s, object x, object dtype) except NULL:
    # fills s from an operand; returns the memory of its rows (or any non-NULL
    # address for a shape, which has no rows)
    if isinstance(x, Shape):
        s.counts = NULL
        s.index = NULL
        s.fixed = True
        s.kind = (<Shape>x).kind
        view_of(<Shape>x, &s.view)
        return <const void*>s
    return array_side(job, s, x, dtype)


cdef _Job _job(int query, object a, object b, object dtype):
    cdef _Job job = _Job.__new__(_Job)
    job.r.query = query
    job.r.f32 = dtype.itemsize == 4
    job.r.da = _side(job, &job.r.a, a, dtype)
    job.r.db = _side(job, &job.r.b, b, dtype)
    return job


cdef object _BOOL = np.dtype(bool)


# the fewest rows of a pool block, by query: a block should take microseconds (a
# contact row takes 60-400 ns, a collide of circles a few)
cdef Py_ssize_t[7] _GRAIN = [1024, 1024, 256, 64, 128, 64, 64]


cdef inline void _start(_Job job, Py_ssize_t n, object workers) except *:
    # the rows here (one worker), or in blocks over the pool's threads
    cdef int slots = 1 if workers is 1 else slots_for(_batch.check_workers(workers))
    job.r.failed = False
    run_rows(_job_rows, &job.r, n, _GRAIN[job.r.query], slots)
    if job.r.failed:
        raise MemoryError("no memory for the polygon scratch buffers")


def collide(a, b, out, workers):
    """``bool[N]``, row by row (see fastcol._ref.batch.collide)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype = _batch.pair(a, b, Shape)
    res = np.empty(n, dtype=_BOOL) if out is None else _batch.check_out(out, n, _BOOL)
    cdef _Job job = _job(COLLIDE, a, b, dtype)
    job.r.hit = <unsigned char*>job.address(res, True)
    _start(job, n, workers)
    return res


def distance(a, b, out, workers):
    """``float[N]``, row by row (see fastcol._ref.batch.distance)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype = _batch.pair(a, b, Shape)
    res = np.empty(n, dtype=dtype) if out is None else _batch.check_out(out, n, dtype)
    cdef _Job job = _job(DISTANCE, a, b, dtype)
    job.r.dist = job.address(res, True)
    _start(job, n, workers)
    return res


def closest_points(a, b, workers):
    """``(point_a[N, 2], point_b[N, 2], distance[N])`` (see fastcol._ref.batch)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype = _batch.pair(a, b, Shape)
    pa = np.empty((n, 2), dtype=dtype)
    pb = np.empty((n, 2), dtype=dtype)
    d = np.empty(n, dtype=dtype)
    cdef _Job job = _job(CLOSEST, a, b, dtype)
    job.r.dist = job.address(d, True)
    job.r.pa = job.address(pa, True)
    job.r.pb = job.address(pb, True)
    _start(job, n, workers)
    return pa, pb, d




cdef Py_ssize_t _first_out_of_range(const long long* p, Py_ssize_t m, long long na,
                                    long long nb) noexcept nogil:
    # the first of m pairs (i, j) with i outside 0..na-1 or j outside 0..nb-1, or -1
    # (_batch.first_pair_out_of_range's answer, a loop instead of four NumPy passes)
    cdef Py_ssize_t k
    for k in range(m):
        if not (0 <= p[2 * k] < na and 0 <= p[2 * k + 1] < nb):
            return k
    return -1


def contact(a, b, workers, pairs=None):
    """``ContactArray`` row by row (see fastcol._ref.batch.contact)."""
    cdef const long long* index = NULL
    cdef Py_ssize_t k
    if workers is not 1:
        _batch.check_workers(workers)
    if pairs is None:
        n, dtype = _batch.pair(a, b, Shape)
    else:
        # the call's own copy, checked below: another thread may write the caller's
        # pairs while the kernel runs without the GIL (a copy costs less than a check
        # per row)
        pairs, dtype = _batch.index_pairs(a, b, pairs, Shape)
        n = pairs.shape[0]
    hit = np.empty(n, dtype=_BOOL)
    normal = np.empty((n, 2), dtype=dtype)
    depth = np.empty(n, dtype=dtype)
    points = np.empty((n, 2, 2), dtype=dtype)
    count = np.empty(n, dtype=np.int64)
    cdef _Job job = _job(CONTACT, a, b, dtype)
    if pairs is not None:
        index = <const long long*>job.address(pairs, False)
        k = _first_out_of_range(index, n, len(a), len(b))
        if k >= 0:
            raise _batch.pairs_range_error(k, pairs, len(a), len(b))
        job.r.a.index = index
        job.r.b.index = index + 1
    job.r.hit = <unsigned char*>job.address(hit, True)
    job.r.dist = job.address(depth, True)
    job.r.pa = job.address(normal, True)
    job.r.pb = job.address(points, True)
    job.r.count = <long long*>job.address(count, True)
    _start(job, n, workers)
    return _batch.ContactArray(hit, normal, depth, points, count)


cdef void _rows(_Job job, int k, object arr) except *:
    # vector argument k (origins, directions or velocities): float64 (N, 2) or (1, 2)
    job.r.vec[k] = <const double*>job.address(arr, False)
    job.r.vstep[k] = 0 if arr.shape[0] == 1 else 2


cdef void _limits(_Job job, object arr) except *:
    job.r.lim = <const double*>job.address(arr, False)
    job.r.lstep = 0 if arr.shape[0] == 1 else 1


def raycast(shape, origins, directions, max_t, workers):
    """``RayHitArray`` row by row (see fastcol._ref.batch.raycast)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype, o, d, lim = _batch.ray_args(shape, origins, directions, max_t, Shape)
    hit = np.empty(n, dtype=_BOOL)
    t = np.empty(n, dtype=dtype)
    point = np.empty((n, 2), dtype=dtype)
    normal = np.empty((n, 2), dtype=dtype)
    cdef _Job job = _Job.__new__(_Job)
    job.r.query = RAYCAST
    job.r.f32 = dtype.itemsize == 4
    job.r.da = _side(job, &job.r.a, shape, dtype)
    # no second shape: a fixed side that allocates nothing
    job.r.b.fixed = True
    job.r.b.kind = CIRCLE
    job.r.db = NULL
    _rows(job, 0, o)
    _rows(job, 1, d)
    _limits(job, lim)
    job.r.hit = <unsigned char*>job.address(hit, True)
    job.r.dist = job.address(t, True)
    job.r.pa = job.address(point, True)
    job.r.pb = job.address(normal, True)
    _start(job, n, workers)
    return _batch.RayHitArray(hit, t, point, normal)


def time_of_impact(a, velocity_a, b, velocity_b, max_t, workers):
    """``float[N]`` row by row, NaN for no impact (see fastcol._ref.batch)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype, va, vb, lim = _batch.sweep_args(a, velocity_a, b, velocity_b, max_t, Shape)
    res = np.empty(n, dtype=dtype)
    cdef _Job job = _job(SWEEP, a, b, dtype)
    _rows(job, 0, va)
    _rows(job, 1, vb)
    _limits(job, lim)
    job.r.dist = job.address(res, True)
    _start(job, n, workers)
    return res


def shape_cast(a, velocity_a, b, velocity_b, max_t, workers):
    """``CastHitArray`` row by row (see fastcol._ref.batch.shape_cast)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype, va, vb, lim = _batch.sweep_args(a, velocity_a, b, velocity_b, max_t, Shape)
    hit = np.empty(n, dtype=_BOOL)
    t = np.empty(n, dtype=dtype)
    point = np.empty((n, 2), dtype=dtype)
    normal = np.empty((n, 2), dtype=dtype)
    cdef _Job job = _job(CAST, a, b, dtype)
    _rows(job, 0, va)
    _rows(job, 1, vb)
    _limits(job, lim)
    job.r.hit = <unsigned char*>job.address(hit, True)
    job.r.dist = job.address(t, True)
    job.r.pa = job.address(point, True)
    job.r.pb = job.address(normal, True)
    _start(job, n, workers)
    return _batch.CastHitArray(hit, t, point, normal)

# --------------------------------------------------------------- geometry primitives

cdef enum:
    ON_SEGMENT = 0
    ON_LINE = 1
    POINT_SEGMENT = 2
    SEGMENTS_CLOSEST = 3
    SEGMENTS_DISTANCE = 4
    SEGMENTS_INTERSECT = 5
    ORIENT = 6


ctypedef struct PointArg:
    # one point argument: row i's point is at[i * step], at[i * step + 1]; step is 0
    # for a single point standing for every row, 2 for an (N, 2) array
    const double* at
    Py_ssize_t step


cdef inline double _read(PointArg arg, Py_ssize_t i, double* x, double* y) noexcept nogil:
    # x, y (OUT): the point of row i; returns 0.0, or NaN when it is NaN or inf (x - x is
    # NaN exactly for those), so a row is finite when the sum over its points is 0.0
    x[0] = arg.at[i * arg.step]
    y[0] = arg.at[i * arg.step + 1]
    return (x[0] - x[0]) + (y[0] - y[0])


cdef inline double _read3(PointArg p, PointArg a, PointArg b, Py_ssize_t i,
                          double* v) noexcept nogil:
    # v (OUT): the three points of row i as px, py, ax, ay, bx, by; returns 0.0 when
    # they are finite (as _read)
    return _read(p, i, &v[0], &v[1]) + _read(a, i, &v[2], &v[3]) + _read(b, i, &v[4], &v[5])


cdef inline double _read4(PointArg a, PointArg b, PointArg c, PointArg d, Py_ssize_t i,
                          double* v) noexcept nogil:
    # v (OUT): the four points of row i as ax, ay, bx, by, cx, cy, dx, dy; returns 0.0
    # when they are finite (as _read)
    return (_read(a, i, &v[0], &v[1]) + _read(b, i, &v[2], &v[3])
            + _read(c, i, &v[4], &v[5]) + _read(d, i, &v[6], &v[7]))


# One row of each primitive: the operations of its scalar form in geometry.pyx, in the
# same order, so a row's answer is the scalar answer to the bit.

cdef inline double _on_segment(double px, double py, double ax, double ay, double bx,
                               double by, double* point) noexcept nogil:
    # returns t; point (OUT): the point of segment ab nearest to p
    cdef double lx, ly
    cdef double t = closest_on_segment(px - ax, py - ay, 0.0, 0.0, bx - ax, by - ay,
                                       &lx, &ly)
    lift(t, ax, ay, ax, ay, bx, by, lx, ly, point)
    return t


cdef inline double _point_segment(double px, double py, double ax, double ay, double bx,
                                  double by) noexcept nogil:
    cdef double ox = exact_origin(ax, min(px, min(ax, bx)), max(px, max(ax, bx)))
    cdef double oy = exact_origin(ay, min(py, min(ay, by)), max(py, max(ay, by)))
    cdef double qx, qy, d2
    cdef double lpx = px - ox
    cdef double lpy = py - oy
    cdef double lax = ax - ox
    cdef double lay = ay - oy
    cdef double lbx = bx - ox
    cdef double lby = by - oy
    point_segment(lpx, lpy, lax, lay, lbx, lby, -1.0, &qx, &qy, &d2)
    return sqrt(d2)


cdef inline SegClosest _segments(double ax, double ay, double bx, double by, double cx,
                                 double cy, double dx, double dy, double* o) noexcept nogil:
    # segments ab and cd, with the origin o (OUT) on a where that is exact
    cdef double v[8]
    v[0] = ax
    v[1] = ay
    v[2] = bx
    v[3] = by
    v[4] = cx
    v[5] = cy
    v[6] = dx
    v[7] = dy
    return segments_local(v, o)


cdef inline void _segments_closest(double ax, double ay, double bx, double by, double cx,
                                   double cy, double dx, double dy, double* dist, double* s,
                                   double* t, double* on_ab, double* on_cd) noexcept nogil:
    # dist, s, t, on_ab, on_cd (OUT): the parts of segment_segment_closest
    cdef double o[2]
    cdef SegClosest r = _segments(ax, ay, bx, by, cx, cy, dx, dy, o)
    s[0] = r.s
    t[0] = r.t
    lift(r.s, o[0], o[1], ax, ay, bx, by, r.px, r.py, on_ab)
    if r.d2 == 0.0:
        # one point where they meet, the same on both
        dist[0] = 0.0
        on_cd[0] = on_ab[0]
        on_cd[1] = on_ab[1]
    else:
        dist[0] = sqrt(r.d2)
        lift(r.t, o[0], o[1], cx, cy, dx, dy, r.qx, r.qy, on_cd)


cdef struct PrimitiveOut:
    # the outputs of a batch primitive, each kind in the order of its layout in
    # _PRIMITIVES; the ones it does not have are NULL
    double* f[3]           # floats, (N,)
    double* p[2]           # points, (N, 2)
    unsigned char* hit     # bools, (N,)
    signed char* sign      # signs, int8 (N,)


# The row loops, one per primitive and all of one signature, so that a job picks its
# loop once, when the call is set up, instead of every row asking which primitive it
# runs.  Each loop reads its arguments' pointers and strides and its outputs once, into
# locals: the point count is fixed, and nothing is decided per row but the NaN/inf rule.
ctypedef void (*RowsLoop)(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                          const PrimitiveOut* out) noexcept nogil


cdef inline void _projection_rows(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                                  const PrimitiveOut* out, bint line) noexcept nogil:
    # the closest point on the segment, or on the line when `line`: inlined into the
    # two loops below with `line` a constant, so neither tests it per row
    cdef PointArg p = args[0], a = args[1], b = args[2]
    cdef double* point = out.p[0]
    cdef double* t = out.f[0]
    cdef Py_ssize_t i
    cdef double v[6]
    for i in range(start, stop):
        if _read3(p, a, b, i, v) == 0.0:
            if line:
                t[i] = closest_on_line(v[0], v[1], v[2], v[3], v[4], v[5], &point[2 * i],
                                       &point[2 * i + 1])
            else:
                t[i] = _on_segment(v[0], v[1], v[2], v[3], v[4], v[5], &point[2 * i])
        else:
            point[2 * i] = point[2 * i + 1] = t[i] = NAN


cdef void _on_segment_rows(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                           const PrimitiveOut* out) noexcept nogil:
    _projection_rows(args, start, stop, out, False)


cdef void _on_line_rows(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                        const PrimitiveOut* out) noexcept nogil:
    _projection_rows(args, start, stop, out, True)


cdef void _point_segment_rows(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                              const PrimitiveOut* out) noexcept nogil:
    cdef PointArg p = args[0], a = args[1], b = args[2]
    cdef double* dist = out.f[0]
    cdef Py_ssize_t i
    cdef double v[6]
    for i in range(start, stop):
        if _read3(p, a, b, i, v) == 0.0:
            dist[i] = _point_segment(v[0], v[1], v[2], v[3], v[4], v[5])
        else:
            dist[i] = NAN


cdef void _segments_closest_rows(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                                 const PrimitiveOut* out) noexcept nogil:
    cdef PointArg a = args[0], b = args[1], c = args[2], d = args[3]
    cdef double* dist = out.f[0]
    cdef double* s = out.f[1]
    cdef double* t = out.f[2]
    cdef double* on_ab = out.p[0]
    cdef double* on_cd = out.p[1]
    cdef Py_ssize_t i
    cdef double v[8]
    for i in range(start, stop):
        if _read4(a, b, c, d, i, v) == 0.0:
            _segments_closest(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], &dist[i],
                              &s[i], &t[i], &on_ab[2 * i], &on_cd[2 * i])
        else:
            dist[i] = s[i] = t[i] = NAN
            on_ab[2 * i] = on_ab[2 * i + 1] = on_cd[2 * i] = on_cd[2 * i + 1] = NAN


cdef void _segments_distance_rows(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                                  const PrimitiveOut* out) noexcept nogil:
    cdef PointArg a = args[0], b = args[1], c = args[2], d = args[3]
    cdef double* dist = out.f[0]
    cdef Py_ssize_t i
    cdef double v[8]
    cdef double d2
    cdef bint finite
    for i in range(start, stop):
        # the kernel runs on every row (on a row with NaN or inf it ends in a closed
        # form like any other): GCC reads a call under a floating-point == as cold and
        # would not inline it there
        finite = _read4(a, b, c, d, i, v) == 0.0
        d2 = segments_rows_d2(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
        dist[i] = sqrt(d2) if finite else NAN


cdef void _segments_intersect_rows(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                                   const PrimitiveOut* out) noexcept nogil:
    cdef PointArg a = args[0], b = args[1], c = args[2], d = args[3]
    cdef unsigned char* hit = out.hit
    cdef Py_ssize_t i
    cdef double v[8]
    for i in range(start, stop):
        hit[i] = (_read4(a, b, c, d, i, v) == 0.0
                  and segments_rows_d2(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
                  == 0.0)


cdef void _orient_rows(const PointArg* args, Py_ssize_t start, Py_ssize_t stop,
                       const PrimitiveOut* out) noexcept nogil:
    cdef PointArg a = args[0], b = args[1], c = args[2]
    cdef signed char* sign = out.sign
    cdef Py_ssize_t i
    cdef double v[6]
    for i in range(start, stop):
        if _read3(a, b, c, i, v) == 0.0:
            sign[i] = <signed char>orient_sign(v[0], v[1], v[2], v[3], v[4], v[5])
        else:
            sign[i] = 0


cdef RowsLoop _rows_loop(int which) noexcept:
    # the loop of a primitive (ON_SEGMENT ... ORIENT)
    if which == ON_SEGMENT:
        return _on_segment_rows
    if which == ON_LINE:
        return _on_line_rows
    if which == POINT_SEGMENT:
        return _point_segment_rows
    if which == SEGMENTS_CLOSEST:
        return _segments_closest_rows
    if which == SEGMENTS_DISTANCE:
        return _segments_distance_rows
    if which == SEGMENTS_INTERSECT:
        return _segments_intersect_rows
    return _orient_rows


_PRIMITIVES = {
    "closest_point_on_segment": (ON_SEGMENT, "pf"),
    "closest_point_on_line": (ON_LINE, "pf"),
    "point_segment_distance": (POINT_SEGMENT, "f"),
    "segment_segment_closest": (SEGMENTS_CLOSEST, "fffpp"),
    "segment_segment_distance": (SEGMENTS_DISTANCE, "f"),
    "segments_intersect": (SEGMENTS_INTERSECT, "b"),
    "orient2d": (ORIENT, "i"),
}


cdef struct PrimitiveRows:
    # one batch primitive: its row loop, point arrays and outputs
    RowsLoop rows
    PointArg args[4]
    PrimitiveOut out


cdef void _primitive_rows(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    cdef PrimitiveRows* job = <PrimitiveRows*>ctx
    job.rows(job.args, start, stop, &job.out)


def primitive(name, values, names, workers=1):
    """A geometry primitive on ``(N, 2)`` arrays (see fastcol._ref.batch.primitive)."""
    cdef int j, nf = 0, np_ = 0
    cdef Py_ssize_t n
    cdef PrimitiveRows job
    cdef Buffers held = Buffers.__new__(Buffers)   # the arrays, until the end
    cdef int slots = 1 if workers is 1 else slots_for(_batch.check_workers(workers))
    which, layout = _PRIMITIVES[name]
    arrays, n, dtype = _batch.point_args(values, names)
    for j in range(len(arrays)):
        job.args[j].at = <const double*>held.address(arrays[j], False)
        job.args[j].step = 0 if arrays[j].shape[0] == 1 else 2
    outs = []
    job.out.hit = NULL
    job.out.sign = NULL
    for kind in layout:
        if kind == "b":
            out = np.empty(n, dtype=_BOOL)
            job.out.hit = <unsigned char*>held.address(out, True)
        elif kind == "i":
            out = np.empty(n, dtype=np.int8)
            job.out.sign = <signed char*>held.address(out, True)
        elif kind == "p":
            out = np.empty((n, 2))
            job.out.p[np_] = <double*>held.address(out, True)
            np_ += 1
        else:
            out = np.empty(n)
            job.out.f[nf] = <double*>held.address(out, True)
            nf += 1
        outs.append(out)
    for j in range(nf, 3):
        job.out.f[j] = NULL
    for j in range(np_, 2):
        job.out.p[j] = NULL
    job.rows = _rows_loop(which)
    run_rows(_primitive_rows, &job, n, 512, slots)
    if dtype.itemsize == 4:
        outs = [o if part in "bi" else o.astype(dtype) for o, part in zip(outs, layout)]
    return outs[0] if len(outs) == 1 else tuple(outs)


# ------------------------------------------------------------ small collide calls
# A game asks collide(player, bullets) for a handful of rows many times a frame: the
# general path (argument checks in Python, np.empty, buffer requests, a _Job object)
# costs about 1.5 us whatever the row count, more than a few scalar calls.  This entry
# reads float64 shape arrays and allocates the answer through the NumPy C API and runs
# the very loops of the general path; anything else (float32 rows, polygons, lengths
# that differ, wrong types) returns None and takes the general path, which converts
# or raises.

# the array classes with rows of numbers, in kind order (CIRCLE .. OBB_KIND)
cdef tuple _ROW_ARRAYS = (CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray)
cdef Py_ssize_t[5] _WIDTHS = [3, 5, 4, 4, 5]
# above this many rows the loop runs without the GIL, as the general path's does
cdef Py_ssize_t GIL_FREE_ROWS = 1024

cdef extern from "fc_batch.h":
    Py_ssize_t fastcol_slot_offset(object descriptor)
    void* fastcol_ndarray_type
    ctypedef struct PyArray_Descr_ "PyArray_Descr"
    # steals a reference to the descriptor
    object _new_array "PyArray_NewFromDescr"(void* subtype, PyArray_Descr_* descr, int nd,
                                             cnp.npy_intp* dims, cnp.npy_intp* strides,
                                             void* data, int flags, void* obj)

# Where an array's `_data` sits in the object: reading the slot there skips the
# attribute lookup (a tenth of a small call); -1 falls back to getattr.
cdef Py_ssize_t _DATA_SLOT = fastcol_slot_offset(_ShapeArray.__dict__["_data"])
cdef object _BOOL_DESCR = np.dtype(np.bool_)


cdef inline object _rows_of(object x):
    # x._data of a row array (None when the slot is empty)
    cdef PyObject* p
    if _DATA_SLOT < 0:
        return getattr(x, "_data", None)
    p = (<PyObject**>(<char*><PyObject*>x + _DATA_SLOT))[0]
    return None if p == NULL else <object>p


cdef inline object _empty_bools(cnp.npy_intp n):
    # np.empty(n, bool) without the type-number lookup of PyArray_EMPTY
    Py_INCREF(_BOOL_DESCR)
    return _new_array(fastcol_ndarray_type, <PyArray_Descr_*><PyObject*>_BOOL_DESCR, 1, &n,
                      NULL, NULL, 0, NULL)


cdef int _fast_operand(object x, Side* s, const double** rows, Py_ssize_t* n) except -2:
    # 0: x is a shape (s fixed); 1: a shape array of a row kind holding float64 rows
    # (s, rows, n set); -1: anything else
    cdef int k
    cdef object data
    cdef object t = type(x)
    s.counts = NULL
    s.index = NULL
    s.xs = s.ys = NULL
    s.capacity = 0
    if isinstance(x, Shape):
        s.fixed = True
        s.kind = (<Shape>x).kind
        s.width = 0
        view_of(<Shape>x, &s.view)
        return 0
    for k in range(5):
        if t is _ROW_ARRAYS[k]:
            data = _rows_of(x)
            if not (cnp.PyArray_CheckExact(data)
                    and cnp.PyArray_TYPE(<cnp.ndarray>data) == cnp.NPY_DOUBLE
                    and cnp.PyArray_NDIM(<cnp.ndarray>data) == 2
                    and cnp.PyArray_DIM(<cnp.ndarray>data, 1) == _WIDTHS[k]
                    and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>data)):
                return -1
            s.fixed = False
            s.kind = k
            s.view.kind = k
            s.width = _WIDTHS[k]
            rows[0] = <const double*>cnp.PyArray_DATA(<cnp.ndarray>data)
            n[0] = cnp.PyArray_DIM(<cnp.ndarray>data, 0)
            return 1
    return -1


cdef object fast_collide(object a, object b):
    # collide(a, b) of float64 row arrays (or an array and a shape), without out= or
    # threads: the small calls entries' C entry hands here; None for the general path
    cdef Side sa, sb
    cdef const double* da = NULL
    cdef const double* db = NULL
    cdef Py_ssize_t na = -1, nb = -1
    cdef cnp.npy_intp n
    cdef int ra = _fast_operand(a, &sa, &da, &na)
    if ra < 0:
        return None
    cdef int rb = _fast_operand(b, &sb, &db, &nb)
    if rb < 0 or (ra == 0 and rb == 0) or (ra == 1 and rb == 1 and na != nb):
        return None
    n = na if ra == 1 else nb
    res = _empty_bools(n)
    cdef unsigned char* hit = <unsigned char*>cnp.PyArray_DATA(<cnp.ndarray>res)
    # da or db is NULL for a shape: the loops never read a fixed side's rows
    if n >= GIL_FREE_ROWS:
        with nogil:
            _collide_rows[double](&sa, &sb, da, db, 0, n, hit)
    else:
        _collide_rows[double](&sa, &sb, da, db, 0, n, hit)
    return res

