"""Argument checks shared by both backends.

Every message names the argument, so a user who passes ``Circle(0, 0, -1)`` reads
``r must be >= 0, got -1.0`` rather than a bare error from deep inside a kernel.  The
compiled backend has fast paths for the common case (a Python float) and calls these
functions for everything else, so both backends raise the same errors.
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

SHAPE_NAMES = "Circle, Capsule, Segment, AABB, OBB or Polygon"


def as_real(value: Any, name: str) -> float:
    """Return ``value`` as a float, or raise TypeError naming ``name``."""
    if type(value) is float:
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Real):
        # numpy float/int scalars are Real; complex, str, None and containers are not
        raise TypeError(f"{name} must be a real number, not {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        # an integer beyond the float range
        raise ValueError(f"{name} must be finite, got {value!r}") from None


def as_finite(value: Any, name: str) -> float:
    """Return ``value`` as a finite float; TypeError or ValueError naming ``name``."""
    v = as_real(value, name)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {v!r}")
    return v


def as_non_negative(value: Any, name: str) -> float:
    """Return ``value`` as a finite float >= 0 (radii, half extents)."""
    v = as_finite(value, name)
    if v < 0.0:
        raise ValueError(f"{name} must be >= 0, got {v!r}")
    return v


def check_order(lo: float, hi: float, lo_name: str, hi_name: str) -> None:
    """Raise ValueError when a box has ``lo > hi`` on one axis."""
    if lo > hi:
        raise ValueError(f"{lo_name} must be <= {hi_name}, got {lo!r} > {hi!r}")


def as_point(value: Any, name: str) -> tuple[float, float]:
    """Return a finite ``(x, y)`` pair of floats from any length-2 sequence of reals."""
    if isinstance(value, (str, bytes, dict, set)) or not hasattr(value, "__len__"):
        raise TypeError(f"{name} must be a point (x, y), not {type(value).__name__}")
    try:
        n = len(value)
    except TypeError:
        raise TypeError(f"{name} must be a point (x, y), not {type(value).__name__}") from None
    if n != 2:
        raise ValueError(f"{name} must be a point (x, y) of length 2, got length {n}")
    x, y = value[0], value[1]
    return as_finite(x, f"{name}[0]"), as_finite(y, f"{name}[1]")


def type_name(value: Any) -> str:
    """``value``'s type name for an error message, naming the backend of a fastcol shape
    or array: the two backends' classes share names, and "not Circle" would puzzle a
    user who passed a reference ``Circle`` to a compiled query."""
    cls = type(value)
    module = getattr(cls, "__module__", None) or ""
    for prefix, backend in (("fastcol._ref.", "reference"), ("fastcol._ext.", "compiled")):
        if module.startswith(prefix):
            return (f"{cls.__name__} of the {backend} backend ({prefix[:-1]}): queries "
                    f"take the shapes of their own backend")
    return cls.__name__


def shape_type_error(value: Any, name: str) -> TypeError:
    """The error for an argument that is not a shape of the active backend."""
    return TypeError(f"{name} must be a fastcol shape ({SHAPE_NAMES}), not {type_name(value)}")


def as_limit(value: Any, name: str) -> float:
    """Return ``value`` as a float >= 0, ``inf`` allowed (``max_t`` of rays and sweeps)."""
    v = as_real(value, name)
    if math.isnan(v):
        raise ValueError(f"{name} must be >= 0 (inf allowed), got nan")
    if v < 0.0:
        raise ValueError(f"{name} must be >= 0 (inf allowed), got {v!r}")
    return v


def as_direction(value: Any, name: str) -> tuple[float, float]:
    """Return a finite, non-zero ``(x, y)`` vector (a ray direction)."""
    x, y = as_point(value, name)
    if x == 0.0 and y == 0.0:
        raise ValueError(f"{name} must be non-zero, got ({x!r}, {y!r})")
    return x, y


ARRAY_NAMES = "CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray or PolygonArray"


def shape_array_error(value: Any, name: str) -> TypeError:
    """The error for an argument that must be a shape array (the broadphase's A, B)."""
    return TypeError(f"{name} must be a shape array ({ARRAY_NAMES}), not {type_name(value)}")
