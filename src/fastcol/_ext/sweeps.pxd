# Ray kernels shared by raycast and time_of_impact (compiled twin of
# fastcol._ref.sweeps).  Each returns MISS, HIT or INSIDE; on HIT, out[0:3] =
# (t, nx, ny) in local coordinates (the round ones: with normal; without, t alone).

from .narrowphase cimport Convex

cdef enum:
    MISS = 0
    HIT = 1
    INSIDE = 2

cdef bint ray_circle(double px, double py, double dx, double dy, double cx, double cy,
                     double r, double* out, bint normal) noexcept nogil
cdef int ray_round(double px, double py, double dx, double dy, double ax, double ay,
                   double bx, double by, double r, bint ends, double* out,
                   bint normal) noexcept nogil
cdef int ray_slab(double pu, double pv, double du, double dv, double u0, double v0,
                  double u1, double v1, double* t, int* face) noexcept nogil
cdef int ray_box(double px, double py, double dx, double dy, double x0, double y0,
                 double x1, double y1, double* out) noexcept nogil
cdef int ray_convex(double px, double py, double dx, double dy, const Convex* cv,
                    double* out) noexcept nogil
cdef int ray_rounded_convex(double px, double py, double dx, double dy, const Convex* cv,
                            double r, bint ends, double* out, bint normal) noexcept nogil

from .queries cimport View

cdef bint raycast_view(const View* v, double px, double py, double dx, double dy,
                       double limit, double* out) noexcept nogil
cdef double toi_views(const View* a, double vax, double vay, const View* b, double vbx,
                      double vby, double limit) noexcept nogil
