"""What a scalar query's result record costs: records dropped at once, or all kept.

The compiled backend reuses the last record a query returned once nothing else refers
to it (``_ext/records.pyx``).  A loop that reads each record and lets it go (a game
loop) gets that saving; a loop that keeps every record (here: appends it to a list)
must allocate each one, and should cost what it did before the reuse.  This script
times both loops for ``contact`` on two pairs of ``bench_scalar.py`` (circles, hexagons)
and prints nanoseconds per call, the median of several repeats of process CPU time: run
it on two builds to compare them (the loops' own cost, a list append included, is the
same in both).

How to run (from the repository root, after an in-place build)::

    PYTHONPATH=src python bench/bench_records.py
    PYTHONPATH=src python bench/bench_records.py --calls 100000 --repeats 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_scalar  # noqa: E402  (the shapes of the scalar benchmark)


def per_call(loop, calls: int) -> float:
    """Nanoseconds per call of one run of ``loop(calls)``."""
    start = time.process_time()
    loop(calls)
    return (time.process_time() - start) / calls * 1e9


def loops(query, a, b):
    def dropped(calls):
        for _ in range(calls):
            query(a, b)

    def kept(calls):
        out = []
        keep = out.append
        for _ in range(calls):
            keep(query(a, b))

    return dropped, kept


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    from fastcol._api import load

    mod = load("compiled")

    rows = {}
    for kind in ("Circle", "Polygon"):
        a, b = bench_scalar.call_args(mod, "contact", kind, kind)
        rows[f"contact {kind}-{kind}"] = loops(mod.contact, a, b)
    samples = {name: ([], []) for name in rows}
    for loop_pair in rows.values():
        for loop in loop_pair:
            loop(args.calls)  # warm up (the kept loop's list grows its memory once)
    # the loops interleaved, repeat by repeat, so that a slow spell of the machine
    # falls on all of them alike
    for _ in range(args.repeats):
        for name, (dropped, kept) in rows.items():
            samples[name][0].append(per_call(dropped, args.calls))
            samples[name][1].append(per_call(kept, args.calls))
    print("| call | records dropped ns | records kept ns |")
    print("|---|--:|--:|")
    for name, (d, k) in samples.items():
        print(f"| {name} | {statistics.median(d):.1f} | {statistics.median(k):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
