"""The ball pit's bodies: four shape arrays, one NumPy state for every body.

Bodies are stored by type (circles, then capsules, then boxes, then polygons), so body
``k`` of type ``t`` is row ``k - start[t]`` of that type's array.  A body's *position*
is its centroid (a circle's centre, the middle of a capsule's core, a box's centre, a
polygon's area centroid) and its *angle* how far it has turned since it was made
(counter-clockwise, radians, not wrapped); the shape arrays hold the body as it is now,
and the step moves them in place (``translate``, then ``rotate`` about the centroid).

Decisions (also in the README's Demo section):

* **Rigid bodies that turn.**  Mass, centroid and polar moment of inertia come from
  ``mass_properties`` (density 1: mass is area), so a big box pushes a small ball aside
  and a long capsule turns more slowly than a short one.
* **Boxes are OBBs** (``OBBArray``): a turning box is an oriented box whose angle column
  ``rotate`` keeps in ``[-pi, pi]``.
* **Size** is a body's radius about its centroid (the farthest point of the shape): it
  does not change as the body turns, and it is the length scale of every tolerance of
  the step (slop, impacts, what moves "fast").
* **Walls are the scene's rectangle** ``[0, width] x [0, height]``, not shapes: the step
  meets them through every body's outline points (circle centres and capsule ends with
  their radius, box corners, polygon vertices), so no query is needed (see ``step``).
* **Sizes**: circle radii 0.35 to 1.0, capsule cores 0.6 to 1.8 long with radii 0.2 to
  0.45, boxes 0.6 to 1.6 a side, polygons of 3 to 7 vertices on a circle of radius
  0.45 to 0.95; about 40% circles and 20% of each other type.
"""

from __future__ import annotations

import math

import numpy as np


TYPE_NAMES = ("circles", "capsules", "boxes", "polygons")
# the share of each type in a scene (the rest of the rounding goes to circles)
SHARES = (0.4, 0.2, 0.2, 0.2)


def outline_points(arrays):
    """Every body's outline points as they are now, type by type.

    Returns four ``(points (n, P, 2), radius (n,))``: a body is the convex hull of its
    points grown by its radius (a circle's centre, a capsule's two ends, a box's four
    corners, a polygon's padded ring, whose padding repeats its last vertex).
    """
    circles, capsules, boxes, polygons = arrays
    c, k, b = circles.data, capsules.data, boxes.data
    cos, sin = np.cos(b[:, 4]), np.sin(b[:, 4])
    ux, uy = b[:, 2] * cos, b[:, 2] * sin      # half the width along the box's x axis
    vx, vy = -b[:, 3] * sin, b[:, 3] * cos     # half the height along its y axis
    corners = np.empty((len(b), 4, 2))
    for j, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        corners[:, j, 0] = b[:, 0] + (sx * ux + sy * vx)
        corners[:, j, 1] = b[:, 1] + (sx * uy + sy * vy)
    zero_b = np.zeros(len(b))
    return ((c[:, None, 0:2], c[:, 2]),
            (k[:, 0:4].reshape(-1, 2, 2), k[:, 4]),
            (corners, zero_b),
            (polygons.vertices, np.zeros(len(polygons))))


class Scene:
    """The state of a ball pit: centroids, angles, velocities, masses and shape arrays.

    Attributes
    ----------
    fc : fastcol
        The fastcol backend the shape arrays belong to.
    width, height : float
        The walls: every body stays inside ``[0, width] x [0, height]``.
    pos, vel : (N, 2) float64 arrays
        Centroid and its velocity of every body.
    angle, omega : (N,) float64 arrays
        How far each body has turned (radians, counter-clockwise) and its angular
        velocity.
    inv_mass, inv_inertia : (N,) float64 arrays
        1 / area and 1 / polar moment of inertia about the centroid (density 1).
    size : (N,) float64 array
        The body's radius about its centroid, its length scale.
    arrays : tuple of four shape arrays
        ``CircleArray``, ``CapsuleArray``, ``OBBArray``, ``PolygonArray``, moved in place
        by the step.
    start : tuple of five ints
        Body ``start[t] + i`` is row ``i`` of ``arrays[t]``.
    """

    def __init__(self, fc, width, height, vel, arrays, start):
        self.fc = fc
        self.width = float(width)
        self.height = float(height)
        masses = [fc.mass_properties(a) for a in arrays]
        self.pos = np.concatenate([m[1] for m in masses]).reshape(-1, 2)
        self.vel = vel
        n = len(self.pos)
        self.angle = np.zeros(n)
        self.omega = np.zeros(n)
        self.inv_mass = 1.0 / np.concatenate([m[0] for m in masses])
        self.inv_inertia = 1.0 / np.concatenate([m[2] for m in masses])
        self.arrays = arrays
        self.start = start
        # for the narrowphase (step.find_contacts): each body's type and its row in
        # that type's array
        counts = np.diff(np.asarray(start))
        self.kind = np.repeat(np.arange(4, dtype=np.uint8), counts)
        self.row = np.arange(n) - np.repeat(np.asarray(start[:4]), counts)
        # the outline points flattened, body by body (for the walls): which body each
        # point belongs to and its number within the body; a polygon's padding, which
        # repeats its last vertex, is left out
        polygons = arrays[3]
        k = polygons.vertices.shape[1] if len(polygons) else 0
        keep = [np.ones(counts[0] * 1, bool), np.ones(counts[1] * 2, bool),
                np.ones(counts[2] * 4, bool),
                (np.arange(k)[None, :] < polygons.counts[:, None]).ravel()]
        self._outline_keep = np.concatenate(keep)
        body = [np.repeat(np.arange(start[t], start[t + 1]), p)
                for t, p in enumerate((1, 2, 4, k))]
        feature = [np.tile(np.arange(p), counts[t]) for t, p in enumerate((1, 2, 4, k))]
        self.outline_body = np.concatenate(body)[self._outline_keep]
        self.outline_feature = np.concatenate(feature)[self._outline_keep]
        self.features = max(4, k)   # outline points per body at most
        points = self.outline()
        far = np.hypot(points[0] - self.pos[self.outline_body, 0],
                       points[1] - self.pos[self.outline_body, 1]) + points[2]
        self.size = np.zeros(n)
        np.maximum.at(self.size, self.outline_body, far)
        # the bounding boxes for the broadphase are padded by a hair, so that rounding
        # in the corners cannot lose a pair that touches exactly
        self.pad = 1e-9 * (self.width + self.height)
        # the solver's memory of the last step: (key modulus, sorted contact keys,
        # normal and friction impulses), for the warm start
        self._warm = None
        # what the last step's position correction and wall clamp moved each body by
        # (energy bookkeeping: that is where a step can lift a body)
        self.corrected = np.zeros((n, 2))

    def __len__(self):
        return self.pos.shape[0]

    def positions_of(self, t):
        """The ``(n, 2)`` view of ``pos`` holding the bodies of type ``t``."""
        return self.pos[self.start[t]:self.start[t + 1]]

    def outline(self):
        """The outline points of every body, flattened: ``(x, y, radius)`` arrays, in
        the order of ``outline_body``."""
        parts = outline_points(self.arrays)
        xy = np.concatenate([p.reshape(-1, 2) for p, _ in parts])[self._outline_keep]
        r = np.concatenate([np.repeat(r, p.shape[1]) for p, r in parts])[self._outline_keep]
        return xy[:, 0], xy[:, 1], r

    def bounds(self, rows=None):
        """Every body's bounding box as it is now, ``(N, 4)``: min x, min y, max x, max y;
        with ``rows`` (sorted body indices), only theirs, ``(len(rows), 4)``.

        Straight from each type's rows (a box's half extents along x and y are
        ``|hw cos| + |hh sin|`` and ``|hw sin| + |hh cos|``): no outline points."""
        circles, capsules, boxes, polygons = self.arrays
        if rows is None:
            cut = self.start
            c, k, b = circles.data, capsules.data, boxes.data
            v = polygons.vertices if cut[4] > cut[3] else None
        else:
            # the rows of each type are a slice of the sorted rows
            rows = np.asarray(rows)
            cut = tuple(np.searchsorted(rows, self.start).tolist())
            local = rows - np.repeat(np.asarray(self.start[:4]), np.diff(cut))
            c = circles.data.take(local[cut[0]:cut[1]], axis=0)
            k = capsules.data.take(local[cut[1]:cut[2]], axis=0)
            b = boxes.data.take(local[cut[2]:cut[3]], axis=0)
            v = polygons.vertices.take(local[cut[3]:cut[4]], axis=0) if cut[4] > cut[3] else None
        out = np.empty((cut[4] - cut[0], 4))
        s0, s1, s2, s3, s4 = (x - cut[0] for x in cut)
        out[s0:s1, 0:2] = c[:, 0:2] - c[:, 2:3]
        out[s0:s1, 2:4] = c[:, 0:2] + c[:, 2:3]
        out[s1:s2, 0:2] = np.minimum(k[:, 0:2], k[:, 2:4]) - k[:, 4:5]
        out[s1:s2, 2:4] = np.maximum(k[:, 0:2], k[:, 2:4]) + k[:, 4:5]
        cos, sin = np.abs(np.cos(b[:, 4])), np.abs(np.sin(b[:, 4]))
        ex = b[:, 2] * cos + b[:, 3] * sin
        ey = b[:, 2] * sin + b[:, 3] * cos
        out[s2:s3, 0] = b[:, 0] - ex
        out[s2:s3, 1] = b[:, 1] - ey
        out[s2:s3, 2] = b[:, 0] + ex
        out[s2:s3, 3] = b[:, 1] + ey
        if v is not None:
            # the padding of a ring repeats its last vertex: it changes neither bound
            out[s3:s4, 0:2] = v.min(axis=1)
            out[s3:s4, 2:4] = v.max(axis=1)
        return out

    def state_bytes(self):
        """Centroids, angles and velocities as bytes: equal exactly when two runs agree
        bit for bit."""
        return (self.pos.tobytes() + self.angle.tobytes() + self.vel.tobytes()
                + self.omega.tobytes())


def _counts(n):
    counts = [int(n * s) for s in SHARES]
    counts[0] += n - sum(counts)
    return counts


def _rows(value, width, name):
    rows = np.zeros((0, width)) if value is None else np.asarray(value, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[1] != width:
        raise ValueError(f"{name} must have shape (n, {width}), got {rows.shape}")
    return rows.copy()


def _arrays(fc, circles, capsules, boxes, rings):
    """The four shape arrays of the given rows (copies: the step moves them in place)."""
    polygons = fc.PolygonArray([np.asarray(ring, dtype=np.float64) for ring in rings])
    return (fc.CircleArray(circles.copy()), fc.CapsuleArray(capsules.copy()),
            fc.OBBArray(boxes.copy()), polygons)


def build_scene(width, height, circles=None, capsules=None, boxes=None, polygons=(),
                velocities=None, fc=None):
    """A scene of the given bodies inside the walls ``[0, width] x [0, height]``.

    Parameters
    ----------
    width, height : float
        The walls.
    circles : (n, 3) array_like, optional
        Rows ``x, y, r`` (as ``CircleArray``).
    capsules : (n, 5) array_like, optional
        Rows ``ax, ay, bx, by, r``.
    boxes : (n, 5) array_like, optional
        Rows ``cx, cy, half_w, half_h, angle`` (as ``OBBArray``; the angle is where the
        box starts, ``Scene.angle`` counts its turning from there).
    polygons : sequence of vertex lists, optional
        Convex polygons.
    velocities : (N, 2) array_like, optional
        One row per body, in the order circles, capsules, boxes, polygons; default 0.
    fc : fastcol, optional
        The fastcol backend; default ``fastcol``.

    Examples
    --------
    >>> from fastcol.demo import build_scene
    >>> scene = build_scene(10, 10, circles=[[5, 1, 1]], boxes=[[5, 3, 1, 1, 0]])
    >>> scene.pos.tolist(), scene.start, scene.size.tolist()
    ([[5.0, 1.0], [5.0, 3.0]], (0, 1, 1, 2, 2), [1.0, 1.4142135623730951])
    """
    if fc is None:
        import fastcol as fc
    circles = _rows(circles, 3, "circles")
    capsules = _rows(capsules, 5, "capsules")
    boxes = _rows(boxes, 5, "boxes")
    rings = list(polygons)
    arrays = _arrays(fc, circles, capsules, boxes, rings)
    n = len(circles) + len(capsules) + len(boxes) + len(rings)
    vel = np.zeros((n, 2)) if velocities is None else np.array(velocities, dtype=np.float64)
    if vel.shape != (n, 2):
        raise ValueError(f"velocities must have shape ({n}, 2), got {vel.shape}")
    start = tuple(np.cumsum([0, len(circles), len(capsules), len(boxes), len(rings)]).tolist())
    return Scene(fc, width, height, vel, arrays, start)


def make_scene(n_bodies=2000, seed=0, fc=None):
    """A ball pit of ``n_bodies`` bodies in rows above the floor, ready to fall.

    Parameters
    ----------
    n_bodies : int
        Number of bodies (>= 0).
    seed : int
        Seed of the NumPy generator that draws sizes, angles, positions and velocities:
        the same seed gives the same scene.
    fc : fastcol, optional
        The fastcol API to run on (``fastcol._api.load("reference")`` for the reference
        backend); default ``fastcol``.

    Returns
    -------
    Scene

    Examples
    --------
    >>> from fastcol.demo import make_scene
    >>> scene = make_scene(10, seed=1)
    >>> [len(a) for a in scene.arrays]
    [4, 2, 2, 2]
    >>> b = scene.bounds()
    >>> bool((b[:, :2] >= 0).all() and (b[:, 2:] <= [scene.width, scene.height]).all())
    True
    """
    if fc is None:
        import fastcol as fc
    if n_bodies < 0:
        raise ValueError(f"n_bodies must be >= 0, got {n_bodies}")
    rng = np.random.default_rng(seed)
    nc, nk, nb, npg = _counts(n_bodies)

    # every body drawn at the origin; the layout below moves it
    circles = np.zeros((nc, 3))
    circles[:, 2] = rng.uniform(0.35, 1.0, nc)
    half = rng.uniform(0.3, 0.9, nk)
    phi = rng.uniform(0.0, math.pi, nk)
    hx, hy = half * np.cos(phi), half * np.sin(phi)
    capsules = np.stack([-hx, -hy, hx, hy, rng.uniform(0.2, 0.45, nk)], axis=1)
    boxes = np.stack([np.zeros(nb), np.zeros(nb), rng.uniform(0.3, 0.8, nb),
                      rng.uniform(0.3, 0.8, nb), rng.uniform(0.0, math.pi, nb)], axis=1)
    # 3 to 7 vertices on a circle at random angles (convex by construction), with a
    # minimum angular gap so no two vertices nearly coincide
    rings = []
    for _ in range(npg):
        m = int(rng.integers(3, 8))
        gaps = rng.uniform(0.5, 1.0, m)
        theta = rng.uniform(0.0, 2.0 * math.pi) + np.cumsum(gaps) * (2.0 * math.pi / gaps.sum())
        rad = rng.uniform(0.45, 0.95)
        ring = np.stack([rad * np.cos(theta), rad * np.sin(theta)], axis=1)
        rings.append(ring - ring.mean(axis=0))
    # each body's bounding box about the origin it was drawn at, and its area
    drawn = _arrays(fc, circles, capsules, boxes, rings)
    extent_rows = []
    for p, r in outline_points(drawn):
        extent_rows.append(np.concatenate([p.min(axis=1, initial=np.inf) - r[:, None],
                                           p.max(axis=1, initial=-np.inf) + r[:, None]],
                                          axis=1))
    box = np.concatenate(extent_rows).reshape(-1, 4)
    lo, hi = box[:, 0:2], box[:, 2:4]
    area = np.concatenate([fc.mass_properties(a)[0] for a in drawn])

    # the walls: wide enough that the settled pile (area / 0.6 packing) fills about
    # 40% of the height; the bodies start packed in rows above it (shelf packing in a
    # shuffled order, a small gap between neighbours, so none starts overlapping)
    gap = 0.15
    extent = hi - lo
    width = max(4.0 * float(extent[:, 0].max(initial=1.0)) + 2.0 * gap,
                math.sqrt(area.sum() / (0.6 * 0.4)))
    pos = np.empty((n_bodies, 2))
    x, top, row = gap, 0.0, 0.0
    for i in rng.permutation(n_bodies):
        if x + extent[i, 0] > width - gap:
            x, top, row = gap, top - row - gap, 0.0
        pos[i, 0] = x - lo[i, 0]
        pos[i, 1] = top - hi[i, 1]
        x += extent[i, 0] + gap
        row = max(row, extent[i, 1])
    stack = row - top  # from the lowest row's bottom to the top of the first row
    pile = area.sum() / (0.6 * width)
    height = max(0.75 * width, pile + stack + 4.0 * gap)
    pos[:, 1] += height - gap
    vel = np.zeros((n_bodies, 2))
    vel[:, 0] = rng.uniform(-2.0, 2.0, n_bodies)
    vel[:, 1] = rng.uniform(-2.0, 0.0, n_bodies)

    # every body moved from where it was drawn to its place in the rows
    start = tuple(np.cumsum([0, nc, nk, nb, npg]).tolist())
    circles[:, 0:2] += pos[start[0]:start[1]]
    capsules[:, 0:4] += np.tile(pos[start[1]:start[2]], 2)
    boxes[:, 0:2] += pos[start[2]:start[3]]
    rings = [ring + p for ring, p in zip(rings, pos[start[3]:start[4]])]
    return Scene(fc, width, height, vel, _arrays(fc, circles, capsules, boxes, rings), start)
