"""Instructions per step of the ball pit's collision work, counted by callgrind.

``bench/bench_demo.py`` times the demo's steps, and on a shared machine those times
swing by a third between runs minutes apart.  The number of instructions a step's
collision work executes does not: this script counts it, so a change to a kernel or to
the demo's NumPy glue can be judged by a figure that repeats to the instruction.

It builds the demo's scene (``--bodies``, seed 0), runs ``--settle`` steps on one
thread (the pile at rest, as bench_demo measures it) and saves the positions; under
callgrind a second process restores them, calls ``fastcol.demo.find_contacts`` once
(first-call costs), then ``--calls`` times with the cyclic garbage collector off,
counting only those calls (inside ``sys.call_tracing``).  The cost of one call is split
into:

- ``overlapping_pairs``: the broadphase call (its whole C entry point);
- ``contact <type pair>``: each of the ten element-wise contact calls, counted apart
  in a third process that gathers each type pair's rows as find_contacts does and
  calls ``fc.contact`` on them (callgrind dumps a profile after each call);
- ``NumPy and Python``: the rest of find_contacts (bounding boxes, the sort of the
  candidate pairs by type pair, the gathers of their rows, the stores of the results).

Counts are for ``workers=1``: with helpers, the same instructions are shared between
threads (plus the pool's own few).  Two runs give the same counts (checked: to the
instruction at 5,000 bodies).

How to run (from the repository root; needs valgrind and an in-place build)::

    PYTHONPATH=src python bench/count_demo.py
    PYTHONPATH=src python bench/count_demo.py --bodies 2000 --calls 10
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# the child.  "settle": run the scene and save its positions (no valgrind: find_contacts
# reads nothing else).  "find": restore them, call find_contacts 1 + `calls` times.  "pairs":
# restore them, gather each type pair's rows as find_contacts does and call fc.contact
# on them `calls` times a pair (callgrind dumps a profile after each call)
CHILD = """
import importlib, sys, json
import numpy as np
step = importlib.import_module("fastcol.demo.step")
from fastcol.demo import Params, make_scene, run
mode, state, bodies, settle, calls = sys.argv[1], sys.argv[2], *(int(v) for v in sys.argv[3:6])
scene = make_scene(bodies, 0)
if mode == "settle":
    run(scene, settle, Params(workers=1))
    np.save(state, scene.pos)
    sys.exit(0)
scene.pos[...] = np.load(state)
scene.sync()
if mode == "find":
    # one call first in both runs: first-call costs (lazy imports, the broadphase's
    # scratch buffers, NumPy's caches) fall outside the difference; and no cyclic
    # garbage collection, which runs when allocations add up (in one run, not in the
    # other) and walks every object of the interpreter
    import gc
    step.find_contacts(scene, None, 1)
    gc.collect()
    gc.disable()

    def measured():
        for _ in range(calls):
            step.find_contacts(scene, None, 1)

    # callgrind counts only inside sys.call_tracing (its C function), that is, the calls
    sys.call_tracing(measured, ())
    sys.exit(0)
fc = scene.fc
pairs = fc.overlapping_pairs(fc.AABBArray(np.tile(scene.pos, 2) + scene.box_offsets))
code = np.take(scene.kind4, pairs[:, 0]) + np.take(scene.kind, pairs[:, 1])
rows = {}
for s, t in step.TYPE_PAIRS:
    m = np.flatnonzero(code == 4 * s + t)
    if len(m):
        a = scene.arrays[s][np.take(scene.row, pairs[m, 0])]
        b = scene.arrays[t][np.take(scene.row, pairs[m, 1])]
        for _ in range(calls):
            fc.contact(a, b)
        rows[f"{s} {t}"] = len(m)
print(json.dumps(rows))
"""

TYPES = ("Circle", "Capsule", "OBB", "Polygon")
BROADPHASE = "__pyx_pw_7fastcol_4_ext_10broadphase_1overlapping_pairs"
CONTACT = "__pyx_pw_7fastcol_4_ext_5batch_7contact"


def child(work: Path, mode: str, args, valgrind=()) -> str:
    """Run the child (under valgrind's arguments, if any); returns its stdout."""
    return subprocess.run(
        [*valgrind, sys.executable, str(work / "child.py"), mode, str(work / "pos.npy"),
         *(str(a) for a in args)],
        check=True, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
    ).stdout


def summary(path: Path) -> int:
    """The total instructions of a callgrind output (0 when it collected nothing)."""
    m = re.search(r"^(?:summary|totals):\s+(\d+)", path.read_text(), re.M)
    return int(m.group(1)) if m else 0


def inclusive(path: Path) -> dict[str, int]:
    """Inclusive instructions of every function in a callgrind output, and the total."""
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--tree=none", "--auto=no",
         "--threshold=100", str(path)],
        check=True, capture_output=True, text=True,
    ).stdout
    costs = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([ \d.]+%\)\s+)?(\S.*)$", line)
        if m:
            name = m.group(2).split(" [")[0].split(":")[-1]
            costs[name] = max(costs.get(name, 0), int(m.group(1).replace(",", "")))
    costs["TOTAL"] = summary(path)
    return costs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bodies", type=int, default=5000)
    parser.add_argument("--settle", type=int, default=400)
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args(argv)
    if args.bodies < 1 or args.settle < 0 or args.calls < 1:
        parser.error("--bodies and --calls must be >= 1, --settle >= 0")
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("valgrind (callgrind) not found: nothing counted", file=sys.stderr)
        return 1
    n, calls = args.bodies, args.calls
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "child.py").write_text(CHILD)
        child(work, "settle", [n, args.settle, 0])
        out = work / "callgrind.find"
        child(work, "find", [n, 0, calls], [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            "--toggle-collect=sys_call_tracing", f"--callgrind-out-file={out}"])
        costs = inclusive(out)
        if costs["TOTAL"] == 0:
            print("callgrind counted nothing: this Python's sys_call_tracing has no symbol "
                  "(a stripped build?)", file=sys.stderr)
            return 1
        out = work / "callgrind.pairs"
        rows = json.loads(child(work, "pairs", [n, 0, calls], [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            f"--toggle-collect={CONTACT}", f"--dump-after={CONTACT}",
            f"--callgrind-out-file={out}"]))
        parts = sorted(work.glob("callgrind.pairs.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
        per_part = [summary(p) for p in parts]
    per_part = [c for c in per_part if c > 0]

    def per_call(name):
        return costs.get(name, 0) / calls

    total, broad, contact = per_call("TOTAL"), per_call(BROADPHASE), per_call(CONTACT)
    print(f"fastcol.demo.find_contacts, {n:,} bodies after {args.settle} steps (seed 0), "
          f"workers=1: instructions per call, mean of {calls} calls\n")
    print("| part | rows | instructions | per row |")
    print("|---|--:|--:|--:|")
    print(f"| overlapping_pairs | {n:,} | {broad:,.0f} | {broad / n:,.0f} |")
    if len(per_part) == calls * len(rows):
        for i, (key, m) in enumerate(rows.items()):
            s, t = (int(v) for v in key.split())
            c = sum(per_part[i * calls:(i + 1) * calls]) / calls
            print(f"| contact {TYPES[s]}-{TYPES[t]} | {m:,} | {c:,.0f} | {c / m:,.0f} |")
    m = sum(rows.values())
    print(f"| contact, all calls | {m:,} | {contact:,.0f} | {contact / max(1, m):,.0f} |")
    print(f"| NumPy and Python (the rest) | | {total - broad - contact:,.0f} | |")
    print(f"| find_contacts | | {total:,.0f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
