"""Geometry primitives: closest points on segments and lines, segment–segment distance.

The kernels (``closest_on_segment``, ``segment_param``, ``segment_segment``) take plain
floats in *local* coordinates: the caller has already subtracted an origin near the
shapes, so the differences below lose nothing at offsets of 1e6.  They are mirrored
operation for operation in ``_ext/geometry.pyx``; change one, change the other.

The public functions validate their points, move the origin to the first point, call a
kernel and move the results back.  Returned parameters that are exactly 0 or 1 return
the given endpoint itself, so ``closest_point_on_segment(p, a, b)`` at ``t == 1`` is ``b``
to the bit.

Every primitive also takes ``(N, 2)`` arrays in place of points (a single point stands
for every row) and answers row by row with arrays: points as ``(N, 2)``, numbers as
``(N,)``; a row holding NaN or inf gives NaN (False for ``segments_intersect``).
"""

from __future__ import annotations

import math

from .. import _batch
from .._validate import as_point


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
    and cd, and the two points.  Intersecting segments give ``d2 == 0.0`` exactly and
    ``p == q``.  Zero-length segments are points; parallel and collinear segments need
    no special formula because two segments that do not intersect have a closest pair
    at an endpoint of one of them.
    """
    d1x = bx - ax
    d1y = by - ay
    d2x = dx - cx
    d2y = dy - cy
    if d1x * d1x + d1y * d1y == 0.0:
        # ab is a point: nearest point of cd to a
        t, qx, qy = closest_on_segment(ax, ay, cx, cy, dx, dy)
        return dist2(ax, ay, qx, qy), 0.0, t, ax, ay, qx, qy
    if d2x * d2x + d2y * d2y == 0.0:
        # cd is a point: nearest point of ab to c
        s, px, py = closest_on_segment(cx, cy, ax, ay, bx, by)
        return dist2(px, py, cx, cy), s, 0.0, px, py, cx, cy
    # which side of each segment's line the other segment's ends lie on
    o1 = d1x * (cy - ay) - d1y * (cx - ax)
    o2 = d1x * (dy - ay) - d1y * (dx - ax)
    o3 = d2x * (ay - cy) - d2y * (ax - cx)
    o4 = d2x * (by - cy) - d2y * (bx - cx)
    if (o1 == 0.0 and o2 == 0.0) or (o3 == 0.0 and o4 == 0.0):
        # collinear: they meet where their extents along ab overlap
        s_c = segment_param(cx - ax, cy - ay, d1x, d1y)
        if s_c != 0.0 and s_c != 1.0 or _same_point(s_c, ax, ay, bx, by, cx, cy):
            return 0.0, s_c, 0.0, cx, cy, cx, cy
        s_d = segment_param(dx - ax, dy - ay, d1x, d1y)
        if s_d != 0.0 and s_d != 1.0 or _same_point(s_d, ax, ay, bx, by, dx, dy):
            return 0.0, s_d, 1.0, dx, dy, dx, dy
        t_a = segment_param(ax - cx, ay - cy, d2x, d2y)
        if t_a != 0.0 and t_a != 1.0:
            # ab lies inside cd
            return 0.0, 0.0, t_a, ax, ay, ax, ay
    elif (o1 <= 0.0 <= o2 or o2 <= 0.0 <= o1) and (o3 <= 0.0 <= o4 or o4 <= 0.0 <= o3):
        # the segments cross or touch; each ratio lies in [0, 1] because the two
        # orientations it divides have opposite signs (and are not both zero)
        t = o1 / (o1 - o2)
        s = o3 / (o3 - o4)
        if s == 0.0:
            px, py = ax, ay
        elif s == 1.0:
            px, py = bx, by
        else:
            px = ax + s * d1x
            py = ay + s * d1y
        return 0.0, s, t, px, py, px, py
    # disjoint: the nearest pair has an endpoint of one segment
    t, qx, qy = closest_on_segment(ax, ay, cx, cy, dx, dy)
    best = dist2(ax, ay, qx, qy)
    result = (best, 0.0, t, ax, ay, qx, qy)
    t, qx, qy = closest_on_segment(bx, by, cx, cy, dx, dy)
    d = dist2(bx, by, qx, qy)
    if d < best:
        best = d
        result = (d, 1.0, t, bx, by, qx, qy)
    s, px, py = closest_on_segment(cx, cy, ax, ay, bx, by)
    d = dist2(px, py, cx, cy)
    if d < best:
        best = d
        result = (d, s, 0.0, px, py, cx, cy)
    s, px, py = closest_on_segment(dx, dy, ax, ay, bx, by)
    d = dist2(px, py, dx, dy)
    if d < best:
        result = (d, s, 1.0, px, py, dx, dy)
    return result


def _same_point(s, ax, ay, bx, by, px, py):
    """Whether p coincides with the end of ab that the clamped parameter ``s`` names."""
    if s == 0.0:
        return ax == px and ay == py
    return bx == px and by == py


# ---------------------------------------------------------------------- public API


def _lift(t, ox, oy, ax, ay, bx, by, lx, ly):
    """Absolute point from a local one; parameter 0 or 1 gives the endpoint itself."""
    if t == 0.0:
        return (ax, ay)
    if t == 1.0:
        return (bx, by)
    return (lx + ox, ly + oy)


def closest_point_on_segment(p, a, b, workers=1):
    """Point of segment ab nearest to p, and its parameter.

    Parameters
    ----------
    p, a, b : (2,) sequence of float, or (N, 2) array
        The query point and the segment's ends.
    workers : int, optional
        For ``(N, 2)`` arrays: threads to split the rows over (``-1``: every core).

    Returns
    -------
    point : tuple of float
        ``a + t * (b - a)``; exactly ``a`` when ``t == 0`` and exactly ``b`` when ``t == 1``.
    t : float
        The parameter, clamped to ``[0, 1]``; ``0.0`` when ``a == b`` (the segment is a point).

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.closest_point_on_segment((1.0, 5.0), (0.0, 0.0), (4.0, 0.0))
    ((1.0, 0.0), 0.25)
    >>> fc.closest_point_on_segment((9.0, 1.0), (0.0, 0.0), (4.0, 0.0))
    ((4.0, 0.0), 1.0)
    """
    if _batch.has_rows(p, a, b):
        from . import batch

        return batch.primitive(closest_point_on_segment, (p, a, b), ("p", "a", "b"), "pf", workers)
    if type(workers) is not int or workers != 1:
        _batch.check_workers(workers)
    px, py = as_point(p, "p")
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    t, lx, ly = closest_on_segment(px - ax, py - ay, 0.0, 0.0, bx - ax, by - ay)
    return _lift(t, ax, ay, ax, ay, bx, by, lx, ly), t


def closest_point_on_line(p, a, b, workers=1):
    """Point of the infinite line through a and b nearest to p, and its parameter.

    Parameters
    ----------
    p, a, b : (2,) sequence of float, or (N, 2) array
        The query point and two points of the line.
    workers : int, optional
        For ``(N, 2)`` arrays: threads to split the rows over (``-1``: every core).

    Returns
    -------
    point : tuple of float
        ``a + t * (b - a)``.
    t : float
        The unclamped parameter; ``0.0`` (and ``point == a``) when ``a == b``.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.closest_point_on_line((6.0, 3.0), (0.0, 0.0), (4.0, 0.0))
    ((6.0, 0.0), 1.5)
    """
    if _batch.has_rows(p, a, b):
        from . import batch

        return batch.primitive(closest_point_on_line, (p, a, b), ("p", "a", "b"), "pf", workers)
    if type(workers) is not int or workers != 1:
        _batch.check_workers(workers)
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


def point_segment_distance(p, a, b, workers=1):
    """Distance from point p to segment ab.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.point_segment_distance((3.0, 4.0), (0.0, 0.0), (0.0, 0.0))
    5.0
    >>> fc.point_segment_distance((2.0, 0.0), (0.0, 0.0), (4.0, 0.0))   # on the segment
    0.0
    """
    if _batch.has_rows(p, a, b):
        from . import batch

        return batch.primitive(point_segment_distance, (p, a, b), ("p", "a", "b"), "f", workers)
    if type(workers) is not int or workers != 1:
        _batch.check_workers(workers)
    px, py = as_point(p, "p")
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    lpx = px - ax
    lpy = py - ay
    t, qx, qy = closest_on_segment(lpx, lpy, 0.0, 0.0, bx - ax, by - ay)
    return math.sqrt(dist2(lpx, lpy, qx, qy))


def segment_segment_closest(a, b, c, d, workers=1):
    """Closest points of segments ab and cd.

    Parameters
    ----------
    a, b, c, d : (2,) sequence of float, or (N, 2) array
        The ends of the two segments; a segment whose ends coincide is a point.
    workers : int, optional
        For ``(N, 2)`` arrays: threads to split the rows over (``-1``: every core).

    Returns
    -------
    distance : float
        ``0.0`` exactly when the segments intersect or touch.
    s, t : float
        Parameters in ``[0, 1]`` of the closest points on ab and on cd.
    point_on_ab, point_on_cd : tuple of float
        The closest points; equal when the segments intersect.  For parallel segments
        at a constant distance, the pair at an endpoint is returned.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.segment_segment_closest((0, 0), (2, 0), (1, 1), (1, 3))
    (1.0, 0.5, 0.0, (1.0, 0.0), (1.0, 1.0))
    >>> fc.segment_segment_closest((0, 0), (2, 2), (0, 2), (2, 0))[0]   # crossing
    0.0
    """
    if _batch.has_rows(a, b, c, d):
        from . import batch

        return batch.primitive(segment_segment_closest, (a, b, c, d), ("a", "b", "c", "d"), "fffpp", workers)
    if type(workers) is not int or workers != 1:
        _batch.check_workers(workers)
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    cx, cy = as_point(c, "c")
    dx, dy = as_point(d, "d")
    d2, s, t, px, py, qx, qy = segment_segment(
        0.0, 0.0, bx - ax, by - ay, cx - ax, cy - ay, dx - ax, dy - ay
    )
    pa = _lift(s, ax, ay, ax, ay, bx, by, px, py)
    if d2 == 0.0:
        # one point where they meet, the same on both
        return 0.0, s, t, pa, pa
    return math.sqrt(d2), s, t, pa, _lift(t, ax, ay, cx, cy, dx, dy, qx, qy)


def segment_segment_distance(a, b, c, d, workers=1):
    """Distance between segments ab and cd (0.0 when they intersect or touch).

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.segment_segment_distance((0, 0), (4, 0), (5, 3), (9, 3))   # parallel
    3.1622776601683795
    """
    if _batch.has_rows(a, b, c, d):
        from . import batch

        return batch.primitive(segment_segment_distance, (a, b, c, d), ("a", "b", "c", "d"), "f", workers)
    if type(workers) is not int or workers != 1:
        _batch.check_workers(workers)
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    cx, cy = as_point(c, "c")
    dx, dy = as_point(d, "d")
    d2 = segment_segment(0.0, 0.0, bx - ax, by - ay, cx - ax, cy - ay, dx - ax, dy - ay)[0]
    return math.sqrt(d2)


def segments_intersect(a, b, c, d, workers=1):
    """Whether segments ab and cd intersect; touching and collinear overlap count.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.segments_intersect((0, 0), (2, 0), (2, 0), (3, 5))   # touching at an end
    True
    >>> fc.segments_intersect((0, 0), (2, 0), (3, 0), (4, 0))   # collinear, apart
    False
    """
    if _batch.has_rows(a, b, c, d):
        from . import batch

        return batch.primitive(segments_intersect, (a, b, c, d), ("a", "b", "c", "d"), "b", workers)
    if type(workers) is not int or workers != 1:
        _batch.check_workers(workers)
    ax, ay = as_point(a, "a")
    bx, by = as_point(b, "b")
    cx, cy = as_point(c, "c")
    dx, dy = as_point(d, "d")
    d2 = segment_segment(0.0, 0.0, bx - ax, by - ay, cx - ax, cy - ay, dx - ax, dy - ay)[0]
    return d2 == 0.0
