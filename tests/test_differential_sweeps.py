"""raycast and time_of_impact: compiled against reference, bit for bit.

The same rules as tests/test_differential.py (whose shape specs and helpers this file
reuses): both backends run the same formulas in the same order, so every float they
return has the same bits; a mismatch is a bug in one of them.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from test_differential import (
    ADVERSARIAL,
    EXT,
    KINDS,
    REF,
    bits,
    build,
    coord,
    offset,
    pytestmark,  # noqa: F401  (x86-64 only, as the other differential tests)
    scale,
    specs,
)

INF = math.inf


def same(query, ref_args, ext_args):
    expected = getattr(REF, query)(*ref_args)
    got = getattr(EXT, query)(*ext_args)
    if expected is None or got is None:
        assert got is None and expected is None, f"{query}{ref_args}: compiled {got!r} != reference {expected!r}"
        return expected
    assert bits(got) == bits(expected), f"{query}{ref_args}: compiled {got!r} != reference {expected!r}"
    return expected


def check_ray(spec, origin, direction, max_t=INF):
    return same("raycast", (build(REF, spec), origin, direction, max_t),
                (build(EXT, spec), origin, direction, max_t))


def far(spec, off):
    """spec moved by (off, -off / 2); None when the move leaves no shape (a sliver
    polygon whose area the offset's rounding collapses), which both backends reject."""
    moved = offset(spec, off, -off / 2)
    try:
        build(REF, moved)
    except ValueError:
        with pytest.raises(ValueError):
            build(EXT, moved)
        return None
    return moved


def check_toi(spec_a, va, spec_b, vb, max_t=1.0):
    ra, rb = build(REF, spec_a), build(REF, spec_b)
    ea, eb = build(EXT, spec_a), build(EXT, spec_b)
    t = same("time_of_impact", (ra, va, rb, vb, max_t), (ea, va, eb, vb, max_t))
    same("time_of_impact", (rb, vb, ra, va, max_t), (eb, vb, ea, va, max_t))
    return t


# ------------------------------------------------------------------------ strategies

point = st.tuples(coord, coord)
direction = point.filter(lambda d: d != (0.0, 0.0))
limits = st.sampled_from([INF, 1.0, 0.0]) | st.floats(0, 20)


def anchors(spec):
    """Vertices, centres and edge midpoints of a spec: targets for adversarial rays."""
    kind, p = spec
    if kind == "Circle":
        x, y, r = p
        return [(x, y), (x + r, y), (x, y - r)]
    if kind in ("Capsule", "Segment"):
        return [(p[0], p[1]), (p[2], p[3]), ((p[0] + p[2]) / 2, (p[1] + p[3]) / 2)]
    if kind == "AABB":
        x0, y0, x1, y1 = p
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1), ((x0 + x1) / 2, (y0 + y1) / 2)]
    if kind == "OBB":
        shape = build(REF, spec)
        cx, cy, hw, hh, a = p
        c, s = math.cos(a), math.sin(a)
        out = [(cx, cy)]
        for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            out.append((cx + i * hw * c - j * hh * s, cy + i * hw * s + j * hh * c))
        del shape
        return out
    return list(p) + [(sum(x for x, _ in p) / len(p), sum(y for _, y in p) / len(p))]


# --------------------------------------------------------------------------- raycast


@settings(max_examples=200)
@given(specs(), point, direction, limits)
def test_random_rays_bit_identical(spec, origin, d, max_t):
    check_ray(spec, origin, d, max_t)


@settings(max_examples=200)
@given(specs(), point, st.integers(0, 9), st.sampled_from([1.0, 0.5, 3.0, 1e-3, 1e3]))
def test_aimed_rays_bit_identical(spec, origin, i, k):
    pts = anchors(spec)
    tx, ty = pts[i % len(pts)]
    d = ((tx - origin[0]) * k, (ty - origin[1]) * k)
    if d != (0.0, 0.0):
        check_ray(spec, origin, d)


@settings(max_examples=150)
@given(specs(), point, direction, st.sampled_from([1e6, -1e6, 3.5e6]))
def test_far_rays_bit_identical(spec, origin, d, off):
    moved = far(spec, off)
    assume(moved is not None)
    check_ray(moved, (origin[0] + off, origin[1] - off / 2), d)


def adversarial_rays():
    """Rays through corners, along edges, tangent to circles, from inside and on the
    boundary, against the adversarial shapes of test_differential (1e6 offsets,
    1e-3 scales and degenerate shapes among them)."""
    seen = []
    for pair in ADVERSARIAL:
        for spec in pair:
            if spec not in seen:
                seen.append(spec)
    for spec in seen:
        pts = anchors(spec)
        cx, cy = pts[-1] if spec[0] != "OBB" else pts[0]
        span = max(1e-3, max(abs(x - cx) + abs(y - cy) for x, y in pts))
        for x, y in pts:
            # through a vertex/anchor from four sides, and starting on it
            for ox, oy in ((-3, -2), (3, -2), (2, 3), (-1, 5)):
                yield spec, (x + ox * span, y + oy * span), (-ox * span, -oy * span)
            yield spec, (x, y), (1.0, 0.5)
        for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
            # along each chord between anchors (edges of boxes and polygons)
            if (x0, y0) != (x1, y1):
                yield spec, (x0 - 2 * (x1 - x0), y0 - 2 * (y1 - y0)), (x1 - x0, y1 - y0)
        if spec[0] == "Circle" or spec[0] == "Capsule":
            r = spec[1][-1]
            x, y = spec[1][0], spec[1][1]
            # tangent rays
            yield spec, (x - 5 * span - 1, y + r), (1.0, 0.0)
            yield spec, (x + r, y - 7), (0.0, 2.0)
        # from the centre (inside) and a tiny / huge direction
        yield spec, (cx, cy), (0.3, -0.7)
        yield spec, (cx - 10 * span - 1, cy), (1e-200, 0.0)
        yield spec, (cx - 10 * span - 1, cy), (1e200, 1e190)


ADVERSARIAL_RAYS = list(adversarial_rays())


@pytest.mark.parametrize("spec, origin, d", ADVERSARIAL_RAYS,
                         ids=[f"{s[0]}-{i}" for i, (s, _, _) in enumerate(ADVERSARIAL_RAYS)])
def test_adversarial_rays_bit_identical(spec, origin, d):
    check_ray(spec, origin, d)
    check_ray(spec, origin, d, 0.5)


def test_adversarial_rays_hit_often():
    # the family is only adversarial if many of its rays actually hit
    hits = sum(REF.raycast(build(REF, s), o, d) is not None for s, o, d in ADVERSARIAL_RAYS)
    assert hits > len(ADVERSARIAL_RAYS) // 2


# -------------------------------------------------------------------- time_of_impact

velocity = st.sampled_from([(0.0, 0.0), (1.0, 0.0), (0.0, -1.0), (1.0, 1.0)]) | point


@settings(max_examples=200)
@given(specs(), velocity, specs(), velocity, limits)
def test_random_sweeps_bit_identical(spec_a, va, spec_b, vb, max_t):
    check_toi(spec_a, va, spec_b, vb, max_t)


@settings(max_examples=200)
@given(specs(), specs(), st.integers(0, 9), st.integers(0, 9),
       st.sampled_from([0.25, 1.0, 1e-3, 1e3]), velocity)
def test_aimed_sweeps_bit_identical(spec_a, spec_b, i, j, k, va):
    # one anchor of b travels straight at one anchor of a: vertex-vertex, vertex-face
    pa, pb = anchors(spec_a), anchors(spec_b)
    (ax, ay), (bx, by) = pa[i % len(pa)], pb[j % len(pb)]
    vb = (va[0] + (ax - bx) * k, va[1] + (ay - by) * k)
    check_toi(spec_a, va, spec_b, vb, INF)


@settings(max_examples=150)
@given(specs(), velocity, specs(), velocity, st.sampled_from([1e6, -1e6, 3.5e6]))
def test_far_sweeps_bit_identical(spec_a, va, spec_b, vb, off):
    moved_a, moved_b = far(spec_a, off), far(spec_b, off)
    assume(moved_a is not None and moved_b is not None)
    check_toi(moved_a, va, moved_b, vb, INF)


def adversarial_sweeps():
    """The adversarial pairs of test_differential (touching, parallel, collinear,
    coincident, degenerate, 1e6 offsets, 1e-3 scales), each swept towards, along and
    away from the other, and static."""
    for spec_a, spec_b in ADVERSARIAL:
        (ax, ay), (bx, by) = anchors(spec_a)[-1], anchors(spec_b)[-1]
        dx, dy = ax - bx, ay - by
        for vb in ((dx, dy), (-dx, -dy), (dy, -dx), (1.0, 0.0), (0.0, 1.0), (0.0, 0.0),
                   (dx * 1e-3, dy * 1e-3)):
            yield spec_a, (0.0, 0.0), spec_b, vb
        # moved apart first, then swept back along the same line (grazing, parallel)
        yield spec_a, (0.0, 0.0), offset(spec_b, 3.0, 0.0), (-1.0, 0.0)
        yield spec_a, (0.0, 0.5), offset(spec_b, 0.0, 3.0), (0.0, -0.5)
        yield spec_a, (0.0, 0.0), offset(spec_b, 2.0, 2.0), (-1.0, -1.0)


ADVERSARIAL_SWEEPS = list(adversarial_sweeps())


@pytest.mark.parametrize("spec_a, va, spec_b, vb", ADVERSARIAL_SWEEPS,
                         ids=[f"{a[0]}-{b[0]}-{i}" for i, (a, _, b, _) in enumerate(ADVERSARIAL_SWEEPS)])
def test_adversarial_sweeps_bit_identical(spec_a, va, spec_b, vb):
    check_toi(spec_a, va, spec_b, vb, INF)
    check_toi(spec_a, va, spec_b, vb, 1.0)


def test_adversarial_sweeps_cover_every_outcome():
    outcomes = set()
    for spec_a, va, spec_b, vb in ADVERSARIAL_SWEEPS:
        t = REF.time_of_impact(build(REF, spec_a), va, build(REF, spec_b), vb, INF)
        outcomes.add("none" if t is None else "zero" if t == 0.0 else "positive")
    assert outcomes == {"none", "zero", "positive"}


# Directions and velocities across the whole float range: the kernels scale them by a
# power of two (the compiled backend builds it from bits where the reference calls
# ldexp), and the answers are scaled back; subnormal, tiny and huge magnitudes reach
# the exponent edges, results that underflow to subnormals or overflow to a miss.
SCALES = [5e-324, 3e-320, 1e-310, 2.0 ** -1022, 1e-300, 1e-160, 0.75, 1e160, 1e300,
          2.0 ** 1023, 1.7e308]


@pytest.mark.parametrize("scale_", SCALES, ids=[f"{s:.3g}" for s in SCALES])
@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=15, database=None, deadline=None)
@given(data=st.data())
def test_rays_and_sweeps_at_every_scale_bit_identical(kind, scale_, data):
    spec = data.draw(specs(kind), label="shape")
    origin = data.draw(point, label="origin")
    d = data.draw(direction, label="direction")
    m = max(abs(d[0]), abs(d[1]))
    v = (d[0] / m * scale_, d[1] / m * scale_)  # the larger component is +-scale_
    check_ray(spec, origin, v)
    check_ray(spec, origin, v, 1e300)
    other = data.draw(specs(data.draw(st.sampled_from(KINDS), label="kind b")), label="b")
    check_toi(spec, (0.0, 0.0), other, v, INF)
    check_toi(spec, (-v[1], v[0]), other, (v[0], 0.0), 1e300)


# ------------------------------------------------------ rays at OBBs, near certainty
# The compiled ray_ring decides most rays at an OBB in the box's own frame (sweeps.pyx
# _obb_entry) and leaves to the corners those within its tolerance of a corner, of a
# face's line or of running along a face; the reference always decides from the
# corners.  Rays aimed at corners and edge points with directions a relative 1e-17 to
# 1e-9 off, and rays all but parallel to a face, straddle that tolerance.


def _obb_target_rays(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        off, s = rng.choice((0.0, 1e6, -3e7, 0.25)), rng.choice((1e-3, 1.0, 1e3))
        hw = rng.uniform(0.01, 1.0) * s
        hh = rng.choice((rng.uniform(0.01, 1.0) * s, s * 1e-14, s * 1e-17))
        angle = rng.uniform(-7.0, 7.0)
        spec = ("OBB", (off + rng.uniform(-s, s), off + rng.uniform(-s, s), hw, hh, angle))
        c, sn = math.cos(angle), math.sin(angle)
        u = rng.choice((hw, -hw, rng.uniform(-hw, hw)))
        v = rng.choice((hh, -hh, rng.uniform(-hh, hh)))
        tx = spec[1][0] + u * c - v * sn
        ty = spec[1][1] + u * sn + v * c
        if rng.random() < 0.3:
            # along a face: the box's axis, a hair off
            phi = angle + rng.choice((0.0, math.pi / 2, math.pi, -math.pi / 2))
        else:
            phi = rng.uniform(-math.pi, math.pi)
        dist = rng.uniform(2.0, 6.0) * s
        ox, oy = tx - dist * math.cos(phi), ty - dist * math.sin(phi)
        rel = rng.choice((0.0, 1e-17, -1e-17, 1e-15, -1e-15, 1e-13, -1e-13, 1e-11, 1e-9))
        d = (math.cos(phi + rel), math.sin(phi + rel))
        yield spec, (ox, oy), d


OBB_RAYS = list(_obb_target_rays(41, 1500))


def test_obb_rays_near_the_box_frames_tolerance_bit_identical():
    hits = 0
    for spec, origin, d in OBB_RAYS:
        hits += check_ray(spec, origin, d) is not None
        # a point moving along the ray: time_of_impact casts the same ray from a vertex
        point = ("Segment", (origin[0], origin[1], origin[0], origin[1]))
        same("time_of_impact", (build(REF, point), d, build(REF, spec), (0.0, 0.0), 10.0),
             (build(EXT, point), d, build(EXT, spec), (0.0, 0.0), 10.0))
    assert hits > len(OBB_RAYS) // 3
