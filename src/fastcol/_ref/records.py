"""Result records: small immutable named tuples."""

from __future__ import annotations

from typing import NamedTuple


class Closest(NamedTuple):
    """Closest points of two shapes and their distance.

    ``point_a`` lies on (or in) the first shape and ``point_b`` on the second; when the
    shapes overlap or touch, both are the same point, inside both shapes, and
    ``distance`` is 0.0.
    """

    point_a: tuple[float, float]
    point_b: tuple[float, float]
    distance: float
