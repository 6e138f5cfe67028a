"""A circle and an AABB: the box's nearest point is the centre clamped into the box.

Exact: each coordinate of the clamped point is the centre's own or the box's, so the
nearest point is returned to the bit and the distance carries only the rounding of
one square root.  Checked on both backends against the nearest point found in exact
rational arithmetic over the box's four edges (tests/exact.py), at offsets up to
3e7 and scales from 1e-3 to 1e3, and for touching pairs.  The array rows (their own
loop, without the canonical order and the local frame) must equal the scalar calls.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest

from exact import orient, point_segment_dist2

OFFSETS = (0.0, 1e6, -3e7)
SCALES = (1e-3, 1.0, 1e3)


def exact_nearest(p, box):
    """The point of the box nearest to p outside it, and the squared distance, in
    exact arithmetic: the least of the four edges' nearest points."""
    x0, y0, x1, y1 = box
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    best = None
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        d2 = point_segment_dist2(p, a, b)
        if best is None or d2 < best[0]:
            ax, ay, bx, by = map(Fraction, (*a, *b))
            px, py = map(Fraction, p)
            den = (bx - ax) ** 2 + (by - ay) ** 2
            t = 0 if den == 0 else min(1, max(0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / den))
            best = (d2, (ax + t * (bx - ax), ay + t * (by - ay)))
    return best


def cases(seed, n):
    """Circles outside boxes, in every region round the box (beside an edge, beyond
    a corner), at offsets and scales; radii from far too small to touching."""
    rng = random.Random(seed)
    for _ in range(n):
        off, s = rng.choice(OFFSETS), rng.choice(SCALES)
        x0, y0 = off + rng.uniform(-s, s), off + rng.uniform(-s, s)
        x1, y1 = x0 + rng.uniform(0, 2 * s), y0 + rng.uniform(0, 2 * s)
        cx, cy = off + rng.uniform(-4 * s, 4 * s), off + rng.uniform(-4 * s, 4 * s)
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            continue
        yield (cx, cy), (x0, y0, x1, y1), rng.uniform(0, 3 * s)


def test_nearest_point_is_the_exact_one(fc):
    checked = 0
    for p, box, r in cases(1, 600):
        d2, q = exact_nearest(p, box)
        c, b = fc.Circle(*p, r), fc.AABB(*box)
        res = fc.closest_points(c, b)
        d = math.sqrt(d2)  # within half an ulp: the exact d is sqrt of a rational
        if d > r:
            # apart: the box's point is the exact nearest point, to the bit
            assert res.point_b == (float(q[0]), float(q[1])), (p, box, r)
            assert fc.closest_points(b, c).point_a == res.point_b
            # one square root and one subtraction, each rounded: a few ulps
            assert abs(res.distance - (d - r)) <= 4 * math.ulp(d), (p, box, r)
            checked += 1
        assert fc.collide(c, b) is (res.distance == 0.0)
        assert (fc.contact(c, b) is None) is (res.distance > 0.0)
    assert checked > 300


def test_touching_circles_collide(fc):
    # the circle put at exactly r from a side (beside it, or beyond a corner along an
    # axis): the exact distance is r, so collide, distance 0.0 and a contact
    rng = random.Random(2)
    for _ in range(300):
        off, s = rng.choice(OFFSETS), rng.choice(SCALES)
        x0, y0 = off + rng.uniform(-s, s), off + rng.uniform(-s, s)
        x1, y1 = x0 + rng.uniform(0, 2 * s), y0 + rng.uniform(0, 2 * s)
        r = rng.uniform(0, s)
        cx, cy = rng.choice([(x0 - r, rng.uniform(y0, y1)), (rng.uniform(x0, x1), y1 + r),
                             (x1 + r, y0), (x0, y0 - r)])
        # exactly r away only where the sums above are exact
        if Fraction(cx) not in (Fraction(x0) - Fraction(r), Fraction(x1) + Fraction(r)) and \
                Fraction(cy) not in (Fraction(y0) - Fraction(r), Fraction(y1) + Fraction(r)):
            continue
        c, b = fc.Circle(cx, cy, r), fc.AABB(x0, y0, x1, y1)
        if exact_nearest((cx, cy), (x0, y0, x1, y1))[0] != Fraction(r) ** 2:
            continue
        assert fc.collide(c, b) and fc.collide(b, c)
        assert fc.distance(c, b) == 0.0
        assert fc.contact(c, b) is not None


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rows_equal_the_scalar_queries(fc, dtype):
    cs, bs = [], []
    for p, box, r in cases(3, 400):
        cs.append((*p, r))
        bs.append(box)
    # centres inside and on the boxes, and rows that are no shape, on either side
    cs += [(0.5, 0.5, 0.1), (1.0, 0.2, 0.0), (0.0, 0.0, 1.0), (math.nan, 0.0, 1.0),
           (0.0, 0.0, -1.0), (0.0, math.inf, 1.0)]
    bs += [(0.0, 0.0, 1.0, 1.0), (0.0, 0.0, 1.0, 1.0), (2.0, 0.0, 1.0, 1.0),
           (0.0, 0.0, 1.0, 1.0), (0.0, 0.0, 1.0, 1.0), (0.0, 0.0, 1.0, 1.0)]
    cs.append((0.0, 0.0, 1.0))
    bs.append((0.0, 0.0, 1.0, math.nan))
    ca = fc.CircleArray(np.array(cs, dtype=dtype))
    ba = fc.AABBArray(np.array(bs, dtype=dtype))

    def shapes(i):
        return (all(map(math.isfinite, cs[i] + bs[i])) and cs[i][2] >= 0
                and bs[i][0] <= bs[i][2] and bs[i][1] <= bs[i][3])

    for a, b in ((ca, ba), (ba, ca)):
        hit, dist = fc.collide(a, b), fc.distance(a, b)
        for i in range(len(cs)):
            if not shapes(i):
                assert not hit[i] and math.isnan(dist[i]), i
                continue
            assert hit[i] == fc.collide(a[i], b[i]), i
            assert dist[i] == dtype(fc.distance(a[i], b[i])), i
    # one box against the circles' rows, one circle against the boxes' rows
    box, circle = fc.AABB(0.0, 0.0, 1.0, 1.0), fc.Circle(0.5, 1.5, 0.5)
    for i, (h, d) in enumerate(zip(fc.collide(ca, box), fc.distance(box, ca))):
        ok = all(map(math.isfinite, cs[i])) and cs[i][2] >= 0
        assert h == (ok and fc.collide(ca[i], box)) and (d == dtype(fc.distance(ca[i], box))
                                                         if ok else math.isnan(d)), i
    for i, (h, d) in enumerate(zip(fc.collide(circle, ba), fc.distance(ba, circle))):
        ok = all(map(math.isfinite, bs[i])) and bs[i][0] <= bs[i][2] and bs[i][1] <= bs[i][3]
        assert h == (ok and fc.collide(circle, ba[i])) and (
            d == dtype(fc.distance(circle, ba[i])) if ok else math.isnan(d)), i


# ------------------------------------------------------------------ a circle and an OBB
# The compiled backend decides most pairs from the centre's distance in the box's frame
# (narrowphase.pxd circle_obb_filter) and leaves those within its tolerance to the
# corners; the reference always decides from the corners.  Outside a band round the
# radius the verdict is the exact one for the box with the axis (cos, sin) as libm
# computes them; within it both backends must still agree.


def obb_exact_dist2(p, box):
    """The exact squared distance from p to the OBB (cx, cy, hw, hh, angle), its
    corners worked out in rational arithmetic from the rounded cos and sin: 0 inside."""
    cx, cy, hw, hh = map(Fraction, box[:4])
    c, s = Fraction(math.cos(box[4])), Fraction(math.sin(box[4]))
    corners = [(cx - hw * c + hh * s, cy - hw * s - hh * c),
               (cx + hw * c + hh * s, cy + hw * s - hh * c),
               (cx + hw * c - hh * s, cy + hw * s + hh * c),
               (cx - hw * c - hh * s, cy - hw * s + hh * c)]
    edges = [(corners[i], corners[(i + 1) % 4]) for i in range(4)]
    if all(orient(a, b, p) >= 0 for a, b in edges):
        return Fraction(0)
    return min(point_segment_dist2(p, a, b) for a, b in edges)


def obb_cases(seed, n):
    """Circles round OBBs at offsets and scales, some boxes thin or flat, with radii
    a relative 0 to 1e-3 either side of the centre's exact distance (and some at
    random): ((x, y, r), (cx, cy, hw, hh, angle), exact squared distance)."""
    rng = random.Random(seed)
    for _ in range(n):
        off, s = rng.choice(OFFSETS), rng.choice(SCALES)
        hw, hh = rng.uniform(0, s), rng.choice([rng.uniform(0, s), 0.0, s * 1e-17])
        box = (off + rng.uniform(-s, s), off + rng.uniform(-s, s), hw, hh,
               rng.uniform(-7.0, 7.0))
        p = (box[0] + rng.uniform(-4 * s, 4 * s), box[1] + rng.uniform(-4 * s, 4 * s))
        d2 = obb_exact_dist2(p, box)
        rel = rng.choice([0.0, 1e-15, -1e-15, 1e-13, -1e-13, 1e-10, -1e-10, 1e-3, -1e-3])
        r = math.sqrt(d2) * (1.0 + rel) if rng.random() < 0.8 else rng.uniform(0, 3 * s)
        yield (*p, r), box, d2


def test_circle_obb_collide_is_exact_outside_a_band(fc):
    checked = 0
    for (x, y, r), box, d2 in obb_cases(5, 1500):
        c, b = fc.Circle(x, y, r), fc.OBB(*box)
        hit = fc.collide(c, b)
        assert fc.collide(b, c) is hit
        assert (fc.distance(c, b) == 0.0) is hit
        size = max(abs(x), abs(y), abs(box[0]), abs(box[1])) + box[2] + box[3] + r
        band = Fraction(1e-12) * Fraction(size)
        rr = Fraction(r)
        if d2 > (rr + band) ** 2 or (rr > band and d2 < (rr - band) ** 2):
            assert hit is (d2 <= rr * rr), ((x, y, r), box)
            checked += 1
    assert checked > 500


def test_circle_obb_collide_backends_agree_in_the_band(ext, ref):
    for (x, y, r), box, _ in obb_cases(6, 1500):
        c, b = (ext.Circle(x, y, r), ext.OBB(*box)), (ref.Circle(x, y, r), ref.OBB(*box))
        assert ext.collide(*c) is ref.collide(*b), ((x, y, r), box)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_circle_obb_rows_equal_the_scalar_queries(fc, dtype):
    cs, bs = [], []
    for circle, box, _ in obb_cases(7, 400):
        cs.append(circle)
        bs.append(box)
    # rows that are no shape, on either side
    cs += [(math.nan, 0.0, 1.0), (0.0, 0.0, -1.0), (0.0, 0.0, 1.0), (0.0, 0.0, 1.0),
           (0.0, 0.0, 1.0)]
    bs += [(0.0, 0.0, 1.0, 1.0, 0.5), (0.0, 0.0, 1.0, 1.0, 0.5), (0.0, 0.0, -1.0, 1.0, 0.5),
           (0.0, 0.0, 1.0, 1.0, math.inf), (0.0, 0.0, 1.0, math.nan, 0.5)]
    ca = fc.CircleArray(np.array(cs, dtype=dtype))
    ba = fc.OBBArray(np.array(bs, dtype=dtype))
    n = len(cs)

    def circle_ok(i):
        return all(map(math.isfinite, cs[i])) and cs[i][2] >= 0

    def box_ok(i):
        return all(map(math.isfinite, bs[i])) and min(bs[i][2:4]) >= 0

    for a, b in ((ca, ba), (ba, ca)):
        assert fc.collide(a, b).tolist() == [
            circle_ok(i) and box_ok(i) and fc.collide(a[i], b[i]) for i in range(n)]
    assert fc.collide(ca, ba)[-5:].tolist() == [False] * 5
    # one box against the circles' rows, one circle against the boxes' rows
    box, circle = fc.OBB(0.5, 0.5, 1.0, 0.25, 0.3), fc.Circle(0.5, 1.5, 0.5)
    assert fc.collide(ca, box).tolist() == [
        circle_ok(i) and fc.collide(ca[i], box) for i in range(n)]
    assert fc.collide(ba, circle).tolist() == [
        box_ok(i) and fc.collide(ba[i], circle) for i in range(n)]
