"""Exact sign predicates: every topological decision of the kernels goes through these.

``orient_sign(ax, ay, bx, by, cx, cy)`` is the sign of the orientation determinant
``(bx - ax) * (cy - ay) - (by - ay) * (cx - ax)``: 1 when c lies to the left of the
directed line a -> b, -1 to the right, 0 exactly on it.  It is exact for every finite
input.  A floating-point filter decides almost every call: the determinant as computed
is compared with Shewchuk's proven bound on its rounding error (``CCW_ERRBOUND_A`` times
the sum of the two products' magnitudes, plus a few subnormal units for products that
underflow); only when the computed value lies within that bound of zero is the sign
taken from exact rational arithmetic (``fractions.Fraction``).  The compiled twin
(``_ext/predicates.pyx``) uses the same filter and exact integer arithmetic, so both
backends give the same sign by construction.

``side_sign(px, py, dx, dy, qx, qy)`` is the sign of ``dx * (qy - py) - dy * (qx - px)``:
which side of the line through p along the direction d the point q lies on (a ray's
side tests, where the second point ``p + d`` is not a stored number).

``orient_decide(left, right, ...)`` is ``orient_sign`` for a caller that has already
computed the two products ``left = (bx - ax) * (cy - ay)`` and
``right = (by - ay) * (cx - ax)`` (the kernels need the determinant's value as well).
"""

from __future__ import annotations

from fractions import Fraction

EPS = 2.0 ** -53
# Shewchuk's ccwerrboundA: |computed - exact| <= this * (|left| + |right|), no underflow
CCW_ERRBOUND_A = (3.0 + 16.0 * EPS) * EPS
# products that underflow add at most a few units of the smallest subnormal each
UNDERFLOW = 2.0 ** -1069


def _filtered(left, right):
    """The sign of ``left - right`` where its rounding error bound decides it, else None."""
    det = left - right
    bound = CCW_ERRBOUND_A * (abs(left) + abs(right)) + UNDERFLOW
    if det > bound:
        return 1
    if det < -bound:
        return -1
    return None


def orient_decide(left, right, ax, ay, bx, by, cx, cy):
    """The sign of ``left - right``, exact: the two products of ``orient_sign``."""
    sign = _filtered(left, right)
    return orient_exact(ax, ay, bx, by, cx, cy) if sign is None else sign


def orient_sign(ax, ay, bx, by, cx, cy):
    """1, -1 or 0: c to the left of, to the right of, or on the directed line a -> b."""
    return orient_decide((bx - ax) * (cy - ay), (by - ay) * (cx - ax), ax, ay, bx, by, cx, cy)


def orient_exact(ax, ay, bx, by, cx, cy):
    """``orient_sign`` in rational arithmetic (slow; for the filter's undecided inputs)."""
    if (ax == bx or ay == cy) and (ay == by or ax == cx):
        # both products have a zero factor: the determinant is exactly zero
        return 0
    fax = Fraction(ax)
    fay = Fraction(ay)
    det = (Fraction(bx) - fax) * (Fraction(cy) - fay) - (Fraction(by) - fay) * (Fraction(cx) - fax)
    return (det > 0) - (det < 0)


def side_sign(px, py, dx, dy, qx, qy):
    """1, -1 or 0: q to the left of, to the right of, or on the line p + s d (the sign
    of ``dx * (qy - py) - dy * (qx - px)``; the same bound covers it, d being exact)."""
    sign = _filtered(dx * (qy - py), dy * (qx - px))
    return side_exact(px, py, dx, dy, qx, qy) if sign is None else sign


def side_exact(px, py, dx, dy, qx, qy):
    """``side_sign`` in rational arithmetic."""
    if (dx == 0.0 or qy == py) and (dy == 0.0 or qx == px):
        return 0
    det = Fraction(dx) * (Fraction(qy) - Fraction(py)) - Fraction(dy) * (Fraction(qx) - Fraction(px))
    return (det > 0) - (det < 0)


def exact_origin(o, lo, hi):
    """The origin of an exact local frame on one axis: ``o`` or 0.0.

    Kernels work in coordinates relative to a reference point ``o`` of the first shape,
    which keeps unit-sized shapes at 1e6 accurate.  The signs above are exact for the
    coordinates the kernels see; they are exact for the shapes as stored only when
    every ``x - o`` is exact.  It is when ``x`` lies within a factor 2 of ``o`` (same
    sign: Sterbenz's lemma), which holds for all the pair's coordinates when their
    least ``lo`` and largest ``hi`` do.  Otherwise (a pair that straddles 0 or spans
    more than ``o`` itself) the origin is 0.0: the stored coordinates themselves, and
    nothing of the local frame's accuracy is lost there, as ``o`` is no larger than
    the pair's extent.  Comparisons are False on NaN, which gives 0.0.
    """
    if o > 0.0:
        return o if lo + lo >= o and hi <= o + o else 0.0
    if o < 0.0:
        return o if hi + hi <= o and lo >= o + o else 0.0
    return 0.0
