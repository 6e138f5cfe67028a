# The broadphase's padded box of a shape, shared with the scene index (index.pyx).

from .queries cimport View

# b (OUT): x0, y0, x1, y1 of a box holding the shape, padded against rounding
cdef void view_box(const View* v, double* b) noexcept nogil
