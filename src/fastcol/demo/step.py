"""One fixed time step of the ball pit: broadphase, narrowphase, response.

Written on fastcol's public buffer API and NumPy only, so it doubles as the example
to copy:

1. **Broadphase**: one ``fc.overlapping_pairs`` over the bodies' bounding boxes as they
   are now (an ``AABBArray`` from every body's outline points): the candidate pairs of
   every type at once (a call per pair of type arrays, ten calls, cost three times as
   much).
2. **Narrowphase**: ``fc.contact`` on the candidates of each pair of types, named by
   their rows in the two type arrays (``pairs=``, read in place), keeping the pairs
   that hit, with a normal from a towards b, a depth and 1 or 2 contact points.

   Both phases pass ``workers=Params.workers``: fastcol's kernels run without the GIL
   and hand a call's rows out in blocks to helper threads that stay awake between
   calls, so even a call of a few hundred contacts splits over the cores.
3. **Response** (NumPy): gravity and air; the contact points of the pairs, of the
   walls (every outline point near a wall) and of the swept pairs (below); a few
   Jacobi passes of impulses at the points, normal and Coulomb friction, each turning
   the bodies through ``r x n`` and the inverse moment of inertia (so boxes topple,
   capsules roll, polygons settle on a face), accumulated per body with
   ``np.bincount``; a position correction that removes a fraction of each depth; then
   every body turns about its centroid (``rotate(..., out=)``) and moves
   (``translate(..., out=)``), the shape arrays written in place.

Decisions:

* **Rigid bodies**: mass, centroid and polar moment of inertia from
  ``mass_properties`` (density 1).  A point's velocity is ``v + w x r``; an impulse
  ``P`` at ``r`` changes ``v`` by ``P / m`` and ``w`` by ``(r x P) / I``; the effective
  mass of a point along a direction ``d`` is ``1 / (1/ma + (ra x d)^2/Ia + 1/mb +
  (rb x d)^2/Ib)``.
* **Contact points**: a pair that ``fc.contact`` gives two points (faces and edges
  side by side) is two rows with the pair's normal and depth, so a box on a face is
  held at both ends of it and a box on a corner at the corner.
* **Mass splitting.**  All points are solved at once (Jacobi, vectorised), so a body
  in ``k`` points would get ``k`` full corrections; each point instead sees the body's
  inverse mass and inverse inertia times its count of points, which keeps a pile from
  exploding and converges to the same answer as one point at a time.
* **Mass scaling** (``Params.heavy``): in each contact the lower body counts as up to
  twice as heavy (a vertical contact; none for a horizontal one).  Jacobi passes move
  a pile's weight down one layer at a time; with the lower body heavier the support
  reaches the floor within a step.  It does not conserve momentum exactly, which a
  game does not see.
* **Warm start**: a contact point present in the previous step (the same two bodies
  and the same point number) starts from that step's impulses, so a pile's weight is
  carried from step to step.
* **Restitution only for real impacts** (approach faster than a fifth of the
  smaller body per step): slower approaches are the jostling inside a pile, which must
  not bounce.  An impact's impulse is not warm-started (it would throw the body back).
* **Position correction** moves bodies apart by ``beta`` of each depth beyond a slop
  of 1% of the smaller body's size (never all of it: that makes piles jitter).  It
  translates only: turning bodies to first order by it made deep overlaps in a pile
  linger (the linear estimate of how a turn changes a depth is poor there).
* **Continuous collision** (``Params.ccd``): a pair not in contact whose points can
  approach by more than a tenth of the smaller body's size in the step is swept with
  ``fc.time_of_impact`` (candidates from one ``overlapping_pairs`` of the swept
  boxes); a pair that would touch within the step joins the solve as a *speculative*
  contact with a negative depth, the gap from ``fc.closest_points``, which lets it
  close the gap and no more (Box2D v3's speculative contacts).  Clipping each fast
  body's step at its time of impact, as Box2D does for bullets against static
  bodies, was tried first: in a falling crowd a clipped body is run into by its
  unclipped neighbours, and clipping them too freezes whole clusters.  The sweep is
  repeated (``Params.sweeps``) on the motion the impulses made (a bounce can bring
  two bodies together that were apart in the first sweep).  Walls likewise: an
  outline point that can reach a wall this step is a speculative wall contact.
  Turning is not swept, so a body turns at most ``Params.max_turn`` (0.1 rad) a step.
* **Spring push** (``Params.spring``, off by default): an extra separating speed of
  ``spring * depth`` per contact, a soft ball-pit feel.
* **Walls** are four static bodies in the same solver, met through every body's
  outline points (a circle's centre and a capsule's ends with their radius, a box's
  corners, a polygon's vertices).  After the step every body whose outline crosses
  the rectangle less a skin of ``2**-30`` times its larger side is translated back
  inside and loses its velocity into the wall: no body ever leaves, whatever the
  solver leaves over.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple

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
    damping : fraction of the velocity (and of the spin) lost per second (a little air).
    heavy : mass scaling; the lower body of a vertical contact counts ``1 + heavy``
        times as heavy.
    bounce : approach speed, in the smaller body's sizes per step, above which a
        contact is an impact (restitution, no warm start).
    ccd : a pair of bodies whose points can move towards each other by more than this
        fraction of the smaller one's size in a step is swept with ``time_of_impact``
        (continuous collision); ``inf`` turns it off.
    max_turn : the most a body turns in a step, in radians (turning is not swept).
    sweeps : times the sweep is repeated on the motion the impulses made (each time
        followed by ``iterations`` more passes, when it found new pairs).
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
    ccd: float = 0.1
    sweeps: int = 2
    max_turn: float = 0.1
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


class Contacts(NamedTuple):
    """The touching pairs of bodies: ``ia < ib`` global body indices, ``normal`` from
    ``ia`` towards ``ib``, ``depth``, and 1 or 2 contact ``points`` (``count``) per pair,
    as ``fc.contact`` gives them."""

    ia: np.ndarray
    ib: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    points: np.ndarray
    count: np.ndarray


def _by_type_pair(scene: Scene, pairs):
    """Pairs ``(i, j)`` of bodies with ``kind[i] <= kind[j]`` sorted so that each type
    pair is a slice: ``(pairs, their rows in the type arrays, slice bounds)``."""
    # one stable sort of the pairs' type codes (4 s + t, the order of TYPE_PAIRS; a
    # radix sort, as they are bytes) makes each type pair a slice.  Gathers use
    # np.take, with contiguous indices and sources (fancy indexing costs several
    # times more, and np.take copies a strided column before it starts)
    kinds = np.take(scene.kind, pairs)
    code = kinds[:, 0] * np.uint8(4) + kinds[:, 1]
    order = np.argsort(code, kind="stable")
    pairs = np.take(pairs, order, axis=0)
    bounds = np.searchsorted(np.take(code, order), np.arange(17, dtype=np.uint8))
    return pairs, np.take(scene.row, pairs), order, bounds


def find_contacts(scene: Scene, timings: Timings | None = None, workers: int = 1) -> Contacts:
    """Every contact in the scene (a ``Contacts``) over global body indices.

    ``normal`` points from body ``ia`` towards body ``ib``; moving ``ib`` by
    ``normal * depth`` would separate them.  The broadphase is one
    ``fc.overlapping_pairs`` over the bodies' bounding boxes as they are now (an
    ``AABBArray``); the candidate pairs are then split by the types of their bodies and
    ``fc.contact`` on the rows of each type pair (``pairs=``) keeps the ones that really
    touch.  Both run on ``workers`` threads (the answers do not depend on it).
    """
    fc = scene.fc
    arrays = scene.arrays
    t0 = time.perf_counter()
    # one broadphase call for all four types (ten calls, one per pair of type arrays,
    # cost three times as much: each builds its own grid)
    # the bounds are kept for the rest of the step (the sweep's boxes start from them)
    scene.bounds_now = scene.bounds()
    boxes = scene.bounds_now.copy()
    boxes[:, 0:2] -= scene.pad
    boxes[:, 2:4] += scene.pad
    pairs = fc.overlapping_pairs(fc.AABBArray(boxes), workers=workers)
    t1 = time.perf_counter()
    # bodies are numbered type by type, so in a pair i < j the type of i is <= j's;
    # each type pair's candidates are rows of its two arrays, which contact reads in
    # place (pairs=) instead of gathering copies of them
    pairs, rows, _order, bounds = _by_type_pair(scene, pairs)
    hit = np.zeros(len(pairs), dtype=bool)
    normal = np.empty((len(pairs), 2))
    depth = np.empty(len(pairs))
    points = np.empty((len(pairs), 2, 2))
    count = np.empty(len(pairs), dtype=np.int64)
    for s, t in TYPE_PAIRS:
        lo, hi = bounds[4 * s + t], bounds[4 * s + t + 1]
        if lo < hi:
            found = fc.contact(arrays[s], arrays[t], pairs=rows[lo:hi], workers=workers)
            hit[lo:hi] = found.hit
            normal[lo:hi] = found.normal
            depth[lo:hi] = found.depth
            points[lo:hi] = found.points
            count[lo:hi] = found.count
    keep = np.flatnonzero(hit)
    kept = np.take(pairs, keep, axis=0)
    out = Contacts(kept[:, 0], kept[:, 1], np.take(normal, keep, axis=0), np.take(depth, keep),
                   np.take(points, keep, axis=0), np.take(count, keep))
    t2 = time.perf_counter()
    if timings is not None:
        timings.broadphase.append(t1 - t0)
        timings.narrowphase.append(t2 - t1)
        timings.contacts.append(len(out.ia))
    return out


# the four walls as static bodies N, N+1, N+2, N+3 (floor, left, right, ceiling): the
# normal from the wall into the scene, for wall contacts in the same solver as the rest
_WALL_NORMALS = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.0], [0.0, -1.0]])


def wall_contacts(scene: Scene, params: Params, move=None, turn=None):
    """Contact points of bodies touching, near or past a wall (static bodies ``N..N+3``).

    Every outline point of a body (a circle's centre and a capsule's ends with their
    radius, a box's corners, a polygon's vertices) within the slop of a wall is a
    contact point of its own, so a box on its corner feels the floor at that corner and
    a box on a face at both ends of it; a resting body keeps its floor contacts (and
    their warm-started impulses) from step to step.  Returns ``(ia, ib, normal, depth,
    x, y, feature)``, one row per point, ``feature`` the point's number in its body.
    """
    n = len(scene)
    x, y, r = scene.outline()
    body = scene.outline_body
    size = scene.size[body]
    near = params.slop * size
    # how far each point can move this step (the centroid's move, and the turn's at
    # most the body's size): a point that could reach a wall is a speculative contact
    if move is None:
        move, turn = np.zeros((n, 2)), np.zeros(n)
    spin = np.abs(turn.take(body)) * size
    mx, my = move[:, 0].take(body), move[:, 1].take(body)
    reach = (np.maximum(-my, 0.0), np.maximum(-mx, 0.0), np.maximum(mx, 0.0),
             np.maximum(my, 0.0))
    gaps = (y - r, x - r, scene.width - x - r, scene.height - y - r)
    ia, ib, depth, normal, px, py, feature = [], [], [], [], [], [], []
    for wall, gap in enumerate(gaps):
        rows = np.flatnonzero(gap <= near + reach[wall] + spin)
        nx, ny = _WALL_NORMALS[wall]
        ia.append(np.full(len(rows), n + wall, dtype=np.int64))
        ib.append(body[rows])
        depth.append(-gap[rows])
        normal.append(np.broadcast_to(_WALL_NORMALS[wall], (len(rows), 2)))
        # the point of the body's surface nearest the wall
        px.append(x[rows] - nx * r[rows])
        py.append(y[rows] - ny * r[rows])
        feature.append(scene.outline_feature[rows])
    return tuple(np.concatenate(v) for v in (ia, ib, normal, depth, px, py, feature))


def _point_rows(scene: Scene, contacts: Contacts, params: Params, move, turn):
    """One row per contact point, bodies', walls' and swept pairs': ``(ia, ib, normal,
    depth, x, y, feature)``; a pair with two points gives two rows with the pair's normal
    and depth.  ``move`` and ``turn``: the step's motion before the contacts act."""
    ia, ib, normal, depth, points, count = contacts
    two = np.flatnonzero(count == 2)
    pair = np.concatenate([np.arange(len(ia)), two])
    body = (ia.take(pair), ib.take(pair), normal.take(pair, axis=0), depth.take(pair),
            np.concatenate([points[:, 0, 0], points[two, 1, 0]]),
            np.concatenate([points[:, 0, 1], points[two, 1, 1]]),
            np.concatenate([np.zeros(len(ia), np.int64), np.ones(len(two), np.int64)]))
    wall = wall_contacts(scene, params, move, turn)
    swept = swept_contacts(scene, contacts, move, turn, params)
    return tuple(np.concatenate([u, v, x]) for u, v, x in zip(body, wall, swept))


class _Points:
    """The contact points' constants for the solver, one entry per point row."""

    def __init__(self, scene: Scene, rows, params: Params, im, ii, m):
        ia, ib, normal, depth, px, py, feature = rows
        self.ia, self.ib, self.depth, self.m = ia, ib, depth, m
        self.keys = (ia * m + ib) * scene.features + feature
        nx = self.nx = np.ascontiguousarray(normal[:, 0])
        ny = self.ny = np.ascontiguousarray(normal[:, 1])
        # each point relative to both centroids (a wall's is never used: it does not turn)
        cx = np.concatenate([scene.pos[:, 0], np.zeros(4)])
        cy = np.concatenate([scene.pos[:, 1], np.zeros(4)])
        self.rax, self.ray = px - cx.take(ia), py - cy.take(ia)
        self.rbx, self.rby = px - cx.take(ib), py - cy.take(ib)
        # r x n turns a normal impulse into a torque, r x t = r . n a friction impulse
        # (t = (-ny, nx))
        self.rna = self.rax * ny - self.ray * nx
        self.rnb = self.rbx * ny - self.rby * nx
        self.rta = self.rax * nx + self.ray * ny
        self.rtb = self.rbx * nx + self.rby * ny
        # mass scaling: in each contact the lower body counts as heavier (up to
        # 1 + heavy times, for a vertical contact), so a pile's weight reaches the floor
        # in a few passes instead of one layer per pass
        fa = 1.0 / (1.0 + params.heavy * np.maximum(ny, 0.0))
        fb = 1.0 / (1.0 + params.heavy * np.maximum(-ny, 0.0))
        self.ima, self.iia = im.take(ia) * fa, ii.take(ia) * fa
        self.imb, self.iib = im.take(ib) * fb, ii.take(ib) * fb
        # mass splitting: a body in k contact points counts k times heavier in each
        k = np.bincount(ia, minlength=m) + np.bincount(ib, minlength=m)
        ka, kb = self.ka, self.kb = k.take(ia), k.take(ib)
        self.inv_wn = 1.0 / (ka * (self.ima + self.iia * self.rna * self.rna)
                             + kb * (self.imb + self.iib * self.rnb * self.rnb))
        self.inv_wt = 1.0 / (ka * (self.ima + self.iia * self.rta * self.rta)
                             + kb * (self.imb + self.iib * self.rtb * self.rtb))
        size = np.concatenate([scene.size, np.full(4, np.inf)])   # a wall has no size
        self.pair_size = np.minimum(size.take(ia), size.take(ib))

    def spread(self, fn, ft, ux, uy, ut):
        """Apply impulses ``fn`` along the normals and ``ft`` along the tangents at
        every point (on b, their opposites on a) to the velocities ``u``."""
        ia, ib, m = self.ia, self.ib, self.m
        fx, fy = fn * self.nx - ft * self.ny, fn * self.ny + ft * self.nx
        ux += np.bincount(ib, self.imb * fx, m) - np.bincount(ia, self.ima * fx, m)
        uy += np.bincount(ib, self.imb * fy, m) - np.bincount(ia, self.ima * fy, m)
        ut += (np.bincount(ib, self.iib * (fn * self.rnb + ft * self.rtb), m)
               - np.bincount(ia, self.iia * (fn * self.rna + ft * self.rta), m))

    def relative(self, ux, uy, ut):
        """Velocity of b's point relative to a's, along the normal and the tangent."""
        ia, ib = self.ia, self.ib
        # a point's velocity is v + w x r = (vx - w ry, vy + w rx); take: a faster
        # gather than ux[ib]
        dvx = (ux.take(ib) - ut.take(ib) * self.rby) - (ux.take(ia) - ut.take(ia) * self.ray)
        dvy = (uy.take(ib) + ut.take(ib) * self.rbx) - (uy.take(ia) + ut.take(ia) * self.rax)
        return dvx * self.nx + dvy * self.ny, dvy * self.nx - dvx * self.ny


def respond(scene: Scene, contacts: Contacts, params: Params) -> None:
    """Advance velocities, then move and turn the bodies by one step given its contacts."""
    n = len(scene)
    m = n + 4  # the bodies and the four walls
    dt = params.dt
    im = np.concatenate([scene.inv_mass, np.zeros(4)])      # walls do not move
    ii = np.concatenate([scene.inv_inertia, np.zeros(4)])   # ... nor turn
    # velocity components as 1-D arrays: gathering v[i] from 1-D arrays is several
    # times faster in NumPy than gathering rows of an (m, 2) array
    decay = 1.0 - params.damping * dt
    vx = np.concatenate([scene.vel[:, 0] * decay, np.zeros(4)])
    vy = np.concatenate([(scene.vel[:, 1] - params.gravity * dt) * decay, np.zeros(4)])
    w = np.concatenate([scene.omega * decay, np.zeros(4)])
    sx = np.zeros(m)   # the position correction's moves
    sy = np.zeros(m)
    # the contact points: the bodies', the walls' and the swept pairs' (on the motion
    # the step would make without them)
    rows = _point_rows(scene, contacts, params, np.stack([vx[:n], vy[:n]], axis=1) * dt,
                       w[:n] * dt)
    if len(rows[0]):
        pts = _Points(scene, rows, params, im, ii, m)
        vn0, _ = pts.relative(vx, vy, w)
        # an impact is an approach faster than a fifth of the smaller body per step:
        # it bounces (restitution) and is not remembered for the warm start below;
        # slower approaches are the jostling inside a pile, which must not bounce.  A
        # pair still apart by a gap (a swept pair or a wall ahead, depth < 0) may
        # close it in this step, and no more
        impact = vn0 < -params.bounce * pts.pair_size / dt
        target = np.where(impact, -params.restitution * vn0, np.minimum(pts.depth, 0.0) / dt)
        if params.spring:
            target += params.spring * np.maximum(pts.depth, 0.0)

        # warm start: a contact point that existed last step (the same two bodies, the
        # same point number) starts from last step's impulses, so a pile's weight is
        # carried from step to step instead of being rebuilt by a few passes each time
        jn = np.zeros(len(pts.ia))
        jt = np.zeros(len(pts.ia))
        prev = scene._warm
        if prev is not None and prev[0] == m and len(prev[1]):
            pkeys, pjn, pjt = prev[1:]
            order = np.argsort(pts.keys, kind="stable")
            # sorted against sorted: searchsorted runs faster with sorted needles
            sorted_keys = pts.keys[order]
            at = np.minimum(np.searchsorted(pkeys, sorted_keys), len(pkeys) - 1)
            same = pkeys[at] == sorted_keys
            jn[order] = np.where(same, pjn[at], 0.0)
            jt[order] = np.where(same, pjt[at], 0.0)
            pts.spread(jn, jt, vx, vy, w)

        passes = params.iterations
        for sweep in range(params.sweeps + 1):
            for _ in range(passes):
                vn, vt = pts.relative(vx, vy, w)
                # normal impulse, accumulated and kept >= 0 (contacts push, never pull)
                new = np.maximum(jn + (target - vn) * pts.inv_wn, 0.0)
                dn, jn = new - jn, new
                # friction impulse, accumulated and kept inside the friction cone
                limit = params.friction * jn
                new = np.minimum(np.maximum(jt - vt * pts.inv_wt, -limit), limit)
                dtan, jt = new - jt, new
                pts.spread(dn, dtan, vx, vy, w)
            if sweep == params.sweeps:
                break
            # the impulses changed the motion (a bounce, a push): pairs that the new
            # motion would bring together join the solve as swept contacts
            done = Contacts(rows[0], rows[1], rows[2], rows[3], None, None)
            more = swept_contacts(scene, done, np.stack([vx[:n], vy[:n]], axis=1) * dt,
                                  w[:n] * dt, params)
            if not len(more[0]):
                break
            rows = tuple(np.concatenate([u, v]) for u, v in zip(rows, more))
            pts = _Points(scene, rows, params, im, ii, m)
            extra = len(more[0])
            target = np.concatenate([target, np.minimum(more[3], 0.0) / dt])
            impact = np.concatenate([impact, np.zeros(extra, bool)])
            jn = np.concatenate([jn, np.zeros(extra)])
            jt = np.concatenate([jt, np.zeros(extra)])

        # an impact's impulse stopped a fall once: carried over it would throw the
        # body back up next step, so only resting contacts are remembered
        order = np.argsort(pts.keys, kind="stable")
        rest = ~impact[order]
        scene._warm = (m, pts.keys[order], np.where(rest, jn[order], 0.0),
                       np.where(rest, jt[order], 0.0))

        # position correction, iterated like the impulses: each pass removes ``beta``
        # of every remaining depth beyond the slop by moving the bodies (not turning
        # them: see the module's docstring), the depths updated to first order by the
        # corrections so far (no new narrowphase), walls included
        ia, ib, nx, ny = pts.ia, pts.ib, pts.nx, pts.ny
        goal = pts.depth - params.slop * pts.pair_size
        beta_w = params.beta / (pts.ka * pts.ima + pts.kb * pts.imb)
        for _ in range(params.position_iterations):
            moved = (sx.take(ib) - sx.take(ia)) * nx + (sy.take(ib) - sy.take(ia)) * ny
            push = np.maximum(goal - moved, 0.0) * beta_w
            px, py = push * nx, push * ny
            sx += np.bincount(ib, pts.imb * px, m) - np.bincount(ia, pts.ima * px, m)
            sy += np.bincount(ib, pts.imb * py, m) - np.bincount(ia, pts.ima * py, m)
    else:
        scene._warm = None

    # a body turns at most ``max_turn`` radians a step (Box2D caps it too): a spin the
    # sweep does not follow stays small against the body's size
    spin = params.max_turn / dt
    np.clip(w, -spin, spin, out=w)
    scene.vel[:, 0] = vx[:n]
    scene.vel[:, 1] = vy[:n]
    scene.omega[:] = w[:n]
    move = np.stack([vx[:n] * dt + sx[:n], vy[:n] * dt + sy[:n]], axis=1)
    turn = w[:n] * dt
    _move(scene, move, turn)
    _walls(scene, params, np.stack([sx[:n], sy[:n]], axis=1))


def swept_contacts(scene: Scene, contacts: Contacts, move, turn, params: Params):
    """Continuous collision: pairs not in contact that would touch during the step.

    A pair of bodies whose points can approach each other by more than ``params.ccd``
    of the smaller one's size this step (the centroids' relative ``move`` plus each
    body's ``turn`` times its size) is swept with ``fc.time_of_impact`` (the
    candidates: one ``overlapping_pairs`` of the swept bounding boxes of the bodies
    that move that far, against everyone's).  A pair that would touch within the step
    becomes a *speculative* contact: the normal and the gap from ``fc.closest_points``
    now, the point midway between the closest points, and a negative depth (minus the
    gap), so the solver lets the pair close the gap in this step and no more.  Motion
    is swept as a translation (turning is not), as Box2D's bullets are.  Returns
    ``(ia, ib, normal, depth, x, y, feature)`` rows as ``wall_contacts``.
    """
    fc = scene.fc
    n = len(scene)
    none = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 2)), np.zeros(0),
            np.zeros(0), np.zeros(0), np.zeros(0, np.int64))
    if not np.isfinite(params.ccd) or n < 2:
        return none
    size = scene.size
    reach = np.hypot(move[:, 0], move[:, 1]) + np.abs(turn) * size
    fast = np.flatnonzero(reach > params.ccd * size.min())
    if not len(fast):
        return none
    boxes = scene.bounds_now   # the step's contacts were found on these positions
    swept = np.concatenate([np.minimum(boxes[:, 0:2], boxes[:, 0:2] + move),
                            np.maximum(boxes[:, 2:4], boxes[:, 2:4] + move)], axis=1)
    swept[:, 0:2] -= scene.pad
    swept[:, 2:4] += scene.pad
    # candidates: a fast body's swept box against every body's
    pairs = fc.overlapping_pairs(fc.AABBArray(swept[fast]), fc.AABBArray(swept),
                                 workers=params.workers)
    i, j = fast.take(pairs[:, 0]), pairs[:, 1]
    # each pair once, smaller index first (a pair of two fast bodies comes twice)
    keys = np.unique(np.minimum(i, j) * n + np.maximum(i, j))
    keys = keys[(keys // n) != (keys % n)]
    # pairs in contact now are the solver's already
    touching = np.sort(contacts.ia * n + contacts.ib)
    if len(touching) and len(keys):
        at = np.minimum(np.searchsorted(touching, keys), len(touching) - 1)
        keys = keys[touching[at] != keys]
    a, b = keys // n, keys % n
    closing = (np.hypot(move[b, 0] - move[a, 0], move[b, 1] - move[a, 1])
               + np.abs(turn[a]) * size[a] + np.abs(turn[b]) * size[b])
    wanted = closing > params.ccd * np.minimum(size[a], size[b])
    if not wanted.any():
        return none
    pairs, rows, _order, bounds = _by_type_pair(scene, np.stack([a[wanted], b[wanted]], axis=1))
    toi = np.full(len(pairs), np.nan)
    gap = np.empty(len(pairs))
    pa, pb = np.empty((len(pairs), 2)), np.empty((len(pairs), 2))
    for s, t in TYPE_PAIRS:
        lo, hi = bounds[4 * s + t], bounds[4 * s + t + 1]
        if lo < hi:
            sa, sb = scene.arrays[s][rows[lo:hi, 0]], scene.arrays[t][rows[lo:hi, 1]]
            toi[lo:hi] = fc.time_of_impact(sa, move.take(pairs[lo:hi, 0], axis=0),
                                           sb, move.take(pairs[lo:hi, 1], axis=0),
                                           workers=params.workers)
            pa[lo:hi], pb[lo:hi], gap[lo:hi] = fc.closest_points(sa, sb, workers=params.workers)
    # touching within the step, and apart now (a pair touching now is a contact)
    hit = np.flatnonzero(np.isfinite(toi) & (gap > 0.0))
    pairs, pa, pb, gap = pairs[hit], pa[hit], pb[hit], gap[hit]
    normal = (pb - pa) / gap[:, None]
    mid = 0.5 * (pa + pb)
    return (pairs[:, 0], pairs[:, 1], normal, -gap, mid[:, 0], mid[:, 1],
            np.zeros(len(hit), np.int64))


def _move(scene: Scene, move, turn) -> None:
    """Turn every body about its centroid, then move it: the shape arrays in place."""
    for t, arr in enumerate(scene.arrays):
        lo, hi = scene.start[t], scene.start[t + 1]
        if lo == hi:
            continue
        # a circle turned about its centre is the same circle (its angle still counts)
        if t != 0:
            scene.fc.rotate(arr, turn[lo:hi], about=scene.pos[lo:hi], out=arr)
        scene.fc.translate(arr, move[lo:hi], out=arr)
    scene.pos += move
    scene.angle += turn


def _walls(scene: Scene, params: Params, corrected) -> None:
    """Keep every body inside the walls (less a skin): a hard guarantee.

    The wall contacts already stop bodies; this catches what the solver leaves (a
    fast body, a Jacobi overshoot, a corner swung out by a turn): a body any of whose
    points is past a wall is moved back, by translating its shapes, and loses its
    velocity into that wall.
    """
    skin = 2.0 ** -30 * max(scene.width, scene.height)
    b = scene.bounds()
    shift = np.maximum(skin - b[:, 0:2], 0.0)
    shift -= np.maximum(b[:, 2:4] - (np.array([scene.width, scene.height]) - skin), 0.0)
    scene.corrected = corrected + shift
    out = np.flatnonzero((shift != 0.0).any(axis=1))
    if not len(out):
        return
    for t, arr in enumerate(scene.arrays):
        lo, hi = scene.start[t], scene.start[t + 1]
        rows = out[(out >= lo) & (out < hi)]
        if len(rows):
            # only the rows moved (an offset of zero would leave the others as they are)
            offset = np.zeros((hi - lo, 2))
            offset[rows - lo] = shift[rows]
            scene.fc.translate(arr, offset, out=arr)
    scene.pos += shift
    vel = scene.vel
    into = ((shift > 0.0) & (vel < 0.0)) | ((shift < 0.0) & (vel > 0.0))
    vel[into] = 0.0


def step(scene: Scene, params: Params = Params(), timings: Timings | None = None):
    """One fixed step: contacts of the current positions, then the response.

    Returns the step's ``Contacts`` (``ia, ib, normal, depth, points, count``).
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
