# Two doubles at a time (fc_pairs.h: SSE2 lanes on x86-64, a plain pair of doubles
# elsewhere): each operation is the scalar one on each lane, rounded alike, so code
# written with them gives the scalar code's numbers.  cimported by the array loops
# (batch.pyx) and the scene index (index.pyx).

cdef extern from "fc_pairs.h":
    ctypedef struct fc_v2:
        pass
    ctypedef struct fc_m2:
        pass
    fc_v2 fc_splat(double x) noexcept nogil
    fc_v2 fc_add(fc_v2 a, fc_v2 b) noexcept nogil
    fc_v2 fc_sub(fc_v2 a, fc_v2 b) noexcept nogil
    fc_v2 fc_mul(fc_v2 a, fc_v2 b) noexcept nogil
    fc_v2 fc_div(fc_v2 a, fc_v2 b) noexcept nogil
    fc_v2 fc_sqrt(fc_v2 a) noexcept nogil
    fc_v2 fc_abs(fc_v2 a) noexcept nogil
    fc_v2 fc_max(fc_v2 a, fc_v2 b) noexcept nogil
    fc_v2 fc_min(fc_v2 a, fc_v2 b) noexcept nogil
    fc_m2 fc_le(fc_v2 a, fc_v2 b) noexcept nogil
    fc_m2 fc_lt(fc_v2 a, fc_v2 b) noexcept nogil
    fc_m2 fc_eq(fc_v2 a, fc_v2 b) noexcept nogil
    fc_m2 fc_and(fc_m2 a, fc_m2 b) noexcept nogil
    fc_m2 fc_or(fc_m2 a, fc_m2 b) noexcept nogil
    int fc_bits(fc_m2 m) noexcept nogil
    fc_v2 fc_select(fc_m2 m, fc_v2 a, fc_v2 b) noexcept nogil
    void fc_rows(const double* p, int n, int w, fc_v2* f) noexcept nogil
    void fc_rows_f(const float* p, int n, fc_v2* f) noexcept nogil
    void fc_store(double* out, fc_v2 a) noexcept nogil
    void fc_store_f(float* out, fc_v2 a) noexcept nogil
    void fc_store_xy(double* out, fc_v2 x, fc_v2 y) noexcept nogil
    void fc_store_xy_f(float* out, fc_v2 x, fc_v2 y) noexcept nogil
    fc_m2 fc_andnot(fc_m2 a, fc_m2 b) noexcept nogil
