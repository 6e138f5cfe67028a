"""The scalar queries answer alike however they are called.

The compiled queries and primitives are builtin functions whose C entry takes the calls
of their first parameters (by position or by name) straight to the kernel and hands
every other call (workers= or out= given, too few or too many arguments, a repeated
name) to the public function of ``fastcol._api`` (``_ext/entry.pxd``).  Both routes must give the same answers and the same errors, in
both backends: a default or an argument order wrong on either route shows here.
"""

from __future__ import annotations

import inspect

import pytest

QUERIES = ("collide", "distance", "closest_points", "contact", "raycast", "time_of_impact")


def _shapes(fc):
    # asymmetric pairs: swapping a and b changes every answer's sign or order
    return fc.Capsule(0.0, 0.0, 2.0, 0.0, 0.5), fc.AABB(1.5, 0.25, 3.0, 1.0)


def test_pair_queries_positional_and_keyword(fc):
    a, b = _shapes(fc)
    for name in ("collide", "distance", "closest_points", "contact"):
        query = getattr(fc, name)
        want = query(a, b)
        assert query(a=a, b=b) == want, name
        assert query(a, b=b) == want, name
        assert query(a, b, workers=1) == want, name
    assert fc.collide(a, b) is True
    assert fc.collide(a, b, None, 1) is True
    # the capsule's surface ends at x = 2.5, the circle's begins at 9
    assert fc.distance(a, fc.Circle(10.0, 0.0, 1.0)) == 6.5
    assert fc.distance(a, fc.Circle(10.0, 0.0, 1.0), None) == 6.5
    # a and b in the order given: swapped, the normal turns round
    contact = fc.contact(a, b)
    assert fc.contact(a, b, 1) == contact
    assert fc.contact(b, a).normal == (-contact.normal[0], -contact.normal[1])


def test_raycast_positional_and_keyword(fc):
    a, _ = _shapes(fc)
    # the ray reaches a's left end (x = -0.5) at t = 2.0: within the default max_t
    # (inf), beyond max_t 1.5
    hit = fc.raycast(a, (-2.5, 0.0), (1.0, 0.0))
    assert hit == (2.0, (-0.5, 0.0), (-1.0, 0.0))
    assert fc.raycast(a, (-2.5, 0.0), (1.0, 0.0), 3.0) == hit
    assert fc.raycast(a, (-2.5, 0.0), (1.0, 0.0), 1.5) is None
    assert fc.raycast(a, (-2.5, 0.0), (1.0, 0.0), 1.5, 1) is None
    assert fc.raycast(shape=a, origin=(-2.5, 0.0), direction=(1.0, 0.0)) == hit
    assert fc.raycast(a, (-2.5, 0.0), direction=(1.0, 0.0), max_t=1.5) is None


def test_time_of_impact_positional_and_keyword(fc):
    a = fc.Circle(0.0, 0.0, 1.0)
    b = fc.Circle(5.0, 0.0, 1.0)
    # b closes the gap of 3 at speed 2: t = 1.5, beyond the default max_t (1.0)
    assert fc.time_of_impact(a, (0.0, 0.0), b, (-2.0, 0.0)) is None
    assert fc.time_of_impact(a, (0.0, 0.0), b, (-2.0, 0.0), 2.0) == 1.5
    assert fc.time_of_impact(a, (0.0, 0.0), b, (-2.0, 0.0), 2.0, 1) == 1.5
    assert fc.time_of_impact(a=a, velocity_a=(0.0, 0.0), b=b, velocity_b=(-2.0, 0.0),
                             max_t=2.0) == 1.5
    # the order of the arguments: a moving right onto b is the same impact
    assert fc.time_of_impact(a, (2.0, 0.0), b, (0.0, 0.0), 2.0) == 1.5
    assert fc.time_of_impact(b, (-2.0, 0.0), a, (0.0, 0.0), max_t=2.0) == 1.5


def test_keywords_in_any_order(fc):
    # the C entry places keywords that name its parameters by name, in any order; the
    # answers are the positional ones (a swapped pair would turn contact's normal)
    a, b = _shapes(fc)
    assert fc.contact(b=b, a=a) == fc.contact(a, b)
    assert fc.closest_points(b=b, a=a) == fc.closest_points(a, b)
    hit = fc.raycast(a, (-2.5, 0.0), (1.0, 0.0))
    assert fc.raycast(a, max_t=3.0, direction=(1.0, 0.0), origin=(-2.5, 0.0)) == hit
    c, d = fc.Circle(0.0, 0.0, 1.0), fc.Circle(5.0, 0.0, 1.0)
    assert fc.time_of_impact(c, (0.0, 0.0), d, max_t=2.0, velocity_b=(-2.0, 0.0)) == 1.5
    assert fc.orient2d(c=(0.0, 1.0), a=(0.0, 0.0), b=(1.0, 0.0)) == 1
    assert fc.orient2d(b=(0.0, 0.0), a=(1.0, 0.0), c=(0.0, 1.0)) == -1
    # (0, 0)-(4, 0) and (5, 3)-(9, 3): the nearest ends are (4, 0) and (5, 3)
    assert fc.segment_segment_distance((0, 0), (4, 0), d=(9, 3), c=(5, 3)) == 10 ** 0.5
    assert fc.closest_point_on_segment(b=(4.0, 0.0), p=(1.0, 5.0), a=(0.0, 0.0)) == (
        (1.0, 0.0), 0.25)
    # out= and workers= at their defaults, or not (two shapes take any workers)
    assert fc.contact(a, b, workers=1) == fc.contact(a, b, 2) == fc.contact(a, b)
    assert fc.distance(b=c, a=d, workers=1, out=None) == fc.distance(c, d, None, 2) == 3.0
    assert fc.raycast(a, (-2.5, 0.0), (1.0, 0.0), workers=1) == hit


def test_repeated_or_missing_arguments_are_type_errors(fc):
    a, b = _shapes(fc)
    for call in (lambda: fc.collide(a, a=b), lambda: fc.contact(a, b, b=b),
                 lambda: fc.raycast(a, (0.0, 0.0), max_t=1.0),
                 lambda: fc.raycast(a, (0.0, 0.0), (1.0, 0.0), shape=a),
                 lambda: fc.orient2d((0, 0), (1, 0), c=(0, 1), a=(0, 0)),
                 lambda: fc.time_of_impact(a, (0.0, 0.0), b, max_t=1.0)):
        with pytest.raises(TypeError):
            call()


@pytest.mark.parametrize("name", QUERIES)
def test_wrong_argument_counts_are_type_errors(fc, name):
    query = getattr(fc, name)
    a, b = _shapes(fc)
    required = [p for p in inspect.signature(query).parameters.values()
                if p.default is inspect.Parameter.empty]
    allowed = len(inspect.signature(query).parameters)
    args = {"collide": (a, b), "distance": (a, b), "closest_points": (a, b),
            "contact": (a, b), "raycast": (a, (0.0, 0.0), (1.0, 0.0)),
            "time_of_impact": (a, (0.0, 0.0), b, (1.0, 0.0))}[name]
    assert len(args) == len(required)
    with pytest.raises(TypeError):
        query(*args[:-1])
    with pytest.raises(TypeError):
        query()
    with pytest.raises(TypeError):
        query(*args, *([1] * (allowed - len(args) + 1)))
    with pytest.raises(TypeError):
        query(*args, no_such_argument=1)


def test_every_public_callable_has_a_signature(fc, ref):
    # help() and IDEs read inspect.signature; the compiled classes are extension types,
    # whose signature comes from their docstring's first line.  Each equals the
    # reference's, parameter names and defaults included
    import fastcol

    for name in fastcol.__all__:
        obj = getattr(fc, name, None)
        if not callable(obj):
            # a constant, or a name of the façade alone (backend)
            continue
        sig = inspect.signature(obj)
        want = inspect.signature(getattr(ref, name))
        assert [(p.name, p.default) for p in sig.parameters.values()] == [
            (p.name, p.default) for p in want.parameters.values()
        ], name


@pytest.mark.parametrize("name", QUERIES)
def test_query_docstrings_are_the_references(ext, ref, name):
    # help(fc.contact) on the compiled backend shows the whole contract, one text for
    # both backends (its examples run on both: test_docs)
    doc = inspect.getdoc(getattr(ext, name))
    assert doc == inspect.getdoc(getattr(ref, name))
    assert "Parameters" in doc and "Examples" in doc
