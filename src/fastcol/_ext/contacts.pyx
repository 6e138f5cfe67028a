"""Contacts (compiled twin of fastcol._ref.contacts, which documents the method).

Mirrored operation for operation: every kernel here has a namesake in the reference,
and the float64 results are bit-identical on x86-64.  The kernels work on ``Core``
structs (a point, a segment or a vertex ring, plus a radius) in local coordinates and
touch no Python object.
"""

from libc.math cimport INFINITY, fabs, sqrt

from .geometry cimport SegClosest, dist2, point_at, point_segment, segment_segment
from .narrowphase cimport (
    Convex,
    Round,
    box_apart,
    box_normal,
    box_gaps,
    edge_apart,
    edge_reach,
    point_box,
    point_in_convex,
)
from .predicates cimport orient_within, pair_bound
from .queries cimport (
    View,
    view_convex,
    view_core,
    view_of,
    view_frame,
    views_swapped,
)
from .records cimport make_contact
from .shapes cimport AABB_KIND, CIRCLE, OBB_KIND, SEGMENT, Shape, is_shape

from fastcol._validate import shape_type_error


# relative tolerance (2**-33, the reference's REL): face ties and parallel edges
cdef double REL = 1.0 / 8589934592.0


# box face k (ring order: bottom, right, top, left) is gap _SIDE_OF_FACE[k] of box_gaps
# (right, left, top, bottom)
cdef int[4] _SIDE_OF_FACE = [3, 0, 2, 1]


cdef struct Core:
    # a convex core in local coordinates: vertex k is (xs[k] - ox, ys[k] - oy);
    # n == 1 a point, n == 2 a segment, else a counter-clockwise ring.  Boxes take
    # their face normals from their axes (cos, sin) and measure their faces through
    # their Convex (frame; NULL for other cores) as the separating axis test does.
    # Round and box cores keep their vertices in vx/vy (so a Core is never copied
    # once built: xs may point there)
    int n
    bint box
    const Convex* frame
    double cos, sin, r
    const double* xs
    const double* ys
    double ox, oy
    double vx[4]
    double vy[4]


cdef inline double _x(const Core* c, int k) noexcept nogil:
    return c.xs[k] - c.ox


cdef inline double _y(const Core* c, int k) noexcept nogil:
    return c.ys[k] - c.oy


cdef void _round_core(Core* c, double ax, double ay, double bx, double by,
                      double r) noexcept nogil:
    cdef double ex = bx - ax
    cdef double ey = by - ay
    c.box = False
    c.frame = NULL
    c.cos = 0.0
    c.sin = 0.0
    c.r = r
    c.ox = 0.0
    c.oy = 0.0
    c.vx[0] = ax
    c.vy[0] = ay
    c.xs = c.vx
    c.ys = c.vy
    if ex * ex + ey * ey == 0.0:
        # a zero-length core (as segment_segment decides it) is a point
        c.n = 1
        return
    c.n = 2
    c.vx[1] = bx
    c.vy[1] = by


cdef void _convex_core(Core* c, const Convex* cv) noexcept nogil:
    cdef int k
    c.r = 0.0
    if cv.kind == AABB_KIND or cv.kind == OBB_KIND:
        c.n = 4
        c.box = True
        c.frame = cv
        if cv.kind == AABB_KIND:
            c.cos = 1.0
            c.sin = 0.0
        else:
            c.cos = cv.cos
            c.sin = cv.sin
        for k in range(4):
            c.vx[k] = cv.box_x[k]
            c.vy[k] = cv.box_y[k]
        c.xs = c.vx
        c.ys = c.vy
        c.ox = 0.0
        c.oy = 0.0
        return
    c.n = cv.n
    c.box = False
    c.frame = NULL
    c.cos = 0.0
    c.sin = 0.0
    c.xs = cv.xs
    c.ys = cv.ys
    c.ox = cv.ox
    c.oy = cv.oy


cdef inline void _unit_normal(double ex, double ey, double length, double* nx,
                              double* ny) noexcept nogil:
    # nx, ny (OUT): the outward unit normal of an edge (ex, ey) of length > 0
    nx[0] = ey / length
    ny[0] = (0.0 - ex) / length


cdef bint _normal(const Core* c, int k, double* nx, double* ny) noexcept nogil:
    # nx, ny (OUT): the outward unit normal of face k (vertex k to k + 1)
    cdef double ex, ey, length
    cdef int j
    if c.box:
        box_normal(c.cos, c.sin, k, nx, ny)
        return True
    j = k + 1 if k + 1 < c.n else 0
    ex = _x(c, j) - _x(c, k)
    ey = _y(c, j) - _y(c, k)
    length = sqrt(ex * ex + ey * ey)
    if length == 0.0:
        # an edge whose squared length underflowed has no direction
        nx[0] = 0.0
        ny[0] = 0.0
        return False
    _unit_normal(ex, ey, length, nx, ny)
    return True


cdef inline int _segment_face(double x0, double y0, double x1, double y1, double px,
                              double py, double qx, double qy, double rr, double* best,
                              double* length, bint* apart) noexcept nogil:
    # _best_face of a segment core (x0, y0)-(x1, y1) against a segment core
    # (px, py)-(qx, qy), straight through, less the normal (_segment_normal forms it
    # for the one face a caller keeps): face 0 runs from end 0 to end 1, face 1 back;
    # each face's reach is edge_reach's larger cross product over o's two ends,
    # formed as it forms them, and face 1 takes face 0's length (the same square).
    # length (OUT): that length
    cdef double ex = x1 - x0
    cdef double ey = y1 - y0
    cdef double bx = x0 - x1
    cdef double by = y0 - y1
    cdef double top0 = ex * (py - y0) - ey * (px - x0)
    cdef double top1 = ex * (qy - y0) - ey * (qx - x0)
    cdef double back0 = bx * (py - y1) - by * (px - x1)
    cdef double back1 = bx * (qy - y1) - by * (qx - x1)
    cdef double size, depth
    cdef double least = INFINITY
    cdef int face = -1
    if top1 > top0:
        top0 = top1
    if back1 > back0:
        back0 = back1
    apart[0] = top0 < 0.0 or back0 < 0.0
    size = sqrt(ex * ex + ey * ey)
    length[0] = size
    if size != 0.0:
        depth = rr + top0 / size
        if top0 <= back0 and depth < least:
            # face 1's depth, rr + back0 / size, is no less (a quotient by a positive
            # length and a sum round monotonically), so face 0 wins, as it does in
            # the two steps below (a NaN or an infinite depth takes them), without a
            # second division
            best[0] = depth
            return 0
        if depth < least:
            least = depth
            face = 0
        depth = rr + back0 / size
        if depth < least:
            least = depth
            face = 1
    best[0] = least
    return face


cdef inline void _segment_normal(double x0, double y0, double x1, double y1, int face,
                                 double length, double* mx, double* my) noexcept nogil:
    # mx, my (OUT): the outward unit normal of _segment_face's face (0: from end 0
    # to end 1, 1: back; -1: none, (0, 0)), of the given length
    mx[0] = 0.0
    my[0] = 0.0
    if face == 0:
        _unit_normal(x1 - x0, y1 - y0, length, mx, my)
    elif face == 1:
        _unit_normal(x0 - x1, y0 - y1, length, mx, my)


# _best_face climbs rings of CLIMB_RING points or more (the reference's _CLIMB_RING: a
# rule both backends follow, as a climb's depth can differ in its last bits); against
# smaller rings every vertex is taken, which here costs less than a climb's branches: a
# ring (not a box) of 3 to LOCAL_RING points against a ring of 3 to LOCAL_RING points
# takes _paired_faces, two faces at a time, and two such rings _rings_overlap
cdef enum:
    LOCAL_RING = 8
    CLIMB_RING = LOCAL_RING + 1


cdef extern from "fc_faces.h":
    void fc_faces_paired(const double* xs, const double* ys, double ox, double oy, int n,
                         const double* qxs, const double* qys, double qox, double qoy,
                         int m, double rr, double* ex, double* ey, double* top,
                         double* len, double* dep) noexcept nogil


cdef struct Faces:
    # every face of a small ring measured against another core (fc_faces_paired's
    # arrays: the edge, its largest cross product, its length and depth), and the
    # shallowest of them as _best_face picks it
    double ex[LOCAL_RING + 1]
    double ey[LOCAL_RING + 1]
    double top[LOCAL_RING + 1]
    double length[LOCAL_RING + 1]
    double depth[LOCAL_RING + 1]
    int face
    double best, mx, my
    bint apart


cdef bint _measure_faces(const Core* s, const Core* o, double rr, bint decide,
                         double size, Faces* f) noexcept nogil:
    # f (OUT): _best_face of a ring s (not a box) of 3 to LOCAL_RING points against a
    # ring o of 3 to LOCAL_RING points: every face measured by fc_faces_paired
    # (edge_reach's values, two faces at a time), then the faces taken in ring order
    # as _best_face's loop takes them.  With decide, False (f.apart set, nothing else
    # meaningful) at the first face that separates by exact signs (size: _size)
    cdef int n = s.n
    cdef int k
    cdef int face = -1
    cdef double least = INFINITY
    fc_faces_paired(s.xs, s.ys, s.ox, s.oy, n, o.xs, o.ys, o.ox, o.oy, o.n, rr, f.ex, f.ey,
                    f.top, f.length, f.depth)
    for k in range(n):
        if decide and edge_apart(_x(s, k), _y(s, k), _x(s, k + 1 if k + 1 < n else 0),
                                 _y(s, k + 1 if k + 1 < n else 0), f.top[k], o.xs, o.ys,
                                 o.ox, o.oy, o.n, size):
            f.apart = True
            return False
        if f.length[k] == 0.0:
            continue
        if f.depth[k] < least:
            least = f.depth[k]
            face = k
    f.face = face
    f.best = least
    f.apart = False
    f.mx = 0.0
    f.my = 0.0
    if face >= 0:
        _unit_normal(f.ex[face], f.ey[face], f.length[face], &f.mx, &f.my)
    return True


cdef int _paired_faces(const Core* s, const Core* o, double rr, bint decide, double size,
                       double* best, double* mx, double* my, bint* apart) noexcept nogil:
    # _best_face of two small rings, by _measure_faces
    cdef Faces f
    if not _measure_faces(s, o, rr, decide, size, &f):
        apart[0] = True
        return -1
    best[0] = f.best
    mx[0] = f.mx
    my[0] = f.my
    apart[0] = f.apart
    return f.face


cdef inline bint _small_ring(const Core* c) noexcept nogil:
    # a ring (not a box) that _measure_faces takes
    return not c.box and c.n >= 3 and c.n <= LOCAL_RING


cdef int _incident_ring(const Core* o, const Faces* f, double mx, double my) noexcept nogil:
    # _incident_face of a small ring o (not a box) whose edges and lengths f holds:
    # its two loops, on the values it would form (_x(o, g) - _x(o, j) and its root)
    cdef double best = INFINITY
    cdef double ex, ey, length, d, nx, ny
    cdef int f_ = 0
    cdef int j
    cdef bint found = False
    for j in range(o.n):
        ex = f.ex[j]
        ey = f.ey[j]
        if ey * mx - ex * my < 0.0:
            length = f.length[j]
            if length > 0.0:
                _unit_normal(ex, ey, length, &nx, &ny)
                d = nx * mx + ny * my
                if d < best:
                    best = d
                    f_ = j
                    found = True
    if not found:
        # no face turns m's way: every face compared, as _incident_face does (a
        # ring's _normal is its edge over its length, none for a zero length)
        for j in range(o.n):
            length = f.length[j]
            if length == 0.0:
                continue
            _unit_normal(f.ex[j], f.ey[j], length, &nx, &ny)
            d = nx * mx + ny * my
            if d < best:
                best = d
                f_ = j
    return f_


cdef bint _rings_overlap(const Core* a, const Core* b, bint decide, Hit* h) noexcept nogil:
    # _overlap of two small rings (_small_ring), step for step, with both face
    # searches' edges kept: the incident face is found on them, without forming and
    # rooting its ring's edges again.  Two rings have radius 0, so rr is 0.0 + 0.0
    cdef double rr = a.r + b.r
    cdef double size = _size(a, b)
    cdef double depth
    cdef double tol = REL * size
    cdef Faces fa, fb
    cdef int f
    if not _measure_faces(a, b, rr, decide, size, &fa) and decide:
        return False
    if not _measure_faces(b, a, rr, decide, size, &fb) and decide:
        return False
    if fa.face < 0 and fb.face < 0:
        # no face of either has a length (rings that are points): as _overlap
        h.nx = 1.0
        h.ny = 0.0
        h.depth = rr
        h.count = 1
        h.p0x = _x(a, 0) + (a.r - b.r) * 0.5
        h.p0y = _y(a, 0)
        h.p1x = h.p0x
        h.p1y = h.p0y
        return True
    if fa.face >= 0 and (fb.face < 0 or not fb.best < fa.best - tol):
        # a's face is the reference (favoured on near ties)
        depth = fa.best
        h.nx = fa.mx
        h.ny = fa.my
        f = _incident_ring(b, &fb, fa.mx, fa.my)
        _manifold_face(a, fa.face, fa.mx, fa.my, b, f, tol, h)
    else:
        depth = fb.best
        h.nx = 0.0 - fb.mx
        h.ny = 0.0 - fb.my
        f = _incident_ring(a, &fa, fb.mx, fb.my)
        _manifold_face(b, fb.face, fb.mx, fb.my, a, f, tol, h)
    if not depth > 0.0:
        # touching (or a rounding hair beyond it, which collide counted as touching)
        depth = 0.0
    h.depth = depth
    return True


cdef inline double _climb(double x0, double y0, double ex, double ey, const double* xs,
                          const double* ys, double ox, double oy, int m,
                          int* at) noexcept nogil:
    # edge_reach's largest cross product over the ring's m points, found as the
    # reference's _climb finds it: from the point at[0] (IN/OUT: the previous edge's,
    # then this one's; < 0 for the first edge: every point), forward while the
    # products do not fall, at most m - 1 steps.  Inline, so that a call with the
    # constant origin 0.0 folds the subtractions away
    cdef int k = at[0]
    cdef int steps = m - 1
    cdef double c, top
    if k < 0:
        top = ex * ((ys[0] - oy) - y0) - ey * ((xs[0] - ox) - x0)
        for k in range(1, m):
            c = ex * ((ys[k] - oy) - y0) - ey * ((xs[k] - ox) - x0)
            if c > top:
                top = c
                at[0] = k
        if at[0] < 0:
            at[0] = 0
        return top
    top = ex * ((ys[k] - oy) - y0) - ey * ((xs[k] - ox) - x0)
    while steps > 0:
        steps -= 1
        k = k + 1 if k + 1 < m else 0
        c = ex * ((ys[k] - oy) - y0) - ey * ((xs[k] - ox) - x0)
        if not c >= top:
            break
        top = c
        at[0] = k
    return top


cdef int _ring_faces(const Core* s, const Core* o, double rr, bint decide, double size,
                     double* best, double* mx, double* my, bint* apart) noexcept nogil:
    # _best_face of a ring s (not a box) against a ring o of CLIMB_RING points or
    # more: its edge loop with the cross products climbed.  A loop of its own (the
    # same steps as _best_face's): folded into that loop, the climb's state cost two
    # rings 150 instructions more (bench/count_scalar.py)
    cdef int face = -1
    cdef int k, j
    cdef int n = s.n
    cdef int on = o.n
    cdef int at = -1
    cdef const double* oxs = o.xs
    cdef const double* oys = o.ys
    cdef const double* vxs = s.xs
    cdef const double* vys = s.ys
    cdef double oox = o.ox
    cdef double ooy = o.oy
    cdef double sox = s.ox
    cdef double soy = s.oy
    cdef double least = INFINITY
    cdef double x0, y0, x1, y1, ex, ey, top, length, depth
    cdef double fx = 0.0
    cdef double fy = 0.0
    cdef double flen = 1.0
    x1 = vxs[0] - sox
    y1 = vys[0] - soy
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        x0 = x1
        y0 = y1
        x1 = vxs[j] - sox
        y1 = vys[j] - soy
        ex = x1 - x0
        ey = y1 - y0
        top = _climb(x0, y0, ex, ey, oxs, oys, oox, ooy, on, &at)
        if top < 0.0:
            # the largest of them all, where the climb may have stopped short
            top = edge_reach(x0, y0, ex, ey, oxs, oys, oox, ooy, on)
        if decide and edge_apart(x0, y0, x1, y1, top, oxs, oys, oox, ooy, on, size):
            # the separating axis test's verdict, by exact signs
            apart[0] = True
            return -1
        length = sqrt(ex * ex + ey * ey)
        if length == 0.0:
            continue
        depth = rr + top / length
        if depth < least:
            least = depth
            face = k
            fx = ex
            fy = ey
            flen = length
    best[0] = least
    apart[0] = False
    mx[0] = 0.0
    my[0] = 0.0
    if face >= 0:
        _unit_normal(fx, fy, flen, mx, my)
    return face


cdef int _best_face(const Core* s, const Core* o, double rr, bint decide, double size,
                    double* best, double* mx, double* my, bint* apart) noexcept nogil:
    # the shallowest face of core s against core o: returns its index (-1: none);
    # best, mx, my (OUT): its depth and outward normal; apart (OUT, with decide):
    # whether a face has every vertex of o strictly outside by exact signs (for two
    # convex shapes, exactly the separating axis test's verdict; size: _size(s, o)).
    # With decide, a ring returns at its first separating face (-1, and only apart is
    # meaningful: the caller needs no more).
    # Both cores' fields are read into locals first: a store through an OUT pointer
    # could alias them, and the compiler would reload them on every vertex
    cdef int face = -1
    cdef int k, j, m
    cdef int n = s.n
    cdef int on = o.n
    cdef const double* oxs = o.xs
    cdef const double* oys = o.ys
    cdef double oox = o.ox
    cdef double ooy = o.oy
    cdef double least = INFINITY
    cdef bint separated = False
    cdef double x0, y0, x1, y1, ex, ey, top, length, depth, sox, soy
    cdef double first = 0.0
    cdef double fx = 0.0
    cdef double fy = 0.0
    cdef double flen = 1.0
    cdef const double* vxs
    cdef const double* vys
    cdef double g[4]
    if n == 2 and on == 2 and not decide:
        # two segment cores (of round shapes: boxes and polygons have more vertices)
        face = _segment_face(_x(s, 0), _y(s, 0), _x(s, 1), _y(s, 1), _x(o, 0), _y(o, 0),
                             _x(o, 1), _y(o, 1), rr, best, &length, apart)
        _segment_normal(_x(s, 0), _y(s, 0), _x(s, 1), _y(s, 1), face, length, mx, my)
        return face
    if n >= 2 and s.box:
        # the least gap of o's vertices beyond each side (right, left, top, bottom),
        # as the separating axis test measures it; a face's depth is rr - gap, the
        # faces in ring order (bottom, right, top, left), the first winning exact ties
        g[0] = g[1] = g[2] = g[3] = INFINITY
        for m in range(on):
            box_gaps(s.frame, oxs[m] - oox, oys[m] - ooy, g)
        if decide:
            for k in range(4):
                if s.frame.kind == AABB_KIND:
                    # differences of coordinates: their signs are exact
                    separated = separated or g[k] > 0.0
                else:
                    separated = separated or box_apart(s.frame, k, oxs, oys, oox, ooy, on)
        for k in range(4):
            m = _SIDE_OF_FACE[k]
            if rr - g[m] < least:
                face = k
                least = rr - g[m]
    elif n >= 2:
        # a face's depth is rr + (the largest cross product of its edge with o's
        # vertices) / (the edge's length), the cross products as the axis test forms
        # them; a face of zero length has no direction (but separates nothing)
        if n >= 3 and n <= LOCAL_RING and on >= 3 and on <= LOCAL_RING:
            # two small rings (a point or a segment core against a ring: the loop
            # below costs less than the SIMD set-up)
            return _paired_faces(s, o, rr, decide, size, best, mx, my, apart)
        if on >= CLIMB_RING and n >= 3:
            return _ring_faces(s, o, rr, decide, size, best, mx, my, apart)
        vxs = s.xs
        vys = s.ys
        sox = s.ox
        soy = s.oy
        # each edge's far end is the next edge's near end: read every vertex once
        x1 = vxs[0] - sox
        y1 = vys[0] - soy
        for k in range(n):
            j = k + 1 if k + 1 < n else 0
            x0 = x1
            y0 = y1
            x1 = vxs[j] - sox
            y1 = vys[j] - soy
            ex = x1 - x0
            ey = y1 - y0
            top = edge_reach(x0, y0, ex, ey, oxs, oys, oox, ooy, on)
            if decide and edge_apart(x0, y0, x1, y1, top, oxs, oys, oox, ooy, on, size):
                # the separating axis test's verdict, by exact signs
                apart[0] = True
                return -1
            if n == 2 and k == 1:
                # a segment's second face is its first reversed: the same length
                length = first
            else:
                length = sqrt(ex * ex + ey * ey)
                first = length
            if length == 0.0:
                continue
            depth = rr + top / length
            if depth < least:
                least = depth
                face = k
                fx = ex
                fy = ey
                flen = length
    best[0] = least
    apart[0] = separated
    mx[0] = 0.0
    my[0] = 0.0
    if face >= 0:
        if s.box:
            _normal(s, face, mx, my)
        else:
            # from the winning edge kept above (no second square root)
            _unit_normal(fx, fy, flen, mx, my)
    return face


cdef inline double _reach(const Core* c, double m) noexcept nogil:
    # the larger of m and the largest |coordinate| of c's local vertices (the fields
    # read into locals once: the loop's comparisons need no reloads)
    cdef int k
    cdef int n = c.n
    cdef const double* xs = c.xs
    cdef const double* ys = c.ys
    cdef double ox = c.ox
    cdef double oy = c.oy
    cdef double v
    for k in range(n):
        v = fabs(xs[k] - ox)
        if v > m:
            m = v
        v = fabs(ys[k] - oy)
        if v > m:
            m = v
    return m


cdef double _size(const Core* a, const Core* b) noexcept nogil:
    return _reach(b, _reach(a, a.r + b.r))


cdef bint _overlap(const Core* a, const Core* b, bint decide, Hit* h) noexcept nogil:
    # contact of two cores that cross or touch: least penetration, clipped manifold;
    # with decide (two convex shapes), False (h untouched) when a face separates them
    cdef double rr = a.r + b.r
    cdef double da, db, ax, ay, bx, by, depth, tol
    cdef bint apart_a, apart_b
    cdef int fa, fb
    cdef double size = _size(a, b)
    # deciding, a face of a that separates settles it without b's faces
    fa = _best_face(a, b, rr, decide, size, &da, &ax, &ay, &apart_a)
    if decide and apart_a:
        return False
    fb = _best_face(b, a, rr, decide, size, &db, &bx, &by, &apart_b)
    if decide and apart_b:
        return False
    tol = REL * size
    if fa < 0 and fb < 0:
        # two coincident points: no direction is better, take the fixed one
        h.nx = 1.0
        h.ny = 0.0
        h.depth = rr
        h.count = 1
        h.p0x = _x(a, 0) + (a.r - b.r) * 0.5
        h.p0y = _y(a, 0)
        h.p1x = h.p0x
        h.p1y = h.p0y
        return True
    if fa >= 0 and (fb < 0 or not db < da - tol):
        # a's face is the reference (favoured on near ties)
        depth = da
        h.nx = ax
        h.ny = ay
        _manifold(a, fa, ax, ay, b, tol, h)
    else:
        depth = db
        h.nx = 0.0 - bx
        h.ny = 0.0 - by
        _manifold(b, fb, bx, by, a, tol, h)
    if not depth > 0.0:
        # touching (or a rounding hair beyond it, which collide counted as touching)
        depth = 0.0
    h.depth = depth
    return True


cdef inline void _mid(double cx, double cy, double sep, double ri, double mx, double my,
                      double* px, double* py) noexcept nogil:
    # midway between the surfaces, from a clipped incident core point c
    cdef double h = ri + sep * 0.5
    px[0] = cx - mx * h
    py[0] = cy - my * h


cdef int _incident_face(const Core* o, double mx, double my) noexcept nogil:
    # the face of core o (two or more vertices) most anti-parallel to the normal m.
    # Only a face whose edge turns m's way (edge x m < 0: its outward normal dotted
    # with m, times its length, is negative) can be it, so only those are normalized
    # (one of a segment's faces, about half a ring's); a box (its normals cost
    # nothing), or a ring none of whose faces turns that way, compares every face
    cdef double best = INFINITY
    cdef double ex, ey, length, d, nx, ny, v
    cdef int f = 0
    cdef int j, g
    cdef bint found = False
    if o.n == 2:
        # a segment core: its two faces are one edge run both ways, so the second
        # face's turn test is exactly the first's negated (a - b is -(b - a), and
        # rounding is symmetric) and the test alone picks the one face the loop below
        # would normalize; an edge along m (a zero test) goes the general way
        v = (_y(o, 1) - _y(o, 0)) * mx - (_x(o, 1) - _x(o, 0)) * my
        if v < 0.0:
            return 0
        if v > 0.0:
            return 1
    if not o.box:
        for j in range(o.n):
            g = j + 1 if j + 1 < o.n else 0
            ex = _x(o, g) - _x(o, j)
            ey = _y(o, g) - _y(o, j)
            if ey * mx - ex * my < 0.0:
                length = sqrt(ex * ex + ey * ey)
                if length > 0.0:
                    _unit_normal(ex, ey, length, &nx, &ny)
                    d = nx * mx + ny * my
                    if d < best:
                        best = d
                        f = j
                        found = True
    if not found:
        for j in range(o.n):
            if not _normal(o, j, &nx, &ny):
                continue
            d = nx * mx + ny * my
            if d < best:
                best = d
                f = j
    return f


cdef void _manifold(const Core* s, int k, double mx, double my, const Core* o,
                    double tol, Hit* h) noexcept nogil:
    # o's incident feature clipped to s's face k; h (OUT): count and points
    cdef double i0x, i0y, i1x, i1y
    cdef int f, g, kn
    # the incident feature: o's face most anti-parallel to the normal, or o's core
    if o.n == 1:
        i0x = _x(o, 0)
        i1x = i0x
        i0y = _y(o, 0)
        i1y = i0y
    else:
        f = _incident_face(o, mx, my)
        g = f + 1 if f + 1 < o.n else 0
        i0x = _x(o, f)
        i0y = _y(o, f)
        i1x = _x(o, g)
        i1y = _y(o, g)
    kn = k + 1 if k + 1 < s.n else 0
    _clip(i0x, i0y, i1x, i1y, _x(s, k), _y(s, k), _x(s, kn), _y(s, kn), s.r, o.r, mx, my,
          tol, h)


cdef void _manifold_face(const Core* s, int k, double mx, double my, const Core* o, int f,
                         double tol, Hit* h) noexcept nogil:
    # _manifold's last steps, o's incident face f known (a ring's, found by
    # _incident_ring): that face clipped to s's face k
    cdef int g = f + 1 if f + 1 < o.n else 0
    cdef int kn = k + 1 if k + 1 < s.n else 0
    _clip(_x(o, f), _y(o, f), _x(o, g), _y(o, g), _x(s, k), _y(s, k), _x(s, kn), _y(s, kn),
          s.r, o.r, mx, my, tol, h)


cdef inline void _clip(double i0x, double i0y, double i1x, double i1y, double sx,
                       double sy, double fx, double fy, double rs, double ri, double mx,
                       double my, double tol, Hit* h) noexcept nogil:
    # the incident feature i0-i1 (of radius ri) clipped to the reference face from
    # (sx, sy) to (fx, fy) (of radius rs), outward normal m; h (OUT): count and points
    cdef double tx, ty, lo, hi
    cdef double t0, t1, ua, ub, l0, l1, ex, ey, c0x, c0y, c1x, c1y, s0, s1, tmp
    cdef bint keep, k0, k1
    # tangent coordinates along the reference face, from its first vertex
    tx = 0.0 - my
    ty = mx
    hi = tx * (fx - sx) + ty * (fy - sy)
    lo = 0.0
    if hi < lo:
        lo = hi
        hi = 0.0
    t0 = tx * (i0x - sx) + ty * (i0y - sy)
    t1 = tx * (i1x - sx) + ty * (i1y - sy)
    if t0 == t1:
        # the incident feature is a point or stands square to the face
        l0 = 0.0
        l1 = 1.0
        keep = lo <= t0 and t0 <= hi
    else:
        ua = (lo - t0) / (t1 - t0)
        ub = (hi - t0) / (t1 - t0)
        if ub < ua:
            tmp = ua
            ua = ub
            ub = tmp
        l0 = ua if ua > 0.0 else 0.0
        l1 = ub if ub < 1.0 else 1.0
        keep = l0 <= l1
    ex = i1x - i0x
    ey = i1y - i0y
    if keep:
        point_at(l0, i0x, i0y, i1x, i1y, ex, ey, &c0x, &c0y)
        point_at(l1, i0x, i0y, i1x, i1y, ex, ey, &c1x, &c1y)
    else:
        # rounding left nothing inside the face's extent: both ends, the deeper wins
        c0x = i0x
        c0y = i0y
        c1x = i1x
        c1y = i1y
    s0 = mx * (c0x - sx) + my * (c0y - sy) - rs - ri
    s1 = mx * (c1x - sx) + my * (c1y - sy) - rs - ri
    k0 = keep and s0 <= tol
    k1 = keep and s1 <= tol
    if k0 and k1 and (c0x != c1x or c0y != c1y):
        h.count = 2
        _mid(c0x, c0y, s0, ri, mx, my, &h.p0x, &h.p0y)
        _mid(c1x, c1y, s1, ri, mx, my, &h.p1x, &h.p1y)
        return
    h.count = 1
    if (k1 and not k0) or (not (k0 or k1) and s1 < s0):
        _mid(c1x, c1y, s1, ri, mx, my, &h.p0x, &h.p0y)
    else:
        _mid(c0x, c0y, s0, ri, mx, my, &h.p0x, &h.p0y)
    h.p1x = h.p0x
    h.p1y = h.p0y


cdef inline bint _parallel(double x0, double y0, double x1, double y1,
                           double nx, double ny) noexcept nogil:
    # whether edge (x0, y0)-(x1, y1) is square to the normal (relative tolerance)
    cdef double ex = x1 - x0
    cdef double ey = y1 - y0
    return fabs(ex * nx + ey * ny) <= REL * (fabs(ex) + fabs(ey))


cdef void _apart(double d, double ra, double rb, double qax, double qay,
                 double qbx, double qby, bint has_ea, const double* ea,
                 bint has_eb, const double* eb, bint has_eb2, const double* eb2,
                 Hit* h) noexcept nogil:
    # contact of round cores (or a round core and a convex shape) that are apart;
    # q: the cores' closest points; ea, eb: the edge each lies on (x0, y0, x1, y1);
    # eb2: the other edge of a polygon at a corner qb (each read only when its has_
    # flag is set: NULL will do otherwise); d: the distance of the q's, sqrt(d2), which
    # every caller has taken for its verdict (one square root, not two)
    cdef double nx = qbx - qax
    cdef double ny = qby - qay
    cdef double depth = (ra + rb) - d
    cdef double tx, ty, a0, a1, b0, b1, lo, hi, m, tmp, length
    cdef const double* e = NULL
    if nx * nx + ny * ny == 0.0:
        # cores nearer than their squares can tell (d came from the smallest float):
        # the difference scaled by 2**600 (exactly: the reference's UNDERFLOW_SCALE)
        # gives the direction
        nx = nx * 4.149515568880993e+180
        ny = ny * 4.149515568880993e+180
        length = sqrt(nx * nx + ny * ny)
        nx = nx / length
        ny = ny / length
    else:
        nx = nx / d
        ny = ny / d
    if not depth > 0.0:
        depth = 0.0
    h.nx = nx
    h.ny = ny
    h.depth = depth
    if has_ea and _parallel(ea[0], ea[1], ea[2], ea[3], nx, ny):
        if has_eb and _parallel(eb[0], eb[1], eb[2], eb[3], nx, ny):
            e = eb
        elif has_eb2 and _parallel(eb2[0], eb2[1], eb2[2], eb2[3], nx, ny):
            # the nearest point is a corner, and the face parallel to a is its other edge
            e = eb2
    if e != NULL:
        eb = e
        # parallel edges: the contact is the stretch where they overlap
        tx = 0.0 - ny
        ty = nx
        a0 = tx * ea[0] + ty * ea[1]
        a1 = tx * ea[2] + ty * ea[3]
        b0 = tx * eb[0] + ty * eb[1]
        b1 = tx * eb[2] + ty * eb[3]
        if a1 < a0:
            tmp = a0
            a0 = a1
            a1 = tmp
        if b1 < b0:
            tmp = b0
            b0 = b1
            b1 = tmp
        lo = a0 if a0 > b0 else b0
        hi = a1 if a1 < b1 else b1
        if lo < hi:
            m = ((nx * qax + ny * qay + ra) + (nx * qbx + ny * qby - rb)) * 0.5
            h.count = 2
            h.p0x = tx * lo + nx * m
            h.p0y = ty * lo + ny * m
            h.p1x = tx * hi + nx * m
            h.p1y = ty * hi + ny * m
            return
    h.count = 1
    h.p0x = ((qax + nx * ra) + (qbx - nx * rb)) * 0.5
    h.p0y = ((qay + ny * ra) + (qby - ny * rb)) * 0.5
    h.p1x = h.p0x
    h.p1y = h.p0y


cdef inline bint _inner_side(double x0, double y0, double x1, double y1, double ax,
                             double ay, double bx, double by, double bound) noexcept nogil:
    # both core ends strictly on the inner side of the edge (exact signs, as
    # narrowphase decides; bound: pair_bound of the pair)
    cdef double ex = x1 - x0
    cdef double ey = y1 - y0
    return (orient_within(ex * (ay - y0) - ey * (ax - x0), bound, x0, y0, x1, y1, ax, ay) > 0
            and orient_within(ex * (by - y0) - ey * (bx - x0), bound, x0, y0, x1, y1, bx,
                              by) > 0)


cdef void _round_round(const Round* ra, const Round* rb, const SegClosest* c,
                       Hit* h) noexcept nogil:
    # c: segment_segment of the two cores (computed once, for collide and for this)
    cdef Core ka, kb
    cdef double ea[4]
    cdef double eb[4]
    cdef bint seg_a, seg_b
    if (c.d2 > 0.0 and ra.ax == ra.bx and ra.ay == ra.by and rb.ax == rb.bx
            and rb.ay == rb.by):
        # two point cores (circles) apart, the commonest pair: what the general path
        # below does for them, without building cores and edges (segment_segment's
        # nearest points of two points are the points themselves)
        _apart(sqrt(c.d2), ra.r, rb.r, ra.ax, ra.ay, rb.ax, rb.ay, False, NULL, False, NULL,
               False, NULL, h)
        return
    if c.d2 > 0.0:
        # cores apart: the test below on cores built by _round_core (a zero-length
        # core, by the same test, is a point), read straight from the fields.  _size's
        # largest |coordinate| is a maximum, exact in any order; a core's origin is 0
        seg_a = _has_length(ra)
        seg_b = _has_length(rb)
        if (not seg_a and not seg_b) or sqrt(c.d2) > REL * _cores_size(
                ra.r + rb.r, ra.ax, ra.ay, ra.bx, ra.by, seg_a, rb.ax, rb.ay, rb.bx, rb.by,
                seg_b):
            ea[0] = ra.ax
            ea[1] = ra.ay
            ea[2] = ra.bx
            ea[3] = ra.by
            eb[0] = rb.ax
            eb[1] = rb.ay
            eb[2] = rb.bx
            eb[3] = rb.by
            _apart(sqrt(c.d2), ra.r, rb.r, c.px, c.py, c.qx, c.qy, seg_a, ea, seg_b, eb,
                   False, eb, h)
            return
    else:
        seg_a = _has_length(ra)
        seg_b = _has_length(rb)
    if seg_a and seg_b:
        # crossing (or all but touching) segment cores, the common overlap of two
        # capsules or segments
        _segment_cores(ra.ax, ra.ay, ra.bx, ra.by, ra.r, rb.ax, rb.ay, rb.bx, rb.by, rb.r,
                       h)
        return
    _round_core(&ka, ra.ax, ra.ay, ra.bx, ra.by, ra.r)
    _round_core(&kb, rb.ax, rb.ay, rb.bx, rb.by, rb.r)
    _overlap(&ka, &kb, False, h)


cdef inline bint _segments_overlap(double pax, double pay, double pbx, double pby,
                                   double pr, double qax, double qay, double qbx,
                                   double qby, double qr, Hit* h) noexcept nogil:
    # _overlap of the segment cores p and q that _round_core builds (origin 0, so a
    # vertex is the end itself), step for step on the ends: both cores'
    # _segment_face, the reference face, then _reference_face (the incident face by
    # _incident_face's turn test, _clip).  Returns False, h untouched, where _overlap
    # would take another branch (no face, or an incident edge along the normal): the
    # caller then runs _overlap itself.  Crossing capsules and segments are common;
    # this skips building two Cores and the loops that read them.  The ends come by
    # value: selecting between pointers to the callers' Rounds would keep those in
    # memory on every path of contact_views
    cdef double rr = pr + qr
    cdef double da, db, la, lb, mx, my, tol
    cdef bint apart
    cdef int fa, fb
    fa = _segment_face(pax, pay, pbx, pby, qax, qay, qbx, qby, rr, &da, &la, &apart)
    fb = _segment_face(qax, qay, qbx, qby, pax, pay, pbx, pby, rr, &db, &lb, &apart)
    if fa < 0 and fb < 0:
        return False
    tol = REL * _cores_size(rr, pax, pay, pbx, pby, True, qax, qay, qbx, qby, True)
    if fa >= 0 and (fb < 0 or not db < da - tol):
        # a's face is the reference (favoured on near ties); only its normal is formed
        _segment_normal(pax, pay, pbx, pby, fa, la, &mx, &my)
        return _reference_face(pax, pay, pbx, pby, pr, qax, qay, qbx, qby, qr, fa, mx, my,
                               da, tol, False, h)
    _segment_normal(qax, qay, qbx, qby, fb, lb, &mx, &my)
    return _reference_face(qax, qay, qbx, qby, qr, pax, pay, pbx, pby, pr, fb, mx, my, db,
                           tol, True, h)


cdef inline bint _reference_face(double sax, double say, double sbx, double sby, double rs,
                                 double oax, double oay, double obx, double oby, double ri,
                                 int k, double mx, double my, double depth, double tol,
                                 bint flip, Hit* h) noexcept nogil:
    # _overlap's last steps for two segment cores, face k of s the reference (normal
    # m, given depth) and o the incident core: False, h untouched, when o's edge runs
    # along m (_incident_face then compares normals; the caller runs _overlap).  flip:
    # s is b, so the contact normal is -m
    cdef double sx, sy, fx, fy, i0x, i0y, i1x, i1y
    # o's incident face is 0 when its edge turns m's way (v < 0), else 1
    cdef double v = (oby - oay) * mx - (obx - oax) * my
    if not (v < 0.0 or v > 0.0):
        return False
    if flip:
        h.nx = 0.0 - mx
        h.ny = 0.0 - my
    else:
        h.nx = mx
        h.ny = my
    # face 0 of a segment core runs from end a to end b, face 1 back
    if k == 0:
        sx, sy, fx, fy = sax, say, sbx, sby
    else:
        sx, sy, fx, fy = sbx, sby, sax, say
    if v < 0.0:
        i0x, i0y, i1x, i1y = oax, oay, obx, oby
    else:
        i0x, i0y, i1x, i1y = obx, oby, oax, oay
    _clip(i0x, i0y, i1x, i1y, sx, sy, fx, fy, rs, ri, mx, my, tol, h)
    if not depth > 0.0:
        # touching (or a rounding hair beyond it, which collide counted as touching)
        depth = 0.0
    h.depth = depth
    return True


cdef void _segment_cores(double pax, double pay, double pbx, double pby, double pr,
                         double qax, double qay, double qbx, double qby, double qr,
                         Hit* h) noexcept nogil:
    # h (OUT): _round_round's _overlap of two segment cores, by _segments_overlap where
    # it can
    cdef Core ka, kb
    if _segments_overlap(pax, pay, pbx, pby, pr, qax, qay, qbx, qby, qr, h):
        return
    _round_core(&ka, pax, pay, pbx, pby, pr)
    _round_core(&kb, qax, qay, qbx, qby, qr)
    _overlap(&ka, &kb, False, h)


cdef inline double _larger(double m, double x, double y) noexcept nogil:
    # the largest of m, |x| and |y|, in _reach's order
    if fabs(x) > m:
        m = fabs(x)
    if fabs(y) > m:
        m = fabs(y)
    return m


cdef inline bint _has_length(const Round* r) noexcept nogil:
    # whether _round_core makes r's core a segment (a zero-length core is a point)
    return (r.bx - r.ax) * (r.bx - r.ax) + (r.by - r.ay) * (r.by - r.ay) != 0.0


cdef double _cores_size(double rr, double ax, double ay, double bx, double by, bint seg_a,
                        double cx, double cy, double dx, double dy,
                        bint seg_b) noexcept nogil:
    # _size of the two cores _round_core builds, ab and cd, radii adding up to rr (a
    # point core has only its end a, or c), in _reach's order
    cdef double m = _larger(rr, ax, ay)
    if seg_a:
        m = _larger(m, bx, by)
    m = _larger(m, cx, cy)
    if seg_b:
        m = _larger(m, dx, dy)
    return m


cdef inline bint _clear(double d2, const Core* a, const Core* b) noexcept nogil:
    # cores clearly apart, beyond REL * size (closer, their direction is rounding noise)
    return sqrt(d2) > REL * _size(a, b)


cdef inline void _edge(const Core* c, double* e) noexcept nogil:
    # e (OUT): a segment core's ends (x0, y0, x1, y1)
    if c.n == 2:
        e[0] = _x(c, 0)
        e[1] = _y(c, 0)
        e[2] = _x(c, 1)
        e[3] = _y(c, 1)


cdef bint _point_convex(const Round* ra, const Convex* cv, Hit* h) noexcept nogil:
    # _round_convex of a round shape whose core is one point a (a circle): the same
    # steps, each the same arithmetic, less those only a segment core needs:
    # _inner_side's test once (both ends are a), segment_segment's branch for a point
    # ab (the nearest point of each edge to a), no edges for _apart to compare, and
    # the cores' _size gathered in the edge loop
    cdef Core ka, kb
    cdef double ax = ra.ax, ay = ra.ay, r = ra.r
    cdef double best, pbx, pby, x0, y0, x1, y1, qx, qy, d2, m
    # the exact signs' bound (pair_bound) of the point and the convex shape
    cdef double bound = pair_bound(max(cv.reach, max(fabs(ax), fabs(ay))))
    cdef int n, i, j, edge
    cdef bint tested = False
    _convex_core(&kb, cv)
    if not point_in_convex(cv, ax, ay):
        n = kb.n
        best = INFINITY
        edge = -1
        pbx = pby = 0.0
        # _size: the reach of a, then of each vertex of kb (a max, in any order;
        # needed only when the loop runs to its end, as a break leaves best 0.0)
        m = _larger(r + 0.0, ax, ay)
        if cv.kind == AABB_KIND:
            # a box: the clamped nearest point (as round_convex_closest takes it)
            best = point_box(ax, ay, cv.box_x[0], cv.box_y[0], cv.box_x[1], cv.box_y[2],
                             &edge, &pbx, &pby)
            tested = True
            for i in range(4):
                m = _larger(m, _x(&kb, i), _y(&kb, i))
        else:
            x1 = _x(&kb, 0)
            y1 = _y(&kb, 0)
            for i in range(n):
                j = i + 1 if i + 1 < n else 0
                x0 = x1
                y0 = y1
                x1 = _x(&kb, j)
                y1 = _y(&kb, j)
                m = _larger(m, x0, y0)
                if orient_within((x1 - x0) * (ay - y0) - (y1 - y0) * (ax - x0), bound, x0, y0,
                                 x1, y1, ax, ay) > 0:
                    continue
                tested = True
                point_segment(ax, ay, x0, y0, x1, y1, bound, &qx, &qy, &d2)
                if d2 < best:
                    best = d2
                    edge = i
                    pbx = qx
                    pby = qy
                    if d2 == 0.0:
                        break
        if tested and not sqrt(best) <= r:
            return False
        if edge >= 0 and best > 0.0 and sqrt(best) > REL * m:
            _apart(sqrt(best), r, 0.0, ax, ay, pbx, pby, False, NULL, False, NULL, False,
                   NULL, h)
            return True
    _round_core(&ka, ax, ay, ax, ay, r)
    return _overlap(&ka, &kb, False, h)


cdef bint _round_convex(const Round* ra, const Convex* cv, Hit* h) noexcept nogil:
    # h (OUT): the contact of a round shape and a convex one; False (h untouched) when
    # they do not collide.  The nearest-edge search is round_convex_collide's own (the
    # same edges, the same segment_segment), so its verdict is collide's
    cdef Core ka, kb
    cdef double ea[4]
    cdef double eb[4]
    cdef double eb2[4]
    cdef double ax = ra.ax, ay = ra.ay, bx = ra.bx, by = ra.by, r = ra.r
    cdef double best, pax, pay, pbx, pby, x0, y0, x1, y1
    cdef int n, i, j, k, edge
    cdef bint has_eb2
    cdef bint tested = False
    cdef SegClosest c
    # the exact signs' bound (pair_bound) of the core and the convex shape
    cdef double bound = pair_bound(max(max(cv.reach, max(fabs(ax), fabs(ay))),
                                       max(fabs(bx), fabs(by))))
    _convex_core(&kb, cv)
    if not point_in_convex(cv, ax, ay):
        # the core's nearest edge, as round_convex_closest finds it
        n = kb.n
        best = INFINITY
        edge = -1
        pax = pay = pbx = pby = 0.0
        if cv.kind == AABB_KIND and ax == bx and ay == by:
            # a point core and a box: the clamped nearest point
            best = point_box(ax, ay, cv.box_x[0], cv.box_y[0], cv.box_x[1], cv.box_y[2],
                             &edge, &pbx, &pby)
            pax = ax
            pay = ay
            tested = True
        else:
            # each edge's far end is the next edge's near end: read every vertex once
            x1 = _x(&kb, 0)
            y1 = _y(&kb, 0)
            for i in range(n):
                j = i + 1 if i + 1 < n else 0
                x0 = x1
                y0 = y1
                x1 = _x(&kb, j)
                y1 = _y(&kb, j)
                if _inner_side(x0, y0, x1, y1, ax, ay, bx, by, bound):
                    continue
                tested = True
                c = segment_segment(ax, ay, bx, by, x0, y0, x1, y1, bound)
                if c.d2 < best:
                    best = c.d2
                    edge = i
                    pax = c.px
                    pay = c.py
                    pbx = c.qx
                    pby = c.qy
                    if c.d2 == 0.0:
                        break
        if tested and not sqrt(best) <= r:
            # collide's verdict: every facing edge is further than r (an edge within
            # r would have given the least distance within r; with no facing edge,
            # which exact signs do not leave, the core would lie inside)
            return False
        _round_core(&ka, ax, ay, bx, by, r)
        if edge >= 0 and best > 0.0 and _clear(best, &ka, &kb):
            j = edge + 1 if edge + 1 < n else 0
            _edge(&ka, ea)
            eb[0] = _x(&kb, edge)
            eb[1] = _y(&kb, edge)
            eb[2] = _x(&kb, j)
            eb[3] = _y(&kb, j)
            # at a corner, the corner's other edge may be the one parallel to a
            has_eb2 = False
            if pbx == eb[2] and pby == eb[3]:
                k = j + 1 if j + 1 < n else 0
                has_eb2 = True
                eb2[0] = eb[2]
                eb2[1] = eb[3]
                eb2[2] = _x(&kb, k)
                eb2[3] = _y(&kb, k)
            elif pbx == eb[0] and pby == eb[1]:
                k = edge - 1 if edge > 0 else n - 1
                has_eb2 = True
                eb2[0] = _x(&kb, k)
                eb2[1] = _y(&kb, k)
                eb2[2] = eb[0]
                eb2[3] = eb[1]
            _apart(sqrt(best), r, 0.0, pax, pay, pbx, pby, ka.n == 2, ea, True, eb, has_eb2,
                   eb2, h)
            return True
    _round_core(&ka, ax, ay, bx, by, r)
    return _overlap(&ka, &kb, False, h)


cdef bint _convex_convex(const View* a, const View* b, double ox, double oy,
                         Hit* h) noexcept nogil:
    # h (OUT): the contact, local, of two convex shapes in canonical order; False
    # when they do not collide (the faces' gaps are the separating axis test's own)
    cdef Convex ca, cb
    cdef Core ka, kb
    view_convex(a, ox, oy, &ca)
    view_convex(b, ox, oy, &cb)
    _convex_core(&ka, &ca)
    _convex_core(&kb, &cb)
    if _small_ring(&ka) and _small_ring(&kb):
        return _rings_overlap(&ka, &kb, True, h)
    return _overlap(&ka, &kb, True, h)


cdef int _circles(const View* a, const View* b, Hit* h) noexcept nogil:
    # two circles, the commonest pair of a scene: contact_views's own steps for them
    # (canonical order, local frame, segment_segment, _round_round, the world
    # frame), operation for operation, without its dispatch.  Point cores: the
    # nearest points are the centres and d2 their dist2 (segment_segment's branch
    # for a point ab; its t is 0 for a point cd, so q is c itself).  Returns 1 for a
    # contact, 0 for none, -1 for coincident centres (the general path decides)
    cdef bint swapped = views_swapped(a, b)
    cdef const View* p = b if swapped else a
    cdef const View* q = a if swapped else b
    cdef double ox = p.f[0]
    cdef double oy = p.f[1]
    # view_core's local coordinates (a's centre: 0.0 for a finite one)
    cdef double ax = p.f[0] - ox
    cdef double ay = p.f[1] - oy
    cdef double bx = q.f[0] - ox
    cdef double by = q.f[1] - oy
    cdef double d2 = dist2(ax, ay, bx, by)
    if not sqrt(d2) <= p.f[2] + q.f[2]:
        return 0
    if not d2 > 0.0:
        return -1
    _apart(sqrt(d2), p.f[2], q.f[2], ax, ay, bx, by, False, NULL, False, NULL, False, NULL,
           h)
    if swapped:
        h.nx = 0.0 - h.nx
        h.ny = 0.0 - h.ny
    h.p0x = h.p0x + ox
    h.p0y = h.p0y + oy
    h.p1x = 0.0
    h.p1y = 0.0
    return 1


cdef bint contact_circles(const View* a, const View* b, Hit* h) noexcept nogil:
    # contact_views of two circles (the callers pick it once per call: a test per
    # row of every other pair in contact_views costs them more than it saves)
    cdef int st = _circles(a, b, h)
    if st >= 0:
        return st == 1
    return contact_views(a, b, h)


cdef bint contact_views(const View* a, const View* b, Hit* h) noexcept nogil:
    # h (OUT): the contact of two shapes, world coordinates, normal from a to b, an
    # unused second point (0, 0); False (h untouched) when they do not collide
    cdef double ox, oy
    cdef bint swapped
    cdef const View* p
    cdef const View* q
    cdef Round ra, rb
    cdef Convex cb
    cdef SegClosest c
    swapped = views_swapped(a, b)
    p = b if swapped else a
    q = a if swapped else b
    view_frame(p, q, &ox, &oy)
    if q.kind <= SEGMENT:
        # two round shapes: the cores' closest points decide collide (as
        # round_round_collide does, in the same local frame) and seed the contact
        view_core(p, ox, oy, &ra)
        view_core(q, ox, oy, &rb)
        c = segment_segment(ra.ax, ra.ay, ra.bx, ra.by, rb.ax, rb.ay, rb.bx, rb.by, -1.0)
        if q.kind == CIRCLE:
            # two circles: collide's own test of their centres (its squares, which
            # segment_segment would raise to the smallest float where they underflow)
            if not sqrt(dist2(ra.ax, ra.ay, rb.ax, rb.ay)) <= ra.r + rb.r:
                return False
        elif not sqrt(c.d2) <= ra.r + rb.r:
            return False
        _round_round(&ra, &rb, &c, h)
    elif p.kind <= SEGMENT:
        # a round shape and a convex one: the nearest-edge search decides as collide
        # does (round_convex_collide), so no contact exactly when collide is False
        view_core(p, ox, oy, &ra)
        view_convex(q, ox, oy, &cb)
        if p.kind == CIRCLE:
            if not _point_convex(&ra, &cb, h):
                return False
        elif not _round_convex(&ra, &cb, h):
            return False
    elif not _convex_convex(p, q, ox, oy, h):
        # separated: the faces measured the separating axis test's gaps, so this
        # is collide's verdict without running the test a second time
        return False
    if swapped:
        h.nx = 0.0 - h.nx
        h.ny = 0.0 - h.ny
    h.p0x = h.p0x + ox
    h.p0y = h.p0y + oy
    if h.count == 2:
        h.p1x = h.p1x + ox
        h.p1y = h.p1y + oy
    else:
        h.p1x = 0.0
        h.p1y = 0.0
    return True


cdef object contact_pair(object a, object b):
    # contact of two shape objects (checked by the caller)
    cdef Hit h
    cdef View va, vb
    view_of(<Shape>a, &va)
    view_of(<Shape>b, &vb)
    if va.kind == CIRCLE and vb.kind == CIRCLE:
        if not contact_circles(&va, &vb, &h):
            return None
    elif not contact_views(&va, &vb, &h):
        return None
    return make_contact(h.nx, h.ny, h.depth, h.count, h.p0x, h.p0y, h.p1x, h.p1y)


def contact(a, b):
    """``contact`` of two shapes (``fastcol.contact`` documents it)."""
    if not is_shape(a):
        raise shape_type_error(a, "a")
    if not is_shape(b):
        raise shape_type_error(b, "b")
    return contact_pair(a, b)
