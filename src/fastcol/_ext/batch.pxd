# Reading shape-array rows into Views: shared by the batch queries (batch.pyx) and the
# other array kernels (contacts and sweeps over arrays, the broadphase).

from cython cimport floating

from .queries cimport View


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


cdef bint load_row(Side* s, const floating* row, Py_ssize_t i) noexcept nogil


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
