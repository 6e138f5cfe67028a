"""Point queries: ``point_query`` and ``contains`` (compiled twin of fastcol._ref.points).

``contains`` is collide of the shape and a circle of radius 0 at the point, by
collide's kernels; ``point_query`` measures in the local frame of that pair with the
kernels of ``distance``.  The reference explains the method; the two are mirrored
operation for operation.  Kernels write ``out[0:5] = (qx, qy, distance, nx, ny)``.
The row loops (shape arrays, or rows of points) run without the GIL.
"""

from cython cimport floating
from libc.math cimport INFINITY, NAN, fabs, isfinite, sqrt
from libc.stdlib cimport free, malloc

from .batch cimport Buffers, Side, array_side, load_row
from .geometry cimport point_segment
from .narrowphase cimport Convex, Round, box_normal, box_side, point_box, round_convex_closest
from .pool cimport run_rows, slots_for
from .predicates cimport orient_sign, side_sign
from .queries cimport View, collide_views, view_convex, view_core, view_frame, view_of
from .records cimport make_pointquery
from .shapes cimport AABB_KIND, CIRCLE, OBB_KIND, POLYGON, SEGMENT, Shape, is_shape
from .validate cimport point as read_point

import numpy as np

from fastcol import _batch
from fastcol._validate import shape_type_error

# the reference's TINY and APART (the smallest positive float, and its square root)
cdef double TINY = 4.9406564584124654e-324
cdef double APART = 2.2227587494850775e-162
# unit's scaling: below _SMALL (or above _LARGE) the vector is scaled by a power of two
cdef double _SMALL = 2.0 ** -500
cdef double _LARGE = 2.0 ** 500
cdef double _UNDERFLOW_SCALE = 2.0 ** 600
cdef double _UNSCALE = 2.0 ** -600


cdef inline void unit(double vx, double vy, double* nx, double* ny) noexcept nogil:
    # n (OUT): (vx, vy) / |(vx, vy)| for a vector that is not zero (scaled exactly
    # first where its squares would underflow or overflow)
    cdef double m = fabs(vx) if fabs(vx) > fabs(vy) else fabs(vy)
    cdef double length
    if m < _SMALL:
        vx = vx * _UNDERFLOW_SCALE
        vy = vy * _UNDERFLOW_SCALE
    elif m > _LARGE:
        vx = vx * _UNSCALE
        vy = vy * _UNSCALE
    length = sqrt(vx * vx + vy * vy)
    nx[0] = vx / length
    ny[0] = vy / length


cdef inline void _point_view(double px, double py, View* p) noexcept nogil:
    # p (OUT): the circle of radius 0 at the point
    p.kind = CIRCLE
    p.f[0] = px
    p.f[1] = py
    p.f[2] = 0.0


cdef inline bint beside(double t, double px, double py, double ax, double ay, double bx,
                        double by) noexcept nogil:
    # whether the point of segment ab nearest to p lies inside it, not at an end:
    # 0 < t < 1, or an end that t's rounding chose while p lies strictly between the
    # lines through the ends square to ab (exact signs; see the reference)
    cdef double ex = bx - ax
    cdef double ey = by - ay
    if 0.0 < t < 1.0:
        return True
    if ex == 0.0 and ey == 0.0:
        return False
    if t == 0.0:
        return side_sign(ax, ay, ey, 0.0 - ex, px, py) > 0
    return side_sign(bx, by, ey, 0.0 - ex, px, py) < 0


cdef bint contains_point(const View* s, double px, double py) noexcept nogil:
    # whether the point lies inside the shape or on its boundary: collide of the shape
    # and a circle of radius 0 at the point
    cdef View p
    _point_view(px, py, &p)
    return collide_views(s, &p)


cdef inline void _put(double* out, double qx, double qy, double dist, double nx,
                      double ny) noexcept nogil:
    out[0] = qx
    out[1] = qy
    out[2] = dist
    out[3] = nx
    out[4] = ny


cdef void point_circle(double cx, double cy, double r, double px, double py,
                       double* out) noexcept nogil:
    # a circle: the centre's distance less the radius; at the centre the normal (1, 0)
    cdef double mx = px - cx
    cdef double my = py - cy
    cdef double d = sqrt(mx * mx + my * my)
    cdef double nx = 1.0, ny = 0.0
    if not (mx == 0.0 and my == 0.0):
        unit(mx, my, &nx, &ny)
    _put(out, cx + nx * r, cy + ny * r, d - r, nx, ny)


cdef void point_round(double ax, double ay, double bx, double by, double r, double px,
                      double py, double* out) noexcept nogil:
    # a capsule or segment (core ab, radius r; local coordinates): the core's nearest
    # point q, the distance to it less r, the normal from q towards p
    cdef double qx, qy, d2, nx, ny
    cdef double t = point_segment(px, py, ax, ay, bx, by, -1.0, &qx, &qy, &d2)
    cdef double dist = sqrt(d2) - (0.0 + r)
    if d2 == 0.0:
        # on the core exactly: no direction from it; the core's left perpendicular
        # (a point core: (1, 0), as a circle's centre)
        if ax == bx and ay == by:
            nx = 1.0
            ny = 0.0
        else:
            unit(ay - by, bx - ax, &nx, &ny)
    elif beside(t, px, py, ax, ay, bx, by):
        # beside the core: its perpendicular on p's side (exact sign), not p - q,
        # whose direction q's rounding would spoil for a point near the core
        if orient_sign(ax, ay, bx, by, px, py) > 0:
            unit(ay - by, bx - ax, &nx, &ny)
        else:
            unit(by - ay, ax - bx, &nx, &ny)
    else:
        # nearest to an end (q is that end, exactly)
        unit(px - qx, py - qy, &nx, &ny)
    _put(out, qx + nx * r, qy + ny * r, dist, nx, ny)


cdef void point_aabb_inside(double x0, double y0, double x1, double y1, double px,
                            double py, double* out) noexcept nogil:
    # a point inside the box or on it (world coordinates): on a side exactly, the
    # first side in ring order; else the side of least depth, its foot exact
    cdef double d[4]
    cdef int k, j
    if py == y0:
        _put(out, px, py, 0.0, 0.0, -1.0)
        return
    if px == x1:
        _put(out, px, py, 0.0, 1.0, 0.0)
        return
    if py == y1:
        _put(out, px, py, 0.0, 0.0, 1.0)
        return
    if px == x0:
        _put(out, px, py, 0.0, -1.0, 0.0)
        return
    d[0] = py - y0
    d[1] = x1 - px
    d[2] = y1 - py
    d[3] = px - x0
    k = 0
    for j in range(1, 4):
        if d[j] < d[k]:
            k = j
    if k == 0:
        _put(out, px, y0, 0.0 - d[0], 0.0, -1.0)
    elif k == 1:
        _put(out, x1, py, 0.0 - d[1], 1.0, 0.0)
    elif k == 2:
        _put(out, px, y1, 0.0 - d[2], 0.0, 1.0)
    else:
        _put(out, x0, py, 0.0 - d[3], -1.0, 0.0)


cdef void point_aabb_outside(double x0, double y0, double x1, double y1, double px,
                             double py, double* out) noexcept nogil:
    # a point outside the box (local coordinates): point_box's nearest point, as
    # distance's point core and box measure it
    cdef int edge
    cdef double qx, qy, nx, ny
    cdef double d2 = point_box(px, py, x0, y0, x1, y1, &edge, &qx, &qy)
    unit(px - qx, py - qy, &nx, &ny)
    _put(out, qx, qy, sqrt(d2) - (0.0 + 0.0), nx, ny)


cdef inline double _cx(const Convex* cv, int k) noexcept nogil:
    return cv.xs[k] - cv.ox


cdef inline double _cy(const Convex* cv, int k) noexcept nogil:
    return cv.ys[k] - cv.oy


cdef inline int _side(const Convex* cv, int k, double px, double py) noexcept nogil:
    # which side of edge k p lies on (exact): 1 inner, 0 on, -1 outer; 2 for a
    # polygon's edge of zero length, which has no side
    cdef int j = k + 1 if k + 1 < cv.n else 0
    if cv.kind == OBB_KIND:
        return box_side(cv, k, px, py)
    if _cx(cv, k) == _cx(cv, j) and _cy(cv, k) == _cy(cv, j):
        return 2
    return orient_sign(_cx(cv, k), _cy(cv, k), _cx(cv, j), _cy(cv, j), px, py)


cdef inline void _edge_normal(const Convex* cv, int k, double* nx, double* ny) noexcept nogil:
    # n (OUT): the outward unit normal of edge k (of positive length for a polygon)
    cdef int j = k + 1 if k + 1 < cv.n else 0
    cdef double ux, uy
    if cv.kind == OBB_KIND:
        box_normal(cv.cos, cv.sin, k, nx, ny)
        return
    unit(_cx(cv, j) - _cx(cv, k), _cy(cv, j) - _cy(cv, k), &ux, &uy)
    nx[0] = uy
    ny[0] = 0.0 - ux


cdef inline double _edge_depth(const Convex* cv, int k, double px, double py) noexcept nogil:
    # how far inside edge k's line p lies (rounded)
    cdef int j = k + 1 if k + 1 < cv.n else 0
    cdef double dx, dy, u, v, ux, uy
    if cv.kind == OBB_KIND:
        dx = px - cv.cx
        dy = py - cv.cy
        u = dx * cv.cos + dy * cv.sin
        v = dy * cv.cos - dx * cv.sin
        if k == 0:
            return v + cv.hh
        if k == 1:
            return cv.hw - u
        if k == 2:
            return cv.hh - v
        return u + cv.hw
    unit(_cx(cv, j) - _cx(cv, k), _cy(cv, j) - _cy(cv, k), &ux, &uy)
    return ux * (py - _cy(cv, k)) - uy * (px - _cx(cv, k))


cdef void point_convex_inside(const Convex* cv, double px, double py,
                              double* out) noexcept nogil:
    # a point inside an OBB or polygon (or on it; local coordinates): on an edge's line
    # by the exact sign, the first such edge; else the edge of least depth (ties: the
    # first), a depth rounded to 0.0 or below taken as the smallest positive float
    cdef double best = INFINITY
    cdef int kb = -1
    cdef int k, s
    cdef double depth, nx, ny
    for k in range(cv.n):
        s = _side(cv, k, px, py)
        if s == 2:
            continue
        if s <= 0:
            _edge_normal(cv, k, &nx, &ny)
            _put(out, px, py, 0.0, nx, ny)
            return
        depth = _edge_depth(cv, k, px, py)
        if depth < best:
            best = depth
            kb = k
    if kb < 0:
        # a polygon row whose vertices all coincide, the point on them
        _put(out, px, py, 0.0, 1.0, 0.0)
        return
    if not best > 0.0:
        best = TINY
    _edge_normal(cv, kb, &nx, &ny)
    _put(out, px + nx * best, py + ny * best, 0.0 - best, nx, ny)


cdef void point_convex_outside(const Convex* cv, double px, double py,
                               double* out) noexcept nogil:
    # a point outside an OBB or polygon (local coordinates): distance's kernel for a
    # point core, the normal from the nearest point towards p
    cdef Round core
    cdef double pts[4]
    cdef double nx, ny, t, x, y, d2
    cdef double best = INFINITY
    cdef double tb = 0.0, qx = 0.0, qy = 0.0
    cdef int k, j
    cdef int kb = 0
    core.ax = core.bx = px
    core.ay = core.by = py
    core.r = 0.0
    cdef double sep = round_convex_closest(&core, cv, pts)
    # the nearest feature among the edges p lies strictly outside of: inside an
    # edge, its normal; at a vertex, the direction from it (see the reference)
    for k in range(cv.n):
        if _side(cv, k, px, py) < 0:
            j = k + 1 if k + 1 < cv.n else 0
            t = point_segment(px, py, _cx(cv, k), _cy(cv, k), _cx(cv, j), _cy(cv, j), -1.0,
                              &x, &y, &d2)
            if d2 < best:
                best = d2
                kb = k
                tb = t
                qx = x
                qy = y
    j = kb + 1 if kb + 1 < cv.n else 0
    if beside(tb, px, py, _cx(cv, kb), _cy(cv, kb), _cx(cv, j), _cy(cv, j)):
        _edge_normal(cv, kb, &nx, &ny)
    else:
        unit(px - qx, py - qy, &nx, &ny)
    _put(out, qx, qy, sep, nx, ny)


cdef bint query_point(const View* s, double px, double py, double* out) noexcept nogil:
    # returns contains; out (OUT) = (qx, qy, distance, nx, ny) in world coordinates
    cdef bint inside = contains_point(s, px, py)
    cdef int k = s.kind
    cdef double ox, oy, lx, ly
    cdef View p
    cdef Round core
    cdef Convex cv
    if k == CIRCLE:
        point_circle(s.f[0], s.f[1], s.f[2], px, py, out)
    elif k == AABB_KIND and inside:
        point_aabb_inside(s.f[0], s.f[1], s.f[2], s.f[3], px, py, out)
    else:
        # the frame of the pair (point circle, shape): the point circle sorts first
        _point_view(px, py, &p)
        view_frame(&p, s, &ox, &oy)
        lx = px - ox
        ly = py - oy
        if k <= SEGMENT:
            view_core(s, ox, oy, &core)
            point_round(core.ax, core.ay, core.bx, core.by, core.r, lx, ly, out)
        elif k == AABB_KIND:
            point_aabb_outside(s.f[0] - ox, s.f[1] - oy, s.f[2] - ox, s.f[3] - oy, lx, ly,
                               out)
        else:
            view_convex(s, ox, oy, &cv)
            if inside:
                point_convex_inside(&cv, lx, ly, out)
            else:
                point_convex_outside(&cv, lx, ly, out)
        out[0] = out[0] + ox
        out[1] = out[1] + oy
    # the sign follows contains (not reached otherwise: the same kernels decide both)
    if inside and out[2] > 0.0:
        out[2] = 0.0
    elif not inside and not out[2] > 0.0:
        out[2] = APART
    return inside


# ------------------------------------------------------------------ public entry points

def point_query(shape, point):
    """``point_query`` of one shape and one point (``fastcol.point_query`` documents it)."""
    cdef double px, py
    cdef double out[5]
    cdef View v
    if not is_shape(shape):
        raise shape_type_error(shape, "shape")
    read_point(point, "point", &px, &py)
    view_of(<Shape>shape, &v)
    query_point(&v, px, py, out)
    return make_pointquery(out[0], out[1], out[2], out[3], out[4])


def contains(shape, point):
    """``contains`` of one shape and one point."""
    cdef double px, py
    cdef View v
    if not is_shape(shape):
        raise shape_type_error(shape, "shape")
    read_point(point, "point", &px, &py)
    view_of(<Shape>shape, &v)
    return contains_point(&v, px, py)


# -------------------------------------------------------------------------- row loops

cdef struct PointRows:
    # one batch call: the shape side, the points (step 0: one point for every row),
    # the outputs (contains: hit; point_query: point, distance, normal)
    Side s
    const void* rows
    bint f32
    const double* pts
    Py_ssize_t step
    unsigned char* hit
    void* point
    void* dist
    void* normal
    bint failed             # a block found no memory for its polygon scratch


cdef inline bint _load(Side* s, const void* rows, bint f32, Py_ssize_t i) noexcept nogil:
    # the shape of row i into s.view (a fixed shape: always there)
    if s.fixed:
        return True
    if f32:
        return load_row(s, <const float*>rows + i * s.width, i)
    return load_row(s, <const double*>rows + i * s.width, i)


cdef void _query_rows(PointRows* r, Side* s, Py_ssize_t start, Py_ssize_t stop,
                      floating* point, floating* dist, floating* normal) noexcept nogil:
    cdef Py_ssize_t i
    cdef double px, py
    cdef double out[5]
    for i in range(start, stop):
        px = r.pts[i * r.step]
        py = r.pts[i * r.step + 1]
        if isfinite(px) and isfinite(py) and _load(s, r.rows, r.f32, i):
            query_point(&s.view, px, py, out)
        else:
            out[0] = out[1] = out[2] = out[3] = out[4] = NAN
        point[2 * i] = <floating>out[0]
        point[2 * i + 1] = <floating>out[1]
        dist[i] = <floating>out[2]
        normal[2 * i] = <floating>out[3]
        normal[2 * i + 1] = <floating>out[4]


cdef void _rows_block(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    # rows start..stop (a pool block, or the whole call): each block its own copy of
    # the side and its own polygon scratch
    cdef PointRows* r = <PointRows*>ctx
    cdef Side s = r.s
    cdef Py_ssize_t i
    cdef double px, py
    s.xs = s.ys = NULL
    if not s.fixed and s.kind == POLYGON:
        s.xs = <double*>malloc(2 * s.capacity * sizeof(double))
        if s.xs == NULL:
            r.failed = True
            return
        s.ys = s.xs + s.capacity
    if r.hit != NULL:
        for i in range(start, stop):
            px = r.pts[i * r.step]
            py = r.pts[i * r.step + 1]
            r.hit[i] = (isfinite(px) and isfinite(py) and _load(&s, r.rows, r.f32, i)
                        and contains_point(&s.view, px, py))
    elif r.f32:
        _query_rows[float](r, &s, start, stop, <float*>r.point, <float*>r.dist,
                           <float*>r.normal)
    else:
        _query_rows[double](r, &s, start, stop, <double*>r.point, <double*>r.dist,
                            <double*>r.normal)
    free(s.xs)


cdef class _Job(Buffers):
    # one batch call's arrays, held until it ends
    cdef PointRows r


cdef _Job _job(object shape, object dtype, object pts):
    cdef _Job job = _Job.__new__(_Job)
    job.r.f32 = dtype.itemsize == 4
    job.r.hit = NULL
    if is_shape(shape):
        job.r.s.fixed = True
        job.r.s.kind = (<Shape>shape).kind
        job.r.s.counts = NULL
        job.r.s.index = NULL
        job.r.s.width = 0
        job.r.s.capacity = 0
        view_of(<Shape>shape, &job.r.s.view)
        job.r.rows = NULL
    else:
        job.r.rows = array_side(job, &job.r.s, shape, dtype)
    job.r.pts = <const double*>job.address(pts, False)
    job.r.step = 0 if pts.shape[0] == 1 else 2
    return job


cdef void _run(_Job job, Py_ssize_t n, object workers) except *:
    cdef int slots = 1 if workers is 1 else slots_for(_batch.check_workers(workers))
    job.r.failed = False
    run_rows(_rows_block, &job.r, n, 256, slots)
    if job.r.failed:
        raise MemoryError("no memory for the polygon scratch buffers")


def point_query_rows(shape, points, workers):
    """``PointQueryArray`` row by row (see fastcol._ref.points.point_query_rows)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype, pts = _batch.point_query_args(shape, points, Shape)
    res = _batch.pointquery_result(n, dtype)
    cdef _Job job = _job(shape, dtype, pts)
    job.r.point = job.address(res.point, True)
    job.r.dist = job.address(res.distance, True)
    job.r.normal = job.address(res.normal, True)
    _run(job, n, workers)
    return res


def contains_rows(shape, points, out, workers):
    """``bool[N]`` row by row (see fastcol._ref.points.contains_rows)."""
    if workers is not 1:
        _batch.check_workers(workers)
    n, dtype, pts = _batch.point_query_args(shape, points, Shape)
    res = _batch.check_out(out, n, np.dtype(bool))
    cdef _Job job = _job(shape, dtype, pts)
    job.r.hit = <unsigned char*>job.address(res, True)
    _run(job, n, workers)
    return res
