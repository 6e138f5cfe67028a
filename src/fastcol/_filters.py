"""Collision filters: the checks of ``categories``, ``masks`` and ``groups`` (both backends).

A pair of rows ``(i, j)`` is tested only when ``categories[i] & masks[j]`` and
``categories[j] & masks[i]`` are both non-zero, and not when ``groups[i] == groups[j]
!= 0`` (pymunk's ``ShapeFilter``, Box2D's ``categoryBits``/``maskBits``).  The shape
arrays hold them; ``ShapeIndex.raycast`` and ``nearest`` take them for rays and points.
"""

from __future__ import annotations

import numpy as np

ALL_BITS = 0xFFFFFFFF
# per name: the dtype stored, the least and the largest value, the default
_KINDS = {
    "categories": (np.dtype(np.uint32), 0, ALL_BITS, ALL_BITS),
    "masks": (np.dtype(np.uint32), 0, ALL_BITS, ALL_BITS),
    "groups": (np.dtype(np.int32), -2 ** 31, 2 ** 31 - 1, 0),
}
NAMES = tuple(_KINDS)


def as_filter(value, name, n):
    """``value`` as a C-contiguous ``uint32[n]`` (categories, masks) or ``int32[n]``
    (groups) array, or None for None.

    A number sets every row; an array must have shape ``(n,)`` (``n`` None: a number
    gives shape ``(1,)``, an array may have any length).  Integers of any dtype are converted once (an
    array already of the stored dtype is kept, not copied: writing to it changes the
    filter); booleans, floats, objects and strings are a TypeError naming ``name``; a
    value out of range (a negative category, a group beyond int32) a ValueError naming
    it: never a silent wrap.
    """
    if value is None:
        return None
    dtype, lo, hi, _ = _KINDS[name]
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must hold integers, not bool")
    if isinstance(value, int) and not lo <= value <= hi:
        # a Python int beyond int64 would become an object array: say what is wrong
        raise ValueError(f"{name} must lie in {lo}..{hi}, got {value}")
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an integer or an array of integers: {exc}") from None
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, not {arr.dtype}")
    if arr.ndim == 0:
        arr = arr.reshape(1) if n is None else np.broadcast_to(arr, (n,))
    elif arr.ndim != 1 or not (n is None or arr.shape[0] == n):
        want = "N" if n is None else n
        raise ValueError(f"{name} must be a number or have shape ({want},), got {arr.shape}")
    if arr.size and (arr.min() < lo or arr.max() > hi):
        bad = arr[(arr < lo) | (arr > hi)][0]
        raise ValueError(f"{name} must lie in {lo}..{hi}, got {bad}")
    if arr.dtype != dtype or not arr.flags.c_contiguous or arr.strides[0] == 0:
        arr = np.ascontiguousarray(arr, dtype=dtype)
    return arr


def full(name, n):
    """The default filter of ``n`` rows: every bit for categories and masks, group 0."""
    dtype, _, _, default = _KINDS[name]
    return np.full(n, default, dtype=dtype)


def defaults(n):
    """The filters of ``n`` rows that pass every filter but their own (all bits, group 0)."""
    return tuple(full(name, n) for name in NAMES)


def rows(categories, masks, groups, n):
    """The three filters of ``n`` rows, defaults in place of None; None when all are None."""
    if categories is None and masks is None and groups is None:
        return None
    return tuple(full(name, n) if v is None else v
                 for name, v in zip(NAMES, (categories, masks, groups)))



def query_filters(categories, masks, groups, lengths):
    """The filters of a query's rays or points (numbers or ``(N,)`` arrays): the three
    checked, an array's length appended to ``lengths`` as ``(name, N)`` (the query's
    other array arguments must agree); pass the result to `expand`."""
    out = []
    for name, value in zip(NAMES, (categories, masks, groups)):
        arr = as_filter(value, name, None)
        if arr is not None and np.ndim(value) == 1:
            lengths.append((name, len(arr)))
        out.append(arr)
    return out


def expand(filters, n):
    """`query_filters`'s result as ``(categories, masks, groups)`` of ``n`` rows each
    (defaults in place of None), or None when none was given."""
    if all(f is None for f in filters):
        return None
    return tuple(full(name, n) if f is None
                 else np.ascontiguousarray(np.broadcast_to(f, (n,)))
                 for name, f in zip(NAMES, filters))
