"""Count fastcol's topological verdicts that disagree with exact arithmetic, on hard cases.

The cases are drawn by the plain generators of ``tests/exact.py`` (nearly collinear and
nearly parallel segments, T-junctions, shared and nearly shared ends, a hair across,
zero length, collinear with a gap or overlapping, at offsets 0, 1e6 and -3e7 and scales
1e-3 to 1e3), ``--n`` of them, each kind equally likely.  Per check, the script counts
the answers that differ from the exact one:

- ``orient2d``: the four orientations of each case (a, b, c), (a, b, d), (c, d, a),
  (c, d, b), so 4n signs;
- ``segments_intersect``, ``segment_segment_distance == 0.0`` and ``collide`` of the two
  ``Segment`` shapes: against the exact intersection;
- ``collide`` of ``Capsule``-``Capsule`` and ``Capsule``-``Segment`` pairs on the same
  segments with radii from ``exact.radii``: against ``core distance <= ra + rb``, where
  the exact core distance is further than 1e-12 of the pair's size (M of
  ``exact.frame_extent`` plus the radii) from ``ra + rb`` (the pairs in that band are
  counted apart, as skipped);
- the issue's sweep: ``--n`` pairs of disjoint collinear unit-size segments at least
  1e-3 apart (``exact.disjoint_collinear``: points of one line at a random angle, so
  rounding moves them at most ~1e-16 off it and they are apart in exact arithmetic),
  counting those reported as meeting by ``segments_intersect`` and by ``collide`` of the
  two ``Segment`` shapes.

The library is called once per chunk through its array API (``(N, 2)`` point arrays,
``SegmentArray`` and ``CapsuleArray`` element-wise).  The exact answers are computed here,
vectorised, without Fraction for almost every row:

- orientation signs: the determinant is computed in floating point with NumPy and
  compared with Shewchuk's error bound ``(3 + 16 * 2**-53) * 2**-53 * (|left| + |right|)``
  (ccwerrboundA of his 1997 paper; ``left`` and ``right`` the two products) plus
  ``2**-1069`` for products that underflow; rows within the bound of zero get the sign
  of the determinant of the coordinates as exact integers (every float is an integer
  times a power of two);
- intersection: from the exact signs and the (exact) comparisons of coordinates;
- capsule verdicts: the core distance in floating point in the pair's exact local frame,
  whose error is far below the 1e-12 band; rows it cannot place on one side of the
  band's edges go to ``exact.segment_segment_dist2`` (Fraction).

The exit status is 1 when any count is nonzero.

How to run (from the repository root, with fastcol importable)::

    python bench/check_topology.py --quick                  # 20,000 cases, seconds
    python bench/check_topology.py                          # 1,000,000 per check, compiled
    python bench/check_topology.py --backend both --n 100000 --seed 7
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import exact  # noqa: E402  (tests/exact.py: the exact oracle and the generators)
from fastcol._api import load  # noqa: E402

EPS = 2.0 ** -53
CCW_ERRBOUND_A = (3.0 + 16.0 * EPS) * EPS
UNDERFLOW = 2.0 ** -1069
BAND = 1e-12
CHUNK = 50_000
QUICK_N = 20_000
EXAMPLES = 3  # disagreements shown per check

CHECKS = [
    "orient2d (4 per case)",
    "segments_intersect",
    "segment_segment_distance == 0.0",
    "collide Segment-Segment",
    "collide Capsule-Capsule (outside band)",
    "collide Capsule-Segment (outside band)",
    "sweep: segments_intersect",
    "sweep: collide Segment-Segment",
]


# ------------------------------------------------------------------ exact, vectorised


def sign_exact(ax, ay, bx, by, cx, cy):
    """The exact sign of the orientation determinant of six finite floats: each is
    n / 2**k, so all times the largest 2**k are integers, and Python's are exact."""
    ratios = [v.as_integer_ratio() for v in (ax, ay, bx, by, cx, cy)]
    den = max(r[1] for r in ratios)
    ax, ay, bx, by, cx, cy = (n * (den // d) for n, d in ratios)
    det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (det > 0) - (det < 0)


def orient_exact(p, q, r):
    """Exact signs of the rows of (N, 2) arrays, int8; and how many needed integers."""
    left = (q[:, 0] - p[:, 0]) * (r[:, 1] - p[:, 1])
    right = (q[:, 1] - p[:, 1]) * (r[:, 0] - p[:, 0])
    det = left - right
    bound = CCW_ERRBOUND_A * (np.abs(left) + np.abs(right)) + UNDERFLOW
    sign = (det > bound).astype(np.int8) - (det < -bound).astype(np.int8)
    todo = np.flatnonzero(np.abs(det) <= bound)
    if todo.size:
        rows = np.hstack([p[todo], q[todo], r[todo]]).tolist()
        sign[todo] = [sign_exact(*row) for row in rows]
    return sign, todo.size


def within_box(p, a, b):
    """Whether p lies in the bounding box of a and b (exact comparisons)."""
    return ((np.minimum(a[:, 0], b[:, 0]) <= p[:, 0]) & (p[:, 0] <= np.maximum(a[:, 0], b[:, 0]))
            & (np.minimum(a[:, 1], b[:, 1]) <= p[:, 1]) & (p[:, 1] <= np.maximum(a[:, 1], b[:, 1])))


def intersect_exact(a, b, c, d, o1, o2, o3, o4):
    """exact.segments_intersect row by row, from the exact signs (CLRS 33.1)."""
    proper = (o1.astype(np.int16) * o2 < 0) & (o3.astype(np.int16) * o4 < 0)
    return (proper
            | ((o1 == 0) & within_box(c, a, b)) | ((o2 == 0) & within_box(d, a, b))
            | ((o3 == 0) & within_box(a, c, d)) | ((o4 == 0) & within_box(b, c, d)))


def frame(P):
    """(Q, M): the points in their exact local frame (per axis, a's coordinate when
    every coordinate of the row is within a factor 2 of it, else 0: exact.frame_extent),
    and the extent M of each row.  P is (N, 4, 2)."""
    o = P[:, 0, :]
    lo, hi = P.min(axis=1), P.max(axis=1)
    sterbenz = (((o > 0) & (lo + lo >= o) & (hi <= o + o))
                | ((o < 0) & (hi + hi <= o) & (lo >= o + o)))
    origin = np.where(sterbenz, o, 0.0)
    Q = P - origin[:, None, :]
    return Q, np.abs(Q).max(axis=(1, 2))


def point_segment_float(p, a, b):
    abx, aby = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    apx, apy = p[:, 0] - a[:, 0], p[:, 1] - a[:, 1]
    den = abx * abx + aby * aby
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(den > 0.0, (apx * abx + apy * aby) / np.where(den > 0.0, den, 1.0), 0.0)
    t = np.clip(t, 0.0, 1.0)
    return np.hypot(apx - t * abx, apy - t * aby)


def core_distance_float(Q, meet):
    """Segment distances in floating point in the local frame; 0 where they meet."""
    a, b, c, d = (Q[:, i, :] for i in range(4))
    dist = np.minimum(np.minimum(point_segment_float(a, c, d), point_segment_float(b, c, d)),
                      np.minimum(point_segment_float(c, a, b), point_segment_float(d, a, b)))
    return np.where(meet, 0.0, dist)


def capsule_exact(P, M, dist, ra, rb):
    """(verdict, checked, fractions): the exact ``core distance <= ra + rb`` per row,
    whether the row lies outside the band, and how many rows needed Fraction.

    ``dist`` is within 32 * 2**-52 * M of the exact distance (a few roundings of
    numbers no larger than M each), far inside the band of 1e-12 * size: rows further
    than that margin from the band's edges are decided by it, the rest exactly."""
    from fractions import Fraction

    total = ra + rb
    band = BAND * (M + ra + rb)
    err = 64.0 * EPS * M + 4.0 * EPS * (total + band) + UNDERFLOW
    gap = np.abs(dist - total)
    verdict = dist <= total
    checked = gap > band + err
    todo = np.flatnonzero(~checked & (gap >= band - err))
    for i in todo.tolist():
        case = tuple((float(P[i, k, 0]), float(P[i, k, 1])) for k in range(4))
        d2 = exact.segment_segment_dist2(*case)
        r = Fraction(float(ra[i])) + Fraction(float(rb[i]))
        delta = Fraction(BAND) * (exact.frame_extent(case) + r)
        outside = d2 > (r + delta) ** 2 or (r > delta and d2 < (r - delta) ** 2)
        checked[i] = outside
        verdict[i] = d2 <= r * r
    return verdict, checked, todo.size


# ---------------------------------------------------------------------------- driver


class Tally:
    def __init__(self):
        self.cases = dict.fromkeys(CHECKS, 0)
        self.bad = dict.fromkeys(CHECKS, 0)
        self.skipped = dict.fromkeys(CHECKS, 0)
        self.seconds = dict.fromkeys(CHECKS, 0.0)
        self.examples = {name: [] for name in CHECKS}

    def add(self, name, got, want, describe, checked=None):
        got = np.asarray(got)
        want = np.asarray(want)
        wrong = got != want
        if checked is not None:
            wrong &= checked
            self.skipped[name] += int((~checked).sum())
            self.cases[name] += int(checked.sum())
        else:
            self.cases[name] += len(got)
        self.bad[name] += int(wrong.sum())
        for i in np.flatnonzero(wrong)[:EXAMPLES - len(self.examples[name])].tolist():
            self.examples[name].append(f"{describe(i)}: got {got[i].item()!r}, exact {want[i].item()!r}")


def timed(tally, name, fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    tally.seconds[name] += time.perf_counter() - t0
    return out


def rows_of(P, i):
    return ", ".join(repr((float(P[i, k, 0]), float(P[i, k, 1]))) for k in range(4))


def draw(rng, n, generator, with_radii):
    P = np.empty((n, 4, 2))
    R = np.empty((n, 2))
    for i in range(n):
        case = generator(rng)
        P[i] = case
        if with_radii:
            R[i] = exact.radii(rng, case)
    return P, R


def self_check(P, R, o, meet, cc, cc_checked, rows=500):
    """The vectorised exact answers of the first rows against tests/exact.py's."""
    from fractions import Fraction

    for i in range(min(rows, len(P))):
        case = tuple((float(P[i, k, 0]), float(P[i, k, 1])) for k in range(4))
        a, b, c, d = case
        want = [exact.orient(a, b, c), exact.orient(a, b, d), exact.orient(c, d, a),
                exact.orient(c, d, b)]
        assert [int(s[i]) for s in o] == want, case
        assert bool(meet[i]) is exact.segments_intersect(*case), case
        if cc_checked[i]:
            r = Fraction(float(R[i, 0])) + Fraction(float(R[i, 1]))
            assert bool(cc[i]) is (exact.segment_segment_dist2(*case) <= r * r), case


def check_chunk(mods, tallies, P, R, stats):
    t0 = time.perf_counter()
    a, b, c, d = (np.ascontiguousarray(P[:, i, :]) for i in range(4))
    o1, k1 = orient_exact(a, b, c)
    o2, k2 = orient_exact(a, b, d)
    o3, k3 = orient_exact(c, d, a)
    o4, k4 = orient_exact(c, d, b)
    meet = intersect_exact(a, b, c, d, o1, o2, o3, o4)
    Q, M = frame(P)
    dist = core_distance_float(Q, meet)
    ra, rb = R[:, 0].copy(), R[:, 1].copy()
    cc, cc_checked, f1 = capsule_exact(P, M, dist, ra, rb)
    zero = np.zeros_like(rb)
    cs, cs_checked, f2 = capsule_exact(P, M, dist, ra, zero)
    if not stats["self-checked"]:
        self_check(P, R, (o1, o2, o3, o4), meet, cc, cc_checked)
        stats["self-checked"] = True
    stats["oracle"] += time.perf_counter() - t0
    stats["integer signs"] += k1 + k2 + k3 + k4
    stats["fraction capsules"] += f1 + f2
    n = len(P)
    seg_ab = np.hstack([a, b])
    seg_cd = np.hstack([c, d])

    def case_of(i):
        return f"a, b, c, d = {rows_of(P, i)}"

    def triple_of(i):
        j, k = divmod(i, n)
        p, q, r = [(0, 1, 2), (0, 1, 3), (2, 3, 0), (2, 3, 1)][j]
        return "orient2d" + repr(tuple((float(P[k, m, 0]), float(P[k, m, 1])) for m in (p, q, r)))

    def capsules_of(i):
        return f"{case_of(i)}, ra, rb = {float(ra[i])!r}, {float(rb[i])!r}"

    def capsule_segment_of(i):
        return f"{case_of(i)}, ra = {float(ra[i])!r} (cd a Segment)"

    for name, fc in mods.items():
        t = tallies[name]
        if hasattr(fc, "orient2d"):
            # (a build from before orient2d existed has the other checks only)
            got = np.concatenate([
                timed(t, CHECKS[0], fc.orient2d, a, b, c),
                timed(t, CHECKS[0], fc.orient2d, a, b, d),
                timed(t, CHECKS[0], fc.orient2d, c, d, a),
                timed(t, CHECKS[0], fc.orient2d, c, d, b)])
            t.add(CHECKS[0], got, np.concatenate([o1, o2, o3, o4]), triple_of)
        t.add(CHECKS[1], timed(t, CHECKS[1], fc.segments_intersect, a, b, c, d), meet, case_of)
        dd = timed(t, CHECKS[2], fc.segment_segment_distance, a, b, c, d)
        t.add(CHECKS[2], dd == 0.0, meet, case_of)
        s1, s2 = fc.SegmentArray(seg_ab), fc.SegmentArray(seg_cd)
        t.add(CHECKS[3], timed(t, CHECKS[3], fc.collide, s1, s2), meet, case_of)
        k1_ = fc.CapsuleArray(np.hstack([seg_ab, ra[:, None]]))
        k2_ = fc.CapsuleArray(np.hstack([seg_cd, rb[:, None]]))
        t.add(CHECKS[4], timed(t, CHECKS[4], fc.collide, k1_, k2_), cc, capsules_of, cc_checked)
        t.add(CHECKS[5], timed(t, CHECKS[5], fc.collide, k1_, s2), cs, capsule_segment_of,
              cs_checked)


def sweep_chunk(mods, tallies, P):
    a, b, c, d = (np.ascontiguousarray(P[:, i, :]) for i in range(4))
    apart = np.zeros(len(P), dtype=bool)

    def case_of(i):
        return f"a, b, c, d = {rows_of(P, i)}"

    for name, fc in mods.items():
        t = tallies[name]
        t.add(CHECKS[6], timed(t, CHECKS[6], fc.segments_intersect, a, b, c, d), apart,
              case_of)
        got = timed(t, CHECKS[7], fc.collide, fc.SegmentArray(np.hstack([a, b])),
                    fc.SegmentArray(np.hstack([c, d])))
        t.add(CHECKS[7], got, apart, case_of)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="cases per check (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--backend", choices=["compiled", "reference", "both"], default="compiled")
    parser.add_argument("--quick", action="store_true", help=f"n = {QUICK_N:,}")
    args = parser.parse_args(argv)
    n = QUICK_N if args.quick else args.n
    names = ["compiled", "reference"] if args.backend == "both" else [args.backend]
    mods = {name: load(name) for name in names}
    tallies = {name: Tally() for name in names}
    stats = {"draw": 0.0, "oracle": 0.0, "integer signs": 0, "fraction capsules": 0,
             "self-checked": False}
    rng = random.Random(args.seed)
    start = time.perf_counter()

    for lo in range(0, n, CHUNK):
        m = min(CHUNK, n - lo)
        t0 = time.perf_counter()
        P, R = draw(rng, m, exact.hard_case, True)
        stats["draw"] += time.perf_counter() - t0
        check_chunk(mods, tallies, P, R, stats)
    for lo in range(0, n, CHUNK):
        m = min(CHUNK, n - lo)
        t0 = time.perf_counter()
        P, _ = draw(rng, m, exact.disjoint_collinear, False)
        stats["draw"] += time.perf_counter() - t0
        sweep_chunk(mods, tallies, P)
    total = time.perf_counter() - start

    print(f"fastcol topology check: n = {n:,} per check, seed {args.seed}, "
          f"cases from tests/exact.py ({', '.join(exact.CASES)})")
    failed = False
    for name in names:
        t = tallies[name]
        print(f"\nbackend {name}")
        print(f"  {'check':40s} {'cases':>10s} {'disagree':>9s} {'skipped':>9s} {'library s':>10s}")
        for check in CHECKS:
            print(f"  {check:40s} {t.cases[check]:>10,} {t.bad[check]:>9,} "
                  f"{t.skipped[check]:>9,} {t.seconds[check]:>10.2f}")
            failed |= t.bad[check] > 0
        for check in CHECKS:
            for line in t.examples[check]:
                print(f"  {check}: {line}")
    print(f"\n(skipped: capsule pairs whose exact core distance is within {BAND:g} of the "
          f"pair's size of ra + rb)")
    print(f"time {total:.1f} s: drawing cases {stats['draw']:.1f} s, exact oracle "
          f"{stats['oracle']:.1f} s ({stats['integer signs']:,} signs in integers, "
          f"{stats['fraction capsules']:,} capsule rows in Fraction)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
