"""Geometry primitives: closest points on segments and lines, segment–segment distance.

The kernels (``closest_on_segment``, ``segment_param``, ``segment_segment``) take plain
floats in *local* coordinates: the caller has already subtracted an origin near the
shapes, so the differences below lose nothing at offsets of 1e6.  They are mirrored
operation for operation in ``_ext/geometry.pyx``; change one, change the other.

The functions named after the public primitives answer one call: they validate their
points, move the origin to the first point, call a kernel and move the results back.  Returned parameters that are exactly 0 or 1 return
the given endpoint itself, so ``closest_point_on_segment(p, a, b)`` at ``t == 1`` is ``b``
to the bit.

``batch.primitive`` answers calls on ``(N, 2)`` arrays with these, row by row.
"""

from __future__ import annotations

import math

from .._validate import as_point
from .predicates import exact_origin, orient_decide, orient_sign

# the smallest positive float: the squared distance of two shapes that exact signs
# find apart, when the rounded squares say 0.0; APART is the distance then
TINY = 5e-324
APART = math.sqrt(TINY)
# a vector whose squared length underflows (an edge of a sliver of a ring, cores nearer
# than their squares can tell) times this has the same direction, exactly (a power of
# two), and a length the square root resolves
UNDERFLOW_SCALE = 2.0**600


# --------------------------------------------------------------------------- kernels


def segment_param(apx: float, apy: float, abx: float, aby: float) -> float:
    """Clamped parameter of the point nearest to ``a + ap`` on the segment ``a + t*ab``."""
    den = abx * abx + aby * aby
    if den == 0.0:
        # zero-length segment: every t gives the same point, take its start
        return 0.0
    dot = apx * abx + apy * aby
    if den < math.inf:
        # the ends, decided before the division: the same answers as the tests on t
        # below (a quotient of a finite dot and den is <= 0 exactly when dot is, and
        # >= 1 when dot >= den), and in C the branch need not wait for the quotient
        if dot <= 0.0:
            return 0.0
        if dot >= den:
            return 1.0
    t = dot / den
    if t <= 0.0:
        return 0.0
    if t >= 1.0:
        return 1.0
    return t


def closest_on_segment(px, py, ax, ay, bx, by):
    """Return ``(t, qx, qy)``: the point ``q`` of segment ab nearest to p, and its parameter."""
    abx = bx - ax
    aby = by - ay
    t = segment_param(px - ax, py - ay, abx, aby)
    if t == 0.0:
        return t, ax, ay
    if t == 1.0:
        return t, bx, by
    return t, ax + t * abx, ay + t * aby


def dist2(ax, ay, bx, by):
    """Squared distance between two points."""
    dx = bx - ax
    dy = by - ay
    return dx * dx + dy * dy


def segment_segment(ax, ay, bx, by, cx, cy, dx, dy):
    """Closest points of segments ab and cd.

    Returns ``(d2, s, t, px, py, qx, qy)``: the squared distance, the parameters on ab
    and cd, and the two points.  Whether the segments meet is decided by exact signs
    (``orient_sign``): segments that intersect or touch give ``d2 == 0.0`` and
    ``p == q``; segments that do not give ``d2 > 0.0`` (at least ``TINY``, should the
    squares round to zero).  That holds of the shapes as given when the coordinates
    are exact translations of the stored ones (the caller's origin: see
    ``exact_origin``).  A segment whose ends coincide is a point.  Segments that do
    not meet have their closest pair at an endpoint of one of them.
    """
    d1x = bx - ax
    d1y = by - ay
    d2x = dx - cx
    d2y = dy - cy
    if ax == bx and ay == by:
        # ab is a point: nearest point of cd to a
        t, qx, qy, d2 = point_segment(ax, ay, cx, cy, dx, dy)
        return d2, 0.0, t, ax, ay, qx, qy
    if cx == dx and cy == dy:
        # cd is a point: nearest point of ab to c
        s, px, py, d2 = point_segment(cx, cy, ax, ay, bx, by)
        return d2, s, 0.0, px, py, cx, cy
    # which side of ab's line c and d lie on: exact signs, and the rounded values
    left = d1x * (cy - ay)
    right = d1y * (cx - ax)
    o1 = left - right
    g1 = orient_decide(left, right, ax, ay, bx, by, cx, cy)
    left = d1x * (dy - ay)
    right = d1y * (dx - ax)
    o2 = left - right
    g2 = orient_decide(left, right, ax, ay, bx, by, dx, dy)
    if g1 == 0 and g2 == 0:
        # collinear: they meet where their extents overlap, read on an axis along
        # which the common line is not constant
        if d1x != 0.0:
            a0, a1, c0, c1, pc, pd, pa = ax, bx, cx, dx, cx, dx, ax
        else:
            a0, a1, c0, c1, pc, pd, pa = ay, by, cy, dy, cy, dy, ay
        if a1 < a0:
            a0, a1 = a1, a0
        if c1 < c0:
            c0, c1 = c1, c0
        if a0 <= pc <= a1:
            return 0.0, segment_param(cx - ax, cy - ay, d1x, d1y), 0.0, cx, cy, cx, cy
        if a0 <= pd <= a1:
            return 0.0, segment_param(dx - ax, dy - ay, d1x, d1y), 1.0, dx, dy, dx, dy
        if c0 <= pa <= c1:
            # ab lies inside cd
            return 0.0, 0.0, segment_param(ax - cx, ay - cy, d2x, d2y), ax, ay, ax, ay
    elif g1 != g2:
        # c and d are not strictly on one side of ab: the same test of a and b on cd
        left = d2x * (ay - cy)
        right = d2y * (ax - cx)
        o3 = left - right
        g3 = orient_decide(left, right, cx, cy, dx, dy, ax, ay)
        left = d2x * (by - cy)
        right = d2y * (bx - cx)
        o4 = left - right
        g4 = orient_decide(left, right, cx, cy, dx, dy, bx, by)
        if g3 != g4 or g3 == 0:
            # they cross or touch: an end on the other segment is the meeting point
            # itself; a proper crossing is placed by the orientations' ratio
            t = crossing_ratio(o1, o2, g1, g2)
            s = crossing_ratio(o3, o4, g3, g4)
            if g1 == 0:
                return 0.0, s, 0.0, cx, cy, cx, cy
            if g2 == 0:
                return 0.0, s, 1.0, dx, dy, dx, dy
            if s == 0.0:
                return 0.0, s, t, ax, ay, ax, ay
            if s == 1.0:
                return 0.0, s, t, bx, by, bx, by
            px = ax + s * d1x
            py = ay + s * d1y
            return 0.0, s, t, px, py, px, py
    # apart: the nearest pair has an endpoint of one segment (no end lies on the
    # other segment: the exact signs said so)
    t, qx, qy = closest_on_segment(ax, ay, cx, cy, dx, dy)
    best = dist2(ax, ay, qx, qy)
    result = (0.0, t, ax, ay, qx, qy)
    t, qx, qy = closest_on_segment(bx, by, cx, cy, dx, dy)
    d = dist2(bx, by, qx, qy)
    if d < best:
        best = d
        result = (1.0, t, bx, by, qx, qy)
    s, px, py = closest_on_segment(cx, cy, ax, ay, bx, by)
    d = dist2(px, py, cx, cy)
    if d < best:
        best = d
        result = (s, 0.0, px, py, cx, cy)
    s, px, py = closest_on_segment(dx, dy, ax, ay, bx, by)
    d = dist2(px, py, dx, dy)
    if d < best:
        best = d
        result = (s, 1.0, px, py, dx, dy)
    if best == 0.0:
        # apart by the exact signs, nearer than the squares can tell
        best = TINY
    return (best,) + result


def segment_segment_d2(ax, ay, bx, by, cx, cy, dx, dy):
    """``segment_segment``'s squared distance alone (what collide and distance of round
    shapes need)."""
    return segment_segment(ax, ay, bx, by, cx, cy, dx, dy)[0]


def crossing_ratio(o0, o1, g0, g1):
    """Where along a segment the orientation goes from ``o0`` to ``o1``, in [0, 1].

    ``g0`` and ``g1`` are the exact signs (not alike unless both 0).  An end on the
    line gives 0.0 or 1.0; otherwise ``o0 / (o0 - o1)``, in [0, 1] when the rounded
    values keep the exact signs.  A value that lost its sign counts as 0.0 (that end
    is within rounding of the line), and 0.5 when both did (nearly parallel segments
    that cross: any point of the short stretch where they cross serves).
    """
    if g0 == 0:
        return 0.0
    if g1 == 0:
        return 1.0
    if not o0 * g0 > 0.0:
        o0 = 0.0
    if not o1 * g1 > 0.0:
        o1 = 0.0
    if o0 == 0.0 and o1 == 0.0:
        return 0.5
    return o0 / (o0 - o1)


def point_segment(px, py, ax, ay, bx, by):
    """``(t, qx, qy, d2)``: the point q of segment ab nearest to p, its parameter and
    the squared distance.  ``d2 == 0.0`` exactly when p lies on the segment (exact
    signs), with ``q == p``; otherwise ``d2 >= TINY``.  A segment whose ends coincide
    is a point."""
    t, qx, qy = closest_on_segment(px, py, ax, ay, bx, by)
    if on_segment(px, py, ax, ay, bx, by):
        return t, px, py, 0.0
    d2 = dist2(px, py, qx, qy)
    return t, qx, qy, TINY if d2 == 0.0 else d2


def on_segment(px, py, ax, ay, bx, by):
    """Whether p lies on the segment ab: on its line by the exact sign, and within its
    extent on an axis along which the line is not constant (a point segment: p == a)."""
    if ax != bx:
        return (ax <= px <= bx or bx <= px <= ax) and orient_sign(ax, ay, bx, by, px, py) == 0
    if ay != by:
        return (ay <= py <= by or by <= py <= ay) and orient_sign(ax, ay, bx, by, px, py) == 0
    return px == ax and py == ay



# ---------------------------------------------------------------------- public API


def _lift(t, ox, oy, ax, ay, bx, by, lx, ly):
    """Absolute point from a local one; parameter 0 or 1 gives the endpoint itself."""
    if t == 0.0:
        return (ax, ay)
    if t == 1.0:
        return (bx, by)
    return (lx + ox, ly + oy)


def closest_point_on_segment(p, a, b):
    """``fastcol.closest_point_on_segment`` of one set of points."""
    px, py = as_point(p, "p")
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    t, lx, ly = closest_on_segment(px - ax, py - ay, 0.0, 0.0, bx - ax, by - ay)
    return _lift(t, ax, ay, ax, ay, bx, by, lx, ly), t


def closest_point_on_line(p, a, b):
    """``fastcol.closest_point_on_line`` of one set of points."""
    px, py = as_point(p, "p")
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    abx = bx - ax
    aby = by - ay
    den = abx * abx + aby * aby
    if den == 0.0:
        # a == b: the "line" is a point
        return (ax, ay), 0.0
    t = ((px - ax) * abx + (py - ay) * aby) / den
    if t == 0.0:
        return (ax, ay), t
    if t == 1.0:
        return (bx, by), t
    return (ax + t * abx, ay + t * aby), t


def point_segment_distance(p, a, b):
    """``fastcol.point_segment_distance`` of one set of points."""
    px, py = as_point(p, "p")
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    # the origin on a, where that is exact (a point on the segment is at 0.0 exactly)
    ox = exact_origin(ax, min(px, ax, bx), max(px, ax, bx))
    oy = exact_origin(ay, min(py, ay, by), max(py, ay, by))
    d2 = point_segment(px - ox, py - oy, ax - ox, ay - oy, bx - ox, by - oy)[3]
    return math.sqrt(d2)


def _segments(ax, ay, bx, by, cx, cy, dx, dy):
    """``segment_segment`` of absolute points, with the origin on a where that is exact;
    its result and the origin ``(ox, oy)``."""
    ox = exact_origin(ax, min(ax, bx, cx, dx), max(ax, bx, cx, dx))
    oy = exact_origin(ay, min(ay, by, cy, dy), max(ay, by, cy, dy))
    return segment_segment(ax - ox, ay - oy, bx - ox, by - oy, cx - ox, cy - oy,
                           dx - ox, dy - oy) + (ox, oy)


def segment_segment_closest(a, b, c, d):
    """``fastcol.segment_segment_closest`` of one set of points."""
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    cx, cy = as_point(c, "c")
    dx, dy = as_point(d, "d")
    d2, s, t, px, py, qx, qy, ox, oy = _segments(ax, ay, bx, by, cx, cy, dx, dy)
    pa = _lift(s, ox, oy, ax, ay, bx, by, px, py)
    if d2 == 0.0:
        # one point where they meet, the same on both
        return 0.0, s, t, pa, pa
    return math.sqrt(d2), s, t, pa, _lift(t, ox, oy, cx, cy, dx, dy, qx, qy)


def segment_segment_distance(a, b, c, d):
    """``fastcol.segment_segment_distance`` of one set of points."""
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    cx, cy = as_point(c, "c")
    dx, dy = as_point(d, "d")
    return math.sqrt(_segments(ax, ay, bx, by, cx, cy, dx, dy)[0])


def segments_intersect(a, b, c, d):
    """``fastcol.segments_intersect`` of one set of points."""
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    cx, cy = as_point(c, "c")
    dx, dy = as_point(d, "d")
    return _segments(ax, ay, bx, by, cx, cy, dx, dy)[0] == 0.0


def orient2d(a, b, c):
    """``fastcol.orient2d`` of one set of points."""
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    cx, cy = as_point(c, "c")
    return orient_sign(ax, ay, bx, by, cx, cy)


# ------------------------------------------------------------ moving and measuring


def rotate_point(px, py, qx, qy, c, s):
    """``(x, y)``: the point p turned about the pivot q by the angle whose cosine and
    sine are ``c`` and ``s`` (counter-clockwise).  The one rotation of fastcol: every
    shape, scalar or row, both backends, turns its points with this formula."""
    dx = px - qx
    dy = py - qy
    return qx + (dx * c - dy * s), qy + (dx * s + dy * c)


def polygon_centroid(xs, ys, n):
    """``(cx, cy)``: the area centroid of the ring of the first ``n`` vertices.

    A fan of triangles from the first vertex, every coordinate taken relative to it
    (a unit polygon at 1e6 keeps its digits).  A ring whose rounded area is 0.0 (no
    ring of a valid Polygon) gives the mean of its vertices; NaN gives NaN.
    """
    x0 = xs[0]
    y0 = ys[0]
    a2 = 0.0
    sx = 0.0
    sy = 0.0
    ax = xs[1] - x0
    ay = ys[1] - y0
    for k in range(2, n):
        bx = xs[k] - x0
        by = ys[k] - y0
        cross = ax * by - ay * bx
        a2 += cross
        sx += cross * (ax + bx)
        sy += cross * (ay + by)
        ax = bx
        ay = by
    if a2 == 0.0:
        # no area to weigh by: the vertices' mean
        for k in range(1, n):
            sx += xs[k] - x0
            sy += ys[k] - y0
        return x0 + sx / n, y0 + sy / n
    return x0 + sx / (3.0 * a2), y0 + sy / (3.0 * a2)
