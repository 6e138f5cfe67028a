# Fast paths for argument checks; anything unusual goes to fastcol._validate, so both
# backends raise the same errors with the same messages.

from cpython.object cimport PyObject
from libc.math cimport isfinite


cdef extern from "Python.h":
    # borrowed references, without the reference counting Cython adds around objects
    PyObject* _tuple_item "PyTuple_GET_ITEM"(object p, Py_ssize_t i)
    Py_ssize_t _tuple_size "PyTuple_GET_SIZE"(object p)
    bint _is_float "PyFloat_CheckExact"(PyObject* o)
    double _float_value "PyFloat_AS_DOUBLE"(PyObject* o)


cdef inline double finite(object v, str name) except? -1.0:
    cdef double d
    if type(v) is float:
        d = <double>v
        if isfinite(d):
            return d
    from fastcol._validate import as_finite
    return as_finite(v, name)


cdef inline double non_negative(object v, str name) except? -1.0:
    cdef double d
    if type(v) is float:
        d = <double>v
        if isfinite(d) and d >= 0.0:
            return d
    from fastcol._validate import as_non_negative
    return as_non_negative(v, name)


cdef inline int point(object p, str name, double* x, double* y) except -1:
    # x, y (OUT): the coordinates of a finite (x, y) pair.  Only the fast path is
    # here, so that the C compiler inlines it into each query (a call with its
    # prologue cost a fifth of a ray cast's wrapper); the rest is _point_slow
    cdef PyObject* px
    cdef PyObject* py
    if type(p) is tuple and _tuple_size(p) == 2:
        # a tuple of two floats, read through borrowed references (this runs on every
        # call of the scalar queries that take points)
        px = _tuple_item(p, 0)
        py = _tuple_item(p, 1)
        if _is_float(px) and _is_float(py):
            x[0] = _float_value(px)
            y[0] = _float_value(py)
            if isfinite(x[0]) and isfinite(y[0]):
                return 0
    return _point_slow(p, name, x, y)


cdef inline int _point_slow(object p, str name, double* x, double* y) except -1:
    # anything but a tuple of two finite floats: converted (or rejected, naming the
    # argument) by the shared check
    from fastcol._validate import as_point
    x[0], y[0] = as_point(p, name)
    return 0
