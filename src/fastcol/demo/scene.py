"""The ball pit's bodies: four shape arrays, one NumPy state for every body.

Bodies are stored by type (circles, then capsules, then boxes, then polygons), so body
``k`` of type ``t`` is row ``k - start[t]`` of that type's array.  A body's *position*
is a reference point (a circle's centre, the middle of a capsule's core, a box's
centre, a polygon's vertex mean); its shape is fixed geometry relative to that point.

Decisions (also in the README's Demo section):

* **Translation only.**  Bodies keep the angle they are born with: no moments of
  inertia, no vertices to rotate each step.  Tilted boxes and polygons rest on a corner
  without toppling.  Moving a body is one addition per row of ``.data``/``.vertices``.
* **Mass is area** (density 1): a big box pushes a small ball aside.
* **Walls are the scene's rectangle** ``[0, width] x [0, height]``, not shapes: a body
  meets them through its bounding box, which translation leaves constant relative to
  its position (``lo``, ``hi``), so no query is needed (see ``step``).
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


class Scene:
    """The state of a ball pit: positions, velocities, masses and four shape arrays.

    Attributes
    ----------
    fc : fastcol
        The fastcol backend the shape arrays belong to.
    width, height : float
        The walls: every body's bounds stay inside ``[0, width] x [0, height]``.
    pos, vel : (N, 2) float64 arrays
        Reference point and velocity of every body.
    inv_mass : (N,) float64 array
        1 / area.
    lo, hi : (N, 2) float64 arrays
        The body's bounding box relative to its position (constant: no rotation).
    size : (N,) float64 array
        Half the diagonal of the body's bounding box, its length scale.
    arrays : tuple of four shape arrays
        ``CircleArray``, ``CapsuleArray``, ``OBBArray``, ``PolygonArray``; written by
        :meth:`sync` from ``pos``.
    start : tuple of five ints
        Body ``start[t] + i`` is row ``i`` of ``arrays[t]``.
    """

    def __init__(self, fc, width, height, pos, vel, inv_mass, lo, hi, arrays, start,
                 capsule_core, polygon_local):
        self.fc = fc
        self.width = float(width)
        self.height = float(height)
        self.pos = pos
        self.vel = vel
        self.inv_mass = inv_mass
        self.lo = lo
        self.hi = hi
        self.size = 0.5 * np.hypot(hi[:, 0] - lo[:, 0], hi[:, 1] - lo[:, 1])
        self.arrays = arrays
        self.start = start
        # for the narrowphase (step.find_contacts): each body's type and its row in
        # that type's array
        counts = np.diff(np.asarray(start))
        self.kind = np.repeat(np.arange(4, dtype=np.uint8), counts)
        self.row = np.arange(len(pos)) - np.repeat(np.asarray(start[:4]), counts)
        # the bounding box as offsets from the position, lo and hi side by side, padded
        # by a hair for the broadphase so that rounding in pos + lo cannot lose a pair
        # that touches exactly
        pad = 1e-9 * (self.width + self.height)
        self.box_offsets = np.concatenate([lo - pad, hi + pad], axis=1)
        self._capsule_core = capsule_core      # (n, 4): a and b relative to the position
        self._polygon_local = polygon_local    # (n, K, 2): vertices relative to it
        # the solver's memory of the last step: (key modulus, sorted body-pair keys,
        # normal and friction impulses), for the warm start
        self._warm = None
        self.sync()

    def __len__(self):
        return self.pos.shape[0]

    def positions_of(self, t):
        """The ``(n, 2)`` view of ``pos`` holding the bodies of type ``t``."""
        return self.pos[self.start[t]:self.start[t + 1]]

    def sync(self):
        """Write ``pos`` into the shape arrays: moving shapes is writing their rows."""
        circles, capsules, boxes, polygons = self.arrays
        circles.data[:, 0:2] = self.positions_of(0)
        p = self.positions_of(1)
        capsules.data[:, 0:2] = p + self._capsule_core[:, 0:2]
        capsules.data[:, 2:4] = p + self._capsule_core[:, 2:4]
        boxes.data[:, 0:2] = self.positions_of(2)
        # the padding rows repeat the last vertex, so shifting them too keeps them so
        polygons.vertices[...] = self.positions_of(3)[:, None, :] + self._polygon_local

    def state_bytes(self):
        """Positions and velocities as bytes: equal exactly when two runs agree bit for bit."""
        return self.pos.tobytes() + self.vel.tobytes()


def _counts(n):
    counts = [int(n * s) for s in SHARES]
    counts[0] += n - sum(counts)
    return counts


def _rows(value, width, name):
    rows = np.zeros((0, width)) if value is None else np.asarray(value, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[1] != width:
        raise ValueError(f"{name} must have shape (n, {width}), got {rows.shape}")
    return rows.copy()


def _bodies(fc, circles, capsules, boxes, rings):
    """Everything a Scene needs to know about its bodies, from shape rows.

    Returns ``(pos, lo, hi, area, arrays, capsule_core, polygon_local)``.
    """
    # circles (x, y, r): the centre
    cpos = circles[:, 0:2]
    r = circles[:, 2]
    circle_lo = np.stack([-r, -r], axis=1)
    circle_area = math.pi * r * r

    # capsules (ax, ay, bx, by, r): the middle of the core
    kpos = 0.5 * (capsules[:, 0:2] + capsules[:, 2:4])
    capsule_core = np.concatenate([capsules[:, 0:2] - kpos, capsules[:, 2:4] - kpos], axis=1)
    cr = capsules[:, 4]
    half = np.abs(capsule_core[:, 0:2])
    capsule_lo = -(half + cr[:, None])
    capsule_area = math.pi * cr * cr + 2.0 * np.hypot(*(capsule_core[:, 2:4] - capsule_core[:, 0:2]).T) * cr

    # boxes (cx, cy, half_w, half_h, angle): the centre
    bpos = boxes[:, 0:2]
    hw, hh, ang = boxes[:, 2], boxes[:, 3], boxes[:, 4]
    c, s = np.abs(np.cos(ang)), np.abs(np.sin(ang))
    box_lo = -np.stack([c * hw + s * hh, s * hw + c * hh], axis=1)
    box_area = 4.0 * hw * hh

    # polygons: the mean of the given vertices
    polygons = fc.PolygonArray([np.asarray(ring, dtype=np.float64) for ring in rings])
    ppos = np.array([np.mean(ring, axis=0) for ring in rings]).reshape(-1, 2)
    polygon_local = polygons.vertices - ppos[:, None, :]
    valid = np.arange(polygon_local.shape[1])[None, :] < polygons.counts[:, None, None][:, :, 0]
    x, y = polygon_local[..., 0], polygon_local[..., 1]
    polygon_lo = np.stack([np.where(valid, x, np.inf).min(axis=1, initial=np.inf),
                           np.where(valid, y, np.inf).min(axis=1, initial=np.inf)], axis=1)
    polygon_hi = np.stack([np.where(valid, x, -np.inf).max(axis=1, initial=-np.inf),
                           np.where(valid, y, -np.inf).max(axis=1, initial=-np.inf)], axis=1)
    # shoelace over the padded ring: the padding repeats the last vertex, so its terms
    # are zero and the wrap-around term closes the ring
    cross = x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y
    polygon_area = 0.5 * cross.sum(axis=1)

    pos = np.concatenate([cpos, kpos, bpos, ppos])
    lo = np.concatenate([circle_lo, capsule_lo, box_lo, polygon_lo])
    hi = np.concatenate([-circle_lo, -capsule_lo, -box_lo, polygon_hi])
    area = np.concatenate([circle_area, capsule_area, box_area, polygon_area])
    arrays = (fc.CircleArray(circles), fc.CapsuleArray(capsules), fc.OBBArray(boxes), polygons)
    return pos, lo, hi, area, arrays, capsule_core, polygon_local


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
        Rows ``cx, cy, half_w, half_h, angle`` (the angle stays fixed).
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
    >>> scene.pos.tolist(), scene.start
    ([[5.0, 1.0], [5.0, 3.0]], (0, 1, 1, 2, 2))
    """
    if fc is None:
        import fastcol as fc
    circles = _rows(circles, 3, "circles")
    capsules = _rows(capsules, 5, "capsules")
    boxes = _rows(boxes, 5, "boxes")
    rings = list(polygons)
    pos, lo, hi, area, arrays, core, local = _bodies(fc, circles, capsules, boxes, rings)
    n = len(pos)
    vel = np.zeros((n, 2)) if velocities is None else np.array(velocities, dtype=np.float64)
    if vel.shape != (n, 2):
        raise ValueError(f"velocities must have shape ({n}, 2), got {vel.shape}")
    start = tuple(np.cumsum([0, len(circles), len(capsules), len(boxes), len(rings)]).tolist())
    return Scene(fc, width, height, pos, vel, 1.0 / area, lo, hi, arrays, start, core, local)


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
    >>> bool((scene.pos + scene.lo >= 0).all() and (scene.pos + scene.hi <= [scene.width, scene.height]).all())
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
    _, lo, hi, area, arrays, core, local = _bodies(fc, circles, capsules, boxes, rings)

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

    start = tuple(np.cumsum([0, nc, nk, nb, npg]).tolist())
    return Scene(fc, width, height, pos, vel, 1.0 / area, lo, hi, arrays, start, core, local)
