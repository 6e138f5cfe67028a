# Fast paths for argument checks; anything unusual goes to fastcol._validate, so both
# backends raise the same errors with the same messages.

from libc.math cimport isfinite


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
    # x, y (OUT): the coordinates of a finite (x, y) pair
    cdef object px, py
    if type(p) is tuple and len(<tuple>p) == 2:
        px = (<tuple>p)[0]
        py = (<tuple>p)[1]
        if type(px) is float and type(py) is float:
            x[0] = <double>px
            y[0] = <double>py
            if isfinite(x[0]) and isfinite(y[0]):
                return 0
    from fastcol._validate import as_point
    x[0], y[0] = as_point(p, name)
    return 0
