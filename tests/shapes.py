"""The catalogue of shape kinds the tests draw from: names, row widths, array classes,
and how a shape is built from its arguments.

Adding a shape starts here: its kind in ``KINDS`` (and ``ROUND`` if it has a core and
a radius), its row width, how ``build`` makes it, and its hypothesis strategy
(``shape_specs``: shapes as ``(kind, *args)`` specs, degenerate sizes included, that
``make`` builds) with its ``translate`` and ``scale``.  The generators of exact hard
cases (nearly collinear segments and the like) live in ``exact.py``, beside their
rational arithmetic.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume
from hypothesis import strategies as st

from oracle import area, hull

# every shape kind, in the canonical pair order the kernels use
KINDS = ("Circle", "Capsule", "Segment", "AABB", "OBB", "Polygon")
# the kinds with a core (a point or a segment) and a radius
ROUND = ("Circle", "Capsule", "Segment")
# each unordered pair of kinds once (the 21 pairs the benchmarks and tests cover)
PAIRS = tuple(itertools.combinations_with_replacement(KINDS, 2))
# the same pairs as pytest parameters, with readable ids
PAIR_PARAMS = [pytest.param(a, b, id=f"{a.lower()}-{b.lower()}") for a, b in PAIRS]
# the row width of each kind's array (a PolygonArray holds padded vertices instead)
WIDTH = {"Circle": 3, "Capsule": 5, "Segment": 4, "AABB": 4, "OBB": 5}
# the name of each kind's array class
ARRAY = {kind: kind + "Array" for kind in KINDS}


def build(fc, kind, params):
    """The shape ``kind`` of the backend ``fc`` from its constructor's arguments
    ``params`` (a Polygon's: its vertex list)."""
    return fc.Polygon(params) if kind == "Polygon" else getattr(fc, kind)(*params)


def make(fc, spec):
    """``build`` of a flat spec ``(kind, *params)`` (a Polygon's: ``("Polygon",
    vertices)``), as the hypothesis strategies below draw them."""
    return build(fc, spec[0], spec[1] if spec[0] == "Polygon" else spec[1:])


def make_hull(fc, spec):
    """As ``make``, but a Polygon is the convex hull of the points given (the property
    tests' strategies draw any points)."""
    if spec[0] == "Polygon":
        return fc.Polygon.hull(list(spec[1]))
    return make(fc, spec)


# ---------------------------------------------------------------------------------------
# Tolerances


def size_of(*specs):
    """Largest absolute coordinate or size in the specs (at least 1e-300)."""
    vals = [1e-300]
    for spec in specs:
        for v in spec[1:]:
            if isinstance(v, tuple):
                vals += [abs(c) for pt in v for c in pt]
            else:
                vals.append(abs(v))
    return max(vals)


# ---------------------------------------------------------------------------------------
# Spec transforms and construction


def translate(spec, dx, dy):
    kind, a = spec[0], spec[1:]
    if kind == "Circle":
        return (kind, a[0] + dx, a[1] + dy, a[2])
    if kind == "Capsule":
        return (kind, a[0] + dx, a[1] + dy, a[2] + dx, a[3] + dy, a[4])
    if kind in ("Segment", "AABB"):
        return (kind, a[0] + dx, a[1] + dy, a[2] + dx, a[3] + dy)
    if kind == "OBB":
        return (kind, a[0] + dx, a[1] + dy, a[2], a[3], a[4])
    return (kind, tuple((x + dx, y + dy) for x, y in a[0]))


def scale(spec, k):
    kind, a = spec[0], spec[1:]
    if kind == "OBB":
        return (kind, a[0] * k, a[1] * k, a[2] * k, a[3] * k, a[4])
    if kind == "Polygon":
        return (kind, tuple((x * k, y * k) for x, y in a[0]))
    return (kind,) + tuple(v * k for v in a)


# ---------------------------------------------------------------------------------------
# Strategies (specs: plain tuples, built into shapes of the backend under test)


def _tidy(v):
    # no subnormal or tiny coordinates: they only test the float format, not geometry
    return 0.0 if abs(v) < 1e-6 else v


def coords(lim):
    # a grid of quarters (exactly touching shapes are common) or any float
    return st.one_of(
        st.integers(-4 * lim, 4 * lim).map(lambda k: k / 4),
        st.floats(-lim, lim, allow_nan=False, allow_infinity=False).map(_tidy),
    )


def sizes(lim):
    return st.one_of(
        st.just(0.0),
        st.integers(1, 4 * lim).map(lambda k: k / 4),
        st.floats(0, lim, allow_nan=False, allow_infinity=False).map(_tidy),
    )


def points(lim):
    return st.tuples(coords(lim), coords(lim))


def point_pair(lim):
    """Two end points, sometimes equal (a zero-length segment)."""
    return st.one_of(
        st.tuples(points(lim), points(lim)),
        points(lim).map(lambda p: (p, p)),
    )


# Angles are 0 or at least 1e-100 in size: the sine of a smaller angle makes products
# such as half_w * sin underflow (5e-324 is a real hypothesis find), which is outside the
# accuracy range docs/numerics.md states (about 1e-150 to 1e150) and breaks exact 2**k scale
# invariance.  Consistency at tiny angles is still tested, in TINY_GAPS below.
ANGLES = st.one_of(
    st.sampled_from([0.0, math.pi / 2, math.pi / 4, math.pi, -math.pi / 3,
                     math.atan2(3, 4)]),
    st.floats(-7, 7, allow_nan=False, allow_infinity=False).filter(
        lambda t: t == 0.0 or abs(t) >= 1e-100
    ),
)


def _ring(c, radius, phase, n, squash):
    """n points on an ellipse (a convex polygon, rounded to floats)."""
    return tuple(
        (c[0] + radius * math.cos(phase + 2 * math.pi * i / n),
         c[1] + squash * radius * math.sin(phase + 2 * math.pi * i / n))
        for i in range(n)
    )


def polygon_points(lim):
    grid = st.integers(-4 * lim, 4 * lim)
    return st.one_of(
        # random grid points: duplicates, collinear runs and interior points abound
        st.lists(st.tuples(grid, grid), min_size=3, max_size=8).map(
            lambda pts: tuple((x / 4, y / 4) for x, y in pts)),
        # points on an ellipse: float vertices, many of them
        st.builds(_ring, points(lim), st.floats(lim / 64, lim),
                  st.floats(-4, 4), st.integers(3, 12), st.floats(0.05, 1)),
    )


_POLYGON_POINTS = {lim: polygon_points(lim) for lim in (2, 8)}


@st.composite
def polygon_specs(draw, lim):
    pts = draw(_POLYGON_POINTS[lim])
    h = hull(pts)
    extent = max(max(x for x, _ in pts) - min(x for x, _ in pts),
                 max(y for _, y in pts) - min(y for _, y in pts))
    # skip degenerate hulls (all points on a line, or a sliver of no real area)
    assume(len(h) >= 3 and area(h) > 1e-6 * extent * extent)
    return ("Polygon", pts)


def _shape_specs(kind, lim, size_lim):
    if kind == "Circle":
        return st.builds(lambda p, r: ("Circle", p[0], p[1], r), points(lim),
                         sizes(size_lim))
    if kind == "Capsule":
        return st.builds(lambda ab, r: ("Capsule", *ab[0], *ab[1], r), point_pair(lim),
                         sizes(size_lim))
    if kind == "Segment":
        return st.builds(lambda ab: ("Segment", *ab[0], *ab[1]), point_pair(lim))
    if kind == "AABB":
        return st.builds(lambda p, w, h: ("AABB", p[0], p[1], p[0] + w, p[1] + h),
                         points(lim), sizes(size_lim), sizes(size_lim))
    if kind == "OBB":
        return st.builds(lambda p, w, h, t: ("OBB", p[0], p[1], w, h, t), points(lim),
                         sizes(size_lim), sizes(size_lim), ANGLES)
    if kind == "Polygon":
        return polygon_specs(lim)
    raise AssertionError(kind)


# built once: constructing strategies is far costlier than drawing from them
_SPECS = {(kind, lim, size_lim): _shape_specs(kind, lim, size_lim)
          for kind in KINDS for lim, size_lim in ((8, 4), (2, 1))}


def shape_specs(kind, lim=8, size_lim=4):
    return _SPECS[kind, lim, size_lim]
