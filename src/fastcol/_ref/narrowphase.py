"""Pair kernels: overlap and closest points for round and convex shapes.

Every pair of the six shapes is one of three families:

* round–round: a circle is a point core, a capsule or segment a segment core, each with
  a radius; the answer follows from the closest points of the two cores.
* round–convex: the core against an AABB, OBB or Polygon.  They overlap when the core's
  first end lies inside the convex shape, or when the core comes within ``r`` of an edge
  (a core that enters the shape crosses an edge, at distance 0).
* convex–convex: the separating axis test decides overlap (touching counts); separated
  convex shapes have their closest pair at a vertex of one and an edge of the other.

All coordinates here are local: the caller subtracted an origin on the first shape, so
unit-sized shapes at 1e6 keep their precision.  Mirrored operation for operation in
``_ext/narrowphase.pyx``.
"""

from __future__ import annotations

import math

from .geometry import (
    APART,
    TINY,
    UNDERFLOW_SCALE,
    closest_on_segment,
    dist2,
    segment_segment,
    segment_segment_d2,
)
from .predicates import orient_decide, orient_sign, side_sign
from .shapes import AABB_KIND, OBB_KIND

# an OBB thinner than this fraction of its corners' magnitude (the centre's local
# coordinates plus both half extents) is taken at zero thickness: its corners, rounded,
# could otherwise make a crossed quadrilateral, and past it they stay convex
THIN = 2.0 ** -48

# ------------------------------------------------------------------ convex shapes


class Convex:
    """A convex shape in local coordinates: its vertex ring plus what its own tests need."""

    __slots__ = ("kind", "xs", "ys", "cx", "cy", "cos", "sin", "hw", "hh")

    def __init__(self, kind, xs, ys):
        self.kind = kind
        self.xs = xs
        self.ys = ys


def convex_local(shape, ox, oy):
    """The local-coordinate Convex of an AABB, OBB or Polygon, origin ``(ox, oy)``."""
    kind = shape.kind
    if kind == AABB_KIND:
        x0 = shape._min_x - ox
        y0 = shape._min_y - oy
        x1 = shape._max_x - ox
        y1 = shape._max_y - oy
        return Convex(kind, [x0, x1, x1, x0], [y0, y0, y1, y1])
    if kind == OBB_KIND:
        cx = shape._cx - ox
        cy = shape._cy - oy
        c = shape._cos
        s = shape._sin
        hw, hh = box_extents(cx, cy, shape._half_w, shape._half_h)
        hx = hw * c
        hy = hw * s
        vx = hh * s
        vy = hh * c
        cv = Convex(
            kind,
            [cx - hx + vx, cx + hx + vx, cx + hx - vx, cx - hx - vx],
            [cy - hy - vy, cy + hy - vy, cy + hy + vy, cy - hy + vy],
        )
        cv.cx = cx
        cv.cy = cy
        cv.cos = c
        cv.sin = s
        cv.hw = hw
        cv.hh = hh
        return cv
    return Convex(kind, [x - ox for x in shape._xs], [y - oy for y in shape._ys])


def box_extents(cx, cy, hw, hh):
    """An OBB's half extents as its corners are computed: a side thinner than ``THIN``
    of the corners' magnitude is taken at zero thickness."""
    m = max(abs(cx), abs(cy)) + hw + hh
    if hh < THIN * m:
        hh = 0.0
    if hw < THIN * m:
        hw = 0.0
    return hw, hh


def box_normal(c, s, k):
    """The outward unit normal of a box's side k (bottom, right, top, left) from its
    axis ``(c, s)``: ``(nx, ny)``."""
    if k == 0:
        return s, 0.0 - c
    if k == 1:
        return c, s
    if k == 2:
        return 0.0 - s, c
    return 0.0 - c, 0.0 - s


def box_side(cv, k, px, py):
    """Which side of an OBB's side k (corner k to corner k + 1) the point p lies on,
    exactly: 1 inner, 0 on its line, -1 outer.

    The sides are the lines through the corners as computed; a side whose corners
    coincide (a box of zero width) is the line through its corner square to the box's
    axis.
    """
    j = k + 1 if k < 3 else 0
    x0 = cv.xs[k]
    y0 = cv.ys[k]
    if x0 != cv.xs[j] or y0 != cv.ys[j]:
        return orient_sign(x0, y0, cv.xs[j], cv.ys[j], px, py)
    nx, ny = box_normal(cv.cos, cv.sin, k)
    return side_sign(x0, y0, 0.0 - ny, nx, px, py)


def point_in_convex(cv, px, py):
    """Whether p lies inside or on the boundary of the convex shape (exact signs)."""
    xs = cv.xs
    ys = cv.ys
    if cv.kind == AABB_KIND:
        return xs[0] <= px <= xs[1] and ys[0] <= py <= ys[2]
    if cv.kind == OBB_KIND:
        for k in range(4):
            if box_side(cv, k, px, py) < 0:
                return False
        return True
    n = len(xs)
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if orient_sign(xs[i], ys[i], xs[j], ys[j], px, py) < 0:
            return False
    return True


def edge_reach(x0, y0, ex, ey, pxs, pys):
    """The largest cross product ``ex * (y - y0) - ey * (x - x0)`` over the points.

    Negative exactly when every point lies strictly outside the edge from (x0, y0)
    along (ex, ey).  The separating axis test and contact's polygon faces both measure
    with this, so their verdicts agree to the bit.
    """
    top = ex * (pys[0] - y0) - ey * (pxs[0] - x0)
    for k in range(1, len(pxs)):
        c = ex * (pys[k] - y0) - ey * (pxs[k] - x0)
        if c > top:
            top = c
    return top


def edge_apart(x0, y0, x1, y1, pxs, pys):
    """Whether every point lies strictly outside the edge from (x0, y0) to (x1, y1)
    (strictly to its right), by exact signs: the separating axis test's verdict."""
    ex = x1 - x0
    ey = y1 - y0
    for x, y in zip(pxs, pys):
        if orient_decide(ex * (y - y0), ey * (x - x0), x0, y0, x1, y1, x, y) >= 0:
            return False
    return True


def box_apart(cv, k, pxs, pys):
    """Whether every point lies strictly outside side k of the OBB cv (exact signs)."""
    for x, y in zip(pxs, pys):
        if box_side(cv, k, x, y) >= 0:
            return False
    return True


def separation(cv, pxs, pys):
    """How far one of cv's own axes puts every point outside cv: > 0.0 if it does.

    Whether an axis separates is decided by exact signs: an AABB's side by comparing
    coordinates, an OBB's or a polygon's by orientation against the side as computed
    (``box_side``, ``edge_apart``).  The value is the gap along the first separating
    axis found (unit axes for boxes, in the box's frame; edge normals for a polygon), a
    lower bound of the distance, at least ``APART`` where the rounded gap says less;
    0.0 means no axis of cv separates the points.  Boxes use their two axes (never an
    edge normal: a box of zero width has zero-length edges but still both axes); a
    polygon uses its edges.  The verdict depends on the exact signs alone, so the
    order in which they run changes nothing.
    """
    if cv.kind == AABB_KIND:
        # the first positive of the four gaps (differences of coordinates: exact signs)
        for gap in box_gaps(cv, pxs, pys):
            if gap > 0.0:
                return gap
        return 0.0
    if cv.kind == OBB_KIND:
        # right, left, top and bottom, as box_gaps orders them
        for gap, k in zip(box_gaps(cv, pxs, pys), (1, 3, 2, 0)):
            if box_apart(cv, k, pxs, pys):
                return gap if gap > 0.0 else APART
        return 0.0
    xs = cv.xs
    ys = cv.ys
    n = len(xs)
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if edge_apart(xs[i], ys[i], xs[j], ys[j], pxs, pys):
            # every point strictly outside this edge: the nearest one gives the gap
            ex = xs[j] - xs[i]
            ey = ys[j] - ys[i]
            worst = edge_reach(xs[i], ys[i], ex, ey, pxs, pys)
            ee = ex * ex + ey * ey
            if ee < 2.2250738585072014e-308:
                # an edge so short its squared length underflows (a sliver of a ring):
                # the gap's numerator and the edge scaled, exactly
                worst = worst * UNDERFLOW_SCALE
                ex, ey = ex * UNDERFLOW_SCALE, ey * UNDERFLOW_SCALE
                ee = ex * ex + ey * ey
            gap = -worst / math.sqrt(ee)
            return gap if gap > 0.0 else APART
    return 0.0


def box_gaps(cv, pxs, pys):
    """The least gaps of the points beyond the right, left, top and bottom sides of box cv.

    Measured in the box's own frame (an AABB's coordinates, an OBB's axes about its
    centre).  The separating axis test and contact's box faces both measure with this.
    An AABB's gaps are differences of coordinates, whose signs are exact; an OBB's are
    rounded, so the verdict on an OBB's side is ``box_apart``'s, and these only measure.
    """
    if cv.kind == AABB_KIND:
        us, vs = pxs, pys
        u0, u1, v0, v1 = cv.xs[0], cv.xs[1], cv.ys[0], cv.ys[2]
    else:
        us = []
        vs = []
        for x, y in zip(pxs, pys):
            dx = x - cv.cx
            dy = y - cv.cy
            us.append(dx * cv.cos + dy * cv.sin)
            vs.append(dy * cv.cos - dx * cv.sin)
        u0, u1, v0, v1 = -cv.hw, cv.hw, -cv.hh, cv.hh
    return (min([u - u1 for u in us]), min([u0 - u for u in us]),
            min([v - v1 for v in vs]), min([v0 - v for v in vs]))


def convex_gap(a, b):
    """Separating axis test: a lower bound of the distance, 0.0 when they overlap or touch."""
    gap = separation(a, b.xs, b.ys)
    if gap > 0.0:
        return gap
    return separation(b, a.xs, a.ys)


def convex_overlap(a, b):
    """Separating axis test; shapes that touch overlap."""
    return convex_gap(a, b) == 0.0


def _vertices_to_edges(src, dst, best, result, flip, prune, nx, ny, nn, lim, sgn):
    """Update the nearest (vertex of src, point on an edge of dst) pair.

    With ``prune``, pairs that cannot beat ``best`` are skipped, each for an exact reason:
    a vertex whose gap ``lim - sgn * (n . p)`` along the direction n between the shapes
    exceeds the best distance; an edge that has the vertex strictly on its inner side
    (the nearest point of a convex shape to an outside point lies on an edge the point
    is outside of, or on the line of); an edge whose line is already no nearer than the
    best pair (a segment is never nearer than its line).
    """
    for k in range(len(src.xs)):
        px = src.xs[k]
        py = src.ys[k]
        if prune:
            gap = lim - sgn * (nx * px + ny * py)
            if gap > 0.0 and gap * gap > best * nn:
                continue
        best, result, seen = _vertex_to_edges(px, py, dst, best, result, flip, prune)
        if not seen:
            # no edge of positive length faces the vertex (dst is a point: a box of
            # zero extent), so every edge is a candidate
            best, result, seen = _vertex_to_edges(px, py, dst, best, result, flip, False)
    return best, result


def _vertex_to_edges(px, py, dst, best, result, flip, prune):
    """The vertex p against each edge of dst; also whether an edge of positive length faces p."""
    xs = dst.xs
    ys = dst.ys
    n = len(xs)
    seen = False
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if prune:
            ex = xs[j] - xs[i]
            ey = ys[j] - ys[i]
            left = ex * (py - ys[i])
            right = ey * (px - xs[i])
            c = left - right
            if orient_decide(left, right, xs[i], ys[i], xs[j], ys[j], px, py) > 0:
                # strictly on the inner side (exact sign)
                continue
            e2 = ex * ex + ey * ey
            if e2 > 0.0:
                # a zero-length edge (the end of a flat box) faces nothing: a flat
                # box's two long edges lie on one line, and a vertex on that line can
                # round to the inner side of both; with no edge facing it, the caller
                # tries every edge
                seen = True
                if c * c >= best * e2:
                    continue
        t, qx, qy = closest_on_segment(px, py, xs[i], ys[i], xs[j], ys[j])
        d2 = dist2(px, py, qx, qy)
        if d2 < best:
            best = d2
            result = (qx, qy, px, py) if flip else (px, py, qx, qy)
    return best, result, seen


def _mean(values):
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


def convex_inside_point(a, b):
    """A point inside both of two overlapping convex shapes."""
    for k in range(len(a.xs)):
        if point_in_convex(b, a.xs[k], a.ys[k]):
            return a.xs[k], a.ys[k]
    for k in range(len(b.xs)):
        if point_in_convex(a, b.xs[k], b.ys[k]):
            return b.xs[k], b.ys[k]
    # neither holds a corner of the other: their edges cross
    na = len(a.xs)
    nb = len(b.xs)
    for i in range(na):
        i2 = i + 1 if i + 1 < na else 0
        for j in range(nb):
            j2 = j + 1 if j + 1 < nb else 0
            r = segment_segment(a.xs[i], a.ys[i], a.xs[i2], a.ys[i2],
                                b.xs[j], b.ys[j], b.xs[j2], b.ys[j2])
            if r[0] == 0.0:
                return r[3], r[4]
    # not reached: overlapping convex shapes (exact signs) hold a vertex of one in the
    # other or cross at their edges.  Kept so a point is always returned: the nearest
    # pair, a vertex of either against the other's edges, and its point on b
    best, result = _vertices_to_edges(
        a, b, math.inf, (0.0, 0.0, 0.0, 0.0), False, False, 0.0, 0.0, 0.0, 0.0, 1.0
    )
    best, (pax, pay, pbx, pby) = _vertices_to_edges(
        b, a, best, result, True, False, 0.0, 0.0, 0.0, 0.0, 1.0
    )
    return pbx, pby


def _turn(xs, ys, k, px, py, dx, dy):
    """``d . (vertex k - p)``: <= 0.0 when the edge from p to vertex k turns away from d."""
    return dx * (xs[k] - px) + dy * (ys[k] - py)


def _prev(n, k):
    """The vertex before k in a ring of n."""
    return k - 1 if k > 0 else n - 1


def _next(n, k):
    """The vertex after k in a ring of n."""
    return k + 1 if k + 1 < n else 0


def _foot_on_edge(e, k, after_turns, o, ko):
    """The foot ``(rx, ry)`` of o's vertex v = ko on the edge of e at its vertex k that
    turns towards v (the edge after k if ``after_turns``, else the one before), when r
    lies inside that edge, v strictly outside its line, and v - r turns away from both
    of o's edges at v, which makes (r, v) the nearest pair; else None.
    """
    xs, ys, n = e.xs, e.ys, len(e.xs)
    oxs, oys, m = o.xs, o.ys, len(o.xs)
    vx, vy = oxs[ko], oys[ko]
    i = k if after_turns else _prev(n, k)
    j = _next(n, k) if after_turns else k
    x0, y0, x1, y1 = xs[i], ys[i], xs[j], ys[j]
    t, rx, ry = closest_on_segment(vx, vy, x0, y0, x1, y1)
    if (0.0 < t < 1.0
            and (x1 - x0) * (vy - y0) - (y1 - y0) * (vx - x0) < 0.0
            and _turn(oxs, oys, _prev(m, ko), vx, vy, vx - rx, vy - ry) >= 0.0
            and _turn(oxs, oys, _next(m, ko), vx, vy, vx - rx, vy - ry) >= 0.0):
        return rx, ry
    return None


def _certified(a, ka, b, kb):
    """The nearest pair of two separated convex shapes when it lies next to a's vertex
    ka and b's vertex kb, as ``(d2, pax, pay, pbx, pby)``; None when that is not shown.

    The optimality test of two convex sets: p on a and q on b are the nearest pair
    exactly when d = q - p lies in a's normal cone at p and -d in b's normal cone at q.
    At a vertex that cone is the directions that turn away from both of its edges (a
    zero-length edge of a flat box constrains nothing, as it should); inside an edge it
    is the edge's outward normal, which the perpendicular from a point outside its line
    has.  Tried: the two vertices, then, when one edge at one vertex turns towards the
    other, the other vertex against that edge.  Comparisons are false on NaN, so a NaN
    turn certifies nothing.
    """
    axs, ays, bxs, bys = a.xs, a.ys, b.xs, b.ys
    na = len(axs)
    nb = len(bxs)
    px, py, qx, qy = axs[ka], ays[ka], bxs[kb], bys[kb]
    dx = qx - px
    dy = qy - py
    a_prev = _turn(axs, ays, _prev(na, ka), px, py, dx, dy) <= 0.0
    a_next = _turn(axs, ays, _next(na, ka), px, py, dx, dy) <= 0.0
    b_prev = _turn(bxs, bys, _prev(nb, kb), qx, qy, dx, dy) >= 0.0
    b_next = _turn(bxs, bys, _next(nb, kb), qx, qy, dx, dy) >= 0.0
    if a_prev and a_next and b_prev and b_next:
        return dist2(px, py, qx, qy), px, py, qx, qy
    if a_prev != a_next:
        # q against a's edge that turns towards it
        foot = _foot_on_edge(a, ka, a_prev, b, kb)
        if foot is None:
            return None
        return dist2(qx, qy, foot[0], foot[1]), foot[0], foot[1], qx, qy
    if a_prev and a_next and b_prev != b_next:
        # p against b's edge that turns towards it
        foot = _foot_on_edge(b, kb, b_prev, a, ka)
        if foot is None:
            return None
        return dist2(px, py, foot[0], foot[1]), px, py, foot[0], foot[1]
    return None


def convex_convex_closest(a, b):
    """``(separation, pax, pay, pbx, pby)`` of two convex shapes (separation 0 if they overlap)."""
    gap = convex_gap(a, b)
    if gap == 0.0:
        px, py = convex_inside_point(a, b)
        return 0.0, px, py, px, py
    # the direction between the vertex means picks the pair of extreme vertices along
    # it, most often the nearest pair or next to it (_certified tells); otherwise it
    # seeds the best distance, which then rules out vertices lying further behind (an
    # exact filter for any direction)
    nx = _mean(b.xs) - _mean(a.xs)
    ny = _mean(b.ys) - _mean(a.ys)
    nn = nx * nx + ny * ny
    ka = 0
    max_a = nx * a.xs[0] + ny * a.ys[0]
    for k in range(1, len(a.xs)):
        v = nx * a.xs[k] + ny * a.ys[k]
        if v > max_a:
            max_a = v
            ka = k
    kb = 0
    min_b = nx * b.xs[0] + ny * b.ys[0]
    for k in range(1, len(b.xs)):
        v = nx * b.xs[k] + ny * b.ys[k]
        if v < min_b:
            min_b = v
            kb = k
    found = _certified(a, ka, b, kb)
    if found is not None:
        best, result = found[0], found[1:]
    else:
        # the pair of extreme vertices seeds the search of every (vertex, edge) pair
        best = dist2(a.xs[ka], a.ys[ka], b.xs[kb], b.ys[kb])
        result = (a.xs[ka], a.ys[ka], b.xs[kb], b.ys[kb])
        best, result = _vertices_to_edges(a, b, best, result, False, True, nx, ny, nn, min_b,
                                          1.0)
        best, result = _vertices_to_edges(b, a, best, result, True, True, nx, ny, nn, -max_a,
                                          -1.0)
    dist = math.sqrt(best)
    if dist < gap:
        # the corners rounded closer than the separating axis measured (or their
        # squared distance underflowed): the axis gap is the better lower bound, and
        # it keeps the distance positive exactly when the axis test says separated
        dist = gap
    return dist, result[0], result[1], result[2], result[3]


def interval_gap(a0, a1, b0, b1):
    """``(gap, pa, pb)`` of intervals [a0, a1] and [b0, b1] on one axis.

    A positive gap comes with the facing ends; overlapping intervals (gap 0.0) share
    the coordinate ``max(a0, b0)``.
    """
    if b0 > a1:
        return b0 - a1, a1, b0
    if a0 > b1:
        return a0 - b1, a0, b1
    m = a0 if a0 > b0 else b0
    return 0.0, m, m


def aabb_aabb_closest(a, b):
    """Closed form for two AABBs (local ``(x0, y0, x1, y1)`` tuples)."""
    gx, pax, pbx = interval_gap(a[0], a[2], b[0], b[2])
    gy, pay, pby = interval_gap(a[1], a[3], b[1], b[3])
    dist = math.sqrt(gx * gx + gy * gy)
    # the larger gap is a lower bound that survives when the squares underflow
    if dist < gx:
        dist = gx
    if dist < gy:
        dist = gy
    return dist, pax, pay, pbx, pby


# -------------------------------------------------------------------- round shapes


def round_result(d2, ra, rb, pax, pay, pbx, pby):
    """Separation and surface points of two round shapes from their cores' nearest points.

    ``d2`` is the squared distance between the core points ``pa`` and ``pb``.
    Separated: the points move from the cores onto the surfaces.  Overlapping or
    touching: one point inside both, on the segment between the core points.
    """
    dcore = math.sqrt(d2)
    sep = dcore - (ra + rb)
    if sep > 0.0:
        ux = (pbx - pax) / dcore
        uy = (pby - pay) / dcore
        return sep, pax + ux * ra, pay + uy * ra, pbx - ux * rb, pby - uy * rb
    if dcore <= ra:
        # b's core point is within a's radius
        return sep, pbx, pby, pbx, pby
    # a's surface point towards b is within b's radius
    ux = (pbx - pax) / dcore
    uy = (pby - pay) / dcore
    px = pax + ux * ra
    py = pay + uy * ra
    return sep, px, py, px, py


def round_round_closest(a, b):
    """Cores are ``(ax, ay, bx, by, r)`` tuples in local coordinates."""
    d2, s, t, pax, pay, pbx, pby = segment_segment(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3])
    return round_result(d2, a[4], b[4], pax, pay, pbx, pby)


def round_round_collide(a, b):
    d2 = segment_segment_d2(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3])
    return math.sqrt(d2) <= a[4] + b[4]


def point_box(px, py, x0, y0, x1, y1):
    """``(d2, edge, qx, qy)``: the point q of the box ``[x0, x1] x [y0, y1]`` nearest to
    a point p outside it, their squared distance and the edge q lies on.

    q is p clamped into the box, so each of its coordinates is p's own or the box's:
    exact.  ``d2`` is at least ``TINY`` (p is outside).  ``edge`` counts in
    ``convex_local``'s ring order (bottom 0, right 1, top 2, left 3); at a corner it is
    the lower of the corner's two edges, the one a search of the edges in ring order
    finds first.
    """
    qx = x0 if px < x0 else (x1 if px > x1 else px)
    qy = y0 if py < y0 else (y1 if py > y1 else py)
    dx = px - qx
    dy = py - qy
    d2 = dx * dx + dy * dy
    edge = 0 if py < y0 else (1 if px > x1 else (2 if py > y1 else 3))
    return (TINY if d2 == 0.0 else d2), edge, qx, qy


def circle_aabb_collide(cx, cy, r, x0, y0, x1, y1):
    """collide of the circle (cx, cy, r) and the box ``[x0, x1] x [y0, y1]``.

    The centre inside the box or on it (exact comparisons), or its distance to
    ``point_box``'s nearest point within ``r``.  Only differences of the coordinates
    enter, so any exact shift of the pair (the local frame, or none) gives this answer.
    """
    if x0 <= cx <= x1 and y0 <= cy <= y1:
        return True
    return math.sqrt(point_box(cx, cy, x0, y0, x1, y1)[0]) <= r


def round_convex_collide(a, cv):
    """Whether the round shape ``a`` (a core tuple) overlaps the convex ``cv``."""
    ax, ay, bx, by, r = a
    if cv.kind == AABB_KIND and ax == bx and ay == by:
        # a point core and a box: the clamped nearest point, not a search of the edges
        return circle_aabb_collide(ax, ay, r, cv.xs[0], cv.ys[0], cv.xs[1], cv.ys[2])
    if point_in_convex(cv, ax, ay):
        return True
    xs = cv.xs
    ys = cv.ys
    n = len(xs)
    tested = False
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if _inner_side(xs[i], ys[i], xs[j], ys[j], ax, ay, bx, by):
            continue
        tested = True
        d2 = segment_segment(ax, ay, bx, by, xs[i], ys[i], xs[j], ys[j])[0]
        if math.sqrt(d2) <= r:
            return True
    # no edge faces the core (not reached: exact signs would have put its first end
    # inside): the core lies inside
    return not tested


def _inner_side(x0, y0, x1, y1, ax, ay, bx, by):
    """Whether both ends of the core lie strictly on the inner side of edge (x0,y0)-(x1,y1)
    (exact signs).

    Such an edge cannot hold the nearest point of the convex shape to the core.
    """
    return orient_sign(x0, y0, x1, y1, ax, ay) > 0 and orient_sign(x0, y0, x1, y1, bx, by) > 0


def nearest_edge(ax, ay, bx, by, cv):
    """``(tested, d2, edge, pax, pay, pbx, pby)``: the edge of the convex ``cv`` nearest
    to the core ab whose first end lies outside it, and the nearest points (``tested``:
    some edge faced the core).  ``round_convex_closest`` and ``contact`` search alike."""
    if cv.kind == AABB_KIND and ax == bx and ay == by:
        # a point core and a box: the clamped nearest point
        d2, edge, qx, qy = point_box(ax, ay, cv.xs[0], cv.ys[0], cv.xs[1], cv.ys[2])
        return True, d2, edge, ax, ay, qx, qy
    xs = cv.xs
    ys = cv.ys
    n = len(xs)
    best = math.inf
    edge = -1
    tested = False
    pax = pay = pbx = pby = 0.0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if _inner_side(xs[i], ys[i], xs[j], ys[j], ax, ay, bx, by):
            continue
        tested = True
        d2, s, t, px, py, qx, qy = segment_segment(ax, ay, bx, by, xs[i], ys[i], xs[j], ys[j])
        if d2 < best:
            best = d2
            edge = i
            pax, pay, pbx, pby = px, py, qx, qy
            if d2 == 0.0:
                break
    return tested, best, edge, pax, pay, pbx, pby


def round_convex_closest(a, cv):
    ax, ay, bx, by, r = a
    if point_in_convex(cv, ax, ay):
        # the core's first end is inside: a point inside both
        return -r, ax, ay, ax, ay
    tested, best, _, pax, pay, pbx, pby = nearest_edge(ax, ay, bx, by, cv)
    if not tested:
        # no edge faces the core (not reached, as in round_convex_collide): inside
        return -r, ax, ay, ax, ay
    # best is inf only where the squared distances overflow: apart, at inf (as contact
    # and the round pairs have it)
    return round_result(best, r, 0.0, pax, pay, pbx, pby)
