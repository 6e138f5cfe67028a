/* fastcol: two rows at a time, one in each lane of a SIMD register, with a scalar
   fallback (batch.pyx's circle rows).  Included by Cython's generated C, after
   Python.h and Cython's own macros.

   Every op is one IEEE operation per lane (no contraction, no approximation), so a
   lane's number is the scalar expression's, bit for bit.  fc_v2 holds two doubles,
   fc_m2 two lanes' verdicts; fc_bits(m) has bit k set when lane k's verdict is true. */
#ifndef FASTCOL_FC_PAIRS_H
#define FASTCOL_FC_PAIRS_H

/* SSE2 lanes where fc_simd.h says so; elsewhere the same values one lane at a time */
#include "fc_simd.h"
#if FC_SSE2
#include <emmintrin.h>
#include <string.h>

typedef __m128d fc_v2;
typedef __m128d fc_m2;

static inline fc_v2 fc_splat(double x) { return _mm_set1_pd(x); }
static inline fc_v2 fc_add(fc_v2 a, fc_v2 b) { return _mm_add_pd(a, b); }
static inline fc_v2 fc_sub(fc_v2 a, fc_v2 b) { return _mm_sub_pd(a, b); }
static inline fc_v2 fc_mul(fc_v2 a, fc_v2 b) { return _mm_mul_pd(a, b); }
static inline fc_v2 fc_div(fc_v2 a, fc_v2 b) { return _mm_div_pd(a, b); }
static inline fc_v2 fc_sqrt(fc_v2 a) { return _mm_sqrt_pd(a); }
static inline fc_v2 fc_abs(fc_v2 a) { return _mm_andnot_pd(_mm_set1_pd(-0.0), a); }
/* a > b ? a : b and a < b ? a : b, lane by lane (MAXPD's and MINPD's rule) */
static inline fc_v2 fc_max(fc_v2 a, fc_v2 b) { return _mm_max_pd(a, b); }
static inline fc_v2 fc_min(fc_v2 a, fc_v2 b) { return _mm_min_pd(a, b); }
static inline fc_m2 fc_le(fc_v2 a, fc_v2 b) { return _mm_cmple_pd(a, b); }
static inline fc_m2 fc_lt(fc_v2 a, fc_v2 b) { return _mm_cmplt_pd(a, b); }
static inline fc_m2 fc_eq(fc_v2 a, fc_v2 b) { return _mm_cmpeq_pd(a, b); }
static inline fc_m2 fc_and(fc_m2 a, fc_m2 b) { return _mm_and_pd(a, b); }
static inline fc_m2 fc_or(fc_m2 a, fc_m2 b) { return _mm_or_pd(a, b); }
static inline int fc_bits(fc_m2 m) { return _mm_movemask_pd(m); }
/* m ? a : b, lane by lane */
static inline fc_v2 fc_select(fc_m2 m, fc_v2 a, fc_v2 b) {
    return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b));
}

/* f (OUT): the n = 1 to 4 fields of rows p[0:n] and p[w:w + n], field j of both
   rows in f[j]; w = n for two rows in a row, w = 0 for one row twice */
static inline void fc_rows(const double *p, int n, int w, fc_v2 *f) {
    __m128d u, v, t;
    int j;
    if (w == 0) {
        for (j = 0; j < n; j++)
            f[j] = _mm_set1_pd(p[j]);
    } else if (n == 1) {
        f[0] = _mm_loadu_pd(p);
    } else if (n == 2) {
        u = _mm_loadu_pd(p);
        v = _mm_loadu_pd(p + 2);
        f[0] = _mm_unpacklo_pd(u, v);
        f[1] = _mm_unpackhi_pd(u, v);
    } else if (n == 3) {
        u = _mm_loadu_pd(p);     /* x0 y0 */
        v = _mm_loadu_pd(p + 2); /* r0 x1 */
        t = _mm_loadu_pd(p + 4); /* y1 r1 */
        f[0] = _mm_shuffle_pd(u, v, 2);
        f[1] = _mm_shuffle_pd(u, t, 1);
        f[2] = _mm_shuffle_pd(v, t, 2);
    } else {
        u = _mm_loadu_pd(p);
        v = _mm_loadu_pd(p + 4);
        f[0] = _mm_unpacklo_pd(u, v);
        f[1] = _mm_unpackhi_pd(u, v);
        u = _mm_loadu_pd(p + 2);
        v = _mm_loadu_pd(p + 6);
        f[2] = _mm_unpacklo_pd(u, v);
        f[3] = _mm_unpackhi_pd(u, v);
    }
}

/* fc_rows of two float rows in a row (w = n), each number widened to double (exact) */
static inline void fc_rows_f(const float *p, int n, fc_v2 *f) {
    __m128 a = _mm_loadu_ps(p);
    __m128d lo = _mm_cvtps_pd(a), hi = _mm_cvtps_pd(_mm_movehl_ps(a, a)), u, v;
    double two;
    if (n == 3) {
        memcpy(&two, p + 4, sizeof two); /* p[4], p[5]: no read past the rows */
        u = _mm_cvtps_pd(_mm_castpd_ps(_mm_set_sd(two)));
        f[0] = _mm_shuffle_pd(lo, hi, 2);
        f[1] = _mm_shuffle_pd(lo, u, 1);
        f[2] = _mm_shuffle_pd(hi, u, 2);
    } else {
        a = _mm_loadu_ps(p + 4);
        u = _mm_cvtps_pd(a);
        v = _mm_cvtps_pd(_mm_movehl_ps(a, a));
        f[0] = _mm_unpacklo_pd(lo, u);
        f[1] = _mm_unpackhi_pd(lo, u);
        f[2] = _mm_unpacklo_pd(hi, v);
        f[3] = _mm_unpackhi_pd(hi, v);
    }
}

/* a's two lanes to out[0] and out[1] */
static inline void fc_store(double *out, fc_v2 a) { _mm_storeu_pd(out, a); }
/* the two lanes' points (x, y) to out[0:4] as x0, y0, x1, y1 */
static inline void fc_store_xy(double *out, fc_v2 x, fc_v2 y) {
    _mm_storeu_pd(out, _mm_unpacklo_pd(x, y));
    _mm_storeu_pd(out + 2, _mm_unpackhi_pd(x, y));
}
/* fc_store_xy rounded to float */
static inline void fc_store_xy_f(float *out, fc_v2 x, fc_v2 y) {
    _mm_storeu_ps(out, _mm_movelh_ps(_mm_cvtpd_ps(_mm_unpacklo_pd(x, y)),
                                     _mm_cvtpd_ps(_mm_unpackhi_pd(x, y))));
}
/* !a & b, lane by lane */
static inline fc_m2 fc_andnot(fc_m2 a, fc_m2 b) { return _mm_andnot_pd(a, b); }
/* a's two lanes rounded to float (as a C cast rounds) to out[0] and out[1] */
static inline void fc_store_f(float *out, fc_v2 a) {
    double two;
    _mm_store_sd(&two, _mm_castps_pd(_mm_cvtpd_ps(a)));
    memcpy(out, &two, sizeof two);
}

#else
#include <math.h>

typedef struct { double v[2]; } fc_v2;
typedef struct { int v[2]; } fc_m2;

static inline fc_v2 fc_splat(double x) { fc_v2 r = {{x, x}}; return r; }
#define FC_LANES(type, name, expr)                         \
    static inline type name(fc_v2 a, fc_v2 b) {            \
        type r;                                            \
        int k;                                             \
        for (k = 0; k < 2; k++) r.v[k] = (expr);           \
        return r;                                          \
    }
FC_LANES(fc_v2, fc_add, a.v[k] + b.v[k])
FC_LANES(fc_v2, fc_sub, a.v[k] - b.v[k])
FC_LANES(fc_v2, fc_mul, a.v[k] * b.v[k])
FC_LANES(fc_v2, fc_div, a.v[k] / b.v[k])
FC_LANES(fc_v2, fc_max, a.v[k] > b.v[k] ? a.v[k] : b.v[k])
FC_LANES(fc_v2, fc_min, a.v[k] < b.v[k] ? a.v[k] : b.v[k])
FC_LANES(fc_m2, fc_le, a.v[k] <= b.v[k])
FC_LANES(fc_m2, fc_lt, a.v[k] < b.v[k])
FC_LANES(fc_m2, fc_eq, a.v[k] == b.v[k])
#undef FC_LANES
static inline fc_v2 fc_sqrt(fc_v2 a) { fc_v2 r = {{sqrt(a.v[0]), sqrt(a.v[1])}}; return r; }
static inline fc_v2 fc_abs(fc_v2 a) { fc_v2 r = {{fabs(a.v[0]), fabs(a.v[1])}}; return r; }
static inline fc_m2 fc_and(fc_m2 a, fc_m2 b) { fc_m2 r = {{a.v[0] & b.v[0], a.v[1] & b.v[1]}}; return r; }
static inline fc_m2 fc_or(fc_m2 a, fc_m2 b) { fc_m2 r = {{a.v[0] | b.v[0], a.v[1] | b.v[1]}}; return r; }
static inline int fc_bits(fc_m2 m) { return m.v[0] | (m.v[1] << 1); }
static inline fc_v2 fc_select(fc_m2 m, fc_v2 a, fc_v2 b) {
    fc_v2 r = {{m.v[0] ? a.v[0] : b.v[0], m.v[1] ? a.v[1] : b.v[1]}};
    return r;
}
static inline void fc_rows(const double *p, int n, int w, fc_v2 *f) {
    int j;
    for (j = 0; j < n; j++) {
        f[j].v[0] = p[j];
        f[j].v[1] = p[j + w];
    }
}
static inline void fc_rows_f(const float *p, int n, fc_v2 *f) {
    int j;
    for (j = 0; j < n; j++) {
        f[j].v[0] = (double)p[j];
        f[j].v[1] = (double)p[j + n];
    }
}
static inline void fc_store(double *out, fc_v2 a) { out[0] = a.v[0]; out[1] = a.v[1]; }
static inline void fc_store_f(float *out, fc_v2 a) {
    out[0] = (float)a.v[0];
    out[1] = (float)a.v[1];
}
static inline void fc_store_xy(double *out, fc_v2 x, fc_v2 y) {
    out[0] = x.v[0];
    out[1] = y.v[0];
    out[2] = x.v[1];
    out[3] = y.v[1];
}
static inline void fc_store_xy_f(float *out, fc_v2 x, fc_v2 y) {
    out[0] = (float)x.v[0];
    out[1] = (float)y.v[0];
    out[2] = (float)x.v[1];
    out[3] = (float)y.v[1];
}
static inline fc_m2 fc_andnot(fc_m2 a, fc_m2 b) { fc_m2 r = {{!a.v[0] & b.v[0], !a.v[1] & b.v[1]}}; return r; }
#endif

#endif /* FASTCOL_FC_PAIRS_H */
