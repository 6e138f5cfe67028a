"""Polygon input: parsing, normalisation to a strictly convex CCW ring, convex hull.

Shared by both backends: building a polygon is not a hot path, and one implementation
guarantees that both backends store the very same vertices for the same input.
"""

from __future__ import annotations

import math
from typing import Any

from ._validate import as_point


def parse_points(points: Any, name: str) -> list[tuple[float, float]]:
    """A list of finite ``(x, y)`` pairs from a sequence of pairs or an ``(N, 2)`` array."""
    if isinstance(points, (str, bytes, dict)) or not hasattr(points, "__iter__"):
        raise TypeError(
            f"{name} must be a sequence of (x, y) pairs or an (N, 2) array, "
            f"not {type(points).__name__}"
        )
    shape = getattr(points, "shape", None)
    if shape is not None and (len(shape) != 2 or shape[1] != 2):
        raise ValueError(f"{name} must have shape (N, 2), got {tuple(shape)}")
    return [as_point(p, f"{name}[{i}]") for i, p in enumerate(points)]


def _cross(ox, oy, ax, ay, bx, by):
    """z of (a - o) x (b - o): > 0 when o, a, b turn left."""
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


def normalize(points: list[tuple[float, float]], name: str = "vertices"):
    """Return ``(xs, ys)`` of a strictly convex counter-clockwise ring.

    Repeated and exactly collinear vertices are dropped; the ring starts at the
    lexicographically smallest ``(x, y)`` so equal polygons store equal vertices.
    Raises ValueError for fewer than 3 distinct points, zero area, or a ring that is
    not convex (a reflex vertex, a spike that doubles back, or a self-intersecting star).
    """
    ring: list[tuple[float, float]] = []
    for p in points:
        if not ring or ring[-1] != p:
            ring.append(p)
    while len(ring) > 1 and ring[0] == ring[-1]:
        ring.pop()
    if len(ring) < 3:
        raise ValueError(f"{name} must hold at least 3 distinct points, got {len(ring)}")
    ox, oy = ring[0]
    area2 = 0.0
    for i in range(1, len(ring) - 1):
        area2 += _cross(ox, oy, ring[i][0], ring[i][1], ring[i + 1][0], ring[i + 1][1])
    if area2 == 0.0:
        raise ValueError(f"{name} must enclose a positive area (all points are collinear)")
    if area2 < 0.0:
        ring.reverse()
    # drop vertices on a straight run (a deletion changes its neighbours' turns, so
    # sweep until nothing changes); a run that doubles back is a spike, not convex
    changed = True
    while changed and len(ring) >= 3:
        changed = False
        i = 0
        while i < len(ring) and len(ring) >= 3:
            n = len(ring)
            (px, py), (cx, cy), (nx, ny) = ring[i - 1], ring[i], ring[(i + 1) % n]
            turn = _cross(px, py, cx, cy, nx, ny)
            if turn == 0.0:
                if (cx - px) * (nx - cx) + (cy - py) * (ny - cy) <= 0.0:
                    raise ValueError(
                        f"{name} must be convex: the boundary doubles back at {ring[i]}"
                    )
                del ring[i]
                changed = True
                continue
            if turn < 0.0:
                raise ValueError(f"{name} must be convex: reflex vertex at {ring[i]}")
            i += 1
    if len(ring) < 3:
        raise ValueError(f"{name} must enclose a positive area (all points are collinear)")
    # all left turns can still wind twice (a pentagram): the turning must total 2*pi
    n = len(ring)
    turning = 0.0
    for i in range(n):
        (px, py), (cx, cy), (nx, ny) = ring[i - 1], ring[i], ring[(i + 1) % n]
        e1x, e1y, e2x, e2y = cx - px, cy - py, nx - cx, ny - cy
        turning += math.atan2(e1x * e2y - e1y * e2x, e1x * e2x + e1y * e2y)
    if turning > 3.0 * math.pi:
        raise ValueError(f"{name} must be convex: the boundary winds around more than once")
    start = min(range(n), key=lambda k: ring[k])
    ring = ring[start:] + ring[:start]
    return tuple(p[0] for p in ring), tuple(p[1] for p in ring)


def hull(points: list[tuple[float, float]], name: str = "points"):
    """Convex hull by the monotone chain: counter-clockwise, collinear points dropped."""
    pts = sorted(set(points))
    if len(pts) < 3:
        raise ValueError(f"{name} must hold at least 3 distinct points, got {len(pts)}")

    def chain(seq):
        out: list[tuple[float, float]] = []
        for p in seq:
            while len(out) >= 2 and _cross(*out[-2], *out[-1], *p) <= 0.0:
                out.pop()
            out.append(p)
        return out

    lower = chain(pts)
    upper = chain(reversed(pts))
    ring = lower[:-1] + upper[:-1]
    if len(ring) < 3:
        raise ValueError(f"{name} must not all lie on one line")
    return ring
