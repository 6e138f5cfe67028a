"""Moving things: ``raycast`` and ``time_of_impact``, and the ray kernels they share.

Ray kernels take a ray ``p + t * d`` in local coordinates (the caller subtracted a
reference point of the shape) and return ``(status, t, nx, ny)``: ``MISS``, ``HIT`` with
the entering parameter ``t >= 0`` and the unit normal of the surface entered, or
``INSIDE`` (the origin lies inside or on the boundary: shapes are closed).  Three
kernels cover every shape:

* ``ray_round``: a core segment ab grown by ``r`` (circle: a == b; segment: r == 0).
  The two end circles (a stable quadratic) and the two side faces.
* ``ray_convex``: AABB (slabs), OBB (slabs in the box frame) and Polygon (the ray
  clipped against each edge's half-plane, Cyrus–Beck).
* ``ray_rounded_convex``: a convex shape grown by ``r``: the least of the ray against
  the shape and against each edge's capsule of radius ``r``.

Callers hand the kernels a direction scaled by a power of two so that its larger
component lies in [0.5, 1): exact, and no square of it can overflow or underflow.

``time_of_impact`` is closed form: two translating convex shapes first touch where a
vertex of one (a core end of a round shape) meets the other grown by the sum of the
radii, so the answer is the least of such vertex rays.  ``shape_cast`` is the same
sweep, and the vertex ray that hit first places the touch (its point and normal); where
two shapes without radius meet corner to corner, the normal is the bisector of the
corners' joint normal cone (``_corner_normal``).  Mirrored operation for operation in
``_ext/sweeps.pyx``.
"""

from __future__ import annotations

import math

from .._validate import as_direction, as_limit, as_point, shape_type_error
from .contacts import contact_views
from .geometry import UNDERFLOW_SCALE, closest_on_segment, dist2, on_segment
from .narrowphase import box_normal, box_side, convex_local, point_in_convex
from .predicates import exact_origin, orient_decide, orient_sign, side_sign
from .queries import _canonical, _check, _core, _extent, _frame, _origin, collide_canonical
from .records import CastHit, RayHit
from .shapes import AABB_KIND, CIRCLE, OBB_KIND, SEGMENT, _Shape

MISS, HIT, INSIDE = 0, 1, 2
# the least normal double
_NORMAL = 2.2250738585072014e-308
_NO_HIT = (MISS, 0.0, 0.0, 0.0)
_INSIDE = (INSIDE, 0.0, 0.0, 0.0)
# the smallest positive float: a sweep that starts touching by one kernel's rounding
# while collide says apart reports contact at once, never 0.0 (see time_of_impact)
TINY = 5e-324


# ---------------------------------------------------------------------- round shapes


def ray_circle(px, py, dx, dy, cx, cy, r):
    """``(hit, t, nx, ny)`` of a ray from outside against the circle (c, r).

    The near root of ``|m + t d|^2 = r^2`` (m = p - c) is computed as
    ``c0 / (-b + s)``, with ``s`` the half chord times ``|d|``: a sum of two positive
    terms, so no cancellation, even for a ray that grazes the circle or starts next
    to it.  A circle of radius 0 is a point:
    only a ray through it exactly hits it, end-on, with normal ``-d / |d|``.
    """
    mx = px - cx
    my = py - cy
    b = mx * dx + my * dy
    if r == 0.0:
        # a point: hit exactly when it lies on the ray's line, ahead (exact signs),
        # where p + t d is the point: t = -(m . d) / |d|^2, end-on
        if (side_sign(px, py, dx, dy, cx, cy) != 0
                or side_sign(cx, cy, dy, 0.0 - dx, px, py) >= 0):
            return False, 0.0, 0.0, 0.0
        L = math.sqrt(dx * dx + dy * dy)
        return True, (0.0 - b) / (dx * dx + dy * dy), 0.0 - dx / L, 0.0 - dy / L
    if b >= 0.0:
        # heading away (or sideways) from a circle the origin lies outside of
        return False, 0.0, 0.0, 0.0
    L = math.sqrt(dx * dx + dy * dy)
    # |d| times the centre's distance from the ray's line, against |d| times r: the
    # half chord times |d| then needs no division (one less in the chain to t)
    h = abs(mx * dy - my * dx)
    rl = r * L
    if h > rl:
        return False, 0.0, 0.0, 0.0
    s = math.sqrt((rl - h) * (rl + h))
    c0 = mx * mx + my * my - r * r
    if c0 < 0.0:
        # the caller found the origin outside, the squares round it inside: t = 0
        c0 = 0.0
    t = c0 / (s - b)
    hx = mx + t * dx
    hy = my + t * dy
    hl = math.sqrt(hx * hx + hy * hy)
    if r > 0.0 and hl > 0.0:
        return True, t, hx / hl, hy / hl
    # a point has no surface normal: the end-on rule (0.0 - x: never a -0.0 component)
    return True, t, 0.0 - dx / L, 0.0 - dy / L


# relative tolerance (2**-33, contacts' REL) of a face crossing's place along the core
_REL = 2.0 ** -33


def _on_face(px, py, dx, dy, t, ax, ay, ex, ey, ee, r):
    """Whether the crossing p + t d of a capsule's side face lies between the core's
    ends (a + s e, 0 <= s <= 1, the face r beside it), within rounding.

    The ends' orientations about the ray decide that the ray crosses the face between
    them; this checks the t computed for it.  For a ray that runs along the face's
    line, within rounding (an OBB's edge tilted by cos(pi/2) ~ 6e-17, say), the
    orientations pass while t, the offset over the speed across the line, is noise:
    its point can lie far beyond the face, before the true entry.
    """
    ux = px + t * dx - ax
    uy = py + t * dy - ay
    u = ux * ex + uy * ey  # s |e|^2
    if 0.0 <= u <= ee:
        # well between them (the common case): no tolerance to work out
        return True
    scale = abs(px - ax) + abs(py - ay) + abs(ex) + abs(ey) + r
    tol = _REL * scale * (abs(ex) + abs(ey))
    return -tol <= u <= ee + tol


def ray_round(px, py, dx, dy, ax, ay, bx, by, r, ends=True):
    """A ray against the capsule with core ab and radius r (local coordinates).

    The side face on the origin's side is hit when the ray crosses its line between
    the face's ends, decided by the orientation of those ends relative to the ray
    (exact sign tests for a segment, r == 0); such a hit is the entry, as the capsule
    lies on the inner side of that line (and the t computed for the crossing must put
    it between the ends too, see ``_on_face``).  Otherwise (and only with ``ends``:
    ``_sweep`` has cast the circles already) the entry is on an end circle: the
    circle at a, then the circle at b, the least t winning (ties keep a).  The
    circle at b is skipped when the ray meets a's before it can reach any point of
    b's (a bound from b's centre and r along the ray: then t_b >= t_a).  A ray along
    the core's line meets no side face and enters through an end.  Near the junction
    of a face and an end, where the face's t and a circle's differ by rounding only,
    the face is taken without comparing them.
    """
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    if ee == 0.0 and ends:
        # a zero-length core: its inside test and one circle, without the steps below
        return ray_disc(px, py, dx, dy, ax, ay, r)
    if r == 0.0:
        # a segment or a point has no inside: on it means on its line, between its
        # ends, by sign tests (a distance rounded to 1e-17 would miss it)
        if ee == 0.0:
            if px == ax and py == ay:
                return _INSIDE
        elif on_segment(px, py, ax, ay, bx, by):
            return _INSIDE
    else:
        qt, qx, qy = closest_on_segment(px, py, ax, ay, bx, by)
        if math.sqrt(dist2(px, py, qx, qy)) <= r:
            return _INSIDE
    found = False
    best = nx = ny = 0.0
    if ee > 0.0:
        found, best, nx, ny = _side_face(px, py, dx, dy, ax, ay, bx, by, ex, ey, ee, r)
    # a side face crossed between its ends is the entry: the capsule lies on the
    # inner side of that face's line, which the ray crosses once.  Else the entry is
    # on an end circle (each lies inside the capsule: its entry comes no earlier)
    if ends and not found:
        found, best, nx, ny = _end_circles(px, py, dx, dy, ax, ay, bx, by, r)
    if not found:
        return _NO_HIT
    return HIT, best, nx, ny


def _end_circles(px, py, dx, dy, ax, ay, bx, by, r):
    """``ray_round``'s end circles (ee > 0): ``(found, t, nx, ny)``, the circle at a,
    then the circle at b, the least t winning (ties keep a).  The circle at b is
    skipped when the ray meets a's before it can reach any point of b's (``_beyond``).
    """
    found, best, nx, ny = ray_circle(px, py, dx, dy, ax, ay, r)
    if found and _beyond(px, py, dx, dy, bx, by, r, best, dx * dx + dy * dy):
        return found, best, nx, ny
    hit, t, cx, cy = ray_circle(px, py, dx, dy, bx, by, r)
    if hit and (not found or t < best):
        return True, t, cx, cy
    return found, best, nx, ny


def _beyond(px, py, dx, dy, cx, cy, r, t, dd):
    """Whether the ray p + s d can reach no point of the circle (c, r) before s == t
    (dd = d.d; t may be inf): the circle lies beyond (c - p).d - r |d| along d, so
    w = (c - p).d - t |d|^2 >= r |d| (as w >= 0 and w^2 >= r^2 |d|^2, without a
    square root) puts its entry at t or later."""
    w = (cx - px) * dx + (cy - py) * dy - t * dd
    return w >= 0.0 and w * w >= r * r * dd


def _side_face(px, py, dx, dy, ax, ay, bx, by, ex, ey, ee, r):
    """``ray_round``'s side faces (ee > 0): ``(found, t, nx, ny)`` of the face on the
    origin's side, if the ray approaches it from outside and crosses it between its
    ends (no inside test, no circles)."""
    le = math.sqrt(ee)
    rl = r * le
    c = ex * (py - ay) - ey * (px - ax)  # |e| times the origin's offset from the line
    den = ex * dy - ey * dx  # |e| times the ray's speed across the line
    if r == 0.0:
        return _segment_face(px, py, dx, dy, ax, ay, bx, by, ex, ey, le, c, den)
    if den < 0.0 and c >= rl:
        # approaching the face on the left of ab (normal (-ey, ex) / |e|)
        k = r * (dx * ex + dy * ey) / le
        oa = dx * (ay - py) - dy * (ax - px) + k
        ob = dx * (by - py) - dy * (bx - px) + k
        if (oa <= 0.0 <= ob) or (ob <= 0.0 <= oa):
            t = (rl - c) / den
            if _on_face(px, py, dx, dy, t, ax, ay, ex, ey, ee, r):
                return True, t, 0.0 - ey / le, ex / le
    elif den > 0.0 and c <= -rl:
        # approaching the face on the right of ab (normal (ey, -ex) / |e|)
        k = -r * (dx * ex + dy * ey) / le
        oa = dx * (ay - py) - dy * (ax - px) + k
        ob = dx * (by - py) - dy * (bx - px) + k
        if (oa <= 0.0 <= ob) or (ob <= 0.0 <= oa):
            t = (-rl - c) / den
            if _on_face(px, py, dx, dy, t, ax, ay, ex, ey, ee, r):
                return True, t, ey / le, 0.0 - ex / le
    return False, 0.0, 0.0, 0.0


def _segment_face(px, py, dx, dy, ax, ay, bx, by, ex, ey, le, c, den):
    """``_side_face`` of a segment (r == 0): every decision by exact signs.

    The ray enters through the side its origin lies on when it heads across the
    segment's line (the sign of e x d against the side of p) and the line of the ray
    separates the ends (or passes through one).  ``c`` and ``den`` are the rounded
    offset and speed; where they lost the exact signs (a ray all but along the
    segment), t is taken from the nearer end's projection on the ray instead.
    """
    g_den = 0 - side_sign(ax, ay, dx, dy, bx, by)  # the sign of ex * dy - ey * dx
    g_c = orient_decide(ex * (py - ay), ey * (px - ax), ax, ay, bx, by, px, py)
    if g_den == 0 or g_c * g_den >= 0:
        # along the line, or heading away from it (p on it: an end, or apart)
        return False, 0.0, 0.0, 0.0
    if side_sign(px, py, dx, dy, ax, ay) * side_sign(px, py, dx, dy, bx, by) > 0:
        # both ends on one side of the ray's line
        return False, 0.0, 0.0, 0.0
    t = (0.0 - c) / den if c * g_c > 0.0 and den * g_den > 0.0 else math.nan
    t = _on_side(t, px, py, dx, dy, ax, ay, bx, by)
    if g_c > 0:
        # the face on the left of ab
        return True, t, 0.0 - ey / le, ex / le
    return True, t, ey / le, 0.0 - ex / le


def _near_ends(ax, ay, bx, by, dx, dy, p0x, p0y, p1x, p1y):
    """Which ends, p0 and p1, of one core can first meet a side face of the core ab
    (positive length) along d: ``(near0, near1)``.

    The face on the side the ray approaches (``ray_round``'s sign of e x d) is met first
    by the end nearer its line: offsets along the face's normal, as ``ray_round``
    forms them (e x (p - a)).  Both when the offsets agree within a relative
    tolerance (parallel or nearly parallel cores, where rounding could swap them),
    neither when d runs along the line (no face is approached).
    """
    ex = bx - ax
    ey = by - ay
    # the sign of e x d, exact: 0 when d runs along the line
    g_den = 0 - side_sign(ax, ay, dx, dy, bx, by)
    if g_den == 0:
        return False, False
    c0 = ex * (p0y - ay) - ey * (p0x - ax)
    c1 = ex * (p1y - ay) - ey * (p1x - ax)
    # the offsets' rounding is bounded by their products' sizes
    tol = _REL * (abs(ex * (p0y - ay)) + abs(ey * (p0x - ax)) + abs(ex * (p1y - ay))
                  + abs(ey * (p1x - ax)))
    if abs(c0 - c1) <= tol:
        return True, True
    # approaching the left face (den < 0) the smaller offset is nearer, else the larger
    return (c0 < c1) == (g_den < 0), (c1 < c0) == (g_den < 0)


def _sweep_cores(ta, tb, r, vx, vy):
    """``_sweep`` of two round shapes whose cores both have positive length.

    b's core moving by v relative to a's first touches a's, grown by r, where the ray
    0 + t v enters the parallelogram a - b (vertices a_i - b_j, sides along each
    core) grown by r: a convex region.  Its side along a's core that faces the ray is
    a's face as met by b's nearer end (``_near_ends``), its side along b's core the
    face of b met by a's nearer end along -v: a crossing of either between the face's
    ends is the entry, at once.  The other end's face lies inside the region and is
    crossed later.  Otherwise the ray enters through a corner circle (the circle at
    a's end a_i as met by b's end b_j is the corner a_i - b_j).  With one nearer end
    on each side, the corner of the two farther ends is left out (both its sides face
    away from the ray), and the others are cast nearest first, each skipped when the
    least t so far comes before the ray can reach its circle (``_beyond``); otherwise
    (parallel cores, or v along a core) every corner, as ``ray_round`` casts them.

    Before the faces, with r == 0 (two segments), an end lying on the other segment
    by ``ray_round``'s sign tests is touching at once (t = 0.0), as ``_sweep`` finds
    it; with r > 0 ``collide`` has made those tests already (see ``_sweep``).  Near
    the junction of a face and a corner, where a face's t and a circle's differ by
    rounding only, the face is taken.
    """
    ax, ay, bx, by, _ = ta
    cx, cy, dx, dy, _ = tb
    if r == 0.0:
        # an end on the other segment: touching at once, that end the feature
        for px, py, sx, sy, tx, ty, side in ((cx, cy, ax, ay, bx, by, 1),
                                             (dx, dy, ax, ay, bx, by, 1),
                                             (ax, ay, cx, cy, dx, dy, -1),
                                             (bx, by, cx, cy, dx, dy, -1)):
            if on_segment(px, py, sx, sy, tx, ty):
                return 0.0, (px, py, side)
    # b's nearer end along +v against a's face
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    best = math.inf
    win = None
    near_c, near_d = _near_ends(ax, ay, bx, by, vx, vy, cx, cy, dx, dy)
    for near, px, py in ((near_c, cx, cy), (near_d, dx, dy)):
        if near:
            hit, t, _, _ = _side_face(px, py, vx, vy, ax, ay, bx, by, ex, ey, ee, r)
            if hit and t < best:
                best = t
                win = (px, py, 1)
    if best < math.inf:
        return best, win
    # a's nearer end along -v against b's face
    fx = dx - cx
    fy = dy - cy
    ff = fx * fx + fy * fy
    near_a, near_b = _near_ends(cx, cy, dx, dy, -vx, -vy, ax, ay, bx, by)
    for near, px, py in ((near_a, ax, ay), (near_b, bx, by)):
        if near:
            hit, t, _, _ = _side_face(px, py, -vx, -vy, cx, cy, dx, dy, fx, fy, ff, r)
            if hit and t < best:
                best = t
                win = (px, py, -1)
    if best < math.inf:
        return best, win
    if near_c != near_d and near_a != near_b:
        # one nearer end on each side: the corner where the two faces facing the ray
        # meet, then the two beside it.  The corner of the two farther ends cannot be
        # the entry: every normal of its circle faces away from the ray, as both its
        # sides do
        px, py, qx, qy = (cx, cy, dx, dy) if near_c else (dx, dy, cx, cy)
        mx, my, fx, fy = (ax, ay, bx, by) if near_a else (bx, by, ax, ay)
        dd = vx * vx + vy * vy
        for sx, sy, wx, wy in ((px, py, mx, my), (px, py, fx, fy), (qx, qy, mx, my)):
            if not _beyond(sx, sy, vx, vy, wx, wy, r, best, dd):
                hit, t, _, _ = ray_circle(sx, sy, vx, vy, wx, wy, r)
                if hit and t < best:
                    best = t
                    win = (sx, sy, 1)
        return best, win
    # otherwise (parallel cores, or v along one): b's ends against the circles at a's
    for px, py in ((cx, cy), (dx, dy)):
        hit, t, _, _ = _end_circles(px, py, vx, vy, ax, ay, bx, by, r)
        if hit and t < best:
            best = t
            win = (px, py, 1)
    return best, win


def ray_disc(px, py, dx, dy, cx, cy, r):
    """A ray against the circle (c, r), in any exact shift of the coordinates (the origin
    enters only through ``p - c`` and exact signs).

    ``ray_round`` of a core of zero length at c with its ends, operation for
    operation, less the steps a zero-length core skips (side faces, the second end).
    """
    if r == 0.0:
        # a point: on it exactly, as ray_round's sign tests
        if px == cx and py == cy:
            return _INSIDE
    elif math.sqrt(dist2(px, py, cx, cy)) <= r:
        # ray_round's closest point of a zero-length core is its end a, here c
        return _INSIDE
    hit, t, nx, ny = ray_circle(px, py, dx, dy, cx, cy, r)
    return (HIT, t, nx, ny) if hit else _NO_HIT


# --------------------------------------------------------------------- convex shapes

# box faces in the order of the vertex ring: bottom, right, top, left
_BOTTOM, _RIGHT, _TOP, _LEFT = 0, 1, 2, 3


def slab_quick(pu, pv, du, dv, u0, v0, u1, v1):
    """``ray_box``'s answers that take comparisons only: ``INSIDE`` when the origin
    lies in the box, ``MISS`` when it lies outside a slab and does not head into it
    (parallel to it, or away: then no ``t >= 0`` puts it inside), else ``HIT``,
    meaning "the corner tests decide".  Only the direction's signs enter: scaling it
    by a power of two keeps each sign or flushes it to zero, so an answer other than
    ``HIT`` is the same before the scaling and after.
    """
    if u0 <= pu <= u1 and v0 <= pv <= v1:
        return INSIDE
    if (pu > u1 and du >= 0.0 or pu < u0 and du <= 0.0
            or pv > v1 and dv >= 0.0 or pv < v0 and dv <= 0.0):
        return MISS
    return HIT


def slab_entry(pu, pv, du, dv, u0, v0, u1, v1):
    """``(status, t, face)`` of a ray against the box [u0, u1] x [v0, v1] (slabs),
    for a ray ``slab_quick`` left to the corner tests.

    The entering face is the one with the largest entering t, and the ray hits when
    that t is positive and no later than either exit.  Those comparisons of times are
    made by exact signs: which side of the ray's line a corner lies on orders the two
    slabs' times through it (``side_sign``).  Exact ties (a ray through a corner) go
    to a face of positive length, then to the lower face index (bottom 0, right 1,
    top 2, left 3: the order of the box's vertex ring).  The coordinates must be
    exact (the box's own, in an exact local frame).
    """
    su = 1 if du > 0.0 else -1 if du < 0.0 else 0
    sv = 1 if dv > 0.0 else -1 if dv < 0.0 else 0
    # the entering and exiting sides of each slab
    uin, uout, fu = (u0, u1, _LEFT) if su > 0 else (u1, u0, _RIGHT)
    vin, vout, fv = (v0, v1, _BOTTOM) if sv > 0 else (v1, v0, _TOP)
    if su == 0:
        # inside the u slab, outside the box: the v face, ahead when p lies before it
        if (vin - pv) * sv > 0.0:
            return HIT, (vin - pv) / dv, fv
        return MISS, 0.0, -1
    if sv == 0:
        if (uin - pu) * su > 0.0:
            return HIT, (uin - pu) / du, fu
        return MISS, 0.0, -1
    # tu - tv has the sign of -S * su * sv, S the side of the corner (uin, vin)
    order = 0 - side_sign(pu, pv, du, dv, uin, vin) * su * sv
    if order == 0:
        # through a corner: prefer a face of positive length (a zero-width box is a
        # segment, hit broadside), then the lower index
        lu = v1 - v0  # length of the u faces (left, right)
        lv = u1 - u0  # length of the v faces (bottom, top)
        if (lu > 0.0) != (lv > 0.0):
            on_u = lu > 0.0
        else:
            on_u = fu < fv
    else:
        on_u = order > 0
    if on_u:
        # tu, ahead, and no later than the v slab's exit (tu - ev: the corner (uin, vout))
        if (uin - pu) * su > 0.0 and side_sign(pu, pv, du, dv, uin, vout) * su * sv >= 0:
            return HIT, (uin - pu) / du, fu
        return MISS, 0.0, -1
    # tv, ahead, and no later than the u slab's exit (tv - eu: the corner (uout, vin))
    if (vin - pv) * sv > 0.0 and side_sign(pu, pv, du, dv, uout, vin) * su * sv <= 0:
        return HIT, (vin - pv) / dv, fv
    return MISS, 0.0, -1


def _end_on(dx, dy):
    """The normal of a feature of zero thickness hit end-on: ``-d / |d|`` (0.0 - x: never
    a -0.0 component)."""
    L = math.sqrt(dx * dx + dy * dy)
    return 0.0 - dx / L, 0.0 - dy / L


def _ring_side(cv, i, px, py):
    """Which side of the ring's side i p lies on: 1 inner, 0 on it, -1 outer (a box's
    side by ``box_side``, a polygon's edge by ``orient_sign``)."""
    if cv.kind == OBB_KIND:
        return box_side(cv, i, px, py)
    j = i + 1 if i + 1 < len(cv.xs) else 0
    return orient_sign(cv.xs[i], cv.ys[i], cv.xs[j], cv.ys[j], px, py)


def ray_ring(px, py, dx, dy, cv):
    """``(status, t, face)`` of a ray against an OBB or Polygon (its ring of corners).

    The ray enters through side i when its origin lies strictly outside that side's
    line, it heads inwards across it, and its own line passes through the side (its
    ends on both sides of the ray's line, or one on it): exact signs, so the face is
    the one the ray truly enters for the ring as stored (a box's corners as computed).
    At a corner the ray passes through, the first such side of positive length in ring
    order wins (a box's side of zero length, a box of zero width, only when no other
    does).  t is the rounded crossing kept between the side's ends' projections on the
    ray (``_on_side``; where its rounded parts lost the exact signs, a ray all but
    along the side, the nearer end's projection).
    """
    xs = cv.xs
    ys = cv.ys
    n = len(xs)
    box = cv.kind == OBB_KIND
    if point_in_convex(cv, px, py):
        return INSIDE, 0.0, -1
    # each corner against the ray's line
    sides = [side_sign(px, py, dx, dy, xs[k], ys[k]) for k in range(n)]
    point_face = -1
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if xs[i] == xs[j] and ys[i] == ys[j]:
            if box and point_face < 0 and sides[i] == 0 and box_side(cv, i, px, py) < 0:
                # a box's side of zero length: through its corner, heading inwards
                # across the side's line (d . n < 0)
                nx, ny = box_normal(cv.cos, cv.sin, i)
                if side_sign(0.0, 0.0, ny, 0.0 - nx, dx, dy) < 0:
                    point_face = i
            continue
        if sides[i] * sides[j] > 0 or _ring_side(cv, i, px, py) >= 0:
            continue
        if side_sign(xs[i], ys[i], dx, dy, xs[j], ys[j]) >= 0:
            # not heading inwards across it (the sign of e x d is minus this)
            continue
        ex = xs[j] - xs[i]
        ey = ys[j] - ys[i]
        num = ex * (py - ys[i]) - ey * (px - xs[i])
        den = ex * dy - ey * dx
        t = -num / den if num < 0.0 and den > 0.0 else math.nan
        return HIT, _on_side(t, px, py, dx, dy, xs[i], ys[i], xs[j], ys[j]), i
    if point_face >= 0:
        cx = xs[point_face]
        cy = ys[point_face]
        return HIT, ((cx - px) * dx + (cy - py) * dy) / (dx * dx + dy * dy), point_face
    return MISS, 0.0, -1


def _on_side(t, px, py, dx, dy, ax, ay, bx, by):
    """The crossing's ``t`` of the side ab, kept between the projections of a and b on
    the ray, where the exact signs put the crossing, and at least 0.0.

    A ray all but along the side has a rounded t that can land anywhere on its line
    (beyond the side's ends); where the rounded parts lost the exact signs the caller
    passes NaN, which takes the nearer end's projection."""
    dd = dx * dx + dy * dy
    ta = ((ax - px) * dx + (ay - py) * dy) / dd
    tb = ((bx - px) * dx + (by - py) * dy) / dd
    lo, hi = (ta, tb) if ta < tb else (tb, ta)
    if not t >= lo:
        t = lo
    elif t > hi:
        t = hi
    return t if t > 0.0 else 0.0


def _face_length(face, u0, v0, u1, v1):
    if face == _LEFT or face == _RIGHT:
        return v1 - v0
    return u1 - u0


def ray_box(px, py, dx, dy, x0, y0, x1, y1):
    """``(status, t, nx, ny)``: a ray against the box ``[x0, x1] x [y0, y1]`` (see
    ``ray_convex``).

    Only differences of the coordinates enter (``slab_entry``'s comparisons, exact signs
    and times), so every exact shift of the ray and the box, the local frame or none,
    gives this answer.
    """
    st = slab_quick(px, py, dx, dy, x0, y0, x1, y1)
    if st != HIT:
        return st, 0.0, 0.0, 0.0
    return box_entry(px, py, dx, dy, x0, y0, x1, y1)


# an AABB's outward face normals, in ring order (bottom, right, top, left)
_BOX_NORMALS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))


def box_entry(px, py, dx, dy, x0, y0, x1, y1):
    """``ray_box`` of a ray ``slab_quick`` left to the corner tests."""
    st, t, face = slab_entry(px, py, dx, dy, x0, y0, x1, y1)
    if st != HIT:
        return st, 0.0, 0.0, 0.0
    if _face_length(face, x0, y0, x1, y1) == 0.0:
        return (HIT, t) + _end_on(dx, dy)
    return (HIT, t) + _BOX_NORMALS[face]


def ray_convex(px, py, dx, dy, cv):
    """A ray against an AABB, OBB or Polygon (``Convex``, local coordinates).

    The normal is the outward normal of the face the ray enters through; a face of
    zero length (the end of a zero-width box, or a point box) has none, and gives the
    end-on normal ``-d / |d|``.
    """
    return convex_face(px, py, dx, dy, cv)[:4]


def convex_face(px, py, dx, dy, cv):
    """``ray_convex`` with the index of the face entered: ``(status, t, nx, ny, face)``
    (face -1 without a hit; for an AABB its side in ring order, as ``slab_entry``)."""
    xs = cv.xs
    ys = cv.ys
    if cv.kind == AABB_KIND:
        x0 = xs[0]
        y0 = ys[0]
        x1 = xs[1]
        y1 = ys[2]
        st = slab_quick(px, py, dx, dy, x0, y0, x1, y1)
        if st != HIT:
            return st, 0.0, 0.0, 0.0, -1
        st, t, face = slab_entry(px, py, dx, dy, x0, y0, x1, y1)
        if st != HIT:
            return st, 0.0, 0.0, 0.0, -1
        if _face_length(face, x0, y0, x1, y1) == 0.0:
            return (HIT, t) + _end_on(dx, dy) + (face,)
        return (HIT, t) + _BOX_NORMALS[face] + (face,)
    st, t, face = ray_ring(px, py, dx, dy, cv)
    if st != HIT:
        return st, 0.0, 0.0, 0.0, -1
    j = face + 1 if face + 1 < len(xs) else 0
    if cv.kind == OBB_KIND:
        if xs[face] == xs[j] and ys[face] == ys[j]:
            return (HIT, t) + _end_on(dx, dy) + (face,)
        return (HIT, t) + box_normal(cv.cos, cv.sin, face) + (face,)
    return (HIT, t) + edge_normal(xs[j] - xs[face], ys[j] - ys[face]) + (face,)


def edge_normal(ex, ey):
    """The unit normal on the right of the edge e (outward for a counter-clockwise ring)."""
    if ex * ex + ey * ey < _NORMAL:
        # an edge so short its squared length underflows (a sliver of a polygon's
        # ring): scaled, exactly, it has the same direction and a length the square
        # root resolves
        ex = ex * UNDERFLOW_SCALE
        ey = ey * UNDERFLOW_SCALE
    le = math.sqrt(ex * ex + ey * ey)
    return ey / le, 0.0 - ex / le


def ray_rounded_convex(px, py, dx, dy, cv, r, ends=True):
    """A ray against the convex shape grown by ``r > 0``: the shape and its edges' capsules.

    The capsules' end circles (at the vertices) only with ``ends``.
    """
    res = ray_convex(px, py, dx, dy, cv)
    if res[0] == INSIDE:
        return res
    xs = cv.xs
    ys = cv.ys
    n = len(xs)
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        cand = ray_round(px, py, dx, dy, xs[i], ys[i], xs[j], ys[j], r, ends)
        if cand[0] == INSIDE:
            return cand
        if cand[0] == HIT and (res[0] == MISS or cand[1] < res[1]):
            res = cand
    return res


# ------------------------------------------------------------------------- raycast


def _scaled(dx, dy):
    """``(dx', dy', e)``: the direction times 2**-e, exactly, its larger component in
    [0.5, 1) where the smaller one allows.

    Scaling down, the smaller component (not zero) stays normal, so nothing of it is
    rounded away (a direction like ``(-5.0, 5e-324)``: the ray must stay the one given,
    so that its exact signs are its own), unless the larger one would then pass
    2**52.  So bits of the smaller one are lost only where the two span more than
    1126 bits, from the larger's top bit to the smaller's lowest (``(1e300, 5e-324)``,
    say): the ray is then cast all but along an axis as along it.
    """
    m = abs(dx) if abs(dx) > abs(dy) else abs(dy)
    e = math.frexp(m)[1]
    # scaled down no further than keeps the smaller component (or the larger, where
    # that is zero) normal: its biased exponent (0 for a subnormal) less one
    small = (abs(dx) if abs(dx) <= abs(dy) else abs(dy)) or m
    low = math.frexp(small)[1] + 1021 if small >= _NORMAL else -1
    e = max(min(e, low), e - 52)
    return math.ldexp(dx, -e), math.ldexp(dy, -e), e


def _ldexp(t, k):
    """``t * 2**k``, inf on overflow (as C's ldexp)."""
    try:
        return math.ldexp(t, k)
    except OverflowError:
        return math.inf


def raycast(shape, origin, direction, max_t=math.inf):
    """``raycast`` of one shape and one ray (``fastcol.raycast`` documents it)."""
    if not isinstance(shape, _Shape):
        raise shape_type_error(shape, "shape")
    px, py = as_point(origin, "origin")
    dx, dy = as_direction(direction, "direction")
    limit = as_limit(max_t, "max_t")
    return raycast_view(shape, px, py, dx, dy, limit)


def raycast_view(shape, px, py, dx, dy, limit):
    """The RayHit (or None) of the ray ``p + t d``, ``0 <= t <= limit``, at a shape
    (the arguments checked)."""
    if shape.kind == AABB_KIND or shape.kind == CIRCLE:
        return ray_unframed(shape, px, py, dx, dy, limit)
    sx, sy, e = _scaled(dx, dy)
    # the shape's reference point, where subtracting it is exact for the ray's origin
    # too (see queries._frame): the ray's sign tests are then exact
    ox, oy = _origin(shape)
    x0, x1, y0, y1 = _extent(shape)
    ox = exact_origin(ox, min(x0, px), max(x1, px))
    oy = exact_origin(oy, min(y0, py), max(y1, py))
    lx = px - ox
    ly = py - oy
    if shape.kind <= SEGMENT:
        ax, ay, bx, by, r = _core(shape, ox, oy)
        st, t, nx, ny = ray_round(lx, ly, sx, sy, ax, ay, bx, by, r)
    else:
        st, t, nx, ny = ray_convex(lx, ly, sx, sy, convex_local(shape, ox, oy))
    return _ray_hit(st, t, nx, ny, e, px, py, dx, dy, limit)


def ray_unframed(shape, px, py, dx, dy, limit):
    """``raycast_view`` of a circle or an AABB, which need no frame: ``ray_disc`` reads
    the origin only through ``p - c`` and exact signs of it, ``ray_box`` only
    differences of coordinates, the same in every exact shift."""
    sx, sy, e = _scaled(dx, dy)
    if shape.kind == AABB_KIND:
        st, t, nx, ny = ray_box(px, py, sx, sy, shape._min_x, shape._min_y, shape._max_x,
                                shape._max_y)
    else:
        st, t, nx, ny = ray_disc(px, py, sx, sy, shape._x, shape._y, shape._r)
    return _ray_hit(st, t, nx, ny, e, px, py, dx, dy, limit)


def _ray_hit(st, t, nx, ny, e, px, py, dx, dy, limit):
    """The RayHit (or None) of a ray kernel's answer for the direction scaled by
    ``2**-e``."""
    if st == INSIDE:
        return RayHit(0.0, (px, py), (0.0, 0.0))
    if st == MISS:
        return None
    # + 0.0: a face the origin lies on by rounding gives -0.0; report 0.0
    t = _ldexp(t, -e) + 0.0
    if t > limit or t == math.inf:
        return None
    return RayHit(t, (px + t * dx, py + t * dy), (nx, ny))


# ------------------------------------------------------------------ time of impact


def _cast(qx, qy, vx, vy, s, target, r, ends):
    """The vertex ray q + t v against shape s (its core tuple or Convex) grown by r.

    The circles at s's core ends or vertices only with ``ends``.
    """
    if s.kind <= SEGMENT:
        ax, ay, bx, by, _ = target
        return ray_round(qx, qy, vx, vy, ax, ay, bx, by, r, ends)
    if r > 0.0:
        return ray_rounded_convex(qx, qy, vx, vy, target, r, ends)
    return ray_convex(qx, qy, vx, vy, target)


def _has_length(core):
    # a core that ray_round takes for a segment (ee > 0; a shorter one is a point)
    ax, ay, bx, by, _ = core
    ex = bx - ax
    ey = by - ay
    return ex * ex + ey * ey > 0.0


def _vertices(s, target):
    if s.kind <= SEGMENT:
        ax, ay, bx, by, _ = target
        if ax == bx and ay == by:
            return [(ax, ay)]
        return [(ax, ay), (bx, by)]
    return list(zip(target.xs, target.ys))


def _target(s, ox, oy):
    if s.kind <= SEGMENT:
        core = _core(s, ox, oy)
        return core, core[4]
    return convex_local(s, ox, oy), 0.0


def _sweep(a, b, ox, oy, vx, vy):
    """Least t at which a canonical, apart pair meets, b moving by v relative to a.

    Each vertex of b's core (or polygon) travels along +v towards a grown by both
    radii, each vertex of a's along -v towards b grown likewise: ``(t, win)``, ``t``
    the least hit (``inf`` if none) and ``win`` = ``(qx, qy, side)`` the vertex whose
    ray gave it first (side 1: b's along +v, -1: a's along -v), the feature that
    touches first (``shape_cast``'s point and normal; None without a hit).
    A vertex already inside (a round shape's inside test, a rounded length against
    the radii, disagreeing with collide's) counts as t == 0.0, which the caller turns
    into ``TINY``.  The second loop casts no circles at b's vertices: a's vertex q
    against the circle at b's vertex w is, negated exactly (``-(q - w) == w - q``,
    ``-v`` for ``v``), w against the circle at q, which the first loop cast: the same
    t, to the bit.  For two point cores (zero-length capsules and segments; two
    circles return earlier) the second loop is left out: a's point against b's point
    without its circle can only report inside, by the test the first cast made of b's
    point against a's (``dist2`` is symmetric to the bit), so it adds nothing.
    """
    ta, ra = _target(a, ox, oy)
    tb, rb = _target(b, ox, oy)
    r = ra + rb
    if b.kind == CIRCLE:
        # two circles (a sorts first): b's centre against the circle of radius r at
        # a's, without ray_round's inside test.  For two circles that test is
        # collide's own (the same differences, squares and sum of radii; for r == 0
        # the same point), which the caller found False
        hit, t, _, _ = ray_circle(tb[0], tb[1], vx, vy, ta[0], ta[1], r)
        if hit and t < math.inf:
            return t, (tb[0], tb[1], 1)
        return math.inf, None
    return _sweep_vertices(a, ta, b, tb, r, vx, vy)


def _sweep_vertices(a, ta, b, tb, r, vx, vy):
    """``_sweep``'s two loops of vertex rays (``ta``, ``tb``: the shapes' ``_target``)."""
    best = math.inf
    win = None
    b_points = _vertices(b, tb)
    for qx, qy in b_points:
        st, t, _, _ = _cast(qx, qy, vx, vy, a, ta, r, True)
        if st == INSIDE:
            t = 0.0
        if st != MISS and t < best:
            best = t
            win = (qx, qy, 1)
    a_points = _vertices(a, ta)
    if len(a_points) == 1 and len(b_points) == 1:
        # (only a round shape's core is a single point: a box or polygon gives its ring)
        return best, win
    for qx, qy in a_points:
        st, t, _, _ = _cast(qx, qy, -vx, -vy, b, tb, r, False)
        if st == INSIDE:
            t = 0.0
        if st != MISS and t < best:
            best = t
            win = (qx, qy, -1)
    return best, win


def _sweep_round(a, b, ox, oy, vx, vy):
    """``_sweep`` of two round shapes, not two circles.  Two cores that both have
    length take ``_sweep_cores``, which casts only the faces and corners that can be
    the entry."""
    ta, ra = _target(a, ox, oy)
    tb, rb = _target(b, ox, oy)
    r = ra + rb
    if _has_length(ta) and _has_length(tb):
        return _sweep_cores(ta, tb, r, vx, vy)
    return _sweep_vertices(a, ta, b, tb, r, vx, vy)


def time_of_impact(a, velocity_a, b, velocity_b, max_t=1.0):
    """``time_of_impact`` of two shapes (``fastcol.time_of_impact`` documents it)."""
    _check(a, b)
    vax, vay = as_point(velocity_a, "velocity_a")
    vbx, vby = as_point(velocity_b, "velocity_b")
    limit = as_limit(max_t, "max_t")
    return toi_views(a, vax, vay, b, vbx, vby, limit)


def toi_views(a, vax, vay, b, vbx, vby, limit):
    """The first time in ``[0, limit]`` at which ``a`` and ``b``, moving with their
    (finite) velocities, touch; None when they never do."""
    return sweep_views(a, vax, vay, b, vbx, vby, limit)[0]


def sweep_views(a, vax, vay, b, vbx, vby, limit):
    """``(t, feature)``: ``toi_views``'s time (None when they never touch), and for a
    hit after 0.0 what ``shape_cast`` needs to place it (``_cast_hit``), else None."""
    a, b, swapped = _canonical(a, b)
    if collide_canonical(a, b):
        return 0.0, None
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
    if math.isinf(vx) or math.isinf(vy):
        # the difference of two huge velocities overflows: halve both (exact)
        vx = wx * 0.5 - ux * 0.5
        vy = wy * 0.5 - uy * 0.5
        shift = 1
    if vx == 0.0 and vy == 0.0:
        return None, None
    sx, sy, e = _scaled(vx, vy)
    ox, oy = _frame(a, b)
    if b.kind <= SEGMENT and b.kind != CIRCLE:
        t, win = _sweep_round(a, b, ox, oy, sx, sy)
    else:
        t, win = _sweep(a, b, ox, oy, sx, sy)
    if t == math.inf:
        return None, None
    t = _ldexp(t, -(e + shift))
    if t == 0.0:
        # apart by collide's verdict: touching at once, but not at 0.0 (see Notes)
        t = TINY
    if t > limit or t == math.inf:
        # beyond max_t, or beyond the float range (a tiny velocity)
        return None, None
    return t, (a, b, swapped, ox, oy, sx, sy, wx, wy, ux, uy, win)


# ---------------------------------------------------------------------- shape casts


def shape_cast(a, velocity_a, b, velocity_b, max_t=1.0):
    """``shape_cast`` of two shapes (``fastcol.shape_cast`` documents it)."""
    _check(a, b)
    vax, vay = as_point(velocity_a, "velocity_a")
    vbx, vby = as_point(velocity_b, "velocity_b")
    limit = as_limit(max_t, "max_t")
    return cast_views(a, vax, vay, b, vbx, vby, limit)


def cast_views(a, vax, vay, b, vbx, vby, limit):
    """The CastHit (or None) of two shapes moving with their (finite) velocities."""
    t, feature = sweep_views(a, vax, vay, b, vbx, vby, limit)
    if t is None:
        return None
    if feature is None:
        # already colliding: contact's normal, and its point (the midpoint of two)
        nx, ny, _, count, p0x, p0y, p1x, p1y = contact_views(a, b)
        if count == 2:
            p0x = 0.5 * p0x + 0.5 * p1x
            p0y = 0.5 * p0y + 0.5 * p1y
        return CastHit(0.0, (p0x, p0y), (nx, ny))
    return CastHit(t, *_cast_hit(t, feature))


def _cast_hit(t, feature):
    """``(point, normal)`` at ``t`` of the vertex ray that hit first (``win``).

    Its ray is cast again with its normal (the surface entered, outward from the
    shape it hits); a b vertex at ``t`` lies on a grown by both radii, so the shapes
    touch b's radius back along the normal from it, and an a vertex a's radius ahead.
    Where that ray finds no surface (it starts inside by a rounded test: t is
    ``TINY``), the end-on normal ``-v / |v|`` (as a ray's at a point); where it met a
    point of a (radius 0) end-on, the face of b that point meets (cast along -v).
    For shapes without radius the ray also names the face it entered, and where that
    puts a corner on a corner the normal is ``_corner_normal``'s (after the point,
    which stays the face's).
    """
    a, b, swapped, ox, oy, sx, sy, wx, wy, ux, uy, win = feature
    qx, qy, side = win
    ta, ra = _target(a, ox, oy)
    tb, rb = _target(b, ox, oy)
    r = ra + rb
    # (only shapes without radius have corners: their ray also names the face entered)
    face = -1
    if side > 0:
        if r == 0.0:
            st, tq, nx, ny, face = _cast_face(qx, qy, sx, sy, a, ta, True)
        else:
            st, _, nx, ny = _cast(qx, qy, sx, sy, a, ta, r, True)
        if st == HIT and r == 0.0 and a.kind <= SEGMENT and ta[0] == ta[2] and ta[1] == ta[3]:
            # b's vertex met a's point, end-on: a's point cast along -v gives the face
            # of b it meets there (raycast's corner rule), a normal that b moved back
            # along overlaps a (where b has such a face; two points keep end-on)
            st2, _, mx, my = _cast(ta[0], ta[1], 0.0 - sx, 0.0 - sy, b, tb, r, False)
            if st2 == HIT:
                nx = 0.0 - mx
                ny = 0.0 - my
    else:
        if r == 0.0:
            st, tq, nx, ny, face = _cast_face(qx, qy, 0.0 - sx, 0.0 - sy, b, tb, False)
        else:
            st, _, nx, ny = _cast(qx, qy, 0.0 - sx, 0.0 - sy, b, tb, r, False)
        # the normal of b's surface, towards a: negated, from a towards b
        nx = 0.0 - nx
        ny = 0.0 - ny
    if st != HIT:
        nx, ny = _end_on(sx, sy)
    if side > 0:
        px = ox + qx + wx * t - rb * nx
        py = oy + qy + wy * t - rb * ny
    else:
        px = ox + qx + ux * t + ra * nx
        py = oy + qy + uy * t + ra * ny
    if r == 0.0 and st == HIT:
        # (after the point, which stays the face's to the bit)
        nx, ny = _corner_normal(a, ta, b, tb, qx, qy, side, sx, sy, tq, face, nx, ny)
    if swapped:
        nx = 0.0 - nx
        ny = 0.0 - ny
    return (px, py), (nx, ny)


# ------------------------------------------------------------ corner meets corner


def _cast_face(qx, qy, vx, vy, s, target, ends):
    """``_cast`` of shapes without radius (r == 0), with the face entered:
    ``(status, t, nx, ny, face)``; face is a convex shape's side index (-1 for a
    round shape, whose core is its one face)."""
    if s.kind <= SEGMENT:
        ax, ay, bx, by, _ = target
        return ray_round(qx, qy, vx, vy, ax, ay, bx, by, 0.0, ends) + (-1,)
    return convex_face(qx, qy, vx, vy, target)


def _face_end(qx, qy, vx, vy, t, xi, yi, xj, yj):
    """Which end of the side from i to j the ray's hit ``q + t v`` lies at: 0 (i),
    1 (j), or -1 (between them), within rounding (``_on_face``'s tolerance: a ray
    exactly through a corner, or one that meets a side a rounding from its end)."""
    ex = xj - xi
    ey = yj - yi
    ux = qx + t * vx - xi
    uy = qy + t * vy - yi
    u = ux * ex + uy * ey  # the hit's place along the side times |e|^2
    el = abs(ex) + abs(ey)
    tol = _REL * (abs(qx - xi) + abs(qy - yi) + el) * el
    if u <= tol:
        return 0
    if u >= ex * ex + ey * ey - tol:
        return 1
    return -1


def _hit_vertex(qx, qy, vx, vy, t, s, target, face):
    """The vertex of s (radius 0; index into ``_vertices``) at which the ray
    ``q + t v`` that hit s entered it, or -1 where it entered between two."""
    if s.kind <= SEGMENT:
        ax, ay, bx, by, _ = target
        if ax == bx and ay == by:
            # a point is all corner
            return 0
        return _face_end(qx, qy, vx, vy, t, ax, ay, bx, by)
    xs = target.xs
    ys = target.ys
    j = face + 1 if face + 1 < len(xs) else 0
    end = _face_end(qx, qy, vx, vy, t, xs[face], ys[face], xs[j], ys[j])
    if end < 0:
        return -1
    return face if end == 0 else j


def _vertex_index(s, target, qx, qy):
    """The index (into ``_vertices``) of s's vertex q, which the sweep took from them."""
    if s.kind <= SEGMENT:
        return 0 if qx == target[0] and qy == target[1] else 1
    xs = target.xs
    ys = target.ys
    for k in range(len(xs)):
        if xs[k] == qx and ys[k] == qy:
            return k
    return 0


def _side_normal(cv, i):
    """The outward unit normal of a convex shape's side i (its kernels' own)."""
    if cv.kind == AABB_KIND:
        return _BOX_NORMALS[i]
    if cv.kind == OBB_KIND:
        return box_normal(cv.cos, cv.sin, i)
    j = i + 1 if i + 1 < len(cv.xs) else 0
    return edge_normal(cv.xs[j] - cv.xs[i], cv.ys[j] - cv.ys[i])


def _zero_side(cv, i):
    j = i + 1 if i + 1 < len(cv.xs) else 0
    return cv.xs[i] == cv.xs[j] and cv.ys[i] == cv.ys[j]


def _cone(s, target, k):
    """The outward normal cone of s (radius 0) at its vertex k: ``(n1x, n1y, n2x, n2y)``,
    from n1 counter-clockwise to n2, or None for a point (every direction).

    A polygon's or box's corner: the normals of the sides of positive length that
    meet there (a zero-length side, of a box of zero width, is passed over: the
    corner is then a segment's end).  A segment's end: the half-plane beyond it,
    bounded by the segment's two normals.
    """
    if s.kind <= SEGMENT:
        ax, ay, bx, by, _ = target
        if ax == bx and ay == by:
            return None
        if k == 0:
            nx, ny = edge_normal(ax - bx, ay - by)
        else:
            nx, ny = edge_normal(bx - ax, by - ay)
        return nx, ny, 0.0 - nx, 0.0 - ny
    n = len(target.xs)
    # the last side of positive length that ends at k, the first that starts there
    i = k - 1 if k > 0 else n - 1
    m = 0
    while _zero_side(target, i):
        m += 1
        if m == n:
            return None
        i = i - 1 if i > 0 else n - 1
    j = k
    while _zero_side(target, j):
        j = j + 1 if j + 1 < n else 0
    return _side_normal(target, i) + _side_normal(target, j)


def _within(wx, wy, c):
    """Whether the direction w lies in the cone c (``_cone``'s form), by rounded signs."""
    c1x, c1y, c2x, c2y = c
    s1 = c1x * wy - c1y * wx  # c1 x w
    s2 = wx * c2y - wy * c2x  # w x c2
    if c1x * c2y - c1y * c2x > 0.0 or c1x * c2x + c1y * c2y > 0.0:
        # narrower than a half-plane: between both sides
        return s1 >= 0.0 and s2 >= 0.0
    # a half-plane, or wider by rounding: beyond either side
    return s1 >= 0.0 or s2 >= 0.0


def _meet(ca, cb):
    """The cone ``ca ∩ cb`` (None: all directions) as ``(s, e)`` from s
    counter-clockwise to e; False where it is empty by rounding."""
    if ca is None:
        return cb
    if cb is None:
        return ca
    # the later start, the earlier end: each the one that lies in the other cone
    if _within(ca[0], ca[1], cb):
        sx, sy = ca[0], ca[1]
    elif _within(cb[0], cb[1], ca):
        sx, sy = cb[0], cb[1]
    else:
        return False
    if _within(ca[2], ca[3], cb):
        ex, ey = ca[2], ca[3]
    elif _within(cb[2], cb[3], ca):
        ex, ey = cb[2], cb[3]
    else:
        return False
    return sx, sy, ex, ey


def _touching(ca, cb, nx, ny):
    """The unit direction between the sides of ca and cb that nearly coincide (ca's
    start with cb's end, or ca's end with cb's start, whichever pair lies closer);
    ``(nx, ny)`` where neither pair lies within 60 degrees (cones truly apart)."""
    d1 = ca[0] * cb[2] + ca[1] * cb[3]
    d2 = ca[2] * cb[0] + ca[3] * cb[1]
    if d1 >= d2:
        mx = ca[0] + cb[2]
        my = ca[1] + cb[3]
    else:
        mx = ca[2] + cb[0]
        my = ca[3] + cb[1]
    if not (d1 > 0.5 or d2 > 0.5):
        return nx, ny
    L = math.sqrt(mx * mx + my * my)
    return mx / L, my / L


def _bisector(c):
    """The unit bisector of the cone c (from s counter-clockwise to e): s + e for
    cones up to a right angle, else the sides turned inwards by a right angle
    (s turned left plus e turned right), which stays well away from zero up to a
    half-plane and beyond.  Negating the cone negates it exactly."""
    sx, sy, ex, ey = c
    if sx * ex + sy * ey >= 0.0:
        mx = sx + ex
        my = sy + ey
    else:
        mx = ey - sy
        my = sx - ex
    L = math.sqrt(mx * mx + my * my)
    return mx / L, my / L


def _corner_normal(a, ta, b, tb, qx, qy, side, vx, vy, t, face, nx, ny):
    """The normal where two shapes without radius first touch (a to b, canonical).

    The vertex ray that hit first names one corner: q, of b (side 1, cast along v)
    or of a (along -v).  The other is a corner when that ray entered its shape at a
    vertex (``_hit_vertex``).  Corner to corner, the normal is the bisector of the
    normal cone of the Minkowski difference there: a's normal cone at its corner
    met with b's negated (a point's is every direction); moving b along -normal
    then overlaps, along +normal it separates.  Elsewhere (a face met, two points,
    cones that miss each other by rounding) the face's normal ``(nx, ny)`` stays.
    """
    if side > 0:
        k = _hit_vertex(qx, qy, vx, vy, t, a, ta, face)
        if k < 0:
            return nx, ny
        ca = _cone(a, ta, k)
        cb = _cone(b, tb, _vertex_index(b, tb, qx, qy))
    else:
        k = _hit_vertex(qx, qy, 0.0 - vx, 0.0 - vy, t, b, tb, face)
        if k < 0:
            return nx, ny
        cb = _cone(b, tb, k)
        ca = _cone(a, ta, _vertex_index(a, ta, qx, qy))
    if cb is not None:
        cb = (0.0 - cb[0], 0.0 - cb[1], 0.0 - cb[2], 0.0 - cb[3])
    c = _meet(ca, cb)
    if c is None:
        # two points
        return nx, ny
    if c is False:
        # cones that meet in one ray, missed by rounding (a face lying on a face, the
        # contact reached at a corner): that ray, from the sides that nearly coincide
        return _touching(ca, cb, nx, ny)
    mx, my = _bisector(c)
    if ca is not None and cb is not None and not (_within(mx, my, ca)
                                                  and _within(mx, my, cb)):
        # two half-planes that meet in two opposite rays (two segments, or boxes of
        # zero width, lying along one line): no cone between them, the face's stays
        return nx, ny
    return mx, my
