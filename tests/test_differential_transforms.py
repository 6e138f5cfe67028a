"""rotated, vertices, from_corners, fc.rotate and fc.translate: compiled against
reference, bit for bit.

The same rules as tests/test_differential.py (whose shape specs and helpers this file
reuses): both backends run the same formulas in the same order (``rotate_point``,
``polygon_centroid``, the IEEE remainder of an OBB's angle), so every float they return
has the same bits; a mismatch is a bug in one of them.  Each backend's answers are
checked against shapely and closed forms in tests/test_rotate.py.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_differential import (
    ADVERSARIAL,
    EXT,
    KINDS,
    REF,
    build,
    pytestmark,  # noqa: F401  (x86-64 only, as the other differential tests)
    specs,
)

ANGLES = st.one_of(
    st.sampled_from([0.0, -0.0, math.pi / 2, math.pi, -math.pi, 2 * math.pi, 5e-324, 1e-300,
                     1e-9, 1e6, -3e15, 1e300]),
    st.floats(-20, 20, allow_nan=False),
    st.floats(allow_nan=False, allow_infinity=False),
)
PIVOTS = st.one_of(st.none(), st.tuples(st.floats(-1e7, 1e7), st.floats(-1e7, 1e7)))


def bits(values):
    return tuple(struct.pack("<d", float(v)) for v in values)


def flat(shape):
    """Every float of a shape, in its order (a polygon's vertices)."""
    if type(shape).__name__ == "Polygon":
        return [v for p in shape.vertices for v in p]
    return list(shape._values())


def same_result(call):
    """``call(backend)`` on both backends: the same bits, or the same error."""
    out = []
    for fc in (REF, EXT):
        try:
            out.append(("ok", call(fc)))
        except (ValueError, OverflowError) as exc:
            out.append(("error", type(exc).__name__))
    (kr, r), (ke, e) = out
    assert kr == ke, out
    if kr == "ok":
        assert type(r).__name__ == type(e).__name__
        assert bits(flat(r)) == bits(flat(e)), (r, e)


@settings(max_examples=400)
@given(spec=specs(), angle=ANGLES, about=PIVOTS)
def test_rotated_bit_identical(spec, angle, about):
    same_result(lambda fc: build(fc, spec).rotated(angle, about))


@pytest.mark.parametrize("spec_a, spec_b", ADVERSARIAL[::3])
def test_rotated_adversarial_bit_identical(spec_a, spec_b):
    for spec in (spec_a, spec_b):
        for angle in (math.pi / 2, 1e-300, 3.0, 1e6):
            same_result(lambda fc: build(fc, spec).rotated(angle))
            same_result(lambda fc: build(fc, spec).rotated(angle, (1e6, -1e6)))


@settings(max_examples=300)
@given(spec=specs("OBB"))
def test_obb_vertices_and_from_corners_bit_identical(spec):
    r = build(REF, spec)
    e = build(EXT, spec)
    assert bits(v for p in r.vertices for v in p) == bits(v for p in e.vertices for v in p)
    same_result(lambda fc: fc.OBB.from_corners(build(fc, spec).vertices))
    same_result(lambda fc: fc.OBB.from_corners(build(fc, spec).vertices[::-1]))


def _array(fc, kind, rows):
    if kind == "Polygon":
        return fc.PolygonArray(rows)
    return getattr(fc, kind + "Array")([build(fc, s) for s in rows])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@settings(max_examples=40)
@given(data=st.data())
def test_rotate_and_translate_arrays_bit_identical(kind, dtype, data):
    rows = data.draw(st.lists(specs(kind), min_size=1, max_size=12))
    n = len(rows)
    angle = data.draw(st.one_of(ANGLES, st.lists(st.floats(allow_infinity=True), min_size=n,
                                                 max_size=n).map(np.array)))
    about = data.draw(st.one_of(PIVOTS, st.lists(st.tuples(st.floats(), st.floats()),
                                                 min_size=n, max_size=n).map(np.array)))
    offset = data.draw(st.one_of(st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)),
                                 st.lists(st.tuples(st.floats(), st.floats()),
                                          min_size=n, max_size=n).map(np.array)))
    results = []
    for fc in (REF, EXT):
        shapes = [build(fc, s) for s in rows]
        if kind == "Polygon":
            arr = fc.PolygonArray(shapes, dtype=dtype)
        else:
            arr = getattr(fc, kind + "Array")(np.array([s._values() for s in shapes], dtype=dtype))
        field = "vertices" if kind == "Polygon" else "data"
        with np.errstate(over="ignore"):
            turned = getattr(fc.rotate(arr, angle, about), field)
            moved = getattr(fc.translate(arr, offset), field)
        results.append((turned.tobytes(), moved.tobytes(), turned.dtype, turned.shape))
    assert results[0] == results[1]
