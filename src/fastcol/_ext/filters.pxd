# Collision filters: whether a pair of rows is tested (reference: _ref/filters.py).
# Inline here, so each module's loops compile their own copy.

from libc.stdint cimport int32_t, uint32_t


cdef struct Filters:
    # per row (in some order): category and mask bits and group; NULL: no filter
    const uint32_t* cat
    const uint32_t* mask
    const int32_t* group


cdef inline bint passes(uint32_t ci, uint32_t mi, int32_t gi,
                        uint32_t cj, uint32_t mj, int32_t gj) noexcept nogil:
    # each one's category in the other's mask, and not both of one non-zero group
    # (& rather than "and": no branch between the tests, which go either way)
    return ((ci & mj) != 0) & ((cj & mi) != 0) & ((gi != gj) | (gi == 0))


cdef inline bint passes_rows(const Filters* a, Py_ssize_t i, const Filters* b,
                             Py_ssize_t j) noexcept nogil:
    # whether row i of a and row j of b are tested
    return passes(a.cat[i], a.mask[i], a.group[i], b.cat[j], b.mask[j], b.group[j])
