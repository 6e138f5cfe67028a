"""The ball pit's step time: broadphase, contacts and response, per step.

Runs the demo's scene (``fastcol.demo``) for ``--steps`` fixed steps and reports the
median time per step of each part over the steps after ``--settle`` (the bodies have
landed and the pile is resting: the steady state a game sees), with the spread
(10th-90th percentile).  The issue's bar, checked at 5,000 bodies: broadphase plus
contacts at most 3 ms per step, and the whole step within 1/60 s (60 steps/s), with the
demo's default of two threads for the broadphase queries and the contact calls; one
thread is measured alongside.

    PYTHONPATH=src python bench/bench_demo.py                  # 5,000 and 2,000 bodies
    PYTHONPATH=src python bench/bench_demo.py --bodies 5000 --steps 600 --settle 400
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

import fastcol
from fastcol.demo import Params, Timings, make_scene, run


def measure(n, steps, settle, seed, workers):
    """Per-step times of each part, for each thread count in ``workers``.

    One scene per thread count, all from the same seed, stepped in turn (step k of
    each, then step k + 1 of each): the runs are identical bit for bit (threads do not
    change the answers), and a busy spell on the machine falls on all of them alike.
    """
    scenes = {w: make_scene(n, seed) for w in workers}
    steps_of = {w: Timings() for w in workers}
    t0 = time.perf_counter()
    for _ in range(steps):
        for w in workers:
            one = run(scenes[w], 1, Params(workers=w))
            for name in ("broadphase", "narrowphase", "response", "contacts"):
                getattr(steps_of[w], name).extend(getattr(one, name))
    wall = time.perf_counter() - t0
    result = {}
    for w in workers:
        timings = steps_of[w]
        parts = {name: 1e3 * np.array(getattr(timings, name)[settle:])
                 for name in ("broadphase", "narrowphase", "response")}
        parts["collision"] = parts["broadphase"] + parts["narrowphase"]
        parts["step"] = parts["collision"] + parts["response"]
        result[w] = (parts, np.array(timings.contacts[settle:]))
    return result, wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, nargs="+", default=[5000, 2000])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--settle", type=int, default=400,
                        help="steps left out of the medians (falling and landing)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 1],
                        help="thread counts of the broadphase queries and contact calls, "
                             "each its own run "
                             "(default 2, the demo's, and 1); the targets are checked "
                             "on the first")
    args = parser.parse_args()
    print(f"machine: {platform.system()} {platform.release()} {platform.machine()}; "
          f"Python {platform.python_version()}; NumPy {np.__version__}; "
          f"fastcol {fastcol.__version__} ({fastcol.backend})")
    print(f"steps {args.settle + 1}-{args.steps} of {args.steps} (1/60 s each), seed {args.seed}; "
          f"ms per step, median (10th-90th percentile)\n")
    print("| bodies | threads | contacts | broadphase | contacts (narrowphase) "
          "| broadphase + contacts | response | whole step | steps/s |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    checks = []
    for n in args.bodies:
        results, wall = measure(n, args.steps, args.settle, args.seed, args.workers)
        for w, (parts, contacts) in results.items():

            def cell(name):
                v = parts[name]
                return (f"{np.median(v):.2f} "
                        f"({np.percentile(v, 10):.2f}-{np.percentile(v, 90):.2f})")

            print(f"| {n:,} | {w} | {int(np.median(contacts)):,} | {cell('broadphase')} | "
                  f"{cell('narrowphase')} | {cell('collision')} | {cell('response')} | "
                  f"{cell('step')} | {1e3 / float(np.median(parts['step'])):.0f} |")
        parts, _ = results[args.workers[0]]
        step = float(np.median(parts["step"]))
        if n == 5000:
            collision = float(np.median(parts["collision"]))
            checks.append((collision <= 3.0, f"5,000 bodies: broadphase + contacts <= 3 ms per step "
                                             f"({collision:.2f} ms, {args.workers[0]} "
                                             f"thread(s))"))
            checks.append((step <= 1e3 / 60, f"5,000 bodies: whole step <= 16.7 ms, 60 steps/s "
                                             f"({step:.2f} ms, {1e3 / step:.0f} steps/s)"))
        if n == 2000:
            checks.append((step <= 1e3 / 60, f"default scene (2,000 bodies): 60 steps/s "
                                             f"({1e3 / step:.0f} steps/s)"))
    print()
    for ok, text in checks:
        print(f"{'PASS' if ok else 'MISS'}  {text}")


if __name__ == "__main__":
    main()
