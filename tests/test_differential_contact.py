"""contact(a, b): the compiled backend against the reference, bit for bit.

Same method as tests/test_differential.py (whose strategies and adversarial families
are reused): every float of the Contact record (normal, depth, every point) must have
the same bits in both backends, for both argument orders.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shapes import ROUND
from test_differential import (
    ADVERSARIAL,
    EXT,
    KINDS,
    REF,
    bits,
    build,
    offset,
    pytestmark,  # noqa: F401  (x86-64 only, as the other differential tests)
    scale,
    specs,
)


def assert_same_contact(ra, rb, ea, eb):
    expected = REF.contact(ra, rb)
    got = EXT.contact(ea, eb)
    if expected is None:
        assert got is None, f"contact({ra!r}, {rb!r}): compiled {got!r} != reference None"
        return
    assert got is not None, f"contact({ra!r}, {rb!r}): compiled None != reference {expected!r}"
    assert type(got) is EXT.Contact
    assert bits(tuple(got)) == bits(tuple(expected)), (
        f"contact({ra!r}, {rb!r}): compiled {got!r} != reference {expected!r}")


def check_contact_pair(spec_a, spec_b, move=None, move_b=None):
    ra, rb = build(REF, spec_a), build(REF, spec_b)
    ea, eb = build(EXT, spec_a), build(EXT, spec_b)
    if move_b is not None:
        # translated(), not a moved spec: rounding may collapse a moved sliver polygon
        rb, eb = rb.translated(*move_b), eb.translated(*move_b)
    if move is not None:
        ra, rb, ea, eb = (s.translated(*move) for s in (ra, rb, ea, eb))
    assert_same_contact(ra, rb, ea, eb)
    assert_same_contact(rb, ra, eb, ea)


# hand-built cases the shared families lack: parallel faces of every convex pair,
# crossing capsules, cores inside boxes, ties between faces, zero-size shapes
SQUARE = ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
EXTRA = [
    (("AABB", (0.0, 0.0, 2.0, 2.0)), ("AABB", (1.0, 1.0, 4.0, 4.0))),
    (("AABB", (0.0, 0.0, 2.0, 2.0)), ("AABB", (1.0, 0.5, 4.0, 1.5))),
    (("AABB", (-1.0, 0.5, 1.0, 1.0)), ("AABB", (0.0, 0.0, 0.0, 2.0))),
    (("AABB", (0.0, 0.0, 2.0, 2.0)), ("OBB", (3.0, 1.0, 1.5, 0.5, 0.0))),
    (("OBB", (0.0, 0.0, 1.0, 1.0, 0.3)), ("Polygon", ((0.5, -3.0), (3.0, -3.0), (3.0, 3.0), (0.5, 3.0)))),
    (("OBB", (0.0, 0.0, 1.0, 1.0, 0.0)), ("OBB", (2.2, 0.0, 1.0, 1.0, 0.7853981633974483))),
    (("Polygon", SQUARE), ("Polygon", ((1.5, 0.5), (3.5, 0.5), (3.5, 2.5), (1.5, 2.5)))),
    (("Capsule", (-2.0, 0.0, 2.0, 0.0, 0.5)), ("Capsule", (0.0, -1.0, 0.0, 3.0, 0.5))),
    (("Capsule", (0.0, 0.0, 4.0, 0.0, 1.0)), ("Capsule", (1.0, 1.5, 3.0, 1.5, 1.0))),
    (("Capsule", (0.0, 0.0, 4.0, 0.0, 1.0)), ("Capsule", (2.0, 0.0, 6.0, 0.0, 1.0))),
    (("Capsule", (1.0, 3.0, 3.0, 3.0, 1.5)), ("AABB", (0.0, 0.0, 4.0, 2.0))),
    (("Capsule", (1.0, 3.0, 5.0, 3.0, 1.5)), ("AABB", (0.0, 0.0, 4.0, 2.0))),
    (("Capsule", (-1.0, 3.0, 3.0, 3.0, 1.5)), ("AABB", (0.0, 0.0, 4.0, 2.0))),
    (("Capsule", (-1.0, 3.0, 1.0, 3.0, 1.5)), ("Polygon", SQUARE)),
    (("Segment", (3.0, -1.0, 3.0, 1.0)), ("Polygon", SQUARE)),
    (("Capsule", (-1.0, 1.5, 1.0, 1.5, 1.0)), ("OBB", (0.0, 0.0, 2.0, 1.0, 0.0))),
    (("Capsule", (0.5, 0.5, 1.5, 1.5, 0.25)), ("Polygon", SQUARE)),
    (("Circle", (1.0, 1.0, 0.5)), ("AABB", (0.0, 0.0, 2.0, 2.0))),
    (("Circle", (1.0, 0.0, 0.5)), ("Capsule", (0.0, 0.0, 4.0, 0.0, 1.0))),
    (("Circle", (1.0, 0.0, 0.5)), ("Capsule", (1.0, 0.0, 1.0, 0.0, 1.0))),
    (("Circle", (0.0, 0.0, 1.0)), ("Circle", (0.0, 0.0, 2.0))),
    (("Segment", (1.0, -1.0, 1.0, 1.0)), ("Polygon", ((0.0, 0.0), (4.0, 0.0), (0.0, 3.0)))),
    (("Segment", (0.0, -3.0, 0.0, 3.0)), ("OBB", (0.0, 0.0, 1.0, 1.0, 0.0))),
    (("Segment", (0.0, 0.0, 0.0, 0.0)), ("OBB", (0.0, 0.0, 0.0, 0.0, 0.4))),
]


def _extra_specs():
    for a, b in EXTRA:
        yield a, b
        for dx, dy in ((1e6, 1e6), (-1e6, 3e6), (123456.789, -9876543.21)):
            yield offset(a, dx, dy), offset(b, dx, dy)
        yield scale(a, 1e-3), scale(b, 1e-3)


CASES = ADVERSARIAL + list(_extra_specs())


@pytest.mark.parametrize(
    "spec_a, spec_b", CASES, ids=[f"{a[0]}-{b[0]}-{i}" for i, (a, b) in enumerate(CASES)]
)
def test_adversarial_contacts_bit_identical(spec_a, spec_b):
    check_contact_pair(spec_a, spec_b)


def test_adversarial_contacts_mostly_hit():
    # the families are about contacts: most of them must produce one
    hits = sum(REF.contact(build(REF, a), build(REF, b)) is not None for a, b in CASES)
    assert hits >= len(CASES) * 2 // 3


@pytest.mark.parametrize("ka, kb", list(itertools.combinations_with_replacement(KINDS, 2)))
@settings(max_examples=100)
@given(data=st.data())
def test_every_pair_of_kinds_contacts_bit_identical(ka, kb, data):
    check_contact_pair(data.draw(specs(ka)), data.draw(specs(kb)))


@settings(max_examples=200)
@given(specs(), specs(), st.sampled_from([1e6, -1e6, 3.5e6, 1e9]))
def test_far_from_origin_contacts_bit_identical(spec_a, spec_b, off):
    check_contact_pair(spec_a, spec_b, move=(off, -off / 2))


def _anchor(spec):
    kind, p = spec
    return p[0] if kind == "Polygon" else (p[0], p[1])


@pytest.mark.parametrize("ka, kb", list(itertools.combinations_with_replacement(KINDS, 2)))
@settings(max_examples=100)
@given(data=st.data())
def test_nearby_pairs_contacts_bit_identical(ka, kb, data):
    # b's reference point moved next to a's: most of these pairs collide
    sa, sb = data.draw(specs(ka)), data.draw(specs(kb))
    ax, ay = _anchor(sa)
    bx, by = _anchor(sb)
    jx = data.draw(st.integers(-8, 8)) / 4
    jy = data.draw(st.integers(-8, 8)) / 4
    check_contact_pair(sa, sb, move_b=(ax - bx + jx, ay - by + jy))


@st.composite
def crossing_cores(draw):
    """Two capsules or segments whose cores cross at a point: the overlap of two
    lying bodies, which the compiled backend takes on a path of its own.

    The cores run through a common point in two directions, reaching out a random way
    on each side; a third of the directions come from a coarse grid, so that right
    angles, parallel faces and ties between the two cores' faces come up often.
    """
    grid = st.integers(-4, 4).map(float)
    free = st.floats(-3.0, 3.0, allow_nan=False)
    cx, cy = draw(free), draw(free)
    specs_ = []
    for _ in range(2):
        coarse = draw(st.integers(0, 2)) == 0
        dx, dy = (draw(grid), draw(grid)) if coarse else (draw(free), draw(free))
        if dx == 0.0 and dy == 0.0:
            dx = 1.0
        s, t = draw(st.floats(0.05, 2.0)), draw(st.floats(0.05, 2.0))
        if coarse:
            s, t = float(draw(st.integers(1, 3))), float(draw(st.integers(1, 3)))
        ends = (cx - s * dx, cy - s * dy, cx + t * dx, cy + t * dy)
        if draw(st.booleans()):
            specs_.append(("Segment", ends))
        else:
            r = 0.0 if draw(st.integers(0, 3)) == 0 else draw(st.floats(0.01, 1.0))
            specs_.append(("Capsule", ends + (r,)))
    return specs_


@settings(max_examples=600)
@given(crossing_cores(), st.sampled_from([None, (1e6, -2e6)]))
def test_crossing_cores_contacts_bit_identical(pair, move):
    spec_a, spec_b = pair
    check_contact_pair(spec_a, spec_b, move=move)


# a round shape a hair outside a large convex shape's face: closer than the rounding
# scale of the pair (2**-33 times its largest coordinate), which decides between the
# contact's two methods (the nearest points, or the faces).  That scale counts the
# convex shape's vertices as well as the round core, so a gap within it of a big
# shape but beyond it of the small radius takes the faces' method in both backends
REL = 2.0 ** -33
HAIR_SHAPES = [
    ("AABB", (0.0, 0.0, 64.0, 64.0)),
    ("OBB", (32.0, 32.0, 32.0, 32.0, 0.0)),
    ("Polygon", ((0.0, 0.0), (64.0, 0.0), (64.0, 64.0), (0.0, 64.0))),
    ("Polygon", ((0.0, 0.0), (64.0, 0.0), (80.0, 64.0), (-8.0, 64.0), (-20.0, 30.0))),
]
HAIR_CASES = [
    (convex, round_kind, k, r_factor, move)
    for convex in HAIR_SHAPES
    for round_kind in ROUND
    for k in (0.25, 1.0, 4.0)
    for r_factor in ((1.5, 4.0) if round_kind != "Segment" else (0.0,))
    for move in (None, (1e6, -3e6))
]


@pytest.mark.parametrize("convex, round_kind, k, r_factor, move", HAIR_CASES)
def test_hair_gap_contacts_bit_identical(convex, round_kind, k, r_factor, move):
    gap = k * REL * 64.0
    r = r_factor * gap
    x = 20.0
    if round_kind == "Circle":
        spec = ("Circle", (x, 64.0 + gap, r))
    elif round_kind == "Capsule":
        spec = ("Capsule", (x, 64.0 + gap, x + 5.0, 64.0 + gap + 3.0, r))
    else:
        # no radius (r_factor 0): a segment a hair across the face instead
        spec = ("Segment", (x, 64.0 - gap, x + 5.0, 64.0 + 3.0))
    check_contact_pair(spec, convex, move=move)
    # every case is a contact, not a pair apart
    assert REF.contact(build(REF, spec), build(REF, convex)) is not None


@st.composite
def many_sided(draw):
    """A convex ring of 3 to 16 vertices round a circle (each vertex at its own angle
    and radius, then the hull): the face search of two rings takes every point of a
    ring of up to 8 (two faces at a time in the compiled backend), climbs a larger
    one, and measures a larger ring's faces against a smaller one point by point, so
    the sizes straddle each of those bounds."""
    n = draw(st.integers(3, 16))
    cx = draw(st.integers(-8, 8)) / 4
    cy = draw(st.integers(-8, 8)) / 4
    radius = draw(st.sampled_from([0.5, 1.0, 3.0]))
    phase = draw(st.sampled_from([0.0, 0.25, 1.0]))
    regular = draw(st.booleans())
    pts = []
    for k in range(n):
        turn = phase + 2.0 * math.pi * k / n
        if not regular:
            turn += draw(st.floats(0.0, 0.4)) * 2.0 * math.pi / n
        rk = radius if regular else radius * draw(st.floats(0.8, 1.0))
        pts.append((cx + rk * math.cos(turn), cy + rk * math.sin(turn)))
    ring = REF.Polygon.hull(pts).vertices
    return "Polygon", tuple(ring)


@settings(max_examples=400)
@given(many_sided(), st.one_of(many_sided(), specs()), st.sampled_from([None, (1e6, -2e6)]))
def test_many_sided_rings_contacts_bit_identical(spec_a, spec_b, move):
    check_contact_pair(spec_a, spec_b, move=move)


def test_many_sided_rings_cover_every_face_search():
    # the sizes that pick each way of measuring two rings' faces, by construction
    counts = set()
    for n in (5, 6, 7, 8, 9, 12, 16):
        ring = tuple((math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n))
                     for k in range(n))
        counts.add(len(REF.Polygon(ring).vertices))
        moved = tuple((x + 0.75, y + 0.25) for x, y in ring)
        for other in (ring, SQUARE, moved):
            check_contact_pair(("Polygon", ring), ("Polygon", other))
        assert REF.contact(REF.Polygon(ring), REF.Polygon(moved)) is not None
    assert counts == {5, 6, 7, 8, 9, 12, 16}
