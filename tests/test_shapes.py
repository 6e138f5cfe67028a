"""Shape objects: construction, stored values, mutation, bounds, translation,
equality, hashing, repr and pickling, and the Polygon canonical form.

Every test runs once per backend through the ``fc`` fixture (see conftest.py).
"""

from __future__ import annotations

import math
import pickle
import re

import numpy as np
import pytest

from shapes import build

# kind -> (argument names, valid values with halves/quarters, valid integer values)
SPECS = {
    "Circle": (("x", "y", "r"), (1.0, 2.0, 0.5), (1, 2, 3)),
    "Capsule": (("ax", "ay", "bx", "by", "r"), (0.0, 1.0, 3.0, -2.0, 0.25), (0, 1, 3, -2, 1)),
    "Segment": (("ax", "ay", "bx", "by"), (0.0, 1.0, 3.0, -2.0), (0, 1, 3, -2)),
    "AABB": (("min_x", "min_y", "max_x", "max_y"), (-1.0, -2.0, 3.0, 4.0), (-1, -2, 3, 4)),
    "OBB": (("cx", "cy", "half_w", "half_h", "angle"), (1.0, 2.0, 3.0, 0.5, 0.75), (1, 2, 3, 1, 1)),
}
SIMPLE_KINDS = sorted(SPECS)
NON_NEGATIVE = {"r", "half_w", "half_h"}
TRIANGLE = [(0.0, 0.0), (3.0, 1.0), (1.0, 4.0)]


def word(name: str) -> str:
    """Regex matching ``name`` as a whole word (``x`` but not ``max_x``)."""
    return rf"(?<![\w]){re.escape(name)}(?![\w])"


def fields(shape):
    """The stored values of a shape, in constructor order."""
    kind = type(shape).__name__
    if kind == "Polygon":
        return shape.vertices
    return tuple(getattr(shape, n) for n in SPECS[kind][0])


def make(fc, kind, args=None):
    if kind == "Polygon":
        return fc.Polygon(TRIANGLE if args is None else args)
    return getattr(fc, kind)(*(SPECS[kind][1] if args is None else args))


ALL_KINDS = SIMPLE_KINDS + ["Polygon"]


# --------------------------------------------------------------------------- storage


NUMBER_CONVERTERS = {
    "int": int,
    "np.int64": np.int64,
    "np.int32": np.int32,
    "np.float64": np.float64,
    "np.float32": np.float32,
    "float": float,
}


@pytest.mark.parametrize("conv", sorted(NUMBER_CONVERTERS))
@pytest.mark.parametrize("kind", SIMPLE_KINDS)
def test_constructor_stores_exact_python_floats(fc, kind, conv):
    names, halves, ints = SPECS[kind]
    values = ints if conv.startswith("int") or conv.startswith("np.int") else halves
    convert = NUMBER_CONVERTERS[conv]
    shape = getattr(fc, kind)(*(convert(v) for v in values))
    for name, v in zip(names, values):
        got = getattr(shape, name)
        # np.float64 is a float subclass: it must still be stored as a plain float
        assert type(got) is float, (name, type(got))
        assert got == float(v), name


@pytest.mark.parametrize("kind", SIMPLE_KINDS)
def test_constructor_accepts_keywords(fc, kind):
    names, halves, _ = SPECS[kind]
    cls = getattr(fc, kind)
    assert cls(**dict(zip(names, halves))) == cls(*halves)
    assert fields(cls(**dict(zip(names, halves)))) == halves


@pytest.mark.parametrize("conv", ["int", "np.int64", "np.float64", "np.float32", "float"])
def test_polygon_stores_exact_python_floats(fc, conv):
    convert = NUMBER_CONVERTERS[conv]
    poly = fc.Polygon([(convert(x), convert(y)) for x, y in [(0, 0), (2, 0), (0, 1)]])
    assert type(poly.vertices) is tuple
    for v in poly.vertices:
        assert type(v) is tuple and len(v) == 2
        assert type(v[0]) is float and type(v[1]) is float
    assert poly.vertices == ((0.0, 0.0), (2.0, 0.0), (0.0, 1.0))


def test_obb_angle_defaults_to_zero(fc):
    box = fc.OBB(1, 2, 3, 4)
    assert type(box.angle) is float
    assert box.angle == 0.0 and math.copysign(1.0, box.angle) == 1.0
    assert box == fc.OBB(1, 2, 3, 4, 0.0)


@pytest.mark.parametrize(
    "kind,args",
    [
        ("Circle", (1, 2, 0)),
        ("Circle", (1, 2, -0.0)),
        ("Capsule", (1, 1, 1, 1, 0)),
        ("Capsule", (0, 0, 1, 1, -0.0)),
        ("Segment", (1, 1, 1, 1)),
        ("AABB", (1, 2, 1, 2)),
        ("OBB", (0, 0, 0, 0, 1)),
        ("OBB", (0, 0, -0.0, 1, 0)),
    ],
)
def test_zero_sizes_are_allowed(fc, kind, args):
    # -0.0 >= 0 in IEEE arithmetic: a negative zero radius is not "negative"
    shape = getattr(fc, kind)(*args)
    assert fields(shape) == tuple(float(a) for a in args)


# --------------------------------------------------------------------------- attributes


@pytest.mark.parametrize("kind", SIMPLE_KINDS)
def test_attribute_set_stores_float(fc, kind):
    names, halves, _ = SPECS[kind]
    for i, name in enumerate(names):
        shape = make(fc, kind)
        new = halves[i] + 0.5  # keeps min <= max and sizes >= 0
        setattr(shape, name, int(new) if new.is_integer() else np.float64(new))
        got = getattr(shape, name)
        assert type(got) is float and got == new, name
        expected = list(halves)
        expected[i] = new
        assert fields(shape) == tuple(expected)
        assert shape == getattr(fc, kind)(*expected)


BAD_SET_VALUES = [
    ("str", "1.0", TypeError),
    ("None", None, TypeError),
    ("complex", 1j, TypeError),
    ("object", object(), TypeError),
    ("list", [1.0], TypeError),
    ("nan", math.nan, ValueError),
    ("inf", math.inf, ValueError),
    ("-inf", -math.inf, ValueError),
]


def _attr_cases():
    for kind in SIMPLE_KINDS:
        for i, name in enumerate(SPECS[kind][0]):
            for label, value, exc in BAD_SET_VALUES:
                yield pytest.param(kind, i, value, exc, id=f"{kind}.{name}-{label}")
            if name in NON_NEGATIVE:
                yield pytest.param(kind, i, -0.5, ValueError, id=f"{kind}.{name}-negative")


@pytest.mark.parametrize("kind,index,value,exc", list(_attr_cases()))
def test_attribute_set_is_validated_like_constructor(fc, kind, index, value, exc):
    names, halves, _ = SPECS[kind]
    name = names[index]
    args = list(halves)
    args[index] = value
    with pytest.raises(exc, match=word(name)):
        getattr(fc, kind)(*args)
    shape = make(fc, kind)
    with pytest.raises(exc, match=word(name)):
        setattr(shape, name, value)
    # a rejected assignment leaves the shape as it was
    assert fields(shape) == halves


@pytest.mark.parametrize(
    "name,value", [("min_x", 3.5), ("max_x", -1.5), ("min_y", 4.5), ("max_y", -2.5)]
)
def test_aabb_attribute_set_keeps_min_le_max(fc, name, value):
    box = fc.AABB(-1, -2, 3, 4)
    with pytest.raises(ValueError, match=word(name)):
        setattr(box, name, value)
    assert fields(box) == (-1.0, -2.0, 3.0, 4.0)
    # equal bounds are fine (a zero-width box)
    box2 = fc.AABB(-1, -2, 3, 4)
    setattr(box2, name, {"min_x": 3, "max_x": -1, "min_y": 4, "max_y": -2}[name])
    assert getattr(box2, name) == {"min_x": 3, "max_x": -1, "min_y": 4, "max_y": -2}[name]


def test_polygon_vertices_not_assignable(fc):
    poly = fc.Polygon(TRIANGLE)
    before = poly.vertices
    with pytest.raises(AttributeError):
        poly.vertices = ((0.0, 0.0), (5.0, 0.0), (0.0, 5.0))
    with pytest.raises(AttributeError):
        del poly.vertices
    assert poly.vertices == before == ((0.0, 0.0), (3.0, 1.0), (1.0, 4.0))


def test_polygon_does_not_alias_its_input(fc):
    verts = [[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]]
    arr = np.array(verts)
    p_list = fc.Polygon(verts)
    p_arr = fc.Polygon(arr)
    verts[1][0] = 9.0
    verts.append([5.0, 5.0])
    arr[1, 0] = 9.0
    assert p_list.vertices == ((0.0, 0.0), (2.0, 0.0), (0.0, 2.0))
    assert p_arr.vertices == ((0.0, 0.0), (2.0, 0.0), (0.0, 2.0))


# --------------------------------------------------------------------------- bounds

R2 = math.sqrt(2.0)


@pytest.mark.parametrize(
    "kind,args,expected,rotated",
    [
        ("Circle", (1, 2, 0.5), (0.5, 1.5, 1.5, 2.5), False),
        ("Circle", (1, 2, 0), (1.0, 2.0, 1.0, 2.0), False),
        ("Capsule", (0, 0, 2, 1, 0.5), (-0.5, -0.5, 2.5, 1.5), False),
        ("Capsule", (2, 1, 0, 0, 0.5), (-0.5, -0.5, 2.5, 1.5), False),
        ("Capsule", (1, 1, 1, 1, 2), (-1.0, -1.0, 3.0, 3.0), False),
        ("Segment", (2, 3, -1, 0), (-1.0, 0.0, 2.0, 3.0), False),
        ("Segment", (-1, 3, 2, 0), (-1.0, 0.0, 2.0, 3.0), False),
        ("AABB", (-1, -2, 3, 4), (-1.0, -2.0, 3.0, 4.0), False),
        ("OBB", (1, 2, 3, 1), (-2.0, 1.0, 4.0, 3.0), False),
        ("OBB", (1, 2, 3, 1, math.pi / 2), (0.0, -1.0, 2.0, 5.0), True),
        ("OBB", (1, 2, 3, 1, -math.pi / 2), (0.0, -1.0, 2.0, 5.0), True),
        ("OBB", (1, 2, 3, 1, math.pi), (-2.0, 1.0, 4.0, 3.0), True),
        ("OBB", (0, 0, 1, 1, math.pi / 4), (-R2, -R2, R2, R2), True),
        # half extents (2, 1) at 45 degrees: 2*cos + 1*sin = 3/sqrt(2) on both axes
        ("OBB", (5, -5, 2, 1, math.pi / 4), (5 - 3 / R2, -5 - 3 / R2, 5 + 3 / R2, -5 + 3 / R2), True),
        # 30 degrees: x half extent 2*cos30 + 1*sin30, y half extent 2*sin30 + 1*cos30
        (
            "OBB",
            (0, 0, 2, 1, math.pi / 6),
            (-(math.sqrt(3) + 0.5), -(1 + math.sqrt(3) / 2), math.sqrt(3) + 0.5, 1 + math.sqrt(3) / 2),
            True,
        ),
        ("Polygon", [(0, 0), (3, 1), (1, 4)], (0.0, 0.0, 3.0, 4.0), False),
        ("Polygon", [(-1, 0), (0, -2), (2, 0), (0, 3)], (-1.0, -2.0, 2.0, 3.0), False),
    ],
)
def test_bounds(fc, kind, args, expected, rotated):
    shape = fc.Polygon(args) if kind == "Polygon" else getattr(fc, kind)(*args)
    box = shape.bounds()
    assert type(box) is fc.AABB
    got = fields(box)
    assert all(type(v) is float for v in got)
    if rotated:
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)
    else:
        assert got == expected
    # bounds() does not change the shape
    assert shape == (fc.Polygon(args) if kind == "Polygon" else getattr(fc, kind)(*args))


# --------------------------------------------------------------------------- translated


def _translated_expected(kind, values, dx, dy):
    if kind == "Circle":
        x, y, r = values
        return (x + dx, y + dy, r)
    if kind == "Capsule":
        ax, ay, bx, by, r = values
        return (ax + dx, ay + dy, bx + dx, by + dy, r)
    if kind in ("Segment", "AABB"):
        a, b, c, d = values
        return (a + dx, b + dy, c + dx, d + dy)
    if kind == "OBB":
        cx, cy, hw, hh, ang = values
        return (cx + dx, cy + dy, hw, hh, ang)
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", SIMPLE_KINDS)
def test_translated(fc, kind):
    shape = make(fc, kind)
    before = fields(shape)
    moved = shape.translated(1.5, -2)
    assert type(moved) is type(shape)
    assert moved is not shape
    assert fields(moved) == _translated_expected(kind, before, 1.5, -2.0)
    assert all(type(v) is float for v in fields(moved))
    assert fields(shape) == before
    same = shape.translated(0, 0)
    assert same == shape and same is not shape
    # the copy is independent of the original
    setattr(same, SPECS[kind][0][0], 100.0 if kind != "AABB" else -100.0)
    assert fields(shape) == before


def test_polygon_translated(fc):
    poly = fc.Polygon([(1, 4), (0, 0), (3, 1)])
    moved = poly.translated(-0.5, 2)
    assert type(moved) is fc.Polygon
    assert moved.vertices == ((-0.5, 2.0), (2.5, 3.0), (0.5, 6.0))
    assert poly.vertices == ((0.0, 0.0), (3.0, 1.0), (1.0, 4.0))


# --------------------------------------------------------------------------- equality


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_equal_shapes(fc, kind):
    a, b = make(fc, kind), make(fc, kind)
    assert a is not b
    assert (a == b) is True
    assert (a != b) is False


@pytest.mark.parametrize("kind", SIMPLE_KINDS)
def test_each_field_matters_for_equality(fc, kind):
    names, halves, _ = SPECS[kind]
    a = make(fc, kind)
    for i, name in enumerate(names):
        args = list(halves)
        args[i] += 0.25  # still valid: sizes grow, minima stay below maxima
        b = getattr(fc, kind)(*args)
        assert (a == b) is False, name
        assert (a != b) is True, name


def test_polygon_equality(fc):
    p = fc.Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    assert p == fc.Polygon([(2, 2), (0, 2), (0, 0), (2, 0)])  # same polygon, other start
    assert p == fc.Polygon([(0, 2), (2, 2), (2, 0), (0, 0)])  # clockwise input
    assert p != fc.Polygon([(0, 0), (2, 0), (2, 2), (0, 3)])
    assert p != fc.Polygon([(0, 0), (2, 0), (2, 2)])


@pytest.mark.parametrize(
    "left,right",
    [
        (("Segment", (0, 0, 1, 1)), ("AABB", (0, 0, 1, 1))),
        (("Capsule", (0, 0, 1, 1, 0)), ("Segment", (0, 0, 1, 1))),
        (("Circle", (0, 0, 1)), ("Capsule", (0, 0, 0, 0, 1))),
        (("AABB", (-1, -1, 1, 1)), ("OBB", (0, 0, 1, 1, 0))),
        (("AABB", (0, 0, 1, 1)), ("Polygon", [(0, 0), (1, 0), (1, 1), (0, 1)])),
    ],
)
def test_different_types_are_never_equal(fc, left, right):
    def build(spec):
        kind, args = spec
        return fc.Polygon(args) if kind == "Polygon" else getattr(fc, kind)(*args)

    a, b = build(left), build(right)
    assert (a == b) is False and (b == a) is False
    assert (a != b) is True and (b != a) is True


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_not_equal_to_plain_values(fc, kind):
    shape = make(fc, kind)
    for other in (None, 1.0, fields(shape), list(fields(shape)), "shape"):
        assert (shape == other) is False
        assert (shape != other) is True


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_unhashable(fc, kind):
    shape = make(fc, kind)
    with pytest.raises(TypeError):
        hash(shape)
    with pytest.raises(TypeError):
        {shape}


# --------------------------------------------------------------------------- repr


@pytest.mark.parametrize(
    "kind,args,text",
    [
        ("Circle", (1, 2, 0.5), "Circle(x=1.0, y=2.0, r=0.5)"),
        ("Capsule", (0, 1, 2, 3, 0.5), "Capsule(ax=0.0, ay=1.0, bx=2.0, by=3.0, r=0.5)"),
        ("Segment", (0, 1, 2, 3), "Segment(ax=0.0, ay=1.0, bx=2.0, by=3.0)"),
        ("AABB", (0, 1, 2, 3), "AABB(min_x=0.0, min_y=1.0, max_x=2.0, max_y=3.0)"),
        ("OBB", (0, 1, 2, 3), "OBB(cx=0.0, cy=1.0, half_w=2.0, half_h=3.0, angle=0.0)"),
        ("Polygon", [(0, 1), (0, 0), (1, 0)], "Polygon([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])"),
    ],
)
def test_repr_format(fc, kind, args, text):
    shape = fc.Polygon(args) if kind == "Polygon" else getattr(fc, kind)(*args)
    assert repr(shape) == text


AWKWARD = [
    ("Circle", (0.1, -0.0, 1e-300)),
    ("Circle", (1e17, 0.1, 1e17)),
    ("Capsule", (0.1, -0.0, 1e17, 1e-300, 0.1)),
    ("Segment", (-0.0, 0.1, 1e-300, 1e17)),
    ("AABB", (-0.0, 1e-300, 0.1, 1e17)),
    ("AABB", (-1e17, -0.0, 1e-300, 0.1)),
    ("OBB", (0.1, -0.0, 1e-300, 1e17, 0.1)),
    ("OBB", (1e17, 1e-300, 0.1, 1e17, -0.0)),
    ("Polygon", [(0.1, 0.0), (1e17, 1e-300), (-0.0, 1e17)]),
    ("Polygon", [(0.1, 0.1), (0.3, 0.1), (0.3, 0.7), (0.1, 0.7)]),
]


@pytest.mark.parametrize("kind,args", AWKWARD + [(k, SPECS[k][1]) for k in SIMPLE_KINDS])
def test_repr_round_trips(fc, kind, args):
    shape = build(fc, kind, args)
    text = repr(shape)
    back = eval(text, vars(fc))  # noqa: S307 - the point of the test
    assert type(back) is type(shape)
    assert back == shape
    assert repr(back) == text  # bit-exact: repr distinguishes -0.0 and every float
    if kind != "Polygon":
        for stored, given in zip(fields(shape), args):
            assert stored == given


@pytest.mark.parametrize(
    "kind,args",
    [
        ("Circle", (np.float64(0.1), np.float32(0.5), np.int64(2))),
        ("OBB", (np.float64(1.5), 0, np.float64(2), 1, np.float64(0.25))),
        ("Polygon", np.array([[0.1, 0.0], [1.0, 0.0], [0.0, 1.0]])),
    ],
)
def test_repr_round_trips_from_numpy_input(fc, kind, args):
    # numpy scalars must not leak into the stored values (repr would then say
    # "np.float64(0.1)", which is not a name of fc)
    shape = build(fc, kind, args)
    back = eval(repr(shape), vars(fc))  # noqa: S307
    assert back == shape and repr(back) == repr(shape)
    assert "np." not in repr(shape) and "numpy" not in repr(shape)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("kind,args", AWKWARD + [(k, SPECS[k][1]) for k in SIMPLE_KINDS])
def test_pickle_round_trips(fc, kind, args, protocol):
    shape = build(fc, kind, args)
    back = pickle.loads(pickle.dumps(shape, protocol=protocol))
    assert type(back) is type(shape)
    assert back == shape
    assert back is not shape
    assert repr(back) == repr(shape)


# --------------------------------------------------------------------------- Polygon

UNIT_SQUARE = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


@pytest.mark.parametrize(
    "verts",
    [
        [(0, 0), (1, 0), (1, 1), (0, 1)],  # ccw
        [(0, 1), (1, 1), (1, 0), (0, 0)],  # cw
        [(1, 1), (0, 1), (0, 0), (1, 0)],  # ccw, other start
        [(1, 0), (0, 0), (0, 1), (1, 1)],  # cw, other start
    ],
)
def test_polygon_stored_ccw_from_smallest(fc, verts):
    assert fc.Polygon(verts).vertices == UNIT_SQUARE


@pytest.mark.parametrize(
    "verts,expected",
    [
        # diamond: the smallest (x, y) is the leftmost vertex
        ([(1, 0), (2, 1), (1, 2), (0, 1)], ((0.0, 1.0), (1.0, 0.0), (2.0, 1.0), (1.0, 2.0))),
        ([(0, 1), (1, 2), (2, 1), (1, 0)], ((0.0, 1.0), (1.0, 0.0), (2.0, 1.0), (1.0, 2.0))),
        # two vertices with the smallest x: the smaller y wins
        ([(0, 3), (0, -1), (4, 0)], ((0.0, -1.0), (4.0, 0.0), (0.0, 3.0))),
        ([(4, 0), (0, -1), (0, 3)], ((0.0, -1.0), (4.0, 0.0), (0.0, 3.0))),
        # negative coordinates and a start in the middle of the input
        ([(-1, -1), (-3, -2), (-2, -4)], ((-3.0, -2.0), (-2.0, -4.0), (-1.0, -1.0))),
    ],
)
def test_polygon_canonical_order(fc, verts, expected):
    assert fc.Polygon(verts).vertices == expected


@pytest.mark.parametrize(
    "verts",
    [
        [(0, 0), (0, 0), (1, 0), (1, 1), (0, 1)],  # consecutive duplicate
        [(0, 0), (1, 0), (1, 1), (1, 1), (1, 1), (0, 1)],  # triple
        [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)],  # closed ring: last == first
        [(0, 0), (0, 0), (1, 0), (1, 1), (0, 1), (0, 0)],
    ],
)
def test_polygon_drops_repeated_vertices(fc, verts):
    assert fc.Polygon(verts).vertices == UNIT_SQUARE


@pytest.mark.parametrize(
    "verts,expected",
    [
        (
            [(0, 0), (1, 0), (2, 0), (2, 2), (0, 2), (0, 1)],
            ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)),
        ),
        (
            [(0, 0), (0.5, 0), (1, 0), (1.5, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)],
            ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)),
        ),
        # collinear along a diagonal edge, clockwise input
        ([(0, 0), (1, 1), (2, 2), (4, 0)], ((0.0, 0.0), (4.0, 0.0), (2.0, 2.0))),
        # collinear vertex next to a duplicate
        ([(0, 0), (3, 0), (3, 0), (6, 0), (0, 6)], ((0.0, 0.0), (6.0, 0.0), (0.0, 6.0))),
    ],
)
def test_polygon_drops_collinear_vertices(fc, verts, expected):
    assert fc.Polygon(verts).vertices == expected
    assert fc.Polygon(verts[::-1]).vertices == expected


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_polygon_from_numpy_array(fc, dtype):
    arr = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], dtype=dtype)
    poly = fc.Polygon(arr)
    assert poly.vertices == UNIT_SQUARE
    assert all(type(c) is float for v in poly.vertices for c in v)
    assert poly == fc.Polygon(UNIT_SQUARE)


def _pentagram():
    pts = [
        (math.cos(math.pi / 2 + 2 * math.pi * k / 5), math.sin(math.pi / 2 + 2 * math.pi * k / 5))
        for k in range(5)
    ]
    return [pts[(2 * k) % 5] for k in range(5)]  # every second vertex: a self-intersecting star


NON_CONVEX = {
    # (1, 1) is a reflex vertex inside the triangle of the other three
    "non-convex quad": [(0, 0), (4, 0), (1, 1), (0, 4)],
    "arrowhead": [(0, 0), (2, 1), (4, 0), (2, 4)],
    # every turn has the same sign, but it winds twice around its centre
    "pentagram": _pentagram(),
    # goes out along the bottom edge to (3, 0) and doubles back to (1, 0): naively
    # dropping (3, 0) as "collinear" would leave a valid triangle
    "spike on edge": [(0, 0), (3, 0), (1, 0), (1, 1)],
    # a zero-width spike sticking up out of the square's left edge
    "spike out of square": [(0, 0), (2, 0), (2, 2), (0, 2), (0, 3), (0, 1)],
}


@pytest.mark.parametrize("name", sorted(NON_CONVEX))
def test_polygon_rejects_non_convex(fc, name):
    verts = NON_CONVEX[name]
    with pytest.raises(ValueError, match=word("vertices")):
        fc.Polygon(verts)
    with pytest.raises(ValueError, match=word("vertices")):
        fc.Polygon(verts[::-1])


@pytest.mark.parametrize(
    "verts",
    [
        [],
        [(0, 0)],
        [(0, 0), (1, 1)],
        [(0, 0), (1, 1), (2, 2)],
        [(0, 0), (2, 2), (1, 1)],
        [(0, 0), (1, 1), (2, 2), (3, 3), (0, 0)],
        [(0, 0), (1, 0), (0, 0)],
        [(1, 1), (1, 1), (1, 1)],
    ],
    ids=["0pts", "1pt", "2pts", "collinear", "collinear-back", "collinear-ring", "2distinct", "same"],
)
def test_polygon_rejects_zero_area(fc, verts):
    with pytest.raises(ValueError, match=word("vertices")):
        fc.Polygon(verts)


@pytest.mark.parametrize("verts", [[(0, 0), (1, 1), (1, 0), (0, 1)],
                                   [(0, 0), (2, 2), (2, 0), (0, 2)][::-1]])
def test_polygon_bow_tie_is_not_called_collinear(fc, verts):
    # its two loops' signed areas cancel: zero area, but the points are not on one line
    with pytest.raises(ValueError, match="crosses itself") as info:
        fc.Polygon(verts)
    assert "collinear" not in str(info.value)


@pytest.mark.parametrize(
    "points,expected",
    [
        (
            [(0, 0), (4, 0), (4, 4), (0, 4), (2, 2), (1, 3), (2, 0), (3, 1), (0, 2), (4, 4)],
            ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)),
        ),
        (
            [(1, 1), (2, 2), (3, -1), (0, 0), (3, 1), (5, 2), (2, 5), (-1, 3), (2, 3)],
            ((-1.0, 3.0), (0.0, 0.0), (3.0, -1.0), (5.0, 2.0), (2.0, 5.0)),
        ),
        ([(0, 0), (1, 0), (0, 1)], ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))),
        ([(0, 1), (0, 0), (1, 0)] * 3, ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))),
    ],
)
def test_polygon_hull(fc, points, expected):
    hull = fc.Polygon.hull(points)
    assert type(hull) is fc.Polygon
    assert hull.vertices == expected
    assert fc.Polygon.hull(np.array(points, dtype=float)).vertices == expected
    assert fc.Polygon.hull(points[::-1]).vertices == expected


@pytest.mark.parametrize(
    "points",
    [
        [],
        [(0, 0)],
        [(0, 0), (1, 1)],
        [(0, 0), (1, 1), (2, 2), (3, 3)],
        [(2, 2), (0, 0), (3, 3), (1, 1), (0, 0)],
        [(5, 5)] * 4,
    ],
    ids=["0pts", "1pt", "2pts", "collinear", "collinear-shuffled", "same"],
)
def test_polygon_hull_rejects_degenerate(fc, points):
    with pytest.raises(ValueError):
        fc.Polygon.hull(points)
