"""Argument handling of the batch queries, shared by both backends.

A batch query takes a shape and an array, an array and a shape, or two arrays of one
length, and answers row by row.  This module checks the operands, the ``out=`` and
``workers=`` arguments, and picks the result precision, so both backends raise the same
errors before any kernel runs.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from ._arrays import PolygonArray, ShapeArray, as_float_array
from ._validate import SHAPE_NAMES

FLOAT32 = np.dtype(np.float32)
FLOAT64 = np.dtype(np.float64)
_ARRAY_TYPES = (ShapeArray, PolygonArray)
ARRAY_NAMES = "CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray or PolygonArray"


def is_array(x) -> bool:
    return isinstance(x, _ARRAY_TYPES)


def operand_error(value, name) -> TypeError:
    return TypeError(
        f"{name} must be a shape ({SHAPE_NAMES}) or a shape array ({ARRAY_NAMES}), "
        f"not {type(value).__name__}"
    )


def pair(a, b, shape_type):
    """``(n, dtype)`` of a batch pair: its length and the result precision.

    At least one of ``a`` and ``b`` is a shape array; the other is an array of the same
    length or a shape of the backend (``shape_type`` is its base class).  The result
    is float32 only when every array is float32 (a shape's fields, Python floats, do
    not widen it, as NumPy treats Python scalars).
    """
    a_rows = isinstance(a, _ARRAY_TYPES)
    b_rows = isinstance(b, _ARRAY_TYPES)
    if not (a_rows or isinstance(a, shape_type)):
        raise operand_error(a, "a")
    if not (b_rows or isinstance(b, shape_type)):
        raise operand_error(b, "b")
    if a_rows and b_rows:
        if len(a) != len(b):
            raise ValueError(f"a and b must have the same length, got {len(a)} and {len(b)}")
        wide = a.dtype != FLOAT32 or b.dtype != FLOAT32
        return len(a), FLOAT64 if wide else FLOAT32
    x = a if a_rows else b
    return len(x), FLOAT64 if x.dtype != FLOAT32 else FLOAT32


def check_out(out, n, dtype, name="out"):
    """``out`` if it can take an ``(n,)`` result of ``dtype``, else a new array."""
    if out is None:
        return np.empty(n, dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name} must be a NumPy array, not {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"{name} must have dtype {dtype}, got {out.dtype}")
    if out.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {out.shape}")
    if not out.flags.writeable:
        raise ValueError(f"{name} must be writeable")
    if not out.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    return out


def check_workers(workers) -> int:
    """The number of threads: ``workers`` itself, or every core for ``-1``."""
    if isinstance(workers, (bool, np.bool_)) or not isinstance(workers, (int, np.integer)):
        raise TypeError(f"workers must be an integer, not {type(workers).__name__}")
    if workers == -1:
        return os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers must be >= 1 or -1 (every core), got {workers}")
    return int(workers)


def no_out_for_shapes(out, workers):
    """``out`` and ``workers`` belong to batch calls: refuse them for two shapes."""
    if out is not None:
        raise TypeError("out is only accepted when a or b is a shape array")
    check_workers(workers)


# below this many rows per thread, starting threads costs more than it saves
MIN_ROWS_PER_WORKER = 2048


_POOL = None
_POOL_SIZE = 0
_POOL_LOCK = threading.Lock()


def _pool(size):
    """A thread pool of at least ``size`` threads, kept between calls.

    Starting threads costs about a quarter of a millisecond, more than a batch of a
    few thousand rows takes; the pool is made once and grown when a call wants more.
    """
    global _POOL, _POOL_SIZE
    with _POOL_LOCK:
        if _POOL is None or _POOL_SIZE < size:
            from concurrent.futures import ThreadPoolExecutor

            old = _POOL
            _POOL = ThreadPoolExecutor(max_workers=size, thread_name_prefix="fastcol")
            _POOL_SIZE = size
            if old is not None:
                old.shutdown(wait=False)
        return _POOL


def run(chunk, n, workers):
    """Call ``chunk(start, stop)`` over rows ``0..n``, split over ``workers`` threads.

    Each chunk runs a GIL-free loop, so the threads run in parallel: the calling thread
    takes the first chunk and pooled threads the others.  One worker (or a short
    batch) runs in the calling thread alone.
    """
    workers = max(1, min(workers, n // MIN_ROWS_PER_WORKER))
    if workers == 1:
        chunk(0, n)
        return
    bounds = [n * k // workers for k in range(workers + 1)]
    pool = _pool(workers - 1)
    futures = [pool.submit(chunk, bounds[k], bounds[k + 1]) for k in range(1, workers)]
    try:
        chunk(bounds[0], bounds[1])
    finally:
        for f in futures:
            f.result()


# ------------------------------------------------------------------ point arrays


def has_rows(*values) -> bool:
    """Whether any argument is an ``(N, 2)`` array (a batch primitive call)."""
    for v in values:
        if isinstance(v, np.ndarray) and v.ndim == 2:
            return True
    return False


def point_args(values, names):
    """``(arrays, n, dtype)`` of the point arguments of a batch primitive call.

    Each argument is an ``(N, 2)`` array or one point ``(x, y)``, which stands for every
    row.  ``arrays[k]`` is a C-contiguous float64 ``(N, 2)`` or ``(1, 2)`` array (points
    keep their exact float64 values; float32 arrays are widened exactly); ``dtype`` is
    float32 only when every array argument is float32, the precision of the results.
    """
    from ._validate import as_point

    arrays = []
    n = None
    first = None
    wide = False
    for v, name in zip(values, names):
        if isinstance(v, np.ndarray) and v.ndim == 2:
            arr = as_float_array(v, 2, 2, name)
            if n is not None and len(arr) != n:
                raise ValueError(
                    f"{first} and {name} must have the same length, got {n} and {len(arr)}"
                )
            n, first = len(arr), first or name
            wide = wide or arr.dtype != FLOAT32
            arrays.append(np.ascontiguousarray(arr, dtype=np.float64))
        else:
            arrays.append(np.array([as_point(v, name)], dtype=np.float64))
    return arrays, n, FLOAT64 if wide else FLOAT32
