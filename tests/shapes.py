"""The catalogue of shape kinds the tests draw from: names, row widths, array classes,
and how a shape is built from its arguments.

Adding a shape starts here: its kind in ``KINDS`` (and ``ROUND`` if it has a core and
a radius), its row width, and how ``build`` makes it.  Generators of hard cases live
in ``exact.py`` (segments) and ``test_query_properties.py`` (hypothesis strategies of
every kind, as ``(kind, *args)`` specs that its ``make`` builds).
"""

from __future__ import annotations

import itertools

# every shape kind, in the canonical pair order the kernels use
KINDS = ("Circle", "Capsule", "Segment", "AABB", "OBB", "Polygon")
# the kinds with a core (a point or a segment) and a radius
ROUND = ("Circle", "Capsule", "Segment")
# each unordered pair of kinds once (the 21 pairs the benchmarks and tests cover)
PAIRS = tuple(itertools.combinations_with_replacement(KINDS, 2))
# the row width of each kind's array (a PolygonArray holds padded vertices instead)
WIDTH = {"Circle": 3, "Capsule": 5, "Segment": 4, "AABB": 4, "OBB": 5}
# the name of each kind's array class
ARRAY = {kind: kind + "Array" for kind in KINDS}


def build(fc, kind, args):
    """The shape ``kind`` of the backend ``fc`` from its constructor's arguments (a
    Polygon's: one sequence of vertices)."""
    return getattr(fc, kind)(*args)



def build_params(fc, kind, params):
    """As ``build``, with a Polygon's vertex list as its ``params`` itself."""
    return fc.Polygon(params) if kind == "Polygon" else getattr(fc, kind)(*params)


def make(fc, spec):
    """A shape from a flat spec ``(kind, *args)`` (a Polygon's args: its vertex list)."""
    return getattr(fc, spec[0])(*spec[1:])


def make_hull(fc, spec):
    """As ``make``, but a Polygon is the convex hull of the points given (the property
    tests' strategies draw any points)."""
    if spec[0] == "Polygon":
        return fc.Polygon.hull(list(spec[1]))
    return make(fc, spec)
