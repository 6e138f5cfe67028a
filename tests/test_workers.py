"""``workers=`` splits a batch call's rows over threads without changing an answer.

The compiled backend hands a call's rows out in blocks (``fastcol._ext.pool``): the
calling thread and ``workers - 1`` helper threads take blocks from one counter, so
calls of a few hundred rows split too, polygon rows get their scratch per block, and a
second call that finds the helpers busy (another Python thread) runs on its own thread.
Each case below compares, byte for byte, every output of a call with ``workers`` 2, 3,
8 and -1 against ``workers=1``, on arrays of mixed shapes with NaN and degenerate rows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

SIZES = (37, 300, 5000)   # fewer rows than a block, a few blocks, many
WORKERS = (2, 3, 8, -1)


def arrays(fc, n, seed):
    """Random rows of every array type, about 2% of them NaN, some zero-sized."""
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 30, (n, 2))
    size = rng.uniform(0, 2, n)
    size[rng.random(n) < 0.05] = 0.0
    ang = rng.uniform(-np.pi, np.pi, n)
    end = xy + rng.uniform(-2, 2, (n, 2))
    out = {
        "circles": fc.CircleArray(np.column_stack([xy, size])),
        "capsules": fc.CapsuleArray(np.column_stack([xy, end, size / 2])),
        "segments": fc.SegmentArray(np.column_stack([xy, end])),
        "aabbs": fc.AABBArray(np.column_stack([xy, xy + size[:, None]])),
        "obbs": fc.OBBArray(np.column_stack([xy, size, size / 3, ang])),
    }
    k = np.arange(6)
    ring = np.stack([np.cos(2 * np.pi * k / 6), np.sin(2 * np.pi * k / 6)], axis=1)
    verts = xy[:, None, :] + (0.2 + size)[:, None, None] * ring[None] * np.array([1.0, 0.6])
    counts = rng.integers(3, 7, n)
    # a ring of fewer vertices: every other one of the hexagon's, or the first 3..5
    for i, c in enumerate(counts):
        if c < 6:
            verts[i, :c] = xy[i] + (0.2 + size[i]) * ring[np.linspace(0, 5, c).astype(int)]
    out["polygons"] = fc.PolygonArray.from_padded(verts, counts)
    nan = rng.random(n) < 0.02
    for name, arr in out.items():
        if name == "polygons":
            arr.vertices[nan, 0, 0] = np.nan
        else:
            arr.data[nan, 0] = np.nan
    return out


def same(x, y):
    """Two results, every array in them byte for byte (NaN and -0.0 included)."""
    if isinstance(x, np.ndarray):
        return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
    assert isinstance(x, tuple) and type(x) is type(y)
    return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y))


def queries(fc, a, b):
    """Every batch query of a against b, as ``name -> f(workers)``."""
    n = len(a)
    rng = np.random.default_rng(n)
    origins = rng.uniform(-5, 35, (n, 2))
    dirs = rng.uniform(-1, 1, (n, 2)) + 0.01
    va = rng.uniform(-3, 3, (n, 2))
    vb = rng.uniform(-3, 3, (n, 2))
    return {
        "collide": lambda w: fc.collide(a, b, workers=w),
        "distance": lambda w: fc.distance(a, b, workers=w),
        "closest_points": lambda w: fc.closest_points(a, b, workers=w),
        "contact": lambda w: fc.contact(a, b, workers=w),
        "raycast": lambda w: fc.raycast(a, origins, dirs, max_t=20.0, workers=w),
        "time_of_impact": lambda w: fc.time_of_impact(a, va, b, vb, max_t=1.0, workers=w),
        "overlapping_pairs": lambda w: fc.overlapping_pairs(a, b, workers=w),
    }


PAIRS = [("circles", "obbs"), ("capsules", "polygons"), ("polygons", "polygons"),
         ("segments", "aabbs")]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: "-".join(p))
def test_workers_answer_as_one_thread(fc, pair, n):
    if fc.backend == "reference" and n > 300:
        n = 300  # the reference's rows take microseconds each; the split is the same
    shapes = arrays(fc, n, seed=n)
    a, b = shapes[pair[0]], shapes[pair[1]]
    for name, query in queries(fc, a, b).items():
        one = query(1)
        for w in WORKERS:
            assert same(query(w), one), (name, w)


def test_overlapping_pairs_within_one_array_split(fc):
    shapes = arrays(fc, 5000 if fc.backend == "compiled" else 400, seed=11)
    for arr in shapes.values():
        one = fc.overlapping_pairs(arr)
        assert len(one) > 0
        for w in WORKERS:
            assert np.array_equal(fc.overlapping_pairs(arr, workers=w), one)


def test_primitives_split_small_calls(fc):
    rng = np.random.default_rng(5)
    p, a, b = (rng.uniform(-2, 2, (700, 2)) for _ in range(3))
    one = fc.point_segment_distance(p, a, b)
    for w in WORKERS:
        assert fc.point_segment_distance(p, a, b, workers=w).tobytes() == one.tobytes()


def test_calls_from_several_threads_at_once(fc):
    # four Python threads each ask for workers=2 at once: the helpers serve one call at
    # a time, the others run on their own threads; every answer is one thread's
    n = 3000 if fc.backend == "compiled" else 200
    jobs = []
    for k in range(4):
        shapes = arrays(fc, n, seed=100 + k)
        a, b = shapes["capsules"], shapes["polygons"]
        jobs.append((a, b, fc.contact(a, b)))
    errors = []
    start = threading.Barrier(len(jobs))

    def run(a, b, expected):
        start.wait()
        for _ in range(20 if fc.backend == "compiled" else 2):
            if not same(fc.contact(a, b, workers=2), expected):
                errors.append("differs")
                return

    threads = [threading.Thread(target=run, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_helpers_are_named_daemon_threads(ext):
    circles = arrays(ext, 5000, seed=3)["circles"]
    ext.contact(circles, circles, workers=2)
    helpers = [t for t in threading.enumerate() if t.name.startswith("fastcol-helper-")]
    assert helpers and all(t.daemon for t in helpers)


def _run(code, timeout=120):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout)


def test_interpreter_exits_after_helpers_ran(ext):
    # the helpers are daemons spinning or sleeping in C: they must not hold the exit
    code = (
        "import numpy as np, fastcol._api, fastcol._ext\nfc = fastcol._api.bind(fastcol._ext)\n"
        "a = fc.CircleArray(np.random.default_rng(0).uniform(0, 9, (4000, 3)))\n"
        "r = fc.contact(a, a, workers=4)\n"
        "print(int(r.hit.sum()))\n"
    )
    done = _run(code, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_workers_after_fork(ext):
    # the child has no helper threads: it starts its own and answers as the parent
    code = (
        "import os, numpy as np, fastcol._api, fastcol._ext\nfc = fastcol._api.bind(fastcol._ext)\n"
        "rng = np.random.default_rng(1)\n"
        "a = fc.CapsuleArray(np.column_stack([rng.uniform(0, 20, (3000, 4)),"
        " rng.uniform(0, 1, 3000)]))\n"
        "b = a[np.arange(3000)[::-1]]\n"
        "one = fc.contact(a, b).depth.tobytes()\n"
        "assert fc.contact(a, b, workers=2).depth.tobytes() == one\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    ok = all(fc.contact(a, b, workers=w).depth.tobytes() == one for w in (2, 3))\n"
        "    os._exit(0 if ok else 1)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(os.waitstatus_to_exitcode(status))\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"
