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


class MassData(NamedTuple):
    """Mass, centroid and polar moment of inertia of a shape, from ``mass_properties``.

    ``mass`` is the area times the density; ``inertia`` is the polar moment about
    ``centroid`` (the axis through the centroid, perpendicular to the plane), in mass
    times length squared.  Not a hot path: both backends return this named tuple.
    """

    mass: float
    centroid: tuple[float, float]
    inertia: float


class Contact(NamedTuple):
    """How two overlapping or touching shapes meet, from ``contact(a, b)``.

    ``normal`` is the unit vector from ``a`` towards ``b``; ``depth`` (>= 0.0, 0.0 when
    they only touch) is the shortest translation that separates them, so moving ``b``
    by ``normal * depth`` (or ``a`` by the opposite) leaves them touching; ``points``
    holds one or two contact points, each midway between the two surfaces.
    """

    normal: tuple[float, float]
    depth: float
    points: tuple[tuple[float, float], ...]


class RayHit(NamedTuple):
    """Where a ray first meets a shape, from ``raycast``.

    The hit is ``point = origin + t * direction``; ``normal`` is the unit surface normal
    facing the ray, or ``(0.0, 0.0)`` when the ray starts inside the shape (``t == 0``).
    """

    t: float
    point: tuple[float, float]
    normal: tuple[float, float]


class PointQuery(NamedTuple):
    """The boundary of a shape nearest to a point, from ``point_query``.

    ``point`` lies on the shape's boundary; ``distance`` is the signed distance from the
    boundary to the query point (negative inside the shape, 0.0 on the boundary);
    ``normal`` is the unit outward normal of the boundary at ``point``.
    """

    point: tuple[float, float]
    distance: float
    normal: tuple[float, float]


class CastHit(NamedTuple):
    """Where two translating shapes first touch, from ``shape_cast``.

    ``t`` is ``time_of_impact``'s time; ``point`` is where the moved shapes touch at
    ``t``; ``normal`` is the unit normal there from ``a`` towards ``b`` (for shapes
    already colliding, ``t == 0.0`` with ``contact``'s normal and point).

    Examples
    --------
    >>> import fastcol as fc
    >>> t, point, normal = fc.shape_cast(fc.Circle(0, 0, 1), (1, 0), fc.Circle(4, 0, 1), (0, 0), max_t=5)
    >>> t, point, normal
    (2.0, (3.0, 0.0), (1.0, 0.0))
    """

    t: float
    point: tuple[float, float]
    normal: tuple[float, float]
