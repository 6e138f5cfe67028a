"""Instructions per scalar query call, counted by callgrind (deterministic, unlike time).

On a shared machine the clock moves more than a 5-15% change in a query's cost; the
number of instructions a call executes does not.  For each ``QUERY A B`` this runs
``valgrind --tool=callgrind --collect-atstart=no --toggle-collect='fc_entry_call_*'
--toggle-collect='__pyx_pw_7fastcol_4_ext_*QUERY'`` over ``--calls`` calls of the
compiled query on the shapes of ``bench/bench_scalar.py`` and prints the total divided
by the number of calls: the instructions from entering the query's entry point (the C
entry of ``_ext/entry.pxd``, or a def's wrapper) to leaving it (not the interpreter's
call around it, which ``def floor(a, b): pass`` also pays).

How to run (from the repository root; needs valgrind and an in-place build)::

    PYTHONPATH=src python bench/count_scalar.py                     # the default rows
    PYTHONPATH=src python bench/count_scalar.py contact Circle Capsule distance Polygon Polygon
    PYTHONPATH=src python bench/count_scalar.py --apart contact Polygon Polygon
    PYTHONPATH=src python bench/count_scalar.py --all --against ../base/src

``--all`` counts every row of ``bench_scalar.py``'s table (111, about ten minutes).
``--against DIR`` also counts each row on the in-place build whose package directory
is ``DIR`` (a worktree of another commit, built with ``python setup.py build_ext
--inplace``) and prints both counts and their ratio, then how many rows grew by more
than 10%: a paired comparison that does not move with the machine's load.

Arguments come in threes (query, shape A, shape B; ``raycast`` uses A only).  With
``--apart`` a pair query runs on bench_scalar's separated placement (the one timed for
``distance``) instead of its own: ``contact`` and ``collide`` of shapes that do not meet.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT = [
    ("collide", "Polygon", "Polygon"), ("distance", "Circle", "Circle"),
    ("distance", "Polygon", "Polygon"), ("closest_points", "Polygon", "Polygon"),
    ("contact", "Circle", "Circle"), ("contact", "Capsule", "Capsule"),
    ("contact", "Polygon", "Polygon"), ("raycast", "Circle", "Circle"),
    ("time_of_impact", "Circle", "Circle"), ("time_of_impact", "Capsule", "Capsule"),
]

# the child: calls one query `calls` times on bench_scalar's shapes
CHILD = """
import sys
sys.path.insert(0, {bench!r})
import bench_scalar
try:
    from fastcol._api import load
    mod = load("compiled")
except ImportError:  # a build from before fastcol._api (--against an older commit)
    import fastcol._ext as mod
query, a, b, calls, apart = sys.argv[1:4] + [int(sys.argv[4]), sys.argv[5] == "1"]
f = getattr(mod, query)
if apart and query != "raycast":
    args = bench_scalar.pair_shapes(mod, "distance", a, b)
else:
    args = bench_scalar.call_args(mod, query, a, b)
for _ in range(calls):
    f(*args)
"""


def count(query: str, a: str, b: str, calls: int, workdir: Path, apart: bool = False,
          src: str | None = None) -> float:
    """Instructions per call of ``query`` on bench_scalar's shapes ``a`` and ``b``
    (on the build in ``src`` when given, else on the one the environment imports)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    child = workdir / "child.py"
    child.write_text(CHILD.format(bench=str(Path(__file__).resolve().parent)))
    out = workdir / f"callgrind.{query}.{a}.{b}.{'base' if src else 'this'}"
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--collect-atstart=no",
         "--toggle-collect=fc_entry_call_*", f"--toggle-collect=__pyx_pw_7fastcol_4_ext_*{query}",
         f"--callgrind-out-file={out}",
         sys.executable, str(child), query, a, b, str(calls), "1" if apart else "0"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )
    total = re.search(r"^summary:\s+(\d+)", out.read_text(), re.M)
    return int(total.group(1)) / calls


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="*", metavar="QUERY A B")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--apart", action="store_true",
                        help="pairs on the separated placement (bench_scalar's distance one)")
    parser.add_argument("--all", action="store_true", help="every row of bench_scalar.py")
    parser.add_argument("--against", metavar="DIR",
                        help="also count on the in-place build in DIR (its src directory)")
    args = parser.parse_args(argv)
    if len(args.rows) % 3:
        parser.error("rows come in threes: QUERY A B")
    if args.all:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_scalar

        args.rows = [x for q in bench_scalar.QUERIES for pair in bench_scalar.cases(q)
                     for x in (q, *pair)]
    if shutil.which("valgrind") is None:
        print("valgrind not found: nothing counted", file=sys.stderr)
        return 1
    rows = [tuple(args.rows[i:i + 3]) for i in range(0, len(args.rows), 3)] or DEFAULT
    head = f"| query | pair{' (apart)' if args.apart else ''} |"
    if args.against:
        print(f"{head} base | this | this/base |\n|---|---|--:|--:|--:|")
    else:
        print(f"{head} instructions per call |\n|---|---|--:|")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for query, a, b in rows:
            pair = a if query == "raycast" else f"{a}-{b}"
            per_call = count(query, a, b, args.calls, Path(tmp), args.apart)
            if not args.against:
                print(f"| {query} | {pair} | {per_call:,.0f} |", flush=True)
                continue
            base = count(query, a, b, args.calls, Path(tmp), args.apart, args.against)
            ratios.append(per_call / base)
            print(f"| {query} | {pair} | {base:,.0f} | {per_call:,.0f} | {ratios[-1]:.2f} |",
                  flush=True)
    if ratios:
        print(f"\n{sum(r > 1.1 for r in ratios)} of {len(ratios)} rows more than 10% above "
              f"the base; median ratio {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
