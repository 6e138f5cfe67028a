"""Mass, centroid and polar moment of inertia of the six shapes (``mass_properties``).

Closed forms, as Box2D's ``b2ComputeCircleMass``, ``b2ComputeCapsuleMass`` and
``b2ComputePolygonMass`` give them; the compiled twin is ``_ext/mass.pyx``, with the
same formulas in the same order (bit-identical float64 answers).

* Circle: area ``pi r^2``, inertia ``m r^2 / 2``.
* Capsule: a ``length x 2r`` rectangle plus two half discs.  A half disc's centroid
  lies ``4r / (3 pi)`` from its flat side, so each contributes ``m_half (r^2/2 + L^2/4 +
  L 4r/(3 pi))`` about the capsule's centre (parallel axes, twice).  A Segment is a
  capsule of radius 0: mass and inertia 0, centroid its midpoint.
* AABB and OBB: ``m (w^2 + h^2) / 12`` with full sizes ``w`` and ``h``.
* Polygon: a fan of triangles from the first vertex, in coordinates relative to that
  vertex (a polygon at 1e6 keeps its digits); the moment about that vertex is moved to
  the centroid by the parallel axis theorem.

Every function returns ``(mass, cx, cy, inertia)`` for a density; ``mass_properties``
makes the record.
"""

from __future__ import annotations

import math

import numpy as np

from .batch import _rows
from .records import MassData
from .shapes import AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, POLYGON, SEGMENT

# a half disc's centroid lies this many radii from its flat side
HALF_DISC = 4.0 / (3.0 * math.pi)


def circle_mass(x, y, r, density):
    mass = density * (math.pi * r * r)
    return mass, x, y, mass * (0.5 * r * r)


def capsule_mass(ax, ay, bx, by, r, density):
    length = math.hypot(bx - ax, by - ay)
    box = density * (2.0 * r * length)
    disc = density * (math.pi * r * r)
    inertia = (box * (length * length + 4.0 * r * r) / 12.0
               + disc * (0.5 * r * r + 0.25 * length * length + length * (HALF_DISC * r)))
    return box + disc, (ax + bx) * 0.5, (ay + by) * 0.5, inertia


def box_mass(cx, cy, half_w, half_h, density):
    mass = density * (4.0 * half_w * half_h)
    return mass, cx, cy, mass * (half_w * half_w + half_h * half_h) / 3.0


def polygon_mass(xs, ys, density):
    n = len(xs)
    ox, oy = xs[0], ys[0]
    area = sx = sy = moment = 0.0
    for i in range(1, n - 1):
        e1x, e1y = xs[i] - ox, ys[i] - oy
        e2x, e2y = xs[i + 1] - ox, ys[i + 1] - oy
        d = e1x * e2y - e1y * e2x
        # a triangle (o, o + e1, o + e2): half of d, its centroid a third of e1 + e2
        area += 0.5 * d
        sx += d * (e1x + e2x)
        sy += d * (e1y + e2y)
        moment += d * (e1x * e1x + e1x * e2x + e2x * e2x + e1y * e1y + e1y * e2y + e2y * e2y)
    # sums of d * (e1 + e2) are 6 * area * centroid; the moment sum is 12 * I about o
    cx = sx / (6.0 * area)
    cy = sy / (6.0 * area)
    inertia = density * (moment / 12.0 - area * (cx * cx + cy * cy))
    return density * area, ox + cx, oy + cy, inertia


def shape_mass(s, density):
    """``(mass, cx, cy, inertia)`` of a shape of this backend."""
    kind = s.kind
    if kind == CIRCLE:
        return circle_mass(s._x, s._y, s._r, density)
    if kind == CAPSULE:
        return capsule_mass(s._ax, s._ay, s._bx, s._by, s._r, density)
    if kind == SEGMENT:
        return capsule_mass(s._ax, s._ay, s._bx, s._by, 0.0, density)
    if kind == AABB_KIND:
        return box_mass((s._min_x + s._max_x) * 0.5, (s._min_y + s._max_y) * 0.5,
                        (s._max_x - s._min_x) * 0.5, (s._max_y - s._min_y) * 0.5, density)
    if kind == OBB_KIND:
        return box_mass(s._cx, s._cy, s._half_w, s._half_h, density)
    assert kind == POLYGON
    return polygon_mass(s._xs, s._ys, density)


def mass_properties(s, density):
    """``MassData`` of a shape; ``density`` is a checked float >= 0."""
    mass, cx, cy, inertia = shape_mass(s, density)
    return MassData(mass, (cx, cy), inertia)


def mass_rows(shapes, density, workers):
    """``(mass, centroid, inertia)`` of each row of a shape array, row by row.

    ``density`` is a checked float64 array of one value or one per row.  NaN in the
    rows that are no shape; the results in the rows' precision.
    """
    n = len(shapes)
    mass = np.empty(n)
    centroid = np.empty((n, 2))
    inertia = np.empty(n)
    for i, s in enumerate(_rows(shapes, n)):
        if s is None:
            mass[i] = inertia[i] = math.nan
            centroid[i] = math.nan
            continue
        d = float(density[0 if len(density) == 1 else i])
        mass[i], centroid[i, 0], centroid[i, 1], inertia[i] = shape_mass(s, d)
    dtype = shapes.dtype
    return mass.astype(dtype), centroid.astype(dtype), inertia.astype(dtype)
