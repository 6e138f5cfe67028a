"""Bad arguments: every constructor, query and primitive argument is validated and
the error names the argument (as a whole word) before any kernel runs.

Every test runs once per backend through the ``fc`` fixture (see conftest.py).
"""

from __future__ import annotations

import contextlib
import math
import re

import numpy as np
import pytest

# kind -> (argument names, valid values)
CTORS = {
    "Circle": (("x", "y", "r"), (1.0, 2.0, 0.5)),
    "Capsule": (("ax", "ay", "bx", "by", "r"), (0.0, 1.0, 3.0, -2.0, 0.25)),
    "Segment": (("ax", "ay", "bx", "by"), (0.0, 1.0, 3.0, -2.0)),
    "AABB": (("min_x", "min_y", "max_x", "max_y"), (-1.0, -2.0, 3.0, 4.0)),
    "OBB": (("cx", "cy", "half_w", "half_h", "angle"), (1.0, 2.0, 3.0, 0.5, 0.75)),
}
NON_NEGATIVE = {"r", "half_w", "half_h"}

WRONG_TYPES = {
    "str": "1.0",
    "bytes": b"1",
    "None": None,
    "complex": 1 + 0j,
    "np.complex128": np.complex128(1.0),
    "object": object(),
    "list": [1.0],
    "tuple": (1.0,),
    "ndarray": np.array([1.0]),
}
NON_FINITE = {
    "nan": math.nan,
    "np.nan": np.float64("nan"),
    "inf": math.inf,
    "-inf": -math.inf,
    "np.-inf": np.float32("-inf"),
    "huge-int": 10**400,  # a real number, but no finite float
}

# "a" is both an argument name and the English article ("b must be a point"): the
# pattern for the argument "a" skips an "a" followed by a space and a word that is not
# a verb an argument name would take ("a must ...", "a is ...").
_VERBS = r"(?:must|is|has|should|was|cannot|needs?|and|or)\b"


def name_pattern(name: str) -> str:
    """Regex for ``name`` as a whole word (``x`` but not ``max_x``)."""
    pattern = rf"(?<!\w){re.escape(name)}(?!\w)"
    if name == "a":
        pattern += rf"(?! (?!{_VERBS})\S)"
    return pattern


def names_argument(message: str, name: str) -> bool:
    return re.search(name_pattern(name), message) is not None


@contextlib.contextmanager
def raises_naming(exc, name, not_names=()):
    """``pytest.raises(exc, match=<name as a whole word>)``; also checks that the
    message does not name any of ``not_names`` (the other arguments)."""
    with pytest.raises(exc, match=name_pattern(name)) as info:
        yield info
    msg = str(info.value)
    for other in not_names:
        assert not names_argument(msg, other), f"{other!r} wrongly named in {msg!r}"


# --------------------------------------------------------------------------- constructors


def _ctor_cases(values_by_label):
    for kind, (names, _) in CTORS.items():
        for i, name in enumerate(names):
            for label in values_by_label:
                yield pytest.param(kind, i, values_by_label[label], id=f"{kind}.{name}-{label}")


@pytest.mark.parametrize("kind,index,value", list(_ctor_cases(WRONG_TYPES)))
def test_constructor_wrong_type(fc, kind, index, value):
    names, valid = CTORS[kind]
    args = list(valid)
    args[index] = value
    others = [n for n in names if n != names[index]]
    with raises_naming(TypeError, names[index], others):
        getattr(fc, kind)(*args)
    with raises_naming(TypeError, names[index], others):
        getattr(fc, kind)(**dict(zip(names, args)))


@pytest.mark.parametrize("kind,index,value", list(_ctor_cases(NON_FINITE)))
def test_constructor_non_finite(fc, kind, index, value):
    names, valid = CTORS[kind]
    args = list(valid)
    args[index] = value
    # a NaN max_x must not slip through as "not less than min_x"
    others = [n for n in names if n != names[index]]
    with raises_naming(ValueError, names[index], others):
        getattr(fc, kind)(*args)


@pytest.mark.parametrize(
    "kind,index,value",
    [
        pytest.param(kind, i, value, id=f"{kind}.{name}-{value}")
        for kind, (names, _) in CTORS.items()
        for i, name in enumerate(names)
        if name in NON_NEGATIVE
        for value in (-1, -0.5, -1e-300, np.float64(-2.0))
    ],
)
def test_constructor_negative_size(fc, kind, index, value):
    names, valid = CTORS[kind]
    args = list(valid)
    args[index] = value
    with raises_naming(ValueError, names[index]):
        getattr(fc, kind)(*args)


@pytest.mark.parametrize(
    "args,lo,hi",
    [
        ((2, 0, 1, 1), "min_x", "max_x"),
        ((1e-300, 0, 0, 1), "min_x", "max_x"),
        ((0, 2, 1, 1), "min_y", "max_y"),
        ((0, 0, 1, -1e-300), "min_y", "max_y"),
    ],
)
def test_aabb_min_greater_than_max(fc, args, lo, hi):
    with raises_naming(ValueError, lo):
        fc.AABB(*args)
    with raises_naming(ValueError, hi):
        fc.AABB(*args)


def test_obb_angle_keyword_validated(fc):
    with raises_naming(TypeError, "angle"):
        fc.OBB(0, 0, 1, 1, angle="0")
    with raises_naming(ValueError, "angle"):
        fc.OBB(0, 0, 1, 1, angle=math.nan)
    # any finite angle is fine, negative or large
    assert fc.OBB(0, 0, 1, 1, angle=-7.5).angle == -7.5
    assert fc.OBB(0, 0, 1, 1, angle=1e6).angle == 1e6


POLY_TYPE_ERRORS = {
    "None": None,
    "float": 1.0,
    "object": object(),
    "complex": 1j,
    "str-element": [(0, 0), (1, 0), ("a", 1)],
    "None-element": [(0, 0), (1, 0), (None, 1)],
    "complex-element": [(0, 0), (1, 0), (1j, 1)],
    "complex-array": np.array([[0, 0], [1, 0], [0, 1]], dtype=complex),
}
POLY_TYPE_OR_VALUE_ERRORS = {
    "str": "abc",
    "flat-numbers": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
    "triple": [(0, 0), (1, 0), (0, 1, 2)],
    "single": [(0, 0), (1, 0), (0,)],
    "flat-array": np.zeros(6),
    "Nx3-array": np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=float),
    "3d-array": np.zeros((3, 2, 1)),
}
POLY_VALUE_ERRORS = {
    "nan": [(0, 0), (1, 0), (0, math.nan)],
    "inf": [(0, 0), (math.inf, 0), (0, 1)],
    "-inf-first": [(-math.inf, 0), (1, 0), (0, 1)],
    "nan-array": np.array([[0, 0], [1, 0], [np.nan, 1]]),
    "zero-area": [(0, 0), (1, 1), (2, 2)],
    "non-convex": [(0, 0), (4, 0), (1, 1), (0, 4)],
}


@pytest.mark.parametrize("label", sorted(POLY_TYPE_ERRORS))
def test_polygon_wrong_type(fc, label):
    with raises_naming(TypeError, "vertices"):
        fc.Polygon(POLY_TYPE_ERRORS[label])
    with raises_naming(TypeError, "vertices"):
        fc.Polygon(vertices=POLY_TYPE_ERRORS[label])


@pytest.mark.parametrize("label", sorted(POLY_TYPE_OR_VALUE_ERRORS))
def test_polygon_malformed(fc, label):
    with raises_naming((TypeError, ValueError), "vertices"):
        fc.Polygon(POLY_TYPE_OR_VALUE_ERRORS[label])


@pytest.mark.parametrize("label", sorted(POLY_VALUE_ERRORS))
def test_polygon_bad_value(fc, label):
    with raises_naming(ValueError, "vertices"):
        fc.Polygon(POLY_VALUE_ERRORS[label])


@pytest.mark.parametrize(
    "points,exc",
    [
        (None, TypeError),
        (1.0, TypeError),
        ([(0, 0), (1, 0), ("x", 1)], TypeError),
        ([(0, 0), (1, 0), (0, math.nan)], ValueError),
        ([(0, 0), (1, 0), (math.inf, 1), (0, 1)], ValueError),
    ],
    ids=["None", "float", "str-element", "nan", "inf"],
)
def test_polygon_hull_bad_points(fc, points, exc):
    with raises_naming(exc, "points"):
        fc.Polygon.hull(points)


def _shape_samples(fc):
    return [
        fc.Circle(1, 2, 0.5),
        fc.Capsule(0, 1, 3, -2, 0.25),
        fc.Segment(0, 1, 3, -2),
        fc.AABB(-1, -2, 3, 4),
        fc.OBB(1, 2, 3, 0.5, 0.75),
        fc.Polygon([(0, 0), (3, 1), (1, 4)]),
    ]


@pytest.mark.parametrize("arg", ["dx", "dy"])
@pytest.mark.parametrize(
    "value,exc",
    [("1", TypeError), (None, TypeError), (1j, TypeError), ([1.0], TypeError),
     (math.nan, ValueError), (math.inf, ValueError), (-math.inf, ValueError)],
    ids=["str", "None", "complex", "list", "nan", "inf", "-inf"],
)
def test_translated_validates(fc, arg, value, exc):
    for shape in _shape_samples(fc):
        before = repr(shape)
        kwargs = {"dx": 1.0, "dy": 1.0, arg: value}
        with raises_naming(exc, arg, [{"dx": "dy", "dy": "dx"}[arg]]):
            shape.translated(kwargs["dx"], kwargs["dy"])
        assert repr(shape) == before


# --------------------------------------------------------------------------- queries

QUERIES = ["collide", "distance", "closest_points"]
NOT_SHAPES = {
    "None": None,
    "float": 1.0,
    "tuple": (0.0, 0.0, 1.0),
    "list": [0.0, 0.0, 1.0],
    "str": "Circle(x=0.0, y=0.0, r=1.0)",
    "class": "CLASS",  # the Circle class itself, not an instance
}


@pytest.mark.parametrize("position", ["a", "b"])
@pytest.mark.parametrize("label", sorted(NOT_SHAPES))
@pytest.mark.parametrize("query", QUERIES)
def test_query_rejects_non_shape(fc, query, label, position):
    bad = fc.Circle if NOT_SHAPES[label] == "CLASS" else NOT_SHAPES[label]
    fn = getattr(fc, query)
    for good in _shape_samples(fc):
        other = "b" if position == "a" else "a"
        with raises_naming(TypeError, position, [other] if position == "a" else []):
            fn(bad, good) if position == "a" else fn(good, bad)


@pytest.fixture
def other_backend(fc, request):
    """The backend module that ``fc`` is not."""
    return request.getfixturevalue("ref" if fc.backend == "compiled" else "ext")


@pytest.mark.parametrize("position", ["a", "b"])
@pytest.mark.parametrize("query", QUERIES)
def test_query_rejects_other_backends_shapes(fc, other_backend, query, position):
    assert other_backend is not fc
    fn = getattr(fc, query)
    for good, foreign in zip(_shape_samples(fc), _shape_samples(other_backend)):
        assert type(foreign) is not type(good)
        with raises_naming(TypeError, position, ["b"] if position == "a" else []) as info:
            fn(foreign, good) if position == "a" else fn(good, foreign)
        # the two backends' classes share names: the message says whose it is
        backend = other_backend.backend
        assert f"{type(foreign).__name__} of the {backend} backend" in str(info.value)


# --------------------------------------------------------------------------- primitives

PRIMITIVES = {
    "closest_point_on_segment": ("p", "a", "b"),
    "closest_point_on_line": ("p", "a", "b"),
    "point_segment_distance": ("p", "a", "b"),
    "segment_segment_closest": ("a", "b", "c", "d"),
    "segment_segment_distance": ("a", "b", "c", "d"),
    "segments_intersect": ("a", "b", "c", "d"),
}
GOOD_POINTS = {"p": (0.5, 1.0), "a": (0.0, 0.0), "b": (2.0, 0.0), "c": (0.0, 1.0), "d": (2.0, 1.0)}

POINT_TYPE_ERRORS = {
    "None": None,
    "float": 1.0,
    "int": 3,
    "complex": 1j,
    "object": object(),
    "str-len2": "xy",
    "bytes-len2": b"xy",
    "set": {1.0, 2.0},
    "dict": {0: 1.0, 1: 2.0},
    "str-coord": ("1", 0.0),
    "None-coord": (0.0, None),
    "complex-coord": (0.0, 1j),
    "list-coord": ([0.0], 0.0),
    "object-coord": (object(), 0.0),
}
POINT_LENGTH_ERRORS = {
    "len0": (),
    "len1": (0.0,),
    "len3": (0.0, 0.0, 0.0),
    "list-len3": [0.0, 1.0, 2.0],
    "array-len3": np.zeros(3),
    "array-len1": np.zeros(1),
}
POINT_VALUE_ERRORS = {
    "nan-x": (math.nan, 0.0),
    "nan-y": (0.0, math.nan),
    "inf-x": (math.inf, 0.0),
    "-inf-y": (0.0, -math.inf),
    "np-nan": np.array([0.0, np.nan]),
    "huge-int": (0, -(10**400)),
}


def _prim_cases(table):
    for fname, params in PRIMITIVES.items():
        for arg in params:
            for label in table:
                yield pytest.param(fname, arg, table[label], id=f"{fname}.{arg}-{label}")


def _call(fc, fname, arg, value):
    params = PRIMITIVES[fname]
    args = [value if p == arg else GOOD_POINTS[p] for p in params]
    return getattr(fc, fname)(*args)


def _others(fname, arg):
    # "a" cannot be checked as absent: it is also an English article
    return [p for p in PRIMITIVES[fname] if p not in (arg, "a")]


@pytest.mark.parametrize("fname,arg,value", list(_prim_cases(POINT_TYPE_ERRORS)))
def test_primitive_point_wrong_type(fc, fname, arg, value):
    with raises_naming(TypeError, arg, _others(fname, arg)):
        _call(fc, fname, arg, value)


@pytest.mark.parametrize("fname,arg,value", list(_prim_cases(POINT_LENGTH_ERRORS)))
def test_primitive_point_wrong_length(fc, fname, arg, value):
    with raises_naming(ValueError, arg, _others(fname, arg)):
        _call(fc, fname, arg, value)


@pytest.mark.parametrize("fname,arg,value", list(_prim_cases(POINT_VALUE_ERRORS)))
def test_primitive_point_non_finite(fc, fname, arg, value):
    with raises_naming(ValueError, arg, _others(fname, arg)):
        _call(fc, fname, arg, value)


@pytest.mark.parametrize("fname", sorted(PRIMITIVES))
def test_primitive_accepts_any_length2_sequence_of_reals(fc, fname):
    """The valid counterpart of the tests above: lists, numpy arrays and numpy
    scalars are points, and give the same answer as plain float tuples."""
    params = PRIMITIVES[fname]
    fn = getattr(fc, fname)
    expected = fn(*(GOOD_POINTS[p] for p in params))
    assert fn(*(list(GOOD_POINTS[p]) for p in params)) == expected
    assert fn(*(np.array(GOOD_POINTS[p]) for p in params)) == expected
    assert fn(*(tuple(np.float64(c) for c in GOOD_POINTS[p]) for p in params)) == expected
    assert fn(*(tuple(int(2 * c) / 2 for c in GOOD_POINTS[p]) for p in params)) == expected


def test_message_helper_distinguishes_a_from_the_article():
    # guards the helper these tests rely on
    assert names_argument("a must be a point (x, y), not NoneType", "a")
    assert not names_argument("b must be a point (x, y), not NoneType", "a")
    assert names_argument("a[0] must be finite, got nan", "a")
    assert names_argument("argument 'a' is not a shape", "a")
    assert not names_argument("max_x must be finite", "x")
    assert names_argument("min_x must be <= max_x", "max_x")
