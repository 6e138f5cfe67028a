"""Instructions per public call, the interpreter's share included, counted by callgrind.

``count_scalar.py`` counts a scalar query from its C entry on; this script counts whole
calls as a user writes them (``import fastcol as fc; fc.raycast(c, o, d, max_t=5.0)``):
the attribute lookup, the argument passing, keywords, the public function of
``fastcol._api`` where the C entry hands the call on, and small arrays.  Each call runs
``--calls`` times inside ``list(map(...))`` and callgrind collects inside ``list_extend``
only, so the count per call is deterministic.  It includes the loop's and a lambda's
two thousand or so instructions: the first row counts them alone.

How to run (from the repository root; needs valgrind and an in-place build)::

    PYTHONPATH=src python bench/count_calls.py
    PYTHONPATH=src python bench/count_calls.py --against ../base/src

``--against DIR`` counts each call on another commit's in-place build too (``DIR`` is
its package directory) and prints both counts and their ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# the calls, as Python expressions over the names CHILD defines
CALLS = {
    # no call: the loop and the lambda alone, which the layout of a build's objects in
    # memory moves by about a hundred instructions (compare the rows' differences)
    "(the loop alone)": "None",
    "collide(c, c)": "fc.collide(c, c)",
    "collide(c, c, workers=1)": "fc.collide(c, c, workers=1)",
    "raycast(c, o, d, 5.0)": "fc.raycast(c, (0.0, 0.0), (1.0, 0.5), 5.0)",
    "raycast(c, o, d, max_t=5.0)": "fc.raycast(c, (0.0, 0.0), (1.0, 0.5), max_t=5.0)",
    "orient2d(3 points)": "fc.orient2d((0.0, 0.0), (1.0, 0.0), (0.3, 0.7))",
    "segment_segment_distance(4 points)":
        "fc.segment_segment_distance((0.0, 0.0), (1.0, 0.0), (0.3, 0.7), (2.0, 3.0))",
    "collide(c, CircleArray[4])": "fc.collide(c, a4)",
    "collide(CircleArray[4] x2, out=)": "fc.collide(a4, b4, out=o4)",
    "distance(CircleArray[4] x2)": "fc.distance(a4, b4)",
    "contact(CircleArray[4] x2)": "fc.contact(a4, b4)",
    "raycast(CircleArray[4], (4, 2) x2)": "fc.raycast(a4, p4, q4)",
    "closest_point_on_segment((4, 2) x3)": "fc.closest_point_on_segment(p4, q4, r4)",
    "overlapping_pairs(CircleArray[100])": "fc.overlapping_pairs(a100)",
}

CHILD = """
import sys
import numpy as np
import fastcol as fc
assert fc.backend == "compiled"
rng = np.random.default_rng(1)
def circles(n):
    return fc.CircleArray(np.column_stack([rng.uniform(0, 10, (n, 2)), rng.uniform(0.1, 1, n)]))
a4, b4, a100 = circles(4), circles(4), circles(100)
o4 = np.empty(4, bool)
c = fc.Circle(1.0, 2.0, 1.0)
p4, q4, r4 = (rng.uniform(0, 1, (4, 2)) for _ in range(3))
expr, calls = sys.argv[1], int(sys.argv[2])
call = eval("lambda _: " + expr)
call(0)
list(map(call, range(calls)))  # callgrind collects inside list_extend only
"""


def count(src: str, expr: str, calls: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        env = dict(os.environ, PYTHONPATH=src, PYTHONHASHSEED="0")
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no",
             "--toggle-collect=list_extend", f"--callgrind-out-file={out}",
             sys.executable, "-c", CHILD, expr, str(calls)],
            env=env, check=True, capture_output=True)
        with open(out, encoding="utf-8") as f:
            total = next(int(m.group(1)) for line in f
                         if (m := re.match(r"(?:summary|totals): (\d+)", line)))
    return total / calls


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--against", metavar="DIR", help="another build's package directory")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count", file=sys.stderr)
        return 1
    here = os.environ.get("PYTHONPATH", "")
    if args.against:
        print("| call | base | this | this/base |\n|---|--:|--:|--:|")
    else:
        print("| call | instructions |\n|---|--:|")
    for label, expr in CALLS.items():
        this = count(here, expr, args.calls)
        if args.against:
            base = count(args.against, expr, args.calls)
            print(f"| `{label}` | {base:,.0f} | {this:,.0f} | {this / base:.2f} |", flush=True)
        else:
            print(f"| `{label}` | {this:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
