"""What ``workers=2`` costs and saves a call that comes after the program did other work.

A game calls the batch queries once or twice a frame, between other work, so the
helper threads of ``workers=`` have often gone to sleep (they spin 1 ms after a call)
and a call may find a helper sharing its CPU.  This script times ``overlapping_pairs``
and ``contact`` on random scenes of N shapes after a busy gap (the calling thread keeps
its CPU, as a frame loop does), with ``workers=1`` and ``workers=2`` alternating call by
call, and prints the median and 90th percentile of each.  A call that waited on a
descheduled helper shows as a 90th percentile of a millisecond or more.

    PYTHONPATH=src python bench/bench_workers.py
    PYTHONPATH=src python bench/bench_workers.py --sizes 300 5000 --gaps 0 5 --calls 400
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

import fastcol as fc


def scene(n, seed=0):
    """n AABBs of side 1.2 on a square of about 4 n, and n circle-box pairs to contact."""
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 2 * np.sqrt(n), (n, 2))
    boxes = fc.AABBArray(np.hstack([xy, xy + 1.2]))
    circles = fc.CircleArray(np.column_stack([xy + rng.uniform(0, 1, (n, 2)),
                                              rng.uniform(0.2, 0.8, n)]))
    obbs = fc.OBBArray(np.column_stack([xy, rng.uniform(0.2, 0.6, (n, 2)),
                                        rng.uniform(-3, 3, n)]))
    return {"overlapping_pairs": lambda w: fc.overlapping_pairs(boxes, workers=w),
            "contact": lambda w: fc.contact(circles, obbs, workers=w)}


def busy(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 3000, 30000])
    parser.add_argument("--gaps", type=float, nargs="+", default=[0.0, 2.0, 10.0],
                        help="ms of busy work before each call")
    parser.add_argument("--calls", type=int, default=200, help="calls per cell and worker count")
    args = parser.parse_args()
    print(f"machine: {platform.system()} {platform.machine()}; Python "
          f"{platform.python_version()}; fastcol {fc.__version__} ({fc.backend})\n")
    print("| query | N | gap (ms) | workers=1 median (p90) ms | workers=2 median (p90) ms | w1/w2 |")
    print("|---|--:|--:|--:|--:|--:|")
    for n in args.sizes:
        queries = scene(n)
        for name, query in queries.items():
            query(1), query(2)  # warm: buffers, helper threads
            for gap in args.gaps:
                times = {1: [], 2: []}
                for _ in range(args.calls):
                    for w in (1, 2):
                        busy(gap / 1e3)
                        t0 = time.perf_counter()
                        query(w)
                        times[w].append(time.perf_counter() - t0)
                cell = {w: (1e3 * np.median(t), 1e3 * np.percentile(t, 90)) for w, t in times.items()}
                print(f"| {name} | {n:,} | {gap:g} | {cell[1][0]:.3f} ({cell[1][1]:.3f}) "
                      f"| {cell[2][0]:.3f} ({cell[2][1]:.3f}) | {cell[1][0] / cell[2][0]:.2f}x |")


if __name__ == "__main__":
    main()
