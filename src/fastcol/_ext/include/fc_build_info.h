/* fastcol: the compiler, flags and SIMD lanes the extension was built with (_info.pyx).
   Included by Cython's generated C, after Python.h and Cython's own macros. */
#ifndef FASTCOL_FC_BUILD_INFO_H
#define FASTCOL_FC_BUILD_INFO_H

#if defined(_MSC_VER)
#define FASTCOL_STR2(x) #x
#define FASTCOL_STR(x) FASTCOL_STR2(x)
#define FASTCOL_COMPILER "MSVC " FASTCOL_STR(_MSC_FULL_VER)
#elif defined(__clang__)
#define FASTCOL_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define FASTCOL_COMPILER "gcc " __VERSION__
#else
#define FASTCOL_COMPILER "unknown"
#endif
#ifndef FASTCOL_BUILD_FLAGS
#define FASTCOL_BUILD_FLAGS "unknown"
#endif

#include "fc_simd.h"
#if FC_SSE2
#define FASTCOL_SIMD "SSE2, two lanes"
#else
#define FASTCOL_SIMD "none, one lane at a time"
#endif

#endif /* FASTCOL_FC_BUILD_INFO_H */
