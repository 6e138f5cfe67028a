# The helper threads of the batch kernels (see pool.pyx).

# rows start..stop of a call, run by thread ``slot`` (0: the calling thread, 1..: the
# helpers); a call's slots never run two blocks at once, so per-slot scratch is safe
ctypedef void (*rows_fn)(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil


cdef int slots_for(int workers) noexcept
cdef void wake_helpers(int slots) noexcept nogil
cdef int run_rows(rows_fn fn, void* ctx, Py_ssize_t n, Py_ssize_t grain, int slots) except -1
