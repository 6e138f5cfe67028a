"""Moving things: raycast, time_of_impact and shape_cast (compiled twin of fastcol._ref.sweeps).

The reference documents the method and the decisions; the two are mirrored operation
for operation, so their float64 results are bit-identical.  Scalar queries keep the
GIL: releasing it would cost more than the work.
"""

from libc.math cimport INFINITY, NAN, fabs, frexp, isinf, ldexp, sqrt
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from .contacts cimport Hit, contact_views
from .geometry cimport (
    SegClosest,
    closest_on_segment,
    dist2,
    on_segment,
    segment_segment,
)
from .narrowphase cimport Convex, Round, box_normal, box_side, point_in_convex
from .predicates cimport (
    exact_origin,
    orient_decide,
    orient_sign,
    orient_within,
    pair_bound,
    ray_bound,
    side_sign,
    side_within,
)
from .queries cimport (
    View,
    _check,
    collide_canonical,
    view_convex,
    view_core,
    view_of,
    view_extent,
    view_frame,
    view_origin,
    views_swapped,
)
from .records cimport make_casthit, make_rayhit
from .shapes cimport AABB_KIND, CIRCLE, OBB_KIND, SEGMENT, Shape, is_shape
from .validate cimport point

from fastcol._validate import as_direction, as_limit, shape_type_error

# the smallest positive float: see time_of_impact in the reference
cdef double TINY = 5e-324


# ---------------------------------------------------------------------- round shapes

# relative tolerance (2**-33, contacts' REL) of a face crossing's place along the core
cdef double REL = 1.0 / 8589934592.0


cdef inline bint _on_face(double px, double py, double dx, double dy, double t, double ax,
                          double ay, double ex, double ey, double ee,
                          double r) noexcept nogil:
    # whether the crossing p + t d of a capsule's side face lies between the core's
    # ends (u = s |e|^2, 0 <= s <= 1), within rounding: for a ray along the face's
    # line (an OBB edge tilted by cos(pi/2), say) the ends' orientations pass while t
    # is noise, and its point can lie far beyond the face (see the reference)
    cdef double ux = px + t * dx - ax
    cdef double uy = py + t * dy - ay
    cdef double u = ux * ex + uy * ey
    cdef double scale, tol
    if 0.0 <= u and u <= ee:
        # well between them (the common case): no tolerance to work out
        return True
    scale = fabs(px - ax) + fabs(py - ay) + fabs(ex) + fabs(ey) + r
    tol = REL * scale * (fabs(ex) + fabs(ey))
    return -tol <= u and u <= ee + tol


cdef inline bint _beyond(double px, double py, double dx, double dy, double cx, double cy,
                        double r, double t, double dd) noexcept nogil:
    # whether the ray p + s d can reach no point of the circle (c, r) before s == t
    # (dd = d.d): the circle lies beyond (c - p).d - r |d| along d, so
    # w = (c - p).d - t |d|^2 >= r |d| (as w >= 0 and w^2 >= r^2 |d|^2, without a
    # square root) puts its entry at t or later
    cdef double w = (cx - px) * dx + (cy - py) * dy - t * dd
    return w >= 0.0 and w * w >= r * r * dd


cdef inline double _on_side(double t, double px, double py, double dx, double dy,
                            double ax, double ay, double bx, double by) noexcept nogil:
    # the crossing's t of the side ab kept between a's and b's projections on the ray
    # (where the exact signs put it) and at least 0.0; NaN (the rounded parts lost
    # the signs) takes the nearer end's (the reference's _on_side)
    cdef double dd = dx * dx + dy * dy
    cdef double ta = ((ax - px) * dx + (ay - py) * dy) / dd
    cdef double tb = ((bx - px) * dx + (by - py) * dy) / dd
    cdef double lo = ta if ta < tb else tb
    cdef double hi = tb if ta < tb else ta
    if not t >= lo:
        t = lo
    elif t > hi:
        t = hi
    return t if t > 0.0 else 0.0


cdef inline bint _segment_face(double px, double py, double dx, double dy, double ax,
                              double ay, double bx, double by, double ex, double ey,
                              double c, double den, double* t, bint* left) noexcept nogil:
    # ray_round's side faces of a segment (r == 0), every decision by exact signs (the
    # reference's _segment_face): True on a crossing, t (OUT) and left (OUT: the face
    # on the left of ab); c and den are the rounded offset and speed
    cdef int g_den = 0 - side_sign(ax, ay, dx, dy, bx, by)
    cdef int g_c = orient_decide(ex * (py - ay), ey * (px - ax), ax, ay, bx, by, px, py)
    if g_den == 0 or g_c * g_den >= 0:
        # along the line, or heading away from it
        return False
    if side_sign(px, py, dx, dy, ax, ay) * side_sign(px, py, dx, dy, bx, by) > 0:
        # both ends on one side of the ray's line
        return False
    t[0] = _on_side((0.0 - c) / den if c * g_c > 0.0 and den * g_den > 0.0 else NAN,
                    px, py, dx, dy, ax, ay, bx, by)
    left[0] = g_c > 0
    return True


cdef int ray_round(double px, double py, double dx, double dy, double ax, double ay,
                   double bx, double by, double r, bint ends, double* out,
                   bint normal) noexcept nogil:
    # the capsule with core ab and radius r: side face, circle at a, circle at b (the
    # circles only with ends: time_of_impact has cast them already, see _sweep); the
    # hit's normal only with normal (else out[1:3] are zeros)
    cdef double qx, qy, ex, ey, ee, le, rl, c, den, k, oa, ob, t
    cdef double best = 0.0
    cdef bint skip = False
    cdef bint left = False
    cdef double nx = 0.0
    cdef double ny = 0.0
    cdef bint found = False
    cdef double cand[3]
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    if ee == 0.0 and ends:
        # a zero-length core: its inside test and one circle, without the steps below
        return ray_disc(px, py, dx, dy, ax, ay, r, out, normal)
    if r == 0.0:
        # a segment or a point: on it by exact signs, not by a rounded distance
        if ee == 0.0:
            if px == ax and py == ay:
                return INSIDE
        elif on_segment(px, py, ax, ay, bx, by, -1.0):
            return INSIDE
    else:
        closest_on_segment(px, py, ax, ay, bx, by, &qx, &qy)
        if sqrt(dist2(px, py, qx, qy)) <= r:
            return INSIDE
    if ee > 0.0:
        le = sqrt(ee)
        rl = r * le
        c = ex * (py - ay) - ey * (px - ax)
        den = ex * dy - ey * dx
        if r == 0.0:
            found = _segment_face(px, py, dx, dy, ax, ay, bx, by, ex, ey, c, den, &best,
                                  &left)
            if found and normal:
                nx = 0.0 - ey / le if left else ey / le
                ny = ex / le if left else 0.0 - ex / le
        elif den < 0.0 and c >= rl:
            # approaching the face on the left of ab
            k = r * (dx * ex + dy * ey) / le
            oa = dx * (ay - py) - dy * (ax - px) + k
            ob = dx * (by - py) - dy * (bx - px) + k
            if (oa <= 0.0 and 0.0 <= ob) or (ob <= 0.0 and 0.0 <= oa):
                t = (rl - c) / den
                if _on_face(px, py, dx, dy, t, ax, ay, ex, ey, ee, r):
                    found = True
                    best = t
                if found and normal:
                    nx = 0.0 - ey / le
                    ny = ex / le
        elif den > 0.0 and c <= -rl:
            # approaching the face on the right of ab
            k = -r * (dx * ex + dy * ey) / le
            oa = dx * (ay - py) - dy * (ax - px) + k
            ob = dx * (by - py) - dy * (bx - px) + k
            if (oa <= 0.0 and 0.0 <= ob) or (ob <= 0.0 and 0.0 <= oa):
                t = (-rl - c) / den
                if _on_face(px, py, dx, dy, t, ax, ay, ex, ey, ee, r):
                    found = True
                    best = t
                if found and normal:
                    nx = ey / le
                    ny = 0.0 - ex / le
    # a side face crossed between its ends is the entry: the capsule lies on the
    # inner side of that face's line, which the ray crosses once.  Else the entry is
    # on an end circle (each lies inside the capsule: its entry comes no earlier)
    if ends and not found:
        if ray_circle(px, py, dx, dy, ax, ay, r, cand, normal):
            found = True
            best = cand[0]
            nx = cand[1]
            ny = cand[2]
        # the circle at b (ee > 0 here), unless the ray meets a's before it can
        # reach b's (then t_b >= t_a)
        if found:
            skip = _beyond(px, py, dx, dy, bx, by, r, best, dx * dx + dy * dy)
        if not skip:
            if (ray_circle(px, py, dx, dy, bx, by, r, cand, normal)
                    and (not found or cand[0] < best)):
                found = True
                best = cand[0]
                nx = cand[1]
                ny = cand[2]
    if not found:
        return MISS
    out[0] = best
    out[1] = nx
    out[2] = ny
    return HIT


# --------------------------------------------------------------------- convex shapes

cdef inline bint _clear_face(double d_in, double gap, double s0, double s1, double h,
                             double tol, double ltol) noexcept nogil:
    # whether the ray surely enters an OBB through one face (box frame): heading in
    # across it (d_in, the direction along the face's inward normal, times the face's
    # length 2 h, beyond tol), from outside its line (gap beyond ltol), its line
    # through the face between the corners (their sides s0, s1 of opposite signs,
    # each beyond tol)
    return (2.0 * h * d_in > tol and gap > ltol
            and ((s0 > tol and s1 < -tol) or (s0 < -tol and s1 > tol)))


cdef inline int _obb_entry(double px, double py, double dx, double dy, const Convex* cv,
                           int* face) noexcept nogil:
    # ray_ring's answer for an OBB where the box's own frame makes it certain: HIT
    # with the face (its t is ray_ring's, from the corners), MISS, or -1 where
    # ray_ring must decide from the corners.  In the frame (u along (cos, sin), v
    # across) every sign ray_ring takes is a product of the quantities below; each
    # differs from its value for the corners as computed by their rounding (3 ulps
    # of |centre| + hw + hh), the axis a hair off unit length and the rounding here,
    # under 2**-46 of |d| size (size: no less than every |coordinate|): tol and ltol,
    # 2**-40 of it, cover that 64 times over.  A face certain to be entered is the
    # only one (the ray meets a convex ring once from outside), and no corner lies on
    # the ray's line.  Boxes of zero width, the origin inside or near the box, and
    # sizes outside 2**-400..2**400 go to the corners
    cdef double hw = cv.hw
    cdef double hh = cv.hh
    cdef double size = max(cv.reach, max(fabs(px), fabs(py)))
    cdef double ltol = 9.094947017729282e-13 * size
    cdef double tol = ltol * (fabs(dx) + fabs(dy))
    cdef double qx = px - cv.cx
    cdef double qy = py - cv.cy
    cdef double pu = qx * cv.cos + qy * cv.sin
    cdef double pv = qy * cv.cos - qx * cv.sin
    cdef double du = dx * cv.cos + dy * cv.sin
    cdef double dv = dy * cv.cos - dx * cv.sin
    cdef double s0, s1, s2, s3
    if not (hw > 0.0 and hh > 0.0 and 3.872591914849318e-121 <= size <= 2.5822498780869086e+120):
        return -1
    # the corners' sides of the ray's line, d x (corner - p), in ring order
    s0 = du * (0.0 - hh - pv) - dv * (0.0 - hw - pu)
    s1 = du * (0.0 - hh - pv) - dv * (hw - pu)
    s2 = du * (hh - pv) - dv * (hw - pu)
    s3 = du * (hh - pv) - dv * (0.0 - hw - pu)
    if ((s0 > tol and s1 > tol and s2 > tol and s3 > tol)
            or (s0 < -tol and s1 < -tol and s2 < -tol and s3 < -tol)):
        # the line passes the box by
        return MISS
    if ((du * (0.0 - hw - pu) + dv * (0.0 - hh - pv) < -tol)
            and (du * (hw - pu) + dv * (0.0 - hh - pv) < -tol)
            and (du * (hw - pu) + dv * (hh - pv) < -tol)
            and (du * (0.0 - hw - pu) + dv * (hh - pv) < -tol)):
        # every corner behind the origin
        return MISS
    # the faces the ray can enter: one across u, one across v
    if du < 0.0 and _clear_face(0.0 - du, pu - hw, s1, s2, hh, tol, ltol):
        face[0] = 1     # right
        return HIT
    if du > 0.0 and _clear_face(du, 0.0 - pu - hw, s3, s0, hh, tol, ltol):
        face[0] = 3     # left
        return HIT
    if dv > 0.0 and _clear_face(dv, 0.0 - pv - hh, s0, s1, hw, tol, ltol):
        face[0] = 0     # bottom
        return HIT
    if dv < 0.0 and _clear_face(0.0 - dv, pv - hh, s2, s3, hw, tol, ltol):
        face[0] = 2     # top
        return HIT
    return -1


cdef int ray_ring(double px, double py, double dx, double dy, const Convex* cv,
                  double* t, int* face, bint outside) noexcept nogil:
    # an OBB or Polygon: the side the ray enters through, by exact signs; t, face
    # (OUT) on a hit (see the reference's ray_ring); outside: the caller knows the
    # origin lies outside (a vertex of a shape apart from this one), so INSIDE cannot
    # be the answer and its test is skipped
    cdef int n = cv.n
    cdef bint box = cv.kind == OBB_KIND
    cdef int i, j, si, sj, s0, inner, st
    cdef int point_face = -1
    cdef double xi, yi, xj, yj, x0, y0, ex, ey, num, den, nx, ny, size, obound, sbound
    if box:
        st = _obb_entry(px, py, dx, dy, cv, &i)
        if st == MISS:
            return MISS
        if st == HIT:
            # the face's crossing, as the search below takes it
            j = i + 1 if i + 1 < n else 0
            xi = cv.xs[i] - cv.ox
            yi = cv.ys[i] - cv.oy
            xj = cv.xs[j] - cv.ox
            yj = cv.ys[j] - cv.oy
            ex = xj - xi
            ey = yj - yi
            num = ex * (py - yi) - ey * (px - xi)
            den = ex * dy - ey * dx
            face[0] = i
            t[0] = _on_side(-num / den if num < 0.0 and den > 0.0 else NAN, px, py, dx,
                            dy, xi, yi, xj, yj)
            return HIT
    if not outside and point_in_convex(cv, px, py):
        return INSIDE
    # the bounds within which the exact predicates decide (every coordinate here is
    # at most size in magnitude)
    size = max(cv.reach, max(fabs(px), fabs(py)))
    obound = pair_bound(size)
    sbound = ray_bound(dx, dy, size)
    x0 = cv.xs[0] - cv.ox
    y0 = cv.ys[0] - cv.oy
    xi = x0
    yi = y0
    # each corner against the ray's line, made once (edge i ends where i + 1 starts)
    s0 = side_within(dx * (y0 - py) - dy * (x0 - px), sbound, px, py, dx, dy, x0, y0)
    si = s0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if j == 0:
            xj = x0
            yj = y0
            sj = s0
        else:
            xj = cv.xs[j] - cv.ox
            yj = cv.ys[j] - cv.oy
            sj = side_within(dx * (yj - py) - dy * (xj - px), sbound, px, py, dx, dy, xj, yj)
        if xi == xj and yi == yj:
            if box and point_face < 0 and si == 0 and box_side(cv, i, px, py) < 0:
                # a box's side of zero length: through its corner, heading inwards
                # across the side's line (d . n < 0)
                box_normal(cv.cos, cv.sin, i, &nx, &ny)
                if side_sign(0.0, 0.0, ny, 0.0 - nx, dx, dy) < 0:
                    point_face = i
        elif si * sj <= 0:
            ex = xj - xi
            ey = yj - yi
            num = ex * (py - yi) - ey * (px - xi)
            inner = orient_within(num, obound, xi, yi, xj, yj, px, py)
            if inner < 0 and side_within(dx * ey - dy * ex, sbound, xi, yi, dx, dy, xj,
                                         yj) < 0:
                den = ex * dy - ey * dx
                face[0] = i
                t[0] = _on_side(-num / den if num < 0.0 and den > 0.0 else NAN, px, py, dx,
                                dy, xi, yi, xj, yj)
                return HIT
        xi = xj
        yi = yj
        si = sj
    if point_face >= 0:
        xi = cv.xs[point_face] - cv.ox
        yi = cv.ys[point_face] - cv.oy
        t[0] = ((xi - px) * dx + (yi - py) * dy) / (dx * dx + dy * dy)
        face[0] = point_face
        return HIT
    return MISS


cdef int ray_convex(double px, double py, double dx, double dy, const Convex* cv,
                    double* out) noexcept nogil:
    # an AABB, OBB or Polygon; out (OUT) = (t, nx, ny) on a hit
    cdef int face
    return convex_face(px, py, dx, dy, cv, out, &face)


cdef inline int convex_face(double px, double py, double dx, double dy, const Convex* cv,
                            double* out, int* face_out) noexcept nogil:
    # ray_convex with the face entered (face_out, OUT, on a hit: its side index)
    cdef double L, t, ex, ey, le, xi, yi, xj, yj
    cdef int face, st, i, n
    if cv.kind == AABB_KIND:
        st = slab_quick(px, py, dx, dy, cv.xs[0], cv.ys[0], cv.xs[1], cv.ys[2])
        if st != HIT:
            return st
        return box_face_entry(px, py, dx, dy, cv.xs[0], cv.ys[0], cv.xs[1], cv.ys[2], out,
                              face_out)
    st = ray_ring(px, py, dx, dy, cv, &t, &face, False)
    if st != HIT:
        return st
    face_out[0] = face
    out[0] = t
    n = cv.n
    i = face + 1 if face + 1 < n else 0
    xi = cv.xs[face] - cv.ox
    yi = cv.ys[face] - cv.oy
    xj = cv.xs[i] - cv.ox
    yj = cv.ys[i] - cv.oy
    if cv.kind == OBB_KIND:
        if xi == xj and yi == yj:
            # a face of zero length: the end-on normal
            L = sqrt(dx * dx + dy * dy)
            out[1] = 0.0 - dx / L
            out[2] = 0.0 - dy / L
        else:
            box_normal(cv.cos, cv.sin, face, &out[1], &out[2])
        return HIT
    edge_normal(xj - xi, yj - yi, &out[1], &out[2])
    return HIT


cdef inline void edge_normal(double ex, double ey, double* nx, double* ny) noexcept nogil:
    # nx, ny (OUT): the unit normal on the right of the edge e (outward for a
    # counter-clockwise ring)
    cdef double le
    if ex * ex + ey * ey < 2.2250738585072014e-308:
        # an edge so short its squared length underflows: scaled by 2**600 (the
        # reference's UNDERFLOW_SCALE), exactly, the same direction
        ex = ex * 4.149515568880993e+180
        ey = ey * 4.149515568880993e+180
    le = sqrt(ex * ex + ey * ey)
    nx[0] = ey / le
    ny[0] = 0.0 - ex / le


cdef int ray_rounded_convex(double px, double py, double dx, double dy, const Convex* cv,
                            double r, bint ends, double* out, bint normal) noexcept nogil:
    # the convex shape grown by r > 0: the shape and its edges' capsules (their end
    # circles, at the vertices, only with ends; their normals only with normal)
    cdef int st, cst, i, j, n
    cdef double cand[3]
    st = ray_convex(px, py, dx, dy, cv, out)
    if st == INSIDE:
        return st
    n = cv.n
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        cst = ray_round(px, py, dx, dy, cv.xs[i] - cv.ox, cv.ys[i] - cv.oy,
                        cv.xs[j] - cv.ox, cv.ys[j] - cv.oy, r, ends, cand, normal)
        if cst == INSIDE:
            return cst
        if cst == HIT and (st == MISS or cand[0] < out[0]):
            st = HIT
            out[0] = cand[0]
            out[1] = cand[1]
            out[2] = cand[2]
    return st


# ------------------------------------------------------------------------- raycast

cdef inline double _limit(object max_t) except? -1.0:
    cdef double v
    if type(max_t) is float:
        v = <double>max_t
        if v >= 0.0:
            return v
    return as_limit(max_t, "max_t")


cdef bint raycast_view(const View* v, double px, double py, double dx, double dy,
                       double limit, double* out) noexcept nogil:
    # out (OUT): t, point x, y, normal x, y of the first hit of a ray (finite origin,
    # finite non-zero direction, limit >= 0); False when it misses within limit
    cdef double ox, oy, lx, ly, sx, sy
    cdef double hit[3]
    cdef double lo[2]
    cdef double hi[2]
    cdef int e, st
    cdef Round rc
    cdef Convex cv
    if v.kind == AABB_KIND or v.kind == CIRCLE:
        return ray_unframed(v.kind == CIRCLE, px, py, dx, dy, v.f, limit, out)
    e = _scaled(dx, dy, &sx, &sy)
    # the shape's reference point, where subtracting it is exact for the ray's origin
    # too (see queries' view_frame): the ray's sign tests are then exact
    view_origin(v, &ox, &oy)
    view_extent(v, lo, hi)
    ox = exact_origin(ox, min(lo[0], px), max(hi[0], px))
    oy = exact_origin(oy, min(lo[1], py), max(hi[1], py))
    lx = px - ox
    ly = py - oy
    if v.kind <= SEGMENT:
        view_core(v, ox, oy, &rc)
        st = ray_round(lx, ly, sx, sy, rc.ax, rc.ay, rc.bx, rc.by, rc.r, True, hit, True)
    else:
        view_convex(v, ox, oy, &cv)
        st = ray_convex(lx, ly, sx, sy, &cv, hit)
    return _ray_hit(st, hit, e, px, py, dx, dy, limit, out)


cdef object raycast_one(object shape, object origin, object direction, object max_t):
    # raycast of one shape object (checked by the caller) and one ray
    cdef double px, py, dx, dy, limit
    cdef double out[5]
    cdef View v
    point(origin, "origin", &px, &py)
    point(direction, "direction", &dx, &dy)
    if dx == 0.0 and dy == 0.0:
        as_direction(direction, "direction")
    limit = _limit(max_t)
    view_of(<Shape>shape, &v)
    if not raycast_view(&v, px, py, dx, dy, limit, out):
        return None
    return make_rayhit(out[0], out[1], out[2], out[3], out[4])


def raycast(shape, origin, direction, max_t=INFINITY):
    """``raycast`` of one shape and one ray (``fastcol.raycast`` documents it)."""
    if not is_shape(shape):
        raise shape_type_error(shape, "shape")
    return raycast_one(shape, origin, direction, max_t)


# ------------------------------------------------------------------ time of impact

cdef inline int _cast(double qx, double qy, double vx, double vy, bint is_round,
                      const Round* rc, const Convex* cv, double r, bint ends,
                      double* out) noexcept nogil:
    # the vertex ray q + t v against a shape (core rc or convex cv) grown by r, the
    # circles at its core ends or vertices only with ends; t alone (no normals)
    if is_round:
        return ray_round(qx, qy, vx, vy, rc.ax, rc.ay, rc.bx, rc.by, r, ends, out, False)
    cdef int face
    if r > 0.0:
        return ray_rounded_convex(qx, qy, vx, vy, cv, r, ends, out, False)
    if cv.kind == AABB_KIND:
        return ray_convex(qx, qy, vx, vy, cv, out)
    # q is a vertex of a shape apart from cv (the caller's pair does not collide)
    return ray_ring(qx, qy, vx, vy, cv, out, &face, True)


cdef struct Win:
    # the vertex whose ray gave a sweep's least t first: side 1 for b's (along +v,
    # against a), -1 for a's (along -v, against b); shape_cast's feature
    double qx, qy
    int side


cdef struct Sweep:
    # a sweep's hit after 0.0, as shape_cast places it: the canonical pair p, q
    # (swapped: q is the caller's a), their frame, the scaled relative velocity s, q's
    # velocity w and p's u, and the vertex that hit first
    const View* p
    const View* q
    bint swapped
    double ox, oy, sx, sy, wx, wy, ux, uy
    Win win


cdef inline double _keep(double best, int st, double t, double qx, double qy, int side,
                         Win* w) noexcept nogil:
    if st == INSIDE:
        t = 0.0
    if st != MISS and t < best:
        w.qx = qx
        w.qy = qy
        w.side = side
        return t
    return best


cdef double _sweep(const View* a, const View* b, double ox, double oy, double vx,
                   double vy, Win* w) noexcept nogil:
    # least t at which a canonical, apart pair meets (b moving by v relative to a);
    # w (OUT) the vertex that gave it
    cdef Round ra, rb
    cdef Convex ca, cb
    cdef bint a_round = a.kind <= SEGMENT
    cdef bint b_round = b.kind <= SEGMENT
    cdef double r_a = 0.0
    cdef double r_b = 0.0
    cdef double r, best, qx, qy
    cdef double out[3]
    cdef int k, st
    if a_round:
        view_core(a, ox, oy, &ra)
        r_a = ra.r
    else:
        view_convex(a, ox, oy, &ca)
    if b_round:
        view_core(b, ox, oy, &rb)
        r_b = rb.r
    else:
        view_convex(b, ox, oy, &cb)
    r = r_a + r_b
    best = INFINITY
    # a miss leaves out untouched: _keep reads out[0] only after a hit
    out[0] = 0.0
    if b.kind == CIRCLE:
        # two circles (a sorts first), the commonest pair: b's centre against the
        # circle of radius r at a's centre, as the cast below makes it, without its
        # inside test.  That test is collide's own for two circles (the same
        # differences, squares and sum of radii; for r == 0, the same point), which
        # the caller found False; a's centre against b's adds nothing (see below)
        if _circle_t(rb.ax, rb.ay, vx, vy, ra.ax, ra.ay, r, sqrt(vx * vx + vy * vy), out):
            return _keep(best, HIT, out[0], rb.ax, rb.ay, 1, w)
        return best
    # the vertices of b travel along +v towards a
    if b_round:
        st = _cast(rb.ax, rb.ay, vx, vy, a_round, &ra, &ca, r, True, out)
        best = _keep(best, st, out[0], rb.ax, rb.ay, 1, w)
        if not (rb.ax == rb.bx and rb.ay == rb.by):
            st = _cast(rb.bx, rb.by, vx, vy, a_round, &ra, &ca, r, True, out)
            best = _keep(best, st, out[0], rb.bx, rb.by, 1, w)
    else:
        for k in range(cb.n):
            qx = cb.xs[k] - cb.ox
            qy = cb.ys[k] - cb.oy
            st = _cast(qx, qy, vx, vy, a_round, &ra, &ca, r, True, out)
            best = _keep(best, st, out[0], qx, qy, 1, w)
    # the vertices of a travel along -v towards b, which needs no circles at b's
    # vertices: a's vertex q against the circle at b's vertex w is, negated exactly,
    # w against the circle at q, which the loop above cast (the same t, to the bit)
    if (a_round and b_round and ra.ax == ra.bx and ra.ay == ra.by
            and rb.ax == rb.bx and rb.ay == rb.by):
        # two point cores (zero-length capsules and segments; circles returned above):
        # a's centre against b's point without its circle can only report inside, by
        # the very test the cast above made of b's centre against a's point (dist2 is
        # symmetric to the bit: the differences are exact negations), so this cast
        # adds nothing
        return best
    if a_round:
        st = _cast(ra.ax, ra.ay, -vx, -vy, b_round, &rb, &cb, r, False, out)
        best = _keep(best, st, out[0], ra.ax, ra.ay, -1, w)
        if not (ra.ax == ra.bx and ra.ay == ra.by):
            st = _cast(ra.bx, ra.by, -vx, -vy, b_round, &rb, &cb, r, False, out)
            best = _keep(best, st, out[0], ra.bx, ra.by, -1, w)
    else:
        for k in range(ca.n):
            qx = ca.xs[k] - ca.ox
            qy = ca.ys[k] - ca.oy
            st = _cast(qx, qy, -vx, -vy, b_round, &rb, &cb, r, False, out)
            best = _keep(best, st, out[0], qx, qy, -1, w)
    return best


# Two round shapes (not two circles), the commonest sweeps after two circles: the
# vertex rays of _sweep with what they share worked out once.  Each step below is
# ray_round's (normal=False) or ray_circle's, operation for operation, so every t is
# the same to the bit; only the order of independent work changes.

cdef struct Core:
    # a core ab, with what each ray along one direction d against it (grown by r)
    # shares: e = b - a, |e|^2, |e|, r |e| and e x d, rounded and its exact sign (le,
    # rl, den, gden only when ee > 0)
    double ax, ay, bx, by, ex, ey, ee, le, rl, den
    int gden


cdef inline void _core_along(const Round* c, double r, double dx, double dy,
                             Core* out) noexcept nogil:
    out.ax = c.ax
    out.ay = c.ay
    out.bx = c.bx
    out.by = c.by
    out.ex = c.bx - c.ax
    out.ey = c.by - c.ay
    out.ee = out.ex * out.ex + out.ey * out.ey
    if out.ee > 0.0:
        out.le = sqrt(out.ee)
        out.rl = r * out.le
        out.den = out.ex * dy - out.ey * dx
        out.gden = 0 - side_sign(c.ax, c.ay, dx, dy, c.bx, c.by)


cdef inline bint _on_core(double px, double py, const Core* c) noexcept nogil:
    # p on the core c (ee > 0) by exact signs (geometry's on_segment)
    return on_segment(px, py, c.ax, c.ay, c.bx, c.by, -1.0)


cdef inline int _face_ray(double px, double py, double dx, double dy, const Core* c,
                          double r, bint outside, double best, double* t) noexcept nogil:
    # ray_round(p, d, c, r, ends=False, normal=False) with c's shared values (its
    # inside tests, then the side face); t (OUT) on a hit.  With outside the caller
    # has found p outside the core by the very test ray_round would make (collide's,
    # for r > 0, see _sweep_round; _sweep_cores's own, for r == 0), which is then
    # left out.  A face crossing no earlier
    # than best (the sweep's least t so far) cannot change the sweep's answer, and is
    # a miss without its end tests (its t is ray_round's, worked out first)
    cdef double qx, qy, cr, k, oa, ob, tc, rs, rls
    cdef bint left
    if not outside:
        if r > 0.0:
            closest_on_segment(px, py, c.ax, c.ay, c.bx, c.by, &qx, &qy)
            if sqrt(dist2(px, py, qx, qy)) <= r:
                return INSIDE
        elif c.ee == 0.0:
            if px == c.ax and py == c.ay:
                return INSIDE
        elif _on_core(px, py, c):
            return INSIDE
    if c.ee > 0.0:
        cr = c.ex * (py - c.ay) - c.ey * (px - c.ax)
        if r == 0.0:
            # a segment: every decision by exact signs
            if _segment_face(px, py, dx, dy, c.ax, c.ay, c.bx, c.by, c.ex, c.ey, cr, c.den,
                             &tc, &left) and tc < best:
                t[0] = tc
                return HIT
            return MISS
        # the face on p's side, if p approaches it from outside: on the left of the
        # core (normal (-ey, ex) / |e|) or on its right.  ray_round writes the two
        # sides out; here they share one body through the sign of r (exact)
        if c.den < 0.0 and cr >= c.rl:
            rs = r
            rls = c.rl
        elif c.den > 0.0 and cr <= -c.rl:
            rs = -r
            rls = -c.rl
        else:
            return MISS
        tc = (rls - cr) / c.den
        if tc >= best:
            return MISS
        k = rs * (dx * c.ex + dy * c.ey) / c.le
        oa = dx * (c.ay - py) - dy * (c.ax - px) + k
        ob = dx * (c.by - py) - dy * (c.bx - px) + k
        if ((oa <= 0.0 and 0.0 <= ob) or (ob <= 0.0 and 0.0 <= oa)) and _on_face(
                px, py, dx, dy, tc, c.ax, c.ay, c.ex, c.ey, c.ee, r):
            t[0] = tc
            return HIT
    return MISS


cdef inline int _end_circles(double px, double py, double dx, double dy, const Core* c,
                             double r, double L, double dd, double* t) noexcept nogil:
    # ray_round's end circles (the reference's _end_circles) with c's shared values,
    # L = |d| and dd = d.d; t (OUT) on a hit
    cdef double tc
    cdef double best = 0.0
    cdef bint found = False
    cdef bint skip = False
    if _circle_t(px, py, dx, dy, c.ax, c.ay, r, L, &tc):
        found = True
        best = tc
        skip = _beyond(px, py, dx, dy, c.bx, c.by, r, best, dd)
    if not skip:
        if _circle_t(px, py, dx, dy, c.bx, c.by, r, L, &tc) and (not found or tc < best):
            found = True
            best = tc
    if not found:
        return MISS
    t[0] = best
    return HIT


cdef inline int _end_ray(double px, double py, double dx, double dy, const Core* c,
                         double r, double L, double dd, bint outside,
                         double* t) noexcept nogil:
    # ray_round(p, d, c, r, ends=True, normal=False) with c's shared values, L = |d|
    # and dd = d.d: _face_ray, then the end circles; t (OUT) on a hit
    cdef int st
    if c.ee == 0.0:
        # ray_disc
        if r == 0.0:
            if px == c.ax and py == c.ay:
                return INSIDE
        elif sqrt(dist2(px, py, c.ax, c.ay)) <= r:
            return INSIDE
        return HIT if _circle_t(px, py, dx, dy, c.ax, c.ay, r, L, t) else MISS
    st = _face_ray(px, py, dx, dy, c, r, outside, INFINITY, t)
    if st != MISS:
        return st
    return _end_circles(px, py, dx, dy, c, r, L, dd, t)


cdef inline int _near_ends(const Core* c, double p0x, double p0y, double p1x,
                           double p1y) noexcept nogil:
    # the reference's _near_ends against the core c (ee > 0, den its e x d): bit 1
    # for p0, bit 2 for p1, 0 for neither
    cdef double c0, c1, tol
    if c.gden == 0:
        # d runs along the core's line (exact sign)
        return 0
    c0 = c.ex * (p0y - c.ay) - c.ey * (p0x - c.ax)
    c1 = c.ex * (p1y - c.ay) - c.ey * (p1x - c.ax)
    tol = REL * (fabs(c.ex * (p0y - c.ay)) + fabs(c.ey * (p0x - c.ax))
                 + fabs(c.ex * (p1y - c.ay)) + fabs(c.ey * (p1x - c.ax)))
    if fabs(c0 - c1) <= tol:
        return 3
    # approaching the left face (den < 0) the smaller offset is nearer, else the larger
    if (c0 < c1) == (c.gden < 0):
        return 1
    return 2


cdef inline double _corners(double px, double py, double qx, double qy, double mx,
                           double my, double fx, double fy, double vx, double vy, double r,
                           double L, double dd, Win* w) noexcept nogil:
    # the reference's corner step with one nearer end on each side: p, q b's nearer
    # and farther ends, m, f a's; the least t of the corners (p, m), (p, f), (q, m)
    cdef double best = INFINITY
    cdef double t = 0.0
    if _circle_t(px, py, vx, vy, mx, my, r, L, &t):
        best = _keep(best, HIT, t, px, py, 1, w)
    if not _beyond(px, py, vx, vy, fx, fy, r, best, dd) and _circle_t(
            px, py, vx, vy, fx, fy, r, L, &t):
        best = _keep(best, HIT, t, px, py, 1, w)
    if not _beyond(qx, qy, vx, vy, mx, my, r, best, dd) and _circle_t(
            qx, qy, vx, vy, mx, my, r, L, &t):
        best = _keep(best, HIT, t, qx, qy, 1, w)
    return best


cdef inline double _sweep_cores(const Round* a, const Round* b, const Core* ca,
                                const Core* cb, double r, double vx, double vy, double L,
                                double dd, Win* w) noexcept nogil:
    # the reference's _sweep_cores (which says why): two cores of positive length, ca
    # a's along +v and cb b's along -v.  The faces are cast as outside: for r > 0
    # collide made the inside tests (see _sweep_round), for r == 0 the step below
    cdef double best = INFINITY
    cdef double t = 0.0
    cdef int near_b, near_a, st
    if r == 0.0:
        # an end on the other segment: touching at once, that end the feature
        if _on_core(b.ax, b.ay, ca):
            return _keep(best, INSIDE, 0.0, b.ax, b.ay, 1, w)
        if _on_core(b.bx, b.by, ca):
            return _keep(best, INSIDE, 0.0, b.bx, b.by, 1, w)
        if _on_core(a.ax, a.ay, cb):
            return _keep(best, INSIDE, 0.0, a.ax, a.ay, -1, w)
        if _on_core(a.bx, a.by, cb):
            return _keep(best, INSIDE, 0.0, a.bx, a.by, -1, w)
    # b's nearer end along +v against a's face
    near_b = _near_ends(ca, b.ax, b.ay, b.bx, b.by)
    if near_b & 1:
        st = _face_ray(b.ax, b.ay, vx, vy, ca, r, True, best, &t)
        best = _keep(best, st, t, b.ax, b.ay, 1, w)
    if near_b & 2:
        st = _face_ray(b.bx, b.by, vx, vy, ca, r, True, best, &t)
        best = _keep(best, st, t, b.bx, b.by, 1, w)
    if best < INFINITY:
        return best
    # a's nearer end along -v against b's face
    near_a = _near_ends(cb, a.ax, a.ay, a.bx, a.by)
    if near_a & 1:
        st = _face_ray(a.ax, a.ay, -vx, -vy, cb, r, True, best, &t)
        best = _keep(best, st, t, a.ax, a.ay, -1, w)
    if near_a & 2:
        st = _face_ray(a.bx, a.by, -vx, -vy, cb, r, True, best, &t)
        best = _keep(best, st, t, a.bx, a.by, -1, w)
    if best < INFINITY:
        return best
    # a corner: one call per choice of nearer ends, so that each passes its ends in
    # registers (one call on selected ends cost Capsule-Capsule 21 instructions more)
    if near_b == 1 and near_a == 1:
        return _corners(b.ax, b.ay, b.bx, b.by, a.ax, a.ay, a.bx, a.by, vx, vy, r, L, dd, w)
    if near_b == 1 and near_a == 2:
        return _corners(b.ax, b.ay, b.bx, b.by, a.bx, a.by, a.ax, a.ay, vx, vy, r, L, dd, w)
    if near_b == 2 and near_a == 1:
        return _corners(b.bx, b.by, b.ax, b.ay, a.ax, a.ay, a.bx, a.by, vx, vy, r, L, dd, w)
    if near_b == 2 and near_a == 2:
        return _corners(b.bx, b.by, b.ax, b.ay, a.bx, a.by, a.ax, a.ay, vx, vy, r, L, dd, w)
    # parallel cores, or v along one: b's ends against the circles at a's ends
    st = _end_circles(b.ax, b.ay, vx, vy, ca, r, L, dd, &t)
    best = _keep(best, st, t, b.ax, b.ay, 1, w)
    st = _end_circles(b.bx, b.by, vx, vy, ca, r, L, dd, &t)
    return _keep(best, st, t, b.bx, b.by, 1, w)


cdef double _sweep_round(const Round* a, const Round* b, double vx, double vy,
                         Win* w) noexcept nogil:
    # _sweep of a canonical, apart pair of round shapes, not two circles.  Apart was
    # decided by segment_segment (collide's test, in toi_views), which measured each
    # end of one core against the other core (of positive length) exactly as
    # ray_round's inside test does: the same closest_on_segment, dist2 (symmetric to
    # the bit) and sqrt(.) <= r.  So with r > 0 those tests are false and are left
    # out.  (Each ray is called from one place, in a loop, and _face_ray is kept small:
    # so the C compiler inlines them, which it did not while either was larger.)  Two
    # cores of positive length take _sweep_cores, as the reference's _sweep does
    cdef double r = a.r + b.r
    cdef double dd = vx * vx + vy * vy
    cdef double L = sqrt(dd)
    cdef double best = INFINITY
    cdef double t = 0.0
    cdef double px, py
    cdef Core c
    cdef int st, k, n
    cdef bint outside
    cdef Core cb
    _core_along(a, r, vx, vy, &c)
    if c.ee > 0.0:
        _core_along(b, r, -vx, -vy, &cb)
        if cb.ee > 0.0:
            return _sweep_cores(a, b, &c, &cb, r, vx, vy, L, dd, w)
    # a point core: the ends of b's core along +v towards a
    outside = r > 0.0 and c.ee > 0.0
    n = 1 if b.ax == b.bx and b.ay == b.by else 2
    for k in range(n):
        px = b.ax if k == 0 else b.bx
        py = b.ay if k == 0 else b.by
        st = _end_ray(px, py, vx, vy, &c, r, L, dd, outside, &t)
        best = _keep(best, st, t, px, py, 1, w)
    if n == 1 and a.ax == a.bx and a.ay == a.by:
        # two point cores (see _sweep)
        return best
    # the ends of a's core along -v towards b, without b's end circles (see _sweep)
    _core_along(b, r, -vx, -vy, &c)
    outside = r > 0.0 and c.ee > 0.0
    n = 1 if a.ax == a.bx and a.ay == a.by else 2
    for k in range(n):
        px = a.ax if k == 0 else a.bx
        py = a.ay if k == 0 else a.by
        st = _face_ray(px, py, -vx, -vy, &c, r, outside, best, &t)
        best = _keep(best, st, t, px, py, -1, w)
    return best


cdef double toi_views(const View* a, double vax, double vay, const View* b, double vbx,
                      double vby, double limit) noexcept nogil:
    # the first time in [0, limit] at which a and b, moving with their (finite)
    # velocities, touch; -1.0 when they never do
    cdef Sweep sw
    return sweep_views(a, vax, vay, b, vbx, vby, limit, &sw)


cdef inline double sweep_views(const View* a, double vax, double vay, const View* b,
                               double vbx, double vby, double limit,
                               Sweep* sw) noexcept nogil:
    # toi_views's time, and in sw (OUT) what shape_cast needs to place a hit after
    # 0.0 (the reference's sweep_views)
    cdef double wx, wy, ux, uy, vx, vy, sx, sy, ox, oy, t
    cdef int shift, e
    cdef bint swapped, round_pair
    cdef Round ra, rb
    cdef SegClosest c
    cdef const View* p
    cdef const View* q
    swapped = views_swapped(a, b)
    p = b if swapped else a
    q = a if swapped else b
    # the very decision of collide: 0.0 exactly when collide is True
    view_frame(p, q, &ox, &oy)
    round_pair = q.kind <= SEGMENT and q.kind != CIRCLE
    if round_pair:
        # two round shapes, not two circles: collide_canonical's own steps
        # (round_round_collide's, inlined), with the cores kept for _sweep_round
        view_core(p, ox, oy, &ra)
        view_core(q, ox, oy, &rb)
        c = segment_segment(ra.ax, ra.ay, ra.bx, ra.by, rb.ax, rb.ay, rb.bx, rb.by, -1.0)
        if sqrt(c.d2) <= ra.r + rb.r:
            return 0.0
    elif collide_canonical(p, q):
        return 0.0
    # b's velocity relative to a, the pair in canonical order (a swap negates it exactly)
    if swapped:
        wx = vax
        wy = vay
        ux = vbx
        uy = vby
    else:
        wx = vbx
        wy = vby
        ux = vax
        uy = vay
    vx = wx - ux
    vy = wy - uy
    shift = 0
    if isinf(vx) or isinf(vy):
        # the difference of two huge velocities overflows: halve both (exact)
        vx = wx * 0.5 - ux * 0.5
        vy = wy * 0.5 - uy * 0.5
        shift = 1
    if vx == 0.0 and vy == 0.0:
        return -1.0
    e = _scaled(vx, vy, &sx, &sy)
    if round_pair:
        t = _sweep_round(&ra, &rb, sx, sy, &sw.win)
    else:
        t = _sweep(p, q, ox, oy, sx, sy, &sw.win)
    if t == INFINITY:
        return -1.0
    t = _ldexp(t, -(e + shift))
    if t == 0.0:
        # apart by collide's verdict: touching at once, but not at 0.0
        t = TINY
    if t > limit or t == INFINITY:
        # beyond max_t, or beyond the float range (a tiny velocity)
        return -1.0
    sw.p = p
    sw.q = q
    sw.swapped = swapped
    sw.ox = ox
    sw.oy = oy
    sw.sx = sx
    sw.sy = sy
    sw.wx = wx
    sw.wy = wy
    sw.ux = ux
    sw.uy = uy
    return t


# ------------------------------------------------------------------- shape casts

cdef inline int _cast_normal(double qx, double qy, double vx, double vy, const View* s,
                             double ox, double oy, double r, bint ends,
                             double* out) noexcept nogil:
    # the vertex ray q + t v against s grown by r, with its normal (the reference's
    # _cast, with every kernel's normal)
    cdef Round rc
    cdef Convex cv
    if s.kind <= SEGMENT:
        view_core(s, ox, oy, &rc)
        return ray_round(qx, qy, vx, vy, rc.ax, rc.ay, rc.bx, rc.by, r, ends, out, True)
    view_convex(s, ox, oy, &cv)
    if r > 0.0:
        return ray_rounded_convex(qx, qy, vx, vy, &cv, r, ends, out, True)
    return ray_convex(qx, qy, vx, vy, &cv, out)


cdef inline double _radius(const View* s, double ox, double oy) noexcept nogil:
    cdef Round rc
    if s.kind <= SEGMENT:
        view_core(s, ox, oy, &rc)
        return rc.r
    return 0.0


# ------------------------------------------------------------ corner meets corner

cdef struct Target:
    # a shape without radius in local coordinates: its core, or its ring (never
    # copied: a box's cv.xs points into cv itself)
    bint is_round
    Round rc
    Convex cv


cdef inline void _target(const View* s, double ox, double oy, Target* out) noexcept nogil:
    out.is_round = s.kind <= SEGMENT
    if out.is_round:
        view_core(s, ox, oy, &out.rc)
    else:
        view_convex(s, ox, oy, &out.cv)


cdef inline int _cast_face(double qx, double qy, double vx, double vy, const View* s,
                           double ox, double oy, bint ends, double* out, int* face,
                           Target* tgt) noexcept nogil:
    # _cast_normal of shapes without radius (r == 0), with the face entered (face,
    # OUT: a convex shape's side index, -1 for a round one); tgt (OUT) the shape hit
    face[0] = -1
    _target(s, ox, oy, tgt)
    if tgt.is_round:
        return ray_round(qx, qy, vx, vy, tgt.rc.ax, tgt.rc.ay, tgt.rc.bx, tgt.rc.by, 0.0,
                         ends, out, True)
    return convex_face(qx, qy, vx, vy, &tgt.cv, out, face)


cdef inline int _face_end(double qx, double qy, double vx, double vy, double t, double xi,
                          double yi, double xj, double yj) noexcept nogil:
    # which end of the side from i to j the ray's hit q + t v lies at: 0 (i), 1 (j),
    # -1 between them, within rounding (the reference's _face_end)
    cdef double ex = xj - xi
    cdef double ey = yj - yi
    cdef double ux = qx + t * vx - xi
    cdef double uy = qy + t * vy - yi
    cdef double u = ux * ex + uy * ey
    cdef double el = fabs(ex) + fabs(ey)
    cdef double tol = REL * (fabs(qx - xi) + fabs(qy - yi) + el) * el
    if u <= tol:
        return 0
    if u >= ex * ex + ey * ey - tol:
        return 1
    return -1


cdef inline int _ring_next(const Convex* cv, int i) noexcept nogil:
    return i + 1 if i + 1 < cv.n else 0


cdef inline bint _zero_side(const Convex* cv, int i) noexcept nogil:
    cdef int j = _ring_next(cv, i)
    return cv.xs[i] - cv.ox == cv.xs[j] - cv.ox and cv.ys[i] - cv.oy == cv.ys[j] - cv.oy


cdef int _hit_vertex(double qx, double qy, double vx, double vy, double t,
                     const Target* s, int face) noexcept nogil:
    # the vertex of s at which the ray q + t v that hit it entered (the reference's
    # _hit_vertex), -1 between two
    cdef int j, end
    if s.is_round:
        if s.rc.ax == s.rc.bx and s.rc.ay == s.rc.by:
            return 0
        return _face_end(qx, qy, vx, vy, t, s.rc.ax, s.rc.ay, s.rc.bx, s.rc.by)
    j = _ring_next(&s.cv, face)
    end = _face_end(qx, qy, vx, vy, t, s.cv.xs[face] - s.cv.ox, s.cv.ys[face] - s.cv.oy,
                    s.cv.xs[j] - s.cv.ox, s.cv.ys[j] - s.cv.oy)
    if end < 0:
        return -1
    return face if end == 0 else j


cdef int _vertex_index(const Target* s, double qx, double qy) noexcept nogil:
    # the index of s's vertex q, which the sweep took from them
    cdef int k
    if s.is_round:
        return 0 if qx == s.rc.ax and qy == s.rc.ay else 1
    for k in range(s.cv.n):
        if s.cv.xs[k] - s.cv.ox == qx and s.cv.ys[k] - s.cv.oy == qy:
            return k
    return 0


cdef void _side_normal(const Convex* cv, int i, double* nx, double* ny) noexcept nogil:
    # the outward unit normal of a convex shape's side i (its kernels' own)
    cdef int j
    if cv.kind == AABB_KIND:
        nx[0] = 0.0 if i == BOTTOM or i == TOP else (1.0 if i == RIGHT else -1.0)
        ny[0] = 0.0 if i == RIGHT or i == LEFT else (1.0 if i == TOP else -1.0)
    elif cv.kind == OBB_KIND:
        box_normal(cv.cos, cv.sin, i, nx, ny)
    else:
        j = _ring_next(cv, i)
        edge_normal(cv.xs[j] - cv.ox - (cv.xs[i] - cv.ox), cv.ys[j] - cv.oy - (cv.ys[i] - cv.oy),
                    nx, ny)


cdef bint _cone(const Target* s, int k, double* c) noexcept nogil:
    # c (OUT) = (n1, n2): the outward normal cone of s at its vertex k, from n1
    # counter-clockwise to n2; False for a point (every direction).  The reference's
    # _cone says which sides bound it
    cdef int i, j, m, n
    if s.is_round:
        if s.rc.ax == s.rc.bx and s.rc.ay == s.rc.by:
            return False
        if k == 0:
            edge_normal(s.rc.ax - s.rc.bx, s.rc.ay - s.rc.by, &c[0], &c[1])
        else:
            edge_normal(s.rc.bx - s.rc.ax, s.rc.by - s.rc.ay, &c[0], &c[1])
        c[2] = 0.0 - c[0]
        c[3] = 0.0 - c[1]
        return True
    n = s.cv.n
    i = k - 1 if k > 0 else n - 1
    m = 0
    while _zero_side(&s.cv, i):
        m += 1
        if m == n:
            return False
        i = i - 1 if i > 0 else n - 1
    j = k
    while _zero_side(&s.cv, j):
        j = _ring_next(&s.cv, j)
    _side_normal(&s.cv, i, &c[0], &c[1])
    _side_normal(&s.cv, j, &c[2], &c[3])
    return True


cdef inline bint _within(double wx, double wy, const double* c) noexcept nogil:
    # whether the direction w lies in the cone c, by rounded signs (the reference's)
    cdef double s1 = c[0] * wy - c[1] * wx
    cdef double s2 = wx * c[3] - wy * c[2]
    if c[0] * c[3] - c[1] * c[2] > 0.0 or c[0] * c[2] + c[1] * c[3] > 0.0:
        return s1 >= 0.0 and s2 >= 0.0
    return s1 >= 0.0 or s2 >= 0.0


cdef void _touching(const double* ca, const double* cb, double* nx,
                    double* ny) noexcept nogil:
    # nx, ny (IN/OUT): cones that meet in one ray, missed by rounding: the direction
    # between the sides that nearly coincide (the reference's _touching)
    cdef double d1 = ca[0] * cb[2] + ca[1] * cb[3]
    cdef double d2 = ca[2] * cb[0] + ca[3] * cb[1]
    cdef double mx, my, L
    if d1 >= d2:
        mx = ca[0] + cb[2]
        my = ca[1] + cb[3]
    else:
        mx = ca[2] + cb[0]
        my = ca[3] + cb[1]
    if not (d1 > 0.5 or d2 > 0.5):
        return
    L = sqrt(mx * mx + my * my)
    nx[0] = mx / L
    ny[0] = my / L


cdef void _corner_normal(const Sweep* sw, double qx, double qy, double t, int face,
                         const Target* hitt, double* nx, double* ny) noexcept nogil:
    # nx, ny (IN/OUT): the face's normal, replaced where two shapes without radius
    # meet corner to corner by the bisector of the Minkowski difference's normal cone
    # there (the reference's _corner_normal, which says why)
    cdef Target other
    cdef double ca[4]
    cdef double cb[4]
    cdef double c[4]
    cdef bint fa, fb
    cdef int k
    cdef double mx, my, L
    if sw.win.side > 0:
        k = _hit_vertex(qx, qy, sw.sx, sw.sy, t, hitt, face)
        if k < 0:
            return
        _target(sw.q, sw.ox, sw.oy, &other)
        fa = _cone(hitt, k, ca)
        fb = _cone(&other, _vertex_index(&other, qx, qy), cb)
    else:
        k = _hit_vertex(qx, qy, 0.0 - sw.sx, 0.0 - sw.sy, t, hitt, face)
        if k < 0:
            return
        _target(sw.p, sw.ox, sw.oy, &other)
        fb = _cone(hitt, k, cb)
        fa = _cone(&other, _vertex_index(&other, qx, qy), ca)
    if fb:
        # b's cone negated
        cb[0] = 0.0 - cb[0]
        cb[1] = 0.0 - cb[1]
        cb[2] = 0.0 - cb[2]
        cb[3] = 0.0 - cb[3]
    if not fa and not fb:
        # two points: the end-on normal stays
        return
    if not fa:
        memcpy(c, cb, 4 * sizeof(double))
    elif not fb:
        memcpy(c, ca, 4 * sizeof(double))
    else:
        # the later start, the earlier end: each the one that lies in the other cone
        if _within(ca[0], ca[1], cb):
            c[0] = ca[0]
            c[1] = ca[1]
        elif _within(cb[0], cb[1], ca):
            c[0] = cb[0]
            c[1] = cb[1]
        else:
            _touching(ca, cb, nx, ny)
            return
        if _within(ca[2], ca[3], cb):
            c[2] = ca[2]
            c[3] = ca[3]
        elif _within(cb[2], cb[3], ca):
            c[2] = cb[2]
            c[3] = cb[3]
        else:
            _touching(ca, cb, nx, ny)
            return
    # the bisector (the reference's _bisector)
    if c[0] * c[2] + c[1] * c[3] >= 0.0:
        mx = c[0] + c[2]
        my = c[1] + c[3]
    else:
        mx = c[3] - c[1]
        my = c[0] - c[2]
    L = sqrt(mx * mx + my * my)
    mx = mx / L
    my = my / L
    if fa and fb and not (_within(mx, my, ca) and _within(mx, my, cb)):
        # two half-planes that meet in two opposite rays (the reference says when):
        # the face's normal stays
        return
    nx[0] = mx
    ny[0] = my


cdef void _cast_hit(double t, const Sweep* sw, double* out) noexcept nogil:
    # out (OUT) = (t, point, normal) of a sweep's hit after 0.0 (the reference's
    # _cast_hit, which says why)
    cdef double ra = _radius(sw.p, sw.ox, sw.oy)
    cdef double rb = _radius(sw.q, sw.ox, sw.oy)
    cdef double r = ra + rb
    cdef double qx = sw.win.qx
    cdef double qy = sw.win.qy
    cdef double nx, ny, L
    cdef double tq = 0.0
    cdef double hit[3]
    cdef int st
    cdef int face = -1
    cdef Round rc
    # the shape the winning ray hit, kept for the corner rule (shapes without radius)
    cdef Target hitt
    if sw.win.side > 0:
        if r == 0.0:
            st = _cast_face(qx, qy, sw.sx, sw.sy, sw.p, sw.ox, sw.oy, True, hit, &face,
                            &hitt)
        else:
            st = _cast_normal(qx, qy, sw.sx, sw.sy, sw.p, sw.ox, sw.oy, r, True, hit)
        tq = hit[0]
        nx = hit[1]
        ny = hit[2]
        if st == HIT and r == 0.0 and sw.p.kind <= SEGMENT:
            view_core(sw.p, sw.ox, sw.oy, &rc)
            if rc.ax == rc.bx and rc.ay == rc.by and _cast_normal(
                    rc.ax, rc.ay, 0.0 - sw.sx, 0.0 - sw.sy, sw.q, sw.ox, sw.oy, r, False,
                    hit) == HIT:
                # b's vertex met a's point end-on: the face of b that point meets
                nx = 0.0 - hit[1]
                ny = 0.0 - hit[2]
    else:
        if r == 0.0:
            st = _cast_face(qx, qy, 0.0 - sw.sx, 0.0 - sw.sy, sw.q, sw.ox, sw.oy, False, hit,
                            &face, &hitt)
        else:
            st = _cast_normal(qx, qy, 0.0 - sw.sx, 0.0 - sw.sy, sw.q, sw.ox, sw.oy, r,
                              False, hit)
        tq = hit[0]
        # the normal of b's surface, towards a: negated, from a towards b
        nx = 0.0 - hit[1]
        ny = 0.0 - hit[2]
    if st != HIT:
        # no surface met (a vertex inside by a rounded test): end-on
        L = sqrt(sw.sx * sw.sx + sw.sy * sw.sy)
        nx = 0.0 - sw.sx / L
        ny = 0.0 - sw.sy / L
    out[0] = t
    if sw.win.side > 0:
        out[1] = sw.ox + qx + sw.wx * t - rb * nx
        out[2] = sw.oy + qy + sw.wy * t - rb * ny
    else:
        out[1] = sw.ox + qx + sw.ux * t + ra * nx
        out[2] = sw.oy + qy + sw.uy * t + ra * ny
    if r == 0.0 and st == HIT:
        # (after the point, which stays the face's to the bit)
        _corner_normal(sw, qx, qy, tq, face, &hitt, &nx, &ny)
    if sw.swapped:
        nx = 0.0 - nx
        ny = 0.0 - ny
    out[3] = nx
    out[4] = ny


cdef bint cast_views(const View* a, double vax, double vay, const View* b, double vbx,
                     double vby, double limit, double* out) noexcept nogil:
    # out (OUT) = (t, point, normal) of shape_cast, False when they never touch: the
    # time of toi_views's own sweep, already colliding as contact places it
    cdef Sweep sw
    cdef Hit h
    cdef double t = sweep_views(a, vax, vay, b, vbx, vby, limit, &sw)
    if t < 0.0:
        return False
    if t > 0.0:
        _cast_hit(t, &sw, out)
        return True
    if not contact_views(a, b, &h):
        return False
    out[0] = 0.0
    out[1] = h.p0x
    out[2] = h.p0y
    if h.count == 2:
        # the midpoint of contact's two points
        out[1] = 0.5 * h.p0x + 0.5 * h.p1x
        out[2] = 0.5 * h.p0y + 0.5 * h.p1y
    out[3] = h.nx
    out[4] = h.ny
    return True


cdef object cast_pair(object a, object velocity_a, object b, object velocity_b,
                      object max_t):
    # shape_cast of two shape objects (checked by the caller)
    cdef double vax, vay, vbx, vby, limit
    cdef double out[5]
    cdef View va, vb
    point(velocity_a, "velocity_a", &vax, &vay)
    point(velocity_b, "velocity_b", &vbx, &vby)
    limit = _limit(max_t)
    view_of(<Shape>a, &va)
    view_of(<Shape>b, &vb)
    if not cast_views(&va, vax, vay, &vb, vbx, vby, limit, out):
        return None
    return make_casthit(out[0], out[1], out[2], out[3], out[4])


def shape_cast(a, velocity_a, b, velocity_b, max_t=1.0):
    """``shape_cast`` of two shapes (``fastcol.shape_cast`` documents it)."""
    _check(a, b)
    return cast_pair(a, velocity_a, b, velocity_b, max_t)


cdef object toi_pair(object a, object velocity_a, object b, object velocity_b, object max_t):
    # time_of_impact of two shape objects (checked by the caller)
    cdef double vax, vay, vbx, vby, limit, t
    cdef View va, vb
    point(velocity_a, "velocity_a", &vax, &vay)
    point(velocity_b, "velocity_b", &vbx, &vby)
    limit = _limit(max_t)
    view_of(<Shape>a, &va)
    view_of(<Shape>b, &vb)
    t = toi_views(&va, vax, vay, &vb, vbx, vby, limit)
    return None if t < 0.0 else t


def time_of_impact(a, velocity_a, b, velocity_b, max_t=1.0):
    """``time_of_impact`` of two shapes (``fastcol.time_of_impact`` documents it)."""
    _check(a, b)
    return toi_pair(a, velocity_a, b, velocity_b, max_t)
