"""The compiled backend against the reference: float64 results must be bit-identical.

Both backends run the same formulas in the same order, and the extension is built with
``-ffp-contract=off``, so on x86-64 every float they return has the same bits.  A
mismatch is a bug in one of them: find out which, never loosen the comparison.

Shapes are described by plain specs (``(kind, params)``) and built in each backend.  The
specs come from hypothesis strategies (random, on integer grids so that touching,
parallel and collinear cases occur often, and far from the origin) and from hand-built
adversarial families (touching, parallel, collinear, degenerate, coincident, contained,
1e6 offsets, 1e-3 sizes).
"""

from __future__ import annotations

import itertools
import math
import platform
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_backend
import shapes
from shapes import KINDS

REF = load_backend("reference")
EXT = load_backend("compiled")

QUERIES = ("collide", "distance", "closest_points")
PRIMITIVES = {
    "closest_point_on_segment": 3,
    "closest_point_on_line": 3,
    "point_segment_distance": 3,
    "segment_segment_closest": 4,
    "segment_segment_distance": 4,
    "segments_intersect": 4,
}

pytestmark = pytest.mark.skipif(
    platform.machine().lower() not in ("x86_64", "amd64"),
    reason="bit-identical float64 is promised on x86-64 only (DESIGN.md, Backends)",
)


def build(mod, spec):
    """A shape of ``mod`` from a spec ``(kind, params)`` (a Polygon's params: its vertices)."""
    return shapes.build(mod, *spec)


def bits(value):
    """Flatten a result into a tuple whose equality means bit-for-bit equality."""
    if value is None or isinstance(value, bool):
        return ("none-or-bool", value)
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    if isinstance(value, (tuple, list)) or hasattr(value, "_fields"):
        return tuple(bits(v) for v in value)
    raise AssertionError(f"unexpected result type {type(value).__name__}: {value!r}")


def assert_same(query, args_ref, args_ext):
    expected = getattr(REF, query)(*args_ref)
    got = getattr(EXT, query)(*args_ext)
    # the same type, or the backends' twin records (Closest, PointQuery, CastHit)
    assert type(got).__name__ == type(expected).__name__, (query, got, expected)
    assert bits(got) == bits(expected), f"{query}{args_ref}: compiled {got!r} != reference {expected!r}"


def check_pair(spec_a, spec_b, move=None):
    ra, rb = build(REF, spec_a), build(REF, spec_b)
    ea, eb = build(EXT, spec_a), build(EXT, spec_b)
    if move is not None:
        # translated() rather than moved specs: rounding at 1e9 may make a moved
        # vertex list non-convex, which the constructor rightly rejects
        ra, rb, ea, eb = (s.translated(*move) for s in (ra, rb, ea, eb))
    for query in QUERIES:
        assert_same(query, (ra, rb), (ea, eb))
        assert_same(query, (rb, ra), (eb, ea))


# ------------------------------------------------------------------------ strategies

# integer and half-integer grids make exact touching, parallel and collinear common
grid = st.integers(-6, 6).map(float) | st.integers(-12, 12).map(lambda v: v / 2)
coord = grid | st.floats(-10, 10, allow_nan=False, allow_infinity=False)
size = st.sampled_from([0.0, 0.5, 1.0, 2.0]) | st.floats(0, 5, allow_nan=False)
angle = st.sampled_from([0.0, math.pi / 2, math.pi / 4, -math.pi / 3]) | st.floats(-7, 7)


@st.composite
def specs(draw, kind=None):
    kind = kind or draw(st.sampled_from(KINDS))
    x, y = draw(coord), draw(coord)
    if kind == "Circle":
        return kind, (x, y, draw(size))
    if kind in ("Capsule", "Segment"):
        bx, by = draw(coord), draw(coord)
        if draw(st.booleans()):
            bx, by = x, y  # zero length: a circle or a point
        extra = (draw(size),) if kind == "Capsule" else ()
        return kind, (x, y, bx, by) + extra
    if kind == "AABB":
        return kind, (x, y, x + draw(size), y + draw(size))
    if kind == "OBB":
        return kind, (x, y, draw(size), draw(size), draw(angle))
    pts = draw(st.lists(st.tuples(coord, coord), min_size=3, max_size=9))
    ring = hull_or_none(pts)
    if ring is None:
        # a degenerate cloud: fall back to a triangle on the grid
        return kind, ((x, y), (x + 1.0, y), (x, y + 1.0))
    return kind, tuple(ring)


def hull_or_none(points):
    try:
        return REF.Polygon.hull(points).vertices
    except ValueError:
        return None


def offset(spec, dx, dy):
    kind, p = spec
    if kind == "Circle":
        return kind, (p[0] + dx, p[1] + dy, p[2])
    if kind in ("Capsule", "Segment"):
        return kind, (p[0] + dx, p[1] + dy, p[2] + dx, p[3] + dy) + tuple(p[4:])
    if kind == "AABB":
        return kind, (p[0] + dx, p[1] + dy, p[2] + dx, p[3] + dy)
    if kind == "OBB":
        return kind, (p[0] + dx, p[1] + dy) + tuple(p[2:])
    return kind, tuple((x + dx, y + dy) for x, y in p)


def scale(spec, k):
    kind, p = spec
    if kind == "Polygon":
        return kind, tuple((x * k, y * k) for x, y in p)
    if kind == "OBB":
        return kind, (p[0] * k, p[1] * k, p[2] * k, p[3] * k, p[4])
    return kind, tuple(v * k for v in p)


@settings(max_examples=1500)
@given(specs(), specs())
def test_random_pairs_bit_identical(spec_a, spec_b):
    check_pair(spec_a, spec_b)


@settings(max_examples=400)
@given(specs(), specs(), st.sampled_from([1e6, -1e6, 3.5e6, 1e9]))
def test_far_from_origin_bit_identical(spec_a, spec_b, off):
    check_pair(spec_a, spec_b, move=(off, -off / 2))


ROUND = ("Circle", "Capsule", "Segment")


@settings(max_examples=400)
@given(st.sampled_from(ROUND).flatmap(specs), st.sampled_from(ROUND).flatmap(specs),
       st.sampled_from([1e-170, 1e-160, 1e150, 1e300]))
def test_round_pairs_at_extreme_scales_bit_identical(spec_a, spec_b, k):
    # squared lengths and products that underflow to 0.0 or overflow: the compiled
    # squared segment distance (segment_segment_d2, without the points) and the
    # primitives on the same points keep the reference's bits there too
    check_pair(scale(spec_a, k), scale(spec_b, k))
    a, b = spec_a[1], spec_b[1]
    pts = [(a[0] * k, a[1] * k), (a[2] * k, a[3] * k) if len(a) > 3 else (a[0] * k, a[1] * k),
           (b[0] * k, b[1] * k), (b[2] * k, b[3] * k) if len(b) > 3 else (b[0] * k, b[1] * k)]
    assert_same("segment_segment_distance", tuple(pts), tuple(pts))


@settings(max_examples=300)
@given(st.sampled_from(ROUND).flatmap(specs),
       st.sampled_from(("AABB", "OBB", "Polygon")).flatmap(specs))
def test_round_and_convex_pairs_beyond_the_range_bit_identical(spec_a, spec_b):
    # the round shape moved 2**512 away: the squared distances overflow (docs/numerics.md,
    # Range), and both backends report the pair apart at distance inf, as for two round
    # shapes, never inside (a point core against a box once took the overflow for
    # "no edge faces the core": 0.0 in the reference, inf compiled)
    ra, ea = (build(m, spec_a).translated(2.0 ** 512, 0.0) for m in (REF, EXT))
    rb, eb = build(REF, spec_b), build(EXT, spec_b)
    for query in QUERIES:
        assert_same(query, (ra, rb), (ea, eb))
        assert_same(query, (rb, ra), (eb, ea))
    assert REF.distance(ra, rb) == math.inf and not REF.collide(ra, rb)


point = st.tuples(coord, coord)


@settings(max_examples=600)
@given(st.sampled_from(sorted(PRIMITIVES)), st.lists(point, min_size=4, max_size=4),
       st.integers(0, 3))
def test_primitives_bit_identical(name, points, repeat):
    pts = points[: PRIMITIVES[name]]
    if repeat and len(pts) >= 2:
        # degenerate input: a repeated point (zero-length segment, p on an end)
        pts[repeat % len(pts)] = pts[0]
    assert_same(name, tuple(pts), tuple(pts))


# ------------------------------------------------------------- adversarial families


def adversarial_specs():
    """Hand-built pairs that break careless kernels."""
    hexagon = tuple((math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6))
    tri = ((0.0, 0.0), (4.0, 0.0), (0.0, 3.0))
    base = [
        # touching exactly
        (("Circle", (0.0, 0.0, 1.0)), ("Circle", (2.0, 0.0, 1.0))),
        (("Circle", (0.0, 0.0, 1.0)), ("Circle", (3.0, 4.0, 4.0))),
        (("Circle", (0.0, 0.0, 1.0)), ("AABB", (1.0, -1.0, 2.0, 1.0))),
        (("Circle", (0.0, 0.0, 1.0)), ("Segment", (1.0, -5.0, 1.0, 5.0))),
        (("Capsule", (0.0, 0.0, 4.0, 0.0, 1.0)), ("Capsule", (0.0, 2.0, 4.0, 2.0, 1.0))),
        (("AABB", (0.0, 0.0, 1.0, 1.0)), ("AABB", (1.0, 1.0, 2.0, 2.0))),
        (("AABB", (0.0, 0.0, 1.0, 1.0)), ("Polygon", ((1.0, 0.0), (2.0, 0.0), (2.0, 1.0)))),
        (("Polygon", tri), ("Polygon", ((4.0, 0.0), (8.0, 0.0), (4.0, 3.0)))),
        (("OBB", (0.0, 0.0, 1.0, 1.0, 0.0)), ("OBB", (2.0, 0.0, 1.0, 1.0, 0.0))),
        # parallel
        (("Segment", (0.0, 0.0, 4.0, 0.0)), ("Segment", (1.0, 1.0, 3.0, 1.0))),
        (("Capsule", (0.0, 0.0, 4.0, 0.0, 0.5)), ("Capsule", (5.0, 1.0, 9.0, 1.0, 0.25))),
        (("Segment", (0.0, 0.0, 4.0, 4.0)), ("Segment", (1.0, 0.0, 5.0, 4.0))),
        # collinear: overlapping, touching at an end, disjoint, one inside the other
        (("Segment", (0.0, 0.0, 4.0, 0.0)), ("Segment", (2.0, 0.0, 6.0, 0.0))),
        (("Segment", (0.0, 0.0, 4.0, 0.0)), ("Segment", (4.0, 0.0, 6.0, 0.0))),
        (("Segment", (0.0, 0.0, 4.0, 0.0)), ("Segment", (5.0, 0.0, 6.0, 0.0))),
        (("Segment", (0.0, 0.0, 4.0, 0.0)), ("Segment", (1.0, 0.0, 2.0, 0.0))),
        (("Segment", (0.0, 0.0, 3.0, 3.0)), ("Segment", (6.0, 6.0, 1.0, 1.0))),
        (("Capsule", (0.0, 0.0, 4.0, 0.0, 1.0)), ("Capsule", (6.0, 0.0, 9.0, 0.0, 1.0))),
        # crossing and T-junctions
        (("Segment", (0.0, 0.0, 2.0, 2.0)), ("Segment", (0.0, 2.0, 2.0, 0.0))),
        (("Segment", (0.0, 0.0, 4.0, 0.0)), ("Segment", (2.0, 0.0, 2.0, 3.0))),
        # degenerate: points, zero-size boxes
        (("Circle", (1.0, 1.0, 0.0)), ("Circle", (1.0, 1.0, 0.0))),
        (("Circle", (1.0, 1.0, 0.0)), ("Segment", (0.0, 0.0, 2.0, 2.0))),
        (("Capsule", (1.0, 1.0, 1.0, 1.0, 0.5)), ("Segment", (3.0, 3.0, 3.0, 3.0))),
        (("AABB", (0.0, 0.0, 0.0, 2.0)), ("AABB", (0.0, 3.0, 0.0, 4.0))),
        (("AABB", (0.0, 0.0, 0.0, 0.0)), ("AABB", (0.0, 0.0, 0.0, 0.0))),
        (("OBB", (0.0, 0.0, 0.0, 1.0, 0.7)), ("OBB", (0.0, 0.0, 1.0, 0.0, 0.7))),
        (("OBB", (0.0, 0.0, 0.0, 0.0, 1.0)), ("Polygon", hexagon)),
        (("AABB", (0.5, 0.0, 0.5, 0.0)), ("Polygon", hexagon)),
        # coincident
        (("Polygon", hexagon), ("Polygon", hexagon)),
        (("OBB", (1.0, 2.0, 1.0, 0.5, 0.3)), ("OBB", (1.0, 2.0, 1.0, 0.5, 0.3))),
        (("Capsule", (0.0, 0.0, 4.0, 0.0, 1.0)), ("Capsule", (4.0, 0.0, 0.0, 0.0, 1.0))),
        # contained
        (("Circle", (0.0, 0.0, 10.0)), ("Polygon", hexagon)),
        (("Polygon", hexagon), ("Circle", (0.0, 0.0, 0.25))),
        (("AABB", (-5.0, -5.0, 5.0, 5.0)), ("Capsule", (-1.0, 0.0, 1.0, 0.0, 0.5))),
        (("OBB", (0.0, 0.0, 5.0, 5.0, 0.4)), ("Segment", (-1.0, 0.0, 1.0, 0.0))),
        (("Polygon", tri), ("AABB", (0.5, 0.5, 1.0, 1.0))),
        # a capsule crossing a box without an end inside it
        (("Capsule", (-5.0, 0.5, 5.0, 0.5, 0.1)), ("AABB", (0.0, 0.0, 1.0, 1.0))),
        (("Segment", (-5.0, 0.5, 5.0, 0.5)), ("OBB", (0.0, 0.0, 1.0, 1.0, 0.3))),
    ]
    for a, b in base:
        yield a, b
        for dx, dy in ((1e6, 1e6), (-1e6, 3e6), (123456.789, -9876543.21)):
            yield offset(a, dx, dy), offset(b, dx, dy)
        yield scale(a, 1e-3), scale(b, 1e-3)


ADVERSARIAL = list(adversarial_specs())


@pytest.mark.parametrize(
    "spec_a, spec_b", ADVERSARIAL, ids=[f"{a[0]}-{b[0]}-{i}" for i, (a, b) in enumerate(ADVERSARIAL)]
)
def test_adversarial_pairs_bit_identical(spec_a, spec_b):
    check_pair(spec_a, spec_b)


def test_adversarial_families_cover_every_kind():
    kinds = {s[0] for pair in ADVERSARIAL for s in pair}
    assert kinds == set(KINDS)


@pytest.mark.parametrize("ka, kb", list(itertools.combinations_with_replacement(KINDS, 2)))
@settings(max_examples=60)
@given(data=st.data())
def test_every_pair_of_kinds_bit_identical(ka, kb, data):
    check_pair(data.draw(specs(ka)), data.draw(specs(kb)))
