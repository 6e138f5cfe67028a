# Shapes as Views (from a shape object or an array row), their canonical pair order
# and local-coordinate forms, and the collide decision: shared by every query module
# (queries, contacts, sweeps, batch) so every query orders pairs the same way.

from .narrowphase cimport Convex, Round
from .shapes cimport Shape


cdef struct View:
    # one shape as plain numbers, from a shape object or an array row: the kind, its
    # fields in _fields order (an OBB also its angle's cosine and sine), or a
    # polygon's vertex count and arrays
    int kind
    int n
    double f[5]
    double cos, sin
    const double* xs
    const double* ys


cdef void view_of(Shape s, View* v) noexcept
cdef bint views_swapped(const View* a, const View* b) noexcept nogil
cdef void view_origin(const View* v, double* ox, double* oy) noexcept nogil
cdef void view_core(const View* v, double ox, double oy, Round* out) noexcept nogil
cdef void view_convex(const View* v, double ox, double oy, Convex* out) noexcept nogil
cdef bint collide_views(const View* a, const View* b) noexcept nogil
cdef bint collide_canonical(const View* a, const View* b) noexcept nogil
cdef double closest_views(const View* a, const View* b, double* out) noexcept nogil

cdef int _check(object a, object b) except -1

# the batch module's entry for small collide calls (see batch.pyx fast_collide),
# registered when it is imported: queries cannot cimport batch, which cimports it
ctypedef object (*FastBatch)(object, object)
cdef void set_fast_collide(FastBatch f) noexcept


cdef inline bint aabbs_overlap(const double* a, const double* b) noexcept nogil:
    # collide of two AABBs (min_x, min_y, max_x, max_y), a first in canonical order:
    # two interval tests in a's local coordinates (collide_canonical's own test)
    cdef double ox = a[0]
    cdef double oy = a[1]
    return (b[0] - ox <= a[2] - ox
            and a[0] - ox <= b[2] - ox
            and b[1] - oy <= a[3] - oy
            and a[1] - oy <= b[3] - oy)


cdef inline bint aabb_rows_collide(const double* a, const double* b) noexcept nogil:
    # collide of two AABB rows in either order: the canonical order compares the
    # fields in turn (as views_swapped does), then aabbs_overlap
    cdef int i
    for i in range(4):
        if a[i] != b[i]:
            if a[i] > b[i]:
                return aabbs_overlap(b, a)
            break
    return aabbs_overlap(a, b)
