# Contacts of two shapes as Views (compiled twin of fastcol._ref.contacts), for the
# scalar contact and the contact loops over arrays.

from .queries cimport View


cdef struct Hit:
    # a contact: unit normal, depth, and count (1 or 2) points
    double nx, ny, depth
    int count
    double p0x, p0y, p1x, p1y


cdef bint contact_views(const View* a, const View* b, Hit* h) noexcept nogil
cdef bint contact_circles(const View* a, const View* b, Hit* h) noexcept nogil

# contact of two shape objects, checked by the caller (entries' C entry, the def)
cdef object contact_pair(object a, object b)
