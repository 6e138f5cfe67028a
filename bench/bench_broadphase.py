"""Benchmark of overlapping_pairs (the broadphase): compiled backend against brute force
and against scipy's cKDTree, and the scenes that break naive grids.

    python bench/bench_broadphase.py [--quick] [--repeat N]

Columns (milliseconds, median of the repeats; ratios are within this one run):
- ``compiled``: ``fc.overlapping_pairs`` with ``workers=1`` (and ``workers=2``).
- ``brute force`` (10,000 circles only): the compiled batch ``fc.collide(A[i], A)`` for
  every row i, one call per row (N calls over N rows each: every pair tested, both
  orders), then the pairs i < j picked out of the hits.
- ``cKDTree``: ``scipy.spatial.cKDTree`` build + ``query_pairs(r)`` on the shapes'
  bounding-circle centres (``r`` = twice the largest bounding radius) + the exact filter
  (the compiled element-wise ``fc.collide`` over the candidate pairs).  Skipped, with a
  note, when scipy is missing (``pip install fastcol[bench]``).

Collision filters: ``100,000 circles`` again, each in category 1 or 2 at random with
a mask of its own category only (so about half of the colliding pairs, and of the
candidates, are ruled out), against the same call without filters; both answers are
checked against each other (the filtered pairs are the unfiltered ones the rule keeps).

The adversarial scenes (every pair overlapping, one huge among tiny, a thin line, far
outliers) report time and memory: each runs in a fresh subprocess that measures the
peak resident memory of the calls above what was resident before them (on Linux the
peak is reset first through ``/proc/self/clear_refs`` and read from VmHWM; elsewhere
the ``resource.getrusage`` maxrss delta, which undercounts when an earlier peak was
higher), set against the input and output sizes.  tracemalloc cannot see the kernels'
malloc.  The compiled broadphase keeps up to 64 MB of scratch buffers between calls
(see _ext/broadphase.pyx), which the first call allocates: it is counted here.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

# BLAS thread pools spin on the cores after NumPy's import: keep them out of the timings
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
if os.path.isdir(SRC) and SRC not in sys.path:
    sys.path.insert(0, SRC)

import fastcol as fc  # noqa: E402

try:
    from scipy.spatial import cKDTree
except ImportError:  # optional: the bench extra
    cKDTree = None


def timeit(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


# ----------------------------------------------------------------------------- scenes


def circle_rows(n, neighbours=3.0, seed=0):
    """n unit circles in a square where each has about ``neighbours`` others touching."""
    rng = np.random.default_rng(seed)
    # a circle meets the others whose centres lie within 2 r = 2: pi * 2**2 * density
    side = math.sqrt(n * math.pi * 4 / neighbours)
    return np.c_[rng.uniform(0, side, (n, 2)), np.ones(n)]


def mixed_scene(n, seed=1):
    """n circles, n capsules and n triangles, about three neighbours each."""
    rng = np.random.default_rng(seed)
    side = math.sqrt(3 * n * math.pi * 4 / 3)
    c = rng.uniform(0, side, (n, 2))
    circles = fc.CircleArray(np.c_[c, rng.uniform(0.5, 1.0, n)])
    a = rng.uniform(0, side, (n, 2))
    ang = rng.uniform(0, 2 * math.pi, n)
    b = a + np.c_[np.cos(ang), np.sin(ang)]
    capsules = fc.CapsuleArray(np.c_[a, b, rng.uniform(0.25, 0.5, n)])
    p = rng.uniform(0, side, (n, 2))
    tri = np.stack([p, p + [1.5, 0.0], p + [0.75, 1.2]], axis=1)
    polygons = fc.PolygonArray.from_padded(tri, np.full(n, 3))
    return [circles, capsules, polygons]


def bounding_circles(arr):
    """Centres and radii of circles around each row (for the KD-tree baseline)."""
    if arr.kind == 0:
        return arr.data[:, :2], arr.data[:, 2]
    if arr.kind == 1:
        d = arr.data
        c = (d[:, :2] + d[:, 2:4]) / 2
        return c, np.hypot(*(d[:, 2:4] - d[:, :2]).T) / 2 + d[:, 4]
    v = arr.vertices
    c = v.mean(axis=1)
    return c, np.sqrt(((v - c[:, None]) ** 2).sum(axis=2)).max(axis=1)


def kdtree_pairs(A, B=None):
    """cKDTree build + query + the exact filter (compiled element-wise collide)."""
    ca, ra = bounding_circles(A)
    if B is None:
        pairs = cKDTree(ca).query_pairs(2 * ra.max(), output_type="ndarray")
        other = A
    else:
        cb, rb = bounding_circles(B)
        hits = cKDTree(ca).query_ball_tree(cKDTree(cb), ra.max() + rb.max())
        counts = np.fromiter(map(len, hits), dtype=np.int64, count=len(hits))
        pairs = np.c_[np.repeat(np.arange(len(hits)), counts),
                      np.fromiter((j for h in hits for j in h), dtype=np.int64,
                                  count=counts.sum())]
        other = B
    if len(pairs) == 0:
        return pairs
    keep = fc.collide(A[pairs[:, 0]], other[pairs[:, 1]])
    return pairs[keep]


def brute_pairs(A):
    """Every pair tested: one batch call per row against the whole array."""
    n = len(A)
    out = []
    for i in range(n):
        hit = fc.collide(A[i], A)
        j = np.flatnonzero(hit[i + 1:]) + i + 1
        out.append(np.c_[np.full(len(j), i), j])
    return np.concatenate(out) if out else np.empty((0, 2), dtype=np.int64)


def all_pairs(arrays, workers=1):
    """overlapping_pairs of a scene of several arrays: within each, and across each two."""
    total = 0
    for k, A in enumerate(arrays):
        total += len(fc.overlapping_pairs(A, workers=workers))
        for B in arrays[k + 1:]:
            total += len(fc.overlapping_pairs(A, B, workers=workers))
    return total


def all_pairs_kdtree(arrays):
    total = 0
    for k, A in enumerate(arrays):
        total += len(kdtree_pairs(A))
        for B in arrays[k + 1:]:
            total += len(kdtree_pairs(A, B))
    return total


# --------------------------------------------------------------------- the measurements


def speed_table(repeat, quick):
    rows = []
    scenes = [("10,000 circles", [fc.CircleArray(circle_rows(10_000))], True),
              ("100,000 circles", [fc.CircleArray(circle_rows(100_000))], False),
              ("mixed: 10,000 each of circles, capsules, triangles", mixed_scene(10_000),
               False)]
    for name, arrays, brute in scenes:
        m = all_pairs(arrays)
        row = {"scene": name, "pairs": m}
        row["compiled"] = timeit(lambda: all_pairs(arrays), repeat)
        row["compiled w=2"] = timeit(lambda: all_pairs(arrays, workers=2), repeat)
        if brute:
            A = arrays[0]
            assert np.array_equal(brute_pairs(A), fc.overlapping_pairs(A))
            row["brute force"] = timeit(lambda: brute_pairs(A), 1 if quick else 3)
        if cKDTree is not None:
            assert all_pairs_kdtree(arrays) == m
            row["cKDTree"] = timeit(lambda: all_pairs_kdtree(arrays), repeat)
        rows.append(row)
    return rows


def filter_table(repeat):
    """overlapping_pairs of 100,000 circles without and with filters that rule out half
    of the pairs, the two calls interleaved so that both see the same machine."""
    rows = circle_rows(100_000)
    category = np.random.default_rng(5).integers(1, 3, len(rows)).astype(np.uint32)
    plain = fc.CircleArray(rows)
    filtered = fc.CircleArray(rows, categories=category, masks=category)
    every = fc.overlapping_pairs(plain)
    kept = every[category[every[:, 0]] == category[every[:, 1]]]
    assert np.array_equal(fc.overlapping_pairs(filtered), kept)
    times = {"plain": [], "filtered": []}
    for _ in range(repeat):
        for name, arr in (("plain", plain), ("filtered", filtered)):
            t = time.perf_counter()
            fc.overlapping_pairs(arr)
            times[name].append(time.perf_counter() - t)
    return {"pairs": len(every), "kept": len(kept),
            **{name: statistics.median(v) * 1e3 for name, v in times.items()}}


ADVERSARIAL = {
    "3,000 identical circles (every pair)": """
rows = np.tile([1.0, 2.0, 1.0], (3000, 1))
A = fc.CircleArray(rows)
""",
    "100,000 small circles + one 1000x larger": """
rows = circle_rows(100_000)
rows = np.vstack([rows, [[rows[:, 0].mean(), rows[:, 1].mean(), 1000.0]]])
A = fc.CircleArray(rows)
""",
    "100,000 circles along a thin line": """
rng = np.random.default_rng(2)
t = np.sort(rng.uniform(0, 100_000 * 0.7, 100_000))
rows = np.c_[np.zeros(100_000) + rng.uniform(0, 0.01, 100_000), t, np.ones(100_000)]
A = fc.CircleArray(rows)
""",
    "100,000 circles + 5 far outliers (1e9 to 1e300 away)": """
rows = circle_rows(100_000)
rows[:5, :2] = [[1e9, 1e9], [-1e9, 3e9], [1e25, -1e25], [-1e300, 1e300], [1e9, 1e9 + 1]]
A = fc.CircleArray(rows)
""",
}

CHILD = """
import json, os, resource, sys, time
sys.path.insert(0, {src!r})
sys.path.insert(0, {here!r})
import numpy as np
from bench_broadphase import circle_rows
import fastcol as fc
{setup}
fc.overlapping_pairs(fc.CircleArray(rows[:10]))   # imports and first-call costs


def status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])  # kB


try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")                      # reset the peak (VmHWM) to the current RSS
    before, peak = status("VmRSS"), lambda: status("VmHWM")
except OSError:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
times = []
for _ in range({repeat}):
    t = time.perf_counter()
    out = fc.overlapping_pairs(A)
    times.append(time.perf_counter() - t)
    del out
out = fc.overlapping_pairs(A)
print(json.dumps({{"ms": sorted(times)[len(times) // 2] * 1e3, "pairs": len(out),
                  "peak_mb": (peak() - before) / 1024, "out_mb": out.nbytes / 2**20,
                  "in_mb": rows.nbytes / 2**20}}))
"""


def adversarial_table(repeat):
    rows = []
    for name, setup in ADVERSARIAL.items():
        code = CHILD.format(src=SRC, here=HERE, setup=setup, repeat=repeat)
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if res.returncode:
            raise RuntimeError(f"{name}: {res.stderr}")
        rows.append({"scene": name, **json.loads(res.stdout.strip().splitlines()[-1])})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 9)
    print(f"fastcol {fc.__version__} ({fc.backend}), numpy {np.__version__}, "
          f"{os.cpu_count()} cores, median of {repeat}")
    if fc.backend != "compiled":
        print("warning: the compiled backend is not in use")

    print("\n| scene | pairs | compiled (ms) | workers=2 (ms) | brute force (ms) "
          "| cKDTree + filter (ms) | cKDTree / compiled |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in speed_table(repeat, args.quick):
        brute = f"{r['brute force']:.0f} ({r['brute force'] / r['compiled']:.0f}x)" \
            if "brute force" in r else "-"
        kd = f"{r['cKDTree']:.1f}" if "cKDTree" in r else "n/a"
        ratio = f"{r['cKDTree'] / r['compiled']:.1f}x" if "cKDTree" in r else "n/a"
        print(f"| {r['scene']} | {r['pairs']:,} | {r['compiled']:.1f} | "
              f"{r['compiled w=2']:.1f} | {brute} | {kd} | {ratio} |")
    if cKDTree is None:
        print("\n(cKDTree column skipped: scipy is not installed)")

    r = filter_table(repeat)
    print("\n| collision filters, 100,000 circles | pairs | time (ms) | filtered / plain |")
    print("|---|---:|---:|---:|")
    print(f"| no filters | {r['pairs']:,} | {r['plain']:.1f} | |")
    print(f"| categories 1 or 2, mask = own category | {r['kept']:,} | {r['filtered']:.1f} "
          f"| {r['filtered'] / r['plain']:.2f}x |")

    print("\n| adversarial scene | pairs | time (ms) | peak memory delta (MB) "
          "| output (MB) | input (MB) |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in adversarial_table(max(3, repeat // 3)):
        print(f"| {r['scene']} | {r['pairs']:,} | {r['ms']:.1f} | {r['peak_mb']:.0f} | "
              f"{r['out_mb']:.1f} | {r['in_mb']:.1f} |")


if __name__ == "__main__":
    main()
