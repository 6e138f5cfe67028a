"""One fixed time step of the ball pit: broadphase, narrowphase, response.

Written on fastcol's public buffer API and NumPy only, so it doubles as the example
to copy:

1. **Broadphase**: one ``fc.overlapping_pairs`` over the bodies' bounding boxes as they
   are now (``Scene.bounds``, straight from each type's rows), each grown by how far
   its body can get this step (its *reach*, below): the candidate pairs of every type
   at once (a call per pair of type arrays, ten calls, cost three times as much).
2. **Narrowphase**: ``fc.contact`` on the candidates whose boxes overlap, for each pair
   of types, named by their rows in the two type arrays (``pairs=``, read in place),
   keeping the pairs that hit, with a normal from a towards b, a depth and 1 or 2
   contact points; ``fc.closest_points`` on the others that may be nearer than their
   two reaches (the *speculative* pairs, below).

   Both phases pass ``workers=Params.workers``: fastcol's kernels run without the GIL
   and hand a call's rows out in blocks to helper threads that stay awake between
   calls, so even a call of a few hundred contacts splits over the cores.
3. **Response** (NumPy): gravity and air; the contact points of the pairs, of the
   walls (every outline point near a wall) and of the speculative pairs; a few
   Gauss-Seidel passes of impulses at the points, normal and Coulomb friction, each
   turning the bodies through ``r x n`` and the inverse moment of inertia (so boxes
   topple, capsules roll, polygons settle on a face); a position correction of what
   overlap the step would leave; then every body turns about its centroid
   (``rotate(..., out=)``) and moves (``translate(..., out=)``), the shape arrays
   written in place; the walls' clamp; and a second look at the pairs the move may
   have taken deep (``fc.contact`` on those few again, ``pairs=``), translated back.

Decisions:

* **Rigid bodies**: mass, centroid and polar moment of inertia from
  ``mass_properties`` (density 1).  A point's velocity is ``v + w x r``; an impulse
  ``P`` at ``r`` changes ``v`` by ``P / m`` and ``w`` by ``(r x P) / I``; the effective
  mass of a point along a direction ``d`` is ``1 / (1/ma + (ra x d)^2/Ia + 1/mb +
  (rb x d)^2/Ib)``.  In the solver velocities are complex numbers ``vx + 1j vy``: an
  impulse ``jn`` along the normal ``n`` and ``jt`` along the tangent is
  ``(jn + 1j jt) * n``, and a relative velocity times ``conj(n)`` is the normal speed
  plus ``1j`` the tangential one (half the NumPy calls of x and y apart).
* **Contact points**: a pair that ``fc.contact`` gives two points (faces and edges
  side by side) is two rows with the pair's normal and depth, so a box on a face is
  held at both ends of it and a box on a corner at the corner.
* **Gauss-Seidel by colours.**  The points of one pair of bodies (a contact's one or
  two, a body's on one wall) are a *group*; the groups are coloured so that no body
  is in two groups of a colour (Luby's rule: each round takes every group that comes
  first, by a fixed shuffle, at both its bodies; a 5,000-body pile needs about 15
  colours, and the last 1% of the groups, which would take the last five, are solved
  together, Jacobi with mass splitting), and each pass solves the colours one after
  the other, a colour's groups at once (vectorised, ``np.add.at``).  Every point sees the velocities its
  neighbours' points left, as Box2D's solver does.  The previous solver (Jacobi,
  every point at once, each body's mass split among its points) needed 23 passes and
  still let a falling body sink 87% of the smaller body's size into the pile: a
  split point gets a ``1/k`` share of the correction it needs per pass.  The points
  of a group are solved from the same velocities (each sees its two bodies as heavy
  as they are times the group's points), so a box on a face, or a ball on it, is
  pushed alike at both ends and does not drift.
* **Mass scaling** (``Params.heavy``): in each contact the lower body counts as up to
  twice as heavy (a vertical contact; none for a horizontal one), so a pile's weight
  reaches the floor within a step's few passes.  It does not conserve momentum
  exactly, which a game does not see (without it a 2,000-body pile sinks into itself).
* **Warm start**: a contact point present in the previous step (the same two bodies
  and the same point number) starts from that step's impulses, so a pile's weight is
  carried from step to step.
* **Restitution only for real impacts** (approach faster than a fifth of the
  smaller body per step that closes the gap in the step): slower approaches are the
  jostling inside a pile, which must not bounce.  An impact's impulse is not
  warm-started (it would throw the body back).
* **Position correction**: after the impulses, each point's overlap at the end of
  the step is predicted from its depth and its relative normal velocity (first order
  in the turns): ``depth - vn dt``.  Gauss-Seidel passes move the bodies apart by
  ``beta`` of what is left of it beyond a slop of 1% of the smaller body's size
  (never all of it: that makes piles jitter), so a contact the impulses did not stop
  in time is caught in the same step.  It translates only: turning bodies to first
  order by it made deep overlaps in a pile linger (the linear estimate of how a turn
  changes a depth is poor there).
* **Continuous collision: speculative contacts** (Box2D v3's).  A body's *reach* is
  how far it can get in the step: its speed after gravity times ``dt``, its turn
  (at most ``Params.max_turn``) times its size, and ``Params.margin`` of its size
  (0 by default: measured no better at 3% or 10%, and dearer).  Any
  two bodies apart by less than their two reaches join the solve as a contact with a
  negative depth (minus the gap from ``fc.closest_points``, the normal along the
  closest points), which lets them close the gap in the step and no more, whatever
  the impulses do to them.  Pairs are not filtered by how fast they approach: two
  bodies falling side by side do not approach at all until one of them lands, so the
  previous solver, which swept only approaching pairs with ``fc.time_of_impact`` (and
  re-swept twice on the motion the impulses made), missed the body falling onto one
  that had just stopped.  Clipping each fast body's step at its time of impact, as
  Box2D does for bullets against static bodies (the issue's wording), was tried
  before that: in a falling crowd a clipped body is run into by its unclipped
  neighbours, and clipping them too freezes whole clusters.  Walls likewise: an
  outline point that can reach a wall this step is a speculative wall contact.
  Turning is not swept, so a body turns at most ``Params.max_turn`` (0.1 rad) a step.
* **Deep pairs met again after the move.**  With all of the above, the 2,000-body
  run still had a pair 49.5% of the smaller body's size deep (18 of 300 steps over
  25%), while the pile lands.  Measured at those steps: pairs the step knew
  (contacts and speculative pairs) whose bodies turned at the spin limit or slid by
  half their size, so that a corner no contact point saw came in (the position
  correction is linear at the step's points), and bodies knocked by an impact
  beyond the reach their pairs were found with, into bodies the step never met.  A
  smaller ``max_turn`` (0.05) or more passes did not help (78% on another seed).
  So after the move and the walls' clamp, every pair of the step that may be deeper
  than ``Params.deep`` (20%) of the smaller size now is met again where it is
  (``fc.contact``, ``pairs=``).  "May be": its depth at the start plus how far any
  point of either body got (the centroid's move and the turn at the body's size) is
  more than that; a first cut (both bodies moved less than ``Params.still``, 5%, of
  the smallest size, the depth below 10% of it) leaves almost every pair out at
  rest, where this look costs 0.2 to 0.4 ms a step at 5,000 bodies (a few pairs of
  a resting pile still jostle past 10%), about what the walls' clamp saves (below):
  the whole step measured within 0.15 ms of the one before, back to back.  A body
  that got beyond its reach by more than half of ``deep`` of its size meets
  every body its box touches (``fc.overlapping_pairs`` of those few against all
  the boxes).  The pairs deeper than ``Params.deep_to`` (10%) are moved apart to it
  by Jacobi passes of translations (a translation changes a depth along its normal
  exactly, so the passes run on the depths met once), split by inverse mass, each
  body's share divided among its deep pairs, each move kept inside the walls; the
  pushed bodies' other pairs (and, with the gap from ``fc.closest_points``, those
  met apart) join the next round, until no push spreads (``Params.deep_rounds``).
  Moves only, no velocities (as the position correction), counted in
  ``Scene.corrected``.  Measured on the 2,000-body run: worst 16.6% (seed 0),
  15.1% to 18.7% (seeds 1 to 7), none over 25%; after settling as before (7.1% at
  the end of seed 0; the piles are chaotic, main measured 5.4% to 11.8% over these
  seeds); 19.0% at 5,000 bodies (142.8% before).  Four passes a round instead of
  eight left a pair of the 5,000-body run at 28% (a body in several deep pairs
  gets a share of each).
  On an earlier form of this check, pushing back to 2% went deeper elsewhere (42%:
  a longer push runs into third bodies), and a check from 10% (to 5%) met about a
  hundred pairs a step at rest, its pushes spreading over several rounds: 7 ms.
  The previous try (``git show 1c4bf11``), the pairs of turning bodies met again
  with three fresh ``contact`` passes, reached 17.9% on seed 0 only (25% to 44% on
  seeds 1 to 3: it missed the knocked bodies and the sliding pairs) and cost 3.2 ms
  at 5,000 bodies.
* **Spring push** (``Params.spring``, off by default): an extra separating speed of
  ``spring * depth`` per contact, a soft ball-pit feel.
* **Walls** are four static bodies in the same solver, met through every body's
  outline points (a circle's centre and a capsule's ends with their radius, a box's
  corners, a polygon's vertices).  After the step every body whose outline crosses
  the rectangle less a skin of ``2**-30`` times its larger side is translated back
  inside and loses its velocity into the wall: no body ever leaves, whatever the
  solver leaves over.  Only the bodies within their size of a wall are looked at
  (``Scene.bounds(rows)``): every point of a body is within its size of its
  centroid.  The same moves as from the bounds of every body, which cost about
  0.4 ms more at 5,000 bodies (what pays for the look at deep pairs).
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
    iterations, position_iterations : Gauss-Seidel passes (over every colour) for
        impulses and for positions.
    beta : fraction of the remaining depth each position pass removes.
    slop : depth left alone, as a fraction of the smaller body's size.
    spring : separating speed per unit of depth (0: no spring push).
    damping : fraction of the velocity (and of the spin) lost per second (a little air).
    heavy : mass scaling; the lower body of a vertical contact counts ``1 + heavy``
        times as heavy.
    bounce : approach speed, in the smaller body's sizes per step, above which a
        contact is an impact (restitution, no warm start).
    margin : part of a body's reach, as a fraction of its size (a push from a
        neighbour can start a body at rest); two bodies nearer than their two reaches
        are a speculative contact.  ``inf`` turns speculative pairs off.
    max_turn : the most a body turns in a step, in radians (turning is not swept).
    deep, deep_to : after the move, the pairs that may be deeper than ``deep`` of the
        smaller body's size are met again, and those deeper than ``deep_to`` moved
        apart to it; ``deep >= 1`` turns this off.
    still : the first cut of that check: a body that moved less than ``still`` of the
        smallest body's size is at rest.
    deep_passes, deep_rounds : Jacobi passes of the moves per round, and the most
        rounds (each meets the other pairs of the bodies the last one pushed).
    colours, rest : the most colours of the Gauss-Seidel passes, and the fraction of
        the groups of points left uncoloured (colouring stops there); the points left
        over are solved together (Jacobi, mass splitting).
    workers : threads of the broadphase and contact calls (their ``workers=``; 1: the
        calling thread only).  The answers do not depend on it.
    """

    dt: float = 1.0 / 60.0
    gravity: float = 30.0
    restitution: float = 0.3
    friction: float = 0.4
    iterations: int = 6
    position_iterations: int = 6
    beta: float = 0.8
    slop: float = 0.01
    spring: float = 0.0
    damping: float = 0.2
    heavy: float = 1.0
    bounce: float = 0.2
    margin: float = 0.0
    max_turn: float = 0.1
    deep: float = 0.2
    deep_to: float = 0.1
    still: float = 0.05
    deep_passes: int = 8
    deep_rounds: int = 8
    colours: int = 64
    rest: float = 0.01
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
    return collide(scene, None, timings, workers)[0]


def collide(scene: Scene, reach=None, timings: Timings | None = None, workers: int = 1):
    """The contacts (``find_contacts``) and, with ``reach``, the *speculative* pairs.

    ``reach`` (one per body) is how far a body can get this step: each bounding box is
    grown by it, and a candidate pair apart by a gap smaller than the sum of its two
    reaches is a speculative pair, ``(ia, ib, normal, depth, x, y, feature)`` rows as
    ``wall_contacts``: the normal and the gap from ``fc.closest_points``, the point
    midway between the closest points, and the depth minus the gap.
    """
    fc = scene.fc
    arrays = scene.arrays
    t0 = time.perf_counter()
    # one broadphase call for all four types (ten calls, one per pair of type arrays,
    # cost three times as much: each builds its own grid)
    boxes = scene.bounds()
    grow = scene.pad if reach is None else scene.pad + reach[:, None]
    boxes[:, 0:2] -= grow
    boxes[:, 2:4] += grow
    pairs = fc.overlapping_pairs(fc.AABBArray(boxes), workers=workers)
    t1 = time.perf_counter()
    # bodies are numbered type by type, so in a pair i < j the type of i is <= j's;
    # each type pair's candidates are rows of its two arrays, which contact reads in
    # place (pairs=) instead of gathering copies of them
    pairs, rows, _order, bounds = _by_type_pair(scene, pairs)
    if reach is not None:
        # how far apart the boxes as they are lie along x and y (0: they overlap): a
        # pair whose boxes do not overlap cannot touch (it may be near, below)
        boxes[:, 0:2] += reach[:, None]
        boxes[:, 2:4] -= reach[:, None]
        i, j = pairs[:, 0], pairs[:, 1]
        gx = np.maximum(np.maximum(boxes[:, 0].take(j) - boxes[:, 2].take(i),
                                   boxes[:, 0].take(i) - boxes[:, 2].take(j)), 0.0)
        gy = np.maximum(np.maximum(boxes[:, 1].take(j) - boxes[:, 3].take(i),
                                   boxes[:, 1].take(i) - boxes[:, 3].take(j)), 0.0)
        apart = gx * gx + gy * gy
        overlap = np.flatnonzero(apart == 0.0)
        cut = np.searchsorted(overlap, bounds)
    hit = np.zeros(len(pairs), dtype=bool)
    normal = np.empty((len(pairs), 2))
    depth = np.empty(len(pairs))
    points = np.empty((len(pairs), 2, 2))
    count = np.empty(len(pairs), dtype=np.int64)
    for s, t in TYPE_PAIRS:
        lo, hi = bounds[4 * s + t], bounds[4 * s + t + 1]
        if lo < hi:
            sel = slice(lo, hi) if reach is None else overlap[cut[4 * s + t]:cut[4 * s + t + 1]]
            found = fc.contact(arrays[s], arrays[t], pairs=rows[sel], workers=workers)
            hit[sel] = found.hit
            normal[sel] = found.normal
            depth[sel] = found.depth
            points[sel] = found.points
            count[sel] = found.count
    keep = np.flatnonzero(hit)
    kept = np.take(pairs, keep, axis=0)
    out = Contacts(kept[:, 0], kept[:, 1], np.take(normal, keep, axis=0), np.take(depth, keep),
                   np.take(points, keep, axis=0), np.take(count, keep))
    near = None if reach is None else _speculative(scene, apart, pairs, rows, bounds, hit,
                                                   reach, workers)
    t2 = time.perf_counter()
    if timings is not None:
        timings.broadphase.append(t1 - t0)
        timings.narrowphase.append(t2 - t1)
        timings.contacts.append(len(out.ia))
    return out, near


def _speculative(scene: Scene, apart, pairs, rows, bounds, hit, reach, workers):
    """The candidates apart by less than their two reaches (see ``collide``); ``apart``:
    the square of how far apart their boxes are, a lower bound of the gap's."""
    fc = scene.fc
    a, b = pairs[:, 0], pairs[:, 1]
    room = reach.take(a) + reach.take(b)
    maybe = ~hit & (apart < room * room)
    gap = np.full(len(pairs), np.inf)
    pa, pb = np.zeros((len(pairs), 2)), np.zeros((len(pairs), 2))
    for s, t in TYPE_PAIRS:
        lo, hi = bounds[4 * s + t], bounds[4 * s + t + 1]
        sel = lo + np.flatnonzero(maybe[lo:hi])
        if len(sel):
            got = fc.closest_points(scene.arrays[s][rows[sel, 0]], scene.arrays[t][rows[sel, 1]],
                                    workers=workers)
            pa[sel], pb[sel], gap[sel] = got
    near = np.flatnonzero((gap > 0.0) & (gap < room))
    a, b, pa, pb, gap = a[near], b[near], pa[near], pb[near], gap[near]
    normal = (pb - pa) / gap[:, None]
    mid = 0.5 * (pa + pb)
    return (a, b, normal, -gap, mid[:, 0], mid[:, 1], np.zeros(len(near), np.int64))


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


def _point_rows(scene: Scene, contacts: Contacts, near, params: Params, move, turn):
    """One row per contact point, bodies', walls' and speculative pairs': ``(ia, ib, normal,
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
    return tuple(np.concatenate([u, v, x]) for u, v, x in zip(body, wall, near))


def _colours(ia, ib, n, most, rest=0.0):
    """A colour for each pair of bodies ``(ia, ib)`` such that no body of the scene is in
    two pairs of a colour (the walls, ``>= n``, do not move and may be): at most
    ``most`` colours, and no more once at most ``rest`` of the pairs are left; the
    pairs left over get colour ``most`` (solved together).

    Each round takes every remaining pair that comes first, by a fixed pseudo-random
    priority, at both its bodies (Luby's rule), so the colours are few and the same
    every run.
    """
    pairs = len(ia)
    # a fixed shuffle of the pairs (Knuth's multiplicative hash; pairs < 2**32): in
    # the order of the contacts, neighbours in a pile would share a body every time
    priority = (np.arange(pairs, dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(2 ** 32)
    rem = np.argsort(priority)[::-1]      # lowest priority last: it wins the writes below
    best = np.empty(n + 4, dtype=np.int64)
    colour = np.full(pairs, most)
    ab = np.stack([ia, ib], axis=1).take(rem, axis=0)
    wall = ab[:, 0] >= n
    # the last colours of a pile are a few pairs each, and a colour costs as many
    # NumPy calls as a full one: those few are better solved together
    few = int(rest * pairs)
    for c in range(most):
        if len(rem) <= few:
            break
        # each body's first remaining pair: a repeated index keeps its last write
        best[ab.ravel()] = np.repeat(rem, 2)
        first = best.take(ab) == rem[:, None]
        ok = first[:, 1] & (first[:, 0] | wall)
        colour[rem[ok]] = c
        keep = ~ok
        rem, ab, wall = rem[keep], ab[keep], wall[keep]
    return colour


class _Points:
    """The contact points' constants for the solver, one entry per point row, the rows
    sorted by colour (no body twice in a colour, see ``_colours``; the last slice is
    the rest).  Velocities and moves are complex numbers ``x + 1j y`` here: a normal
    impulse ``jn`` and a friction impulse ``jt`` act as ``(jn + 1j jt) * n``, and the
    relative velocity times ``conj(n)`` is the normal speed plus 1j the tangential."""

    def __init__(self, scene: Scene, rows, params: Params, im, ii, m):
        n = m - 4
        # the rows of a pair of bodies (the points of one contact, or of one body on a
        # wall) are a group: one sort of the rows' keys numbers the groups
        keys = (rows[0] * m + rows[1]) * scene.features + rows[6]
        by_key = np.argsort(keys, kind="stable")
        sorted_keys = keys.take(by_key)
        pair = sorted_keys // scene.features
        first = np.concatenate([[True], pair[1:] != pair[:-1]])
        group = np.empty(len(keys), np.int64)
        group[by_key] = np.cumsum(first) - 1
        heads = by_key[first]
        # the groups coloured, and the rows sorted by their group's colour
        colour = _colours(rows[0].take(heads), rows[1].take(heads), n, params.colours,
                          params.rest)
        row_colour = colour.take(group)
        order = np.argsort(row_colour, kind="stable")
        bounds = np.searchsorted(row_colour.take(order), np.arange(params.colours + 2))
        ia, ib, normal, depth, px, py, feature = (v.take(order, axis=0) for v in rows)
        self.order, self.bounds = order, bounds
        self.ia, self.ib, self.depth, self.m = ia, ib, depth, m
        self.ab = np.concatenate([ia, ib])
        # for the warm start: the keys sorted, and where each one's row is now
        where = np.empty(len(keys), np.int64)
        where[order] = np.arange(len(keys))
        self.sorted_keys, self.by_key = sorted_keys, where.take(by_key)
        # the points of a group are solved together (from the same velocities, mass
        # splitting: each sees both bodies as heavy as they are times the group's
        # points), so a box on a face or a ball on a box is pushed alike at both ends
        split = np.bincount(group).take(group).take(order).astype(float)
        nc = self.n = normal[:, 0] + 1j * normal[:, 1]
        # each point relative to both centroids (a wall's is never used: it does not turn)
        c = np.concatenate([scene.pos[:, 0] + 1j * scene.pos[:, 1], np.zeros(4)])
        p = px + 1j * py
        ra, rb = (p - c.take(ia)) * nc.conjugate(), (p - c.take(ib)) * nc.conjugate()
        # in the contact's frame, r = (r . n) + 1j (r x n)... : r x n turns a normal
        # impulse into a torque, r . n a friction impulse (t = 1j n)
        rna, rta, rnb, rtb = -ra.imag, ra.real, -rb.imag, rb.real
        # mass scaling: in each contact the lower body counts as heavier (up to
        # 1 + heavy times, for a vertical contact), so a pile's weight reaches the floor
        # in a few passes
        fa = 1.0 / (1.0 + params.heavy * np.maximum(normal[:, 1], 0.0))
        fb = 1.0 / (1.0 + params.heavy * np.maximum(-normal[:, 1], 0.0))
        ima, iia = im.take(ia) * fa, ii.take(ia) * fa
        imb, iib = im.take(ib) * fb, ii.take(ib) * fb
        self.ima, self.imb = ima, imb
        sima, simb, siia, siib = split * ima, split * imb, split * iia, split * iib
        # a turn's share of each point's velocity, normal + 1j tangential
        self.wa, self.wb = rna + 1j * rta, rnb + 1j * rtb
        # what a unit impulse (jn + 1j jt) does: the velocity change (times n) and the
        # turn (the real part of it times k)
        self.ka, self.kb = iia * (rna - 1j * rta), iib * (rnb - 1j * rtb)
        self.inv_wn = 1.0 / (sima + siia * rna * rna + simb + siib * rnb * rnb)
        self.inv_wt = 1.0 / (sima + siia * rta * rta + simb + siib * rtb * rtb)
        self.split = (ima + imb) / (sima + simb)
        # how a normal impulse changes the tangent speed (through the turns)
        self.ct = iia * rna * rta + iib * rnb * rtb
        size = np.concatenate([scene.size, np.full(4, np.inf)])   # a wall has no size
        self.pair_size = np.minimum(size.take(ia), size.take(ib))
        # the rest (the last slice) is solved at once (Jacobi) with mass splitting: a
        # body in k of its points counts k times heavier in each
        lo = bounds[-2]
        k = np.bincount(ia[lo:], minlength=m) + np.bincount(ib[lo:], minlength=m)
        ka, kb = k.take(ia[lo:]), k.take(ib[lo:])
        self.inv_wn[lo:] = 1.0 / (ka * (ima[lo:] + iia[lo:] * rna[lo:] ** 2)
                                  + kb * (imb[lo:] + iib[lo:] * rnb[lo:] ** 2))
        self.inv_wt[lo:] = 1.0 / (ka * (ima[lo:] + iia[lo:] * rta[lo:] ** 2)
                                  + kb * (imb[lo:] + iib[lo:] * rtb[lo:] ** 2))
        self.split[lo:] = (ima[lo:] + imb[lo:]) / (ka * ima[lo:] + kb * imb[lo:])
        self.ct[lo:] = 0.0   # Jacobi: the friction sees the velocities of the pass
        # each colour's constants, both bodies' rows one after the other (a's, b's):
        # one gather of every constant through the order of all colours' rows
        rows_ab = [np.arange(lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:])]
        both = np.concatenate([np.concatenate([r, r + len(ia)]) for r in rows_ab])
        cn = nc.conjugate()
        consts = (self.ab.take(both), np.concatenate([-cn, cn]).take(both),
                  np.concatenate([-self.wa, self.wb]).take(both),
                  np.concatenate([-ima * nc, imb * nc]).take(both),
                  np.concatenate([-self.ka, self.kb]).take(both))
        self.groups = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            s, s2 = slice(lo, hi), slice(2 * lo, 2 * hi)
            self.groups.append((*(x[s2] for x in consts[:1]), hi - lo,
                                *(x[s2] for x in consts[1:]),
                                self.inv_wn[s], self.inv_wt[s], self.ct[s]))

    def relative(self, v, w):
        """Velocity of b's point relative to a's: normal + 1j tangential."""
        ia, ib = self.ia, self.ib
        return ((v.take(ib) - v.take(ia)) * self.n.conjugate()
                + (w.take(ib) * self.wb - w.take(ia) * self.wa))

    def spread(self, jn, jt, v, w):
        """Apply impulses ``jn`` along the normals and ``jt`` along the tangents at every
        point (on b, their opposites on a) to the velocities ``v`` and turns ``w``."""
        p = jn + 1j * jt
        dv = np.concatenate([-self.ima * p * self.n, self.imb * p * self.n])
        v += np.bincount(self.ab, dv.real, self.m) + 1j * np.bincount(self.ab, dv.imag, self.m)
        w += np.bincount(self.ab, np.concatenate([-(p * self.ka).real, (p * self.kb).real]),
                         self.m)

    def solve(self, jn, jt, target, friction, v, w, passes):
        """``passes`` Gauss-Seidel passes over the colours: each point's normal impulse
        (accumulated, >= 0) and friction impulse (inside the cone), applied at once to
        its two bodies, which no other point of its colour touches; then the rest at
        once.  ``jn``, ``jt``, ``target``: lists of arrays, one per colour."""
        for _ in range(passes):
            for c, (ab, r, cn, rw, dv, dw, iwn, iwt, ct) in enumerate(self.groups):
                if not r:
                    continue
                vab, wab = v.take(ab), w.take(ab)
                u = vab * cn + wab * rw
                rel = u[:r] + u[r:]
                j0, t0 = jn[c], jt[c]
                j1 = np.maximum(j0 + (target[c] - rel.real) * iwn, 0.0)
                dn = j1 - j0
                limit = friction * j1
                t1 = np.minimum(np.maximum(t0 - (rel.imag + dn * ct) * iwt, -limit), limit)
                jn[c], jt[c] = j1, t1
                p = dn + 1j * (t1 - t0)
                p = np.concatenate([p, p])
                # a body in several points of a group (or of the rest) gets each
                # point's change
                np.add.at(v, ab, p * dv)
                np.add.at(w, ab, (p * dw).real)

    def project(self, goal, beta, s, passes):
        """``passes`` Gauss-Seidel passes of the position correction: each point moves
        its two bodies apart along its normal by ``beta`` of what is left of its
        ``goal`` (lists of arrays, one per colour); ``s`` the moves, complex."""
        for _ in range(passes):
            for c, (ab, r, cn, _rw, dv, _dw, _iwn, _iwt, _ct) in enumerate(self.groups):
                if not r:
                    continue
                sab = s.take(ab)
                u = sab * cn
                push = np.maximum(goal[c] - (u[:r] + u[r:]).real, 0.0) * beta[c]
                push = np.concatenate([push, push])
                np.add.at(s, ab, push * dv)

    def per_colour(self, values):
        """``values`` (one per row) split into one array per colour (copies)."""
        return [values[lo:hi].copy() for lo, hi in zip(self.bounds[:-1], self.bounds[1:])]


def respond(scene: Scene, contacts: Contacts, params: Params, near=None, reach=None) -> None:
    """Advance velocities, then move and turn the bodies by one step given its contacts."""
    n = len(scene)
    m = n + 4  # the bodies and the four walls
    dt = params.dt
    im = np.concatenate([scene.inv_mass, np.zeros(4)])      # walls do not move
    ii = np.concatenate([scene.inv_inertia, np.zeros(4)])   # ... nor turn
    # velocities as complex numbers x + 1j y (see ``_Points``), turns as reals
    decay = 1.0 - params.damping * dt
    v = np.concatenate([scene.vel[:, 0] * decay
                        + 1j * ((scene.vel[:, 1] - params.gravity * dt) * decay), np.zeros(4)])
    w = np.concatenate([scene.omega * decay, np.zeros(4)])
    shift = np.zeros(m, complex)   # the position correction's moves
    spin = params.max_turn / dt
    # the contact points: the bodies', the walls' and the speculative pairs' (the
    # walls' on the motion the step would make without them)
    if near is None:
        near = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 2)), np.zeros(0),
                np.zeros(0), np.zeros(0), np.zeros(0, np.int64))
    rows = _point_rows(scene, contacts, near, params,
                       np.stack([v.real[:n], v.imag[:n]], axis=1) * dt, w[:n] * dt)
    if len(rows[0]):
        pts = _Points(scene, rows, params, im, ii, m)
        vn0 = pts.relative(v, w).real
        # an impact is an approach faster than a fifth of the smaller body per step
        # that closes the gap this step: it bounces (restitution) and is not
        # remembered for the warm start below; slower approaches are the jostling
        # inside a pile, which must not bounce.  A pair still apart by a gap (a
        # speculative pair or a wall ahead, depth < 0) may close it in this step, and
        # no more
        impact = ((vn0 < -params.bounce * pts.pair_size / dt)
                  & (vn0 * dt < np.minimum(pts.depth, 0.0)))
        target = np.where(impact, -params.restitution * vn0, np.minimum(pts.depth, 0.0) / dt)
        if params.spring:
            target += params.spring * np.maximum(pts.depth, 0.0)

        # warm start: a contact point that existed last step (the same two bodies, the
        # same point number) starts from last step's impulses, so a pile's weight is
        # carried from step to step instead of being rebuilt by a few passes each time
        jn = np.zeros(len(pts.ia))
        jt = np.zeros(len(pts.ia))
        order, sorted_keys = pts.by_key, pts.sorted_keys
        prev = scene._warm
        if prev is not None and prev[0] == m and len(prev[1]):
            pkeys, pjn, pjt = prev[1:]
            # sorted against sorted: searchsorted runs faster with sorted needles
            at = np.minimum(np.searchsorted(pkeys, sorted_keys), len(pkeys) - 1)
            same = pkeys[at] == sorted_keys
            jn[order] = np.where(same, pjn[at], 0.0)
            jt[order] = np.where(same, pjt[at], 0.0)
            pts.spread(jn, jt, v, w)

        jn_c, jt_c = pts.per_colour(jn), pts.per_colour(jt)
        pts.solve(jn_c, jt_c, pts.per_colour(target), params.friction, v, w,
                  params.iterations)
        jn, jt = np.concatenate(jn_c), np.concatenate(jt_c)

        # an impact's impulse stopped a fall once: carried over it would throw the
        # body back up next step, so only resting contacts are remembered
        rest = ~impact[order]
        scene._warm = (m, sorted_keys, np.where(rest, jn[order], 0.0),
                       np.where(rest, jt[order], 0.0))

        # a body turns at most ``max_turn`` radians a step (Box2D caps it too): a spin
        # the speculative margin does not follow stays small against the body's size
        np.clip(w, -spin, spin, out=w)
        # position correction (Gauss-Seidel like the impulses): each pass removes
        # ``beta`` of what is left of every point's overlap at the end of the step
        # beyond the slop, by moving the bodies (not turning them: see the module's
        # docstring).  The overlap at the end is the depth less what the velocities
        # close or open in the step (first order in the turns), so a contact the
        # impulses did not stop in time is caught here; walls included
        goal = pts.depth - pts.relative(v, w).real * dt - params.slop * pts.pair_size
        beta_w = params.beta / (pts.ima + pts.imb)
        beta_w *= pts.split
        pts.project(pts.per_colour(goal), pts.per_colour(beta_w), shift,
                    params.position_iterations)
    else:
        scene._warm = None
        np.clip(w, -spin, spin, out=w)

    vel = np.stack([v.real[:n], v.imag[:n]], axis=1)
    corrected = np.stack([shift.real[:n], shift.imag[:n]], axis=1)
    scene.vel[:] = vel
    scene.omega[:] = w[:n]
    move, turn = vel * dt + corrected, w[:n] * dt
    _move(scene, move, turn)
    clamp, box = _walls(scene, params, corrected)
    if params.deep < 1.0:
        # the pairs the step may have taken deep, met again where they are now
        _undo_deep(scene, contacts, near, params, move if clamp is None else move + clamp,
                   turn, reach, box)


def _meet(scene: Scene, pairs, workers):
    """``fc.contact`` of body pairs ``(i, j)``, ``i < j``: the pairs sorted by type pair,
    with their depth (``-inf`` when apart) and normal."""
    pairs, rows, _order, bounds = _by_type_pair(scene, pairs)
    depth = np.full(len(pairs), -np.inf)
    normal = np.zeros((len(pairs), 2))
    for s, t in TYPE_PAIRS:
        lo, hi = bounds[4 * s + t], bounds[4 * s + t + 1]
        if lo < hi:
            found = scene.fc.contact(scene.arrays[s], scene.arrays[t], pairs=rows[lo:hi],
                                     workers=workers)
            depth[lo:hi] = np.where(found.hit, found.depth, -np.inf)
            normal[lo:hi] = found.normal
    return pairs, depth, normal


def _apart(scene: Scene, pairs, workers):
    """``fc.closest_points`` of body pairs ``(i, j)``, ``i < j``, apart: the pairs sorted
    by type pair, minus their gap as the depth, the normal along the closest points."""
    pairs, rows, _order, bounds = _by_type_pair(scene, pairs)
    gap = np.ones(len(pairs))
    normal = np.zeros((len(pairs), 2))
    for s, t in TYPE_PAIRS:
        lo, hi = bounds[4 * s + t], bounds[4 * s + t + 1]
        if lo < hi:
            pa, pb, gap[lo:hi] = scene.fc.closest_points(scene.arrays[s][rows[lo:hi, 0]],
                                                        scene.arrays[t][rows[lo:hi, 1]],
                                                        workers=workers)
            normal[lo:hi] = pb - pa
    # touching (a gap of 0) has no direction: such a pair was met by ``contact``
    normal /= np.maximum(gap, 1e-300)[:, None]
    return pairs, -gap, normal


def _undo_deep(scene: Scene, contacts: Contacts, near, params: Params, move, turn, reach,
               box) -> None:
    """Meet again, where the bodies are now, the pairs the step may have taken deeper
    than ``Params.deep`` of the smaller body's size, and translate the deep ones back
    to ``Params.deep_to`` of it (see the module's docstring).

    ``move`` and ``turn``: what the step did to each body; ``reach``: how far the
    speculative pairs assumed it could get; ``box``: the bodies' bounding boxes now.
    The scene's shape arrays, ``pos`` and ``corrected`` are updated in place.
    """
    n = len(scene)
    size = scene.size
    # how far any point of a body got: its centroid's move and its turn at its size.
    # A pair ends at most its depth plus its two bodies' moves deep: with both moved
    # by less than ``still`` of the smallest body's size and a depth below ``deep -
    # 2 still`` of it, it cannot reach ``deep``.  This first cut is all that runs at
    # rest (one pass over the pairs), the exact bound only on what it leaves
    spun = np.abs(turn) * size
    moved = np.hypot(move[:, 0], move[:, 1]) + spun
    smallest = float(size.min(initial=np.inf))
    busy = moved > params.still * smallest
    floor = (params.deep - 2.0 * params.still) * smallest
    cut = (np.flatnonzero(busy.take(contacts.ia) | busy.take(contacts.ib)
                          | (contacts.depth > floor)),
           np.flatnonzero(busy.take(near[0]) | busy.take(near[1])))
    a = np.concatenate([contacts.ia.take(cut[0]), near[0].take(cut[1])])
    b = np.concatenate([contacts.ib.take(cut[0]), near[1].take(cut[1])])
    d = np.concatenate([contacts.depth.take(cut[0]), near[3].take(cut[1])])
    rel = move.take(b, axis=0) - move.take(a, axis=0)
    sweep = np.hypot(rel[:, 0], rel[:, 1]) + spun.take(a) + spun.take(b)
    small = np.minimum(size.take(a), size.take(b))
    hot = d + sweep > params.deep * small
    # a pair the step did not meet (its gap was more than its two reaches) is at most
    # as deep as how far its two bodies got beyond their reaches: a body beyond its
    # reach by more than half of ``deep`` of its size meets every body its box
    # touches (a broadphase of those few against all)
    excess = moved - (np.inf if reach is None else reach)
    loose = 0.5 * params.deep * size
    esc = excess > loose
    if not hot.any() and not esc.any():
        return
    ia = np.concatenate([contacts.ia, near[0]])
    ib = np.concatenate([contacts.ib, near[1]])
    take = np.zeros(len(ia), bool)
    take[np.concatenate([cut[0], len(contacts.ia) + cut[1]])] = hot
    done = np.zeros(len(ia), bool)
    seen = known = room = None
    shift = np.zeros((n, 2))
    rows = []
    apart = np.zeros((0, 2), np.int64)
    for _ in range(params.deep_rounds):
        cand = np.flatnonzero(take & ~done)
        done[cand] = True
        found = [np.stack([ia.take(cand), ib.take(cand)], axis=1)]
        out = np.flatnonzero(esc)
        if len(out):
            grow = np.hypot(shift[out, 0], shift[out, 1])[:, None]
            around = box.take(out, axis=0)
            around[:, 0:2] -= grow
            around[:, 2:4] += grow
            hits = scene.fc.overlapping_pairs(scene.fc.AABBArray(around),
                                              scene.fc.AABBArray(box),
                                              workers=params.workers)
            i, j = out.take(hits[:, 0]), hits[:, 1]
            keys = np.unique((np.minimum(i, j) * n + np.maximum(i, j))[i != j])
            if known is None:
                known, seen = ia * n + ib, np.zeros(0, np.int64)
            keys = keys[~np.isin(keys, known) & ~np.isin(keys, seen)]
            seen = np.concatenate([seen, keys])
            found.append(np.stack([keys // n, keys % n], axis=1))
        pairs = np.concatenate(found)
        # the pairs met apart with a body pushed since: their gap and its direction
        # join the passes (two bodies apart can be pushed into each other)
        late = np.zeros((0, 2), np.int64)
        if len(apart) and room is not None:
            moving = (shift != 0.0).any(axis=1)
            now = moving.take(apart[:, 0]) | moving.take(apart[:, 1])
            late, apart = apart[now], apart[~now]
        if not len(pairs) and not len(late):
            break
        pairs, depth, normal = _meet(scene, pairs, params.workers)
        hit = depth > -np.inf
        rows.append((pairs[hit, 0], pairs[hit, 1], depth[hit], normal[hit]))
        apart = np.concatenate([apart, pairs[~hit]])
        if len(late):
            late, depth, normal = _apart(scene, late, params.workers)
            rows.append((late[:, 0], late[:, 1], depth, normal))
        a, b, depth, normal = (np.concatenate(x) for x in zip(*rows))
        # Jacobi passes, linear in the moves (translations change a depth along its
        # normal exactly): each deep pair is moved apart by what is left of its excess
        # over ``deep_to``, split by inverse mass, a body's share divided among its
        # deep pairs; the walls bound the moves (the skin as ``_walls``)
        goal = depth - params.deep_to * np.minimum(size.take(a), size.take(b))
        if room is None and not (goal > 0.0).any():
            break   # nothing deep, nothing moved
        if room is None:
            skin = 2.0 ** -30 * max(scene.width, scene.height)
            room = (np.minimum(skin - box[:, 0:2], 0.0),
                    np.maximum(np.array([scene.width, scene.height]) - skin - box[:, 2:4],
                               0.0))
        ima, imb = scene.inv_mass.take(a), scene.inv_mass.take(b)
        nx, ny = normal[:, 0], normal[:, 1]
        before = shift.copy()
        sx, sy = shift[:, 0], shift[:, 1]
        for _ in range(params.deep_passes):
            left = goal - ((sx.take(b) - sx.take(a)) * nx + (sy.take(b) - sy.take(a)) * ny)
            push = np.maximum(left, 0.0) / (ima + imb)
            on = push > 0.0
            if not on.any():
                break
            k = np.maximum(np.bincount(a, on, n) + np.bincount(b, on, n), 1.0)
            pa, pb = push * ima / k.take(a), push * imb / k.take(b)
            sx -= np.bincount(a, pa * nx, n) - np.bincount(b, pb * nx, n)
            sy -= np.bincount(a, pa * ny, n) - np.bincount(b, pb * ny, n)
            np.clip(shift, room[0], room[1], out=shift)
        # the bodies this round moved: all their pairs next round, and the broadphase
        # for those it took beyond their reach
        pushed = (shift != before).any(axis=1)
        if not pushed.any():
            break
        take |= pushed.take(ia) | pushed.take(ib)
        esc = pushed & (excess + np.hypot(shift[:, 0], shift[:, 1]) > loose)
    if room is None:
        return
    for t, arr in enumerate(scene.arrays):
        lo, hi = scene.start[t], scene.start[t + 1]
        if lo < hi and shift[lo:hi].any():
            scene.fc.translate(arr, shift[lo:hi], out=arr)
    scene.pos += shift
    scene.corrected += shift


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


def _walls(scene: Scene, params: Params, corrected):
    """Keep every body inside the walls (less a skin): a hard guarantee.

    The wall contacts already stop bodies; this catches what the solver leaves (a
    fast body, an unconverged pass, a corner swung out by a turn): a body any of whose
    points is past a wall is moved back, by translating its shapes, and loses its
    velocity into that wall.  Only the bodies within their size of a wall are looked
    at (every point of a body lies within its size of its centroid).

    Returns ``(shift, box)``: the moves (``None`` when nothing moved) and a bounding
    box of every body (exact for those near a wall, the square of its size about its
    centroid for the others).
    """
    skin = 2.0 ** -30 * max(scene.width, scene.height)
    inner = np.array([scene.width, scene.height]) - skin
    # the square of each body's size about its centroid, grown by the broadphase's
    # pad for the rounding of many turns and moves
    grow = (scene.size + scene.pad)[:, None]
    box = np.concatenate([scene.pos - grow, scene.pos + grow], axis=1)
    edge = np.flatnonzero(((box[:, 0:2] < skin) | (box[:, 2:4] > inner)).any(axis=1))
    b = scene.bounds(edge)
    push = np.maximum(skin - b[:, 0:2], 0.0) - np.maximum(b[:, 2:4] - inner, 0.0)
    b[:, 0:2] += push
    b[:, 2:4] += push
    box[edge] = b
    moved = (push != 0.0).any(axis=1)
    if not moved.any():
        scene.corrected = corrected
        return None, box
    shift = np.zeros_like(corrected)
    shift[edge] = push
    scene.corrected = corrected + shift
    out = edge[moved]
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
    return shift, box


def step(scene: Scene, params: Params = Params(), timings: Timings | None = None):
    """One fixed step: contacts of the current positions, then the response.

    Returns the step's ``Contacts`` (``ia, ib, normal, depth, points, count``).
    """
    # how far each body can get this step: its speed after gravity, its turn at its
    # size, and a margin (a push from a neighbour can start a body at rest)
    speed = np.hypot(scene.vel[:, 0], scene.vel[:, 1]) + params.gravity * params.dt
    turn = np.minimum(np.abs(scene.omega) * params.dt, params.max_turn)
    reach = speed * params.dt + (turn + params.margin) * scene.size
    if not np.isfinite(params.margin):
        reach = None
    contacts, near = collide(scene, reach, timings, params.workers)
    t0 = time.perf_counter()
    respond(scene, contacts, params, near, reach)
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
