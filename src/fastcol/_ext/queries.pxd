# Canonical pair ordering and local-coordinate views, shared by the query modules
# (contacts, ray casts, sweeps) so every query orders pairs the same way.

from .narrowphase cimport Convex, Round
from .shapes cimport Shape


cdef int _check(object a, object b) except -1
cdef bint _swapped(Shape a, Shape b) noexcept
cdef void _origin(Shape s, double* ox, double* oy) noexcept
cdef void _core(Shape s, double ox, double oy, Round* out) noexcept
cdef void _convex(Shape s, double ox, double oy, Convex* out) noexcept
