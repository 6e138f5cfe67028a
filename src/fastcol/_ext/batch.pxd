# Reading shape-array rows into Views: shared by the batch queries (batch.pyx) and the
# other array kernels (contacts and sweeps over arrays, the broadphase).

from cython cimport floating
from libc.math cimport cos, isfinite, sin

from .queries cimport View
from .shapes cimport AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, POLYGON


cdef struct Side:
    # one operand: a single shape for every row (fixed), or rows of an array
    int kind
    bint fixed
    View view              # the fixed shape, or the row being read
    Py_ssize_t width       # numbers per row (2 K for polygons)
    Py_ssize_t capacity    # K: the most vertices a polygon row can hold
    const long long* counts
    # contact's pairs=: row i of the call reads row index[2 i] of the array (the
    # pair's column for this side); NULL: row i reads row i
    const long long* index
    double* xs             # polygon rows are copied here (K each)
    double* ys


# inline: every row loop reads its rows through it (the index's per item)
cdef inline bint load_row(Side* s, const floating* row, Py_ssize_t i) noexcept nogil:
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
        v.lo[0] = v.hi[0] = row[0]
        v.lo[1] = v.hi[1] = row[1]
        for j in range(n):
            x = row[2 * j]
            y = row[2 * j + 1]
            if not (isfinite(x) and isfinite(y)):
                return False
            s.xs[j] = x
            s.ys[j] = y
            # the box the exact local frame needs (see queries.pxd view_frame)
            v.lo[0] = min(v.lo[0], x)
            v.hi[0] = max(v.hi[0], x)
            v.lo[1] = min(v.lo[1], y)
            v.hi[1] = max(v.hi[1], y)
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


cdef enum:
    MAX_BUFFERS = 12


cdef class Buffers:
    # the memory of the arrays a call reads and writes, held (buffer protocol) until
    # the holder is freed: MAX_BUFFERS in place (a batch call's), more in a block
    # that grows (the scene index holds two per indexed array)
    cdef Py_buffer buffers[MAX_BUFFERS]
    cdef Py_buffer* more
    cdef int held, room
    cdef void* address(self, object arr, bint writable) except NULL


cdef const void* array_side(Buffers held, Side* s, object x, object dtype) except NULL


# collide of float64 row arrays, or None for the general path (entries' C entry)
cdef object fast_collide(object a, object b)
