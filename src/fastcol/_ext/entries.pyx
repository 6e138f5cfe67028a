"""The C entries of the public functions on the compiled backend (see entry.pxd).

``fastcol._api`` defines every public function once.  On this backend ``accelerate``
puts a builtin in front of each query and primitive: its C code answers the common
call (positional arguments: two shapes, a shape and a ray, points; float64 shape
arrays for ``collide``) with the kernel, and hands every other call to the public
function, so both paths follow the one definition in ``_api``.
"""

from cpython.object cimport PyObject
from libc.math cimport INFINITY

from .batch cimport fast_collide
from .contacts cimport contact_pair
from .entry cimport fast_entry, fc_fast_fn
from .geometry cimport (
    closest_point_on_line,
    closest_point_on_segment,
    orient2d,
    point_segment_distance,
    segment_segment_closest,
    segment_segment_distance,
    segments_intersect,
)
from .queries cimport closest_points_pair, collide_pair, distance_pair
from .shapes cimport is_shape
from .sweeps cimport cast_pair, raycast_one, toi_pair

import inspect
import sys

import numpy as np

cdef object _NDARRAY = np.ndarray
# the defaults of max_t, as the public functions have them
cdef object _NO_LIMIT = INFINITY
cdef object _UNIT_TIME = 1.0


cdef inline bint _points(object a, object b, object c, object d) noexcept:
    # whether no argument is an array: the call is one of points (the public function
    # decides an array's case, rows or an error)
    return (type(a) is not _NDARRAY and type(b) is not _NDARRAY
            and type(c) is not _NDARRAY and type(d) is not _NDARRAY)


# ------------------------------------------------------------------ the queries

cdef object _collide(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object b = <object>args[1]
    if is_shape(a) and is_shape(b):
        return collide_pair(a, b)
    res = fast_collide(a, b)
    if res is not None:
        return res
    return (<object>general)(a, b)


cdef object _distance(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object b = <object>args[1]
    if is_shape(a) and is_shape(b):
        return distance_pair(a, b)
    return (<object>general)(a, b)


cdef object _closest_points(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object b = <object>args[1]
    if is_shape(a) and is_shape(b):
        return closest_points_pair(a, b)
    return (<object>general)(a, b)


cdef object _contact(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object b = <object>args[1]
    if is_shape(a) and is_shape(b):
        return contact_pair(a, b)
    return (<object>general)(a, b)


cdef object _raycast(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object shape = <object>args[0]
    cdef object origin = <object>args[1]
    cdef object direction = <object>args[2]
    cdef object max_t = <object>args[3] if nargs == 4 else _NO_LIMIT
    if is_shape(shape) and _points(origin, direction, max_t, None):
        return raycast_one(shape, origin, direction, max_t)
    return (<object>general)(shape, origin, direction, max_t)


cdef object _time_of_impact(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object velocity_a = <object>args[1]
    cdef object b = <object>args[2]
    cdef object velocity_b = <object>args[3]
    cdef object max_t = <object>args[4] if nargs == 5 else _UNIT_TIME
    if is_shape(a) and is_shape(b) and _points(velocity_a, velocity_b, max_t, None):
        return toi_pair(a, velocity_a, b, velocity_b, max_t)
    return (<object>general)(a, velocity_a, b, velocity_b, max_t)


cdef object _shape_cast(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object velocity_a = <object>args[1]
    cdef object b = <object>args[2]
    cdef object velocity_b = <object>args[3]
    cdef object max_t = <object>args[4] if nargs == 5 else _UNIT_TIME
    if is_shape(a) and is_shape(b) and _points(velocity_a, velocity_b, max_t, None):
        return cast_pair(a, velocity_a, b, velocity_b, max_t)
    return (<object>general)(a, velocity_a, b, velocity_b, max_t)


# --------------------------------------------------------------- the primitives

cdef object _closest_point_on_segment(PyObject* general, PyObject** args, Py_ssize_t nargs):
    if _points(<object>args[0], <object>args[1], <object>args[2], None):
        return closest_point_on_segment(<object>args[0], <object>args[1], <object>args[2])
    return (<object>general)(<object>args[0], <object>args[1], <object>args[2])


cdef object _closest_point_on_line(PyObject* general, PyObject** args, Py_ssize_t nargs):
    if _points(<object>args[0], <object>args[1], <object>args[2], None):
        return closest_point_on_line(<object>args[0], <object>args[1], <object>args[2])
    return (<object>general)(<object>args[0], <object>args[1], <object>args[2])


cdef object _point_segment_distance(PyObject* general, PyObject** args, Py_ssize_t nargs):
    if _points(<object>args[0], <object>args[1], <object>args[2], None):
        return point_segment_distance(<object>args[0], <object>args[1], <object>args[2])
    return (<object>general)(<object>args[0], <object>args[1], <object>args[2])


cdef object _orient2d(PyObject* general, PyObject** args, Py_ssize_t nargs):
    if _points(<object>args[0], <object>args[1], <object>args[2], None):
        return orient2d(<object>args[0], <object>args[1], <object>args[2])
    return (<object>general)(<object>args[0], <object>args[1], <object>args[2])


cdef object _segment_segment_closest(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object b = <object>args[1]
    cdef object c = <object>args[2]
    cdef object d = <object>args[3]
    if _points(a, b, c, d):
        return segment_segment_closest(a, b, c, d)
    return (<object>general)(a, b, c, d)


cdef object _segment_segment_distance(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object b = <object>args[1]
    cdef object c = <object>args[2]
    cdef object d = <object>args[3]
    if _points(a, b, c, d):
        return segment_segment_distance(a, b, c, d)
    return (<object>general)(a, b, c, d)


cdef object _segments_intersect(PyObject* general, PyObject** args, Py_ssize_t nargs):
    cdef object a = <object>args[0]
    cdef object b = <object>args[1]
    cdef object c = <object>args[2]
    cdef object d = <object>args[3]
    if _points(a, b, c, d):
        return segments_intersect(a, b, c, d)
    return (<object>general)(a, b, c, d)


cdef fc_fast_fn _fast_of(str name, Py_ssize_t* lo, Py_ssize_t* hi):
    # the C entry of a public function, and the positional calls it takes (lo (OUT) to
    # hi (OUT) arguments); NULL for a function without one
    lo[0] = hi[0] = 2
    if name == "collide":
        return _collide
    if name == "distance":
        return _distance
    if name == "closest_points":
        return _closest_points
    if name == "contact":
        return _contact
    if name == "raycast":
        lo[0], hi[0] = 3, 4
        return _raycast
    if name == "time_of_impact":
        lo[0], hi[0] = 4, 5
        return _time_of_impact
    if name == "shape_cast":
        lo[0], hi[0] = 4, 5
        return _shape_cast
    lo[0] = hi[0] = 3
    if name == "closest_point_on_segment":
        return _closest_point_on_segment
    if name == "closest_point_on_line":
        return _closest_point_on_line
    if name == "point_segment_distance":
        return _point_segment_distance
    if name == "orient2d":
        return _orient2d
    lo[0] = hi[0] = 4
    if name == "segment_segment_closest":
        return _segment_segment_closest
    if name == "segment_segment_distance":
        return _segment_segment_distance
    if name == "segments_intersect":
        return _segments_intersect
    return NULL


def accelerate(name, general, signature):
    """The public function ``general`` (``fastcol._api``) behind a C entry for its
    common call, or ``general`` itself where there is none (``overlapping_pairs``).

    ``signature`` is ``general``'s parameters as text (``"a, b, out=None,
    workers=1"``), for ``inspect.signature``.  Each name takes one of a fixed number
    of slots: ``fastcol._api.bind`` makes the entries once.
    """
    cdef Py_ssize_t lo, hi
    cdef fc_fast_fn fast = _fast_of(name, &lo, &hi)
    if fast == NULL:
        return general
    params = [p for p in inspect.signature(general).parameters.values()
              if p.kind == p.POSITIONAL_OR_KEYWORD]
    names = tuple(sys.intern(p.name) for p in params)
    defaults = tuple(p.default for p in params[lo:])
    return fast_entry(general, signature, names, defaults, fast, lo, hi, general.__doc__)
