"""Scene index (compiled twin of fastcol._ref.index; fastcol.ShapeIndex documents it).

A bounding-volume hierarchy over the items' padded boxes (the broadphase's
``view_box``).  The build sorts the items by the Morton code of their boxes' centres
(a radix sort) and splits each node where its codes' highest differing bit changes:
the halves of its cell of a 65536 x 65536 grid, found by bisection, until a node
holds at most ``LEAF`` items.  bench_index.py measured it against the binned surface
area heuristic and against median splits (``set_split``): the same query times on
uniform and on clustered scenes (within 10%), a build four times faster.
Items more than ``BIG`` times an ordinary item's size sit in a subtree of their own,
so that one huge item does not stretch the boxes of the small ones around it; rows
that are no shape have empty boxes and a subtree of their own, which no query enters
until a ``refit`` finds them shapes.  Nodes deeper than ``DEEPEST`` are halved by
count, so the tree stays under ``DEEPEST + log2(N)`` levels and a traversal's stack
is bounded.

The tree is flat and 4-wide: the binary tree the build splits is collapsed so that a
node holds its children and grandchildren (up to four lanes: half the levels, half
the dependent loads of a descent), each lane's box and link (an inner node, or a
leaf's first slot and count) in the node, the boxes per coordinate so that one visit
tests the lanes two at a time (SSE2 lanes, fc_pairs.h: the scalar operations, the
same numbers), and the nodes three whole cache lines each.  Measured on 100,000 box
queries of 100,000 items: 17.8 ms as a binary tree, 12.8 ms so.  Slots list the items
in leaf order, each with its box; the index keeps a copy of the items' rows in slot order (per
array, in its own dtype; an OBB's as doubles with its angle's cosine and sine, which
a refit computes again only for an angle that changed), taken at build, refit and
rebuild, so a query reads nearby items from nearby memory.

Queries run without the GIL, their rows in blocks over the pool's threads, nearby
rows first (in the order of the high half of the Morton code of a point of each,
gathered into one run of memory).
Each traverses iteratively with a stack, nearer child first for rays and nearest,
and drops a node only when its box cannot meet the query: the box tests are widened
so that rounding never drops a node that holds an answer, and the answer is decided
by the scalar kernels of the brute force (``collide_views``, ``raycast_view``,
``closest_views``), so it equals the reference's bit for bit.  One answer needs no
kernel: an item whose padded box lies inside an AABB query collides with it.

Collision filters: the index keeps the items' filters in slot order (taken at build,
refit and rebuild, with the rows), and a query with filters (its shapes', or its rays'
and points') tests them against an item before the exact test.  Without filters on
either side the test is skipped.
"""

from cython cimport floating
from libc.math cimport INFINITY, NAN, cos, isfinite, sin, sqrt
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.stdint cimport uintptr_t
from libc.string cimport memcpy, memset
from cpython.pythread cimport (
    WAIT_LOCK,
    PyThread_acquire_lock,
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)

from .batch cimport Buffers, Side, load_row
from .broadphase cimport obb_box, row_box, view_box
# two lanes of a node at a time: exact comparisons, the scalar operations
from .lanes cimport *
from .filters cimport Filter, FilterRows, filter_of, filter_rows, passes
from .pool cimport rows_fn, run_rows, slots_for
from .queries cimport View, closest_views, collide_views
from .shapes cimport AABB_KIND, OBB_KIND, POLYGON
from .sweeps cimport cast_views, raycast_view

cdef extern from "fc_prefetch.h":
    void prefetch "FC_PREFETCH" (const void* p) noexcept nogil

import numpy as np

from fastcol import _batch, _filters


cdef enum:
    LEAF = 8            # items per leaf (measured: 4 and 16 slower)
    BINS = 16           # candidate planes of a split: BINS - 1
    DEEPEST = 64        # deeper nodes are halved by count
    WIDE = 4            # lanes of a node: 2 ** LEVELS (measured: 8 lanes 6% slower)
    LEVELS = 2          # binary levels in a node
    STACK = 200         # > (DEEPEST + 64) / LEVELS node levels, WIDE - 1 pending lanes
                        # each, and WIDE more
    SAMPLE = 255        # items sampled for the ordinary size
    OBB_KEPT = 7        # an OBB's kept row: cx, cy, half_w, half_h, angle, cos, sin
    AHEAD = 16          # a copy asks for the row this many kept rows ahead
    SAH = 0             # how nodes are split (bench_index.py measures them)
    MEDIAN = 1
    MORTON = 2

# the box tests' slack: a ray's entry time and a box's distance are computed with a few
# roundings (a relative error under 2**-51); shrinking them by 2**-40 makes them lower
# bounds, and the padded boxes (view_box) hold the shapes' rounded extents
cdef double WIDEN = 2.0 ** -40
# items larger than this many ordinary ones go to a subtree of their own
cdef double BIG = 16.0
# the filter of an item or a query row without one: all bits, no group
cdef Filter NO_FILTER = Filter(0xFFFFFFFF, 0xFFFFFFFF, 0)
# the split the builds use (bench_index.py sets the others to compare)
cdef int _split_mode = MORTON


def set_split(name):
    """Build later trees with ``"morton"`` (the default: the items sorted by the
    Morton code of their centres, each node split where its codes' highest differing
    bit changes), ``"sah"`` (binned surface area heuristic) or ``"median"`` (the median
    centre along the wider axis): for bench_index.py."""
    global _split_mode
    _split_mode = {"sah": SAH, "median": MEDIAN, "morton": MORTON}[name]


# ---------------------------------------------------------------------------- sources

cdef struct Source:
    # one shape array as the kernels read it: rows of width numbers, float32 or float64
    int kind
    bint f32
    Py_ssize_t width, capacity, first, n
    const void* data
    const long long* counts


cdef struct Node:
    # up to WIDE children (lanes), their boxes side by side per coordinate so that one
    # visit tests them all with straight-line code; an empty lane has the empty box
    double x0[WIDE]
    double y0[WIDE]
    double x1[WIDE]
    double y1[WIDE]
    long long link[WIDE]    # an inner lane's node (>= 0), or a leaf lane's slots: -1 -
                            # (first * 16 + count), count <= LEAF (an empty lane: -1)
    double box[4]           # the node's own box: its lanes' union (x0, y0, x1, y1)
                            # (192 bytes in all: three cache lines)


cdef struct Scene:
    # what a query reads: the indexed arrays, the index's copy of their rows, and the
    # tree
    Source* src             # the arrays (read by build and refit)
    const Source* kept      # the rows as the last build or refit read them, per array
    const long long* at     # per slot: the item's row in its array's copy
    const int* srcof        # per slot: its array
    int nsrc
    Py_ssize_t nitems, nnodes
    const Node* nodes
    const long long* order  # the item in each slot
    const double* ibox      # 4 per slot: the item's box
    Py_ssize_t capacity     # the most vertices of a polygon row of any array
    const Filter* filt      # per slot: the item's collision filter, or all passing
    Py_ssize_t fstep        # (step 0: one record) when only the query has filters


cdef int _source(Buffers held, Source* s, object x, Py_ssize_t first) except -1:
    # s from shape array x, whose rows are items first, first + 1, ...
    s.kind = x.kind
    s.first = first
    s.n = len(x)
    s.counts = NULL
    s.capacity = 0
    if s.kind == POLYGON:
        rows = x.vertices
        s.capacity = rows.shape[1]
        s.width = 2 * s.capacity
        s.counts = <const long long*>held.address(x.counts, False)
    else:
        rows = x.data
        s.width = rows.shape[1]
    s.f32 = rows.dtype.itemsize == 4
    s.data = held.address(rows, False)
    return 0


cdef inline void _read_by(Side* side, const Source* s) noexcept nogil:
    # side set to read the rows of s (load_row, row_box)
    side.kind = s.kind
    side.view.kind = s.kind
    side.width = s.width
    side.capacity = s.capacity
    side.counts = s.counts


cdef inline bint _load(const Source* s, Side* side, Py_ssize_t row) noexcept nogil:
    # side.view (OUT): row of s; False when it is no shape
    _read_by(side, s)
    if s.f32:
        return load_row(side, <const float*>s.data + row * s.width, row)
    return load_row(side, <const double*>s.data + row * s.width, row)


cdef inline int _source_of(const Scene* sc, long long item) noexcept nogil:
    # the array of the item: the last whose first item is <= item
    cdef int lo = 0, hi = sc.nsrc - 1, mid
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if sc.src[mid].first <= item:
            lo = mid
        else:
            hi = mid - 1
    return lo


cdef inline bint _load_item(const Scene* sc, Side* side, long long item) noexcept nogil:
    # side.view (OUT): the item, from its array
    cdef int k = _source_of(sc, item)
    return _load(&sc.src[k], side, item - sc.src[k].first)


cdef inline bint _finite2(double x, double y) noexcept nogil:
    # x - x is 0.0 for every finite x, NaN for NaN and inf
    return (x - x) + (y - y) == 0.0


cdef inline bint _kept_obb(const double* row, View* v) noexcept nogil:
    # v (OUT): the OBB of a kept row (its angle's cosine and sine kept with it); False
    # when it is no shape (load_row's test)
    cdef int j
    for j in range(5):
        if not isfinite(row[j]):
            return False
        v.f[j] = row[j]
    v.kind = OBB_KIND
    v.cos = row[5]
    v.sin = row[6]
    return v.f[2] >= 0.0 and v.f[3] >= 0.0


cdef inline bint _load_slot(const Scene* sc, Side* side, Py_ssize_t s) noexcept nogil:
    # side.view (OUT): the item in slot s, from the index's copy of the rows; an OBB's
    # row there holds its angle's cosine and sine too (load_row's, kept)
    cdef const Source* c = &sc.kept[sc.srcof[s]]
    if c.kind != OBB_KIND:
        return _load(c, side, sc.at[s])
    return _kept_obb(<const double*>c.data + sc.at[s] * OBB_KEPT, &side.view)


cdef inline void _empty(double* b) noexcept nogil:
    # the box of a row that is no shape: meets nothing, and unions leave it out
    b[0] = b[1] = INFINITY
    b[2] = b[3] = -INFINITY


cdef inline void _union(double* b, const double* c) noexcept nogil:
    b[0] = min(b[0], c[0])
    b[1] = min(b[1], c[1])
    b[2] = max(b[2], c[2])
    b[3] = max(b[3], c[3])


cdef inline bint _scratch(Side* side, Py_ssize_t capacity) noexcept nogil:
    # side's polygon scratch (False: no memory)
    side.fixed = False
    side.index = NULL
    side.xs = <double*>malloc((2 * capacity + 2) * sizeof(double))
    side.ys = side.xs + capacity + 1
    return side.xs != NULL


# ------------------------------------------------------------------------------ boxes

cdef struct RowsJob:
    # a pass over the arrays' rows: the items' boxes (_box_rows), or the index's copy
    # of the rows (_copy_span)
    const Scene* sc
    const long long* kslot  # _copy_span: per array, from its first item on, the slot of
                            # each kept row
    double* box             # _box_rows: 4 per item, at its number; _copy_span: NULL
                            # (the rows only), else (refit) each slot's box too
    double* trig            # per item, an OBB's cosine and sine (NaN when not read):
                            # written by _box_rows, taken by a build's _copy_span
    bint failed


cdef void _box_rows(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # the boxes of items start..stop, array by array
    cdef RowsJob* job = <RowsJob*>ctx
    cdef const Scene* sc = job.sc
    cdef const Source* a
    cdef Side side
    cdef Py_ssize_t k, lo, hi
    cdef int j
    if not _scratch(&side, sc.capacity):
        job.failed = True
        return
    for j in range(sc.nsrc):
        a = &sc.src[j]
        _rows_in(a, start, stop, &lo, &hi)
        for k in range(a.first + lo, a.first + hi):
            if not _row_box(a, &side, k - a.first, &job.box[4 * k]):
                _empty(&job.box[4 * k])
                side.view.cos = NAN
            if a.kind == OBB_KIND:
                # kept for the copy, which would compute them again
                job.trig[2 * k] = side.view.cos
                job.trig[2 * k + 1] = side.view.sin
    free(side.xs)


cdef inline void _rows_in(const Source* a, Py_ssize_t start, Py_ssize_t stop,
                          Py_ssize_t* lo, Py_ssize_t* hi) noexcept nogil:
    # lo..hi (OUT): the rows of a whose items are among start..stop (lo >= hi: none)
    lo[0] = max(start, a.first) - a.first
    hi[0] = min(stop, a.first + a.n) - a.first


cdef inline bint _row_box(const Source* a, Side* side, Py_ssize_t row, double* b) noexcept nogil:
    # b (OUT): the padded box of a's row (row_box reads circles and AABBs in place)
    _read_by(side, a)
    if a.f32:
        return row_box(side, <const float*>a.data, row, b)
    return row_box(side, <const double*>a.data, row, b)


# ------------------------------------------------------------------------ the copy
# The index's copy of an array's rows is in slot order.  A build fills it and a refit
# refreshes it (and computes the slots' boxes from it) array by array, so each loop
# reads one kind and one dtype, never branching on them per row; the array's rows are
# read where the items are, scattered, so each loop asks for them ahead.

cdef void _copy_span(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # kept rows start..stop, numbered across the arrays as their items are
    cdef RowsJob* job = <RowsJob*>ctx
    cdef const Scene* sc = job.sc
    cdef const Source* a
    cdef Side side
    cdef Py_ssize_t lo, hi
    cdef int k
    side.xs = NULL
    if job.box != NULL and not _scratch(&side, sc.capacity):
        job.failed = True
        return
    for k in range(sc.nsrc):
        a = &sc.src[k]
        _rows_in(a, start, stop, &lo, &hi)
        if lo >= hi:
            continue
        _read_by(&side, &sc.kept[k])
        if a.kind == OBB_KIND:
            if a.f32:
                _copy_obbs(sc, k, <const float*>a.data, lo, hi, job.kslot + a.first,
                           job.box, job.trig, &side)
            else:
                _copy_obbs(sc, k, <const double*>a.data, lo, hi, job.kslot + a.first,
                           job.box, job.trig, &side)
        elif a.f32:
            _copy_plain(sc, k, <const float*>a.data, lo, hi, job.kslot + a.first,
                        job.box, &side)
        else:
            _copy_plain(sc, k, <const double*>a.data, lo, hi, job.kslot + a.first,
                        job.box, &side)
    free(side.xs)


cdef void _copy_plain(const Scene* sc, int k, const floating* rows, Py_ssize_t lo,
                      Py_ssize_t hi, const long long* ks, double* box,
                      Side* side) noexcept nogil:
    # kept rows lo..hi of array k (not OBBs) copied from its rows, and their slots'
    # boxes computed from the copy (box not NULL)
    cdef const Source* a = &sc.src[k]
    cdef floating* kept = <floating*>sc.kept[k].data
    cdef long long* counts = <long long*>sc.kept[k].counts
    cdef Py_ssize_t w = a.width, j, m, row, s
    for j in range(lo, hi):
        if j + AHEAD < hi:
            prefetch(rows + (sc.order[ks[j + AHEAD]] - a.first) * w)
        s = ks[j]
        row = sc.order[s] - a.first
        if w == 4:
            # segments and AABBs (the commonest rows) without a loop to run
            kept[4 * j] = rows[4 * row]
            kept[4 * j + 1] = rows[4 * row + 1]
            kept[4 * j + 2] = rows[4 * row + 2]
            kept[4 * j + 3] = rows[4 * row + 3]
        else:
            for m in range(w):
                kept[j * w + m] = rows[row * w + m]
        if counts != NULL:
            counts[j] = a.counts[row]
        if box != NULL and not row_box(side, kept, j, &box[4 * s]):
            _empty(&box[4 * s])


cdef void _copy_obbs(const Scene* sc, int k, const floating* rows, Py_ssize_t lo,
                     Py_ssize_t hi, const long long* ks, double* box, const double* trig,
                     Side* side) noexcept nogil:
    # _copy_plain for an OBB array: kept as doubles with the angle's cosine and sine,
    # computed again only for an angle that changed (taken from trig, per item, where
    # it holds them)
    cdef const Source* a = &sc.src[k]
    cdef double* kept
    cdef double angle
    cdef Py_ssize_t j, m, row, s
    for j in range(lo, hi):
        if j + AHEAD < hi:
            prefetch(rows + (sc.order[ks[j + AHEAD]] - a.first) * 5)
        s = ks[j]
        row = sc.order[s] - a.first
        kept = <double*>sc.kept[k].data + j * OBB_KEPT
        for m in range(4):
            kept[m] = rows[row * 5 + m]
        angle = rows[row * 5 + 4]
        if not (angle == kept[4] and isfinite(angle)):
            kept[4] = angle
            if trig != NULL and isfinite(trig[2 * sc.order[s]]):
                kept[5] = trig[2 * sc.order[s]]
                kept[6] = trig[2 * sc.order[s] + 1]
            else:
                kept[5] = cos(angle)
                kept[6] = sin(angle)
        if box != NULL:
            if _kept_obb(kept, &side.view):
                obb_box(&side.view, &box[4 * s])
            else:
                _empty(&box[4 * s])


cdef void _fit(Node* nodes, Py_ssize_t nnodes, const double* ibox) noexcept nogil:
    # every lane's box from its slots' boxes, and every node's: children come after
    # their parent.  A box's (x0, y0) and (x1, y1) are taken as two pairs of lanes
    # (fc_pairs.h): min and max are exact, so the boxes are the scalar unions
    cdef Py_ssize_t node, s
    cdef Node* nd
    cdef double b[4]
    cdef fc_v2 lo, hi, nlo, nhi, b4
    cdef int k
    for node in range(nnodes - 1, -1, -1):
        nd = &nodes[node]
        nlo = fc_splat(INFINITY)
        nhi = fc_splat(-INFINITY)
        for k in range(WIDE):
            if nd.link[k] >= 0:
                fc_rows(nodes[nd.link[k]].box, 1, 1, &lo)
                fc_rows(&nodes[nd.link[k]].box[2], 1, 1, &hi)
            else:
                lo = fc_splat(INFINITY)
                hi = fc_splat(-INFINITY)
                for s in range(_leaf_first(nd.link[k]), _leaf_first(nd.link[k])
                               + _leaf_count(nd.link[k])):
                    fc_rows(&ibox[4 * s], 1, 1, &b4)
                    lo = fc_min(lo, b4)
                    fc_rows(&ibox[4 * s + 2], 1, 1, &b4)
                    hi = fc_max(hi, b4)
            fc_store(b, lo)
            fc_store(&b[2], hi)
            nd.x0[k] = b[0]
            nd.y0[k] = b[1]
            nd.x1[k] = b[2]
            nd.y1[k] = b[3]
            nlo = fc_min(nlo, lo)
            nhi = fc_max(nhi, hi)
        fc_store(nd.box, nlo)
        fc_store(&nd.box[2], nhi)


cdef Node* _alloc_nodes(Py_ssize_t n) noexcept nogil:
    # room for n nodes from a multiple of 64 bytes, so that each node is three whole
    # cache lines (measured: the query 5% faster than at malloc's 16), malloc's pointer
    # kept just before them (for _free_nodes); NULL: no memory
    cdef char* raw = <char*>malloc(n * sizeof(Node) + 64 + sizeof(void*))
    cdef uintptr_t at
    if raw == NULL:
        return NULL
    at = (<uintptr_t>(raw + sizeof(void*)) + 63) & ~(<uintptr_t>63)
    (<void**>at - 1)[0] = raw
    return <Node*>at


cdef void _free_nodes(Node* nodes) noexcept nogil:
    if nodes != NULL:
        free((<void**>nodes - 1)[0])


cdef Py_ssize_t _widen(Node* nodes, const long long* link,
                       Py_ssize_t nlinks) noexcept nogil:
    # nodes (OUT, boxes left to _fit): the binary tree of link (_build's) with the
    # top LEVELS levels under each inner node collapsed into one node: its lanes are
    # its children, each inner one replaced by its own two, LEVELS times, so every
    # inner lane is LEVELS binary levels down (at most nlinks // 2 + 1 nodes).  A node's
    # children are numbered together after it, its last lane's first, and filled depth
    # first from the last lane's, so that _fit, from the last node to the first, reads
    # the slots' boxes forwards, as _build's numbering has it do (measured: numbered
    # breadth first, _fit took three times as long in a build).  Returns the number of
    # nodes (-1: no memory)
    cdef long long* of
    cdef long long* todo
    cdef long long lanes[WIDE]
    cdef long long opened[WIDE]
    cdef long long c
    cdef Py_ssize_t w, made = 1, top = 1, first
    cdef int n, k, j, m, level
    if nlinks == 0:
        return 0
    # the binary node of each, and the nodes still to fill (a stack)
    of = <long long*>malloc(2 * (nlinks // 2 + 2) * sizeof(long long))
    if of == NULL:
        return -1
    todo = of + nlinks // 2 + 2
    of[0] = 0
    todo[0] = 0
    while top > 0:
        top -= 1
        w = todo[top]
        # the node itself (a root that is a leaf stays one leaf lane), opened
        lanes[0] = of[w]
        n = 1
        for level in range(LEVELS):
            m = 0
            for j in range(n):
                c = lanes[j]
                if link[2 * c + 1] == 0:
                    opened[m] = link[2 * c]
                    opened[m + 1] = link[2 * c] + 1
                    m += 2
                else:
                    opened[m] = c
                    m += 1
            n = m
            for j in range(n):
                lanes[j] = opened[j]
        first = made
        for k in range(WIDE - 1, -1, -1):
            if k >= n:
                nodes[w].link[k] = -1
            elif link[2 * lanes[k] + 1] == 0:
                nodes[w].link[k] = made
                of[made] = lanes[k]
                made += 1
            else:
                nodes[w].link[k] = -1 - (link[2 * lanes[k]] * 16 + link[2 * lanes[k] + 1])
        # the last lane's child filled next
        for c in range(made - 1, first - 1, -1):
            todo[top] = c
            top += 1
    free(of)
    return made


# ------------------------------------------------------------------- Morton order
# Rows are answered in the order of a Morton code of a point of each (a circle's
# centre, a segment's first end, a box's corner, a ray's origin), so that the rows a
# thread answers one after the other read the same nodes and items: on 100,000 random
# queries the tree and the rows no longer fit in the cache, and answering them in row
# order cost 3-4 times as much per query as on 10,000.

cdef inline unsigned int _spread(unsigned int v) noexcept nogil:
    # the low 16 bits of v, one every other bit
    v &= 0xFFFF
    v = (v | (v << 8)) & 0x00FF00FF
    v = (v | (v << 4)) & 0x0F0F0F0F
    v = (v | (v << 2)) & 0x33333333
    v = (v | (v << 1)) & 0x55555555
    return v


cdef inline unsigned int _cell(double x, double lo, double scale) noexcept nogil:
    # x's 16-bit coordinate in the scene's box (out of it, or NaN: clamped)
    cdef double u = (x - lo) * scale
    if not u > 0.0:
        return 0
    if u >= 65535.0:
        return 65535
    return <unsigned int>u


cdef inline unsigned int _code(double x, double y, const double* root, double sx,
                               double sy) noexcept nogil:
    # the Morton code of (x, y) on a 65536 x 65536 grid over box root
    return _spread(_cell(x, root[0], sx)) | (_spread(_cell(y, root[1], sy)) << 1)


cdef void _radix_sort(unsigned int* keys, long long* values, unsigned int* keys2,
                      long long* values2, Py_ssize_t n, int low) noexcept nogil:
    # keys[:n] sorted ascending by their bytes from byte low (0: whole keys, 2: their
    # high half), values[:n] with them (stable; keys2 and values2: scratch of n each).
    # One pass counts the bytes; each byte's pass then moves the rows between the two
    # buffers, so an even number of passes leaves them in keys and values
    cdef Py_ssize_t i, total, c
    cdef Py_ssize_t count[4][256]
    cdef unsigned int* src = keys
    cdef unsigned int* dst = keys2
    cdef long long* vsrc = values
    cdef long long* vdst = values2
    cdef unsigned int* kt
    cdef long long* vt
    cdef unsigned int key
    cdef int d, b
    memset(count, 0, sizeof(count))
    for i in range(n):
        key = keys[i]
        count[0][key & 255] += 1
        count[1][(key >> 8) & 255] += 1
        count[2][(key >> 16) & 255] += 1
        count[3][key >> 24] += 1
    for d in range(low, 4):
        total = 0
        for b in range(256):
            c = count[d][b]
            count[d][b] = total
            total += c
        for i in range(n):
            b = (src[i] >> (8 * d)) & 255
            dst[count[d][b]] = src[i]
            vdst[count[d][b]] = vsrc[i]
            count[d][b] += 1
        kt = src
        src = dst
        dst = kt
        vt = vsrc
        vsrc = vdst
        vdst = vt


cdef long long* _nearby_order(const double* root, const void* data, bint f32,
                              Py_ssize_t step, Py_ssize_t n) noexcept nogil:
    # the rows 0..n sorted by the Morton code of the point (data[i * step],
    # data[i * step + 1]) in box root; NULL when there is no memory (or no need)
    cdef unsigned int* keys
    cdef long long* perm
    cdef Py_ssize_t i
    cdef double x, y, sx, sy
    if n < 1024 or step == 0 or not (root[0] <= root[2]):
        return NULL
    sx = 65535.0 / (root[2] - root[0]) if root[2] > root[0] else 0.0
    sy = 65535.0 / (root[3] - root[1]) if root[3] > root[1] else 0.0
    keys = <unsigned int*>malloc(2 * n * sizeof(unsigned int))
    perm = <long long*>malloc(2 * n * sizeof(long long))
    if keys == NULL or perm == NULL:
        free(keys)
        free(perm)
        return NULL
    for i in range(n):
        if f32:
            x = (<const float*>data)[i * step]
            y = (<const float*>data)[i * step + 1]
        else:
            x = (<const double*>data)[i * step]
            y = (<const double*>data)[i * step + 1]
        keys[i] = _code(x, y, root, sx, sy)
        perm[i] = i
    # the high half of the code (a 256 x 256 grid) is all the nearness the rows need
    _radix_sort(keys, perm, keys + n, perm + n, n, 2)
    free(keys)
    return perm


# ----------------------------------------------------------------------------- build

# The build works on slots: order[k] is the item in slot k and box[4 k] its box, moved
# together, so every pass over a node's items reads one run of memory.

cdef inline double _centre(const double* box, Py_ssize_t k, int axis) noexcept nogil:
    return 0.5 * (box[4 * k + axis] + box[4 * k + axis + 2])


cdef inline bint _placed(const double* box, Py_ssize_t k) noexcept nogil:
    # whether the box has a finite centre, by which the build places it (the others:
    # rows that are no shape, and boxes beyond the float range)
    return box[4 * k] <= box[4 * k + 2] and _finite2(_centre(box, k, 0), _centre(box, k, 1))


cdef inline void _swap(long long* order, double* box, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    cdef long long t = order[i]
    cdef double b
    cdef int a
    order[i] = order[j]
    order[j] = t
    for a in range(4):
        b = box[4 * i + a]
        box[4 * i + a] = box[4 * j + a]
        box[4 * j + a] = b


cdef Py_ssize_t _select(long long* order, double* box, Py_ssize_t start, Py_ssize_t end,
                        Py_ssize_t mid, int axis) noexcept nogil:
    # slots start..end rearranged so that no centre before mid is greater than the one
    # at mid and none after it is less (a quickselect); returns mid
    cdef Py_ssize_t lo = start, hi = end - 1, i, j
    cdef double pivot
    while lo < hi:
        pivot = _centre(box, (lo + hi) // 2, axis)
        i = lo
        j = hi
        while i <= j:
            while _centre(box, i, axis) < pivot:
                i += 1
            while _centre(box, j, axis) > pivot:
                j -= 1
            if i <= j:
                _swap(order, box, i, j)
                i += 1
                j -= 1
        if mid <= j:
            hi = j
        elif mid >= i:
            lo = i
        else:
            break
    return mid


cdef inline double _half_perimeter(const double* b) noexcept nogil:
    return (b[2] - b[0]) + (b[3] - b[1]) if b[0] <= b[2] else 0.0


cdef inline int _bin(const double* box, Py_ssize_t k, int axis, double lo,
                     double scale) noexcept nogil:
    cdef int b = <int>((_centre(box, k, axis) - lo) * scale)
    return min(max(b, 0), BINS - 1)


cdef Py_ssize_t _split(long long* order, double* box, Py_ssize_t start, Py_ssize_t end,
                       int depth) noexcept nogil:
    # where slots start..end (placed items) split in two, rearranged so
    cdef double lo[2]
    cdef double hi[2]
    cdef double bins[BINS][4]
    cdef double left[BINS][4]
    cdef Py_ssize_t count[BINS]
    cdef Py_ssize_t below[BINS]
    cdef double acc[4]
    cdef double c, extent, scale, cost, best_cost
    cdef Py_ssize_t k, mid = (start + end) // 2, n = end - start, i, j
    cdef int axis, b, best = -1
    lo[0] = lo[1] = INFINITY
    hi[0] = hi[1] = -INFINITY
    for k in range(start, end):
        for axis in range(2):
            c = _centre(box, k, axis)
            lo[axis] = min(lo[axis], c)
            hi[axis] = max(hi[axis], c)
    axis = 0 if hi[0] - lo[0] >= hi[1] - lo[1] else 1
    extent = hi[axis] - lo[axis]
    if not (extent > 0.0 and extent < INFINITY) or depth >= DEEPEST:
        return mid  # coincident centres (or too deep): halves by count
    if _split_mode == MEDIAN:
        return _select(order, box, start, end, mid, axis)
    scale = BINS / extent
    for b in range(BINS):
        count[b] = 0
        _empty(bins[b])
    for k in range(start, end):
        b = _bin(box, k, axis, lo[axis], scale)
        count[b] += 1
        _union(bins[b], &box[4 * k])
    # left[b], below[b]: the box and count of bins 0..b; then the planes from the right
    _empty(acc)
    i = 0
    for b in range(BINS):
        _union(acc, bins[b])
        i += count[b]
        left[b][0] = acc[0]
        left[b][1] = acc[1]
        left[b][2] = acc[2]
        left[b][3] = acc[3]
        below[b] = i
    _empty(acc)
    best_cost = INFINITY
    for b in range(BINS - 1, 0, -1):
        _union(acc, bins[b])
        j = n - below[b - 1]
        if below[b - 1] == 0 or j == 0:
            continue
        cost = _half_perimeter(left[b - 1]) * below[b - 1] + _half_perimeter(acc) * j
        if cost <= best_cost:
            best_cost = cost
            best = b
    if best < 0:
        return mid
    # the slots of bins below best first
    i = start
    j = end - 1
    while i <= j:
        if _bin(box, i, axis, lo[axis], scale) < best:
            i += 1
        else:
            _swap(order, box, i, j)
            j -= 1
    return i if start < i < end else mid


cdef bint _morton_order(long long* order, const double* items, Py_ssize_t n,
                        unsigned int* codes) noexcept nogil:
    # order[:n] (placed items) sorted by the Morton code of their centres in the box of
    # the centres, codes (OUT) the sorted codes; False: no memory
    cdef double root[4]
    cdef double x, y, sx, sy
    cdef Py_ssize_t k
    cdef unsigned int* keys2 = <unsigned int*>malloc(n * sizeof(unsigned int) + 1)
    cdef long long* tmp = <long long*>malloc(n * sizeof(long long) + 1)
    if keys2 == NULL or tmp == NULL:
        free(keys2)
        free(tmp)
        return False
    _empty(root)
    for k in range(n):
        x = _centre(items, order[k], 0)
        y = _centre(items, order[k], 1)
        root[0] = min(root[0], x)
        root[1] = min(root[1], y)
        root[2] = max(root[2], x)
        root[3] = max(root[3], y)
    sx = 65535.0 / (root[2] - root[0]) if root[2] - root[0] > 0.0 else 0.0
    sy = 65535.0 / (root[3] - root[1]) if root[3] - root[1] > 0.0 else 0.0
    for k in range(n):
        codes[k] = _code(_centre(items, order[k], 0), _centre(items, order[k], 1), root, sx, sy)
    _radix_sort(codes, order, keys2, tmp, n, 0)
    free(keys2)
    free(tmp)
    return True


cdef double _typical(const double* items, const long long* order, Py_ssize_t n) noexcept nogil:
    # the size of an ordinary item among order[:n] (placed): the median extent of a
    # sample, or the mean spacing of the items if larger (most items are points)
    cdef double ext[SAMPLE]
    cdef double lo[2]
    cdef double hi[2]
    cdef double c, area
    cdef Py_ssize_t k, m = 0, step = n // SAMPLE + 1
    cdef const double* b
    cdef int a
    lo[0] = lo[1] = INFINITY
    hi[0] = hi[1] = -INFINITY
    for k in range(n):
        for a in range(2):
            c = _centre(items, order[k], a)
            lo[a] = min(lo[a], c)
            hi[a] = max(hi[a], c)
        if k % step == 0 and m < SAMPLE:
            b = &items[4 * order[k]]
            ext[m] = max(b[2] - b[0], b[3] - b[1])
            m += 1
    qsort(ext, m, sizeof(double), _by_value)
    area = max(hi[0] - lo[0], 0.0) * max(hi[1] - lo[1], 0.0)
    return max(ext[m // 2], sqrt(area / n)) if m > 0 else 0.0


cdef int _by_value(const void* a, const void* b) noexcept nogil:
    cdef double x = (<const double*>a)[0]
    cdef double y = (<const double*>b)[0]
    return (x > y) - (x < y)


cdef Py_ssize_t _morton_split(const unsigned int* codes, Py_ssize_t start,
                              Py_ssize_t end) noexcept nogil:
    # where slots start..end, sorted by their codes, split: at the first code with the
    # highest bit in which the first and last codes differ (the halves of the node's
    # cell of the Morton grid), or in the middle when they are equal
    cdef unsigned int x = codes[start] ^ codes[end - 1]
    cdef unsigned int bit
    cdef Py_ssize_t lo = start, hi = end - 1, m
    if x == 0:
        return (start + end) // 2
    # the highest set bit of x: every bit below it set, then the top one kept
    x |= x >> 1
    x |= x >> 2
    x |= x >> 4
    x |= x >> 8
    x |= x >> 16
    bit = x ^ (x >> 1)
    # codes[start] has the bit clear, codes[end - 1] set: the first that has it
    while lo + 1 < hi:
        m = (lo + hi) // 2
        if codes[m] & bit:
            hi = m
        else:
            lo = m
    return hi


cdef Py_ssize_t _build(Py_ssize_t n, const double* items, long long* order, double* box,
                       long long* link) noexcept nogil:
    # order, box, link (OUT): the tree over items 0..n whose boxes are items (4 each),
    # with each slot's item and box; returns its number of nodes (-1: no memory; 0 for
    # no items).  The slots hold three groups, each in a subtree of its own: the
    # ordinary items, the large ones (BIG times an ordinary item, which would stretch
    # the boxes of the small ones around them), and the items that are not placed
    cdef Py_ssize_t k, top = 0, nnodes = 1, start, end, mid, nplaced = 0, g
    cdef Py_ssize_t group[2]
    cdef long long node, t
    cdef int depth, a
    cdef long long* tasks
    cdef unsigned int* codes = NULL
    cdef double big
    cdef const double* b
    if n == 0:
        return 0
    tasks = <long long*>malloc((4 * (2 * n + 2)) * sizeof(long long))
    if tasks == NULL:
        return -1
    # the placed items from the front, the others from the back, each in item order
    for k in range(n):
        if _placed(items, k):
            order[nplaced] = k
            nplaced += 1
        else:
            order[n - 1 - (k - nplaced)] = k
    for k in range((n - nplaced) // 2):
        t = order[nplaced + k]
        order[nplaced + k] = order[n - 1 - k]
        order[n - 1 - k] = t
    big = BIG * _typical(items, order, nplaced)
    # the ordinary items before the large ones (tasks holds these for a moment)
    start = 0
    g = 0
    for k in range(nplaced):
        b = &items[4 * order[k]]
        if max(b[2] - b[0], b[3] - b[1]) > big:
            tasks[g] = order[k]
            g += 1
        else:
            order[start] = order[k]
            start += 1
    memcpy(&order[start], tasks, g * sizeof(long long))
    group[0] = start
    group[1] = nplaced
    if _split_mode == MORTON:
        codes = <unsigned int*>malloc(nplaced * sizeof(unsigned int) + 1)
        if (codes == NULL or not _morton_order(order, items, group[0], codes)
                or not _morton_order(order + group[0], items, nplaced - group[0],
                                     codes + group[0])):
            free(tasks)
            free(codes)
            return -1
    for k in range(n):
        for a in range(4):
            box[4 * k + a] = items[4 * order[k] + a]
    tasks[0] = 0
    tasks[1] = 0
    tasks[2] = n
    tasks[3] = 0
    top = 1
    while top > 0:
        top -= 1
        node = tasks[4 * top]
        start = tasks[4 * top + 1]
        end = tasks[4 * top + 2]
        depth = <int>tasks[4 * top + 3]
        if end - start <= LEAF:
            link[2 * node] = start
            link[2 * node + 1] = end - start
            continue
        if start < group[0] < end:
            mid = group[0]  # a group boundary within the node: the groups apart
        elif start < group[1] < end:
            mid = group[1]
        elif start >= nplaced:
            mid = (start + end) // 2
        elif codes != NULL and depth < DEEPEST:
            mid = _morton_split(codes, start, end)
        else:
            mid = _split(order, box, start, end, depth)
        link[2 * node] = nnodes
        link[2 * node + 1] = 0
        for k in range(2):
            tasks[4 * top] = nnodes + k
            tasks[4 * top + 1] = start if k == 0 else mid
            tasks[4 * top + 2] = mid if k == 0 else end
            tasks[4 * top + 3] = depth + 1
            top += 1
        nnodes += 2
    free(tasks)
    free(codes)
    return nnodes


# ---------------------------------------------------------------------- box queries

cdef inline bint _overlap(const double* a, const double* b) noexcept nogil:
    # all four tests, without a branch between them (which would be taken at random)
    return (a[0] <= b[2]) & (b[0] <= a[2]) & (a[1] <= b[3]) & (b[1] <= a[3])


cdef inline bint _inside(const double* b, const double* a) noexcept nogil:
    # whether box b lies in box a
    return (a[0] <= b[0]) & (b[2] <= a[2]) & (a[1] <= b[1]) & (b[3] <= a[3])


cdef inline double _entry(const double* b, const double* ray, double limit) noexcept nogil:
    # a lower bound of the least t in [0, limit] at which the ray (ox, oy, dx, dy) is
    # in box b, or INFINITY when it is not there for any such t
    cdef double lo = 0.0, hi = limit, t0, t1, t
    cdef int a
    if not b[0] <= b[2]:
        return INFINITY
    for a in range(2):
        if ray[2 + a] == 0.0:
            if not (b[a] <= ray[a] and ray[a] <= b[a + 2]):
                return INFINITY
            continue
        t0 = (b[a] - ray[a]) / ray[2 + a]
        t1 = (b[a + 2] - ray[a]) / ray[2 + a]
        if t0 > t1:
            t = t0
            t0 = t1
            t1 = t
        # outwards: the exact times lie within two roundings of these
        t0 = t0 * (1.0 - WIDEN) if t0 > 0.0 else t0 * (1.0 + WIDEN)
        t1 = t1 * (1.0 + WIDEN) if t1 > 0.0 else t1 * (1.0 - WIDEN)
        lo = max(lo, t0)
        hi = min(hi, t1)
    return lo if lo <= hi else INFINITY


cdef inline double _swept_entry(const double* b, const double* qb, double vx, double vy,
                                double limit) noexcept nogil:
    # a lower bound of the least t in [0, limit] at which box qb moved by t v meets
    # box b (b grown by qb's half extents, slab-tested along v: _entry of the swept
    # box, each slab's times from qb's far and near sides), or INFINITY when it does
    # not for any such t
    cdef double lo = 0.0, hi = limit, t0, t1, t, v
    cdef int a
    if not b[0] <= b[2]:
        return INFINITY
    for a in range(2):
        v = vx if a == 0 else vy
        if v == 0.0:
            if not (b[a] <= qb[a + 2] and qb[a] <= b[a + 2]):
                return INFINITY
            continue
        t0 = (b[a] - qb[a + 2]) / v
        t1 = (b[a + 2] - qb[a]) / v
        if t0 > t1:
            t = t0
            t0 = t1
            t1 = t
        # outwards: the exact times lie within two roundings of these
        t0 = t0 * (1.0 - WIDEN) if t0 > 0.0 else t0 * (1.0 + WIDEN)
        t1 = t1 * (1.0 + WIDEN) if t1 > 0.0 else t1 * (1.0 - WIDEN)
        lo = max(lo, t0)
        hi = min(hi, t1)
    return lo if lo <= hi else INFINITY


cdef inline double _gap(const double* a, const double* b) noexcept nogil:
    # a lower bound of the distance between anything in box a and anything in box b
    cdef double dx = max(max(a[0] - b[2], b[0] - a[2]), 0.0)
    cdef double dy = max(max(a[1] - b[3], b[1] - a[3]), 0.0)
    if not (dx < 1e150 and dy < 1e150):
        return max(dx, dy) * (1.0 - WIDEN)  # no overflow (and inf for an empty box)
    return sqrt(dx * dx + dy * dy) * (1.0 - WIDEN)


# ---------------------------------------------------------------------------- queries

cdef struct Found:
    # a slot's (row, item) pairs, growing
    long long* pairs
    Py_ssize_t count, cap


cdef struct QueryJob:
    const Scene* sc
    Source q                # the query shapes
    const Filter* qfilt     # per query row (by row number): its filter; NULL: none
    Py_ssize_t qstep        # (step 0: one record) when only the items have filters
    int query               # COLLIDE, NEAREST or RAY
    Found* found            # per slot (COLLIDE)
    long long* items        # (N, k) (NEAREST), (N,) (RAY)
    double* dist            # (N, k)
    Py_ssize_t k
    double limit            # max_distance
    # RAY: origins, directions and max_t (a step of 0: one value for every row), outputs;
    # CAST: the velocities in org (so) and max_t, the same outputs
    const double* org
    const double* dirs
    const double* lim
    Py_ssize_t so, sd, sl
    unsigned char* hit
    double* t
    double* point
    double* normal
    # the rows in the order they are answered: nearby first (NULL: in row order), and
    # whether the rows were copied in that order (then row perm[k] is read at k)
    const long long* perm
    bint gathered
    bint failed


cdef enum:
    COLLIDE = 0
    NEAREST = 1
    RAY = 2
    CAST = 3


cdef inline bint _add(Found* f, long long i, long long item) noexcept nogil:
    cdef long long* grown
    if f.count == f.cap:
        grown = <long long*>realloc(f.pairs, (4 * f.cap + 64) * sizeof(long long))
        if grown == NULL:
            return False
        f.pairs = grown
        f.cap = 2 * f.cap + 32
    f.pairs[2 * f.count] = i
    f.pairs[2 * f.count + 1] = item
    f.count += 1
    return True


cdef int _by_item(const void* a, const void* b) noexcept nogil:
    cdef long long x = (<const long long*>a)[1]
    cdef long long y = (<const long long*>b)[1]
    return (x > y) - (x < y)


cdef inline void _lane_pair(const Node* nd, int k, fc_v2* b) noexcept nogil:
    # b[0:4] (OUT): x0, y0, x1, y1 of lanes k and k + 1 of nd, one lane each
    fc_rows(&nd.x0[k], 1, 1, &b[0])
    fc_rows(&nd.y0[k], 1, 1, &b[1])
    fc_rows(&nd.x1[k], 1, 1, &b[2])
    fc_rows(&nd.y1[k], 1, 1, &b[3])


cdef inline void _item_pair(const double* ibox, int j, int count, fc_v2* b) noexcept nogil:
    # b[0:4] (OUT): x0, y0, x1, y1 of boxes j and j + 1 of ibox, one lane each (box j
    # in both when it is the last of count: its second lane is to be dropped)
    fc_rows(&ibox[4 * j], 4, 4 if j + 1 < count else 0, b)


cdef inline int _meet2(const fc_v2* b, const fc_v2* q) noexcept nogil:
    # bit k set (k = 0, 1): the box in lane k of b[0:4] (x0, y0, x1, y1) meets the box
    # in q (_overlap's four tests, no branch)
    return fc_bits(fc_and(fc_and(fc_le(b[0], q[2]), fc_le(q[0], b[2])),
                          fc_and(fc_le(b[1], q[3]), fc_le(q[1], b[3]))))


cdef inline unsigned int _meets(const Node* nd, const fc_v2* q) noexcept nogil:
    # bit k set: lane k's box meets the box whose x0, y0, x1, y1 fill q[0:4], two lanes
    # at a time
    cdef fc_v2 b[4]
    cdef int m = 0, k
    for k in range(0, WIDE, 2):
        _lane_pair(nd, k, b)
        m |= _meet2(b, q) << k
    return <unsigned int>m


cdef inline void _gaps(const Node* nd, const fc_v2* q, double* g) noexcept nogil:
    # g (OUT): _gap of each lane's box and the box whose x0, y0, x1, y1 fill q[0:4],
    # two lanes at a time: the same operations, so the same numbers (Cython's max(a,
    # b) is b > a ? b : a, MAXPD's fc_max(b, a))
    cdef fc_v2 b[4]
    cdef int k
    for k in range(0, WIDE, 2):
        _lane_pair(nd, k, b)
        fc_store(&g[k], _gap2(b, q))


cdef inline fc_v2 _gap2(const fc_v2* b, const fc_v2* q) noexcept nogil:
    # _gap of two boxes (their x0, y0, x1, y1 in b[0:4]) and the box in q
    cdef fc_v2 zero = fc_splat(0.0), huge = fc_splat(1e150), shrink = fc_splat(1.0 - WIDEN)
    cdef fc_v2 dx = fc_max(zero, fc_max(fc_sub(q[0], b[2]), fc_sub(b[0], q[2])))
    cdef fc_v2 dy = fc_max(zero, fc_max(fc_sub(q[1], b[3]), fc_sub(b[1], q[3])))
    cdef fc_v2 near = fc_sqrt(fc_add(fc_mul(dx, dx), fc_mul(dy, dy)))
    return fc_mul(fc_select(fc_and(fc_lt(dx, huge), fc_lt(dy, huge)), near, fc_max(dy, dx)),
                  shrink)


cdef inline void _item_gaps(const double* ibox, int count, const fc_v2* q,
                            double* g) noexcept nogil:
    # g (OUT): _gap of each of the count boxes ibox[4 j:4 j + 4] and the box in q, two
    # at a time
    cdef fc_v2 b[4]
    cdef int j
    for j in range(0, count, 2):
        _item_pair(ibox, j, count, b)
        fc_store(&g[j], _gap2(b, q))


cdef inline void _entries(const Node* nd, const double* p, const double* q, const double* v,
                          double limit, double* g) noexcept nogil:
    # g (OUT): per lane, _entry of its box (p = q = the ray's origin, v its direction)
    # or _swept_entry (p = qb + 2, q = qb, v the velocity), two lanes at a time
    cdef fc_v2 b[4]
    cdef int k
    for k in range(0, WIDE, 2):
        _lane_pair(nd, k, b)
        fc_store(&g[k], _entry2(b, p, q, v, limit))


cdef inline void _item_entries(const double* ibox, int count, const double* p,
                               const double* q, const double* v, double limit,
                               double* g) noexcept nogil:
    # g (OUT): _entries of the count boxes ibox[4 j:4 j + 4], two at a time
    cdef fc_v2 b[4]
    cdef int j
    for j in range(0, count, 2):
        _item_pair(ibox, j, count, b)
        fc_store(&g[j], _entry2(b, p, q, v, limit))


cdef inline fc_v2 _entry2(const fc_v2* b, const double* p, const double* q, const double* v,
                          double limit) noexcept nogil:
    # _entry (or _swept_entry: see _entries) of two boxes, their x0, y0, x1, y1 in b[0:4]:
    # the same operations, so the same numbers (max(lo, t0) is MAXPD's fc_max(t0, lo),
    # min(hi, t1) MINPD's fc_min(t1, hi); a branch's INFINITY a lane's mask)
    cdef fc_v2 lo, hi, t0, t1, s0, s1, dv, pv, qv
    cdef fc_m2 ok
    cdef fc_v2 zero = fc_splat(0.0), inf = fc_splat(INFINITY)
    cdef fc_v2 down = fc_splat(1.0 - WIDEN), up = fc_splat(1.0 + WIDEN)
    cdef int a
    ok = fc_le(b[0], b[2])  # not the empty box
    lo = zero
    hi = fc_splat(limit)
    for a in range(2):
        pv = fc_splat(p[a])
        qv = fc_splat(q[a])
        if v[a] == 0.0:
            ok = fc_and(ok, fc_and(fc_le(b[a], pv), fc_le(qv, b[a + 2])))
            continue
        dv = fc_splat(v[a])
        t0 = fc_div(fc_sub(b[a], pv), dv)
        t1 = fc_div(fc_sub(b[a + 2], qv), dv)
        # if t0 > t1: swapped
        s0 = fc_min(t1, t0)
        s1 = fc_max(t0, t1)
        t0 = fc_select(fc_lt(zero, s0), fc_mul(s0, down), fc_mul(s0, up))
        t1 = fc_select(fc_lt(zero, s1), fc_mul(s1, up), fc_mul(s1, down))
        lo = fc_max(t0, lo)
        hi = fc_min(t1, hi)
    return fc_select(fc_and(ok, fc_le(lo, hi)), lo, inf)


cdef inline long long _leaf_first(long long link) noexcept nogil:
    # a leaf lane's first slot
    return (-1 - link) >> 4


cdef inline int _leaf_count(long long link) noexcept nogil:
    # a leaf lane's number of slots
    return <int>((-1 - link) & 15)


cdef inline int _push_sorted(const Node* nd, const double* g, long long* stack, double* bound,
                             int top) noexcept nogil:
    # the lanes whose bounds g are finite pushed, the least on top, every one above
    # those with greater bounds (rays: the first entered first, which prunes the most);
    # returns the new top
    cdef int ln, j, base = top
    cdef long long ref
    for ln in range(WIDE):
        if g[ln] < INFINITY:
            ref = nd.link[ln]
            j = top
            while j > base and bound[j - 1] <= g[ln]:
                stack[j] = stack[j - 1]
                bound[j] = bound[j - 1]
                j -= 1
            stack[j] = ref
            bound[j] = g[ln]
            top += 1
    return top


cdef inline int _push_lanes(const Node* nd, const double* g, double cut, long long* stack,
                            double* bound, int top) noexcept nogil:
    # the lanes whose bounds g are at most cut (and finite) pushed, the least on top
    # (popped first), the others under it in lane order (nearest: measured 5% faster
    # than _push_sorted, rays 8% slower); returns the new top
    cdef int ln, near = -1
    cdef long long ref
    cdef double b
    for ln in range(WIDE):
        if g[ln] <= cut and g[ln] < INFINITY:
            stack[top] = nd.link[ln]
            bound[top] = g[ln]
            if near < 0 or g[ln] < bound[near]:
                near = top
            top += 1
    if near >= 0:
        ref = stack[near]
        b = bound[near]
        stack[near] = stack[top - 1]
        bound[near] = bound[top - 1]
        stack[top - 1] = ref
        bound[top - 1] = b
    return top


cdef inline unsigned int _items_meet(const double* ibox, int count,
                                     const fc_v2* q) noexcept nogil:
    # bit j set: the box ibox[4 j:4 j + 4] (j < count) meets the box in q (_overlap's four
    # tests, two boxes at a time, no branch)
    cdef fc_v2 b[4]
    cdef int m = 0, j
    for j in range(0, count, 2):
        _item_pair(ibox, j, count, b)
        m |= _meet2(b, q) << j
    # (a last box taken twice set bit count too)
    return <unsigned int>m & ((<unsigned int>1 << count) - 1)


cdef inline bint _collide_leaf(const Scene* sc, Side* q, Side* it, long long i, Found* f,
                               const Filter* qf, const fc_v2* qv, bint aabb,
                               long long first, long long count) noexcept nogil:
    # the items of slots first..first + count colliding with query row i, appended to f
    cdef long long s
    cdef unsigned int hits = _items_meet(&sc.ibox[4 * first], <int>count, qv)
    for s in range(first, first + count):
        if not (hits >> (s - first)) & 1:
            continue
        if qf != NULL and not passes(qf, &sc.filt[s * sc.fstep]):
            continue  # ruled out by the filters: no exact test
        # an item whose padded box lies in an AABB query collides with it; the
        # others are decided by collide
        if ((aabb and _inside(&sc.ibox[4 * s], q.view.f))
                or (_load_slot(sc, it, s) and collide_views(&q.view, &it.view))):
            if not _add(f, i, sc.order[s]):
                return False
    return True


cdef bint _collide_row(const Scene* sc, Side* q, Side* it, long long i, Found* f,
                       const Filter* qf) noexcept nogil:
    # the items colliding with query row i (loaded in q), appended to f in item order;
    # qf: the row's filter (NULL: no filter on either side)
    cdef long long stack[STACK]
    cdef int top = 0, k
    cdef long long node = 0
    cdef unsigned int hits
    cdef const Node* nd
    cdef double qb[4]
    cdef fc_v2 qv[4]
    cdef Py_ssize_t first = f.count
    cdef bint aabb = q.view.kind == AABB_KIND
    view_box(&q.view, qb)
    for k in range(4):
        qv[k] = fc_splat(qb[k])
    # the lanes whose boxes meet the query's: inner ones wait on the stack, the items
    # of leaves are listed at once
    while True:
        nd = &sc.nodes[node]
        hits = _meets(nd, qv)
        # one lane hit (the most common) by a branch per case, so that the descent runs
        # ahead on the predicted lane (measured: picking the lane by a table, with no
        # branch to predict, 15% slower); down into the first inner lane hit without
        # the stack (a store and a load less on the way down)
        if hits == 1:
            node = nd.link[0]
        elif hits == 2:
            node = nd.link[1]
        elif hits == 4:
            node = nd.link[2]
        elif hits == 8:
            node = nd.link[3]
        else:
            # none, or several lane by lane
            node = -1
            for k in range(WIDE):
                if hits >> k & 1:
                    if nd.link[k] >= 0:
                        if node < 0:
                            node = nd.link[k]
                        else:
                            stack[top] = nd.link[k]
                            top += 1
                    elif not _collide_leaf(sc, q, it, i, f, qf, qv, aabb,
                                           _leaf_first(nd.link[k]), _leaf_count(nd.link[k])):
                        return False
        if node >= 0:
            continue
        # the one lane hit a leaf
        if node != -1 and not _collide_leaf(sc, q, it, i, f, qf, qv, aabb,
                                            _leaf_first(node), _leaf_count(node)):
            return False
        if top == 0:
            break
        top -= 1
        node = stack[top]
    if f.count - first > 8:
        qsort(&f.pairs[2 * first], f.count - first, 2 * sizeof(long long), _by_item)
    else:
        _sort_few(&f.pairs[2 * first], f.count - first)
    return True


cdef inline void _sort_few(long long* pairs, Py_ssize_t n) noexcept nogil:
    # pairs of one row by item: insertion, for the few a row usually has
    cdef Py_ssize_t j, m
    cdef long long item
    for j in range(1, n):
        item = pairs[2 * j + 1]
        m = j
        while m > 0 and pairs[2 * m - 1] > item:
            pairs[2 * m + 1] = pairs[2 * m - 1]
            m -= 1
        pairs[2 * m + 1] = item


cdef void _nearest_row(const Scene* sc, Side* q, Side* it, long long* items, double* dist,
                       Py_ssize_t k, double limit, const Filter* qf) noexcept nogil:
    # items, dist (IN/OUT, k each, -1 and inf): the k nearest items to the query in q
    cdef long long stack[STACK]
    cdef double bound[STACK]
    cdef int top = 1, ln
    cdef long long ref, s, item
    cdef const Node* nd
    cdef double qb[4]
    cdef fc_v2 qv[4]
    cdef double gl[WIDE]
    cdef double gi[LEAF + 1]    # _item_pair's second lane past an odd count
    cdef double out[4]
    cdef double g, d, cut
    cdef Py_ssize_t filled = 0, m
    view_box(&q.view, qb)
    for ln in range(4):
        qv[ln] = fc_splat(qb[ln])
    stack[0] = 0
    bound[0] = _gap(sc.nodes[0].box, qb)
    while top > 0:
        top -= 1
        ref = stack[top]
        # the farthest distance still wanted (equal ones too: a lower item may come);
        # INFINITY: an empty box
        cut = dist[k - 1] if filled == k else limit
        if not (bound[top] <= cut and bound[top] < INFINITY):
            continue
        if ref >= 0:
            # the lanes still wanted, the nearest on top
            nd = &sc.nodes[ref]
            _gaps(nd, qv, gl)
            top = _push_lanes(nd, gl, cut, stack, bound, top)
            continue
        _item_gaps(&sc.ibox[4 * _leaf_first(ref)], _leaf_count(ref), qv, gi)
        for s in range(_leaf_first(ref), _leaf_first(ref) + _leaf_count(ref)):
            g = gi[s - _leaf_first(ref)]
            if not (g <= (dist[k - 1] if filled == k else limit) and g < INFINITY):
                continue
            item = sc.order[s]
            if qf != NULL and not passes(qf, &sc.filt[s * sc.fstep]):
                continue  # ruled out by the filters
            if not _load_slot(sc, it, s):
                continue
            d = closest_views(&q.view, &it.view, out)
            d = d if d > 0.0 else 0.0
            if not d <= limit:
                continue
            if filled == k and not (d < dist[k - 1] or (d == dist[k - 1] and item < items[k - 1])):
                continue
            # insert in (distance, item) order
            m = filled if filled < k else k - 1
            while m > 0 and (d < dist[m - 1] or (d == dist[m - 1] and item < items[m - 1])):
                dist[m] = dist[m - 1]
                items[m] = items[m - 1]
                m -= 1
            dist[m] = d
            items[m] = item
            if filled < k:
                filled += 1


cdef void _ray_row(const Scene* sc, Side* it, const QueryJob* job, Py_ssize_t r,
                   Py_ssize_t i) noexcept nogil:
    # row i of raycast (read at r): the first item hit
    cdef long long stack[STACK]
    cdef double bound[STACK]
    cdef double ray[4]
    cdef double out[5]
    cdef double best[5]
    cdef double gl[WIDE]
    cdef double gi[LEAF + 1]    # _item_pair's second lane past an odd count
    cdef double limit, e
    cdef long long ref, s, item, found = -1
    cdef int top = 1, ln
    cdef const Node* nd
    cdef const Filter* qf = &job.qfilt[i * job.qstep] if job.qfilt != NULL else NULL
    ray[0] = job.org[r * job.so]
    ray[1] = job.org[r * job.so + 1]
    ray[2] = job.dirs[r * job.sd]
    ray[3] = job.dirs[r * job.sd + 1]
    limit = job.lim[r * job.sl]
    best[0] = limit
    if (_finite2(ray[0], ray[1]) and _finite2(ray[2], ray[3])
            and not (ray[2] == 0.0 and ray[3] == 0.0) and limit >= 0.0):
        stack[0] = 0
        bound[0] = _entry(sc.nodes[0].box, ray, limit)
        while top > 0:
            top -= 1
            # a box entered after the best hit cannot hold a first hit (at the same
            # t, a lower item still can); INFINITY: the ray misses the box
            if not (bound[top] <= best[0] and bound[top] < INFINITY):
                continue
            ref = stack[top]
            if ref >= 0:
                # the lanes the ray enters by the best hit, the first entered on top
                nd = &sc.nodes[ref]
                _entries(nd, ray, ray, &ray[2], best[0], gl)
                top = _push_sorted(nd, gl, stack, bound, top)
                continue
            # (the entries up to the best hit as the leaf begins: one that is after a
            # better hit found in the leaf is passed over below)
            _item_entries(&sc.ibox[4 * _leaf_first(ref)], _leaf_count(ref), ray, ray,
                          &ray[2], best[0], gi)
            for s in range(_leaf_first(ref), _leaf_first(ref) + _leaf_count(ref)):
                e = gi[s - _leaf_first(ref)]
                if not (e <= best[0] and e < INFINITY):
                    continue
                item = sc.order[s]
                if qf != NULL and not passes(qf, &sc.filt[s * sc.fstep]):
                    continue  # ruled out by the filters
                if not (_load_slot(sc, it, s)
                        and raycast_view(&it.view, ray[0], ray[1], ray[2], ray[3], limit, out)):
                    continue
                if found < 0 or out[0] < best[0] or (out[0] == best[0] and item < found):
                    found = item
                    best[0] = out[0]
                    best[1] = out[1]
                    best[2] = out[2]
                    best[3] = out[3]
                    best[4] = out[4]
    job.items[i] = found
    job.hit[i] = found >= 0
    if found >= 0:
        job.t[i] = best[0]
        job.point[2 * i] = best[1]
        job.point[2 * i + 1] = best[2]
        job.normal[2 * i] = best[3]
        job.normal[2 * i + 1] = best[4]
    else:
        job.t[i] = INFINITY
        job.point[2 * i] = job.point[2 * i + 1] = 0.0
        job.normal[2 * i] = job.normal[2 * i + 1] = 0.0


cdef void _cast_row(const Scene* sc, Side* q, Side* it, const QueryJob* job,
                    bint loaded, Py_ssize_t i) noexcept nogil:
    # row i of cast (its shape loaded in q when loaded): the first item it touches,
    # nodes visited by the entry time of its swept box
    cdef long long stack[STACK]
    cdef double bound[STACK]
    cdef double qb[4]
    cdef double out[5]
    cdef double best[5]
    cdef double gl[WIDE]
    cdef double gi[LEAF + 1]    # _item_pair's second lane past an odd count
    cdef double vel[2]
    cdef double vx, vy, limit, e
    cdef long long ref, s, item, found = -1
    cdef int top = 1, ln
    cdef const Node* nd
    cdef const Filter* qf = &job.qfilt[i * job.qstep] if job.qfilt != NULL else NULL
    vx = job.org[i * job.so]
    vy = job.org[i * job.so + 1]
    vel[0] = vx
    vel[1] = vy
    limit = job.lim[i * job.sl]
    best[0] = limit
    if loaded and _finite2(vx, vy) and limit >= 0.0:
        view_box(&q.view, qb)
        stack[0] = 0
        bound[0] = _swept_entry(sc.nodes[0].box, qb, vx, vy, limit)
        while top > 0:
            top -= 1
            # a box reached after the best hit cannot hold a first hit (at the same
            # t, a lower item still can); INFINITY: the sweep misses the box
            if not (bound[top] <= best[0] and bound[top] < INFINITY):
                continue
            ref = stack[top]
            if ref >= 0:
                # the lanes the sweep reaches by the best hit, the first reached on top
                nd = &sc.nodes[ref]
                _entries(nd, &qb[2], qb, vel, best[0], gl)
                top = _push_sorted(nd, gl, stack, bound, top)
                continue
            _item_entries(&sc.ibox[4 * _leaf_first(ref)], _leaf_count(ref), &qb[2], qb,
                          vel, best[0], gi)
            for s in range(_leaf_first(ref), _leaf_first(ref) + _leaf_count(ref)):
                e = gi[s - _leaf_first(ref)]
                if not (e <= best[0] and e < INFINITY):
                    continue
                item = sc.order[s]
                if qf != NULL and not passes(qf, &sc.filt[s * sc.fstep]):
                    continue  # ruled out by the filters
                if not (_load_slot(sc, it, s)
                        and cast_views(&q.view, vx, vy, &it.view, 0.0, 0.0, limit, out)):
                    continue
                if found < 0 or out[0] < best[0] or (out[0] == best[0] and item < found):
                    found = item
                    best[0] = out[0]
                    best[1] = out[1]
                    best[2] = out[2]
                    best[3] = out[3]
                    best[4] = out[4]
    job.items[i] = found
    job.hit[i] = found >= 0
    if found >= 0:
        job.t[i] = best[0]
        job.point[2 * i] = best[1]
        job.point[2 * i + 1] = best[2]
        job.normal[2 * i] = best[3]
        job.normal[2 * i + 1] = best[4]
    else:
        job.t[i] = INFINITY
        job.point[2 * i] = job.point[2 * i + 1] = 0.0
        job.normal[2 * i] = job.normal[2 * i + 1] = 0.0


cdef void _permute_rows(const floating* rows, floating* out, const long long* perm,
                        Py_ssize_t n, Py_ssize_t w) noexcept nogil:
    # out[k] (OUT) = rows[perm[k]], rows of w numbers
    cdef Py_ssize_t k, m
    for k in range(n):
        for m in range(w):
            out[k * w + m] = rows[perm[k] * w + m]


cdef void* _gather_rows(QueryJob* job, Py_ssize_t n) noexcept nogil:
    # the query rows (rays) copied in the order of job.perm, and the job set to read
    # the copy: answering them nearby first otherwise reads them scattered in memory,
    # each a cache miss (measured: 100,000 queries, 34 ms -> 24 ms).  NULL: no memory
    # (the job reads the rows where they are)
    cdef Py_ssize_t k, i, w = job.q.width, size = 4 if job.q.f32 else 8
    cdef double* rays
    cdef char* rows
    cdef long long* counts
    if job.query == RAY:
        rays = <double*>malloc(5 * n * sizeof(double))
        if rays == NULL:
            return NULL
        for k in range(n):
            i = job.perm[k]
            rays[5 * k] = job.org[i * job.so]
            rays[5 * k + 1] = job.org[i * job.so + 1]
            rays[5 * k + 2] = job.dirs[i * job.sd]
            rays[5 * k + 3] = job.dirs[i * job.sd + 1]
            rays[5 * k + 4] = job.lim[i * job.sl]
        job.org = rays
        job.dirs = rays + 2
        job.lim = rays + 4
        job.so = job.sd = job.sl = 5
        job.gathered = True
        return rays
    rows = <char*>malloc(n * (w * size + sizeof(long long)))
    if rows == NULL:
        return NULL
    counts = <long long*>(rows + n * w * size)
    if job.q.f32:
        _permute_rows(<const float*>job.q.data, <float*>rows, job.perm, n, w)
    else:
        _permute_rows(<const double*>job.q.data, <double*>rows, job.perm, n, w)
    if job.q.counts != NULL:
        for k in range(n):
            counts[k] = job.q.counts[job.perm[k]]
    job.q.data = rows
    if job.q.counts != NULL:
        job.q.counts = counts
    job.gathered = True
    return rows


cdef void _query_rows(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # query rows start..stop
    cdef QueryJob* job = <QueryJob*>ctx
    cdef Side q, it
    cdef Py_ssize_t pos, i, r
    cdef const Filter* qf
    q.xs = NULL
    if not _scratch(&it, job.sc.capacity):
        job.failed = True
        return
    if job.query != RAY and not _scratch(&q, job.q.capacity):
        job.failed = True
        free(it.xs)
        return
    for pos in range(start, stop):
        # row i of the answer, read at r (its place in the gathered copy)
        i = pos if job.perm == NULL else job.perm[pos]
        r = pos if job.gathered else i
        if job.query == RAY:
            _ray_row(job.sc, &it, job, r, i)
        elif job.query == CAST:
            _cast_row(job.sc, &q, &it, job, _load(&job.q, &q, r), i)
        elif _load(&job.q, &q, r):
            qf = &job.qfilt[i * job.qstep] if job.qfilt != NULL else NULL
            if job.query == COLLIDE:
                if not _collide_row(job.sc, &q, &it, i, &job.found[slot], qf):
                    job.failed = True
                    break
            else:
                _nearest_row(job.sc, &q, &it, &job.items[i * job.k], &job.dist[i * job.k],
                             job.k, job.limit, qf)
    free(it.xs)
    free(q.xs)


cdef bint _gather(Found* found, int slots, Py_ssize_t n, long long* out) noexcept nogil:
    # out (OUT): the slots' pairs by row (each row's are one run, in item order, in
    # one slot); False: no memory
    cdef long long* at = <long long*>calloc(n + 1, sizeof(long long))
    cdef Py_ssize_t j, k
    cdef long long total = 0, c
    cdef int s
    if at == NULL:
        return False
    for s in range(slots):
        for j in range(found[s].count):
            at[found[s].pairs[2 * j]] += 1
    for k in range(n):
        c = at[k]
        at[k] = total
        total += c
    for s in range(slots):
        for j in range(found[s].count):
            k = at[found[s].pairs[2 * j]]
            at[found[s].pairs[2 * j]] += 1
            out[2 * k] = found[s].pairs[2 * j]
            out[2 * k + 1] = found[s].pairs[2 * j + 1]
    free(at)
    return True


# ------------------------------------------------------------------------------ Tree

cdef class Tree:
    """The hierarchy over the rows of shape arrays (see the module docstring)."""

    cdef tuple arrays
    cdef Py_ssize_t nitems, nnodes
    cdef Node* nodes
    cdef long long* order
    cdef double* ibox
    # the items' rows as the last build or refit read them (in slot order, per array:
    # a query reads nearby items from nearby memory), and where each slot's row is
    cdef Source* kept
    cdef int nkept
    cdef long long* at
    cdef int* srcof
    # per array, from its first item on: the slot of each of its kept rows
    cdef long long* kslot
    # the items' collision filters in slot order (NULL: no indexed array has any)
    cdef Filter* kfilt
    # queries running (on threads without the GIL), and a refit or rebuild running,
    # changed under the lock (a free-threaded build has no GIL to order them)
    cdef int readers
    cdef bint writing
    cdef PyThread_type_lock lock

    def __init__(self, arrays, workers):
        self.arrays = tuple(arrays)
        self._make(workers)

    def __cinit__(self):
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()

    def __dealloc__(self):
        self._free()
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    cdef void _free(self):
        cdef int k
        _free_nodes(self.nodes)
        free(self.order)
        free(self.ibox)
        free(self.at)
        free(self.srcof)
        free(self.kslot)
        free(self.kfilt)
        self.kfilt = NULL
        for k in range(self.nkept):
            free(<void*>self.kept[k].data)
            free(<void*>self.kept[k].counts)
        free(self.kept)
        self.nodes = NULL
        self.ibox = NULL
        self.order = self.at = NULL
        self.srcof = NULL
        self.kslot = NULL
        self.kept = NULL
        self.nkept = 0

    cdef Buffers _scene(self, Scene* sc):
        # sc (OUT): the arrays (held by the returned object) and the tree
        cdef Buffers held = Buffers.__new__(Buffers)
        cdef Py_ssize_t first = 0
        cdef int k
        sc.nsrc = len(self.arrays)
        sc.src = NULL
        sc.capacity = 0
        if sc.nsrc:
            sc.src = <Source*>malloc(sc.nsrc * sizeof(Source))
            if sc.src == NULL:
                raise MemoryError()
        try:
            for k in range(sc.nsrc):
                _source(held, &sc.src[k], self.arrays[k], first)
                first += sc.src[k].n
                sc.capacity = max(sc.capacity, sc.src[k].capacity)
        except BaseException:
            free(sc.src)
            raise
        sc.kept = self.kept
        sc.at = self.at
        sc.srcof = self.srcof
        sc.nitems = self.nitems
        sc.nnodes = self.nnodes
        sc.nodes = self.nodes
        sc.order = self.order
        sc.ibox = self.ibox
        sc.filt = self.kfilt if self.kfilt != NULL else &NO_FILTER
        sc.fstep = 1 if self.kfilt != NULL else 0
        return held

    cdef int _keep_filters(self) except -1:
        # the items' filters, as the arrays hold them now, copied in slot order
        cdef Buffers held = Buffers.__new__(Buffers)
        cdef FilterRows f
        cdef Py_ssize_t s
        cdef Filter* grown
        per_array = [a._filters() for a in self.arrays]
        if all(x is None for x in per_array):
            free(self.kfilt)
            self.kfilt = NULL
            return 0
        whole = [np.concatenate([(x if x is not None else _filters.defaults(len(a)))[k]
                                 for x, a in zip(per_array, self.arrays)])
                 for k in range(3)]
        filter_rows(held, &f, whole)
        grown = <Filter*>realloc(self.kfilt, (self.nitems + 1) * sizeof(Filter))
        if grown == NULL:
            raise MemoryError(f"no memory for the filters of {self.nitems} items")
        self.kfilt = grown
        with nogil:
            for s in range(self.nitems):
                filter_of(&f, self.order[s], &self.kfilt[s])
        return 0

    cdef Filter* _query_filters(self, QueryJob* job, object filters, Py_ssize_t n) except? NULL:
        # job.qfilt (OUT): the query rows' filters, packed (returned: the caller frees
        # it), or one record passing everything when only the items have filters, or
        # NULL when neither side has any
        cdef Buffers held = Buffers.__new__(Buffers)
        cdef FilterRows f
        cdef Filter* packed
        cdef Py_ssize_t i
        job.qfilt = NULL
        job.qstep = 0
        if filters is None:
            if self.kfilt != NULL:
                job.qfilt = &NO_FILTER
            return NULL
        filter_rows(held, &f, filters)
        packed = <Filter*>malloc((n + 1) * sizeof(Filter))
        if packed == NULL:
            raise MemoryError("no memory for the query's filters")
        with nogil:
            for i in range(n):
                filter_of(&f, i, &packed[i])
        job.qfilt = packed
        job.qstep = 1
        return packed

    cdef void _enter(self, bint write) except *:
        cdef bint busy
        with nogil:
            PyThread_acquire_lock(self.lock, WAIT_LOCK)
        busy = self.writing or (write and self.readers > 0)
        if not busy:
            if write:
                self.writing = True
            else:
                self.readers += 1
        PyThread_release_lock(self.lock)
        if busy:
            raise RuntimeError("a ShapeIndex cannot be queried while another thread "
                               "refits or rebuilds it, nor refit or rebuilt while queried")

    cdef void _leave(self, bint write) noexcept:
        with nogil:
            PyThread_acquire_lock(self.lock, WAIT_LOCK)
        if write:
            self.writing = False
        else:
            self.readers -= 1
        PyThread_release_lock(self.lock)

    cdef void _rows(self, rows_fn fn, Scene* sc, double* box, double* trig,
                    int slots) except *:
        # one pass over the arrays' rows (_box_rows: the items' boxes; _copy_span: the
        # index's copy, and with box the slots' boxes computed from it)
        cdef RowsJob job
        job.sc = sc
        job.kslot = self.kslot
        job.box = box
        job.trig = trig
        job.failed = False
        run_rows(fn, &job, sc.nitems, 4096, slots)
        if job.failed:
            raise MemoryError("no memory for the polygon scratch buffers")

    def _make(self, workers):
        cdef Scene sc
        cdef Buffers held
        cdef Py_ssize_t n = sum(len(a) for a in self.arrays), nnodes, k
        cdef int slots = slots_for(workers)
        cdef double* box = NULL
        cdef double* trig = NULL
        cdef long long* link = NULL
        cdef long long* order = NULL
        self._enter(True)
        try:
            self._free()
            self.nitems = n
            box = <double*>malloc((4 * n + 4) * sizeof(double))
            order = <long long*>malloc((n + 1) * sizeof(long long))
            link = <long long*>malloc((4 * n + 4) * sizeof(long long))
            self.ibox = <double*>malloc((4 * n + 4) * sizeof(double))
            if any(a.kind == OBB_KIND for a in self.arrays):
                trig = <double*>malloc((2 * n + 2) * sizeof(double))
                if trig == NULL:
                    raise MemoryError(f"no memory for an index of {n} items")
            if box == NULL or order == NULL or link == NULL or self.ibox == NULL:
                raise MemoryError(f"no memory for an index of {n} items")
            held = self._scene(&sc)
            try:
                self._rows(_box_rows, &sc, box, trig, slots)
                with nogil:
                    nnodes = _build(n, box, order, self.ibox, link)
                if nnodes < 0:
                    raise MemoryError(f"no memory for an index of {n} items")
                self._copy_rows(&sc, order, trig, slots)
            finally:
                free(sc.src)
            self.order = order
            order = NULL
            self._keep_filters()
            self.nodes = _alloc_nodes(nnodes // 2 + 2)
            if self.nodes == NULL:
                raise MemoryError(f"no memory for an index of {n} items")
            with nogil:
                nnodes = _widen(self.nodes, link, nnodes)
                if nnodes >= 0:
                    _fit(self.nodes, nnodes, self.ibox)
            if nnodes < 0:
                raise MemoryError(f"no memory for an index of {n} items")
            self.nnodes = nnodes
        except BaseException:
            self._free()
            self.nitems = self.nnodes = 0
            raise
        finally:
            free(box)
            free(trig)
            free(order)
            free(link)
            self._leave(True)

    cdef void _copy_rows(self, Scene* sc, const long long* order, double* trig,
                         int slots) except *:
        # the index's copy of the rows, in slot order per array
        cdef int k
        cdef Py_ssize_t s, size
        cdef long long* fill
        self.kept = <Source*>calloc(sc.nsrc + 1, sizeof(Source))
        self.at = <long long*>malloc((self.nitems + 1) * sizeof(long long))
        self.srcof = <int*>malloc((self.nitems + 1) * sizeof(int))
        self.kslot = <long long*>malloc((self.nitems + 1) * sizeof(long long))
        if (self.kept == NULL or self.at == NULL or self.srcof == NULL
                or self.kslot == NULL):
            raise MemoryError(f"no memory for an index of {self.nitems} items")
        self.nkept = sc.nsrc
        for k in range(sc.nsrc):
            self.kept[k] = sc.src[k]
            size = (4 if sc.src[k].f32 else 8) * sc.src[k].width
            if sc.src[k].kind == OBB_KIND:
                # as doubles, with the angle's cosine and sine (see _copy_obbs); NaN:
                # none yet
                self.kept[k].f32 = False
                self.kept[k].width = OBB_KEPT
                size = OBB_KEPT * sizeof(double)
            self.kept[k].data = malloc(sc.src[k].n * size + 8)
            if sc.src[k].kind == OBB_KIND and self.kept[k].data != NULL:
                memset(<void*>self.kept[k].data, 0xFF, sc.src[k].n * size)
            self.kept[k].counts = NULL
            if sc.src[k].counts != NULL:
                self.kept[k].counts = <long long*>malloc((sc.src[k].n + 1) * sizeof(long long))
            if self.kept[k].data == NULL or (sc.src[k].counts != NULL
                                             and self.kept[k].counts == NULL):
                raise MemoryError(f"no memory for an index of {self.nitems} items")
        sc.kept = self.kept
        sc.at = self.at
        sc.srcof = self.srcof
        sc.order = order
        fill = <long long*>calloc(sc.nsrc + 1, sizeof(long long))
        if fill == NULL:
            raise MemoryError()
        with nogil:
            # each item's array, in item order (srcof's scratch), then per slot
            for k in range(sc.nsrc):
                for s in range(sc.src[k].first, sc.src[k].first + sc.src[k].n):
                    self.srcof[s] = k
            for s in range(self.nitems):
                self.kslot[s] = self.srcof[order[s]]
            for s in range(self.nitems):
                k = <int>self.kslot[s]
                self.srcof[s] = k
                self.at[s] = fill[k]
                fill[k] += 1
            for s in range(self.nitems):
                k = self.srcof[s]
                self.kslot[sc.src[k].first + self.at[s]] = s
        free(fill)
        self._rows(_copy_span, sc, NULL, trig, slots)

    def rebuild(self, workers):
        self._make(workers)

    def refit(self, workers):
        cdef Scene sc
        cdef Buffers held
        cdef int k
        cdef bint same = True
        self._enter(True)
        try:
            held = self._scene(&sc)
            try:
                for k in range(sc.nsrc):
                    same = same and (sc.src[k].kind == self.kept[k].kind
                                     and sc.src[k].width == self.kept[k].width
                                     and sc.src[k].f32 == self.kept[k].f32
                                     or sc.src[k].kind == OBB_KIND == self.kept[k].kind
                                     and sc.src[k].width == 5)
                if not same:
                    # an array's data was replaced by rows of another layout: its
                    # copy cannot take them
                    self._leave(True)
                    self._make(workers)
                    self._enter(True)
                    return
                self._rows(_copy_span, &sc, self.ibox, NULL, slots_for(workers))
                with nogil:
                    _fit(self.nodes, self.nnodes, self.ibox)
                self._keep_filters()
            finally:
                free(sc.src)
        finally:
            self._leave(True)

    cdef void _run(self, QueryJob* job, Scene* sc, Py_ssize_t n, Py_ssize_t grain,
                   int slots) except *:
        cdef void* copy
        job.sc = sc
        job.failed = False
        job.perm = NULL
        if self.nnodes == 0 or n == 0:
            return
        job.gathered = False
        copy = NULL
        try:
            with nogil:
                if job.query == RAY:
                    job.perm = _nearby_order(sc.nodes[0].box, job.org, False, job.so, n)
                else:
                    job.perm = _nearby_order(sc.nodes[0].box, job.q.data, job.q.f32,
                                             job.q.width, n)
                if job.perm != NULL:
                    copy = _gather_rows(job, n)
            run_rows(_query_rows, job, n, grain, slots)
        finally:
            free(<void*>job.perm)
            free(copy)
        if job.failed:
            raise MemoryError("no memory for the query's scratch buffers")

    def query(self, shapes, workers):
        """``int64[M, 2]``: every (row of shapes, item) that collide, sorted."""
        cdef Scene sc
        cdef QueryJob job
        cdef Buffers held, qheld = Buffers.__new__(Buffers)
        cdef int slots = slots_for(workers), s
        cdef Py_ssize_t total = 0
        cdef long long* out
        cdef bint ok
        cdef Filter* qfilt = NULL
        job.query = COLLIDE
        job.found = <Found*>malloc(slots * sizeof(Found))
        if job.found == NULL:
            raise MemoryError()
        for s in range(slots):
            job.found[s].pairs = NULL
            job.found[s].count = job.found[s].cap = 0
        self._enter(False)
        try:
            held = self._scene(&sc)
            try:
                _source(qheld, &job.q, shapes, 0)
                qfilt = self._query_filters(&job, shapes._filters(), job.q.n)
                self._run(&job, &sc, job.q.n, 64, slots)
            finally:
                free(sc.src)
                free(qfilt)
            for s in range(slots):
                total += job.found[s].count
            result = np.empty((total, 2), dtype=np.int64)
            out = <long long*>qheld.address(result, True)
            with nogil:
                ok = _gather(job.found, slots, job.q.n, out)
            if not ok:
                raise MemoryError()
            return result
        finally:
            self._leave(False)
            for s in range(slots):
                free(job.found[s].pairs)
            free(job.found)

    def nearest(self, shapes, k, max_distance, workers):
        """``(item[N, k], distance[N, k])``: the k nearest items to each row of shapes."""
        cdef Scene sc
        cdef QueryJob job
        cdef Buffers held, qheld = Buffers.__new__(Buffers)
        cdef Filter* qfilt = NULL
        n = len(shapes)
        items = np.full((n, k), -1, dtype=np.int64)
        dist = np.full((n, k), np.inf)
        job.query = NEAREST
        job.k = k
        job.limit = max_distance
        self._enter(False)
        try:
            held = self._scene(&sc)
            try:
                _source(qheld, &job.q, shapes, 0)
                job.items = <long long*>qheld.address(items, True)
                job.dist = <double*>qheld.address(dist, True)
                qfilt = self._query_filters(&job, shapes._filters(), n)
                self._run(&job, &sc, n, 32, slots_for(workers))
            finally:
                free(sc.src)
                free(qfilt)
        finally:
            self._leave(False)
        return items, dist

    def raycast(self, origins, directions, max_t, n, workers, filters=None):
        """``(hit, t, point, normal, item)``: the first item each ray hits (filters:
        None, or the rays' ``(categories, masks, groups)``, n each)."""
        cdef Scene sc
        cdef QueryJob job
        cdef Buffers held, qheld = Buffers.__new__(Buffers)
        cdef Filter* qfilt = NULL
        hit = np.zeros(n, dtype=bool)
        t = np.full(n, np.inf)
        point = np.zeros((n, 2))
        normal = np.zeros((n, 2))
        item = np.full(n, -1, dtype=np.int64)
        job.query = RAY
        job.q.capacity = 0
        job.org = <const double*>qheld.address(origins, False)
        job.dirs = <const double*>qheld.address(directions, False)
        job.lim = <const double*>qheld.address(max_t, False)
        job.so = 0 if origins.shape[0] == 1 else 2
        job.sd = 0 if directions.shape[0] == 1 else 2
        job.sl = 0 if max_t.shape[0] == 1 else 1
        job.hit = <unsigned char*>qheld.address(hit, True)
        job.t = <double*>qheld.address(t, True)
        job.point = <double*>qheld.address(point, True)
        job.normal = <double*>qheld.address(normal, True)
        job.items = <long long*>qheld.address(item, True)
        self._enter(False)
        try:
            held = self._scene(&sc)
            try:
                qfilt = self._query_filters(&job, filters, n)
                self._run(&job, &sc, n, 64, slots_for(workers))
            finally:
                free(sc.src)
                free(qfilt)
        finally:
            self._leave(False)
        return hit, t, point, normal, item

    def cast(self, shapes, velocities, max_t, workers):
        """``(hit, t, point, normal, item)``: the first item each row of shapes, moving
        with its velocity (the items static), touches."""
        cdef Scene sc
        cdef QueryJob job
        cdef Buffers held, qheld = Buffers.__new__(Buffers)
        cdef Filter* qfilt = NULL
        n = len(shapes)
        hit = np.zeros(n, dtype=bool)
        t = np.full(n, np.inf)
        point = np.zeros((n, 2))
        normal = np.zeros((n, 2))
        item = np.full(n, -1, dtype=np.int64)
        job.query = CAST
        job.org = <const double*>qheld.address(velocities, False)
        job.lim = <const double*>qheld.address(max_t, False)
        job.so = 0 if velocities.shape[0] == 1 else 2
        job.sl = 0 if max_t.shape[0] == 1 else 1
        job.hit = <unsigned char*>qheld.address(hit, True)
        job.t = <double*>qheld.address(t, True)
        job.point = <double*>qheld.address(point, True)
        job.normal = <double*>qheld.address(normal, True)
        job.items = <long long*>qheld.address(item, True)
        self._enter(False)
        try:
            held = self._scene(&sc)
            try:
                _source(qheld, &job.q, shapes, 0)
                qfilt = self._query_filters(&job, shapes._filters(), n)
                self._run(&job, &sc, n, 32, slots_for(workers))
            finally:
                free(sc.src)
                free(qfilt)
        finally:
            self._leave(False)
        return hit, t, point, normal, item

    def stats(self):
        """``(nodes, depth, leaves)`` of the tree (depth in nodes, the leaves its lanes
        that hold items): for tests and bench_index.py."""
        cdef Py_ssize_t depth = 0, leaves = 0, node
        cdef int k
        stack = [(0, 1)] if self.nnodes else []
        while stack:
            node, d = stack.pop()
            depth = max(depth, d)
            for k in range(WIDE):
                if self.nodes[node].link[k] >= 0:
                    stack.append((self.nodes[node].link[k], d + 1))
                elif _leaf_count(self.nodes[node].link[k]) > 0:
                    leaves += 1
        return self.nnodes, depth, leaves
