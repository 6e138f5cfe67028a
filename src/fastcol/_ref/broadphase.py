"""Broadphase: every colliding pair among many shapes, without testing all N² pairs.

``overlapping_pairs(A, B=None)`` bounds each row by a box, prunes with a sort and sweep
along the axis over which the boxes spread most, then asks the exact scalar ``collide``
of each surviving pair.  This is the obviously-correct oracle of the compiled broadphase
(``_ext/broadphase.pyx``, a hierarchical grid); both return the same pairs because both
end with the same exact test and neither prefilter ever drops a colliding pair.
"""

from __future__ import annotations

import numpy as np

from .batch import _rows
from .filters import passes, row_filters
from .queries import collide
from .shapes import AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, SEGMENT

# Boxes are widened by this fraction of their largest coordinate (plus a subnormal-sized
# amount): the exact test runs in local coordinates and can call shapes touching that
# their world-coordinate boxes, rounded differently, miss by an ulp.  A wider box only
# costs a few more candidates; a narrower one could lose a touching pair.
PAD = 2.0 ** -40
TINY = 1e-300


def _box(s):
    """``(x0, y0, x1, y1)``: a box holding the shape, padded against rounding."""
    k = s.kind
    if k == CIRCLE:
        x0, y0, x1, y1 = s._x - s._r, s._y - s._r, s._x + s._r, s._y + s._r
    elif k <= SEGMENT:
        r = s._r if k == CAPSULE else 0.0
        x0 = min(s._ax, s._bx) - r
        y0 = min(s._ay, s._by) - r
        x1 = max(s._ax, s._bx) + r
        y1 = max(s._ay, s._by) + r
    elif k == AABB_KIND:
        x0, y0, x1, y1 = s._min_x, s._min_y, s._max_x, s._max_y
    elif k == OBB_KIND:
        ex = abs(s._half_w * s._cos) + abs(s._half_h * s._sin)
        ey = abs(s._half_w * s._sin) + abs(s._half_h * s._cos)
        x0, y0, x1, y1 = s._cx - ex, s._cy - ey, s._cx + ex, s._cy + ey
    else:
        x0, y0, x1, y1 = min(s._xs), min(s._ys), max(s._xs), max(s._ys)
    pad = max(abs(x0), abs(y0), abs(x1), abs(y1)) * PAD + TINY
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


def _sweep(entries):
    """Candidate pairs of ``entries`` ``(box, side, row)`` whose boxes overlap.

    Sorted by the box's low end along the axis of largest spread, each box meets only
    the boxes that start before it ends on that axis (a thin strip along y would make
    an x sweep quadratic); the other axis is an interval test.
    """
    if not entries:
        return
    lo_x = min(e[0][0] for e in entries)
    hi_x = max(e[0][0] for e in entries)
    lo_y = min(e[0][1] for e in entries)
    hi_y = max(e[0][1] for e in entries)
    ax = 0 if hi_x - lo_x >= hi_y - lo_y else 1
    other = 1 - ax
    entries = sorted(entries, key=lambda e: e[0][ax])
    for k, (box, side, row) in enumerate(entries):
        end = box[ax + 2]
        for box2, side2, row2 in entries[k + 1:]:
            if box2[ax] > end:
                break
            if box2[other] <= box[other + 2] and box[other] <= box2[other + 2]:
                yield (side, row), (side2, row2)


def overlapping_pairs(A, B, workers):
    """The pairs of rows of shape arrays ``A`` and ``B`` (or within ``A`` when ``B`` is
    None) that collide (``fastcol.overlapping_pairs`` documents it); the reference
    runs in one thread whatever ``workers``."""
    rows_a = _rows(A, len(A))
    rows_b = rows_a if B is None else _rows(B, len(B))
    # the collision filters (categories, masks, groups); None: every pair is tested
    fa = A._filters()
    fb = fa if B is None else B._filters()
    if fa is not None or fb is not None:
        fa, fb = row_filters(fa, len(A)), row_filters(fb, len(rows_b))
    entries = [(_box(s), 0, i) for i, s in enumerate(rows_a) if s is not None]
    if B is not None:
        entries += [(_box(s), 1, j) for j, s in enumerate(rows_b) if s is not None]
    pairs = set()
    for (side, i), (side2, j) in _sweep(entries):
        if B is None:
            i, j = min(i, j), max(i, j)
        elif side == side2:
            continue
        elif side == 1:
            i, j = j, i
        if fa is not None and not passes(*fa[i], *fb[j]):
            continue   # filtered out before the exact test
        if collide(rows_a[i], rows_b[j]):
            pairs.add((i, j))
    out = np.array(sorted(pairs), dtype=np.int64)
    return out.reshape(len(pairs), 2)
