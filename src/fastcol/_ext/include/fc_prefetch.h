/* fastcol: a prefetch hint where the compiler has one (broadphase.pyx).
   Included by Cython's generated C, after Python.h and Cython's own macros. */
#ifndef FASTCOL_FC_PREFETCH_H
#define FASTCOL_FC_PREFETCH_H

#if defined(__GNUC__) || defined(__clang__)
#define FC_PREFETCH(p) __builtin_prefetch(p)
#else
#define FC_PREFETCH(p) ((void)0)
#endif

#endif /* FASTCOL_FC_PREFETCH_H */
