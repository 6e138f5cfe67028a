"""point_query and contains: compiled against reference, bit for bit.

The same rules as tests/test_differential.py (whose shape specs and helpers this file
reuses): both backends run the same formulas in the same order, so every float they
return has the same bits; a mismatch is a bug in one of them.  Points are drawn at
random, aimed at the shapes' vertices, edges and centres (one ulp either side of them
too), and far away; shapes at 1e6 offsets and the adversarial families of
test_differential are included.  The array forms are compared row by row and with
the scalar answers.
"""

from __future__ import annotations

import math
import struct

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from test_differential import (
    ADVERSARIAL,
    EXT,
    REF,
    bits,
    build,
    coord,
    pytestmark,  # noqa: F401  (x86-64 only, as the other differential tests)
    specs,
)
from test_differential_sweeps import anchors, far

point = st.tuples(coord, coord)


def check(spec, p):
    """Both queries of one point, bit for bit; returns the reference's PointQuery."""
    rs, es = build(REF, spec), build(EXT, spec)
    expected = REF.point_query(rs, p)
    got = EXT.point_query(es, p)
    assert bits(tuple(got)) == bits(tuple(expected)), f"{spec} {p}: {got!r} != {expected!r}"
    assert got == expected
    assert EXT.contains(es, p) is REF.contains(rs, p)
    return expected


def ulps(x, y):
    """The point and its eight neighbours one ulp away."""
    return [(math.nextafter(x, sx) if sx else x, math.nextafter(y, sy) if sy else y)
            for sx in (0, math.inf, -math.inf) for sy in (0, math.inf, -math.inf)]


@settings(max_examples=300)
@given(specs(), point)
def test_random_points_bit_identical(spec, p):
    check(spec, p)


@settings(max_examples=200)
@given(specs(), st.integers(0, 9), st.sampled_from([0.0, 0.5, 0.25, 1 / 3, 1.0]))
def test_aimed_points_bit_identical(spec, i, t):
    # between two anchors (vertices, centres, midpoints) and one ulp around
    pts = anchors(spec)
    a, b = pts[i % len(pts)], pts[(i + 1) % len(pts)]
    for p in ulps(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])):
        check(spec, p)


@settings(max_examples=120)
@given(specs(), point, st.sampled_from([1e6, -1e6, 3.5e6]))
def test_far_points_bit_identical(spec, p, off):
    moved = far(spec, off)
    assume(moved is not None)
    check(moved, (p[0] + off, p[1] - off / 2))
    for a in anchors(moved)[:4]:
        for q in ulps(*a):
            check(moved, q)


def test_adversarial_shapes_bit_identical():
    seen = []
    for pair in ADVERSARIAL:
        for spec in pair:
            if spec not in seen:
                seen.append(spec)
    count = 0
    for spec in seen:
        pts = anchors(spec)
        for a in pts:
            for p in ulps(*a):
                check(spec, p)
                count += 1
        # far away along each axis
        x, y = pts[0]
        for p in ((x + 1e6, y), (x, y - 1e6), (x - 3.0, y + 4.0)):
            check(spec, p)
    assert count > 500


# ------------------------------------------------------------------------------ arrays


def _array(mod, kind, specs_):
    if kind == "Polygon":
        return mod.PolygonArray([list(p) for _, p in specs_])
    return getattr(mod, kind + "Array")(np.array([p for _, p in specs_], dtype=np.float64))


@settings(max_examples=40)
@given(st.sampled_from(["Circle", "Capsule", "Segment", "AABB", "OBB", "Polygon"]),
       st.data())
def test_arrays_bit_identical(kind, data):
    n = data.draw(st.integers(1, 12))
    specs_ = [data.draw(specs(kind)) for _ in range(n)]
    pts = np.array([data.draw(point) for _ in range(n)], dtype=np.float64)
    if n > 1:
        pts[0] = np.nan
    ra, ea = _array(REF, kind, specs_), _array(EXT, kind, specs_)
    for shape_r, shape_e, p in [(ra, ea, pts), (ra, ea, tuple(pts[-1])),
                                (build(REF, specs_[0]), build(EXT, specs_[0]), pts)]:
        got = EXT.point_query(shape_e, p, workers=2)
        expected = REF.point_query(shape_r, p)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype and g.shape == e.shape
            assert g.tobytes() == e.tobytes()
        assert np.array_equal(EXT.contains(shape_e, p), REF.contains(shape_r, p))
    # each row is the scalar answer (the NaN row: NaN throughout, and False)
    res = EXT.point_query(ea, pts)
    for i in range(n):
        if i == 0 and n > 1:
            assert np.isnan(res.distance[0]) and not EXT.contains(ea, pts)[0]
            continue
        q = EXT.point_query(build(EXT, specs_[i]), tuple(pts[i]))
        assert struct.pack("<5d", *res.point[i], res.distance[i], *res.normal[i]) == \
            struct.pack("<5d", *q.point, q.distance, *q.normal)


def test_float32_arrays_identical():
    rng = np.random.default_rng(3)
    rows = np.column_stack([rng.uniform(-5, 5, 200), rng.uniform(-5, 5, 200),
                            rng.uniform(0, 2, 200), rng.uniform(0, 2, 200),
                            rng.uniform(-4, 4, 200)]).astype(np.float32)
    pts = rng.uniform(-6, 6, (200, 2)).astype(np.float32)
    got = EXT.point_query(EXT.OBBArray(rows), pts)
    expected = REF.point_query(REF.OBBArray(rows), pts)
    for g, e in zip(got, expected):
        assert g.dtype == np.float32 and g.tobytes() == e.tobytes()
    assert np.array_equal(EXT.contains(EXT.OBBArray(rows), pts),
                          REF.contains(REF.OBBArray(rows), pts))
