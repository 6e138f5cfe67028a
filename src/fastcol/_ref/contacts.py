"""Contacts: the normal, depth and contact points of two overlapping or touching shapes.

Every shape is a convex *core* grown by a radius: a circle is a point core, a capsule
a segment core (a point when its ends coincide), a segment the same with radius 0, and
an AABB, OBB or Polygon is its own vertex ring with radius 0.  Two shapes meet in one
of two ways:

* **cores apart** (only when a shape is round; core distance ``d > REL * size``, or
  any ``d > 0`` between two point cores): the normal is the unit vector between the
  cores' closest points, ``depth = ra + rb - d`` (0.0 when touching), and the contact
  point lies midway between the two surfaces on that line.  When both cores meet in
  parallel edges (two parallel capsules, a capsule beside a box face) the contact is
  the stretch where the edges overlap: 2 points, its ends, midway between the
  surfaces.  Closer cores than ``REL * size`` count as touching (next case): a closest
  point inside an edge is rounded at the scale of the coordinates, so the direction
  between such cores would be noise.
* **cores crossing or touching** (``d == 0``; every convex-convex pair): the
  smallest translation runs along a face normal of the Minkowski difference of the
  cores, so the depth is the least overlap over the face normals of both cores (a
  polygon's edge normals, a box's two axes both ways, the two sides of a segment core)
  plus ``ra + rb``.  The face that gives it is the *reference* face; the other shape's
  most anti-parallel face (or its segment or point core) is the *incident* feature,
  clipped to the reference face's extent.  The clipped points that penetrate (their
  separation from the reference surface is at most ``REL * size``) are kept, 1 or 2
  (the deeper one if rounding left none), each moved midway between the surfaces.

Rules where the contract leaves a choice (the same in both backends):

* Ties between faces: the first shape's faces win unless the second shape's best face
  is shallower by more than ``REL * size`` (``size`` = the largest local coordinate of
  either core plus both radii), as Box2D does, so contacts do not flicker between
  faces; within one shape the first face in ring order wins exact ties.
* Two coincident point cores (concentric circles, a circle centred on a zero-length
  capsule) have no direction at all: the normal is (1.0, 0.0) in the canonical frame,
  so ``(-1.0, 0.0)`` when the arguments come in the other order.
* Edges count as parallel when ``|edge . normal| <= REL * (|ex| + |ey|)``.
* No tolerance is an absolute length: ``REL`` is relative (2**-33, about 1.2e-10).

No contact exactly when ``collide`` is False.  Two round shapes run collide's test
first; with a convex shape the contact's own work is collide's test: a face's depth is
measured in the separating axis test's arithmetic (a box's least gap in its own frame,
an edge's largest cross product with the other's vertices over its length), and a
round core's nearest edge is searched as ``round_convex_collide`` searches it, so the
verdict is read from them rather than computed twice.

All work is in the local coordinates of the canonical pair (see ``queries``), shifted
back at the end.  Mirrored operation for operation in ``_ext/contacts.pyx``.
"""

from __future__ import annotations

import math

from .geometry import UNDERFLOW_SCALE, segment_segment
from .narrowphase import (
    box_apart,
    box_gaps,
    box_normal,
    convex_local,
    edge_apart,
    edge_reach,
    nearest_edge,
    point_in_convex,
)
from .queries import _canonical, _check, _core, _frame, collide_canonical
from .records import Contact
from .shapes import AABB_KIND, CIRCLE, OBB_KIND, SEGMENT

REL = 2.0 ** -33


class _Core:
    """A convex core in local coordinates: 1 vertex (point), 2 (segment) or a ring.

    Boxes (``box``: their Convex, else None) take their face normals from their axes
    ``(cos, sin)``, so a box of zero width still has both, and measure their faces in
    their own frame as the separating axis test does; other cores compute normals
    from their edges.
    """

    __slots__ = ("n", "xs", "ys", "box", "cos", "sin", "r")

    def __init__(self, n, xs, ys, box, cos, sin, r):
        self.n = n
        self.xs = xs
        self.ys = ys
        self.box = box
        self.cos = cos
        self.sin = sin
        self.r = r


def _round_core(ax, ay, bx, by, r):
    ex = bx - ax
    ey = by - ay
    if ex * ex + ey * ey == 0.0:
        # a zero-length core (as segment_segment decides it) is a point
        return _Core(1, [ax], [ay], None, 0.0, 0.0, r)
    return _Core(2, [ax, bx], [ay, by], None, 0.0, 0.0, r)


def _convex_core(cv):
    if cv.kind == AABB_KIND:
        return _Core(4, cv.xs, cv.ys, cv, 1.0, 0.0, 0.0)
    if cv.kind == OBB_KIND:
        return _Core(4, cv.xs, cv.ys, cv, cv.cos, cv.sin, 0.0)
    return _Core(len(cv.xs), cv.xs, cv.ys, None, 0.0, 0.0, 0.0)


def _unit_normal(ex, ey, length):
    """``(nx, ny)``: the outward unit normal of an edge ``(ex, ey)`` of length > 0."""
    return ey / length, (0.0 - ex) / length


def _normal(c, k):
    """``(ok, nx, ny)``: the outward unit normal of face k (vertex k to k + 1)."""
    if c.box is not None:
        return (True,) + box_normal(c.cos, c.sin, k)
    j = k + 1 if k + 1 < c.n else 0
    ex = c.xs[j] - c.xs[k]
    ey = c.ys[j] - c.ys[k]
    length = math.sqrt(ex * ex + ey * ey)
    if length == 0.0:
        # an edge whose squared length underflowed has no direction
        return False, 0.0, 0.0
    return (True,) + _unit_normal(ex, ey, length)


# the faces of a ring (not a box) are climbed (_climb) against rings of this many
# vertices or more; against fewer, every vertex is taken (edge_reach).  A rule of the
# algorithm, not a speed setting: a climb can stop a hair short of the largest product,
# so a depth's last bits depend on which search ran, and both backends follow it
_CLIMB_RING = 9


def _climb(x0, y0, ex, ey, xs, ys, at):
    """``(top, at)``: edge_reach's largest cross product over a ring's vertices, climbed.

    The vertex of the largest cross product with an edge is the ring's support point
    against the edge's outward normal; as the edges of a convex ring turn
    counter-clockwise, it moves forward along the other ring.  So the search starts
    at ``at``, the previous edge's vertex, and steps forward while the products do
    not fall: a few products an edge instead of one for every vertex (``at < 0``: the
    first edge, every vertex).  In exact arithmetic the products rise and fall once
    around a convex ring, so the climb stops at the largest.  Rounding can make a
    run of nearly equal products dip and stop the climb a hair short of it: the
    depth tolerates that (both backends climb alike); the verdict ``apart`` is taken
    from exact signs at every vertex (``edge_apart``).  Equal products do not stop the
    climb: a ring written into a PolygonArray may repeat a vertex, a flat run in the
    middle of the rise.
    """
    m = len(xs)
    if at < 0:
        at = 0
        top = ex * (ys[0] - y0) - ey * (xs[0] - x0)
        for k in range(1, m):
            c = ex * (ys[k] - y0) - ey * (xs[k] - x0)
            if c > top:
                top = c
                at = k
        return top, at
    k = at
    top = ex * (ys[k] - y0) - ey * (xs[k] - x0)
    # at most once round the ring (every product equal: a ring that is one point)
    for _ in range(m - 1):
        k = k + 1 if k + 1 < m else 0
        c = ex * (ys[k] - y0) - ey * (xs[k] - x0)
        if not c >= top:
            break
        top = c
        at = k
    return top, at


def _best_face(s, o, rr, decide=False):
    """``(depth, face, nx, ny, apart)`` of the shallowest face of core s against core o.

    ``apart``: whether a face has every vertex of o strictly outside it.  Each face is
    measured in the separating axis test's own arithmetic (a box's gaps in its frame,
    an edge's cross products with o's vertices), so for two convex shapes ``apart``
    of either is exactly that test's verdict, and ``contact`` need not run it first.
    With ``decide``, a ring stops at its first separating face (face -1, and only
    ``apart`` means anything: the caller needs no more).
    """
    best = math.inf
    face = -1
    apart = False
    if s.n < 2:
        return best, face, 0.0, 0.0, apart
    if s.box is not None:
        # a face's depth is rr less the least gap beyond it, the faces in ring order
        # (bottom, right, top, left)
        right, left, top, bottom = box_gaps(s.box, o.xs, o.ys)
        if s.box.kind == AABB_KIND:
            # differences of coordinates: their signs are exact
            apart = right > 0.0 or left > 0.0 or top > 0.0 or bottom > 0.0
        else:
            apart = any(box_apart(s.box, k, o.xs, o.ys) for k in range(4))
        for k, gap in enumerate((bottom, right, top, left)):
            depth = rr - gap
            if depth < best:
                best = depth
                face = k
    else:
        # a face's depth is rr + (the largest cross product of its edge with o's
        # vertices) / (the edge's length); a face of zero length has no direction
        # (but separates nothing)
        xs = s.xs
        ys = s.ys
        at = -1  # o's vertex of the largest cross product with the previous edge
        for k in range(s.n):
            j = k + 1 if k + 1 < s.n else 0
            x0 = xs[k]
            y0 = ys[k]
            ex = xs[j] - x0
            ey = ys[j] - y0
            if s.n >= 3 and o.n >= _CLIMB_RING:
                top, at = _climb(x0, y0, ex, ey, o.xs, o.ys, at)
                if top < 0.0:
                    # the largest of them all, where the climb may have stopped short
                    top = edge_reach(x0, y0, ex, ey, o.xs, o.ys)
            else:
                top = edge_reach(x0, y0, ex, ey, o.xs, o.ys)
            if edge_apart(x0, y0, xs[j], ys[j], o.xs, o.ys):
                # the separating axis test's verdict, by exact signs
                apart = True
                if decide:
                    return best, -1, 0.0, 0.0, apart
            length = math.sqrt(ex * ex + ey * ey)
            if length == 0.0:
                continue
            depth = rr + top / length
            if depth < best:
                best = depth
                face = k
    if face < 0:
        return best, face, 0.0, 0.0, apart
    _, nx, ny = _normal(s, face)
    return best, face, nx, ny, apart


def _size(a, b):
    m = a.r + b.r
    for c in (a, b):
        for k in range(c.n):
            v = abs(c.xs[k])
            if v > m:
                m = v
            v = abs(c.ys[k])
            if v > m:
                m = v
    return m


def _overlap(a, b, decide=False):
    """Contact of two cores that cross or touch: least penetration, clipped manifold.

    With ``decide`` (two convex shapes), None when a face separates them: the faces
    are measured as the separating axis test measures them, so this is its verdict.
    """
    rr = a.r + b.r
    # deciding, a face of a that separates settles it without b's faces
    da, fa, ax, ay, apart_a = _best_face(a, b, rr, decide)
    if decide and apart_a:
        return None
    db, fb, bx, by, apart_b = _best_face(b, a, rr, decide)
    if decide and apart_b:
        return None
    tol = REL * _size(a, b)
    if fa < 0 and fb < 0:
        # two coincident points: no direction is better, take the fixed one
        px = a.xs[0] + (a.r - b.r) * 0.5
        py = a.ys[0]
        return 1.0, 0.0, rr, 1, px, py, px, py
    if fa >= 0 and (fb < 0 or not db < da - tol):
        # a's face is the reference (favoured on near ties)
        depth = da
        nx = ax
        ny = ay
        r = _manifold(a, fa, ax, ay, b, tol)
    else:
        depth = db
        nx = 0.0 - bx
        ny = 0.0 - by
        r = _manifold(b, fb, bx, by, a, tol)
    if not depth > 0.0:
        # touching (or a rounding hair beyond it, which collide counted as touching)
        depth = 0.0
    return (nx, ny, depth) + r


def _incident_face(o, mx, my):
    """The face of core o (two or more vertices) most anti-parallel to the normal m.

    Only a face whose edge turns the normal's way (edge x m < 0: its outward normal
    dotted with m, times its length, is negative) can be the most anti-parallel, so
    only those are normalized (one face of a segment, about half of a ring's).  A box
    (its normals cost nothing), or a ring none of whose faces turns that way, has
    every face compared.  The least dot product wins, the first on exact ties.  (That
    is the rule, and the compiled backend follows it: the sign test and the dot
    product round differently, so a face within rounding of parallel to m could in
    principle lose to one that comparing every face would pick.  No such case turned
    up in 33,008 random and adversarial contacts.)
    """
    best = math.inf
    f = 0
    found = False
    if o.box is None:
        for j in range(o.n):
            g = j + 1 if j + 1 < o.n else 0
            ex = o.xs[g] - o.xs[j]
            ey = o.ys[g] - o.ys[j]
            if ey * mx - ex * my < 0.0:
                length = math.sqrt(ex * ex + ey * ey)
                if length > 0.0:
                    nx, ny = _unit_normal(ex, ey, length)
                    d = nx * mx + ny * my
                    if d < best:
                        best = d
                        f = j
                        found = True
    if not found:
        for j in range(o.n):
            ok, nx, ny = _normal(o, j)
            if not ok:
                continue
            d = nx * mx + ny * my
            if d < best:
                best = d
                f = j
    return f


def _manifold(s, k, mx, my, o, tol):
    """``(count, p0x, p0y, p1x, p1y)``: o's incident feature clipped to s's face k."""
    # the incident feature: o's face most anti-parallel to the normal, or o's core
    if o.n == 1:
        i0x = i1x = o.xs[0]
        i0y = i1y = o.ys[0]
    else:
        f = _incident_face(o, mx, my)
        g = f + 1 if f + 1 < o.n else 0
        i0x = o.xs[f]
        i0y = o.ys[f]
        i1x = o.xs[g]
        i1y = o.ys[g]
    kn = k + 1 if k + 1 < s.n else 0
    sx = s.xs[k]
    sy = s.ys[k]
    # tangent coordinates along the reference face, from its first vertex
    tx = 0.0 - my
    ty = mx
    hi = tx * (s.xs[kn] - sx) + ty * (s.ys[kn] - sy)
    lo = 0.0
    if hi < lo:
        lo = hi
        hi = 0.0
    t0 = tx * (i0x - sx) + ty * (i0y - sy)
    t1 = tx * (i1x - sx) + ty * (i1y - sy)
    keep = True
    if t0 == t1:
        # the incident feature is a point or stands square to the face
        l0 = 0.0
        l1 = 1.0
        keep = lo <= t0 <= hi
    else:
        ua = (lo - t0) / (t1 - t0)
        ub = (hi - t0) / (t1 - t0)
        if ub < ua:
            ua, ub = ub, ua
        l0 = ua if ua > 0.0 else 0.0
        l1 = ub if ub < 1.0 else 1.0
        keep = l0 <= l1
    ex = i1x - i0x
    ey = i1y - i0y
    if keep:
        c0x, c0y = _lerp(l0, i0x, i0y, i1x, i1y, ex, ey)
        c1x, c1y = _lerp(l1, i0x, i0y, i1x, i1y, ex, ey)
    else:
        # rounding left nothing inside the face's extent: both ends, the deeper wins
        c0x, c0y, c1x, c1y = i0x, i0y, i1x, i1y
    rs = s.r
    ri = o.r
    s0 = mx * (c0x - sx) + my * (c0y - sy) - rs - ri
    s1 = mx * (c1x - sx) + my * (c1y - sy) - rs - ri
    k0 = keep and s0 <= tol
    k1 = keep and s1 <= tol
    if k0 and k1 and (c0x != c1x or c0y != c1y):
        p0x, p0y = _mid(c0x, c0y, s0, ri, mx, my)
        p1x, p1y = _mid(c1x, c1y, s1, ri, mx, my)
        return 2, p0x, p0y, p1x, p1y
    if k1 and not k0 or not (k0 or k1) and s1 < s0:
        p0x, p0y = _mid(c1x, c1y, s1, ri, mx, my)
    else:
        p0x, p0y = _mid(c0x, c0y, s0, ri, mx, my)
    return 1, p0x, p0y, p0x, p0y


def _lerp(u, x0, y0, x1, y1, ex, ey):
    if u == 0.0:
        return x0, y0
    if u == 1.0:
        return x1, y1
    return x0 + u * ex, y0 + u * ey


def _mid(cx, cy, sep, ri, mx, my):
    """Midway between the surfaces, from a clipped incident core point c."""
    h = ri + sep * 0.5
    return cx - mx * h, cy - my * h


def _parallel(x0, y0, x1, y1, nx, ny):
    """Whether edge (x0, y0)-(x1, y1) is square to the normal (relative tolerance)."""
    ex = x1 - x0
    ey = y1 - y0
    return abs(ex * nx + ey * ny) <= REL * (abs(ex) + abs(ey))


def _apart(d2, ra, rb, qax, qay, qbx, qby, ea, eb, eb2):
    """Contact of two round shapes (or a round and a convex one) whose cores are apart.

    ``q`` are the cores' closest points; ``ea``/``eb`` the edge each lies on, or None
    for a point core; ``eb2`` (or None) the other edge of a polygon at a vertex ``qb``.
    """
    d = math.sqrt(d2)
    nx = qbx - qax
    ny = qby - qay
    if nx * nx + ny * ny == 0.0:
        # cores nearer than their squares can tell (d2 is the smallest float): the
        # difference scaled (exactly) gives the direction
        nx = nx * UNDERFLOW_SCALE
        ny = ny * UNDERFLOW_SCALE
        length = math.sqrt(nx * nx + ny * ny)
        nx = nx / length
        ny = ny / length
    else:
        nx = nx / d
        ny = ny / d
    depth = (ra + rb) - d
    if not depth > 0.0:
        depth = 0.0
    e = None
    if ea is not None and _parallel(*ea, nx, ny):
        if eb is not None and _parallel(*eb, nx, ny):
            e = eb
        elif eb2 is not None and _parallel(*eb2, nx, ny):
            # the nearest point is a corner, and the face parallel to a is its other edge
            e = eb2
    if e is not None:
        eb = e
        # parallel edges: the contact is the stretch where they overlap
        tx = 0.0 - ny
        ty = nx
        a0 = tx * ea[0] + ty * ea[1]
        a1 = tx * ea[2] + ty * ea[3]
        b0 = tx * eb[0] + ty * eb[1]
        b1 = tx * eb[2] + ty * eb[3]
        if a1 < a0:
            a0, a1 = a1, a0
        if b1 < b0:
            b0, b1 = b1, b0
        lo = a0 if a0 > b0 else b0
        hi = a1 if a1 < b1 else b1
        if lo < hi:
            h = ((nx * qax + ny * qay + ra) + (nx * qbx + ny * qby - rb)) * 0.5
            return (nx, ny, depth, 2, tx * lo + nx * h, ty * lo + ny * h,
                    tx * hi + nx * h, ty * hi + ny * h)
    px = ((qax + nx * ra) + (qbx - nx * rb)) * 0.5
    py = ((qay + ny * ra) + (qby - ny * rb)) * 0.5
    return nx, ny, depth, 1, px, py, px, py


def _clear(d2, a, b):
    """Whether cores ``sqrt(d2)`` apart are clearly apart, beyond ``REL * size``.

    A closest point inside a segment or an edge carries rounding of the order of the
    coordinates, so the direction between cores closer than that is noise: such cores
    count as touching and get the least-penetration answer, whose direction comes from
    the faces.  (Two point cores have exact closest points and never need this.)
    """
    return math.sqrt(d2) > REL * _size(a, b)


def _edge(c):
    return (c.xs[0], c.ys[0], c.xs[1], c.ys[1]) if c.n == 2 else None


def _round_round(ca, cb, seg):
    """``(nx, ny, depth, count, p0x, p0y, p1x, p1y)``, local, of two round shapes that
    collide: their cores ``ca``, ``cb`` (``_core``) and ``seg``, the cores'
    ``segment_segment`` (collide's own)."""
    d2, s, t, pax, pay, pbx, pby = seg
    ka = _round_core(*ca)
    kb = _round_core(*cb)
    if d2 > 0.0 and (ka.n == 1 and kb.n == 1 or _clear(d2, ka, kb)):
        return _apart(d2, ca[4], cb[4], pax, pay, pbx, pby, _edge(ka), _edge(kb), None)
    if ka.n == 2 and kb.n == 2:
        return _segment_cores(ka, kb)
    return _overlap(ka, kb)


def _segment_cores(ka, kb):
    """``_round_round``'s contact of two segment cores that cross or touch."""
    return _overlap(ka, kb)


def _round_convex(ca, cv):
    """The contact, local, of a round shape (its core ``ca``) and a convex one (``cv``,
    ``convex_local``), or None when they do not collide: the nearest-edge search is
    ``round_convex_collide``'s own, so its verdict is collide's."""
    ax, ay, bx, by, r = ca
    if not point_in_convex(cv, ax, ay):
        xs = cv.xs
        ys = cv.ys
        n = len(xs)
        tested, best, edge, pax, pay, pbx, pby = nearest_edge(ax, ay, bx, by, cv)
        if tested and not math.sqrt(best) <= r:
            # collide's verdict (round_convex_collide searches the same edges the
            # same way): every facing edge is further than r (exact signs leave
            # no core without a facing edge unless its first end is inside)
            return None
        ka = _round_core(ax, ay, bx, by, r)
        if edge >= 0 and best > 0.0 and _clear(best, ka, _convex_core(cv)):
            j = edge + 1 if edge + 1 < n else 0
            # at a corner, the corner's other edge may be the one parallel to a
            eb2 = None
            if pbx == xs[j] and pby == ys[j]:
                k = j + 1 if j + 1 < n else 0
                eb2 = (xs[j], ys[j], xs[k], ys[k])
            elif pbx == xs[edge] and pby == ys[edge]:
                k = edge - 1 if edge > 0 else n - 1
                eb2 = (xs[k], ys[k], xs[edge], ys[edge])
            return _apart(best, r, 0.0, pax, pay, pbx, pby, _edge(ka),
                          (xs[edge], ys[edge], xs[j], ys[j]), eb2)
    return _overlap(_round_core(ax, ay, bx, by, r), _convex_core(cv))


def _point_convex(ca, cv):
    """``_round_convex`` of a point core (a circle)."""
    return _round_convex(ca, cv)


def _rings_overlap(ka, kb, decide):
    """``_overlap`` of two vertex rings."""
    return _overlap(ka, kb, decide)


def _convex_convex(a, b, ox, oy):
    """The contact, local, of two convex shapes in canonical order, or None when they
    do not collide (the faces' gaps are the separating axis test's own)."""
    ka = _convex_core(convex_local(a, ox, oy))
    kb = _convex_core(convex_local(b, ox, oy))
    return _rings_overlap(ka, kb, True)


def contact_views(a, b):
    """``(nx, ny, depth, count, p0x, p0y, p1x, p1y)`` of two shapes in either order,
    in world coordinates, the normal from ``a`` to ``b``; None when they do not
    collide."""
    p, q, swapped = _canonical(a, b)
    ox, oy = _frame(p, q)
    if q.kind <= SEGMENT:
        # two round shapes: collide's own test decides; the cores' segment_segment,
        # formed again here the obvious way, seeds the contact (the compiled twin
        # forms it once, for both)
        if not collide_canonical(p, q):
            return None
        ca = _core(p, ox, oy)
        cb = _core(q, ox, oy)
        found = _round_round(ca, cb, segment_segment(
            ca[0], ca[1], ca[2], ca[3], cb[0], cb[1], cb[2], cb[3]))
    elif p.kind <= SEGMENT:
        # a round shape and a convex one: the nearest-edge search decides as collide
        # does (round_convex_collide)
        kernel = _point_convex if p.kind == CIRCLE else _round_convex
        found = kernel(_core(p, ox, oy), convex_local(q, ox, oy))
    else:
        found = _convex_convex(p, q, ox, oy)
    if found is None:
        return None
    nx, ny, depth, count, p0x, p0y, p1x, p1y = found
    if swapped:
        nx = 0.0 - nx
        ny = 0.0 - ny
    p0x = p0x + ox
    p0y = p0y + oy
    if count == 2:
        return nx, ny, depth, count, p0x, p0y, p1x + ox, p1y + oy
    return nx, ny, depth, count, p0x, p0y, 0.0, 0.0


def contact_circles(a, b):
    """``contact_views`` of two circles."""
    return contact_views(a, b)


def contact(a, b):
    """``contact`` of two shapes (``fastcol.contact`` documents it)."""
    _check(a, b)
    if a.kind == CIRCLE and b.kind == CIRCLE:
        found = contact_circles(a, b)
    else:
        found = contact_views(a, b)
    if found is None:
        return None
    nx, ny, depth, count, p0x, p0y, p1x, p1y = found
    if count == 2:
        return Contact((nx, ny), depth, ((p0x, p0y), (p1x, p1y)))
    return Contact((nx, ny), depth, ((p0x, p0y),))
