/* fastcol: atomics, a spin-wait hint and a clock for the worker pool (pool.pyx).
   Included by Cython's generated C, after Python.h and Cython's own macros. */
#ifndef FASTCOL_FC_ATOMICS_H
#define FASTCOL_FC_ATOMICS_H

/* sequentially consistent atomics on 64-bit words, a spin-wait hint, a clock */
#if defined(_MSC_VER)
#include <intrin.h>
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
/* x64 loads are acquire loads; the compiler barrier keeps them in place, and
   every store below is a locked instruction (a full barrier) */
static __inline long long fc_load(long long* p) {
    long long v = *(volatile long long*)p;
    _ReadWriteBarrier();
    return v;
}
static __inline void fc_store(long long* p, long long v) {
    _InterlockedExchange64((volatile long long*)p, v);
}
static __inline long long fc_xchg(long long* p, long long v) {
    return _InterlockedExchange64((volatile long long*)p, v);
}
static __inline int fc_cas(long long* p, long long expected, long long desired) {
    return _InterlockedCompareExchange64((volatile long long*)p, desired, expected)
        == expected;
}
static __inline long long fc_add(long long* p, long long v) {
    return _InterlockedExchangeAdd64((volatile long long*)p, v) + v;
}
#else
static inline long long fc_load(long long* p) {
    return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}
static inline void fc_store(long long* p, long long v) {
    __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
static inline long long fc_xchg(long long* p, long long v) {
    return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
static inline int fc_cas(long long* p, long long expected, long long desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST);
}
static inline long long fc_add(long long* p, long long v) {
    return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST);
}
#endif

#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#define fc_pause() _mm_pause()
#elif defined(_MSC_VER) && defined(_M_ARM64)
#define fc_pause() __yield()
#elif defined(__x86_64__) || defined(__i386__)
#define fc_pause() __builtin_ia32_pause()
#elif defined(__aarch64__) || defined(__arm__)
#define fc_pause() __asm__ __volatile__("yield")
#else
#define fc_pause() ((void)0)
#endif

/* give the CPU to another runnable thread on it, if any */
#if defined(_WIN32)
#define fc_yield() ((void)SwitchToThread())
#else
#include <sched.h>
#define fc_yield() ((void)sched_yield())
#endif

#if defined(_WIN32)
static long long fc_now_ns(void) {
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (long long)((double)c.QuadPart * (1e9 / (double)f.QuadPart));
}
#else
#include <time.h>
static long long fc_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + (long long)ts.tv_nsec;
}
#endif

#endif /* FASTCOL_FC_ATOMICS_H */
