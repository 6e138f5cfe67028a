from cpython.object cimport PyTypeObject, Py_TYPE

# kind codes, in the order that canonicalises a pair (see queries.pyx)
cpdef enum Kind:
    CIRCLE = 0
    CAPSULE = 1
    SEGMENT = 2
    AABB_KIND = 3
    OBB_KIND = 4
    POLYGON = 5


cdef class Shape:
    cdef readonly int kind


cdef inline bint is_shape(object o) noexcept:
    # isinstance(o, Shape), answered from the type's base (one or two levels up for
    # the six shape classes) before Cython's walk of the type's mro, which costs every
    # scalar query about 15 instructions a shape
    cdef PyTypeObject* base = Py_TYPE(o).tp_base
    if base == <PyTypeObject*>Shape or (base != NULL and base.tp_base == <PyTypeObject*>Shape):
        return True
    return isinstance(o, Shape)


cdef class Circle(Shape):
    cdef double _x, _y, _r


cdef class _SegmentCore(Shape):
    cdef double _ax, _ay, _bx, _by
    cdef _set_ends(self, ax, ay, bx, by)
    cdef tuple _turned_ends(self, angle, about)


cdef class Capsule(_SegmentCore):
    cdef double _r


cdef class Segment(_SegmentCore):
    pass


cdef class AABB(Shape):
    cdef double _min_x, _min_y, _max_x, _max_y


cdef class OBB(Shape):
    cdef double _cx, _cy, _half_w, _half_h, _angle, _cos, _sin


cdef class Polygon(Shape):
    cdef int n
    cdef double* xs
    cdef double* ys
    # the least and largest vertex coordinates (the kernels' exact local frame needs them)
    cdef double x0, x1, y0, y1
    cdef tuple _vertices
    cdef _set(self, xs, ys)
