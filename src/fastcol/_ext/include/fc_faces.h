/* fastcol: faces against points two at a time in SIMD lanes, with a scalar fallback (contacts.pyx).
   Included by Cython's generated C, after Python.h and Cython's own macros. */
#ifndef FASTCOL_FC_FACES_H
#define FASTCOL_FC_FACES_H

/* fc_faces_paired: the faces of a ring s against the points of a core o, two
   faces at a time in the two lanes of a SIMD register.  Face k runs from s's
   vertex k to k + 1 (local: (xs[k] - ox, ys[k] - oy)); for it, top[k] is
   edge_reach's largest cross product ex * (y - y0) - ey * (x - x0) over o's m
   local points, each lane running edge_reach's own loop for one face (the same
   products in the same order; MAXPD's rule, a > b ? a : b, is edge_reach's step
   c > top ? c : top, NaN and signed zeros included); len[k] is the edge's length
   sqrt(ex * ex + ey * ey) and dep[k] = rr + top[k] / len[k] (whatever len[k] is:
   callers skip zero lengths).  Every value is
   the scalar expression's, rounded alike (IEEE operations, no contraction).  An
   odd ring's last face is paired with a copy of face 0.  The vertices are read
   from the shapes' own arrays, not from a copy just written: a 16-byte load of
   two 8-byte stores cannot be forwarded, and stalls.  n: 3 to FC_PAIRED points;
   m: 1 to FC_PAIRED points; ex, ey, top, len, dep: n + 1 slots. */
#define FC_PAIRED 8
/* SSE2 lanes where fc_simd.h says so; elsewhere the same values one face at a time */
#include "fc_simd.h"
#if FC_SSE2
#include <emmintrin.h>
static void fc_faces_paired(const double *xs, const double *ys, double ox, double oy,
                            int n, const double *qxs, const double *qys, double qox,
                            double qoy, int m, double rr, double *ex, double *ey,
                            double *top, double *len, double *dep) {
    int k, i, a, b, c;
    __m128d px[FC_PAIRED], py[FC_PAIRED];
    __m128d vox = _mm_set1_pd(ox), voy = _mm_set1_pd(oy);
    __m128d x0, y0, vx, vy, t, d, l;
    for (i = 0; i < m; i++) {
        px[i] = _mm_set1_pd(qxs[i] - qox);
        py[i] = _mm_set1_pd(qys[i] - qoy);
    }
    for (k = 0; k < n; k += 2) {
        /* faces k and k + 1 (a copy of face 0 past the end): vertices k, a, b */
        a = k + 1 < n ? k + 1 : 0;
        b = a + 1 < n ? a + 1 : 0;
        c = k + 1 < n ? a : 0;
        x0 = _mm_sub_pd(_mm_set_pd(xs[c], xs[k]), vox);
        y0 = _mm_sub_pd(_mm_set_pd(ys[c], ys[k]), voy);
        vx = _mm_sub_pd(_mm_sub_pd(_mm_set_pd(xs[b], xs[a]), vox), x0);
        vy = _mm_sub_pd(_mm_sub_pd(_mm_set_pd(ys[b], ys[a]), voy), y0);
        t = _mm_sub_pd(_mm_mul_pd(vx, _mm_sub_pd(py[0], y0)),
                       _mm_mul_pd(vy, _mm_sub_pd(px[0], x0)));
        for (i = 1; i < m; i++) {
            d = _mm_sub_pd(_mm_mul_pd(vx, _mm_sub_pd(py[i], y0)),
                           _mm_mul_pd(vy, _mm_sub_pd(px[i], x0)));
            t = _mm_max_pd(d, t);
        }
        l = _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(vx, vx), _mm_mul_pd(vy, vy)));
        _mm_storeu_pd(ex + k, vx);
        _mm_storeu_pd(ey + k, vy);
        _mm_storeu_pd(top + k, t);
        _mm_storeu_pd(len + k, l);
        _mm_storeu_pd(dep + k, _mm_add_pd(_mm_set1_pd(rr), _mm_div_pd(t, l)));
    }
}
#else
/* elsewhere the same values one face at a time (edge_reach's loop) */
#include <math.h>
static void fc_faces_paired(const double *xs, const double *ys, double ox, double oy,
                            int n, const double *qxs, const double *qys, double qox,
                            double qoy, int m, double rr, double *ex, double *ey,
                            double *top, double *len, double *dep) {
    int k, i, j;
    double x0, y0, vx, vy, t, d;
    for (k = 0; k < n; k++) {
        j = k + 1 < n ? k + 1 : 0;
        x0 = xs[k] - ox;
        y0 = ys[k] - oy;
        vx = (xs[j] - ox) - x0;
        vy = (ys[j] - oy) - y0;
        t = vx * ((qys[0] - qoy) - y0) - vy * ((qxs[0] - qox) - x0);
        for (i = 1; i < m; i++) {
            d = vx * ((qys[i] - qoy) - y0) - vy * ((qxs[i] - qox) - x0);
            if (d > t)
                t = d;
        }
        ex[k] = vx;
        ey[k] = vy;
        top[k] = t;
        len[k] = sqrt(vx * vx + vy * vy);
        dep[k] = rr + t / len[k];
    }
}
#endif

#endif /* FASTCOL_FC_FACES_H */
