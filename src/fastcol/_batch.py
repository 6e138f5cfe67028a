"""Argument handling of the batch queries, shared by both backends.

A batch query takes a shape and an array, an array and a shape, or two arrays of one
length, and answers row by row.  This module checks the operands, the ``out=`` and
``workers=`` arguments, and picks the result precision, so both backends raise the same
errors before any kernel runs.
"""

from __future__ import annotations

import math
import os
from typing import NamedTuple

import numpy as np

from ._arrays import PolygonArray, ShapeArray, as_float_array
from ._validate import SHAPE_NAMES, as_real, type_name

FLOAT32 = np.dtype(np.float32)
FLOAT64 = np.dtype(np.float64)
_ARRAY_TYPES = (ShapeArray, PolygonArray)
ARRAY_NAMES = "CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray or PolygonArray"


def is_array(x) -> bool:
    return isinstance(x, _ARRAY_TYPES)


def operand_error(value, name) -> TypeError:
    return TypeError(
        f"{name} must be a shape ({SHAPE_NAMES}) or a shape array ({ARRAY_NAMES}), "
        f"not {type_name(value)}"
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


def index_pairs(a, b, pairs, shape_type):
    """``(pairs, dtype)`` of a call with ``pairs=``: the index pairs as a C-contiguous
    ``int64[M, 2]`` copy of the call's own, and the result precision.

    ``a`` and ``b`` must both be shape arrays (of any lengths); ``pairs`` an integer
    array of shape ``(M, 2)``.  Whether each index lies in range is checked by the
    caller (``pairs_range_error`` gives the message), before any kernel runs.  The copy
    is what the caller checks and reads: another thread may write the caller's pairs
    meanwhile (the compiled kernels run without the GIL), and a pair written out of
    range must never be read.
    """
    for value, name in ((a, "a"), (b, "b")):
        if not isinstance(value, _ARRAY_TYPES):
            if not isinstance(value, shape_type):
                raise operand_error(value, name)
            raise TypeError(f"pairs needs two shape arrays, but {name} is a single shape")
    wide = a.dtype != FLOAT32 or b.dtype != FLOAT32
    precision = FLOAT64 if wide else FLOAT32
    if (type(pairs) is np.ndarray and pairs.dtype == np.int64 and pairs.ndim == 2
            and pairs.shape[1] == 2 and pairs.flags.c_contiguous):
        # the common call (a slice of overlapping_pairs's result): a plain copy
        return pairs.copy(), precision
    if isinstance(pairs, (bool, np.bool_)) or not hasattr(pairs, "__len__"):
        raise TypeError(f"pairs must be an integer array of shape (M, 2), "
                        f"not {type(pairs).__name__}")
    arr = np.asarray(pairs)
    if arr.shape == (0,):
        # [], no pairs (NumPy reads an empty list as float64)
        arr = np.empty((0, 2), dtype=np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"pairs must hold integers, not {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"pairs must have shape (M, 2), got {arr.shape}")
    if arr.dtype.kind == "u":
        # checked before the conversion: a uint64 beyond int64 would wrap round
        k = first_pair_out_of_range(arr, len(a), len(b))
        if k >= 0:
            raise pairs_range_error(k, arr, len(a), len(b))
    return np.array(arr, dtype=np.int64, order="C"), precision


def pairs_range_error(k, pairs, na, nb) -> ValueError:
    """The error for ``pairs[k]``, the first pair with an index out of range."""
    i, j = (int(v) for v in pairs[k])
    return ValueError(f"pairs[{k}] = ({i}, {j}) is out of range for a of {na} "
                      f"and b of {nb} shapes")


def first_pair_out_of_range(pairs, na, nb) -> int:
    """The row of the first pair with an index outside ``0..na-1`` or ``0..nb-1``, or -1."""
    bad = (pairs[:, 0] < 0) | (pairs[:, 0] >= na) | (pairs[:, 1] < 0) | (pairs[:, 1] >= nb)
    return int(np.argmax(bad)) if bad.any() else -1


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


def density_arg(density, n):
    """``density`` of ``mass_properties`` over ``n`` rows: a C-contiguous float64 array
    of one value or ``n``; every value finite and >= 0, else a ValueError naming it."""
    if isinstance(density, np.ndarray) and density.ndim > 0:
        if density.dtype.kind not in "fiu":
            raise TypeError(f"density must hold real numbers, not {density.dtype}")
        if density.shape != (n,):
            raise ValueError(f"density must be a number or have shape ({n},), got {density.shape}")
        values = np.ascontiguousarray(density, dtype=np.float64)
        bad = ~(np.isfinite(values) & (values >= 0.0))
        if bad.any():
            k = int(np.argmax(bad))
            raise ValueError(f"density[{k}] must be finite and >= 0, got {values[k]!r}")
        return values
    return np.array([as_density(density)])


def as_density(density) -> float:
    """A scalar ``density``: a finite float >= 0, else TypeError/ValueError naming it."""
    value = as_real(density, "density")
    if not (math.isfinite(value) and value >= 0.0):
        raise ValueError(f"density must be finite and >= 0, got {value!r}")
    return value


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


# ------------------------------------------------- contacts, rays and sweeps


class ContactArray(NamedTuple):
    """The contacts of a batch of pairs, one row per pair (``contact`` over arrays).

    ``hit[i]`` is ``collide(a[i], b[i])``.  Where it is True the row holds the scalar
    ``Contact``: ``normal[i]`` (unit, from a towards b), ``depth[i]``, ``count[i]``
    (1 or 2) points in ``points[i, :count[i]]`` (an unused second point is zeros).
    Rows without a hit hold zeros everywhere, so ``normal * depth[:, None]`` moves
    nothing there.  Unpacks like a tuple: ``hit, normal, depth, points, count = c``.

    Examples
    --------
    >>> import fastcol as fc
    >>> c = fc.contact(fc.CircleArray([[0, 0, 1], [0, 0, 1]]), fc.Circle(1.5, 0, 1))
    >>> c.hit, c.count
    (array([ True,  True]), array([1, 1]))
    >>> c.normal[0], c.depth, c.points[0, 0]
    (array([1., 0.]), array([0.5, 0.5]), array([0.75, 0.  ]))
    """

    hit: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    points: np.ndarray
    count: np.ndarray


class RayHitArray(NamedTuple):
    """The hits of a batch of rays, one row per ray (``raycast`` over arrays).

    Where ``hit[i]`` is True the row holds the scalar ``RayHit`` (``t``, ``point``,
    ``normal``; an origin inside the shape gives ``t == 0`` and a zero normal).  Rows
    without a hit hold ``t = inf`` and zero point and normal.

    Examples
    --------
    >>> import fastcol as fc, numpy as np
    >>> h = fc.raycast(fc.Circle(5, 0, 1), np.array([[0.0, 0.0], [0.0, 5.0]]), (1, 0))
    >>> h.hit, h.t
    (array([ True, False]), array([ 4., inf]))
    >>> h.point[0], h.normal[0]
    (array([4., 0.]), array([-1.,  0.]))
    """

    hit: np.ndarray
    t: np.ndarray
    point: np.ndarray
    normal: np.ndarray


class CastHitArray(NamedTuple):
    """The shape casts of a batch, one row per pair (``shape_cast`` over arrays).

    Where ``hit[i]`` is True the row holds the scalar ``CastHit`` (``t``, ``point``,
    ``normal``).  Rows without a hit (and rows that are no shape, a velocity that is
    not finite, a negative or NaN ``max_t``) hold ``t = inf`` and zero point and
    normal, as in ``RayHitArray``.

    Examples
    --------
    >>> import fastcol as fc, numpy as np
    >>> h = fc.shape_cast(fc.Circle(0, 0, 1), (1, 0),
    ...                   fc.CircleArray([[10, 0, 1], [0, 5, 1]]), (-1, 0), max_t=10)
    >>> h.hit, h.t
    (array([ True, False]), array([ 4., inf]))
    >>> h.point[0], h.normal[0]
    (array([5., 0.]), array([1., 0.]))
    """

    hit: np.ndarray
    t: np.ndarray
    point: np.ndarray
    normal: np.ndarray


class PointQueryArray(NamedTuple):
    """The point queries of a batch, one row per point (``point_query`` over arrays).

    Row i holds the scalar ``PointQuery``: ``point[i]`` on the shape's boundary,
    ``distance[i]`` (negative inside, 0.0 on the boundary) and the unit outward
    ``normal[i]``.  A row whose shape is no shape, or whose point is not finite, is
    NaN throughout.

    Examples
    --------
    >>> import fastcol as fc, numpy as np
    >>> q = fc.point_query(fc.Circle(0, 0, 1), np.array([[3.0, 0.0], [0.0, 0.5]]))
    >>> q.distance
    array([ 2. , -0.5])
    >>> q.point[1], q.normal[1]
    (array([0., 1.]), array([0., 1.]))
    """

    point: np.ndarray
    distance: np.ndarray
    normal: np.ndarray


def contact_result(n, dtype):
    """A ContactArray of ``n`` rows, all zeros (no hit), to be filled row by row."""
    return ContactArray(
        np.zeros(n, dtype=bool),
        np.zeros((n, 2), dtype=dtype),
        np.zeros(n, dtype=dtype),
        np.zeros((n, 2, 2), dtype=dtype),
        np.zeros(n, dtype=np.int64),
    )


def rayhit_result(n, dtype):
    """A RayHitArray of ``n`` rows, all "no hit", to be filled row by row."""
    return RayHitArray(
        np.zeros(n, dtype=bool),
        np.full(n, np.inf, dtype=dtype),
        np.zeros((n, 2), dtype=dtype),
        np.zeros((n, 2), dtype=dtype),
    )


def casthit_result(n, dtype):
    """A CastHitArray of ``n`` rows, all "no hit", to be filled row by row."""
    return CastHitArray(*rayhit_result(n, dtype))


def _vector(value, name, lengths, dtypes, check):
    """One vector argument: an ``(N, 2)`` array of rows or one ``(x, y)``.

    Returns a C-contiguous float64 ``(N, 2)`` or ``(1, 2)`` array (float32 rows are
    widened exactly).  Rows are data and are not checked (a row that is no vector gives
    no hit); a single vector is a plain argument and is checked by ``check``.
    """
    if isinstance(value, np.ndarray) and value.ndim == 2:
        arr = as_float_array(value, 2, 2, name)
        lengths.append((name, len(arr)))
        dtypes.append(arr.dtype)
        return np.ascontiguousarray(arr, dtype=np.float64)
    return np.array([check(value, name)], dtype=np.float64)


def _limit(value, name, lengths, dtypes):
    """``max_t``: an ``(N,)`` array of rows, or one limit (checked: >= 0, inf allowed)."""
    from ._validate import as_limit

    if isinstance(value, np.ndarray) and value.ndim >= 1:
        arr = as_float_array(value, 1, None, name)
        lengths.append((name, len(arr)))
        dtypes.append(arr.dtype)
        return np.ascontiguousarray(arr, dtype=np.float64)
    return np.array([as_limit(value, name)], dtype=np.float64)


def _operand(value, name, lengths, dtypes, shape_type):
    if isinstance(value, _ARRAY_TYPES):
        lengths.append((name, len(value)))
        dtypes.append(value.dtype)
    elif not isinstance(value, shape_type):
        raise operand_error(value, name)


def _length(lengths):
    """The common length of the array arguments (ValueError naming two that differ)."""
    first, n = lengths[0]
    for name, m in lengths[1:]:
        if m != n:
            raise ValueError(f"{first} and {name} must have the same length, got {n} and {m}")
    return n


def _precision(dtypes):
    return FLOAT32 if all(d == FLOAT32 for d in dtypes) else FLOAT64


def is_ray_batch(shape, origin, direction, max_t) -> bool:
    """Whether a raycast call involves arrays (a shape array or rows of rays)."""
    return (isinstance(shape, _ARRAY_TYPES) or has_rows(origin, direction)
            or (isinstance(max_t, np.ndarray) and max_t.ndim >= 1))


def ray_args(shape, origins, directions, max_t, shape_type):
    """``(n, dtype, origins, directions, limits)`` of a batch raycast.

    ``origins`` and ``directions`` come back as float64 ``(N, 2)`` or ``(1, 2)`` arrays
    and ``limits`` as float64 ``(N,)`` or ``(1,)`` (a single value stands for every
    row).  The result is float32 only when every array argument is float32.
    """
    from ._validate import as_direction, as_point

    lengths, dtypes = [], []
    _operand(shape, "shape", lengths, dtypes, shape_type)
    o = _vector(origins, "origin", lengths, dtypes, as_point)
    d = _vector(directions, "direction", lengths, dtypes, as_direction)
    t = _limit(max_t, "max_t", lengths, dtypes)
    return _length(lengths), _precision(dtypes), o, d, t


def is_sweep_batch(a, velocity_a, b, velocity_b, max_t) -> bool:
    """Whether a time_of_impact (or shape_cast) call involves arrays."""
    return (isinstance(a, _ARRAY_TYPES) or isinstance(b, _ARRAY_TYPES)
            or has_rows(velocity_a, velocity_b)
            or (isinstance(max_t, np.ndarray) and max_t.ndim >= 1))


def sweep_args(a, velocity_a, b, velocity_b, max_t, shape_type):
    """``(n, dtype, velocity_a, velocity_b, limits)`` of a batch time_of_impact (or
    shape_cast)."""
    from ._validate import as_point

    lengths, dtypes = [], []
    _operand(a, "a", lengths, dtypes, shape_type)
    va = _vector(velocity_a, "velocity_a", lengths, dtypes, as_point)
    _operand(b, "b", lengths, dtypes, shape_type)
    vb = _vector(velocity_b, "velocity_b", lengths, dtypes, as_point)
    t = _limit(max_t, "max_t", lengths, dtypes)
    return _length(lengths), _precision(dtypes), va, vb, t


def pointquery_result(n, dtype):
    """A PointQueryArray of ``n`` rows, to be filled row by row."""
    return PointQueryArray(
        np.empty((n, 2), dtype=dtype),
        np.empty(n, dtype=dtype),
        np.empty((n, 2), dtype=dtype),
    )


def is_point_batch(shape, point) -> bool:
    """Whether a point_query or contains call involves arrays (a shape array or rows of
    points)."""
    return isinstance(shape, _ARRAY_TYPES) or has_rows(point)


def point_query_args(shape, point, shape_type):
    """``(n, dtype, points)`` of a batch point_query or contains: ``points`` a float64
    ``(N, 2)`` or ``(1, 2)`` array (one point standing for every row, checked: finite).
    The result is float32 only when every array argument is float32."""
    from ._validate import as_point

    lengths, dtypes = [], []
    _operand(shape, "shape", lengths, dtypes, shape_type)
    p = _vector(point, "point", lengths, dtypes, as_point)
    return _length(lengths), _precision(dtypes), p
