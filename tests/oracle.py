"""Independent geometry oracle for the tests, written with plain math.

It deliberately shares no code with ``src/`` (and imports nothing from fastcol), so a
bug in the library cannot hide behind the same bug here.  Every shape is described by a
spec, a plain tuple such as ``("Circle", x, y, r)`` or ``("Polygon", points)``, and is
treated as a convex core (a point, a segment or a convex polygon) grown by a radius: the
distance between two such shapes is the distance between the cores minus both radii.
"""

from __future__ import annotations

import functools
import math


def cross(o, a, b):
    """z of (a - o) x (b - o): positive when o, a, b turn counter-clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(points):
    """Monotone-chain convex hull, CCW, collinear points dropped."""
    pts = sorted(set((float(x), float(y)) for x, y in points))
    if len(pts) <= 2:
        return pts
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def area(verts):
    """Signed area of a polygon (positive when CCW)."""
    n = len(verts)
    return 0.5 * sum(cross((0.0, 0.0), verts[i], verts[(i + 1) % n]) for i in range(n))


def point_seg(p, a, b):
    """Distance from point p to segment ab (ab may have zero length)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    den = dx * dx + dy * dy
    if den == 0.0:
        return math.hypot(p[0] - a[0], p[1] - a[1])
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / den
    t = min(1.0, max(0.0, t))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


def seg_seg(a, b, c, d):
    """Distance between segments ab and cd."""
    o1, o2 = cross(a, b, c), cross(a, b, d)
    o3, o4 = cross(c, d, a), cross(c, d, b)
    # a proper crossing only when every orientation is clear of rounding noise:
    # collinear segments give orientations of a few ulps with random signs, and are
    # measured by their endpoints like any other non-crossing pair
    size = max(abs(v) for p in (a, b, c, d) for v in (p[0] - a[0], p[1] - a[1]))
    noise = 1e-12 * size * size
    if min(abs(o1), abs(o2), abs(o3), abs(o4)) > noise and o1 * o2 < 0 and o3 * o4 < 0:
        return 0.0
    return min(point_seg(a, c, d), point_seg(b, c, d), point_seg(c, a, b),
               point_seg(d, a, b))


def core(spec):
    """(CCW hull vertices of the core, radius) of a shape spec.

    A polygon's points may be given as a list; they are made a tuple for the cache.
    """
    if spec[0] == "Polygon" and not isinstance(spec[1], tuple):
        spec = (spec[0], tuple(tuple(p) for p in spec[1])) + tuple(spec[2:])
    return _core(spec)


@functools.lru_cache(maxsize=256)
def _core(spec):
    kind, args = spec[0], spec[1:]
    if kind == "Circle":
        x, y, r = args
        return hull([(x, y)]), r
    if kind == "Capsule":
        ax, ay, bx, by, r = args
        return hull([(ax, ay), (bx, by)]), r
    if kind == "Segment":
        ax, ay, bx, by = args
        return hull([(ax, ay), (bx, by)]), 0.0
    if kind == "AABB":
        x0, y0, x1, y1 = args
        return hull([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), 0.0
    if kind == "OBB":
        cx, cy, hw, hh, ang = args
        c, s = math.cos(ang), math.sin(ang)
        return hull([(cx + i * hw * c - j * hh * s, cy + i * hw * s + j * hh * c)
                     for i in (-1, 1) for j in (-1, 1)]), 0.0
    if kind == "Polygon":
        return hull(args[0]), 0.0
    raise AssertionError(kind)


def _edges(verts):
    n = len(verts)
    if n == 1:
        return [(verts[0], verts[0])]
    if n == 2:
        return [(verts[0], verts[1])]
    return [(verts[i], verts[(i + 1) % n]) for i in range(n)]


def _inside(verts, p):
    n = len(verts)
    return n >= 3 and all(cross(verts[i], verts[(i + 1) % n], p) >= 0 for i in range(n))


def core_distance(P, Q):
    """Distance between two cores (CCW hull vertex lists)."""
    if any(_inside(Q, v) for v in P) or any(_inside(P, v) for v in Q):
        return 0.0
    return min(seg_seg(a, b, c, d) for a, b in _edges(P) for c, d in _edges(Q))


def oracle_distance(sa, sb):
    """Distance between two shapes given by their specs."""
    (P, ra), (Q, rb) = core(sa), core(sb)
    return max(0.0, core_distance(P, Q) - ra - rb)


def point_distance(spec, p):
    """Distance from p to the shape, 0.0 inside or on it."""
    verts, r = core(spec)
    return max(0.0, core_distance(verts, [tuple(p)]) - r)


def signed_point_distance(spec, p):
    """Signed distance from p to the shape (negative inside a solid shape)."""
    verts, r = core(spec)
    d = min(point_seg(p, a, b) for a, b in _edges(verts))
    if _inside(verts, p):
        d = -d
    return d - r


def disks(spec):
    """Discs (centre, radius) contained in the shape."""
    verts, r = core(spec)
    out = [(v, r) for v in verts]
    out += [(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), r) for a, b in _edges(verts)]
    if len(verts) >= 3:
        n = len(verts)
        out.append(((sum(v[0] for v in verts) / n, sum(v[1] for v in verts) / n), 0.0))
    return out


def clearly_overlapping(sa, sb, margin):
    """A disc inside one shape is penetrated by the other by more than `margin`."""
    for s, t in ((sa, sb), (sb, sa)):
        for c, rho in disks(s):
            if signed_point_distance(t, c) < rho - margin:
                return True
    return False
