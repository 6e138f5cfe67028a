"""Broadphase (compiled twin of fastcol._ref.broadphase, which documents the contract).

A hierarchical grid.  Each row's padded box (the same box as the reference's) goes to
the level whose cells are at least as large as the box, level L having square cells of
``s * 2**L``, where ``s`` is twice the median box size of a sample of rows.  A shape is
entered once, in the cell of its box's low corner; it then looks for partners on its
own level and on every coarser non-empty level, in the cells from its low corner minus
the largest box of that level to its high corner.  Pairs of one level are reported by
the shape whose cell comes first (so a shape scans only the cells from its own on),
pairs of two levels by the shape of the finer one, so no pair is found twice and none
needs deduplicating.  The exact test is the scalar ``collide`` kernel
(``collide_views``; for two circles its formula inline), so both backends give the
same pairs.

Work grows with the shapes plus the pairs found: one shape a thousand times larger
than the rest sits alone on a coarse level instead of filling thousands of small cells;
a level whose occupied cells form a compact rectangle is a dense grid (one bucket per
cell), any other level (a thin diagonal strip, far outliers) is hashed, so cells are
never allocated for empty space.  The shapes are renumbered in bucket order and their
rows copied (as doubles) in that order, so that the shapes a query reads sit side by
side in memory; on a dense level a row of cells is one run of shapes.

Keys ``i << shift | j`` of the colliding pairs collect in buffers, one per thread
(grown by doubling; MemoryError when that fails); a radix sort writes them sorted into
the result array, using the result's own memory as its scratch.

Collision filters (the arrays' categories, masks and groups) of at most four distinct
values (classes), some pair of which never passes, split the grid: each class has its
own buckets (a dense level's classes one after another, a hashed bucket keyed by class
too), and a shape looks only in the classes its filter passes, so a pair they rule out
is never a candidate and the scans test no filter.  Other filters are copied per item
(written in bucket order as the items are placed) and tested before the exact test.
Without filters the loops skip the test (one flag, set per call).
"""

from cython cimport floating
from libc.math cimport INFINITY, fabs, ldexp, sqrt
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from cpython.pythread cimport (
    WAIT_LOCK,
    PyThread_acquire_lock,
    PyThread_allocate_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memset

from .batch cimport Buffers, Side, array_side, load_row
from .filters cimport Filter, FilterRows, filter_of, filter_rows, passes
from .pool cimport run_rows, slots_for, wake_helpers
from .queries cimport View, aabb_rows_collide, collide_views
from .shapes cimport AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, POLYGON, SEGMENT

cdef extern from "fc_prefetch.h":
    void prefetch "FC_PREFETCH" (const void* p) noexcept nogil

import numpy as np

from fastcol import _batch, _filters


cdef enum:
    MAX_LEVEL = 60          # cells up to 2**60 times the median size; larger boxes are HUGE
    HUGE = MAX_LEVEL + 1    # tested against every shape (only absurd inputs get here)
    NO_SHAPE = -1
    SAMPLE = 255            # rows sampled for the median box size
    MAX_CLASS = 4           # filter classes the grid is split by (more: not split;
                            # _classes matches the 4 by hand)


# the same padding as the reference (see fastcol._ref.broadphase.PAD) and as view_box
# and row_box (broadphase.pxd)
cdef double PAD = 2.0 ** -40
# cell indices are clamped here.  Each level's origin is the low corner of its own
# shapes, whose boxes (padded by 2**-40 of their coordinates) are at least 2**-39 of
# their distance from zero: no shape of a level lies more than about 2**41 of its cells
# from its origin, so only a query from far away (which can meet nothing there) is
# clamped, and below 2**52 a cell index is exact (a box never spans stray cells)
cdef double CELL_LIMIT = 2.0 ** 52
# level-0 cells are this multiple of the median box size.  Measured on 100,000 circles
# with three neighbours each: 1.5 and 2 are equally fast, 3 is 10% slower, and 1 is 15%
# slower (a box a little larger than the median then falls to the next level)
cdef double CELL_FACTOR = 2.0
# bucket numbers stay below 2**32, so products of two of them fit in 64 bits
cdef uint64_t MAX_BUCKETS = <uint64_t>1 << 32


cdef struct Item:
    # one shape: its box, home cell (the cell of the box's low corner), level and row
    double x0, y0, x1, y1
    int64_t cx, cy
    Py_ssize_t row
    int level
    int cls                 # its filter class (0 when the grid is not split by class)


cdef struct Set:
    # one operand.  Before renumbering: per row, box and level.  After: the shapes as
    # items in bucket order (grid shapes [0, ngrid), HUGE ones after; rows that are no
    # shape dropped), their rows copied as doubles in that order (rows, counts), and
    # the buckets: items start[b]..start[b + 1] are in bucket b
    Side side               # reads the input rows (the box pass)
    Side local              # reads the copied rows (the exact tests)
    const void* data
    Py_ssize_t n
    double* box             # 4 per row: x0, y0, x1, y1
    signed char* level      # NO_SHAPE, 0..MAX_LEVEL or HUGE
    Item* items
    Py_ssize_t nitems, ngrid
    double* rows            # width per item
    long long* counts       # polygons: vertices per item
    Py_ssize_t* start
    Py_ssize_t* rowof       # the row of each item (items[k].row, packed for the scans)
    Py_ssize_t* order       # the same, from _table until _fill has run
    FilterRows rowf         # the rows' collision filters (NULL: none)
    Filter* filt            # the same per item, packed after the rows (NULL: none)
    # filters of a few distinct values (classes) split the grid: each class has its
    # own buckets, and a shape looks only in the classes its filter passes (when some
    # class pair never passes); then every item it scans passes, untested
    int nclass              # 1: not split
    unsigned char* cls      # per row: its class (while building; NULL when not split)
    bint compat[MAX_CLASS * MAX_CLASS]  # whether classes c, d pass: [c * nclass + d]
    uint64_t cmod[MAX_CLASS]            # a class's offset of the hashed buckets
    Py_ssize_t cells[HUGE]  # the buckets of a dense level, per class
    unsigned char* pure     # per bucket: all its items are of one cell (no collision)
    uint64_t nbuckets       # hashed buckets (a prime), from bucket hbase on
    int nlevels
    int levels[HUGE]        # the non-empty grid levels, ascending
    double reach[HUGE]      # the largest box (width or height) of each level
    uint64_t wmod[HUGE]     # the grid's width of each level, modulo nbuckets
    uint64_t lmod[HUGE]     # where each level's buckets start, modulo nbuckets
    # a level whose occupied cells span a small enough rectangle is a dense grid: one
    # bucket per cell, row-major from bucket base (no collisions, and a row of cells
    # is one run of items); the other levels share the hashed buckets from hbase
    bint dense[HUGE]
    Py_ssize_t base[HUGE]
    int64_t cx0[HUGE]       # the rectangle of a dense level: its first cell,
    int64_t cy0[HUGE]
    int64_t cols[HUGE]      # and its size in cells
    int64_t rows_[HUGE]
    Py_ssize_t hbase


cdef struct Grid:
    double ox[HUGE]         # the origin of each level: the low corner of its shapes,
    double oy[HUGE]         # so that far shapes on other levels cannot stretch its cells
    double inv[HUGE]        # 1 / cell size of each level
    uint64_t width[HUGE]    # cells across the span of the level's shapes


cdef struct Out:
    # a growing buffer of pair keys
    uint64_t* keys
    Py_ssize_t count, cap
    bint failed


# ----------------------------------------------------------------------- scratch memory
# The scratch buffers of a call (boxes, items, buckets, copied rows, pair keys) are
# kept for the next call, up to CACHE_BYTES in all: a frame loop calls the broadphase
# with about the same shapes every time, and on fresh memory the page faults cost
# more than the work (measured: 100,000 circles, 20 ms -> 7 ms for the grid build).
# Each block carries its capacity in a 16-byte header.

cdef enum:
    CACHE_BLOCKS = 16
    HEADER = 16

cdef size_t CACHE_BYTES = 64 << 20
cdef void* _cache[CACHE_BLOCKS]
cdef size_t _cached = 0
cdef PyThread_type_lock _lock = PyThread_allocate_lock()


cdef inline size_t _capacity(void* p) noexcept nogil:
    return (<size_t*>(<char*>p - HEADER))[0]


cdef void* _take(size_t size) noexcept nogil:
    # a block of at least size bytes (NULL when out of memory): the smallest cached
    # block that fits, else a new one
    cdef int k, best = -1
    cdef void* p
    cdef char* raw
    global _cached
    if size == 0:
        size = 1
    PyThread_acquire_lock(_lock, WAIT_LOCK)
    for k in range(CACHE_BLOCKS):
        if _cache[k] != NULL and _capacity(_cache[k]) >= size and (
                best < 0 or _capacity(_cache[k]) < _capacity(_cache[best])):
            best = k
    if best >= 0:
        p = _cache[best]
        _cache[best] = NULL
        _cached -= _capacity(p)
        PyThread_release_lock(_lock)
        return p
    PyThread_release_lock(_lock)
    raw = <char*>malloc(size + HEADER)
    if raw == NULL:
        return NULL
    (<size_t*>raw)[0] = size
    return raw + HEADER


cdef void* _grow(void* p, size_t size) noexcept nogil:
    # p moved to a block of at least size bytes (NULL when out of memory: p stays valid)
    cdef char* raw
    if p == NULL:
        return _take(size)
    if _capacity(p) >= size:
        return p
    raw = <char*>realloc(<char*>p - HEADER, size + HEADER)
    if raw == NULL:
        return NULL
    (<size_t*>raw)[0] = size
    return raw + HEADER


cdef void _give(void* p) noexcept nogil:
    # p back to the cache (replacing a smaller block when the cache is full), or freed
    cdef int k, slot = -1
    cdef size_t size
    cdef void* out = NULL
    global _cached
    if p == NULL:
        return
    size = _capacity(p)
    PyThread_acquire_lock(_lock, WAIT_LOCK)
    for k in range(CACHE_BLOCKS):
        if _cache[k] == NULL:
            slot = k
            break
        if _capacity(_cache[k]) < size and (
                slot < 0 or _capacity(_cache[k]) < _capacity(_cache[slot])):
            slot = k
    if slot >= 0:
        if _cache[slot] != NULL:
            out = _cache[slot]
        if _cached - (_capacity(out) if out != NULL else 0) + size <= CACHE_BYTES:
            if out != NULL:
                _cached -= _capacity(out)
            _cache[slot] = p
            _cached += size
            p = NULL
        else:
            out = NULL  # keep the cache as it is: p does not fit
    PyThread_release_lock(_lock)
    if out != NULL:
        free(<char*>out - HEADER)
    if p != NULL:
        free(<char*>p - HEADER)


# ------------------------------------------------------------------------------ boxes

# view_box and row_box: broadphase.pxd (the scene index reads boxes the same way)


cdef void _boxes(Set* s, Side* side, const floating* data, Py_ssize_t start,
                 Py_ssize_t stop) noexcept nogil:
    # s.box, s.level (OUT): the boxes of rows start..stop (read through side); level
    # NO_SHAPE for a row that is no shape
    cdef Py_ssize_t i
    for i in range(start, stop):
        s.level[i] = 0 if row_box(side, data, i, &s.box[4 * i]) else NO_SHAPE


cdef int _cmp_double(const void* a, const void* b) noexcept nogil:
    cdef double x = (<const double*>a)[0]
    cdef double y = (<const double*>b)[0]
    return (x > y) - (x < y)


cdef void _sample(const Set* s, double* ext, int* n, double* span) noexcept nogil:
    # ext (OUT): the sizes of up to SAMPLE evenly spaced shapes; span (IN/OUT): the
    # running low corner (x0, y0) and high corner (x1, y1) of every box
    cdef Py_ssize_t i, step = s.n // SAMPLE + 1, next_ = 0
    cdef const double* b
    for i in range(s.n):
        if s.level[i] == NO_SHAPE:
            continue
        b = &s.box[4 * i]
        span[0] = min(span[0], b[0])
        span[1] = min(span[1], b[1])
        span[2] = max(span[2], b[2])
        span[3] = max(span[3], b[3])
        if i >= next_ and n[0] < SAMPLE:
            ext[n[0]] = max(b[2] - b[0], b[3] - b[1])
            n[0] += 1
            next_ = i + step


cdef bint _grid(Grid* g, Set* a, Set* b, bint two) noexcept nogil:
    # g (OUT): origin and cell sizes; sets each shape's level.  False: no shapes
    cdef double ext[2 * SAMPLE]
    cdef double span[4]
    cdef int n = 0, m = 0, L, k
    cdef double s, e, c
    cdef Py_ssize_t i
    cdef Set* sets[2]
    cdef const double* bx
    cdef double lo_x[HUGE]
    cdef double lo_y[HUGE]
    cdef double hi_x[HUGE]
    span[0] = span[1] = INFINITY
    span[2] = span[3] = -INFINITY
    _sample(a, ext, &n, span)
    if two:
        _sample(b, ext + n, &m, span)
        n += m
    if not (span[0] <= span[2]):
        return False  # no row is a shape
    s = 0.0
    if n > 0:
        qsort(ext, n, sizeof(double), _cmp_double)
        s = ext[n // 2] * CELL_FACTOR
    if not (s > 0.0 and s < 1e300):
        # most shapes are points (or the sizes overflow): cells from the spread
        s = max(span[2] - span[0], span[3] - span[1]) / sqrt(<double>(a.n + (b.n if two else 0)))
        if not (s > 0.0 and s < 1e300):
            s = 1.0
    s = max(s, 1e-300)
    for L in range(HUGE):
        g.inv[L] = 1.0 / ldexp(s, L)
        lo_x[L] = lo_y[L] = INFINITY
        hi_x[L] = -INFINITY
    sets[0] = a
    sets[1] = b
    for k in range(2 if two else 1):
        for i in range(sets[k].n):
            if sets[k].level[i] == NO_SHAPE:
                continue
            bx = &sets[k].box[4 * i]
            e = max(bx[2] - bx[0], bx[3] - bx[1])
            L = 0
            c = s
            while not (e <= c) and L <= MAX_LEVEL:
                L += 1
                c = ldexp(s, L)
            sets[k].level[i] = <signed char>L   # HUGE past MAX_LEVEL
            if L != HUGE:
                lo_x[L] = min(lo_x[L], bx[0])
                lo_y[L] = min(lo_y[L], bx[1])
                hi_x[L] = max(hi_x[L], bx[0])
    for L in range(HUGE):
        g.ox[L] = lo_x[L] if lo_x[L] <= hi_x[L] else 0.0
        g.oy[L] = lo_y[L] if lo_x[L] <= hi_x[L] else 0.0
        g.width[L] = <uint64_t>_cell(hi_x[L], g.ox[L], g.inv[L]) + 1 if lo_x[L] <= hi_x[L] else 1
    return True


# ------------------------------------------------------------------------------ cells

cdef inline int64_t _cell(double v, double o, double inv) noexcept nogil:
    # the cell index of coordinate v: monotone in v, so a box's cells are a range;
    # clamped, so that far outliers share the edge cells rather than overflow
    cdef double t = (v - o) * inv
    cdef int64_t i
    if t != t:
        # inf * 0 when a level's cell size overflowed: that level is one cell
        return 0
    if t >= CELL_LIMIT:
        return <int64_t>CELL_LIMIT
    if t <= -CELL_LIMIT:
        return -<int64_t>CELL_LIMIT
    # floor(t), exact below 2**62, without a call to libm's floor (no SSE4.1 on
    # baseline x86-64): truncate, then step down for negative fractions
    i = <int64_t>t
    if <double>i > t:
        i -= 1
    return i


cdef inline uint64_t _mod(uint64_t v, uint64_t n) noexcept nogil:
    # v % n, without a division in the common cases (64-bit division is slow)
    if v < n:
        return v
    if v < 2 * n:
        return v - n
    return v % n


cdef inline uint64_t _row_base(const Set* s, int level, int64_t cy, int c) noexcept nogil:
    # the bucket of cell (0, cy) of a level; cell (cx, cy) is cx buckets further (mod
    # nbuckets).  Row-major cell numbers modulo a prime: a compact scene is a dense
    # grid without collisions, neighbouring cells get neighbouring buckets (cache
    # friendly), and strided cells (a diagonal line) do not pile into few buckets.
    # Numbers below nbuckets < 2**32 multiply without overflow
    return _mod(_mod(<uint64_t>cy, s.nbuckets) * s.wmod[level] + s.lmod[level] + s.cmod[c],
                s.nbuckets)


cdef inline uint64_t _bucket(const Set* s, int level, int64_t cx, int64_t cy,
                             int c) noexcept nogil:
    # the bucket of a cell of a level and class c (of a dense level: a cell inside its
    # rectangle; a dense level's classes follow one another)
    if s.dense[level]:
        return <uint64_t>(s.base[level] + c * s.cells[level] + (cy - s.cy0[level]) * s.cols[level]
                          + (cx - s.cx0[level]))
    return <uint64_t>s.hbase + _mod(_row_base(s, level, cy, c) + _mod(<uint64_t>cx, s.nbuckets),
                                    s.nbuckets)


cdef uint64_t _prime_at_least(uint64_t n) noexcept nogil:
    cdef uint64_t p = n | 1, d
    cdef bint prime = False
    while not prime:
        prime = True
        d = 3
        while d * d <= p:
            if p % d == 0:
                prime = False
                p += 2
                break
            d += 2
    return p


cdef bint _classes(Set* a, Set* b, bint two) noexcept nogil:
    # a.nclass, a.compat, a.cls and b's the same (OUT): the distinct filters of the rows
    # of both sets as classes, when there are at most MAX_CLASS of them and some pair of
    # them never passes (else nclass 1: the grid is not split).  False: out of memory
    cdef Filter seen[MAX_CLASS]
    # the classes' words, and whether each is found yet (so never matched before)
    cdef uint32_t sc[MAX_CLASS]
    cdef uint32_t sm[MAX_CLASS]
    cdef uint32_t sg[MAX_CLASS]
    cdef uint32_t valid[MAX_CLASS]
    cdef uint32_t fc, fm, fg, m0, m1, m2, m3
    cdef const uint32_t* cat
    cdef const uint32_t* mask
    cdef const int32_t* group
    cdef unsigned char* cls
    cdef int n = 0, c, d, k
    cdef Py_ssize_t i
    cdef Set* sets[2]
    cdef bint split = False
    sets[0] = a
    sets[1] = b
    a.nclass = b.nclass = 1
    if a.rowf.cat == NULL:
        return True
    for d in range(MAX_CLASS):
        sc[d] = sm[d] = sg[d] = valid[d] = 0
    for k in range(2 if two else 1):
        sets[k].cls = <unsigned char*>_take(sets[k].n + 1)
        if sets[k].cls == NULL:
            return False
        cat = sets[k].rowf.cat
        mask = sets[k].rowf.mask
        group = sets[k].rowf.group
        cls = sets[k].cls
        for i in range(sets[k].n):
            fc = cat[i]
            fm = mask[i]
            fg = <uint32_t>group[i]
            # the class of this filter (n if none) by arithmetic, not a branch per
            # class: the classes differ, so at most one matches
            m0 = valid[0] & (((sc[0] ^ fc) | (sm[0] ^ fm) | (sg[0] ^ fg)) == 0)
            m1 = valid[1] & (((sc[1] ^ fc) | (sm[1] ^ fm) | (sg[1] ^ fg)) == 0)
            m2 = valid[2] & (((sc[2] ^ fc) | (sm[2] ^ fm) | (sg[2] ^ fg)) == 0)
            m3 = valid[3] & (((sc[3] ^ fc) | (sm[3] ^ fm) | (sg[3] ^ fg)) == 0)
            c = <int>(m1 + 2 * m2 + 3 * m3 + (1 - (m0 | m1 | m2 | m3)) * <uint32_t>n)
            if c == n:
                if n == MAX_CLASS:
                    return True  # too many classes: not split
                sc[n] = fc
                sm[n] = fm
                sg[n] = fg
                valid[n] = 1
                n += 1
            cls[i] = <unsigned char>c
    for c in range(n):
        seen[c].cat = sc[c]
        seen[c].mask = sm[c]
        seen[c].group = <int32_t>sg[c]
    for c in range(n):
        for d in range(n):
            a.compat[c * n + d] = passes(&seen[c], &seen[d])
            split = split or not a.compat[c * n + d]
    if split:
        a.nclass = b.nclass = n
        b.compat = a.compat
    return True


cdef bint _table(Set* s, const Grid* g) noexcept nogil:
    # s.order, s.start (OUT): the shapes sorted by the bucket of their home cell (a
    # counting sort), the HUGE ones last; s.levels, s.reach, the dense levels; room for
    # the items and their rows, which _fill writes.  False when out of memory
    cdef Py_ssize_t i, k, nb, w = s.side.width
    cdef Py_ssize_t* order
    cdef int L
    cdef uint64_t h
    cdef double e
    cdef const double* b
    cdef bint used[HUGE]
    cdef Py_ssize_t count[HUGE]
    cdef int64_t hi_x[HUGE]
    cdef int64_t hi_y[HUGE]
    cdef int64_t cx, cy
    cdef Py_ssize_t hashed
    cdef uint64_t* home
    memset(used, 0, sizeof(used))
    s.ngrid = 0
    s.nitems = 0
    for L in range(HUGE):
        s.reach[L] = 0.0
    for L in range(HUGE):
        count[L] = 0
        s.cx0[L] = s.cy0[L] = <int64_t>CELL_LIMIT
        hi_x[L] = hi_y[L] = -<int64_t>CELL_LIMIT
    for i in range(s.n):
        L = s.level[i]
        if L == NO_SHAPE:
            continue
        s.nitems += 1
        if L == HUGE:
            continue
        s.ngrid += 1
        used[L] = True
        count[L] += 1
        b = &s.box[4 * i]
        e = max(b[2] - b[0], b[3] - b[1])
        s.reach[L] = max(s.reach[L], e)
        cx = _cell(b[0], g.ox[L], g.inv[L])
        cy = _cell(b[1], g.oy[L], g.inv[L])
        s.cx0[L] = min(s.cx0[L], cx)
        s.cy0[L] = min(s.cy0[L], cy)
        hi_x[L] = max(hi_x[L], cx)
        hi_y[L] = max(hi_y[L], cy)
    s.nlevels = 0
    nb = 0
    hashed = 0
    for L in range(HUGE):
        s.dense[L] = False
        if used[L]:
            s.levels[s.nlevels] = L
            s.nlevels += 1
            # dense when the rectangle of occupied cells is at most a few per shape
            # (measured in doubles: the span of far outliers would overflow int64)
            if ((<double>hi_x[L] - <double>s.cx0[L] + 1.0)
                    * (<double>hi_y[L] - <double>s.cy0[L] + 1.0) <= 4.0 * count[L] + 64.0):
                s.cols[L] = hi_x[L] - s.cx0[L] + 1
                s.rows_[L] = hi_y[L] - s.cy0[L] + 1
                s.dense[L] = True
                s.base[L] = nb
                s.cells[L] = s.cols[L] * s.rows_[L]
                nb += s.cells[L] * s.nclass
            else:
                hashed += count[L]
    s.hbase = nb
    s.nbuckets = _prime_at_least(<uint64_t>(2 * hashed + 17))
    nb += <Py_ssize_t>s.nbuckets
    for L in range(HUGE):
        s.wmod[L] = g.width[L] % s.nbuckets
        s.lmod[L] = (<uint64_t>L * 1000003) % s.nbuckets
    for L in range(MAX_CLASS):
        s.cmod[L] = (<uint64_t>L * 7777777) % s.nbuckets
    s.start = <Py_ssize_t*>_take((nb + 1) * sizeof(Py_ssize_t))
    s.items = <Item*>_take((s.nitems + 1) * sizeof(Item))
    home = <uint64_t*>_take((s.n + 1) * sizeof(uint64_t))
    # the items' filters after their rows: one block, one scratch buffer fewer to cache
    # (split by class, the items' classes stand for their filters: none copied)
    s.rows = <double*>_take((s.nitems * w + 1) * sizeof(double)
                            + (s.nitems * sizeof(Filter) if s.rowf.cat != NULL
                               and s.nclass == 1 else 0))
    s.rowof = <Py_ssize_t*>_take((s.nitems + 1) * sizeof(Py_ssize_t))
    s.pure = <unsigned char*>_take(nb + 1)
    if s.side.kind == POLYGON:
        s.counts = <long long*>_take((s.nitems + 1) * sizeof(long long))
    s.filt = NULL
    if s.rowf.cat != NULL and s.nclass == 1 and s.rows != NULL:
        s.filt = <Filter*>(s.rows + s.nitems * w + 1)
    if (s.start == NULL or s.items == NULL or home == NULL or s.rows == NULL
            or s.rowof == NULL or s.pure == NULL
            or (s.side.kind == POLYGON and s.counts == NULL)
            or (s.rowf.cat != NULL and s.nclass == 1 and s.filt == NULL)
            or s.nbuckets >= MAX_BUCKETS):
        _give(home)
        return False
    memset(s.start, 0, (nb + 1) * sizeof(Py_ssize_t))
    for i in range(s.n):
        L = s.level[i]
        if L == NO_SHAPE or L == HUGE:
            continue
        b = &s.box[4 * i]
        h = _bucket(s, L, _cell(b[0], g.ox[L], g.inv[L]), _cell(b[1], g.oy[L], g.inv[L]),
                    s.cls[i] if s.nclass > 1 else 0)
        home[i] = h
        s.start[h + 1] += 1
    for k in range(nb):
        s.start[k + 1] += s.start[k]
    # the rows in item order (indices scatter within a small array); _fill then
    # writes the items and their rows in order
    order = <Py_ssize_t*>_take((s.nitems + 1) * sizeof(Py_ssize_t))
    if order == NULL:
        _give(home)
        return False
    k = s.ngrid
    for i in range(s.n):
        L = s.level[i]
        if L == NO_SHAPE:
            continue
        if L == HUGE:
            order[k] = i
            if s.filt != NULL:
                filter_of(&s.rowf, i, &s.filt[k])
            k += 1
        else:
            h = home[i]
            order[s.start[h]] = i
            if s.filt != NULL:
                # the filters written here, read in row order, rather than gathered
                # by _fill from three arrays at random rows
                filter_of(&s.rowf, i, &s.filt[s.start[h]])
            s.start[h] += 1
    _give(home)
    s.order = order
    # the placing moved each start to the next bucket's start: shift back
    for k in range(nb, 0, -1):
        s.start[k] = s.start[k - 1]
    s.start[0] = 0
    s.local = s.side
    s.local.counts = s.counts
    s.local.xs = s.local.ys = NULL
    return True


cdef void _fill(Set* s, const Grid* g, Side* side, const floating* data, Py_ssize_t start,
                Py_ssize_t stop) noexcept nogil:
    # s.items, s.rowof, s.rows, s.counts (OUT) for items start..stop: written in order,
    # reading the rows (through side) where they are
    cdef Py_ssize_t i, j, k, w = s.side.width
    cdef const Py_ssize_t* order = s.order
    cdef double* row
    cdef double tmp[4]
    cdef int L
    cdef Item* it
    for j in range(start, stop):
        i = order[j]
        if j + 16 < stop:
            # the rows are read in a random order: ask for them ahead of time
            prefetch(data + order[j + 16] * w)
        L = s.level[i]
        it = &s.items[j]
        # the box again, from the row just read (the same numbers as the first pass),
        # rather than from the boxes array: one random read per shape, not two
        row_box(side, data, i, tmp)
        it.x0 = tmp[0]
        it.y0 = tmp[1]
        it.x1 = tmp[2]
        it.y1 = tmp[3]
        it.row = i
        s.rowof[j] = i
        it.level = L
        it.cls = s.cls[i] if s.nclass > 1 else 0
        it.cx = _cell(tmp[0], g.ox[L], g.inv[L]) if L != HUGE else 0
        it.cy = _cell(tmp[1], g.oy[L], g.inv[L]) if L != HUGE else 0
        row = &s.rows[j * w]
        for k in range(w):
            row[k] = data[i * w + k]
        if s.counts != NULL:
            s.counts[j] = s.side.counts[i]


cdef void _purity(Set* s) noexcept nogil:
    # s.pure (OUT): whether each hashed bucket holds one cell only (after _fill)
    cdef Py_ssize_t k, j
    cdef Py_ssize_t nb = s.hbase + <Py_ssize_t>s.nbuckets
    for k in range(nb):
        s.pure[k] = True
        if k < s.hbase:
            continue  # a dense bucket is one cell
        for j in range(s.start[k] + 1, s.start[k + 1]):
            if (s.items[j].cx != s.items[s.start[k]].cx or s.items[j].cy != s.items[s.start[k]].cy
                    or s.items[j].level != s.items[s.start[k]].level
                    or s.items[j].cls != s.items[s.start[k]].cls):
                s.pure[k] = False
                break


# ----------------------------------------------------------------------------- queries

cdef inline bint _reserve(Out* o, Py_ssize_t more) noexcept nogil:
    # room for more keys; False when out of memory
    cdef Py_ssize_t cap = o.cap if o.cap else 4096
    cdef uint64_t* keys
    if o.count + more <= o.cap:
        return True
    while cap < o.count + more:
        cap *= 2
    keys = <uint64_t*>_grow(o.keys, cap * sizeof(uint64_t))
    if keys == NULL:
        o.failed = True
        return False
    o.keys = keys
    o.cap = cap
    return True


cdef inline bint _push(Out* o, uint64_t key) noexcept nogil:
    # one key more; False when out of memory
    if o.count == o.cap and not _reserve(o, 1):
        return False
    o.keys[o.count] = key
    o.count += 1
    return True


cdef struct Query:
    # one shape looking for partners: its set and item, the other set, pair keying
    const Set* sp
    const Set* sq
    Side* P                 # sp's local rows (the view of shape p stays loaded)
    Side* Q                 # sq's local rows
    Py_ssize_t p
    bint p_first            # the pair is (row of p, row of q); else the other way
    bint same               # one set: a pair of one level is reported by one of its shapes
    bint strict             # only levels above p's (the other set looks upward too)
    bint circles
    bint boxes              # two AABB sets: the exact test reads the copied rows
    bint filtered           # the sets have collision filters (both, or neither)
    int shift
    Out* out


cdef inline bint _reports(Py_ssize_t p, Py_ssize_t q) noexcept nogil:
    # which of two shapes of one set (and one level) reports their pair: the smaller
    # number when p + q is even, else the larger, so shapes share the work evenly
    return (p < q) != ((p ^ q) & 1)


cdef inline bint _candidate(Query* Q, Py_ssize_t q) noexcept nogil:
    # the exact test of items p and q, whose boxes overlap; False only when out of memory
    cdef double dx, dy
    cdef const double* u
    cdef const double* w
    cdef bint hit
    cdef Py_ssize_t i, j
    if Q.filtered and not (
            Q.sq.compat[Q.sp.items[Q.p].cls * Q.sq.nclass + Q.sq.items[q].cls]
            if Q.sq.nclass > 1 else passes(&Q.sp.filt[Q.p], &Q.sq.filt[q])):
        return True  # ruled out by the filters: no exact test
    if Q.circles:
        # two circles: the scalar kernel's numbers (the order only flips a sign)
        u = &Q.sp.rows[3 * Q.p]
        w = &Q.sq.rows[3 * q]
        dx = w[0] - u[0]
        dy = w[1] - u[1]
        hit = sqrt(dx * dx + dy * dy) <= u[2] + w[2]
    elif Q.boxes:
        # two AABBs: the scalar kernel's test on the copied rows (valid: they had a box)
        hit = aabb_rows_collide(&Q.sp.rows[4 * Q.p], &Q.sq.rows[4 * q])
    else:
        hit = (load_row(Q.Q, &Q.sq.rows[q * Q.Q.width], q)
               and collide_views(&Q.P.view, &Q.Q.view))
    if not hit:
        return True
    i = Q.sp.items[Q.p].row
    j = Q.sq.items[q].row
    if Q.p_first if not Q.same else i < j:
        return _push(Q.out, (<uint64_t>i << Q.shift) | <uint64_t>j)
    return _push(Q.out, (<uint64_t>j << Q.shift) | <uint64_t>i)


cdef inline uint64_t _key(uint64_t i, uint64_t j, bint same, bint p_first,
                          int shift) noexcept nogil:
    # the key of the pair of rows i (of the querying shape) and j: one set, the
    # smaller row first; two sets, the row of A first
    cdef uint64_t lo, hi
    if same:
        lo = i if i < j else j
        hi = j if i < j else i
    elif p_first:
        lo = i
        hi = j
    else:
        lo = j
        hi = i
    return (lo << shift) | hi


cdef inline bint _scan_circles(Query* Q, const Set* t, Py_ssize_t start, Py_ssize_t stop,
                               int64_t cx, int64_t cy, int L, int c,
                               bint checked) noexcept nogil:
    # circle p against items start..stop of a bucket: the exact test alone (it never
    # passes for boxes apart, which are padded) and without branches, the key written
    # every time and kept when the pair collides; the items' cells are compared only
    # when the bucket holds several cells (checked).  False when out of memory.  What
    # the loop reads is held in locals: the keys it stores could alias t's fields and
    # p's filter (the build does not assume strict aliasing), which C would reload
    cdef const double* u = &Q.sp.rows[3 * Q.p]
    cdef const double* rows = t.rows
    cdef const Py_ssize_t* rowof = t.rowof
    cdef const Item* items = t.items
    cdef const Filter* filt = t.filt
    cdef const double* w
    cdef const Item* e
    cdef double ux = u[0], uy = u[1], ur = u[2], dx, dy
    cdef uint64_t i = <uint64_t>Q.sp.rowof[Q.p]
    cdef int shift = Q.shift
    cdef bint same = Q.same, p_first = Q.p_first, hit
    # split by class: every item of class c passes (the filters' test is the class's)
    cdef bint filtered = Q.filtered and t.nclass == 1, grouped = False
    cdef Filter pf
    cdef Py_ssize_t m, n
    cdef uint64_t* keys
    if filtered:
        pf = Q.sp.filt[Q.p]
        # passes() with p's side of it done once: of group 0, p's pairs need no group
        # test (the usual case); else one compare
        grouped = pf.group != 0
    if not _reserve(Q.out, stop - start):
        return False
    keys = Q.out.keys
    n = Q.out.count
    for m in range(start, stop):
        w = &rows[3 * m]
        # two circles: the scalar kernel's numbers (the order only flips a sign)
        dx = w[0] - ux
        dy = w[1] - uy
        keys[n] = _key(i, <uint64_t>rowof[m], same, p_first, shift)
        hit = sqrt(dx * dx + dy * dy) <= ur + w[2]
        if filtered:
            hit = hit & ((pf.cat & filt[m].mask) != 0) & ((filt[m].cat & pf.mask) != 0)
            if grouped:
                hit = hit & (filt[m].group != pf.group)
        if checked:
            e = &items[m]
            hit = hit & (e.cx == cx) & (e.cy == cy) & (e.level == L) & (e.cls == c)
        n += hit
    Q.out.count = n
    return True


cdef inline bint _scan_boxes(Query* Q, const Set* t, Py_ssize_t start, Py_ssize_t stop,
                             int64_t cx, int64_t cy, int L, int c,
                             bint checked) noexcept nogil:
    # AABB p against items start..stop of a bucket: the items' boxes first (most of a
    # bucket's items are apart), then the scalar kernel's test on the copied rows
    # (valid: they had a box), inline rather than a call per candidate
    cdef const Item* it = &Q.sp.items[Q.p]
    cdef const double* u = &Q.sp.rows[4 * Q.p]
    cdef const Item* e
    cdef double x0 = it.x0, y0 = it.y0, x1 = it.x1, y1 = it.y1
    cdef uint64_t i = <uint64_t>Q.sp.rowof[Q.p]
    cdef int shift = Q.shift
    cdef bint same = Q.same, p_first = Q.p_first
    cdef Py_ssize_t m, n
    cdef uint64_t* keys
    # split by class, every item of class c passes
    cdef const Filter* pf = &Q.sp.filt[Q.p] if Q.filtered and t.nclass == 1 else NULL
    if not _reserve(Q.out, stop - start):
        return False
    keys = Q.out.keys
    n = Q.out.count
    for m in range(start, stop):
        e = &t.items[m]
        if (e.x0 <= x1 and x0 <= e.x1 and e.y0 <= y1 and y0 <= e.y1
                and (not checked or (e.cx == cx and e.cy == cy and e.level == L
                                     and e.cls == c))
                and (pf == NULL or passes(pf, &t.filt[m]))
                and aabb_rows_collide(u, &t.rows[4 * m])):
            keys[n] = _key(i, <uint64_t>t.rowof[m], same, p_first, shift)
            n += 1
    Q.out.count = n
    return True


cdef bint _query_dense(Query* Q, const Set* t, int L, int lp, int c, int64_t cx0,
                       int64_t cx1, int64_t cy0, int64_t cy1) noexcept nogil:
    # the partners of item Q.p in cells cx0..cx1 x cy0..cy1 of dense level L and class
    # c: each row of cells is one run of items, with no cell to check
    cdef const Item* it = &Q.sp.items[Q.p]
    cdef const Item* e
    cdef int64_t cy, xa, xb
    cdef Py_ssize_t b0, m, stop
    cdef bint own = Q.same and L == lp
    xb = min(cx1, t.cx0[L] + t.cols[L] - 1)
    cy0 = max(cy0, t.cy0[L])
    cy1 = min(cy1, t.cy0[L] + t.rows_[L] - 1)
    cy = cy0
    while cy <= cy1:
        xa = max(cx0, t.cx0[L])
        if own and cy == it.cy:
            xa = it.cx
        if xa <= xb:
            b0 = t.base[L] + c * t.cells[L] + (cy - t.cy0[L]) * t.cols[L] + (xa - t.cx0[L])
            m = t.start[b0]
            stop = t.start[b0 + (xb - xa) + 1]
            if own and cy == it.cy:
                # from our own cell: the items after us (a pair of one cell is
                # reported by its first item; another class's items of our cell
                # all come before us or all after)
                m = t.start[b0 + 1] if t.start[b0 + 1] <= Q.p else max(m, Q.p + 1)
            if Q.circles:
                if m < stop and not _scan_circles(Q, t, m, stop, 0, 0, L, c, False):
                    return False
            elif Q.boxes:
                if m < stop and not _scan_boxes(Q, t, m, stop, 0, 0, L, c, False):
                    return False
            else:
                while m < stop:
                    e = &t.items[m]
                    if e.x0 <= it.x1 and it.x0 <= e.x1 and e.y0 <= it.y1 and it.y0 <= e.y1:
                        if not _candidate(Q, m):
                            return False
                    m += 1
        cy += 1
    return True


cdef bint _query_hashed(Query* Q, const Set* t, int L, int lp, int c, int64_t cx0,
                        int64_t cx1, int64_t cy0, int64_t cy1) noexcept nogil:
    # the partners of item Q.p in cells cx0..cx1 x cy0..cy1 of hashed level L and class
    # c: a bucket at a time, its items' cells (and classes) checked unless it is pure
    cdef const Item* it = &Q.sp.items[Q.p]
    cdef const Item* e
    cdef bint checked = True
    cdef Py_ssize_t m, stop
    cdef int64_t cx, cy
    cdef uint64_t base, step, h
    if cx1 < cx0 or cy1 < cy0:
        return True
    base = _row_base(t, L, cy0, c)
    step = t.wmod[L]
    cy = cy0
    while cy <= cy1:
        cx = cx0
        if Q.same and L == lp and cy == it.cy:
            cx = it.cx
        # h: the bucket within the hashed ones
        h = _mod(base + _mod(<uint64_t>cx, t.nbuckets), t.nbuckets)
        while cx <= cx1:
            m = t.start[t.hbase + h]
            stop = t.start[t.hbase + h + 1]
            if m < stop:
                e = &t.items[m]
                checked = not t.pure[t.hbase + h]
                if not checked and not (e.cx == cx and e.cy == cy and e.level == L
                                        and e.cls == c):
                    m = stop  # the bucket holds one other cell only
            if Q.same and L == lp and cx == it.cx and cy == it.cy:
                # our own cell: the items after us (a bucket without us is all before
                # or all after us)
                m = max(m, Q.p + 1)
            if Q.circles and m < stop:
                if not _scan_circles(Q, t, m, stop, cx, cy, L, c, checked):
                    return False
                m = stop
            elif Q.boxes and m < stop:
                if not _scan_boxes(Q, t, m, stop, cx, cy, L, c, checked):
                    return False
                m = stop
            while m < stop:
                e = &t.items[m]
                if (e.x0 <= it.x1 and it.x0 <= e.x1 and e.y0 <= it.y1 and it.y0 <= e.y1
                        and (not checked or (e.cx == cx and e.cy == cy and e.level == L
                                             and e.cls == c))):
                    if not _candidate(Q, m):
                        return False
                m += 1
            h += 1
            if h == t.nbuckets:
                h = 0
            cx += 1
        base += step
        if base >= t.nbuckets:
            base -= t.nbuckets
        cy += 1
    return True


cdef bint _query(Query* Q, const Grid* g) noexcept nogil:
    # every partner of item Q.p; False only when out of memory
    cdef const Item* it = &Q.sp.items[Q.p]
    cdef const Set* t = Q.sq
    cdef const Item* e
    cdef int k, L, c, lp = it.level
    cdef Py_ssize_t q
    cdef int64_t cx0, cx1, cy0, cy1
    cdef double inv, reach, lo
    if not (Q.circles or Q.boxes) and not load_row(Q.P, &Q.sp.rows[Q.p * Q.P.width], Q.p):
        return True  # cannot happen: the row had a box
    if lp == HUGE:
        # a shape past the coarsest level: against every shape of the other set
        for q in range(t.nitems):
            e = &t.items[q]
            if Q.strict and e.level == HUGE:
                continue
            if Q.same and (q == Q.p or (e.level == HUGE and not _reports(Q.p, q))):
                continue
            if e.x0 <= it.x1 and it.x0 <= e.x1 and e.y0 <= it.y1 and it.y0 <= e.y1:
                if not _candidate(Q, q):
                    return False
        return True
    for k in range(t.nlevels):
        L = t.levels[k]
        if L < lp or (L == lp and Q.strict):
            continue
        inv = g.inv[L]
        reach = t.reach[L]
        # a partner's home cell holds its low corner, at most reach below ours (the
        # slack covers the rounding of the subtraction); home cells are never negative
        lo = it.x0 - (reach + (fabs(it.x0) + reach) * PAD)
        cx0 = max(_cell(lo, g.ox[L], inv), 0)
        cx1 = _cell(it.x1, g.ox[L], inv)
        lo = it.y0 - (reach + (fabs(it.y0) + reach) * PAD)
        cy0 = max(_cell(lo, g.oy[L], inv), 0)
        cy1 = _cell(it.y1, g.oy[L], inv)
        if Q.same and L == lp:
            # a pair of one level and set is reported by the shape whose home cell
            # comes first (row by row, then by item number within a cell): look only
            # at the cells from our own onwards
            cy0 = it.cy
        if t.nclass == 1:
            # not split by class (the usual call): the level's one pass
            if t.dense[L]:
                if not _query_dense(Q, t, L, lp, 0, cx0, cx1, cy0, cy1):
                    return False
            elif not _query_hashed(Q, t, L, lp, 0, cx0, cx1, cy0, cy1):
                return False
            continue
        for c in range(t.nclass):
            if not t.compat[it.cls * t.nclass + c]:
                continue  # no item of class c passes our filter
            if t.dense[L]:
                if not _query_dense(Q, t, L, lp, c, cx0, cx1, cy0, cy1):
                    return False
            elif not _query_hashed(Q, t, L, lp, c, cx0, cx1, cy0, cy1):
                return False
    return True


cdef void _query_chunk(Query* Q, Set* a, Set* b, bint two, const Grid* g, int shift,
                       Py_ssize_t start, Py_ssize_t stop, Out* out) noexcept nogil:
    # positions start..stop: items of A (against B's table, or A's own), then items
    # of B (against A's table, strictly coarser levels only); stops when out of memory
    cdef Py_ssize_t pos
    cdef Py_ssize_t na = a.nitems
    Q.shift = shift
    Q.same = not two
    Q.circles = a.side.kind == CIRCLE and b.side.kind == CIRCLE
    Q.boxes = a.side.kind == AABB_KIND and b.side.kind == AABB_KIND
    Q.filtered = a.rowf.cat != NULL
    Q.out = out
    for pos in range(start, stop):
        if pos < na:
            Q.sp = a
            Q.sq = b
            Q.P = &a.local
            Q.Q = &b.local
            Q.p = pos
            Q.p_first = True
            Q.strict = False
        else:
            Q.sp = b
            Q.sq = a
            Q.P = &b.local
            Q.Q = &a.local
            Q.p = pos - na
            Q.p_first = False
            Q.strict = True
        if not _query(Q, g):
            return


cdef void _radix(uint64_t** src, Py_ssize_t* counts, int nsrc, Py_ssize_t m, int bits,
                 uint64_t* out, Py_ssize_t* hist) noexcept nogil:
    # out (OUT): the m keys of the src buffers sorted, as (i, j) pairs in 2 m words; the
    # first pass reads the sources, the later passes ping-pong between out's two halves
    # so that the last one lands in the first half; hist: 2**12 + 1 counters
    cdef int passes = (bits + 11) // 12 if bits > 0 else 1
    cdef int width = (bits + passes - 1) // passes if bits > 0 else 1
    cdef uint64_t mask = (<uint64_t>1 << width) - 1
    cdef uint64_t* dst = out if passes % 2 == 1 else out + m
    cdef uint64_t* from_ = NULL
    cdef Py_ssize_t k, t
    cdef int d, c
    cdef Py_ssize_t nbuckets = <Py_ssize_t>1 << width
    for d in range(passes):
        memset(hist, 0, (nbuckets + 1) * sizeof(Py_ssize_t))
        if d == 0:
            for c in range(nsrc):
                for t in range(counts[c]):
                    hist[((src[c][t] >> (d * width)) & mask) + 1] += 1
        else:
            for t in range(m):
                hist[((from_[t] >> (d * width)) & mask) + 1] += 1
        for k in range(nbuckets):
            hist[k + 1] += hist[k]
        if d == 0:
            for c in range(nsrc):
                for t in range(counts[c]):
                    k = (src[c][t] >> (d * width)) & mask
                    dst[hist[k]] = src[c][t]
                    hist[k] += 1
        else:
            for t in range(m):
                k = (from_[t] >> (d * width)) & mask
                dst[hist[k]] = from_[t]
                hist[k] += 1
        from_ = dst
        dst = out + m if dst == out else out
    # from_ == out: each key becomes its pair, from the back (2 t >= t)
    return


cdef struct PhaseRows:
    # one phase of building a set's table, over rows (boxes) or items (fill)
    Set* s
    const Grid* grid
    int phase
    bint f32
    bint failed


cdef void _phase_rows(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # rows start..stop of one phase (a pool block): its own side and scratch
    cdef PhaseRows* job = <PhaseRows*>ctx
    cdef Set* s = job.s
    cdef Side side = s.side
    side.xs = side.ys = NULL
    if side.kind == POLYGON:
        side.xs = <double*>malloc((2 * side.capacity + 1) * sizeof(double))
        if side.xs == NULL:
            job.failed = True
            return
        side.ys = side.xs + side.capacity
    if job.phase == 0:
        if job.f32:
            _boxes[float](s, &side, <const float*>s.data, start, stop)
        else:
            _boxes[double](s, &side, <const double*>s.data, start, stop)
    elif job.f32:
        _fill[float](s, job.grid, &side, <const float*>s.data, start, stop)
    else:
        _fill[double](s, job.grid, &side, <const double*>s.data, start, stop)
    free(side.xs)


cdef struct QueryRows:
    # the queries of a call: the sets, the grid, and one key buffer per thread
    Set* a
    Set* b
    bint two
    const Grid* grid
    int shift
    Out* outs
    bint failed


cdef void _query_rows(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # query positions start..stop (a pool block): its own copies of the sets (for
    # their polygon scratch), the keys into its thread's buffer
    cdef QueryRows* job = <QueryRows*>ctx
    cdef Set a = job.a[0]
    cdef Set b = job.b[0]
    cdef Query Q
    cdef bint failed = False
    a.local.xs = a.local.ys = b.local.xs = b.local.ys = NULL
    if a.local.kind == POLYGON:
        a.local.xs = <double*>malloc((2 * a.local.capacity + 1) * sizeof(double))
        a.local.ys = a.local.xs + a.local.capacity
        failed = a.local.xs == NULL
    if b.local.kind == POLYGON:
        b.local.xs = <double*>malloc((2 * b.local.capacity + 1) * sizeof(double))
        b.local.ys = b.local.xs + b.local.capacity
        failed = failed or b.local.xs == NULL
    if failed:
        job.failed = True
    elif not job.outs[slot].failed:
        _query_chunk(&Q, &a, &b, job.two, job.grid, job.shift, start, stop, &job.outs[slot])
    free(a.local.xs)
    free(b.local.xs)


cdef class _Pairs:
    # one overlapping_pairs call: the operands' buffers, boxes, tables and results
    cdef Set a, b
    cdef bint two
    cdef Grid grid
    cdef int shift
    cdef uint64_t jmask
    cdef Buffers arrays      # the operands' rows, held until the end
    cdef list results        # (address, count) of each thread's key buffer
    cdef int slots           # the threads of the call (pool slots)

    def __cinit__(self):
        self.arrays = Buffers.__new__(Buffers)
        self.results = []
        memset(&self.a, 0, sizeof(Set))
        memset(&self.b, 0, sizeof(Set))

    def __dealloc__(self):
        self._free_results()
        self._free_set(&self.a)
        self._free_set(&self.b)

    cdef void _free_set(self, Set* s) noexcept:
        _give(s.box)
        _give(s.level)
        _give(s.items)
        _give(s.rows)
        _give(s.counts)
        _give(s.start)
        _give(s.rowof)
        _give(s.order)
        _give(s.pure)
        _give(s.cls)
        free(s.side.xs)
        memset(s, 0, sizeof(Set))

    cdef void _free_results(self) noexcept:
        for address, _ in self.results:
            _give(<void*><size_t>address)
        self.results = []

    cdef int _set(self, Set* s, object x, object dtype, object filters) except -1:
        # fills s from a shape array: its rows and filters (None: none), and room for
        # boxes, levels and scratch
        cdef Side* side = &s.side
        side.xs = side.ys = NULL
        s.data = array_side(self.arrays, side, x, dtype)
        filter_rows(self.arrays, &s.rowf, filters)
        s.n = len(x)
        s.nclass = 1
        s.box = <double*>_take((4 * s.n + 1) * sizeof(double))
        s.level = <signed char*>_take(s.n + 1)
        if side.kind == POLYGON:
            side.xs = <double*>malloc((2 * side.capacity + 1) * sizeof(double))
            side.ys = side.xs + side.capacity
        if s.box == NULL or s.level == NULL or (side.kind == POLYGON and side.xs == NULL):
            raise MemoryError("no memory for the broadphase boxes")
        return 0

    cdef bint f32

    cdef int prepare(self, object A, object B, object dtype, int workers) except -1:
        # boxes, levels, grid and tables; 0 when no row is a shape.  The boxes and the
        # items are written by rows, split over the workers; the rest is one pass
        cdef bint ok = True, built
        cdef Py_ssize_t nb
        self.two = B is not None
        self.f32 = dtype.itemsize == 4
        fa = A._filters()
        fb = B._filters() if self.two else None
        if self.two and (fa is None) != (fb is None):
            # one side filtered: the other's rows pass every filter but its own
            fa = fa if fa is not None else _filters.defaults(len(A))
            fb = fb if fb is not None else _filters.defaults(len(B))
        self._set(&self.a, A, dtype, fa)
        if self.two:
            self._set(&self.b, B, dtype, fb)
        self.slots = slots_for(workers)
        if self.slots > 1 and self.a.n + self.b.n >= 2048:
            # the queries will want the helpers: wake them now, so that they are
            # awake by then, not 40-150 us into the first parallel pass
            wake_helpers(self.slots)
        self._split(0, 0, self.a.n)
        if self.two:
            self._split(0, 1, self.b.n)
        with nogil:
            built = _grid(&self.grid, &self.a, &self.b, self.two)
            if built:
                ok = _classes(&self.a, &self.b, self.two)
            if built and ok:
                ok = _table(&self.a, &self.grid)
                if self.two and ok:
                    ok = _table(&self.b, &self.grid)
        if not ok:
            raise MemoryError("no memory for the broadphase grid")
        if not built:
            return 0
        self._split(1, 0, self.a.nitems)
        if self.two:
            self._split(1, 1, self.b.nitems)
        with nogil:
            _purity(&self.a)
            _give(self.a.order)
            _give(self.a.cls)
            self.a.order = NULL
            self.a.cls = NULL
            if self.two:
                _purity(&self.b)
                _give(self.b.order)
                _give(self.b.cls)
                self.b.order = NULL
                self.b.cls = NULL
        nb = self.b.n if self.two else self.a.n
        self.shift = 1
        while (<Py_ssize_t>1 << self.shift) < nb:
            self.shift += 1
        self.jmask = (<uint64_t>1 << self.shift) - 1
        if self.a.n >= (<Py_ssize_t>1 << (63 - self.shift)):
            # a pair is one 64-bit key (i << shift | j): beyond 2**31 rows each, and
            # far beyond what memory holds
            raise MemoryError("too many rows to key the broadphase's pairs")
        return 1

    cdef int _split(self, int phase, int which, Py_ssize_t n) except -1:
        # phase 0 (boxes) or 1 (items) of set which, over rows/items 0..n, in blocks
        # over the call's threads
        cdef PhaseRows job
        job.s = &self.a if which == 0 else &self.b
        job.grid = &self.grid
        job.phase = phase
        job.f32 = self.f32
        job.failed = False
        run_rows(_phase_rows, &job, n, 1024, self.slots)
        if job.failed:
            raise MemoryError("no memory for the polygon scratch buffers")
        return 0

    cdef int queries(self, Py_ssize_t nq) except -1:
        # every query position 0..nq, in blocks over the call's threads, each thread
        # collecting its pairs' keys in a buffer of its own (self.results)
        cdef QueryRows job
        cdef int k
        cdef bint failed
        job.a = &self.a
        job.b = &self.b if self.two else &self.a
        job.two = self.two
        job.grid = &self.grid
        job.shift = self.shift
        job.failed = False
        job.outs = <Out*>calloc(self.slots, sizeof(Out))
        if job.outs == NULL:
            raise MemoryError("no memory for the broadphase's pairs")
        try:
            run_rows(_query_rows, &job, nq, 256, self.slots)
            failed = job.failed
            for k in range(self.slots):
                failed = failed or job.outs[k].failed
                if job.outs[k].keys != NULL:
                    self.results.append((<size_t>job.outs[k].keys, job.outs[k].count))
        finally:
            free(job.outs)
        if failed:
            raise MemoryError("no memory for the broadphase's pairs")
        return 0

    cdef object finish(self):
        # the (M, 2) int64 result: the chunks' keys, sorted
        cdef Py_ssize_t m = 0, t, c
        cdef int nsrc = len(self.results), bits = 0, shift
        cdef uint64_t top, key, jmask
        cdef uint64_t** src = <uint64_t**>malloc((nsrc + 1) * sizeof(uint64_t*))
        cdef Py_ssize_t* counts = <Py_ssize_t*>malloc((nsrc + 1) * sizeof(Py_ssize_t))
        cdef Py_ssize_t* hist = <Py_ssize_t*>malloc(((1 << 12) + 1) * sizeof(Py_ssize_t))
        cdef uint64_t* out
        cdef int64_t* pairs
        try:
            if src == NULL or counts == NULL or hist == NULL:
                raise MemoryError("no memory to sort the broadphase's pairs")
            for c in range(nsrc):
                address, count = self.results[c]
                src[c] = <uint64_t*><size_t>address
                counts[c] = count
                m += count
            res = np.empty((m, 2), dtype=np.int64)
            if m == 0:
                return res
            top = ((<uint64_t>self.a.n) << self.shift) | self.jmask
            while bits < 64 and (top >> bits) != 0:
                bits += 1
            out = <uint64_t*><size_t>res.ctypes.data
            pairs = <int64_t*>out
            shift = self.shift
            jmask = self.jmask
            with nogil:
                _radix(src, counts, nsrc, m, bits, out, hist)
                # each sorted key becomes its pair, from the back: pair t fills words
                # 2 t and 2 t + 1, never a key not yet read
                t = m - 1
                while t >= 0:
                    key = out[t]
                    pairs[2 * t] = <int64_t>(key >> shift)
                    pairs[2 * t + 1] = <int64_t>(key & jmask)
                    t -= 1
            return res
        finally:
            free(src)
            free(counts)
            free(hist)
            self._free_results()


def overlapping_pairs(A, B, int nworkers):
    """The pairs of rows of shape arrays ``A`` and ``B`` (or within ``A`` when ``B`` is
    None) that collide, on ``nworkers`` threads (``fastcol.overlapping_pairs``
    documents it; it has checked the arguments)."""
    wide = A.dtype != _batch.FLOAT32 or (B is not None and B.dtype != _batch.FLOAT32)
    dtype = _batch.FLOAT64 if wide else _batch.FLOAT32
    cdef _Pairs job = _Pairs()
    if not job.prepare(A, B, dtype, nworkers):
        return np.empty((0, 2), dtype=np.int64)
    cdef Py_ssize_t nq = job.a.nitems + (job.b.nitems if job.two else 0)
    job.queries(nq)
    return job.finish()



