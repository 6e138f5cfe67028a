"""An oriented box from its four corners (``OBB.from_corners``), shared by both backends.

Building a box is not a hot path, and one implementation gives both backends the very
same box for the same corners (as ``_polygon`` does for polygons).
"""

from __future__ import annotations

import math
from typing import Any

from ._polygon import parse_points

# how far four corners may be from a rectangle, as a fraction of its longer side
RECTANGLE_TOLERANCE = 2.0 ** -33
# and the rounding their own coordinates carry (a few ulps of the largest): corners
# computed at 1e6 of a box of size 1 are off by 1e-10, more than 2**-33 of its size
COORDINATE_ROUNDING = 2.0 ** -50


def from_corners(points: Any, name: str = "points") -> tuple[float, float, float, float, float]:
    """``(cx, cy, half_w, half_h, angle)`` of the rectangle with corners ``points``.

    The four corners in ring order, either winding, any first corner.  The ring is
    made counter-clockwise keeping its first corner; the centre is the mean of the
    four (taken relative to the first); ``half_w`` is half the edge from the first
    corner to the next, ``half_h`` half the next edge, ``angle`` the direction of the
    first edge (of the second turned clockwise by a right angle when the first has
    zero length).  ValueError naming ``name`` unless there are exactly four finite
    corners forming a rectangle: opposite edges of equal length, diagonals of equal
    length and square corners, each within ``2**-33`` of the longer side (plus the
    rounding of the coordinates themselves).
    """
    pts = parse_points(points, name)
    if len(pts) != 4:
        raise ValueError(f"{name} must hold exactly 4 corners, got {len(pts)}")
    x0, y0 = pts[0]
    rel = [(x - x0, y - y0) for x, y in pts]
    area2 = (rel[1][0] * rel[2][1] - rel[1][1] * rel[2][0]
             + rel[2][0] * rel[3][1] - rel[2][1] * rel[3][0])
    if area2 < 0.0:
        # clockwise: the same ring the other way round, from the same first corner
        rel = [rel[0], rel[3], rel[2], rel[1]]
    edges = [(rel[(k + 1) % 4][0] - rel[k][0], rel[(k + 1) % 4][1] - rel[k][1])
             for k in range(4)]
    lengths = [math.hypot(ex, ey) for ex, ey in edges]
    size = max(lengths)
    reach = max(max(abs(x), abs(y)) for x, y in pts)
    tol = RECTANGLE_TOLERANCE * size + COORDINATE_ROUNDING * reach
    diagonal_a = math.hypot(rel[2][0], rel[2][1])
    diagonal_b = math.hypot(rel[3][0] - rel[1][0], rel[3][1] - rel[1][1])
    checks = (
        ("opposite edges differ in length", abs(lengths[0] - lengths[2]), tol),
        ("opposite edges differ in length", abs(lengths[1] - lengths[3]), tol),
        ("diagonals differ in length", abs(diagonal_a - diagonal_b), tol),
    ) + tuple(
        # a corner's edges, one projected on the other: no more than tol off square
        ("a corner is not square",
         abs(edges[k][0] * edges[k - 1][0] + edges[k][1] * edges[k - 1][1]), tol * size)
        for k in range(4)
    )
    for what, error, limit in checks:
        if not error <= limit:
            raise ValueError(
                f"{name} must be the corners of a rectangle (within 2**-33 of its size): {what}"
            )
    cx = x0 + (rel[1][0] + rel[2][0] + rel[3][0]) * 0.25
    cy = y0 + (rel[1][1] + rel[2][1] + rel[3][1]) * 0.25
    (ex, ey), (fx, fy) = edges[0], edges[1]
    if lengths[0] == 0.0 and lengths[1] > 0.0:
        # a box of zero width: its axis is the second edge turned back a right angle
        angle = math.atan2(0.0 - fx, fy)
    else:
        angle = math.atan2(ey, ex)
    return cx, cy, lengths[0] * 0.5, lengths[1] * 0.5, angle
