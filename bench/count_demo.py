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
  in a third process that makes the same calls with a module that records each
  contact call's operands (callgrind dumps a profile after each call);
- ``NumPy and Python``: the rest of find_contacts (bounding boxes, the sort of the
  candidate pairs by type pair, their rows in the type arrays, the stores of the
  results).

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
# reads nothing else).  "find": restore them, call find_contacts once (first-call
# costs), then `calls` times; "pairs" makes the same calls with a scene whose module
# records each contact call's operands (callgrind dumps a profile after each call)
CHILD = """
import gc, importlib, json, sys
import numpy as np
step = importlib.import_module("fastcol.demo.step")
from fastcol.demo import Params, make_scene, run
mode, state, bodies, settle, calls = sys.argv[1], sys.argv[2], *(int(v) for v in sys.argv[3:6])
scene = make_scene(bodies, 0)
if mode == "settle":
    run(scene, settle, Params(workers=1))
    # the bodies turn: their shape rows are the state find_contacts reads
    np.savez(state, *[a.data if hasattr(a, "data") else a.vertices for a in scene.arrays])
    sys.exit(0)
saved = np.load(state if state.endswith(".npz") else state + ".npz")
for k, a in enumerate(scene.arrays):
    (a.data if hasattr(a, "data") else a.vertices)[...] = saved[f"arr_{k}"]
step.find_contacts(scene, None, 1)


class Recording:
    # the fastcol module, but noting the kinds and rows of every contact call
    def __init__(self, fc):
        self._fc = fc
        self.calls = []

    def __getattr__(self, name):
        return getattr(self._fc, name)

    def contact(self, a, b, **kwargs):
        rows = kwargs.get("pairs")
        self.calls.append((type(a).__name__, type(b).__name__,
                           len(a) if rows is None else len(rows)))
        return self._fc.contact(a, b, **kwargs)


if mode == "pairs":
    scene.fc = Recording(scene.fc)
# no cyclic garbage collection: it runs when allocations add up and walks every object
gc.collect()
gc.disable()


def measured():
    for _ in range(calls):
        step.find_contacts(scene, None, 1)


# callgrind counts only inside sys.call_tracing (its C function), that is, the calls
sys.call_tracing(measured, ())
if mode == "pairs":
    print(json.dumps(scene.fc.calls))
"""

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
        made = json.loads(child(work, "pairs", [n, 0, calls], [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            f"--toggle-collect={CONTACT}", f"--dump-after={CONTACT}",
            f"--callgrind-out-file={out}"]))
        parts = sorted(work.glob("callgrind.pairs.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
        # one profile per contact call, the warm-up call's first: keep the last ones
        per_part = [c for c in (summary(p) for p in parts) if c > 0][-len(made):]
    # rows and instructions by type pair, over the measured calls
    rows, cost = {}, {}
    for (ka, kb, m), c in zip(made, per_part):
        rows[ka, kb] = rows.get((ka, kb), 0) + m / calls
        cost[ka, kb] = cost.get((ka, kb), 0) + c / calls

    def per_call(name):
        return costs.get(name, 0) / calls

    total, broad, contact = per_call("TOTAL"), per_call(BROADPHASE), per_call(CONTACT)
    print(f"fastcol.demo.find_contacts, {n:,} bodies after {args.settle} steps (seed 0), "
          f"workers=1: instructions per call, mean of {calls} calls\n")
    print("| part | rows | instructions | per row |")
    print("|---|--:|--:|--:|")
    print(f"| overlapping_pairs | {n:,} | {broad:,.0f} | {broad / n:,.0f} |")
    for (ka, kb), m in rows.items():
        name = f"{ka.removesuffix('Array')}-{kb.removesuffix('Array')}"
        print(f"| contact {name} | {m:,.0f} | {cost[ka, kb]:,.0f} | {cost[ka, kb] / m:,.0f} |")
    m = sum(rows.values())
    print(f"| contact, all calls | {m:,.0f} | {contact:,.0f} | {contact / max(1, m):,.0f} |")
    print(f"| NumPy and Python (the rest) | | {total - broad - contact:,.0f} | |")
    print(f"| find_contacts | | {total:,.0f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
