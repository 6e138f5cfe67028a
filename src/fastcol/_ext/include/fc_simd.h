/* fastcol: whether the SIMD headers (fc_faces.h, fc_pairs.h) use SSE2 lanes, once.
   SSE2 is part of x86-64; elsewhere, and with CFLAGS=-DFASTCOL_NO_SIMD (which tests
   that path on x86-64: .ci/run builds and tests such a wheel), the same values come
   one lane at a time.  `python -m fastcol info` says which (fc_build_info.h). */
#ifndef FASTCOL_FC_SIMD_H
#define FASTCOL_FC_SIMD_H

#if (defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)) \
    && !defined(FASTCOL_NO_SIMD)
#define FC_SSE2 1
#else
#define FC_SSE2 0
#endif

#endif /* FASTCOL_FC_SIMD_H */
