"""shape_cast, its rows and ShapeIndex.cast: compiled against reference, bit for bit.

The same rules as tests/test_differential_sweeps.py (whose helpers this file reuses):
shape_cast runs time_of_impact's sweep and places the hit with the winning vertex ray's
kernel, the same formulas in the same order in both backends, so every float64 has the
same bits; float32 rows are the float64 answers rounded once, so they match too.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from test_differential import ADVERSARIAL, EXT, REF, build, specs
from test_differential import pytestmark  # noqa: F401  (x86-64 only)
from test_differential_sweeps import anchors, far, limits, same, velocity
from shapes import make_hull, translate
from test_shape_cast import CORNER_CASES, CORNERED, corner_casts

INF = math.inf


def check_cast(spec_a, va, spec_b, vb, max_t=1.0):
    ra, rb = build(REF, spec_a), build(REF, spec_b)
    ea, eb = build(EXT, spec_a), build(EXT, spec_b)
    h = same("shape_cast", (ra, va, rb, vb, max_t), (ea, va, eb, vb, max_t))
    same("shape_cast", (rb, vb, ra, va, max_t), (eb, vb, ea, va, max_t))
    return h


@settings(max_examples=200)
@given(specs(), velocity, specs(), velocity, limits)
def test_random_casts_bit_identical(spec_a, va, spec_b, vb, max_t):
    check_cast(spec_a, va, spec_b, vb, max_t)


@settings(max_examples=300)
@given(specs(), specs(), st.integers(0, 9), st.integers(0, 9),
       st.sampled_from([0.25, 1.0, 1e-3, 1e3]), velocity)
def test_aimed_casts_bit_identical(spec_a, spec_b, i, j, k, va):
    # one anchor of b travels straight at one anchor of a: vertex-vertex, vertex-face
    pa, pb = anchors(spec_a), anchors(spec_b)
    (ax, ay), (bx, by) = pa[i % len(pa)], pb[j % len(pb)]
    vb = (va[0] + (ax - bx) * k, va[1] + (ay - by) * k)
    check_cast(spec_a, va, spec_b, vb, INF)


@settings(max_examples=150)
@given(specs(), specs(), st.integers(0, 9), st.sampled_from([1e6, -1e6, 3.5e6]))
def test_far_casts_bit_identical(spec_a, spec_b, i, off):
    ma, mb = far(spec_a, off), far(spec_b, off)
    assume(ma is not None and mb is not None)
    (ax, ay), (bx, by) = anchors(ma)[i % len(anchors(ma))], anchors(mb)[0]
    check_cast(ma, (0.0, 0.0), mb, (ax - bx, ay - by), INF)


@pytest.mark.parametrize("spec_a, spec_b", ADVERSARIAL,
                         ids=[f"{a[0]}-{b[0]}-{i}" for i, (a, b) in enumerate(ADVERSARIAL)])
def test_adversarial_casts_bit_identical(spec_a, spec_b):
    # the adversarial pairs (1e6 offsets, tiny scales, degenerate shapes), b sent at
    # each anchor of a from its own, and along the axes
    for (ax, ay) in anchors(spec_a):
        for (bx, by) in anchors(spec_b)[:2]:
            if (ax, ay) != (bx, by):
                check_cast(spec_a, (0.0, 0.0), spec_b, (ax - bx, ay - by), INF)
    for v in ((1.0, 0.0), (0.0, -1.0), (-3.0, 2.0)):
        check_cast(spec_a, (0.0, 0.0), spec_b, v, INF)


def check_made(spec_a, va, spec_b, vb, max_t=INF):
    """check_cast of test_shape_cast's specs (``(kind, *args)``; a Polygon the hull of
    its points)."""
    ra, rb = make_hull(REF, spec_a), make_hull(REF, spec_b)
    ea, eb = make_hull(EXT, spec_a), make_hull(EXT, spec_b)
    h = same("shape_cast", (ra, va, rb, vb, max_t), (ea, va, eb, vb, max_t))
    same("shape_cast", (rb, vb, ra, va, max_t), (eb, vb, ea, va, max_t))
    return h


@pytest.mark.parametrize("case", sorted(CORNER_CASES))
def test_corner_casts_bit_identical(case):
    # the hand-worked corner-to-corner casts (tests/test_shape_cast.py)
    sa, va, sb, vb = CORNER_CASES[case][:4]
    assert check_made(sa, va, sb, vb, 10.0) is not None


@pytest.mark.parametrize("ka, kb", [pytest.param(a, b, id=f"{a.lower()}-{b.lower()}")
                                    for a, b in itertools.product(CORNERED, CORNERED)])
def test_corners_placed_on_corners_bit_identical(ka, kb):
    # a corner of b sent onto a corner of a (exactly, on the grid), for every ordered
    # pair of kinds without radius; also at 1e6, and with a moving too
    for sa, sb, v, _, _ in corner_casts(REF, ka, kb, 30, 37):
        check_made(sa, (0.0, 0.0), sb, v)
        check_made(translate(sa, -1e6, 1e6), (0.0, 0.0), translate(sb, -1e6, 1e6), v)
        check_made(sa, (0.25, -0.5), sb, (v[0] + 0.25, v[1] - 0.5))


@pytest.mark.parametrize("ka, kb", [("AABB", "OBB"), ("Polygon", "Polygon"), ("Segment", "AABB")])
def test_corner_rows_bit_identical(ka, kb):
    cases = corner_casts(REF, ka, kb, 20, 11)
    vb = np.array([c[2] for c in cases])
    out = []
    for mod in (REF, EXT):
        A = _rows(mod, [_spec(c[0]) for c in cases], ka, np.float64)
        B = _rows(mod, [_spec(c[1]) for c in cases], kb, np.float64)
        out.append(mod.shape_cast(A, (0.0, 0.0), B, vb, INF))
    for x, y in zip(*out):
        assert _bits(x) == _bits(y)


def _spec(spec):
    """A test_shape_cast spec as this file's ``(kind, params)`` (a Polygon: its hull)."""
    if spec[0] == "Polygon":
        return ("Polygon", REF.Polygon.hull(list(spec[1])).vertices)
    return (spec[0], spec[1:])


def _bits(arr):
    return np.ascontiguousarray(arr).tobytes()


def _rows(mod, spec_list, kind, dtype):
    shapes = [build(mod, s) for s in spec_list]
    if kind == "Polygon":
        return mod.PolygonArray(shapes, dtype=dtype)
    return getattr(mod, kind + "Array")(np.array([s._values() for s in shapes], dtype=dtype))


KINDS = ("Circle", "Capsule", "Segment", "AABB", "OBB", "Polygon")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("ka", KINDS)
@settings(max_examples=10, database=None)
@given(data=st.data())
def test_rows_bit_identical(ka, dtype, data):
    n = 12
    kb = data.draw(st.sampled_from(KINDS), label="kb")
    sa = [data.draw(specs(ka), label="a") for _ in range(n)]
    sb = [data.draw(specs(kb), label="b") for _ in range(n)]
    aim = [anchors(a)[0] for a in sa]
    frm = [anchors(b)[-1] for b in sb]
    vb = np.array([(x - u, y - w) for (x, y), (u, w) in zip(aim, frm)], dtype=dtype)
    va = np.array([data.draw(velocity, label="va") for _ in range(n)], dtype=dtype)
    max_t = np.array([data.draw(limits, label="t") for _ in range(n)])
    out = []
    for mod in (REF, EXT):
        A, B = _rows(mod, sa, ka, dtype), _rows(mod, sb, kb, dtype)
        out.append(mod.shape_cast(A, va, B, vb, max_t))
        out.append(mod.shape_cast(A[0], (0.0, 0.0), B, vb, INF))
    for k in range(2):
        r, e = out[k], out[2 + k]
        for x, y in zip(r, e):
            assert x.dtype == y.dtype and _bits(x) == _bits(y)


def _scene(mod, rng, n):
    circles = mod.CircleArray(np.column_stack([rng.uniform(-20, 20, (n, 2)), rng.uniform(0, 1, n)]))
    boxes = mod.OBBArray(np.column_stack([rng.uniform(-20, 20, (n, 2)), rng.uniform(0, 1.5, (n, 2)),
                                          rng.uniform(-3, 3, n)]))
    walls = mod.SegmentArray(np.round(rng.uniform(-20, 20, (n // 2, 4)) * 4) / 4)
    polys = mod.PolygonArray([[(x, y), (x + 1, y), (x, y + 1)]
                              for x, y in np.round(rng.uniform(-20, 20, (n // 2, 2)))])
    return [circles, boxes, walls, polys]


@pytest.mark.parametrize("seed", [1, 2])
def test_index_cast_bit_identical(seed):
    out = []
    for mod in (REF, EXT):
        rng = np.random.default_rng(seed)
        scene = _scene(mod, rng, 60)
        idx = mod.ShapeIndex(scene)
        q = mod.CapsuleArray(np.column_stack([rng.uniform(-20, 20, (40, 4)), rng.uniform(0, 1, 40)]))
        v = rng.uniform(-30, 30, (40, 2))
        out.append(idx.cast(q, v, rng.uniform(0, 2, 40)))
    r, e = out
    assert r.item.tolist() == e.item.tolist() and r.hit.sum() > 5
    for x, y in zip(r, e):
        assert _bits(x) == _bits(y)
