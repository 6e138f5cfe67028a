"""Queries from 8 threads at once give the answers of one thread (issue 3).

The kernels keep no global state, and the compiled extension declares itself free-threading
compatible (``freethreading_compatible=True`` in setup.py, so each module's init slots say
``Py_MOD_GIL_NOT_USED``).  On a free-threaded CPython (the ``cp314t``/``cp315t`` wheels)
the 8 threads below really run at once; on a GIL build they interleave at every switch
interval, which the ``busy_switching`` fixture shortens to the minimum.

Every thread queries shapes shared by all threads (read concurrently) and shapes it builds
itself from the same seed (constructors running concurrently); both must give, bit for
bit, what one thread computed first.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
import sysconfig
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

THREADS = 8
# rounds per thread: the compiled kernels answer a round in about a millisecond, so they
# get more rounds for the threads to overlap; the reference is ~40x slower
ROUNDS = {"compiled": 60, "reference": 3}
SEED = 20240603


def make_shapes(fc, rng):
    """A fixed mix of all six shape types, with touching and degenerate members."""
    shapes = []
    for _ in range(2):
        x, y = rng.uniform(-3, 3), rng.uniform(-3, 3)
        shapes += [
            fc.Circle(x, y, rng.uniform(0, 2)),
            fc.Capsule(x, y, x + rng.uniform(-2, 2), y + rng.uniform(-2, 2), rng.uniform(0, 1)),
            fc.Segment(x, y, x + rng.uniform(-3, 3), y + rng.uniform(-3, 3)),
            fc.AABB(x, y, x + rng.uniform(0, 2), y + rng.uniform(0, 2)),
            fc.OBB(x, y, rng.uniform(0, 1.5), rng.uniform(0, 1.5), rng.uniform(-math.pi, math.pi)),
            fc.Polygon.hull(
                [(x + rng.uniform(-1.5, 1.5), y + rng.uniform(-1.5, 1.5)) for _ in range(8)]
            ),
        ]
    shapes += [
        fc.Circle(0, 0, 1),
        fc.Circle(2, 0, 1),  # touches the one before
        fc.AABB(1, -1, 3, 1),
        fc.Segment(1, 1, 1, 1),  # a point
        fc.Capsule(-1, 0, -1, 0, 0.5),  # a circle
        fc.Polygon([(3, 0), (4, 0), (4, 1), (3, 1)]),  # touches the AABB
    ]
    return shapes


def make_points(rng):
    pts = [
        tuple((rng.uniform(-3, 3), rng.uniform(-3, 3)) for _ in range(4)) for _ in range(24)
    ]
    pts.append(((0.0, 0.0), (1.0, 1.0), (1.0, 1.0), (2.0, 2.0)))  # degenerate segment a == b
    pts.append(((0.0, 1.0), (-1.0, 0.0), (1.0, 0.0), (2.0, 0.0)))  # collinear segments
    return pts


def answers(fc, shapes, points):
    """Every query on every ordered pair, then every primitive: plain tuples to compare."""
    out = []
    for a in shapes:
        for b in shapes:
            out.append((fc.collide(a, b), fc.distance(a, b), tuple(fc.closest_points(a, b))))
    for p, a, b, c in points:
        out.append(
            (
                fc.closest_point_on_segment(p, a, b),
                fc.closest_point_on_line(p, a, b),
                fc.point_segment_distance(p, a, b),
                fc.segment_segment_closest(a, b, c, p),
                fc.segment_segment_distance(a, b, c, p),
                fc.segments_intersect(a, b, c, p),
            )
        )
    return out


@pytest.fixture
def busy_switching():
    """Make a GIL build switch threads as often as it can (no effect without a GIL)."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def test_threads_agree_with_one_thread(fc, busy_switching):
    shared = make_shapes(fc, random.Random(SEED))
    points = make_points(random.Random(SEED + 1))
    expected = answers(fc, shared, points)
    start = threading.Barrier(THREADS)

    def worker(k):
        start.wait()  # all threads enter the kernels together
        mismatches = []
        for r in range(ROUNDS[fc.backend]):
            own = make_shapes(fc, random.Random(SEED))
            for label, shapes in (("shared", shared), ("own", own)):
                got = answers(fc, shapes, points)
                if got != expected:
                    first = next(i for i, (g, e) in enumerate(zip(got, expected)) if g != e)
                    mismatches.append(
                        f"thread {k} round {r} {label} shapes, item {first}: "
                        f"{got[first]!r} != {expected[first]!r}"
                    )
        return mismatches

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        results = list(pool.map(worker, range(THREADS)))
    mismatches = [m for ms in results for m in ms]
    assert not mismatches, "\n".join(mismatches[:10])


@pytest.mark.skipif(
    not sysconfig.get_config_var("Py_GIL_DISABLED"),
    reason="needs a free-threaded CPython build (3.14t and later)",
)
def test_extension_keeps_the_gil_disabled():
    # importing a module that does not declare Py_MOD_GIL_NOT_USED turns the GIL back on
    # (with a RuntimeWarning); a fresh interpreter shows what fastcol's modules do alone
    code = (
        "import sys\n"
        "import fastcol._ext.geometry, fastcol._ext.records, fastcol._ext.shapes\n"
        "import fastcol._ext.narrowphase, fastcol._ext.queries, fastcol._ext._info\n"
        "print(sys._is_gil_enabled())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False", proc.stdout + proc.stderr


def test_pairs_written_during_a_contact_call_are_never_read_outside_the_arrays(ext):
    # contact(pairs=) checks the pairs before the call; another thread may write them
    # while the GIL-free kernel runs, so the kernel reads a copy, the one checked
    # (reading the caller's array instead, this test reads 2**40 rows past the array
    # and crashes)
    import time

    import numpy as np

    rng = np.random.default_rng(9)
    a = ext.CircleArray(np.column_stack([rng.uniform(0, 10, (3000, 2)),
                                         rng.uniform(0.2, 1, 3000)]))
    b = ext.PolygonArray([ext.Polygon.hull(rng.uniform(0, 10, (6, 2))) for _ in range(40)])
    good = np.column_stack([rng.integers(0, 3000, 150_000), rng.integers(0, 40, 150_000)])
    expected = ext.contact(a, b, pairs=good)
    assert expected.hit.any()
    pairs = good.copy()
    stop = threading.Event()

    def write():
        while not stop.is_set():
            pairs[::5] = (2**40, -(2**40))
            pairs[::5] = good[::5]
            # a pause with every pair back in range, in which the call's check can pass
            # (without it the thread switches can land on written pairs every time:
            # CI once saw 400 calls refused)
            time.sleep(0.0005)

    writer = threading.Thread(target=write)
    writer.start()
    ran = 0
    try:
        for _ in range(400):
            try:
                got = ext.contact(a, b, pairs=pairs, workers=2)
            except ValueError:
                # the check before the call saw a written pair: let the writer go on
                # (without a pause this thread can retry within one switch interval)
                time.sleep(0.001)
                continue
            ran += 1
            # a copy that passed the check holds no written value (each is out of
            # range), so every pair gives its own answer
            assert [x.tobytes() for x in got] == [x.tobytes() for x in expected]
            if ran == 5:
                break
    finally:
        stop.set()
        writer.join()
    assert ran > 0
