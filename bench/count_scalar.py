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

Arguments come in threes (query, shape A, shape B; ``raycast`` uses A only).  With
``--apart`` a pair query runs on bench_scalar's separated placement (the one timed for
``distance``) instead of its own: ``contact`` and ``collide`` of shapes that do not meet.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
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


def count(query: str, a: str, b: str, calls: int, workdir: Path, apart: bool = False) -> float:
    """Instructions per call of ``query`` on bench_scalar's shapes ``a`` and ``b``."""
    child = workdir / "child.py"
    child.write_text(CHILD.format(bench=str(Path(__file__).resolve().parent)))
    out = workdir / f"callgrind.{query}.{a}.{b}"
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--collect-atstart=no",
         "--toggle-collect=fc_entry_call_*", f"--toggle-collect=__pyx_pw_7fastcol_4_ext_*{query}",
         f"--callgrind-out-file={out}",
         sys.executable, str(child), query, a, b, str(calls), "1" if apart else "0"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ,
    )
    total = re.search(r"^summary:\s+(\d+)", out.read_text(), re.M)
    return int(total.group(1)) / calls


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="*", metavar="QUERY A B")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--apart", action="store_true",
                        help="pairs on the separated placement (bench_scalar's distance one)")
    args = parser.parse_args(argv)
    if len(args.rows) % 3:
        parser.error("rows come in threes: QUERY A B")
    if shutil.which("valgrind") is None:
        print("valgrind not found: nothing counted", file=sys.stderr)
        return 1
    rows = [tuple(args.rows[i:i + 3]) for i in range(0, len(args.rows), 3)] or DEFAULT
    print(f"| query | pair{' (apart)' if args.apart else ''} | instructions per call |")
    print("|---|---|--:|")
    with tempfile.TemporaryDirectory() as tmp:
        for query, a, b in rows:
            pair = a if query == "raycast" else f"{a}-{b}"
            per_call = count(query, a, b, args.calls, Path(tmp), args.apart)
            print(f"| {query} | {pair} | {per_call:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
