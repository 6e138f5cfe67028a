"""Benchmark of fastcol.dask against the in-memory calls (issue 37).

    python bench/bench_dask.py [--n N] [--chunk C] [--repeat R] [--write-docs]

N circles (default 10,000,000) in chunks of C rows (default 1,000,000), unit radius,
uniform in a square sized as bench_broadphase.py sizes it, so that each circle touches
about three others (``circle_rows``).  Each dask row runs on four schedulers: the
threaded scheduler with 1 and 2 threads (``num_workers``), and a ``distributed``
``LocalCluster`` of 1 and 2 worker processes (one thread each); the bar of the issue is
the last column against the in-memory call with ``workers=1``.

- ``collide + count, rows persisted``: two sets of N circles made on the workers
  (``dask.array.random``) and persisted before the clock starts; timed:
  ``fastcol.dask.collide(a, b).sum().compute()``.  In memory: the same rows as NumPy
  arrays, ``np.count_nonzero(fc.collide(A, B))``.
- ``collide + count, generation included``: the same with making the rows inside the
  clock, on both sides (NumPy's ``default_rng`` in memory, ``dask.array.random`` on the
  workers).
- ``overlapping_pairs, rows persisted``: N circles made on the workers and persisted;
  timed: ``fastcol.dask.overlapping_pairs(rows).compute()`` (the pairs gathered to the
  client).  In memory: ``fc.overlapping_pairs(fc.CircleArray(rows))``; both answers are
  checked equal once.

Wall-clock milliseconds, median of the repeats; ratios are within this one run.
``--write-docs`` writes the table into the section "Dask" of docs/performance.md
(after the Scene index section, replacing it if present).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import shlex
import statistics
import sys
import textwrap
import time
from pathlib import Path

# BLAS thread pools spin on the cores after NumPy's import: keep them out of the timings
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from _docs import cpu_model, git_head, load, write_section  # noqa: E402  (this folder's shared helpers)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
if os.path.isdir(SRC) and SRC not in sys.path:
    sys.path.insert(0, SRC)
    # the worker processes import fastcol from the same tree
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [SRC] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

import dask  # noqa: E402
import dask.array as da  # noqa: E402
import distributed  # noqa: E402

import fastcol as fc  # noqa: E402
import fastcol.dask as fcd  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "performance.md"
SECTION = "## Dask: `bench/bench_dask.py`"
AFTER = "## Scene index: `bench/bench_index.py`"
NEIGHBOURS = 3.0
SEEDS = (37, 38)
SCHEDULERS = ("threads, 1", "threads, 2", "cluster, 1 process", "cluster, 2 processes")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def side(n):
    """The square's side: each unit circle meets about NEIGHBOURS others."""
    return math.sqrt(n * math.pi * 4 / NEIGHBOURS)


def numpy_rows(n, seed):
    """The circles in memory: uniform centres, radius 1."""
    rows = np.random.default_rng(seed).uniform(0, side(n), (n, 3))
    rows[:, 2] = 1.0
    return rows


def numpy_near(rows, seed):
    """Circles each moved from a row of ``rows`` by up to 2 on each axis (about 80%
    of them still touch theirs): the element-wise operand."""
    near = rows + np.random.default_rng(seed).uniform(-2, 2, rows.shape)
    near[:, 2] = 1.0
    return near


def _unit_radius(block):
    # the block is the generator's, used by nothing else: set in place, as numpy_rows
    block[:, 2] = 1.0
    return block


def _near(rows, offsets):
    near = rows + offsets
    near[:, 2] = 1.0
    return near


def dask_rows(n, chunk, seed):
    """``numpy_rows`` made on the workers (``dask.array.random``)."""
    u = da.random.default_rng(seed).uniform(0, side(n), (n, 3), chunks=(chunk, 3))
    return u.map_blocks(_unit_radius, dtype=np.float64)


def dask_near(rows, seed, token="near"):
    """``numpy_near`` made on the workers (``token``: the keys' prefix, new for a graph
    made again after one was persisted, whose keys the scheduler may still hold)."""
    u = da.random.default_rng(seed).uniform(-2, 2, rows.shape, chunks=rows.chunks)
    return da.map_blocks(_near, rows, u, dtype=np.float64, token=token)


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


class Scheduler:
    """One of the four: ``run(x)`` computes ``x`` on it, ``persist(x)`` keeps ``x``'s
    blocks there."""

    def __init__(self, name):
        self.name = name
        self.cluster = self.client = None
        if name.startswith("threads"):
            self.workers = int(name.split(", ")[1])
        else:
            self.workers = int(name.split(", ")[1].split()[0])
            self.cluster = distributed.LocalCluster(
                n_workers=self.workers, processes=True, threads_per_worker=1,
                dashboard_address=":0", memory_limit=0)
            self.client = distributed.Client(self.cluster, set_as_default=False)

    def run(self, *xs):
        if self.client is None:
            return dask.compute(*xs, scheduler="threads", num_workers=self.workers)
        return self.client.compute(list(xs), sync=True)

    def persist(self, x):
        if self.client is None:
            return da.from_array(self.run(x)[0], chunks=x.chunks)
        x = self.client.persist(x)
        with self.client.as_current():
            distributed.wait(x)
        return x

    def close(self):
        if self.client is not None:
            self.client.close()
            self.cluster.close()


def measure(n, chunk, repeat):
    R = {}
    log(f"in memory: {n:,} circles")
    A = numpy_rows(n, SEEDS[0])
    B = numpy_near(A, SEEDS[1])
    ca, cb = fc.CircleArray(A), fc.CircleArray(B)
    R["count"] = int(np.count_nonzero(fc.collide(ca, cb)))
    R[("collide", "memory")] = timed(lambda: np.count_nonzero(fc.collide(ca, cb)), repeat)

    def generated():
        rows = numpy_rows(n, SEEDS[0])
        a, b = fc.CircleArray(rows), fc.CircleArray(numpy_near(rows, SEEDS[1]))
        return np.count_nonzero(fc.collide(a, b))

    R[("generated", "memory")] = timed(generated, repeat)
    del A, B, ca, cb
    for name in SCHEDULERS:
        log(f"{name}: collide")
        s = Scheduler(name)
        try:
            rows = dask_rows(n, chunk, SEEDS[0])
            a, b = s.persist(rows), s.persist(dask_near(rows, SEEDS[1]))
            count = fcd.collide(a, b).sum()
            la, lb = s.run(a, b)
            hits = np.count_nonzero(fc.collide(fc.CircleArray(la), fc.CircleArray(lb)))
            assert s.run(count)[0] == hits, "fastcol.dask.collide differs"
            del la, lb
            R[("collide", name)] = timed(lambda: s.run(count), repeat)
            del a, b, count
            fresh = fcd.collide(rows, dask_near(rows, SEEDS[1], "near-again")).sum()
            R[("generated", name)] = timed(lambda: s.run(fresh), repeat)
            log(f"{name}: overlapping_pairs")
            rows = s.persist(dask_rows(n, chunk, SEEDS[0]))
            pairs = fcd.overlapping_pairs(rows)
            if "memory" not in R.get("checked", ()):
                local = s.run(rows)[0]
                arr = fc.CircleArray(local)
                fc.overlapping_pairs(arr)   # the first call's scratch buffers
                R[("pairs", "memory")] = timed(lambda: fc.overlapping_pairs(arr), repeat)
                want = fc.overlapping_pairs(arr)
                R["pairs"] = len(want)
                R["checked"] = ("memory",)
                del local, arr
            got = s.run(pairs)[0]
            assert np.array_equal(got, want), "fastcol.dask.overlapping_pairs differs"
            del got
            R[("pairs", name)] = timed(lambda: s.run(pairs), repeat)
            del rows, pairs
        finally:
            s.close()
    return R


def table(R):
    head = ("| query | in memory, workers=1 | " + " | ".join(SCHEDULERS)
            + " | 2 processes / in memory |")
    lines = [head, "|---|" + "---:|" * (len(SCHEDULERS) + 2)]
    for key, title in (("collide", "collide + count, rows persisted"),
                       ("generated", "collide + count, generation included"),
                       ("pairs", "overlapping_pairs, rows persisted")):
        mem = R[(key, "memory")]
        cells = " | ".join(f"{R[(key, s)]:,.0f}" for s in SCHEDULERS)
        ratio = R[(key, SCHEDULERS[-1])] / mem
        lines.append(f"| {title} | {mem:,.0f} | {cells} | {ratio:.2f}x |")
    return lines


def machine():
    cpu = cpu_model()
    head = git_head()
    u = platform.uname()
    return (f"{u.system} {u.machine}, CPU {cpu} ({os.cpu_count()} cores); "
            f"{platform.python_implementation()} {platform.python_version()}, NumPy "
            f"{np.__version__}, dask {dask.__version__}, distributed "
            f"{distributed.__version__}, fastcol {fc.__version__} (backend: {fc.backend}); "
            f"commit {head}, {time.strftime('%Y-%m-%d')}")


def write_docs(text):
    write_section(SECTION, text, AFTER)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10_000_000, help="circles (default 10,000,000)")
    p.add_argument("--chunk", type=int, default=None,
                   help="rows per chunk (default 1,000,000, or n / 10 when smaller)")
    p.add_argument("--repeat", type=int, default=3, help="repeats (default 3)")
    p.add_argument("--write-docs", action="store_true",
                   help="write the result into docs/performance.md")
    args = p.parse_args(argv)
    if args.n < 1 or args.repeat < 1:
        p.error("--n and --repeat must be at least 1")
    chunk = args.chunk or min(1_000_000, max(1, args.n // 10))
    if fc.backend != "compiled":
        log("warning: the compiled backend is not in use")
    load0 = load()
    R = measure(args.n, chunk, args.repeat)
    load1 = load()
    env = f"PYTHONPATH={os.path.relpath(SRC)} " if SRC in sys.path else ""
    command = env + "python " + shlex.join(sys.argv if argv is None else [sys.argv[0], *argv])
    lead = (f"{args.n:,} unit circles in chunks of {chunk:,} rows ({R['pairs']:,} "
            f"overlapping pairs; {R['count']:,} of the element-wise pairs collide). "
            f"Milliseconds, median of {args.repeat}, wall-clock; each scheduler column "
            "is the threaded scheduler with that many threads or a LocalCluster of that "
            "many worker processes (one thread each).")
    cores = os.cpu_count() or 1
    # (the load after the run is the run's own two processes')
    if load0 > 0.5 * cores:
        lead += (f" The machine was busy (load average {load0:.1f} before the run, "
                 f"{load1:.1f} after, on {cores} cores), so single times can move by up "
                 "to 2x.")
    mach = "Machine: " + machine() + "."
    lines = table(R)
    print(f"{lead}\n\n{mach}\n\nCommand: {command}\n")
    print("\n".join(lines))
    if args.write_docs:
        def fill(text):
            return textwrap.fill(text, 88, break_on_hyphens=False)

        intro = ("`fastcol.dask` (issue 37) against the in-memory calls with `workers=1`; "
                 "the bars: on a LocalCluster of 2 worker processes, each row at most "
                 "1.5x the in-memory call. ")
        write_docs("\n".join([SECTION, "", fill(intro + lead), "", fill(mach), "",
                              "```bash", command, "```", "", *lines]) + "\n")
        log(f"wrote the section {SECTION!r} of {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
