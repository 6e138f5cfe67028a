"""The helper threads of the batch kernels: rows handed out in blocks, hot helpers.

A call with ``workers=k`` runs its rows on the calling thread and ``k - 1`` helper
threads, started once and kept.  The rows are cut into blocks of ``grain`` rows (or
more, for very long calls) that every thread takes in turn from one atomic counter,
the calling thread included, so the work is shared however late a helper joins: a
call never waits for a sleeping helper to wake, only for the blocks in progress.

Between calls a helper spins for ``SPIN_NS`` (1 ms; the ``pause`` instruction, the
clock read every 64 turns) and then sleeps on its own lock.  Waking a sleeping
thread costs 40 to 150 us on the machines we measured (a virtual CPU has to be
rescheduled), more than a call of a few thousand contacts takes; a frame loop calls
the batch queries back to back, so the spinning helper takes the next call's blocks
within a microsecond.  Threads of the OpenMP runtimes do the same (GOMP_SPINCOUNT,
KMP_BLOCKTIME).  A call of fewer than ``WAKE_BLOCKS`` (8) blocks does not wake a
sleeping helper (the wake-up would cost more than the call); a spinning one still joins.

Every 64 turns of a wait (a helper's spin, the caller's wait for the blocks in
progress) the thread yields its CPU (``sched_yield``, ``SwitchToThread``): a woken
thread is often placed on its waker's CPU, and a caller that only spun there kept the
helper holding the last block from running until the scheduler's next tick, a
millisecond (bench/bench_workers.py).

One call at a time uses the helpers: a call that finds them busy (another Python
thread, or a free-threaded build) runs its rows on its own thread.  After ``fork`` the
child starts its own helpers when it first needs them.

The threads are daemon ``threading.Thread``s named ``fastcol-helper-N`` that never
hold the GIL after they start: they run C only, and end with the process.
"""

from cpython.pythread cimport (
    NOWAIT_LOCK,
    WAIT_LOCK,
    PyThread_acquire_lock,
    PyThread_allocate_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)

cdef extern from "fc_atomics.h":
    long long fc_load(long long* p) noexcept nogil
    void fc_store(long long* p, long long v) noexcept nogil
    long long fc_xchg(long long* p, long long v) noexcept nogil
    bint fc_cas(long long* p, long long expected, long long desired) noexcept nogil
    long long fc_add(long long* p, long long v) noexcept nogil
    void fc_pause() noexcept nogil
    void fc_yield() noexcept nogil
    long long fc_now_ns() noexcept nogil

import os
import threading


cdef enum:
    MAX_HELPERS = 255
    # the ticket: which call (GEN), its number of blocks (COUNT) and the next block to
    # take (NEXT), in one word, so that taking a block is one compare-and-swap that
    # fails for a helper still holding an earlier call's ticket
    COUNT_SHIFT = 20
    GEN_SHIFT = 40

cdef long long FIELD = (1 << 20) - 1          # NEXT and COUNT
cdef long long GEN_MASK = (1 << 23) - 1
cdef long long MAX_BLOCKS = (1 << 20) - 1
# the fewest blocks for which a call wakes a sleeping helper
cdef long long WAKE_BLOCKS = 8
# how long a helper spins for the next call before it sleeps
cdef long long SPIN_NS = 1000000


cdef struct Pool:
    long long ticket
    long long finished          # blocks of the current call done
    # the current call, written before its ticket is published
    long long fn
    long long ctx
    long long n
    long long grain
    long long helpers           # helpers 1..helpers take part (the call's slots - 1)
    long long sleeping[MAX_HELPERS]
    PyThread_type_lock wake[MAX_HELPERS]
    PyThread_type_lock busy     # held by the call using the helpers


cdef Pool P
cdef int _started = 0
P.ticket = 0
P.busy = PyThread_allocate_lock()
_start_lock = threading.Lock()


cdef inline long long _gen(long long ticket) noexcept nogil:
    return (ticket >> GEN_SHIFT) & GEN_MASK


cdef void _work(int slot, long long gen) noexcept nogil:
    # take blocks of call gen while it lasts (its fields, read first, are that call's
    # as long as a compare-and-swap on its ticket succeeds)
    cdef rows_fn fn = <rows_fn><size_t>fc_load(&P.fn)
    cdef void* ctx = <void*><size_t>fc_load(&P.ctx)
    cdef long long n = fc_load(&P.n)
    cdef long long grain = fc_load(&P.grain)
    cdef long long t, b, start, stop
    if slot > fc_load(&P.helpers):
        return  # a helper the call did not ask for
    while True:
        t = fc_load(&P.ticket)
        b = t & FIELD
        if _gen(t) != gen or b >= ((t >> COUNT_SHIFT) & FIELD):
            return
        if fc_cas(&P.ticket, t, t + 1):
            start = b * grain
            stop = min(n, start + grain)
            fn(ctx, slot, <Py_ssize_t>start, <Py_ssize_t>stop)
            fc_add(&P.finished, 1)


cdef void _helper_loop(int k, long long gen) noexcept nogil:
    # helper k (slot k + 1): spin for the next call, sleep when none comes
    cdef long long t, deadline = fc_now_ns() + SPIN_NS
    cdef int turns = 0
    while True:
        t = fc_load(&P.ticket)
        if _gen(t) != gen:
            gen = _gen(t)
            _work(k + 1, gen)
            deadline = fc_now_ns() + SPIN_NS
            continue
        turns += 1
        if turns & 63:
            fc_pause()
            continue
        if fc_now_ns() < deadline:
            # every 64 turns: a caller that shares this CPU (a woken thread is often
            # placed on its waker's) gets to run instead of waiting for the tick
            fc_yield()
            continue
        # announce the sleep, then look once more: a call that published its ticket
        # before seeing the announcement is caught here (and its wake is consumed)
        fc_store(&P.sleeping[k], 1)
        if _gen(fc_load(&P.ticket)) != gen:
            if fc_xchg(&P.sleeping[k], 0) == 0:
                PyThread_acquire_lock(P.wake[k], WAIT_LOCK)
        else:
            PyThread_acquire_lock(P.wake[k], WAIT_LOCK)
        deadline = fc_now_ns() + SPIN_NS


def _helper(int k, long long gen):
    # the body of helper thread k: C from here on, never the GIL again
    with nogil:
        _helper_loop(k, gen)


cdef int _ensure(int helpers) except -1:
    # start helpers up to ``helpers``; returns how many there are (fewer when the
    # interpreter refuses new threads, at shutdown)
    global _started
    cdef PyThread_type_lock lock
    with _start_lock:
        while _started < helpers:
            lock = PyThread_allocate_lock()
            if lock == NULL:
                break
            PyThread_acquire_lock(lock, NOWAIT_LOCK)   # held: the helper's sleep blocks
            P.wake[_started] = lock
            P.sleeping[_started] = 0
            try:
                threading.Thread(target=_helper, args=(_started, _gen(P.ticket)),
                                 name=f"fastcol-helper-{_started + 1}", daemon=True).start()
            except RuntimeError:
                break
            _started += 1
        return _started


def _after_fork_in_child():
    # the child has none of the parent's threads: start afresh (the old locks may be
    # held by threads that no longer exist, so new ones)
    global _started, _start_lock
    _started = 0
    P.busy = PyThread_allocate_lock()
    _start_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


cdef void wake_helpers(int slots) noexcept nogil:
    """Wake the sleeping helpers a call of ``slots`` threads will use.

    run_rows calls it for a call of enough blocks; a caller whose first steps run on
    one thread (the broadphase's counting sort) calls it ahead of them, so the helpers
    wake meanwhile and spin.
    """
    cdef int k
    for k in range(min(slots - 1, _started)):
        if fc_xchg(&P.sleeping[k], 0) == 1:
            PyThread_release_lock(P.wake[k])


cdef int slots_for(int workers) noexcept:
    """The threads a call with ``workers`` uses (at most 1 + MAX_HELPERS)."""
    return max(1, min(workers, MAX_HELPERS + 1))


cdef int run_rows(rows_fn fn, void* ctx, Py_ssize_t n, Py_ssize_t grain, int slots) except -1:
    """Run ``fn`` over rows ``0..n`` in blocks of ``grain`` rows or more on ``slots`` threads.

    Called with the GIL, which it releases.  ``slots`` comes from ``slots_for``; ``fn``
    is called with slots ``0 .. slots - 1`` only, each running one block at a time.
    Fewer than two blocks, one slot, or helpers busy with another call: the calling
    thread runs every row itself (slot 0).
    """
    cdef int helpers = slots - 1
    cdef int turns
    cdef long long nb, gen
    # blocks of at least grain rows, and few enough (about 16 a thread) that taking
    # them costs nothing next to the rows
    grain = max(grain, n // (16 * slots), 1)
    if helpers > 0 and n > grain:
        helpers = min(helpers, _ensure(helpers))
    if helpers <= 0 or n <= grain:
        with nogil:
            fn(ctx, 0, 0, n)
        return 0
    with nogil:
        if not PyThread_acquire_lock(P.busy, NOWAIT_LOCK):
            fn(ctx, 0, 0, n)
        else:
            if (n + grain - 1) // grain > MAX_BLOCKS:
                grain = (n + MAX_BLOCKS - 1) // MAX_BLOCKS
            nb = (n + grain - 1) // grain
            fc_store(&P.fn, <long long><size_t>fn)
            fc_store(&P.ctx, <long long><size_t>ctx)
            fc_store(&P.n, n)
            fc_store(&P.grain, grain)
            fc_store(&P.helpers, helpers)
            fc_store(&P.finished, 0)
            gen = (_gen(P.ticket) + 1) & GEN_MASK
            fc_store(&P.ticket, (gen << GEN_SHIFT) | (nb << COUNT_SHIFT))
            # a sleeping helper is woken only for a call of several blocks: waking
            # one costs tens of microseconds, more than a block or two (a spinning
            # helper joins any call)
            if nb >= WAKE_BLOCKS:
                wake_helpers(helpers + 1)
            _work(0, gen)
            # the blocks the helpers took: each is short, so spin, yielding now and
            # then so that a helper placed on this CPU can finish its block
            turns = 0
            while fc_load(&P.finished) < nb:
                turns += 1
                if turns & 63:
                    fc_pause()
                else:
                    fc_yield()
            PyThread_release_lock(P.busy)
    return 0
