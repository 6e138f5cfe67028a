"""Rotation and translation of shape arrays: typed row loops without the GIL.

Compiled twin of fastcol._ref.transforms, which states the rules (NaN rows, polygon
rows keeping their order and padding).  Each row is read into C doubles (float32 rows
widened exactly), turned or moved with the scalar methods' own kernels
(``geometry.pxd``'s ``rotate_point`` and ``polygon_centroid``), and written, rounded to
float32 for float32 rows; one pass over the rows, ``cos`` and ``sin`` computed once
when the angle is one number.  The input may be the output (a frame loop turning its
bodies in place): a row is read whole before it is written.
"""

from cython cimport floating
from libc.math cimport NAN, cos, fabs, remainder, sin

from .geometry cimport polygon_centroid, rotate_point
from .narrowphase cimport Convex, convex_obb
from .pool cimport run_rows, slots_for
from .shapes cimport AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, POLYGON, SEGMENT

from fastcol import _batch, _transforms

from .arrays import OBBArray

# 2 * pi rounded (fastcol._transforms.TAU)
cdef double TAU = _transforms.TAU
cdef double PI = _transforms.TAU * 0.5
cdef double INV_TAU = 1.0 / _transforms.TAU
# added to and taken from |x| < 2**51, rounds x to an integer (to even on ties)
cdef double ROUNDER = 6755399441055744.0


def box_vertices(double cx, double cy, double c, double s, double hw, double hh):
    """The corners of an OBB (centre, axis ``(c, s)``, half extents) as the kernels
    compute them (``convex_obb``): ``OBB.vertices``."""
    cdef Convex cv
    convex_obb(&cv, cx, cy, c, s, hw, hh)
    return ((cv.box_x[0], cv.box_y[0]), (cv.box_x[1], cv.box_y[1]),
            (cv.box_x[2], cv.box_y[2]), (cv.box_x[3], cv.box_y[3]))


cdef enum:
    ROTATE = 0
    TRANSLATE = 1


cdef struct Job:
    int op
    int kind
    bint f32
    Py_ssize_t width        # numbers a row reads (2 K for polygons)
    Py_ssize_t out_width    # numbers a row writes (an AABB turned is an OBB)
    const long long* counts
    # the angle: one (angle, c, s) for every row, or angles[i]
    const double* angles
    double angle, c, s
    # the pivot (None: each row's centroid) or the offset: at[i * step], step 0 or 2
    const double* at
    Py_ssize_t step
    const void* src
    void* dst


cdef inline double _spread(const floating* row, Py_ssize_t n, double* f) noexcept nogil:
    # f (OUT): the row's n numbers as doubles; returns 0.0 when they are all finite
    # (x - x is NaN exactly for NaN and inf), so one test checks the row
    cdef double t = 0.0
    cdef Py_ssize_t j
    for j in range(n):
        f[j] = row[j]
        t += f[j] - f[j]
    return t


cdef inline bint _valid(int kind, const double* f) noexcept nogil:
    # the constructor's checks of a finite row
    if kind == CIRCLE:
        return f[2] >= 0.0
    if kind == CAPSULE:
        return f[4] >= 0.0
    if kind == AABB_KIND:
        return f[0] <= f[2] and f[1] <= f[3]
    if kind == OBB_KIND:
        return f[2] >= 0.0 and f[3] >= 0.0
    return True


cdef inline void _nan_row(floating* out, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(n):
        out[j] = <floating>NAN


cdef inline double _pivot(const Job* job, Py_ssize_t i, double* qx, double* qy) noexcept nogil:
    # q (OUT): row i's pivot or offset; returns 0.0 when it is finite (as _spread)
    qx[0] = job.at[i * job.step]
    qy[0] = job.at[i * job.step + 1]
    return (qx[0] - qx[0]) + (qy[0] - qy[0])


cdef inline double _ring(const floating* row, Py_ssize_t m) noexcept nogil:
    # 0.0 when the ring's first m vertices are finite (as _spread)
    cdef double t = 0.0, v
    cdef Py_ssize_t j
    for j in range(2 * m):
        v = row[j]
        t += v - v
    return t


cdef inline double _turned_angle(double a) noexcept nogil:
    # remainder(a, TAU), the IEEE remainder, without the libm call for the usual angle
    # (a box's angle in [-pi, pi] plus a turn of a few radians).  |a| <= pi is its own
    # remainder (pi itself a tie, to the even quotient 0).  Else n, a / TAU rounded to
    # an integer (adding and taking off 1.5 * 2**52; a product by 1 / TAU will do, n is
    # checked) is small, so n * TAU is exact (TAU's last 3 bits are 0), and when
    # |a - n TAU| < pi n is the nearest integer, whose remainder is exact: the
    # subtraction gives it.  Ties, zeros (IEEE gives them a's sign) and large angles go
    # to libm
    cdef double n, r
    if fabs(a) <= PI:
        return a
    if fabs(a) < 20.0:
        n = (a * INV_TAU + ROUNDER) - ROUNDER
        r = a - n * TAU
        if 0.0 < fabs(r) < PI:
            return r
    return remainder(a, TAU)


cdef void _turn_obbs(const Job* job, const floating* src, floating* dst,
                     Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # rows start..stop of fc.rotate of OBBs (the turn of a frame loop, a loop of its
    # own: _turn_rows's OBB branch, the row read field by field)
    cdef Py_ssize_t i
    cdef double a = job.angle, c = job.c, s = job.s
    cdef double qx, qy, cx, cy, hw, hh, t, x, y, bad
    cdef bint centroid = job.at == NULL
    cdef bint per_row = job.angles != NULL
    cdef const floating* row
    cdef floating* out
    if not per_row and not centroid and job.step == 0 and _pivot(job, 0, &qx, &qy) == 0.0:
        # a frame loop's turn: one angle and one finite pivot for every row
        for i in range(start, stop):
            row = src + 5 * i
            out = dst + 5 * i
            cx = row[0]
            cy = row[1]
            hw = row[2]
            hh = row[3]
            t = row[4]
            bad = (cx - cx) + (cy - cy) + (hw - hw) + (hh - hh) + (t - t)
            if bad != 0.0 or not (hw >= 0.0 and hh >= 0.0):
                _nan_row(out, 5)
                continue
            rotate_point(cx, cy, qx, qy, c, s, &x, &y)
            out[0] = <floating>x
            out[1] = <floating>y
            out[2] = <floating>hw
            out[3] = <floating>hh
            out[4] = <floating>_turned_angle(t + a)
        return
    for i in range(start, stop):
        row = src + 5 * i
        out = dst + 5 * i
        cx = row[0]
        cy = row[1]
        hw = row[2]
        hh = row[3]
        t = row[4]
        bad = (cx - cx) + (cy - cy) + (hw - hw) + (hh - hh) + (t - t)
        if per_row:
            a = job.angles[i]
            c = cos(a)
            s = sin(a)
            bad += a - a
        if centroid:
            qx = cx
            qy = cy
        else:
            bad += _pivot(job, i, &qx, &qy)
        if bad != 0.0 or not (hw >= 0.0 and hh >= 0.0):
            _nan_row(out, 5)
            continue
        rotate_point(cx, cy, qx, qy, c, s, &x, &y)
        out[0] = <floating>x
        out[1] = <floating>y
        out[2] = <floating>hw
        out[3] = <floating>hh
        out[4] = <floating>_turned_angle(t + a)


cdef void _turn_rows(const Job* job, const floating* src, floating* dst,
                     Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # rows start..stop of fc.rotate of circles, capsules, segments and boxes (the
    # reference's _turn, row by row)
    cdef int kind = job.kind
    cdef Py_ssize_t i, w = job.width, ow = job.out_width
    cdef double a = job.angle, c = job.c, s = job.s
    cdef double qx = 0.0, qy = 0.0, cx, cy, x, y, bx, by, bad
    cdef double f[5]
    cdef bint centroid = job.at == NULL
    cdef const floating* row
    cdef floating* out
    for i in range(start, stop):
        row = src + i * w
        out = dst + i * ow
        bad = _spread(row, w, f)
        if job.angles != NULL:
            # an angle a row: its own cosine and sine
            a = job.angles[i]
            c = cos(a)
            s = sin(a)
            bad += a - a
        if not centroid:
            bad += _pivot(job, i, &qx, &qy)
        if bad != 0.0 or not _valid(kind, f):
            _nan_row(out, ow)
            continue
        if kind == CIRCLE:
            if centroid:
                qx = f[0]
                qy = f[1]
            rotate_point(f[0], f[1], qx, qy, c, s, &x, &y)
            out[0] = <floating>x
            out[1] = <floating>y
            out[2] = <floating>f[2]
        elif kind == OBB_KIND:
            if centroid:
                qx = f[0]
                qy = f[1]
            rotate_point(f[0], f[1], qx, qy, c, s, &x, &y)
            out[0] = <floating>x
            out[1] = <floating>y
            out[2] = <floating>f[2]
            out[3] = <floating>f[3]
            out[4] = <floating>_turned_angle(f[4] + a)
        elif kind == AABB_KIND:
            # an OBB of the box's centre and half extents
            cx = (f[0] + f[2]) * 0.5
            cy = (f[1] + f[3]) * 0.5
            if centroid:
                qx = cx
                qy = cy
            rotate_point(cx, cy, qx, qy, c, s, &x, &y)
            out[0] = <floating>x
            out[1] = <floating>y
            out[2] = <floating>((f[2] - f[0]) * 0.5)
            out[3] = <floating>((f[3] - f[1]) * 0.5)
            out[4] = <floating>_turned_angle(a)
        else:
            # a capsule or segment: both ends, about the core's midpoint by default
            if centroid:
                qx = (f[0] + f[2]) * 0.5
                qy = (f[1] + f[3]) * 0.5
            rotate_point(f[0], f[1], qx, qy, c, s, &x, &y)
            rotate_point(f[2], f[3], qx, qy, c, s, &bx, &by)
            out[0] = <floating>x
            out[1] = <floating>y
            out[2] = <floating>bx
            out[3] = <floating>by
            if kind == CAPSULE:
                out[4] = <floating>f[4]


cdef void _turn_polygons(const Job* job, const floating* src, floating* dst,
                         Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # rows start..stop of fc.rotate of polygons: every vertex, the padding too, about
    # the pivot or the ring's area centroid
    cdef Py_ssize_t i, j, w = job.width, m
    cdef double a, c = job.c, s = job.s
    cdef double qx = 0.0, qy = 0.0, px, py, x, y, bad
    cdef bint centroid = job.at == NULL
    cdef const floating* row
    cdef floating* out
    for i in range(start, stop):
        row = src + i * w
        out = dst + i * w
        bad = 0.0
        if job.angles != NULL:
            a = job.angles[i]
            c = cos(a)
            s = sin(a)
            bad = a - a
        if not centroid:
            bad += _pivot(job, i, &qx, &qy)
        m = job.counts[i]
        if bad != 0.0 or m < 3 or 2 * m > w:
            _nan_row(out, w)
            continue
        if centroid:
            # the pivot needs the whole ring first: check it here
            if _ring(row, m) != 0.0:
                _nan_row(out, w)
                continue
            polygon_centroid(row, row + 1, 2, m, &qx, &qy)
        # one pass: the ring's vertices turned and checked, then the padding turned; a
        # vertex that was not finite makes the row NaN afterwards (a row is read whole
        # before it is written only vertex by vertex, which is all a turn needs)
        for j in range(0, 2 * m, 2):
            px = row[j]
            py = row[j + 1]
            bad += (px - px) + (py - py)
            rotate_point(px, py, qx, qy, c, s, &x, &y)
            out[j] = <floating>x
            out[j + 1] = <floating>y
        for j in range(2 * m, w, 2):
            rotate_point(row[j], row[j + 1], qx, qy, c, s, &x, &y)
            out[j] = <floating>x
            out[j + 1] = <floating>y
        if bad != 0.0:
            _nan_row(out, w)


cdef void _move_rows(const Job* job, const floating* src, floating* dst,
                     Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # rows start..stop of fc.translate: each point of a row (a circle's or OBB's
    # centre, the two ends or corners of the others, every vertex of a polygon) moved
    cdef int kind = job.kind
    cdef Py_ssize_t i, j, w = job.width, m
    cdef Py_ssize_t moved = 2 if kind == CIRCLE or kind == OBB_KIND else 4
    cdef double dx, dy, bad
    cdef double f[5]
    cdef const floating* row
    cdef floating* out
    for i in range(start, stop):
        row = src + i * w
        out = dst + i * w
        bad = _pivot(job, i, &dx, &dy)
        if kind == POLYGON:
            m = job.counts[i]
            if bad != 0.0 or m < 3 or 2 * m > w or _ring(row, m) != 0.0:
                _nan_row(out, w)
                continue
            for j in range(0, w, 2):
                out[j] = <floating>(<double>row[j] + dx)
                out[j + 1] = <floating>(<double>row[j + 1] + dy)
            continue
        bad += _spread(row, w, f)
        if bad != 0.0 or not _valid(kind, f):
            _nan_row(out, w)
            continue
        for j in range(0, moved, 2):
            out[j] = <floating>(f[j] + dx)
            out[j + 1] = <floating>(f[j + 1] + dy)
        for j in range(moved, w):
            out[j] = <floating>f[j]


cdef inline void _run(const Job* job, const floating* src, floating* dst, Py_ssize_t start,
                      Py_ssize_t stop) noexcept nogil:
    if job.op == TRANSLATE:
        _move_rows(job, src, dst, start, stop)
    elif job.kind == POLYGON:
        _turn_polygons(job, src, dst, start, stop)
    elif job.kind == OBB_KIND:
        _turn_obbs(job, src, dst, start, stop)
    else:
        _turn_rows(job, src, dst, start, stop)


cdef void _job_rows(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    cdef const Job* job = <const Job*>ctx
    if job.f32:
        _run(job, <const float*>job.src, <float*>job.dst, start, stop)
    else:
        _run(job, <const double*>job.src, <double*>job.dst, start, stop)


cdef object _start(Job* job, object shapes, object res, object at, int slots):
    # the rows' addresses (typed memoryviews: read-only input works), then the rows,
    # in blocks over the pool's threads; returns res
    cdef Py_ssize_t n = len(shapes)
    cdef const double[:, ::1] src64
    cdef double[:, ::1] dst64
    cdef const float[:, ::1] src32
    cdef float[:, ::1] dst32
    cdef const double[:, ::1] points
    cdef const long long[::1] counts
    if n == 0:
        return res
    if job.kind == POLYGON:
        src = shapes.vertices.reshape(n, -1)
        dst = res.vertices.reshape(n, -1)
        counts = shapes.counts
        job.counts = &counts[0]
    else:
        src = shapes.data
        dst = res.data
        job.counts = NULL
    job.width = src.shape[1]
    job.out_width = dst.shape[1]
    job.f32 = src.dtype.itemsize == 4
    if job.f32:
        src32 = src
        dst32 = dst
        job.src = &src32[0, 0]
        job.dst = &dst32[0, 0]
    else:
        src64 = src
        dst64 = dst
        job.src = &src64[0, 0]
        job.dst = &dst64[0, 0]
    job.at = NULL
    job.step = 0
    if at is not None:
        points = at
        job.at = &points[0, 0]
        job.step = 0 if points.shape[0] == 1 else 2
    run_rows(_job_rows, job, n, 1024 if job.kind == POLYGON else 4096, slots)
    return res


def rotate(shapes, angle, about, out, workers):
    """``fc.rotate`` row by row (see fastcol._ref.transforms.rotate)."""
    cdef int slots = 1 if workers is 1 else slots_for(_batch.check_workers(workers))
    cdef Job job
    cdef const double[::1] per_row
    shapes, angles, one, pivots = _transforms.rotate_args(shapes, angle, about)
    job.op = ROTATE
    job.kind = shapes.kind
    if job.kind == AABB_KIND:
        res = _transforms.result_of(shapes, out, OBB_KIND, OBBArray)
    else:
        res = _transforms.result_of(shapes, out, job.kind, type(shapes))
    job.angles = NULL
    job.angle = one
    job.c = cos(job.angle)
    job.s = sin(job.angle)
    if angles is not None and len(angles) > 0:
        per_row = angles
        job.angles = &per_row[0]
    return _start(&job, shapes, res, pivots, slots)


def translate(shapes, offset, out, workers):
    """``fc.translate`` row by row (see fastcol._ref.transforms.translate)."""
    cdef int slots = 1 if workers is 1 else slots_for(_batch.check_workers(workers))
    cdef Job job
    shapes, offsets = _transforms.translate_args(shapes, offset)
    job.op = TRANSLATE
    job.kind = shapes.kind
    job.angles = NULL
    res = _transforms.result_of(shapes, out, job.kind, type(shapes))
    return _start(&job, shapes, res, offsets, slots)
