"""The lidar scene: agents find their way among walls and boxes by casting rays.

``python -m fastcol demo --scene lidar`` runs it (see ``fastcol.demo.cli``).  Written on
fastcol's public API and NumPy only, as an example to copy.  One ``fc.ShapeIndex`` holds
the whole scene: the walls (a ``SegmentArray``: the arena's border and some interior
walls), the boxes (an ``AABBArray``, an ``OBBArray`` and a ``PolygonArray``) and, last,
the agents themselves (a ``CircleArray`` whose rows move).  Each step:

1. **Steer** (NumPy): each agent turns towards the most open direction its last scan
   saw (straight ahead preferred, a little random wander) and sets its speed from the
   clearance ahead.
2. **Move**: the path of every agent, a ``CapsuleArray`` from where it is to where it
   wants to be (its radius plus a skin), goes through **one** ``idx.query``; an agent
   whose path touches a wall or a box, or another agent it would step closer to,
   stays where it is and turns around.  The others move (writing the agents' rows),
   then ``idx.refit()`` (``idx.rebuild()`` every ``Params.rebuild`` steps).
3. **Scan**: **one** ``idx.raycast`` for every ray of every agent (``n_agents *
   n_rays`` rows of origins and directions, ``max_t`` the sensor range): the first item
   each ray meets.

Decisions:

* **An agent does not see itself**: its rays start on a circle a hair (``2**-20`` of
  its radius) outside its own, pointing away from it, so the first hit is never the
  agent's own row; other agents are seen like walls.  The sensor range is measured
  from there.
* **Collision filters** say who meets whom: walls and boxes are category ``STATIC``,
  whose mask leaves ``STATIC`` out (they never test against each other), agents are
  category ``AGENT``, each in a group of its own (``i + 1``); an agent's path and rays
  carry its category and group, so the index never tests them against the agent's own
  circle, and every other item is tested as before.
* **Walls and boxes are never entered**: an agent only moves along a path that keeps
  ``skin`` away from every wall and box (the query is exact), so no agent ever overlaps
  one, whatever the steering does.  Agents keep apart by steering and by that path
  test against where the others are; two moving at once could still meet (no
  guarantee there, unlike walls and boxes).
* **Refit, and now and then rebuild**: refitting keeps the tree's shape, whose boxes
  grow as the agents wander from where it was built: measured with 500 agents, the
  raycast took 1.05x as long 30 steps after a rebuild, 1.5x after 120 and 2.2x after
  300.  A rebuild costs a few refits and nothing next to the raycast, so every 30th
  step rebuilds.
* **Units**: agents have radius 0.5; the arena is a grid of 8 x 8 cells holding at
  most one wall or box each (about 50 square units per agent), so gaps between
  obstacles are wide enough to pass.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

RADIUS = 0.5          # every agent's radius
CELL = 8.0            # the arena is a grid of cells of this side, one obstacle at most each
AREA_PER_AGENT = 50.0
RIM = 1.0 + 2.0 ** -20  # rays start this many radii from the agent's centre
KINDS = ("walls", "boxes", "oriented boxes", "polygons")
# collision filter categories: walls and boxes, and agents (their paths and rays too)
STATIC = 1
AGENT = 2


@dataclass(frozen=True)
class Params:
    """Constants of the agents' behaviour (units: the agents' radius is 0.5; seconds).

    Attributes
    ----------
    dt : fixed time step, 1/60 s.
    speed : top speed, units per second.
    turn : most an agent turns towards open space in a step, radians.
    wander : standard deviation of a random turn per step, radians.
    cone : half-angle of the cone ahead whose clearance sets the speed, radians (at
        least half the angle between two rays).
    stop, brake : an agent stops when the clearance ahead is ``stop`` and goes at top
        speed from ``stop + brake`` on, in between in proportion.
    skin : the least gap an agent keeps to walls and boxes.
    rebuild : every this many steps the index is rebuilt instead of refitted.
    """

    dt: float = 1.0 / 60.0
    speed: float = 6.0
    turn: float = 0.12
    wander: float = 0.05
    cone: float = 0.5
    stop: float = 0.25
    brake: float = 2.5
    skin: float = 0.05
    rebuild: int = 30


@dataclass
class Timings:
    """Seconds per step spent in each part, one entry per step."""

    raycast: list = field(default_factory=list)
    query: list = field(default_factory=list)
    refit: list = field(default_factory=list)
    numpy: list = field(default_factory=list)
    blocked: list = field(default_factory=list)

    def summary(self, skip=0):
        """Median milliseconds per step of each part, over the steps after ``skip``."""
        out = {}
        for name in ("raycast", "query", "refit", "numpy"):
            values = getattr(self, name)[skip:]
            out[name] = 1e3 * float(np.median(values)) if values else float("nan")
        out["total"] = out["raycast"] + out["query"] + out["refit"] + out["numpy"]
        return out


class Scan(NamedTuple):
    """The rays of one scan, row ``i * n_rays + k`` the ray ``k`` of agent ``i``.

    ``hits`` is ``idx.raycast``'s ``IndexHitArray``; ``ends`` is where each ray stops
    (its hit point, or its origin plus ``max_t`` times its unit direction).
    """

    origins: np.ndarray
    directions: np.ndarray
    max_t: float
    hits: object

    @property
    def ends(self):
        reach = self.origins + self.max_t * self.directions
        return np.where(self.hits.hit[:, None], self.hits.point, reach)


class Scene:
    """Walls, boxes and agents, their ``ShapeIndex``, and the agents' last scan.

    Attributes
    ----------
    fc : fastcol
        The fastcol API the arrays belong to.
    width, height : float
        The arena ``[0, width] x [0, height]``, closed by the first four walls.
    statics : tuple of four shape arrays
        ``SegmentArray`` (walls), ``AABBArray``, ``OBBArray``, ``PolygonArray``.
    agents : CircleArray
        One row ``x, y, r`` per agent; moving an agent is writing its row.
    heading : (n,) float64 array
        The direction each agent faces, radians.
    fan : (n_rays,) float64 array
        Each ray's angle from the heading, in ``[-pi, pi)``, ray 0 straight ahead.
    sensor_range : float
        ``max_t`` of every ray (the directions are unit vectors).
    index : ShapeIndex
        Over ``statics + (agents,)``: items ``0 .. n_static - 1`` are walls and boxes,
        item ``n_static + i`` is agent ``i``.
    scan : Scan
        The rays cast from the agents where they are now.
    steps : int
        Steps run so far.
    rng : numpy.random.Generator
        The wander's random numbers (seeded: the same seed gives the same run).
    """

    def __init__(self, fc, width, height, statics, agents, heading, n_rays, sensor_range,
                 rng, workers=1):
        self.fc = fc
        self.width = float(width)
        self.height = float(height)
        self.statics = statics
        self.agents = agents
        self.heading = heading
        self.fan = _wrap(2.0 * math.pi * np.arange(n_rays) / n_rays)
        self.sensor_range = float(sensor_range)
        self.rng = rng
        self.index = fc.ShapeIndex([*statics, agents], workers=workers)
        self.n_static = sum(len(a) for a in statics)
        self.steps = 0
        self.scan = scan(self)

    def __len__(self):
        return len(self.agents)

    @property
    def positions(self):
        """The ``(n, 2)`` view of the agents' rows holding their centres."""
        return self.agents.data[:, 0:2]

    def state_bytes(self):
        """Positions and headings as bytes: equal exactly when two runs agree bit for bit."""
        return self.agents.data.tobytes() + self.heading.tobytes()


def _wrap(angle):
    """Angles in radians brought into ``[-pi, pi)``."""
    return (angle + math.pi) % (2.0 * math.pi) - math.pi


def fan_rays(scene: Scene):
    """Origins and unit directions of every agent's rays, ``(n * n_rays, 2)`` each."""
    angles = (scene.heading[:, None] + scene.fan[None, :]).reshape(-1)
    directions = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    centres = np.repeat(scene.positions, len(scene.fan), axis=0)
    radius = np.repeat(scene.agents.data[:, 2], len(scene.fan))
    # from just outside the agent's own circle, pointing away: never a hit on itself
    origins = centres + (RIM * radius)[:, None] * directions
    return origins, directions


def ray_filters(scene: Scene) -> dict:
    """The collision filters of every agent's rays (``idx.raycast``'s keywords): an
    agent's sensor sees walls, boxes and the other agents, never its own circle."""
    groups = scene.agents.groups
    return {"categories": AGENT, "masks": STATIC | AGENT,
            "groups": None if groups is None else np.repeat(groups, len(scene.fan))}


def scan(scene: Scene) -> Scan:
    """Cast every ray of every agent in one ``idx.raycast`` call."""
    origins, directions = fan_rays(scene)
    hits = scene.index.raycast(origins, directions, scene.sensor_range, **ray_filters(scene))
    return Scan(origins, directions, scene.sensor_range, hits)


def steer(scene: Scene, params: Params):
    """Turn each agent towards open space seen by its last scan; its velocity ``(n, 2)``."""
    n, m = len(scene), len(scene.fan)
    hits = scene.scan.hits
    free = np.where(hits.hit, hits.t, scene.sensor_range).reshape(n, m)
    # a ray is as open as it and its two neighbours (one ray's gap may be too narrow)
    wide = np.minimum(free, np.minimum(np.roll(free, 1, axis=1), np.roll(free, -1, axis=1)))
    best = np.argmax(wide * (0.6 + 0.4 * np.cos(scene.fan)), axis=1)  # ahead preferred
    turn = np.clip(scene.fan[best], -params.turn, params.turn)
    turn += params.wander * scene.rng.standard_normal(n)
    scene.heading[:] = _wrap(scene.heading + turn)
    # the speed: from the least clearance among the rays within the cone of the new heading
    off = _wrap(scene.fan[None, :] - turn[:, None])
    cone = max(params.cone, math.pi / m)
    ahead = np.where(np.abs(off) <= cone, free, scene.sensor_range).min(axis=1, initial=np.inf)
    speed = params.speed * np.clip((ahead - params.stop) / params.brake, 0.0, 1.0)
    return speed[:, None] * np.stack([np.cos(scene.heading), np.sin(scene.heading)], axis=1)


def step(scene: Scene, params: Params = Params(), timings: Timings | None = None):
    """One fixed step: steer, move (one index query), refit, scan (one raycast).

    Returns the mask of the agents that were blocked (stayed where they were).
    """
    fc, index = scene.fc, scene.index
    t0 = time.perf_counter()
    velocity = steer(scene, params)
    here = scene.positions
    there = here + velocity * params.dt
    # each agent's path, a capsule of its radius plus the skin; one query finds every
    # item each path touches (other agents' rows included; its own group leaves its own
    # row out)
    radius = scene.agents.data[:, 2] + params.skin
    paths = fc.CapsuleArray(np.column_stack([here, there, radius]), categories=AGENT,
                            masks=STATIC | AGENT, groups=scene.agents.groups)
    t1 = time.perf_counter()
    pairs = index.query(paths)
    t2 = time.perf_counter()
    blocked = np.zeros(len(scene), dtype=bool)
    blocked[pairs[pairs[:, 1] < scene.n_static, 0]] = True   # a wall or a box in the way
    # another agent in the way: blocked only when stepping closer to it (so two that
    # touch can still part)
    i, j = pairs[pairs[:, 1] >= scene.n_static].T
    j = j - scene.n_static
    closer = np.hypot(*(there[i] - here[j]).T) < np.hypot(*(here[i] - here[j]).T)
    blocked[i[(i != j) & closer]] = True
    go = ~blocked
    here[go] = there[go]                                      # writes the agents' rows
    scene.heading[blocked] += scene.rng.uniform(0.5 * math.pi, 1.5 * math.pi, int(blocked.sum()))
    t3 = time.perf_counter()
    scene.steps += 1
    if scene.steps % params.rebuild:
        index.refit()                                         # the agents' rows moved
    else:
        index.rebuild()                                       # a fresh tree now and then
    t4 = time.perf_counter()
    origins, directions = fan_rays(scene)
    t5 = time.perf_counter()
    hits = index.raycast(origins, directions, scene.sensor_range, **ray_filters(scene))
    t6 = time.perf_counter()
    scene.scan = Scan(origins, directions, scene.sensor_range, hits)
    if timings is not None:
        timings.query.append(t2 - t1)
        timings.refit.append(t4 - t3)
        timings.raycast.append(t6 - t5)
        timings.numpy.append((t1 - t0) + (t3 - t2) + (t5 - t4))
        timings.blocked.append(int(blocked.sum()))
    return blocked


def run(scene: Scene, steps: int, params: Params = Params(), on_step=None) -> Timings:
    """Run ``scene`` for ``steps`` fixed steps; ``on_step(k, scene)`` after each one.

    The run stops early when ``on_step`` returns ``False``.
    """
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps}")
    timings = Timings()
    for k in range(steps):
        step(scene, params, timings)
        if on_step is not None and on_step(k, scene) is False:
            break
    return timings


def simulate(n_agents=32, n_rays=64, steps=300, seed=0, fc=None, params=Params(),
             on_step=None, workers=1):
    """Build a scene (`make_scene`) and run it for ``steps`` fixed steps.

    Returns ``(Scene, Timings)``.

    Examples
    --------
    >>> from fastcol.demo import lidar
    >>> scene, timings = lidar.simulate(4, n_rays=8, steps=3, seed=1)
    >>> len(scene), len(scene.scan.origins), len(timings.raycast)
    (4, 32, 3)
    """
    scene = make_scene(n_agents, n_rays, seed, fc, workers=workers)
    return scene, run(scene, steps, params, on_step)


def _obstacles(rng, columns, rows):
    """One wall, box, oriented box, polygon or nothing near the middle of each cell.

    Everything lies within 2.6 of its cell's centre, so neighbours are 2.8 apart and the
    border 1.4 away: room for an agent (1.0 wide) everywhere.
    """
    walls, boxes, oriented, polygons = [], [], [], []
    for j in range(rows):
        for i in range(columns):
            cx, cy = (np.array([i + 0.5, j + 0.5]) * CELL + rng.uniform(-0.25, 0.25, 2)).tolist()
            kind = rng.choice(5, p=[0.15, 0.3, 0.2, 0.2, 0.15])
            if kind == 1:   # a wall 2.4 to 4.5 long at any angle
                half, phi = rng.uniform(1.2, 2.25), rng.uniform(0.0, math.pi)
                dx, dy = half * math.cos(phi), half * math.sin(phi)
                walls.append([cx - dx, cy - dy, cx + dx, cy + dy])
            elif kind == 2:
                hx, hy = rng.uniform(0.5, 1.5, 2)
                boxes.append([cx - hx, cy - hy, cx + hx, cy + hy])
            elif kind == 3:
                hx, hy = rng.uniform(0.4, 1.5, 2)
                oriented.append([cx, cy, hx, hy, rng.uniform(0.0, math.pi)])
            elif kind == 4:  # 3 to 6 vertices on a circle: convex
                k = int(rng.integers(3, 7))
                gaps = rng.uniform(0.5, 1.0, k)
                spread = np.cumsum(gaps) * (2.0 * math.pi / gaps.sum())
                theta = rng.uniform(0.0, 2.0 * math.pi) + spread
                rad = rng.uniform(1.0, 2.0)
                polygons.append(np.stack([cx + rad * np.cos(theta), cy + rad * np.sin(theta)],
                                         axis=1))
    return walls, boxes, oriented, polygons


def make_scene(n_agents=32, n_rays=64, seed=0, fc=None, workers=1, sensor_range=8.0):
    """An arena of walls and boxes with ``n_agents`` agents placed at random, apart.

    Parameters
    ----------
    n_agents : int
        Number of agents (>= 0); the arena grows with it.
    n_rays : int
        Rays per agent (>= 1), spread evenly over 360 degrees, ray 0 straight ahead.
    seed : int
        Seed of the NumPy generator that draws the obstacles, the agents and their
        wander: the same seed gives the same run.
    fc : fastcol, optional
        The fastcol API to run on (``fastcol._api.load("reference")`` for the reference
        backend); default ``fastcol``.
    workers : int
        Threads of the ``ShapeIndex`` queries (the answers do not depend on it).
    sensor_range : float
        How far a ray reaches, from the agent's rim.

    Returns
    -------
    Scene

    Examples
    --------
    >>> from fastcol.demo import lidar
    >>> scene = lidar.make_scene(6, n_rays=16, seed=2)
    >>> (scene.width, scene.height), len(scene.index) == scene.n_static + 6
    ((24.0, 16.0), True)
    >>> scene.scan.origins.shape, scene.scan.hits.item.shape
    ((96, 2), (96,))
    """
    if fc is None:
        import fastcol as fc
    if n_agents < 0:
        raise ValueError(f"n_agents must be >= 0, got {n_agents}")
    if n_rays < 1:
        raise ValueError(f"n_rays must be >= 1, got {n_rays}")
    rng = np.random.default_rng(seed)
    cells = max(4, math.ceil(n_agents * AREA_PER_AGENT / CELL ** 2))
    rows = max(2, round(math.sqrt(cells / 1.5)))
    columns = max(2, math.ceil(cells / rows))
    width, height = columns * CELL, rows * CELL
    walls, boxes, oriented, polygons = _obstacles(rng, columns, rows)
    border = [[0.0, 0.0, width, 0.0], [width, 0.0, width, height],
              [width, height, 0.0, height], [0.0, height, 0.0, 0.0]]
    # walls and boxes: one category that never tests against itself
    static = {"categories": STATIC, "masks": AGENT}
    statics = (fc.SegmentArray(np.array(border + walls).reshape(-1, 4), **static),
               fc.AABBArray(np.array(boxes).reshape(-1, 4), **static),
               fc.OBBArray(np.array(oriented).reshape(-1, 5), **static),
               fc.PolygonArray(polygons, **static))
    centres = _place(fc, fc.ShapeIndex(list(statics)), n_agents, width, height, rng)
    agents = fc.CircleArray(np.column_stack([centres, np.full(n_agents, RADIUS)]),
                            categories=AGENT, masks=STATIC | AGENT,
                            groups=np.arange(1, n_agents + 1))
    heading = rng.uniform(-math.pi, math.pi, n_agents)
    return Scene(fc, width, height, statics, agents, heading, n_rays, sensor_range, rng, workers)


def _place(fc, index, n, width, height, rng):
    """``n`` centres at random, each agent (with a margin) clear of the walls, the boxes
    and the agents placed before it."""
    margin = 4.0 * Params().skin
    reach = RADIUS + margin
    placed = np.empty((n, 2))
    count = 0
    for _ in range(100):
        if count == n:
            break
        candidates = rng.uniform((reach, reach), (width - reach, height - reach), (2 * n, 2))
        disks = fc.CircleArray(np.column_stack([candidates, np.full(len(candidates), reach)]))
        clear = np.ones(len(candidates), dtype=bool)
        clear[index.query(disks)[:, 0]] = False
        for p in candidates[clear]:
            if count == n:
                break
            gaps = np.hypot(*(placed[:count] - p).T)
            if not (gaps < 2.0 * RADIUS + margin).any():
                placed[count] = p
                count += 1
    if count < n:
        raise ValueError(f"found room for only {count} of {n} agents")
    return placed
