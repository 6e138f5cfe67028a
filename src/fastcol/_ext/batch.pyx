"""Batch queries over shape arrays: typed loops that run without the GIL.

Compiled twin of fastcol._ref.batch.  Each row is read into a ``View`` (float32 rows
are widened exactly to double) and handed to the very kernels of the scalar queries, so
a row's answer is bit for bit the scalar answer; results are rounded to float32 only
when every array is float32.  A row that is no shape (NaN or inf, a negative radius or
half extent, ``min > max``, a polygon count outside 3..K) answers False or NaN.  The
rows are split over ``workers`` threads, each running a GIL-free loop over its chunk.
"""

cimport cython
from cpython.buffer cimport (
    PyBUF_ANY_CONTIGUOUS,
    PyBUF_WRITABLE,
    PyBuffer_Release,
    PyObject_GetBuffer,
)
from cython cimport floating
from libc.math cimport NAN, cos, isfinite, sin
from libc.stdlib cimport free, malloc

from .queries cimport View, closest_views, collide_views, view_of
from .shapes cimport AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, POLYGON, Shape

import numpy as np

from fastcol import _batch


cdef enum:
    COLLIDE = 0
    DISTANCE = 1
    CLOSEST = 2


cdef enum:
    MAX_BUFFERS = 8


cdef struct Side:
    # one operand: a single shape for every row (fixed), or rows of an array
    int kind
    bint fixed
    View view              # the fixed shape, or the row being read
    Py_ssize_t width       # numbers per row (2 K for polygons)
    Py_ssize_t capacity    # K: the most vertices a polygon row can hold
    const long long* counts
    double* xs             # polygon rows are copied here (K each)
    double* ys


cdef bint _load(Side* s, const floating* row, Py_ssize_t i) noexcept nogil:
    # s.view (OUT): the shape in row i; False when the row is no shape
    cdef View* v = &s.view
    cdef Py_ssize_t j
    cdef long long n
    cdef double x, y
    if s.kind == POLYGON:
        n = s.counts[i]
        if n < 3 or n > s.capacity:
            # counts can be written after construction: never read past the row
            return False
        for j in range(n):
            x = row[2 * j]
            y = row[2 * j + 1]
            if not (isfinite(x) and isfinite(y)):
                return False
            s.xs[j] = x
            s.ys[j] = y
        v.n = <int>n
        v.xs = s.xs
        v.ys = s.ys
        return True
    for j in range(s.width):
        x = row[j]
        if not isfinite(x):
            return False
        v.f[j] = x
    if s.kind == CIRCLE:
        return v.f[2] >= 0.0
    if s.kind == CAPSULE:
        return v.f[4] >= 0.0
    if s.kind == AABB_KIND:
        return v.f[0] <= v.f[2] and v.f[1] <= v.f[3]
    if s.kind == OBB_KIND:
        v.cos = cos(v.f[4])
        v.sin = sin(v.f[4])
        return v.f[2] >= 0.0 and v.f[3] >= 0.0
    return True


cdef void _loop(int query, Side* a, Side* b, const floating* da, const floating* db,
                Py_ssize_t start, Py_ssize_t stop, unsigned char* hit, floating* dist,
                floating* pa, floating* pb) noexcept nogil:
    # rows start..stop of one query; writes hit, or dist (and pa, pb for CLOSEST)
    cdef Py_ssize_t i
    cdef bint ok
    cdef double sep
    cdef double out[4]
    for i in range(start, stop):
        ok = a.fixed or _load(a, da + i * a.width, i)
        ok = (b.fixed or _load(b, db + i * b.width, i)) and ok
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


cdef class _Job:
    # one batch query: its operands and outputs, run over chunks of rows
    cdef int query
    cdef Side a, b
    cdef bint f32
    cdef const void* da
    cdef const void* db
    cdef unsigned char* hit
    cdef void* dist
    cdef void* pa
    cdef void* pb
    # the buffers of the arrays the pointers above point into, held until the end:
    # two per polygon operand (vertices and counts), one per other operand, three
    # outputs at most
    cdef Py_buffer buffers[MAX_BUFFERS]
    cdef int held

    cdef void* address(self, object arr, bint writable) except NULL:
        # the memory of a C-contiguous array, held by this job (never NULL)
        cdef Py_buffer* view
        if self.held == MAX_BUFFERS:
            raise AssertionError("a batch job holds too many buffers")
        view = &self.buffers[self.held]
        PyObject_GetBuffer(arr, view, PyBUF_ANY_CONTIGUOUS | (PyBUF_WRITABLE if writable else 0))
        self.held += 1
        return view.buf if view.buf != NULL else <void*>view

    def __dealloc__(self):
        cdef int k
        for k in range(self.held):
            PyBuffer_Release(&self.buffers[k])

    def run(self, Py_ssize_t start, Py_ssize_t stop):
        cdef Side a = self.a
        cdef Side b = self.b
        cdef bint failed = False
        a.xs = a.ys = b.xs = b.ys = NULL
        with nogil:
            # each chunk has its own copy of the sides, and its own polygon scratch
            if not a.fixed and a.kind == POLYGON:
                a.xs = <double*>malloc(2 * a.capacity * sizeof(double))
                a.ys = a.xs + a.capacity
                failed = a.xs == NULL
            if not b.fixed and b.kind == POLYGON:
                b.xs = <double*>malloc(2 * b.capacity * sizeof(double))
                b.ys = b.xs + b.capacity
                failed = failed or b.xs == NULL
            if not failed:
                if self.f32:
                    _loop[float](self.query, &a, &b, <const float*>self.da,
                                 <const float*>self.db, start, stop, self.hit,
                                 <float*>self.dist, <float*>self.pa, <float*>self.pb)
                else:
                    _loop[double](self.query, &a, &b, <const double*>self.da,
                                  <const double*>self.db, start, stop, self.hit,
                                  <double*>self.dist, <double*>self.pa, <double*>self.pb)
            free(a.xs)
            free(b.xs)
        if failed:
            raise MemoryError("no memory for the polygon scratch buffers")


cdef const void* _side(_Job job, Side* s, object x, object dtype) except NULL:
    # fills s from an operand; returns the memory of its rows (or any non-NULL
    # address for a shape, which has no rows)
    cdef object rows
    s.counts = NULL
    if isinstance(x, Shape):
        s.fixed = True
        s.kind = (<Shape>x).kind
        view_of(<Shape>x, &s.view)
        return <const void*>s
    s.fixed = False
    s.kind = x.kind
    s.view.kind = s.kind
    if s.kind == POLYGON:
        rows = x.vertices
        if rows.dtype is not dtype:
            rows = rows.astype(dtype)
        s.capacity = rows.shape[1]
        s.width = 2 * s.capacity
        s.counts = <const long long*>job.address(x.counts, False)
    else:
        rows = x.data
        if rows.dtype is not dtype:
            rows = rows.astype(dtype)
        s.width = rows.shape[1]
        s.capacity = 0
    return job.address(rows, False)


cdef _Job _job(int query, object a, object b, object dtype):
    cdef _Job job = _Job.__new__(_Job)
    job.query = query
    job.f32 = dtype.itemsize == 4
    job.da = _side(job, &job.a, a, dtype)
    job.db = _side(job, &job.b, b, dtype)
    return job


cdef object _BOOL = np.dtype(bool)


cdef inline void _start(_Job job, Py_ssize_t n, object workers) except *:
    if workers is 1:
        job.run(0, n)
    else:
        _batch.run(job.run, n, _batch.check_workers(workers))


def collide(query, a, b, out, workers):
    """``bool[N]``, row by row (see fastcol._ref.batch.collide); ``query`` is unused."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype = _batch.pair(a, b, Shape)
    res = np.empty(n, dtype=_BOOL) if out is None else _batch.check_out(out, n, _BOOL)
    cdef _Job job = _job(COLLIDE, a, b, dtype)
    job.hit = <unsigned char*>job.address(res, True)
    _start(job, n, workers)
    return res


def distance(query, a, b, out, workers):
    """``float[N]``, row by row (see fastcol._ref.batch.distance)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype = _batch.pair(a, b, Shape)
    res = np.empty(n, dtype=dtype) if out is None else _batch.check_out(out, n, dtype)
    cdef _Job job = _job(DISTANCE, a, b, dtype)
    job.dist = job.address(res, True)
    _start(job, n, workers)
    return res


def closest_points(query, a, b, workers):
    """``(point_a[N, 2], point_b[N, 2], distance[N])`` (see fastcol._ref.batch)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype = _batch.pair(a, b, Shape)
    pa = np.empty((n, 2), dtype=dtype)
    pb = np.empty((n, 2), dtype=dtype)
    d = np.empty(n, dtype=dtype)
    cdef _Job job = _job(CLOSEST, a, b, dtype)
    job.dist = job.address(d, True)
    job.pa = job.address(pa, True)
    job.pb = job.address(pb, True)
    _start(job, n, workers)
    return pa, pb, d

