"""Argument handling of rotation and translation, shared by both backends.

The scalar ``rotated`` methods check ``angle`` and ``about`` here; ``fc.rotate`` and
``fc.translate`` check their shape array, ``angle``, ``about``, ``offset`` and ``out``
here, so both backends raise the same errors before any row is read.  A rotated
polygon's ring is normalised here too (one implementation, the same vertices).
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

import numpy as np

from . import _polygon
from ._arrays import (
    AABBArray,
    CapsuleArray,
    CircleArray,
    OBBArray,
    PolygonArray,
    SegmentArray,
    as_float_array,
)
from ._batch import is_array
from ._validate import as_finite, as_point, shape_array_error, type_name

# an OBB's angle after a turn is remainder(angle + turn, TAU): IEEE remainder, exact,
# in [-pi, pi], so a box spun every frame for hours keeps its angle's digits
TAU = 2.0 * math.pi

# the shared base class of each kind's array, by kind code
_BASES = (CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray, PolygonArray)


def as_rotation(angle: Any, about: Any) -> tuple[float, tuple[float, float] | None]:
    """``(angle, about)`` of a scalar ``rotated``: a finite angle, and None or a finite
    point (TypeError for a non-number, ValueError for a non-finite one, naming it)."""
    angle = as_finite(angle, "angle")
    if about is not None:
        about = as_point(about, "about")
    return angle, about


def rotated_ring(xs, ys):
    """``(xs, ys)`` of a turned polygon's vertices as ``Polygon`` stores them.

    Normalised (counter-clockwise from the smallest vertex, collinear vertices
    dropped); should rounding have left the turned ring not strictly convex (a nearly
    collinear input), its convex hull.
    """
    points = list(zip(xs, ys))
    try:
        return _polygon.normalize(points)
    except ValueError:
        return _polygon.normalize(_polygon.hull(points))


# ------------------------------------------------------------------ shape arrays


def _array(shapes: Any) -> Any:
    if not is_array(shapes):
        raise shape_array_error(shapes, "shapes")
    return shapes


def _scalar(value: Any) -> bool:
    """Whether ``value`` is one number (a 0-d array counts), not rows."""
    return isinstance(value, Real) or (isinstance(value, np.ndarray) and value.ndim == 0)


def _angles(angle: Any, n: int) -> tuple[np.ndarray | None, float]:
    """``(rows, angle)``: a float64 ``(N,)`` array of angles and NaN, or None and one
    finite angle (checked: it is a plain argument)."""
    if _scalar(angle):
        return None, as_finite(float(angle) if isinstance(angle, np.ndarray) else angle,
                               "angle")
    if angle is None or isinstance(angle, (str, bytes)):
        raise TypeError(f"angle must be a number or an (N,) array, not {type_name(angle)}")
    arr = as_float_array(angle, 1, None, "angle", axes="N")
    if len(arr) != n:
        raise ValueError(f"angle must have shape ({n},) like shapes, got {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.float64), math.nan


def _points(value: Any, n: int, name: str) -> np.ndarray:
    """A float64 ``(N, 2)`` array of rows, or ``(1, 2)`` for one finite point (checked)."""
    if isinstance(value, np.ndarray) and value.ndim == 2:
        arr = as_float_array(value, 2, 2, name)
        if len(arr) != n:
            raise ValueError(f"{name} must have shape ({n}, 2) like shapes, got {arr.shape}")
        return np.ascontiguousarray(arr, dtype=np.float64)
    return np.array([as_point(value, name)], dtype=np.float64)


def _out(out: Any, shapes: Any, kind: int) -> Any:
    """``out`` if it can take the result (an array of the result's class, length, dtype
    and padded size, writeable), else TypeError or ValueError naming it."""
    base = _BASES[kind]
    if not isinstance(out, base):
        raise TypeError(f"out must be an {base.__name__} (the result of this call), "
                        f"not {type_name(out)}")
    if len(out) != len(shapes):
        raise ValueError(f"out must have {len(shapes)} rows like shapes, got {len(out)}")
    if out.dtype != shapes.dtype:
        raise TypeError(f"out must have dtype {shapes.dtype} like shapes, got {out.dtype}")
    data = out.vertices if kind == PolygonArray.kind else out.data
    if kind == PolygonArray.kind:
        if data.shape[1] != shapes.vertices.shape[1]:
            raise ValueError(f"out must have the padded size {shapes.vertices.shape[1]} "
                             f"of shapes, got {data.shape[1]}")
        if (out is not shapes and not out.counts.flags.writeable
                and not np.array_equal(out.counts, shapes.counts)):
            raise ValueError("out must be writeable (its counts receive those of shapes)")
    if not data.flags.writeable:
        raise ValueError("out must be writeable")
    return out


def result_of(shapes: Any, out: Any, kind: int, cls: Any) -> Any:
    """The array a call writes: ``out`` (checked), or a new array of class ``cls`` of
    the result's kind, dtype and size, with the filters of ``shapes``.  A polygon
    result takes the counts of ``shapes``."""
    if out is not None:
        out = _out(out, shapes, kind)
        if kind == PolygonArray.kind and not np.array_equal(out.counts, shapes.counts):
            np.copyto(out.counts, shapes.counts)
        return out
    res = cls.__new__(cls)
    # the turned or moved rows keep their collision filters (copies: a new array)
    for name in ("categories", "masks", "groups"):
        f = getattr(shapes, name)
        setattr(res, "_" + name, None if f is None else f.copy())
    if kind == PolygonArray.kind:
        # rows the call fills (from_padded would check rings not written yet)
        res._vertices = np.empty_like(shapes.vertices)
        res._counts = shapes.counts.copy()
        return res
    res._data = np.empty((len(shapes), cls._width), dtype=shapes.dtype)
    return res


def rotate_args(shapes: Any, angle: Any, about: Any):
    """``(shapes, angles, angle, about)`` of ``fc.rotate``: ``angles`` a float64 ``(N,)``
    array (then ``angle`` is NaN) or None and one finite ``angle``; ``about`` None (each
    row's centroid), or a float64 ``(N, 2)`` or ``(1, 2)`` array."""
    shapes = _array(shapes)
    n = len(shapes)
    angles, one = _angles(angle, n)
    pivots = None if about is None else _points(about, n, "about")
    return shapes, angles, one, pivots


def translate_args(shapes: Any, offset: Any):
    """``(shapes, offsets)`` of ``fc.translate``: a float64 ``(N, 2)`` or ``(1, 2)`` array."""
    shapes = _array(shapes)
    return shapes, _points(offset, len(shapes), "offset")
