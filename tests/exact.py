"""Exact oracle for the topology tests, and generators of the cases that make it hard.

It imports nothing from fastcol and shares no code with ``src/``: every answer here is
computed in rational arithmetic (``fractions.Fraction``), in which a float is an exact
dyadic number, so a verdict of the library can be checked against the truth and never
against another float computation.

The oracle:

- ``orient(a, b, c)``: the sign of ``(bx-ax)*(cy-ay) - (by-ay)*(cx-ax)``, -1, 0 or 1;
- ``segments_intersect(a, b, c, d)``: whether the closed segments ab and cd share a point
  (touching and collinear overlap count; a segment whose ends coincide is a point);
- ``point_segment_dist2(p, a, b)`` and ``segment_segment_dist2(a, b, c, d)``: squared
  distances, exact;
- ``frame_extent(points)``: the size ``M`` of a configuration in its exact local frame
  (see there), by which the tests scale their error bounds.

The generators draw segment pairs ``(a, b, c, d)`` (four points, each a tuple of two
finite floats) whose verdicts rounding can flip: points meant to lie on a line are
computed in floats (``base + t * dir``) and so lie off it by rounding.  Each frame is
placed at an offset of 0, 1e6 or -3e7 on each axis and scaled by 1e-3 to 1e3; a quarter
of the lines are "exact" (a power-of-two scale, small integer directions, dyadic
parameters), on which the points lie exactly, so exact zeros occur too.

Every generator is written once against a small source of numbers and comes in two
forms: ``GENERATORS[name](rng)`` takes a ``random.Random`` (for bench/check_topology.py)
and ``strategy(name)`` is the hypothesis strategy (for the tests; hypothesis is imported
only there, so the bench script does not need it).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

# --------------------------------------------------------------------------- oracle


def _q(p):
    return Fraction(p[0]), Fraction(p[1])


def orient(a, b, c):
    """-1, 0 or 1: the exact sign of ``(bx-ax)*(cy-ay) - (by-ay)*(cx-ax)``."""
    ax, ay = _q(a)
    bx, by = _q(b)
    cx, cy = _q(c)
    det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (det > 0) - (det < 0)


def on_segment(p, a, b):
    """Whether p lies on the closed segment ab (a point when a == b), exactly."""
    px, py = _q(p)
    ax, ay = _q(a)
    bx, by = _q(b)
    return (orient(a, b, p) == 0
            and min(ax, bx) <= px <= max(ax, bx)
            and min(ay, by) <= py <= max(ay, by))


def segments_intersect(a, b, c, d):
    """Whether the closed segments ab and cd share a point, exactly.

    A proper crossing has each segment's ends strictly on both sides of the other's
    line; every other meeting (touching, collinear overlap, a point segment on the
    other) puts an end of one on the other (CLRS 33.1).
    """
    o1, o2 = orient(a, b, c), orient(a, b, d)
    o3, o4 = orient(c, d, a), orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    return (on_segment(c, a, b) or on_segment(d, a, b)
            or on_segment(a, c, d) or on_segment(b, c, d))


def point_segment_dist2(p, a, b):
    """Exact squared distance from p to the closed segment ab (a point when a == b)."""
    px, py = _q(p)
    ax, ay = _q(a)
    bx, by = _q(b)
    abx, aby = bx - ax, by - ay
    den = abx * abx + aby * aby
    if den == 0:
        return (px - ax) ** 2 + (py - ay) ** 2
    t = ((px - ax) * abx + (py - ay) * aby) / den
    t = min(Fraction(1), max(Fraction(0), t))
    qx, qy = ax + t * abx, ay + t * aby
    return (px - qx) ** 2 + (py - qy) ** 2


def segment_segment_dist2(a, b, c, d):
    """Exact squared distance between the closed segments ab and cd.

    0 when they meet; otherwise the closest pair has an end of one of them, so the
    least of the four end-to-segment distances.
    """
    if segments_intersect(a, b, c, d):
        return Fraction(0)
    return min(point_segment_dist2(a, c, d), point_segment_dist2(b, c, d),
               point_segment_dist2(c, a, b), point_segment_dist2(d, a, b))


def axis_origin(o, values):
    """The exact origin of one axis: ``o`` when every value lies within a factor 2 of it
    (same sign, so ``v - o`` is exact by Sterbenz's lemma), else 0."""
    o = Fraction(o)
    vs = [Fraction(v) for v in values]
    if o > 0 and all(o <= v + v and v <= o + o for v in vs):
        return o
    if o < 0 and all(o >= v + v and v >= o + o for v in vs):
        return o
    return Fraction(0)


def frame_extent(points):
    """The size ``M`` of a configuration: the largest ``|coordinate - origin|`` over the
    points, with each axis's origin the first point's coordinate when every coordinate
    on that axis lies within a factor 2 of it (Sterbenz), else 0 (a Fraction)."""
    m = Fraction(0)
    for axis in (0, 1):
        vals = [p[axis] for p in points]
        o = axis_origin(points[0][axis], vals)
        m = max([m] + [abs(Fraction(v) - o) for v in vals])
    return m


def _approx_point_segment(p, a, b):
    abx, aby = b[0] - a[0], b[1] - a[1]
    apx, apy = p[0] - a[0], p[1] - a[1]
    den = abx * abx + aby * aby
    t = 0.0 if den == 0.0 else min(1.0, max(0.0, (apx * abx + apy * aby) / den))
    return math.hypot(apx - t * abx, apy - t * aby)


def approx_distance(a, b, c, d):
    """A float estimate of the segments' distance, in the frame of a (only to place
    radii near it: a guess, never an expected value)."""
    o = a
    a, b, c, d = ((p[0] - o[0], p[1] - o[1]) for p in (a, b, c, d))

    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    if side(a, b, c) * side(a, b, d) < 0.0 and side(c, d, a) * side(c, d, b) < 0.0:
        return 0.0
    return min(_approx_point_segment(a, c, d), _approx_point_segment(b, c, d),
               _approx_point_segment(c, a, b), _approx_point_segment(d, a, b))


def approx_extent(points):
    """``frame_extent`` in floats (only to size radii)."""
    m = 0.0
    for axis in (0, 1):
        vals = [p[axis] for p in points]
        o, lo, hi = vals[0], min(vals), max(vals)
        if not ((o > 0.0 and lo + lo >= o and hi <= o + o) or (o < 0.0 and hi + hi <= o and lo >= o + o)):
            o = 0.0
        m = max(m, max(abs(v - o) for v in vals))
    return m


# ----------------------------------------------------------------------- generators

OFFSETS = (0.0, 1e6, -3e7)
TAU = 2.0 * math.pi


class _RandomSource:
    """Numbers from a ``random.Random``."""

    def __init__(self, rng):
        self.rng = rng

    def uniform(self, lo, hi):
        return self.rng.uniform(lo, hi)

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)

    def choice(self, options):
        return options[self.rng.randrange(len(options))]


class _DrawSource:
    """Numbers from hypothesis's ``draw`` (so failures shrink and replay)."""

    def __init__(self, draw, st):
        self.draw = draw
        self.st = st

    def uniform(self, lo, hi):
        return self.draw(self.st.floats(lo, hi))

    def integer(self, lo, hi):
        return self.draw(self.st.integers(lo, hi))

    def choice(self, options):
        return self.draw(self.st.sampled_from(options))


def nudge(x, k):
    """x moved by k ulps (toward +inf when k > 0), with math.nextafter."""
    step = math.inf if k > 0 else -math.inf
    for _ in range(abs(k)):
        x = math.nextafter(x, step)
    return x


def _nudge_point(p, kx, ky):
    return (nudge(p[0], kx), nudge(p[1], ky))


class _Line:
    """Points ``base + t * dir`` computed in floats."""

    def __init__(self, src, ox, oy, s, exact):
        self.exact = exact
        if exact:
            # small integers times a power of two: every point below is exact
            self.bx = ox + s * src.integer(-8, 8)
            self.by = oy + s * src.integer(-8, 8)
            dx, dy = src.integer(-4, 4), src.integer(-4, 4)
            if dx == 0 and dy == 0:
                dx = 1
            self.dx, self.dy = s * dx, s * dy
        else:
            self.bx = ox + s * src.uniform(-1.0, 1.0)
            self.by = oy + s * src.uniform(-1.0, 1.0)
            th = src.uniform(0.0, TAU)
            self.dx, self.dy = s * math.cos(th), s * math.sin(th)

    def t(self, src, lo, hi):
        """A parameter in [lo, hi]: a multiple of 1/16 on an exact line."""
        if self.exact:
            return src.integer(math.ceil(lo * 16), math.floor(hi * 16)) / 16.0
        return src.uniform(lo, hi)

    def at(self, t):
        return (self.bx + t * self.dx, self.by + t * self.dy)


def _frame(src):
    """(ox, oy, s, exact): an offset per axis, a scale in [1e-3, 1e3], exact or not."""
    ox = src.choice(OFFSETS)
    oy = src.choice(OFFSETS)
    exact = src.choice((False, False, False, True))
    if exact:
        s = 2.0 ** src.integer(-10, 10)
    else:
        s = 10.0 ** src.uniform(-3.0, 3.0)
    return ox, oy, s, exact


def _line(src):
    ox, oy, s, exact = _frame(src)
    return _Line(src, ox, oy, s, exact), s


def _direction(src, length):
    th = src.uniform(0.0, TAU)
    return length * math.cos(th), length * math.sin(th)


def _between(p, q, u):
    """The rounded point ``p + u * (q - p)``."""
    return (p[0] + u * (q[0] - p[0]), p[1] + u * (q[1] - p[1]))


def _shuffle(src, a, b, c, d):
    """The same pair with either segment reversed and the two segments swapped."""
    if src.choice((False, True)):
        a, b = b, a
    if src.choice((False, True)):
        c, d = d, c
    if src.choice((False, True)):
        a, b, c, d = c, d, a, b
    return a, b, c, d


def _nearly_collinear(src):
    """Four points of one line (random angle, rounded), taken as two segments."""
    line, _ = _line(src)
    return tuple(line.at(line.t(src, -1.0, 1.0)) for _ in range(4))


def _nearly_parallel(src):
    """Two segments at a tiny angle (2**-10 to 2**-60, or 0), a hair apart or not."""
    line, _ = _line(src)
    a, b = line.at(line.t(src, -1.0, 1.0)), line.at(line.t(src, -1.0, 1.0))
    px, py = line.at(line.t(src, -1.0, 1.0))
    eps = src.choice((0.0, 1.0, -1.0)) * 2.0 ** -src.integer(10, 60)
    ce, se = math.cos(eps), math.sin(eps)
    ex, ey = line.dx * ce - line.dy * se, line.dx * se + line.dy * ce
    h = src.choice((0.0, 1.0, -1.0)) * 2.0 ** -src.integer(20, 60)
    px, py = px - h * line.dy, py + h * line.dx
    t0, t1 = src.uniform(-1.0, 1.0), src.uniform(-1.0, 1.0)
    c, d = (px + t0 * ex, py + t0 * ey), (px + t1 * ex, py + t1 * ey)
    return _shuffle(src, a, b, c, d)


def _t_junction(src):
    """An end of cd at a rounded point of ab, its other end off ab."""
    line, s = _line(src)
    a, b = line.at(line.t(src, -1.0, 0.0)), line.at(line.t(src, 0.0, 1.0))
    u = line.t(src, 0.0, 1.0)
    c = _between(a, b, u)
    ux, uy = _direction(src, s * src.uniform(0.1, 1.0))
    d = (c[0] + ux, c[1] + uy)
    return _shuffle(src, a, b, c, d)


def _shared_endpoint(src):
    """cd starts at an end of ab, exactly or one ulp away on either axis."""
    line, s = _line(src)
    a, b = line.at(line.t(src, -1.0, 0.0)), line.at(line.t(src, 0.0, 1.0))
    c = _nudge_point(src.choice((a, b)), src.integer(-1, 1), src.integer(-1, 1))
    ux, uy = _direction(src, s * src.uniform(0.1, 1.0))
    d = (c[0] + ux, c[1] + uy)
    return _shuffle(src, a, b, c, d)


def _hair_crossing(src):
    """cd reaches ab's rounded point, a few ulps short of it or a hair across."""
    line, s = _line(src)
    a, b = line.at(line.t(src, -1.0, 0.0)), line.at(line.t(src, 0.0, 1.0))
    p = _between(a, b, line.t(src, 0.0, 1.0))
    ux, uy = _direction(src, s * src.uniform(0.1, 1.0))
    d = (p[0] + ux, p[1] + uy)
    if src.choice((False, True)):
        # a few ulps either way of the rounded point
        c = _nudge_point(p, src.integer(-2, 2), src.integer(-2, 2))
    else:
        # pushed through ab by a hair, about an ulp of the frame
        k = 2.0 ** -src.integer(44, 56)
        c = (p[0] - k * ux, p[1] - k * uy)
    return _shuffle(src, a, b, c, d)


def _zero_length(src):
    """A point segment on ab, at an end, an ulp off an end or free; or two points."""
    line, s = _line(src)
    a, b = line.at(line.t(src, -1.0, 0.0)), line.at(line.t(src, 0.0, 1.0))
    where = src.choice(("on", "end", "near", "free"))
    if where == "on":
        p = _between(a, b, line.t(src, 0.0, 1.0))
    elif where == "end":
        p = src.choice((a, b))
    elif where == "near":
        p = _nudge_point(src.choice((a, b)), src.integer(-1, 1), src.integer(-1, 1))
    else:
        p = line.at(line.t(src, -1.5, 1.5))
    if src.choice((False, False, False, True)):
        # both are points: equal, or an ulp apart
        q = _nudge_point(p, src.integer(-1, 1), src.integer(-1, 1))
        return _shuffle(src, p, p, q, q)
    return _shuffle(src, a, b, p, p)


def _collinear_gap(src):
    """Two collinear segments apart by one ulp, by 2**-52..2**-30 or up to 0.1."""
    line, _ = _line(src)
    t0 = line.t(src, -1.0, -0.25)
    t1 = line.t(src, -0.125, 0.0)
    a, b = line.at(t0), line.at(t1)
    gap = src.choice(("ulp", "tiny", "small"))
    if gap == "ulp":
        # one ulp further along the line on every axis it moves on
        c = (nudge(b[0], (line.dx > 0) - (line.dx < 0)), nudge(b[1], (line.dy > 0) - (line.dy < 0)))
    else:
        g = 2.0 ** -src.integer(30, 52) if gap == "tiny" else src.uniform(1e-9, 0.1)
        if line.exact:
            g = 1.0 / 16.0
        c = line.at(t1 + g)
    d = line.at(line.t(src, 0.25, 1.0))
    return _shuffle(src, a, b, c, d)


def _collinear_overlap(src):
    """Two collinear segments overlapping, one inside the other, or sharing an end."""
    line, _ = _line(src)
    t0 = line.t(src, -1.0, -0.25)
    t1 = line.t(src, 0.25, 1.0)
    kind = src.choice(("overlap", "inside", "shared"))
    if kind == "overlap":
        t2, t3 = line.t(src, t0, t1), line.t(src, t1, 1.5)
    elif kind == "inside":
        t2, t3 = line.t(src, t0, t1), line.t(src, t0, t1)
    else:
        # the same parameter: the same float point
        t2, t3 = t1, line.t(src, t1, 1.5)
    return _shuffle(src, line.at(t0), line.at(t1), line.at(t2), line.at(t3))


def _disjoint_collinear(src):
    """The issue's sweep: two collinear unit-size segments at least 1e-3 apart."""
    th = src.uniform(0.0, TAU)
    dx, dy = math.cos(th), math.sin(th)
    bx, by = src.uniform(-1.0, 1.0), src.uniform(-1.0, 1.0)
    t0 = src.uniform(-2.0, 0.0)
    t1 = t0 + src.uniform(1e-3, 2.0)
    t2 = t1 + src.uniform(1e-3, 1.0)
    t3 = t2 + src.uniform(1e-3, 2.0)
    a, b, c, d = ((bx + t * dx, by + t * dy) for t in (t0, t1, t2, t3))
    return _shuffle(src, a, b, c, d)


def _checked(build):
    def run(src):
        case = build(src)
        assert len(case) == 4
        for p in case:
            assert type(p[0]) is float and type(p[1]) is float, case
            assert math.isfinite(p[0]) and math.isfinite(p[1]), case
        return case
    run.__doc__ = build.__doc__
    return run


# name -> builder(source); each builder's docstring says what it draws
_BUILDERS = {
    "nearly_collinear": _nearly_collinear,
    "nearly_parallel": _nearly_parallel,
    "t_junction": _t_junction,
    "shared_endpoint": _shared_endpoint,
    "hair_crossing": _hair_crossing,
    "zero_length": _zero_length,
    "collinear_gap": _collinear_gap,
    "collinear_overlap": _collinear_overlap,
    "disjoint_collinear": _disjoint_collinear,
}
_BUILDERS = {name: _checked(b) for name, b in _BUILDERS.items()}
# the names of the families of hard cases
CASES = tuple(_BUILDERS)


def _random_form(build):
    return lambda rng: build(_RandomSource(rng))


# the plain generators: GENERATORS[name](random.Random) -> (a, b, c, d)
GENERATORS = {name: _random_form(b) for name, b in _BUILDERS.items()}
nearly_collinear = GENERATORS["nearly_collinear"]
nearly_parallel = GENERATORS["nearly_parallel"]
t_junction = GENERATORS["t_junction"]
shared_endpoint = GENERATORS["shared_endpoint"]
hair_crossing = GENERATORS["hair_crossing"]
zero_length = GENERATORS["zero_length"]
collinear_gap = GENERATORS["collinear_gap"]
collinear_overlap = GENERATORS["collinear_overlap"]
disjoint_collinear = GENERATORS["disjoint_collinear"]


def hard_case(rng):
    """A case of a family drawn uniformly from CASES (the names of the hard cases)."""
    return GENERATORS[CASES[rng.randrange(len(CASES))]](rng)


def _radii(src, case):
    """(ra, rb): radii for capsules on the case's segments, finite and >= 0.

    Sized by the frame, or with ra + rb within a relative 1e-3..1e-10 of the segments'
    distance (the verdicts a kernel's rounding could flip), or one of them zero.
    """
    m = approx_extent(case) or 1.0
    mode = src.choice(("frame", "near", "zero"))
    ra = m * 10.0 ** src.uniform(-6.0, 0.0)
    rb = m * 10.0 ** src.uniform(-6.0, 0.0)
    if mode == "near":
        dist = approx_distance(*case)
        if dist > 0.0:
            total = dist * (1.0 + src.choice((1.0, -1.0)) * 10.0 ** src.uniform(-10.0, -3.0))
            w = src.uniform(0.0, 1.0)
            ra = total * w
            rb = total - ra
            if rb < 0.0:
                rb = 0.0
    elif mode == "zero":
        if src.choice((False, True)):
            ra = 0.0
        else:
            rb = 0.0
    return ra, rb


def radii(rng, case):
    """``_radii`` from a ``random.Random``."""
    return _radii(_RandomSource(rng), case)


# -------------------------------------------------------------- hypothesis strategies


def strategy(kind=None):
    """The hypothesis strategy of one generator (by name), or of all of them."""
    from hypothesis import strategies as st

    def one(build):
        @st.composite
        def cases(draw):
            return build(_DrawSource(draw, st))

        return cases()

    if kind is not None:
        return one(_BUILDERS[kind])
    return st.one_of([one(b) for b in _BUILDERS.values()])


def radii_strategy(case):
    """The hypothesis strategy of ``radii`` for a drawn case."""
    from hypothesis import strategies as st

    @st.composite
    def radii_for(draw):
        return _radii(_DrawSource(draw, st), case)

    return radii_for()


if __name__ == "__main__":
    # a glance at what each generator draws
    rng = random.Random(1)
    for name in CASES:
        print(name, GENERATORS[name](rng))


# ------------------------------------------------------------- convex shapes (exact)


def point_in_ring(p, ring):
    """Whether p lies inside or on the convex counter-clockwise ring (exact)."""
    n = len(ring)
    return all(orient(ring[i], ring[(i + 1) % n], p) >= 0 for i in range(n))


def segment_meets_ring(a, b, ring):
    """Whether the closed segment ab meets the closed convex ring (exact): an end
    inside, or a crossing of an edge."""
    if point_in_ring(a, ring) or point_in_ring(b, ring):
        return True
    n = len(ring)
    return any(segments_intersect(a, b, ring[i], ring[(i + 1) % n]) for i in range(n))
