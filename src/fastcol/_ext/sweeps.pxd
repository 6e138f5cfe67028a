# Ray kernels shared by raycast and time_of_impact (compiled twin of
# fastcol._ref.sweeps).  Each returns MISS, HIT or INSIDE; on HIT, out[0:3] =
# (t, nx, ny) in local coordinates (the round ones: with normal; without, t alone).
# The circle's and the box's kernels are defined here, inline, so that the buffer
# API's row loops (batch.pyx) run them without a call per row.

from libc.math cimport INFINITY, fabs, frexp, ldexp, sqrt
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from .geometry cimport dist2
from .predicates cimport ray_bound, side_sign, side_within

from .narrowphase cimport Convex

cdef enum:
    MISS = 0
    HIT = 1
    INSIDE = 2

cdef int ray_round(double px, double py, double dx, double dy, double ax, double ay,
                   double bx, double by, double r, bint ends, double* out,
                   bint normal) noexcept nogil
cdef int ray_convex(double px, double py, double dx, double dy, const Convex* cv,
                    double* out) noexcept nogil
cdef int ray_rounded_convex(double px, double py, double dx, double dy, const Convex* cv,
                            double r, bint ends, double* out, bint normal) noexcept nogil

from .queries cimport View

cdef bint raycast_view(const View* v, double px, double py, double dx, double dy,
                       double limit, double* out) noexcept nogil
cdef double toi_views(const View* a, double vax, double vay, const View* b, double vbx,
                      double vby, double limit) noexcept nogil
cdef bint cast_views(const View* a, double vax, double vay, const View* b, double vbx,
                     double vby, double limit, double* out) noexcept nogil


# box faces in the order of the vertex ring
cdef enum:
    BOTTOM = 0
    RIGHT = 1
    TOP = 2
    LEFT = 3



cdef inline bint _circle_t(double px, double py, double dx, double dy, double cx,
                           double cy, double r, double L, double* t) noexcept nogil:
    # the near entry t (OUT) of a ray from outside into the circle (c, r), given
    # L = sqrt(dx * dx + dy * dy); ray_circle adds the normal
    cdef double mx = px - cx
    cdef double my = py - cy
    cdef double b = mx * dx + my * dy
    cdef double h, rl, s, c0
    if r == 0.0:
        # a point: hit exactly when it lies on the ray's line, ahead (exact signs),
        # where p + t d is the point: t = -(m . d) / |d|^2
        if (side_sign(px, py, dx, dy, cx, cy) != 0
                or side_sign(cx, cy, dy, 0.0 - dx, px, py) >= 0):
            return False
        t[0] = (0.0 - b) / (dx * dx + dy * dy)
        return True
    if b >= 0.0:
        # heading away (or sideways) from a circle the origin lies outside of
        return False
    # |d| times the centre's distance from the ray's line, against |d| times r: the
    # half chord times |d| then needs no division (one less in the chain to t)
    h = fabs(mx * dy - my * dx)
    rl = r * L
    if h > rl:
        return False
    s = sqrt((rl - h) * (rl + h))
    c0 = mx * mx + my * my - r * r
    if c0 < 0.0:
        # the caller found the origin outside, the squares round it inside: t = 0
        c0 = 0.0
    # the near root as a quotient of positive terms: no cancellation
    t[0] = c0 / (s - b)
    return True


cdef inline bint ray_circle(double px, double py, double dx, double dy, double cx,
                            double cy, double r, double* out,
                            bint normal) noexcept nogil:
    # a ray from outside against the circle (c, r); out (OUT) = (t, nx, ny) on a hit,
    # without normal only t (time_of_impact reads t alone: a square root and two
    # divisions less)
    cdef double mx = px - cx
    cdef double my = py - cy
    cdef double L, t, hx, hy, hl
    if r > 0.0 and mx * dx + my * dy >= 0.0:
        # heading away (or sideways): _circle_t's first test, before |d|'s square root
        return False
    L = sqrt(dx * dx + dy * dy)
    if not _circle_t(px, py, dx, dy, cx, cy, r, L, &t):
        return False
    out[0] = t
    if not normal:
        return True
    hx = mx + t * dx
    hy = my + t * dy
    hl = sqrt(hx * hx + hy * hy)
    if r > 0.0 and hl > 0.0:
        out[1] = hx / hl
        out[2] = hy / hl
    else:
        # a point has no surface normal: the end-on rule
        out[1] = 0.0 - dx / L
        out[2] = 0.0 - dy / L
    return True


cdef inline int ray_disc(double px, double py, double dx, double dy, double cx,
                         double cy, double r, double* out, bint normal) noexcept nogil:
    # the circle (c, r): ray_round of a core of zero length at c with its ends,
    # operation for operation, less the steps a zero-length core skips
    if r == 0.0:
        # a point: on it exactly, as ray_round's sign tests
        if px == cx and py == cy:
            return INSIDE
    elif sqrt(dist2(px, py, cx, cy)) <= r:
        # ray_round's closest point of a zero-length core is its end a, here c
        return INSIDE
    return HIT if ray_circle(px, py, dx, dy, cx, cy, r, out, normal) else MISS



cdef inline int _corner_side(double pu, double pv, double du, double dv, double u,
                             double v, double bound) noexcept nogil:
    # side_sign of the corner (u, v) against the ray, its rounded value first
    return side_within(du * (v - pv) - dv * (u - pu), bound, pu, pv, du, dv, u, v)


cdef inline int slab_quick(double pu, double pv, double du, double dv, double u0,
                           double v0, double u1, double v1) noexcept nogil:
    # ray_box's answers that take comparisons only: INSIDE, MISS (outside a slab and
    # not heading into it), else HIT for "the corner tests decide"; an answer other
    # than HIT is the same before the direction's scaling and after (see the reference)
    if u0 <= pu and pu <= u1 and v0 <= pv and pv <= v1:
        return INSIDE
    # one combined test: over random rays its parts are coin tosses
    if (((pu > u1) & (du >= 0.0)) | ((pu < u0) & (du <= 0.0))
            | ((pv > v1) & (dv >= 0.0)) | ((pv < v0) & (dv <= 0.0))):
        return MISS
    return HIT


cdef inline int slab_entry(double pu, double pv, double du, double dv, double u0,
                           double v0, double u1, double v1, double* t,
                           int* face) noexcept nogil:
    # the box [u0, u1] x [v0, v1], a ray slab_quick left to the corner tests; t, face
    # (OUT): entering t and face on a hit.  The comparisons of times by exact signs
    # (see the reference)
    cdef double uin, uout, vin, vout, lu, lv, bound
    cdef int fu, fv, su, sv, order
    cdef bint on_u
    su = 1 if du > 0.0 else (-1 if du < 0.0 else 0)
    sv = 1 if dv > 0.0 else (-1 if dv < 0.0 else 0)
    # the entering and exiting sides of each slab
    if su > 0:
        uin = u0
        uout = u1
        fu = LEFT
    else:
        uin = u1
        uout = u0
        fu = RIGHT
    if sv > 0:
        vin = v0
        vout = v1
        fv = BOTTOM
    else:
        vin = v1
        vout = v0
        fv = TOP
    if su == 0:
        # inside the u slab, outside the box: the v face, ahead when p lies before it
        if (vin - pv) * sv > 0.0:
            t[0] = (vin - pv) / dv
            face[0] = fv
            return HIT
        return MISS
    if sv == 0:
        if (uin - pu) * su > 0.0:
            t[0] = (uin - pu) / du
            face[0] = fu
            return HIT
        return MISS
    # tu - tv has the sign of -S * su * sv, S the side of the corner (uin, vin)
    bound = ray_bound(du, dv, max(max(max(fabs(pu), fabs(pv)), max(fabs(u0), fabs(u1))),
                                  max(fabs(v0), fabs(v1))))
    order = 0 - _corner_side(pu, pv, du, dv, uin, vin, bound) * su * sv
    if order == 0:
        # through a corner: a face of positive length, then the lower index
        lu = v1 - v0
        lv = u1 - u0
        if (lu > 0.0) != (lv > 0.0):
            on_u = lu > 0.0
        else:
            on_u = fu < fv
    else:
        on_u = order > 0
    if on_u:
        # tu, ahead, and no later than the v slab's exit (the corner (uin, vout))
        if (uin - pu) * su > 0.0 and _corner_side(pu, pv, du, dv, uin, vout, bound) * su * sv >= 0:
            t[0] = (uin - pu) / du
            face[0] = fu
            return HIT
        return MISS
    # tv, ahead, and no later than the u slab's exit (the corner (uout, vin))
    if (vin - pv) * sv > 0.0 and _corner_side(pu, pv, du, dv, uout, vin, bound) * su * sv <= 0:
        t[0] = (vin - pv) / dv
        face[0] = fv
        return HIT
    return MISS


cdef inline double _face_length(int face, double u0, double v0, double u1,
                                double v1) noexcept nogil:
    if face == LEFT or face == RIGHT:
        return v1 - v0
    return u1 - u0


cdef inline int ray_box(double px, double py, double dx, double dy, double x0,
                        double y0, double x1, double y1, double* out) noexcept nogil:
    # the box [x0, x1] x [y0, y1]; out (OUT) = (t, nx, ny) on a hit.  Only differences
    # of the coordinates enter: every exact shift (the local frame, or none) gives
    # this answer
    cdef int st = slab_quick(px, py, dx, dy, x0, y0, x1, y1)
    if st != HIT:
        return st
    return box_entry(px, py, dx, dy, x0, y0, x1, y1, out)


cdef inline int box_entry(double px, double py, double dx, double dy, double x0,
                          double y0, double x1, double y1, double* out) noexcept nogil:
    # ray_box of a ray slab_quick left to the corner tests
    cdef int face
    return box_face_entry(px, py, dx, dy, x0, y0, x1, y1, out, &face)


cdef inline int box_face_entry(double px, double py, double dx, double dy, double x0,
                               double y0, double x1, double y1, double* out,
                               int* face_out) noexcept nogil:
    # box_entry with the face entered (face_out, OUT, on a hit: its side in ring order)
    cdef double L, t
    cdef int face
    cdef int st = slab_entry(px, py, dx, dy, x0, y0, x1, y1, &t, &face)
    if st != HIT:
        return st
    face_out[0] = face
    out[0] = t
    if _face_length(face, x0, y0, x1, y1) == 0.0:
        L = sqrt(dx * dx + dy * dy)
        out[1] = 0.0 - dx / L
        out[2] = 0.0 - dy / L
    elif face == BOTTOM:
        out[1] = 0.0
        out[2] = -1.0
    elif face == RIGHT:
        out[1] = 1.0
        out[2] = 0.0
    elif face == TOP:
        out[1] = 0.0
        out[2] = 1.0
    else:
        out[1] = -1.0
        out[2] = 0.0
    return HIT



cdef inline double _ldexp(double x, int k) noexcept nogil:
    # ldexp(x, k), the same double: a multiplication by a normal power of two is exact,
    # or correctly rounded once where it under- or overflows, as ldexp is (and a libm
    # call costs more than the ray itself)
    cdef uint64_t bits
    cdef double p
    if -1022 <= k <= 1023:
        bits = <uint64_t>(k + 1023) << 52
        memcpy(&p, &bits, sizeof(double))
        return x * p
    return ldexp(x, k)


cdef inline int _scaled(double dx, double dy, double* sx, double* sy) noexcept nogil:
    # sx, sy (OUT): the direction times 2**-e exactly, larger component in [0.5, 1)
    # where the smaller one allows (see the reference); returns e
    cdef double m = fabs(dx) if fabs(dx) > fabs(dy) else fabs(dy)
    cdef double small = fabs(dx) if fabs(dx) <= fabs(dy) else fabs(dy)
    cdef uint64_t bits
    cdef int e
    memcpy(&bits, &m, sizeof(double))
    e = <int>((bits >> 52) & 0x7ff)
    if e == 0 or e == 0x7ff:
        # subnormal (or not finite): let frexp find the exponent
        frexp(m, &e)
    else:
        # frexp's exponent of a normal double, read from its bits
        e = e - 1022
    # the smaller component (not zero) stays normal, so exact: scaled down no further
    # than its biased exponent less one, unless the larger one would then pass 2**52
    if small == 0.0:
        small = m
    memcpy(&bits, &small, sizeof(double))
    e = max(min(e, <int>(bits >> 52) - 1), e - 52)
    sx[0] = _ldexp(dx, -e)
    sy[0] = _ldexp(dy, -e)
    return e



cdef inline bint _ray_hit(int st, const double* hit, int e, double px, double py,
                          double dx, double dy, double limit, double* out) noexcept nogil:
    # out (OUT): raycast_view's answer from a ray kernel's (status, and hit = (t, nx,
    # ny) for the direction scaled by 2**-e)
    cdef double t
    if st == INSIDE:
        out[0] = 0.0
        out[1] = px
        out[2] = py
        out[3] = 0.0
        out[4] = 0.0
        return True
    if st == MISS:
        return False
    # + 0.0: a face the origin lies on by rounding gives -0.0; report 0.0
    t = _ldexp(hit[0], -e) + 0.0
    if t > limit or t == INFINITY:
        return False
    out[0] = t
    out[1] = px + t * dx
    out[2] = py + t * dy
    out[3] = hit[1]
    out[4] = hit[2]
    return True


cdef inline bint ray_unframed(bint circle, double px, double py, double dx, double dy,
                              const double* f, double limit, double* out) noexcept nogil:
    # raycast_view's answer for a circle (f = cx, cy, r) or an AABB (f = x0, y0, x1,
    # y1), which need no frame: ray_disc reads the origin only through p - c and
    # exact signs of it, ray_box only differences of coordinates, the same in every
    # exact shift
    cdef double sx, sy
    cdef double hit[3]
    cdef int e, st
    if not circle:
        # ray_box, its comparisons before the scaling: most rays miss a box by them
        st = slab_quick(px, py, dx, dy, f[0], f[1], f[2], f[3])
        if st != HIT:
            return _ray_hit(st, hit, 0, px, py, dx, dy, limit, out)
    e = _scaled(dx, dy, &sx, &sy)
    if circle:
        st = ray_disc(px, py, sx, sy, f[0], f[1], f[2], hit, True)
    else:
        st = box_entry(px, py, sx, sy, f[0], f[1], f[2], f[3], hit)
    return _ray_hit(st, hit, e, px, py, dx, dy, limit, out)


# one shape object or pair (checked by the caller: entries' C entry, the defs)
cdef object raycast_one(object shape, object origin, object direction, object max_t)
cdef object toi_pair(object a, object velocity_a, object b, object velocity_b, object max_t)
cdef object cast_pair(object a, object velocity_a, object b, object velocity_b, object max_t)
