# Collision filters: whether a pair of rows is tested (reference: _ref/filters.py).
# Inline here, so each module's loops compile their own copy.

from libc.stdint cimport int32_t, uint32_t

from .batch cimport Buffers


cdef struct Filter:
    # one row's filter, packed: the kernels keep a copy per item in the order they
    # read the items, so a candidate's filter is one read next to its neighbours'
    uint32_t cat
    uint32_t mask
    int32_t group


cdef struct FilterRows:
    # the filters of a shape array's rows as it holds them (NULL: no filter)
    const uint32_t* cat
    const uint32_t* mask
    const int32_t* group


cdef inline bint passes(const Filter* a, const Filter* b) noexcept nogil:
    # each one's category in the other's mask, and not both of one non-zero group
    # (& rather than "and": no branch between the tests, which go either way)
    return ((a.cat & b.mask) != 0) & ((b.cat & a.mask) != 0) & ((a.group != b.group) | (a.group == 0))


cdef inline void filter_of(const FilterRows* f, Py_ssize_t row, Filter* out) noexcept nogil:
    # out (OUT): the filter of a row
    out.cat = f.cat[row]
    out.mask = f.mask[row]
    out.group = f.group[row]


cdef inline bint filter_rows(Buffers held, FilterRows* f, object filters) except -1:
    # f (OUT): the rows' filters, from an array's _filters() (held by held); False,
    # with NULLs, for None (no filter)
    if filters is None:
        f.cat = f.mask = NULL
        f.group = NULL
        return False
    f.cat = <const uint32_t*>held.address(filters[0], False)
    f.mask = <const uint32_t*>held.address(filters[1], False)
    f.group = <const int32_t*>held.address(filters[2], False)
    return True
