"""Collision filters: whether a pair of rows is tested (compiled twin: ``_ext/filters.pxd``).

``fastcol._filters`` checks the arrays; this is the rule itself, pymunk's
``ShapeFilter`` and Box2D's category and mask bits.
"""

from __future__ import annotations


def passes(ci, mi, gi, cj, mj, gj):
    """Whether rows with filters ``(ci, mi, gi)`` and ``(cj, mj, gj)`` are tested:
    each one's category in the other's mask, and not both of one non-zero group."""
    return (ci & mj) != 0 and (cj & mi) != 0 and not (gi == gj and gi != 0)


def row_filters(filters, n):
    """The rows' ``(category, mask, group)`` as Python ints (all bits and group 0 for
    arrays without filters: every pair passes)."""
    if filters is None:
        return [(0xFFFFFFFF, 0xFFFFFFFF, 0)] * n
    return list(zip(*(f.tolist() for f in filters)))
