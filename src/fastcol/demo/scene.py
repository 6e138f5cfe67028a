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
* **Walls are the scene's rectangle**, applied per body by clamping its bounding box
  (which translation leaves constant relative to the position), not static shapes.
* **Sizes**: circle radii 0.35 to 1.0, capsules 0.6 to 1.8 long and 0.2 to 0.45 thick,
  boxes 0.6 to 1.6 a side, polygons of 3 to 7 vertices on a circle of radius 0.45 to
  0.95; about 40% circles and 20% of each other type.
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
    fc : module
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
        self._capsule_core = capsule_core      # (n, 4): a and b relative to the position
        self._polygon_local = polygon_local    # (n, K, 2): vertices relative to it
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


def make_scene(n_bodies=2000, seed=0, fc=None):
    """A ball pit of ``n_bodies`` bodies dropped in a grid above the floor.

    Parameters
    ----------
    n_bodies : int
        Number of bodies (>= 0).
    seed : int
        Seed of the NumPy generator that draws sizes, angles, positions and velocities:
        the same seed gives the same scene.
    fc : module, optional
        The fastcol backend (``fastcol._ext``, ``fastcol._ref``); default ``fastcol``.

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

    # circles: x, y, r
    radii = rng.uniform(0.35, 1.0, nc)
    circle_lo = np.stack([-radii, -radii], axis=1)
    circle_area = math.pi * radii * radii

    # capsules: a core of half length h at angle phi, radius r
    half = rng.uniform(0.3, 0.9, nk)
    cr = rng.uniform(0.2, 0.45, nk)
    phi = rng.uniform(0.0, math.pi, nk)
    hx, hy = half * np.cos(phi), half * np.sin(phi)
    capsule_core = np.stack([-hx, -hy, hx, hy], axis=1)
    capsule_lo = np.stack([-np.abs(hx) - cr, -np.abs(hy) - cr], axis=1)
    capsule_area = math.pi * cr * cr + 4.0 * half * cr

    # boxes: half extents and a fixed angle
    hw = rng.uniform(0.3, 0.8, nb)
    hh = rng.uniform(0.3, 0.8, nb)
    ang = rng.uniform(0.0, math.pi, nb)
    c, s = np.abs(np.cos(ang)), np.abs(np.sin(ang))
    box_lo = -np.stack([c * hw + s * hh, s * hw + c * hh], axis=1)
    box_area = 4.0 * hw * hh

    # polygons: 3 to 7 vertices on a circle, at random angles (convex by construction,
    # with a minimum angular gap so no two vertices nearly coincide)
    rings = []
    for _ in range(npg):
        m = int(rng.integers(3, 8))
        gaps = rng.uniform(0.5, 1.0, m)
        theta = rng.uniform(0.0, 2.0 * math.pi) + np.cumsum(gaps) * (2.0 * math.pi / gaps.sum())
        rad = rng.uniform(0.45, 0.95)
        ring = np.stack([rad * np.cos(theta), rad * np.sin(theta)], axis=1)
        rings.append(ring - ring.mean(axis=0))
    polygons = fc.PolygonArray(rings)
    polygon_local = polygons.vertices.copy()
    valid = np.arange(polygon_local.shape[1])[None, :] < polygons.counts[:, None]
    if npg:
        vx = np.where(valid, polygon_local[..., 0], np.inf)
        vy = np.where(valid, polygon_local[..., 1], np.inf)
        polygon_lo = np.stack([vx.min(axis=1), vy.min(axis=1)], axis=1)
        wx = np.where(valid, polygon_local[..., 0], -np.inf)
        wy = np.where(valid, polygon_local[..., 1], -np.inf)
        polygon_hi = np.stack([wx.max(axis=1), wy.max(axis=1)], axis=1)
        # shoelace over the padded ring: the padding repeats the last vertex, so its
        # terms are zero and the wrap-around term closes the ring
        x, y = polygon_local[..., 0], polygon_local[..., 1]
        cross = x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y
        polygon_area = 0.5 * cross.sum(axis=1)
    else:
        polygon_lo = polygon_hi = np.zeros((0, 2))
        polygon_area = np.zeros(0)

    lo = np.concatenate([circle_lo, capsule_lo, box_lo, polygon_lo])
    hi = np.concatenate([-circle_lo, -capsule_lo, -box_lo, polygon_hi])
    area = np.concatenate([circle_area, capsule_area, box_area, polygon_area])

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

    start = np.cumsum([0, nc, nk, nb, npg]).tolist()
    arrays = (
        fc.CircleArray(np.stack([pos[:nc, 0], pos[:nc, 1], radii], axis=1)),
        fc.CapsuleArray(np.concatenate([np.zeros((nk, 4)), cr[:, None]], axis=1)),
        fc.OBBArray(np.stack([np.zeros(nb), np.zeros(nb), hw, hh, ang], axis=1)),
        polygons,
    )
    return Scene(fc, width, height, pos, vel, 1.0 / area, lo, hi, arrays, tuple(start),
                 capsule_core, polygon_local)
