"""Pair kernels: overlap and closest points for round and convex shapes.

Compiled twin of fastcol._ref.narrowphase, which explains the method; the two are
mirrored operation for operation.  Closest-point kernels return the separation and
write ``out[0:4] = (pax, pay, pbx, pby)`` in local coordinates.
"""

from libc.math cimport INFINITY, fabs, sqrt

from .geometry cimport (
    SegClosest, closest_on_segment, dist2, segment_segment, segment_segment_d2,
)
from .shapes cimport AABB_KIND, OBB_KIND, POLYGON

# ------------------------------------------------------------------ convex shapes

cdef void convex_aabb(Convex* cv, double x0, double y0, double x1, double y1) noexcept nogil:
    cv.kind = AABB_KIND
    cv.n = 4
    cv.box_x[0] = x0
    cv.box_x[1] = x1
    cv.box_x[2] = x1
    cv.box_x[3] = x0
    cv.box_y[0] = y0
    cv.box_y[1] = y0
    cv.box_y[2] = y1
    cv.box_y[3] = y1
    cv.xs = cv.box_x
    cv.ys = cv.box_y
    cv.ox = 0.0
    cv.oy = 0.0
    cv.reach = max(max(fabs(x0), fabs(x1)), max(fabs(y0), fabs(y1)))


cdef void convex_obb(Convex* cv, double cx, double cy, double c, double s,
                     double hw, double hh) noexcept nogil:
    # the half extents as the corners are computed: a side thinner than thin_limit
    # at zero thickness (box_extents in the reference)
    cdef double thin = thin_limit(cx, cy, hw, hh)
    if hh < thin:
        hh = 0.0
    if hw < thin:
        hw = 0.0
    cdef double hx = hw * c
    cdef double hy = hw * s
    cdef double vx = hh * s
    cdef double vy = hh * c
    cv.kind = OBB_KIND
    cv.n = 4
    cv.box_x[0] = cx - hx + vx
    cv.box_x[1] = cx + hx + vx
    cv.box_x[2] = cx + hx - vx
    cv.box_x[3] = cx - hx - vx
    cv.box_y[0] = cy - hy - vy
    cv.box_y[1] = cy + hy - vy
    cv.box_y[2] = cy + hy + vy
    cv.box_y[3] = cy - hy + vy
    cv.xs = cv.box_x
    cv.ys = cv.box_y
    cv.ox = 0.0
    cv.oy = 0.0
    cv.cx = cx
    cv.cy = cy
    cv.cos = c
    cv.sin = s
    cv.hw = hw
    cv.hh = hh
    # a corner is the centre plus or minus the half extents' parts, rounded: this
    # bounds its coordinates with room to spare
    cv.reach = max(fabs(cx), fabs(cy)) + 2.0 * (hw + hh)


cdef void convex_polygon(Convex* cv, const double* xs, const double* ys, int n,
                         double ox, double oy, const double* lo,
                         const double* hi) noexcept nogil:
    # lo, hi: the polygon's box (in an exact frame its corners' local coordinates
    # bound the vertices')
    cv.kind = POLYGON
    cv.n = n
    cv.xs = xs
    cv.ys = ys
    cv.ox = ox
    cv.oy = oy
    cv.reach = max(max(fabs(lo[0] - ox), fabs(hi[0] - ox)),
                   max(fabs(lo[1] - oy), fabs(hi[1] - oy)))


# box_gaps's order of the sides (right, left, top, bottom) as side indices of the ring
cdef int[4] _SIDE = [1, 3, 2, 0]


cdef inline double _x(const Convex* cv, int k) noexcept nogil:
    return cv.xs[k] - cv.ox


cdef inline double _y(const Convex* cv, int k) noexcept nogil:
    return cv.ys[k] - cv.oy


cdef inline void _box_tolerances(const Convex* cv, double size, double* tol) noexcept nogil:
    # tol (OUT): for each of box_gaps's gaps (right, left, top, bottom) of a point of
    # the pair (size: no less than any |coordinate| of the pair's vertices), how far
    # the rounded gap can lie from the signed distance to the side through the
    # corners as computed: the corners' rounding (3 ulps of m = |centre| + hw + hh
    # each), turned about the side's length h (2 hh for right and left, 2 hw for top
    # and bottom; none for a side of zero length, which box_side takes along the axis)
    # over the point's distance (at most 3 size), and the gap's own rounding: 2**-48
    # times m + size + hw + hh + m size / h covers it 32 times over.  A box no thinner
    # than (m + size) / 1024 takes 1024 m for m size / h (no larger), and no division
    cdef double m = max(fabs(cv.cx), fabs(cv.cy)) + cv.hw + cv.hh
    cdef double base = m + size + cv.hw + cv.hh
    cdef double thick = (m + size) * 0.0009765625
    cdef double u = base
    cdef double v = base
    if cv.hh >= thick:
        u = u + 1024.0 * m
    elif cv.hh > 0.0:
        u = u + m * size / cv.hh
    if cv.hw >= thick:
        v = v + 1024.0 * m
    elif cv.hw > 0.0:
        v = v + m * size / cv.hw
    tol[0] = tol[1] = 3.552713678800501e-15 * u
    tol[2] = tol[3] = 3.552713678800501e-15 * v


cdef bint point_in_convex(const Convex* cv, double px, double py) noexcept nogil:
    # whether p lies inside or on the boundary, by exact signs
    cdef int i, j
    cdef int n = cv.n
    cdef double dx, dy, gu, gv, bound, x0, y0, x1, y1
    cdef double tol[4]
    if cv.kind == AABB_KIND:
        return cv.box_x[0] <= px <= cv.box_x[1] and cv.box_y[0] <= py <= cv.box_y[2]
    if cv.kind == OBB_KIND:
        # p in the box's frame (box_gaps's arithmetic): the larger gap beyond the u
        # sides and beyond the v sides decide beyond their tolerance, box_side within
        dx = px - cv.cx
        dy = py - cv.cy
        gu = fabs(dx * cv.cos + dy * cv.sin) - cv.hw
        gv = fabs(dy * cv.cos - dx * cv.sin) - cv.hh
        _box_tolerances(cv, max(cv.reach, max(fabs(px), fabs(py))), tol)
        if gu > tol[0] or gv > tol[2]:
            return False
        if gu < -tol[0] and gv < -tol[2]:
            return True
        for i in range(4):
            if box_side(cv, i, px, py) < 0:
                return False
        return True
    bound = pair_bound(max(cv.reach, max(fabs(px), fabs(py))))
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        x0 = _x(cv, i)
        y0 = _y(cv, i)
        x1 = _x(cv, j)
        y1 = _y(cv, j)
        if orient_within((x1 - x0) * (py - y0) - (y1 - y0) * (px - x0), bound, x0, y0,
                         x1, y1, px, py) < 0:
            return False
    return True


cdef int _first_inside(double x0, double y0, double x1, double y1, const Convex* pts,
                       int k, int count, double bound) noexcept nogil:
    # the first of count vertices of pts from k on (cyclically) on or inside the line
    # from (x0, y0) to (x1, y1): by the rounded product beyond bound, else by the exact
    # sign; -1 if none
    cdef double ex = x1 - x0
    cdef double ey = y1 - y0
    cdef double c
    cdef int step
    for step in range(count):
        c = ex * (_y(pts, k) - y0) - ey * (_x(pts, k) - x0)
        if c >= 0.0 and (c > bound or not edge_apart_exact(
                x0, y0, x1, y1, pts.xs + k, pts.ys + k, pts.ox, pts.oy, 1)):
            return k
        k = k + 1 if k + 1 < pts.n else 0
    return -1


cdef double _separation(const Convex* cv, const Convex* pts) noexcept nogil:
    # how far one of cv's own axes puts every vertex of pts outside cv: > 0.0 if it
    # does (the gap along the first separating axis, a lower bound of the distance, at
    # least the smallest positive float); whether an axis separates is decided by
    # exact signs (see the reference)
    cdef int m = pts.n
    cdef int n = cv.n
    cdef int i, j, k, left, start = 0
    cdef double ex, ey, ee, x0, y0, x1, y1, x, y, worst, gap
    cdef double c = 0.0
    # beyond this a rounded cross product has the exact sign: edge_apart's bound with
    # |ex| + |ey| <= 4 size (1e-15 * 4 size * size), size the pair's largest
    # |coordinate|
    cdef double size = max(cv.reach, pts.reach)
    cdef double bound = 4e-15 * size * size + 1.6e-322
    cdef double g[4]
    cdef double tol[4]
    if cv.kind == AABB_KIND:
        g[0] = g[1] = g[2] = g[3] = INFINITY
        for k in range(m):
            box_gaps(cv, _x(pts, k), _y(pts, k), g)
            if g[0] <= 0.0 and g[1] <= 0.0 and g[2] <= 0.0 and g[3] <= 0.0:
                # no axis can separate any more
                return 0.0
        # the first positive of the four gaps (differences of coordinates: exact signs)
        for k in range(4):
            if g[k] > 0.0:
                return g[k]
        return 0.0
    if cv.kind == OBB_KIND:
        # the gaps decide a side beyond their tolerance (_box_tolerances), the exact
        # signs (box_apart) within it
        _box_tolerances(cv, max(cv.reach, pts.reach), tol)
        g[0] = g[1] = g[2] = g[3] = INFINITY
        for k in range(m):
            box_gaps(cv, _x(pts, k), _y(pts, k), g)
            if g[0] < -tol[0] and g[1] < -tol[1] and g[2] < -tol[2] and g[3] < -tol[3]:
                # no side can separate any more
                return 0.0
        for i in range(4):
            if g[i] > tol[i]:
                return g[i]
            if g[i] >= -tol[i] and box_apart(cv, _SIDE[i], pts.xs, pts.ys, pts.ox, pts.oy, m):
                return g[i] if g[i] > 0.0 else 2.2227587494850775e-162
        return 0.0
    # each edge's far end is the next edge's near end: read each vertex once
    x1 = _x(cv, 0)
    y1 = _y(cv, 0)
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        x0 = x1
        y0 = y1
        x1 = _x(cv, j)
        y1 = _y(cv, j)
        ex = x1 - x0
        ey = y1 - y0
        # the vertex found inside the previous edge's line is the likeliest inside this
        # one too (the support point turns with the edges): start the search there,
        # for the first vertex on or inside the line by its rounded product
        k = start
        left = m
        while left > 0:
            c = ex * (_y(pts, k) - y0) - ey * (_x(pts, k) - x0)
            if c >= 0.0:
                break
            k = k + 1 if k + 1 < m else 0
            left -= 1
        if left > 0 and c <= bound:
            # within the bound the exact signs decide, from that vertex on (rare: out
            # of line)
            k = _first_inside(x0, y0, x1, y1, pts, k, left, bound)
            left = k >= 0
        if left > 0:
            start = k
        else:
            # every vertex strictly outside this edge by the rounded products; one
            # within the bound of the line is left to the exact signs
            worst = edge_reach(x0, y0, ex, ey, pts.xs, pts.ys, pts.ox, pts.oy, m)
            if worst >= -bound and not edge_apart_exact(x0, y0, x1, y1, pts.xs, pts.ys,
                                                         pts.ox, pts.oy, m):
                continue
            # every vertex strictly outside this edge: the nearest one gives the gap
            ee = ex * ex + ey * ey
            if ee < 2.2250738585072014e-308:
                # an edge so short its squared length underflows: scaled by 2**600
                # (the reference's UNDERFLOW_SCALE)
                worst = worst * 4.149515568880993e+180
                ex = ex * 4.149515568880993e+180
                ey = ey * 4.149515568880993e+180
                ee = ex * ex + ey * ey
            gap = -worst / sqrt(ee)
            # apart by exact signs, nearer than the rounded gap can tell: the
            # distance floor, sqrt(5e-324)
            return gap if gap > 0.0 else 2.2227587494850775e-162
    return 0.0


cdef double convex_gap(const Convex* a, const Convex* b) noexcept nogil:
    cdef double gap = _separation(a, b)
    if gap > 0.0:
        return gap
    return _separation(b, a)


cdef bint convex_overlap(const Convex* a, const Convex* b) noexcept nogil:
    return convex_gap(a, b) == 0.0


cdef double _vertex_to_edges(double px, double py, const Convex* dst, double best,
                             double* out, bint flip, bint prune, double bound,
                             bint* seen) noexcept nogil:
    # the vertex p against each edge of dst, updating out (IN/OUT); seen (OUT): whether
    # any edge of positive length faces p (has p on or outside its line)
    cdef int n = dst.n
    cdef int i, j
    cdef double qx, qy, d2, x0, y0, x1, y1, ex, ey, c, e2
    seen[0] = False
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        x0 = _x(dst, i)
        y0 = _y(dst, i)
        x1 = _x(dst, j)
        y1 = _y(dst, j)
        if prune:
            ex = x1 - x0
            ey = y1 - y0
            c = ex * (py - y0) - ey * (px - x0)
            if orient_within(c, bound, x0, y0, x1, y1, px, py) > 0:
                # the vertex is strictly inside this edge's line (exact sign)
                continue
            e2 = ex * ex + ey * ey
            if e2 > 0.0:
                # a zero-length edge (the end of a flat box) faces nothing: a flat
                # box's two long edges lie on one line, and a vertex on that line can
                # round to the inner side of both; with no edge facing it, the caller
                # tries every edge
                seen[0] = True
                if c * c >= best * e2:
                    # the edge's line is already no nearer than the best pair
                    continue
        closest_on_segment(px, py, x0, y0, x1, y1, &qx, &qy)
        d2 = dist2(px, py, qx, qy)
        if d2 < best:
            best = d2
            if flip:
                out[0] = qx
                out[1] = qy
                out[2] = px
                out[3] = py
            else:
                out[0] = px
                out[1] = py
                out[2] = qx
                out[3] = qy
    return best


cdef double _vertices_to_edges(const Convex* src, const Convex* dst, double best,
                               double* out, bint flip, bint prune, double nx, double ny,
                               double nn, double lim, double sgn) noexcept nogil:
    # updates out (IN/OUT) with the nearest (vertex of src, point on an edge of dst);
    # with prune, skips pairs that cannot beat the best pair (see the reference)
    cdef int k
    cdef double px, py, gap
    cdef bint seen
    cdef double bound = pair_bound(max(src.reach, dst.reach))
    for k in range(src.n):
        px = _x(src, k)
        py = _y(src, k)
        if prune:
            gap = lim - sgn * (nx * px + ny * py)
            if gap > 0.0 and gap * gap > best * nn:
                # further behind the other shape than the best distance
                continue
        best = _vertex_to_edges(px, py, dst, best, out, flip, prune, bound, &seen)
        if not seen:
            # no edge of positive length faces the vertex (dst is a point: a box of
            # zero extent), so every edge is a candidate
            best = _vertex_to_edges(px, py, dst, best, out, flip, False, bound, &seen)
    return best


cdef double _mean(const Convex* cv, bint ys) noexcept nogil:
    cdef double total = 0.0
    cdef int k
    for k in range(cv.n):
        total += _y(cv, k) if ys else _x(cv, k)
    return total / cv.n


cdef void _inside_point(const Convex* a, const Convex* b, double* px, double* py) noexcept nogil:
    # px, py (OUT): a point inside both of two overlapping convex shapes
    cdef int k, i, i2, j, j2
    cdef int na = a.n
    cdef int nb = b.n
    cdef SegClosest r
    cdef double best, bound
    cdef double out[4]
    for k in range(na):
        if point_in_convex(b, _x(a, k), _y(a, k)):
            px[0] = _x(a, k)
            py[0] = _y(a, k)
            return
    for k in range(nb):
        if point_in_convex(a, _x(b, k), _y(b, k)):
            px[0] = _x(b, k)
            py[0] = _y(b, k)
            return
    # neither holds a corner of the other: their edges cross
    bound = pair_bound(max(a.reach, b.reach))
    for i in range(na):
        i2 = i + 1 if i + 1 < na else 0
        for j in range(nb):
            j2 = j + 1 if j + 1 < nb else 0
            r = segment_segment(_x(a, i), _y(a, i), _x(a, i2), _y(a, i2),
                                _x(b, j), _y(b, j), _x(b, j2), _y(b, j2), bound)
            if r.d2 == 0.0:
                px[0] = r.px
                py[0] = r.py
                return
    # not reached: overlapping convex shapes (exact signs) hold a vertex of one in the
    # other or cross at their edges.  Kept so a point is always returned: the nearest
    # pair, a vertex of either against the other's edges, and its point on b
    out[0] = out[1] = out[2] = out[3] = 0.0
    best = _vertices_to_edges(a, b, INFINITY, out, False, False, 0.0, 0.0, 0.0, 0.0, 1.0)
    _vertices_to_edges(b, a, best, out, True, False, 0.0, 0.0, 0.0, 0.0, 1.0)
    px[0] = out[2]
    py[0] = out[3]


cdef inline double _turn(const Convex* cv, int k, double px, double py, double dx,
                         double dy) noexcept nogil:
    # d . (vertex k - p): <= 0.0 when the edge from p to vertex k turns away from d
    return dx * (_x(cv, k) - px) + dy * (_y(cv, k) - py)


cdef inline int _prev(const Convex* cv, int k) noexcept nogil:
    return k - 1 if k > 0 else cv.n - 1


cdef inline int _next(const Convex* cv, int k) noexcept nogil:
    return k + 1 if k + 1 < cv.n else 0


cdef inline bint _foot_on_edge(const Convex* e, int k, bint after_turns, const Convex* o,
                               int ko, double* rx, double* ry) noexcept nogil:
    # the foot r (OUT) of o's vertex v = ko on the edge of e at its vertex k that turns
    # towards v (the edge after k if after_turns, else the one before): True when r
    # lies inside that edge, v strictly outside its line, and v - r turning away from
    # both of o's edges at v, which makes (r, v) the nearest pair
    cdef double vx = _x(o, ko)
    cdef double vy = _y(o, ko)
    cdef int i = k if after_turns else _prev(e, k)
    cdef int j = _next(e, k) if after_turns else k
    cdef double x0 = _x(e, i)
    cdef double y0 = _y(e, i)
    cdef double x1 = _x(e, j)
    cdef double y1 = _y(e, j)
    cdef double t = closest_on_segment(vx, vy, x0, y0, x1, y1, rx, ry)
    return (0.0 < t < 1.0
            and (x1 - x0) * (vy - y0) - (y1 - y0) * (vx - x0) < 0.0
            and _turn(o, _prev(o, ko), vx, vy, vx - rx[0], vy - ry[0]) >= 0.0
            and _turn(o, _next(o, ko), vx, vy, vx - rx[0], vy - ry[0]) >= 0.0)


cdef inline bint _pair(double* best, double* out, double d2, double pax, double pay,
                       double pbx, double pby) noexcept nogil:
    # best and out (OUT): a pair and its squared distance; returns True
    best[0] = d2
    out[0] = pax
    out[1] = pay
    out[2] = pbx
    out[3] = pby
    return True


cdef bint _certified(const Convex* a, int ka, const Convex* b, int kb, double* best,
                     double* out) noexcept nogil:
    # Whether the nearest pair of two separated convex shapes is found next to a's
    # vertex ka and b's vertex kb, by the optimality test of two convex sets: p on a and
    # q on b are the nearest pair exactly when d = q - p lies in a's normal cone at p and
    # -d in b's normal cone at q.  At a vertex that cone is the directions that turn
    # away from both of its edges (a zero-length edge of a flat box constrains nothing,
    # as it should); inside an edge it is the edge's outward normal, which the
    # perpendicular from a point outside its line has.  Tried: the two vertices, then,
    # when one edge at one vertex turns towards the other, the other vertex against that
    # edge.  True: best and out (OUT) hold that pair; False: the caller searches.
    cdef double px = _x(a, ka)
    cdef double py = _y(a, ka)
    cdef double qx = _x(b, kb)
    cdef double qy = _y(b, kb)
    cdef double dx = qx - px
    cdef double dy = qy - py
    cdef double rx, ry
    # comparisons false on NaN: a NaN turn certifies nothing
    cdef bint a_prev = _turn(a, _prev(a, ka), px, py, dx, dy) <= 0.0
    cdef bint a_next = _turn(a, _next(a, ka), px, py, dx, dy) <= 0.0
    cdef bint b_prev = _turn(b, _prev(b, kb), qx, qy, dx, dy) >= 0.0
    cdef bint b_next = _turn(b, _next(b, kb), qx, qy, dx, dy) >= 0.0
    if a_prev and a_next and b_prev and b_next:
        return _pair(best, out, dist2(px, py, qx, qy), px, py, qx, qy)
    if a_prev != a_next:
        # q against a's edge that turns towards it
        return (_foot_on_edge(a, ka, a_prev, b, kb, &rx, &ry)
                and _pair(best, out, dist2(qx, qy, rx, ry), rx, ry, qx, qy))
    if a_prev and a_next and b_prev != b_next:
        # p against b's edge that turns towards it
        return (_foot_on_edge(b, kb, b_prev, a, ka, &rx, &ry)
                and _pair(best, out, dist2(px, py, rx, ry), px, py, rx, ry))
    return False


cdef double convex_convex_closest(const Convex* a, const Convex* b, double* out) noexcept nogil:
    cdef double px, py, best, nx, ny, nn, max_a, min_b, v, dist
    cdef int k, ka, kb
    cdef double gap = convex_gap(a, b)
    if gap == 0.0:
        _inside_point(a, b, &px, &py)
        out[0] = px
        out[1] = py
        out[2] = px
        out[3] = py
        return 0.0
    # the direction between the vertex means picks the pair of extreme vertices along
    # it, most often the nearest pair or next to it (_certified tells); otherwise it
    # seeds the best distance, which then rules out vertices lying further behind (an
    # exact filter for any direction)
    nx = _mean(b, False) - _mean(a, False)
    ny = _mean(b, True) - _mean(a, True)
    nn = nx * nx + ny * ny
    ka = 0
    max_a = nx * _x(a, 0) + ny * _y(a, 0)
    for k in range(1, a.n):
        v = nx * _x(a, k) + ny * _y(a, k)
        if v > max_a:
            max_a = v
            ka = k
    kb = 0
    min_b = nx * _x(b, 0) + ny * _y(b, 0)
    for k in range(1, b.n):
        v = nx * _x(b, k) + ny * _y(b, k)
        if v < min_b:
            min_b = v
            kb = k
    if not _certified(a, ka, b, kb, &best, out):
        # the pair of extreme vertices seeds the search of every (vertex, edge) pair
        _pair(&best, out, dist2(_x(a, ka), _y(a, ka), _x(b, kb), _y(b, kb)),
              _x(a, ka), _y(a, ka), _x(b, kb), _y(b, kb))
        best = _vertices_to_edges(a, b, best, out, False, True, nx, ny, nn, min_b, 1.0)
        best = _vertices_to_edges(b, a, best, out, True, True, nx, ny, nn, -max_a, -1.0)
    dist = sqrt(best)
    if dist < gap:
        # the corners rounded closer than the separating axis measured (or their
        # squared distance underflowed): the axis gap keeps the distance positive
        # exactly when the axis test says separated
        dist = gap
    return dist


cdef inline double _interval_gap(double a0, double a1, double b0, double b1,
                                 double* pa, double* pb) noexcept nogil:
    # gap of [a0, a1] and [b0, b1]; pa, pb (OUT) the facing ends, or a shared coordinate
    cdef double m
    if b0 > a1:
        pa[0] = a1
        pb[0] = b0
        return b0 - a1
    if a0 > b1:
        pa[0] = a0
        pb[0] = b1
        return a0 - b1
    m = a0 if a0 > b0 else b0
    pa[0] = m
    pb[0] = m
    return 0.0


cdef double aabb_aabb_closest(double ax0, double ay0, double ax1, double ay1,
                              double bx0, double by0, double bx1, double by1,
                              double* out) noexcept nogil:
    cdef double gx = _interval_gap(ax0, ax1, bx0, bx1, &out[0], &out[2])
    cdef double gy = _interval_gap(ay0, ay1, by0, by1, &out[1], &out[3])
    cdef double dist = sqrt(gx * gx + gy * gy)
    # the larger gap is a lower bound that survives when the squares underflow
    if dist < gx:
        dist = gx
    if dist < gy:
        dist = gy
    return dist


# -------------------------------------------------------------------- round shapes

cdef double round_result(double d2, double ra, double rb, double pax, double pay,
                         double pbx, double pby, double* out) noexcept nogil:
    cdef double dcore = sqrt(d2)
    cdef double sep = dcore - (ra + rb)
    cdef double ux, uy, px, py
    if sep > 0.0:
        ux = (pbx - pax) / dcore
        uy = (pby - pay) / dcore
        out[0] = pax + ux * ra
        out[1] = pay + uy * ra
        out[2] = pbx - ux * rb
        out[3] = pby - uy * rb
        return sep
    if dcore <= ra:
        # b's core point is within a's radius
        out[0] = pbx
        out[1] = pby
        out[2] = pbx
        out[3] = pby
        return sep
    # a's surface point towards b is within b's radius
    ux = (pbx - pax) / dcore
    uy = (pby - pay) / dcore
    px = pax + ux * ra
    py = pay + uy * ra
    out[0] = px
    out[1] = py
    out[2] = px
    out[3] = py
    return sep


cdef double round_round_closest(const Round* a, const Round* b, double* out) noexcept nogil:
    cdef SegClosest r = segment_segment(a.ax, a.ay, a.bx, a.by, b.ax, b.ay, b.bx, b.by,
                                        -1.0)
    return round_result(r.d2, a.r, b.r, r.px, r.py, r.qx, r.qy, out)


cdef bint round_round_collide(const Round* a, const Round* b) noexcept nogil:
    return sqrt(segment_segment_d2(a.ax, a.ay, a.bx, a.by, b.ax, b.ay, b.bx, b.by,
                                   -1.0)) <= a.r + b.r


cdef inline double _round_bound(const Round* a, const Convex* cv) noexcept nogil:
    # pair_bound of a core and a convex shape
    return pair_bound(max(max(cv.reach, max(fabs(a.ax), fabs(a.ay))),
                          max(fabs(a.bx), fabs(a.by))))


cdef bint round_convex_collide(const Round* a, const Convex* cv) noexcept nogil:
    cdef int n = cv.n
    cdef int i, j, k
    cdef SegClosest r
    cdef bint tested = False
    cdef double bound
    if cv.kind == AABB_KIND and a.ax == a.bx and a.ay == a.by:
        # a point core and a box: the clamped nearest point, not a search of the edges
        return circle_aabb_collide(a.ax, a.ay, a.r, cv.box_x[0], cv.box_y[0], cv.box_x[1],
                                   cv.box_y[2])
    if cv.kind == OBB_KIND and a.ax == a.bx and a.ay == a.by:
        k = circle_obb_filter(a.ax, a.ay, a.r, cv.cx, cv.cy, cv.cos, cv.sin, cv.hw, cv.hh,
                              max(cv.reach, max(fabs(a.ax), fabs(a.ay))))
        if k != 2:
            return k == 1
    if point_in_convex(cv, a.ax, a.ay):
        return True
    bound = _round_bound(a, cv)
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if _inner_side(cv, i, j, a, bound):
            continue
        tested = True
        r = segment_segment(a.ax, a.ay, a.bx, a.by, _x(cv, i), _y(cv, i), _x(cv, j), _y(cv, j),
                            bound)
        if sqrt(r.d2) <= a.r:
            return True
    # no edge faces the core (not reached: exact signs would have put its first end
    # inside): the core lies inside
    return not tested


cdef inline bint _inner_side(const Convex* cv, int i, int j, const Round* a,
                             double bound) noexcept nogil:
    # both core ends strictly on the inner side of edge i-j (exact signs; bound:
    # pair_bound of the pair): it cannot hold the nearest point
    cdef double x0 = _x(cv, i)
    cdef double y0 = _y(cv, i)
    cdef double x1 = _x(cv, j)
    cdef double y1 = _y(cv, j)
    cdef double ex = x1 - x0
    cdef double ey = y1 - y0
    return (orient_within(ex * (a.ay - y0) - ey * (a.ax - x0), bound, x0, y0, x1, y1,
                          a.ax, a.ay) > 0
            and orient_within(ex * (a.by - y0) - ey * (a.bx - x0), bound, x0, y0, x1, y1,
                              a.bx, a.by) > 0)


cdef double round_convex_closest(const Round* a, const Convex* cv, double* out) noexcept nogil:
    cdef int n = cv.n
    cdef int i, j
    cdef SegClosest r
    cdef double best = INFINITY
    cdef double pax = 0.0, pay = 0.0, pbx = 0.0, pby = 0.0
    cdef double bound = _round_bound(a, cv)
    cdef bint tested = False
    if point_in_convex(cv, a.ax, a.ay):
        # the core's first end is inside: a point inside both
        out[0] = a.ax
        out[1] = a.ay
        out[2] = a.ax
        out[3] = a.ay
        return -a.r
    if cv.kind == AABB_KIND and a.ax == a.bx and a.ay == a.by:
        # a point core and a box: the clamped nearest point
        best = point_box(a.ax, a.ay, cv.box_x[0], cv.box_y[0], cv.box_x[1], cv.box_y[2],
                         &i, &pbx, &pby)
        return round_result(best, a.r, 0.0, a.ax, a.ay, pbx, pby, out)
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if _inner_side(cv, i, j, a, bound):
            continue
        tested = True
        r = segment_segment(a.ax, a.ay, a.bx, a.by, _x(cv, i), _y(cv, i), _x(cv, j), _y(cv, j),
                            bound)
        if r.d2 < best:
            best = r.d2
            pax = r.px
            pay = r.py
            pbx = r.qx
            pby = r.qy
            if r.d2 == 0.0:
                # the core crosses this edge
                break
    if not tested:
        # no edge faces the core (not reached, as in round_convex_collide): inside
        out[0] = a.ax
        out[1] = a.ay
        out[2] = a.ax
        out[3] = a.ay
        return -a.r
    # best is inf only where the squared distances overflow: apart, at inf (as contact
    # and the round pairs have it)
    return round_result(best, a.r, 0.0, pax, pay, pbx, pby, out)


cdef bint edge_apart_exact(double x0, double y0, double x1, double y1, const double* xs,
                           const double* ys, double ox, double oy, int m) noexcept nogil:
    # edge_apart's points one by one, each by its exact sign
    cdef double ex = x1 - x0
    cdef double ey = y1 - y0
    cdef double x, y
    cdef int k
    for k in range(m):
        x = xs[k] - ox
        y = ys[k] - oy
        if orient_decide(ex * (y - y0), ey * (x - x0), x0, y0, x1, y1, x, y) >= 0:
            return False
    return True
