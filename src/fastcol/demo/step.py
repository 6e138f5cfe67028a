"""One fixed time step of the ball pit: broadphase, narrowphase, response.

Written on fastcol's public buffer API and NumPy only, so it doubles as the example
to copy:

1. **Broadphase**: one ``fc.overlapping_pairs`` over the bodies' bounding boxes (an
   ``AABBArray`` built from the positions): the candidate pairs of every type at once
   (a call per pair of type arrays, ten calls, cost three times as much).
2. **Narrowphase**: ``fc.contact`` on the candidates of each pair of types, named by
   their rows in the two type arrays (``pairs=``, read in place), keeping the pairs
   that hit, with a normal from a towards b and a depth per pair.

   Both phases pass ``workers=Params.workers``: fastcol's kernels run without the GIL
   and hand a call's rows out in blocks to helper threads that stay awake between
   calls, so even a call of a few hundred contacts splits over the cores.
3. **Response** (NumPy): gravity, then a few Jacobi iterations of velocity impulses
   along the normals (restitution above a speed threshold, Coulomb friction on the
   tangent), accumulated per body with ``np.bincount``; then a position correction
   that removes a fraction of each depth; then the step's motion and the walls.

Decisions:

* **Mass splitting.**  All contacts are solved at once (Jacobi, vectorised), so a
  body in ``k`` contacts would get ``k`` full corrections; each contact instead sees
  the body's inverse mass times its contact count, which keeps a pile from exploding
  and converges to the same answer as one contact at a time.
* **Mass scaling** (``Params.heavy``): in each contact the lower body counts as up to
  twice as heavy (a vertical contact; none for a horizontal one).  Jacobi passes move
  a pile's weight down one layer at a time; with the lower body heavier the support
  reaches the floor within a step and a 2,000-body pile settles to the slop.  It does
  not conserve momentum exactly, which a game does not see.
* **Warm start**: a contact present in the previous step starts from that step's
  impulses (matched by body pair), so a pile's weight is carried from step to step.
* **Restitution only for real impacts** (approach faster than a fifth of the
  smaller body per step): slower approaches are the jostling inside a pile, which must
  not bounce.  An impact's impulse is not warm-started (it would throw the body back).
* **Position correction** moves bodies apart by ``beta`` of each depth beyond a slop
  of 1% of the smaller body's size (never all of it: that makes piles jitter).
* **Spring push** (``Params.spring``, off by default): an extra separating speed of
  ``spring * depth`` per contact, a soft ball-pit feel.
* **Walls** are four static bodies in the same solver: a body whose bounds come
  within the slop of a wall gets a contact with it (normal from the wall inwards,
  depth from its bounds).  After the step every body's bounds are also clamped into
  the rectangle less a skin of ``2**-30`` times its larger side (so rounding in the
  rows written later cannot cross a wall), removing any velocity into the wall:
  no body ever leaves, whatever the solver leaves over.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .scene import Scene, make_scene

# every pair of the four type arrays: each with itself, then each with every later one
TYPE_PAIRS = tuple((s, t) for s in range(4) for t in range(s, 4))


@dataclass(frozen=True)
class Params:
    """Constants of the simulation (units: body sizes of about 1, seconds).

    Attributes
    ----------
    dt : fixed time step, 1/60 s.
    gravity : downward acceleration (30 size units per s², so a fall looks brisk).
    restitution : fraction of the approach speed an impact gives back.
    friction : Coulomb coefficient between bodies and against the walls.
    iterations, position_iterations : Jacobi passes for impulses and for positions.
    beta : fraction of the remaining depth each position pass removes.
    slop : depth left alone, as a fraction of the smaller body's size.
    spring : separating speed per unit of depth (0: no spring push).
    damping : fraction of the velocity lost per second (a little air).
    heavy : mass scaling; the lower body of a vertical contact counts ``1 + heavy``
        times as heavy.
    bounce : approach speed, in the smaller body's sizes per step, above which a
        contact is an impact (restitution, no warm start).
    workers : threads of the broadphase and contact calls (their ``workers=``; 1: the
        calling thread only).  The answers do not depend on it.
    """

    dt: float = 1.0 / 60.0
    gravity: float = 30.0
    restitution: float = 0.3
    friction: float = 0.4
    iterations: int = 10
    position_iterations: int = 10
    beta: float = 0.8
    slop: float = 0.01
    spring: float = 0.0
    damping: float = 0.2
    heavy: float = 1.0
    bounce: float = 0.2
    workers: int = 2


@dataclass
class Timings:
    """Seconds per step spent in each part, one entry per step."""

    broadphase: list = field(default_factory=list)
    narrowphase: list = field(default_factory=list)
    response: list = field(default_factory=list)
    contacts: list = field(default_factory=list)

    def summary(self, skip=0):
        """Median milliseconds per step of each part, over the steps after ``skip``."""
        out = {}
        for name in ("broadphase", "narrowphase", "response"):
            values = getattr(self, name)[skip:]
            out[name] = 1e3 * float(np.median(values)) if values else float("nan")
        out["total"] = out["broadphase"] + out["narrowphase"] + out["response"]
        return out


def find_contacts(scene: Scene, timings: Timings | None = None, workers: int = 1):
    """Every contact in the scene: ``(ia, ib, normal, depth)`` over global body indices.

    ``normal`` points from body ``ia`` towards body ``ib``; moving ``ib`` by
    ``normal * depth`` would separate them.  The broadphase is one
    ``fc.overlapping_pairs`` over the bodies' bounding boxes (an ``AABBArray``); the
    candidate pairs are then split by the types of their bodies and ``fc.contact`` on
    the rows of each type pair (``pairs=``) keeps the ones that really touch.  Both run on
    ``workers`` threads (the answers do not depend on it).
    """
    fc = scene.fc
    arrays = scene.arrays
    t0 = time.perf_counter()
    # one broadphase call for all four types (ten calls, one per pair of type arrays,
    # cost three times as much: each builds its own grid).  Each row is the position
    # twice plus the box's padded offsets (np.tile: filling the two halves of an (N, 4)
    # array one by one takes NumPy several times longer)
    boxes = np.tile(scene.pos, 2) + scene.box_offsets
    pairs = fc.overlapping_pairs(fc.AABBArray(boxes), workers=workers)
    t1 = time.perf_counter()
    # bodies are numbered type by type, so in a pair i < j the type of i is <= j's;
    # one stable sort of the pairs' type codes (4 s + t, the order of TYPE_PAIRS; a
    # radix sort, as they are bytes) makes each type pair a slice.  Gathers use
    # np.take, with contiguous indices and sources (fancy indexing costs several
    # times more, and np.take copies a strided column before it starts)
    kinds = np.take(scene.kind, pairs)
    code = kinds[:, 0] * np.uint8(4) + kinds[:, 1]
    order = np.argsort(code, kind="stable")
    pairs = np.take(pairs, order, axis=0)
    bounds = np.searchsorted(np.take(code, order), np.arange(17, dtype=np.uint8))
    # each body's row in its type's array, for both sides of every pair at once: the
    # pairs of a type pair are then rows of its two arrays, which contact reads in
    # place (pairs=) instead of gathering copies of them
    rows = np.take(scene.row, pairs)
    hit = np.zeros(len(pairs), dtype=bool)
    normal = np.empty((len(pairs), 2))
    depth = np.empty(len(pairs))
    for s, t in TYPE_PAIRS:
        lo, hi = bounds[4 * s + t], bounds[4 * s + t + 1]
        if lo < hi:
            found = fc.contact(arrays[s], arrays[t], pairs=rows[lo:hi], workers=workers)
            hit[lo:hi] = found.hit
            normal[lo:hi] = found.normal
            depth[lo:hi] = found.depth
    keep = np.flatnonzero(hit)
    kept = np.take(pairs, keep, axis=0)
    out = (kept[:, 0], kept[:, 1], np.take(normal, keep, axis=0), np.take(depth, keep))
    t2 = time.perf_counter()
    if timings is not None:
        timings.broadphase.append(t1 - t0)
        timings.narrowphase.append(t2 - t1)
        timings.contacts.append(len(out[0]))
    return out


# the four walls as static bodies N, N+1, N+2, N+3 (floor, left, right, ceiling): the
# normal from the wall into the scene, for wall contacts in the same solver as the rest
_WALL_NORMALS = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.0], [0.0, -1.0]])


def wall_contacts(scene: Scene, params: Params):
    """Contacts of bodies touching, near or past a wall, as static bodies ``N..N+3``.

    A body counts when its bounds come within the slop of the wall, so a resting body
    keeps its floor contact (and its warm-started impulse) from step to step.
    """
    n = len(scene)
    near = params.slop * scene.size
    gaps = (
        scene.pos[:, 1] + scene.lo[:, 1],                      # floor: y = 0
        scene.pos[:, 0] + scene.lo[:, 0],                      # left: x = 0
        scene.width - (scene.pos[:, 0] + scene.hi[:, 0]),      # right: x = width
        scene.height - (scene.pos[:, 1] + scene.hi[:, 1]),     # ceiling: y = height
    )
    ia, ib, depth, normal = [], [], [], []
    for wall, gap in enumerate(gaps):
        rows = np.flatnonzero(gap <= near)
        ia.append(np.full(len(rows), n + wall, dtype=np.int64))
        ib.append(rows)
        depth.append(-gap[rows])
        normal.append(np.broadcast_to(_WALL_NORMALS[wall], (len(rows), 2)))
    return np.concatenate(ia), np.concatenate(ib), np.concatenate(normal), np.concatenate(depth)


def respond(scene: Scene, contacts, params: Params) -> None:
    """Advance velocities and positions by one step given the step's contacts."""
    n_bodies = len(scene)
    m = n_bodies + 4  # the bodies and the four walls
    wall = wall_contacts(scene, params)
    ia, ib, normal, depth = (np.concatenate([x, y]) for x, y in zip(contacts, wall))
    dt = params.dt
    im = np.concatenate([scene.inv_mass, np.zeros(4)])   # walls do not move
    # velocity components as 1-D arrays: gathering v[i] from 1-D arrays is several
    # times faster in NumPy than gathering rows of an (m, 2) array
    decay = 1.0 - params.damping * dt
    vx = np.concatenate([scene.vel[:, 0] * decay, np.zeros(4)])
    vy = np.concatenate([(scene.vel[:, 1] - params.gravity * dt) * decay, np.zeros(4)])

    if len(ia):
        nx, ny = np.ascontiguousarray(normal[:, 0]), np.ascontiguousarray(normal[:, 1])
        k = np.bincount(ia, minlength=m) + np.bincount(ib, minlength=m)
        # mass scaling: in each contact the lower body counts as heavier (up to
        # 1 + heavy times, for a vertical contact), so a pile's weight reaches the floor
        # in a few passes instead of one layer per pass
        ima = im[ia] / (1.0 + params.heavy * np.maximum(ny, 0.0))
        imb = im[ib] / (1.0 + params.heavy * np.maximum(-ny, 0.0))
        # mass splitting: a body in k contacts counts k times lighter in each
        w = ima * k[ia] + imb * k[ib]

        def spread(fx, fy):
            """Velocity changes of every body from impulses f on b and -f on a."""
            gx = np.bincount(ib, imb * fx, m) - np.bincount(ia, ima * fx, m)
            gy = np.bincount(ib, imb * fy, m) - np.bincount(ia, ima * fy, m)
            return gx, gy

        def relative(ux, uy):
            """Velocity of b relative to a, along the normal and along the tangent."""
            dvx = ux.take(ib) - ux.take(ia)  # take: a faster gather than ux[ib]
            dvy = uy.take(ib) - uy.take(ia)
            return dvx * nx + dvy * ny, dvy * nx - dvx * ny

        def apply(dn, dtan):
            gx, gy = spread(dn * nx - dtan * ny, dn * ny + dtan * nx)
            vx[...] += gx
            vy[...] += gy

        vn0, _ = relative(vx, vy)
        # an impact is an approach faster than a fifth of the smaller body per step:
        # it bounces (restitution) and is not remembered for the warm start below;
        # slower approaches are the jostling inside a pile, which must not bounce
        size = np.concatenate([scene.size, np.full(4, np.inf)])   # a wall has no size
        pair_size = np.minimum(size[ia], size[ib])
        impact = vn0 < -params.bounce * pair_size / dt
        target = np.where(impact, -params.restitution * vn0, 0.0)
        if params.spring:
            target += params.spring * depth

        # warm start: a contact that existed last step starts from last step's
        # impulses, so a pile's weight is carried from step to step instead of being
        # rebuilt by a few Jacobi iterations each time
        keys = ia * m + ib
        order = np.argsort(keys, kind="stable")
        jn = np.zeros(len(ia))
        jt = np.zeros(len(ia))
        prev = scene._warm
        if prev is not None and prev[0] == m and len(prev[1]):
            pkeys, pjn, pjt = prev[1:]
            # sorted against sorted: searchsorted runs faster with sorted needles
            sorted_keys = keys[order]
            at = np.minimum(np.searchsorted(pkeys, sorted_keys), len(pkeys) - 1)
            same = pkeys[at] == sorted_keys
            jn[order] = np.where(same, pjn[at], 0.0)
            jt[order] = np.where(same, pjt[at], 0.0)
            apply(jn, jt)

        inv_w = 1.0 / w
        for _ in range(params.iterations):
            vn, vt = relative(vx, vy)
            # normal impulse, accumulated and kept >= 0 (contacts push, never pull)
            new = np.maximum(jn + (target - vn) * inv_w, 0.0)
            dn, jn = new - jn, new
            # friction impulse, accumulated and kept inside the friction cone
            limit = params.friction * jn
            new = np.minimum(np.maximum(jt - vt * inv_w, -limit), limit)
            dtan, jt = new - jt, new
            apply(dn, dtan)
        # an impact's impulse stopped a fall once: carried over it would throw the
        # body back up next step, so only resting contacts are remembered
        rest = ~impact[order]
        scene._warm = (m, keys[order], np.where(rest, jn[order], 0.0), np.where(rest, jt[order], 0.0))

        # position correction, iterated like the impulses: each pass removes ``beta``
        # of every remaining depth beyond the slop, the depths updated to first order
        # by the corrections so far (no new narrowphase), walls included
        goal = depth - params.slop * pair_size
        sx = np.zeros(m)
        sy = np.zeros(m)
        beta_w = params.beta * inv_w
        for _ in range(params.position_iterations):
            moved = (sx.take(ib) - sx.take(ia)) * nx + (sy.take(ib) - sy.take(ia)) * ny
            push = np.maximum(goal - moved, 0.0) * beta_w
            gx, gy = spread(push * nx, push * ny)
            sx += gx
            sy += gy
        scene.pos[:, 0] += sx[:n_bodies]
        scene.pos[:, 1] += sy[:n_bodies]
    else:
        scene._warm = None

    scene.vel[:, 0] = vx[:n_bodies]
    scene.vel[:, 1] = vy[:n_bodies]
    scene.pos += scene.vel * dt
    _walls(scene, params)
    scene.sync()


def _walls(scene: Scene, params: Params) -> None:
    """Clamp every body's bounds inside the walls (less a skin): a hard guarantee.

    The wall contacts already stop bodies; this catches what the solver leaves (a
    fast body, a Jacobi overshoot) and removes the velocity into the wall.
    """
    pos, vel = scene.pos, scene.vel
    skin = 2.0 ** -30 * max(scene.width, scene.height)
    low = skin - scene.lo                                  # pos >= low keeps bounds >= skin
    high = np.array([scene.width, scene.height]) - skin - scene.hi
    below = pos < low
    above = pos > high
    pos[below] = low[below]
    pos[above] = high[above]
    vel[below & (vel < 0.0)] = 0.0
    vel[above & (vel > 0.0)] = 0.0


def step(scene: Scene, params: Params = Params(), timings: Timings | None = None):
    """One fixed step: contacts of the current positions, then the response.

    Returns the step's contacts ``(ia, ib, normal, depth)``.
    """
    contacts = find_contacts(scene, timings, params.workers)
    t0 = time.perf_counter()
    respond(scene, contacts, params)
    if timings is not None:
        timings.response.append(time.perf_counter() - t0)
    return contacts


def simulate(n_bodies=2000, steps=300, seed=0, fc=None, params=Params(), on_step=None):
    """Build a scene and run it for ``steps`` fixed steps.

    Parameters
    ----------
    n_bodies, steps, seed : int
        Scene size, number of steps, random seed (same seed, same result bit for bit).
    fc : fastcol, optional
        The fastcol API to run on (``fastcol._api.load("reference")`` for the reference
        backend); default ``fastcol``.
    params : Params
        Constants of the simulation.
    on_step : callable, optional
        Called as ``on_step(k, scene)`` after step ``k`` (0-based): progress, frames.

    Returns
    -------
    (Scene, Timings)

    Examples
    --------
    >>> from fastcol.demo import simulate
    >>> scene, timings = simulate(20, steps=5, seed=3)
    >>> len(scene), len(timings.response)
    (20, 5)
    """
    scene = make_scene(n_bodies, seed, fc)
    return scene, run(scene, steps, params, on_step)


def run(scene: Scene, steps: int, params: Params = Params(), on_step=None) -> Timings:
    """Run ``scene`` for ``steps`` fixed steps; ``on_step(k, scene)`` after each one.

    The run stops early when ``on_step`` returns ``False`` (a closed window).
    """
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps}")
    timings = Timings()
    for k in range(steps):
        step(scene, params, timings)
        if on_step is not None and on_step(k, scene) is False:
            break
    return timings
