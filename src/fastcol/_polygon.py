"""Polygon input: parsing, normalisation to a strictly convex CCW ring, convex hull.

Shared by both backends: building a polygon is not a hot path, and one implementation
guarantees that both backends store the very same vertices for the same input.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ._ref.predicates import orient_sign
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


def _turn(ox, oy, ax, ay, bx, by):
    """1, 0 or -1: o, a, b turn left, go straight or turn right (exact signs)."""
    return orient_sign(ox, oy, ax, ay, bx, by)


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
    # twice the signed area, exactly (a fan of triangles from the first point)
    exact = [(Fraction(x), Fraction(y)) for x, y in ring]
    ox, oy = exact[0]
    area2 = Fraction(0)
    for (ax, ay), (bx, by) in zip(exact[1:-1], exact[2:]):
        area2 += (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
    if area2 == 0:
        (ax, ay), (bx, by) = ring[0], ring[1]
        if all(_turn(ax, ay, bx, by, x, y) == 0 for x, y in ring[2:]):
            raise ValueError(f"{name} must enclose a positive area (all points are collinear)")
        # a bow-tie: its two loops' areas cancel
        raise ValueError(f"{name} must be convex: the boundary crosses itself")
    if area2 < 0:
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
            turn = _turn(px, py, cx, cy, nx, ny)
            if turn == 0:
                # on one line: straight on when c lies strictly between p and n
                if not (min(px, nx) <= cx <= max(px, nx) and min(py, ny) <= cy <= max(py, ny)):
                    raise ValueError(
                        f"{name} must be convex: the boundary doubles back at {ring[i]}"
                    )
                del ring[i]
                changed = True
                continue
            if turn < 0:
                raise ValueError(f"{name} must be convex: reflex vertex at {ring[i]}")
            i += 1
    if len(ring) < 3:
        raise ValueError(f"{name} must enclose a positive area (all points are collinear)")
    # all left turns can still wind twice (a pentagram): the turning must total 2*pi
    # (with every turn strictly left, exactly, it is a whole multiple of 2*pi, so the
    # rounded angles cannot blur 2*pi into the 3*pi threshold)
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
            while len(out) >= 2 and _turn(*out[-2], *out[-1], *p) <= 0:
                out.pop()
            out.append(p)
        return out

    lower = chain(pts)
    upper = chain(reversed(pts))
    ring = lower[:-1] + upper[:-1]
    if len(ring) < 3:
        raise ValueError(f"{name} must not all lie on one line")
    return ring
