"""What typed memoryviews would cost fastcol's array calls: a batch call's entry, three ways.

fastcol's row loops read their arrays through the buffer protocol (``Buffers`` in
``_ext/batch.pyx``: ``PyObject_GetBuffer`` into a ``Py_buffer``, a pointer, and a branch
on the item size between the float and double instances of a fused loop).  Typed
memoryviews are Cython's usual way.  This script compiles, with fastcol's flags, the
entry of ``collide(CircleArray, CircleArray)`` written each way over the same fused
loop (two float64 ``(N, 3)`` arrays in, a bool array out), and times them at N = 4
(where a call's fixed cost is what a user pays: fastcol's small-call rule) and at
larger N, next to fastcol's own call:

* ``buffer``: ``Py_buffer`` and the item-size branch (fastcol's way);
* ``memoryview``: a ``def`` that branches on the dtype and passes the arrays to a
  ``cdef`` taking ``const floating[:, ::1]`` memoryviews;
* ``fused def``: a ``def`` whose arguments are the fused memoryviews (Cython's own
  dispatch on the arguments' types).

How to run (from the repository root)::

    PYTHONPATH=src python bench/bench_buffers.py

Prints the median ns per call of each, and the difference to ``buffer`` as a
fraction of fastcol's ``collide(CircleArray, CircleArray, out=out)`` at N = 4.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import timeit
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_scalar  # noqa: E402  (the floor's builder: fastcol's flags and directives)

SOURCE = '''\
from cpython.buffer cimport PyBUF_ANY_CONTIGUOUS, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cython cimport floating


cdef void _rows(const floating* a, const floating* b, unsigned char* hit, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef double dx, dy, s
    for i in range(n):
        dx = <double>b[3 * i] - <double>a[3 * i]
        dy = <double>b[3 * i + 1] - <double>a[3 * i + 1]
        s = <double>a[3 * i + 2] + <double>b[3 * i + 2]
        hit[i] = dx * dx + dy * dy <= s * s


def by_buffer(a, b, out):
    cdef Py_buffer va, vb, vo
    PyObject_GetBuffer(a, &va, PyBUF_ANY_CONTIGUOUS)
    PyObject_GetBuffer(b, &vb, PyBUF_ANY_CONTIGUOUS)
    PyObject_GetBuffer(out, &vo, PyBUF_ANY_CONTIGUOUS | PyBUF_WRITABLE)
    cdef Py_ssize_t n = vo.len
    if va.itemsize == 4:
        _rows[float](<const float*>va.buf, <const float*>vb.buf, <unsigned char*>vo.buf, n)
    else:
        _rows[double](<const double*>va.buf, <const double*>vb.buf, <unsigned char*>vo.buf, n)
    PyBuffer_Release(&va)
    PyBuffer_Release(&vb)
    PyBuffer_Release(&vo)
    return out


cdef void _views(const floating[:, ::1] a, const floating[:, ::1] b, unsigned char[::1] out):
    _rows(&a[0, 0], &b[0, 0], &out[0], out.shape[0])


def by_memoryview(a, b, out):
    if a.dtype.itemsize == 4:
        _views[float](a, b, out)
    else:
        _views[double](a, b, out)
    return out


def by_fused_def(const floating[:, ::1] a, const floating[:, ::1] b, unsigned char[::1] out):
    _rows(&a[0, 0], &b[0, 0], &out[0], out.shape[0])
    return out
'''


def load():
    name = bench_scalar.floor_module_name(SOURCE, prefix="_fastcol_buffers_")
    directory = bench_scalar.floor_build_dir()
    path = bench_scalar.find_extension(directory, name)
    if path is None:
        bench_scalar.build_floor(directory, name, SOURCE)
        path = bench_scalar.find_extension(directory, name)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ns_per_call(f, args, repeat=9, target_s=0.05):
    timer = timeit.Timer(lambda: f(*args))
    number = max(1, int(target_s / max(timer.timeit(100) / 100, 1e-9)))
    return statistics.median(timer.timeit(number) / number for _ in range(repeat)) * 1e9


def main() -> int:
    from fastcol._api import load as load_api

    fc = load_api("compiled")
    mod = load()
    rng = np.random.default_rng(1)
    print("| N | buffer (fastcol's way) | memoryview | fused def | fastcol collide(out=) |")
    print("|--:|--:|--:|--:|--:|")
    small = None
    for n in (4, 64, 4096):
        a = np.column_stack([rng.uniform(0, 10, (n, 2)), rng.uniform(0.1, 1, n)])
        b = np.column_stack([rng.uniform(0, 10, (n, 2)), rng.uniform(0.1, 1, n)])
        out = np.empty(n, dtype=bool)
        ca, cb = fc.CircleArray(a), fc.CircleArray(b)
        times = [ns_per_call(f, (a, b, out))
                 for f in (mod.by_buffer, mod.by_memoryview, mod.by_fused_def)]
        ours = ns_per_call(lambda x, y, o: fc.collide(x, y, out=o), (ca, cb, out))
        assert (mod.by_memoryview(a, b, out.copy()) == mod.by_buffer(a, b, out.copy())).all()
        print(f"| {n:,} | " + " | ".join(f"{t:,.0f}" for t in times) + f" | {ours:,.0f} |")
        if n == 4:
            small = times, ours
    times, ours = small
    print()
    for label, t in zip(("memoryview", "fused def"), times[1:]):
        print(f"{label}: {t - times[0]:+,.0f} ns a call at N = 4 against the buffer way, "
              f"{(t - times[0]) / ours:+.0%} of fastcol's collide(out=) call ({ours:,.0f} ns)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
