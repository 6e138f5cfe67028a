"""Batch-query benchmark: million pairs per second, against a compiled memory floor.

Measures the array forms of fastcol's queries (``collide``, ``distance``,
``closest_points``, ``contact``, ``raycast`` and ``time_of_impact`` over ``CircleArray``,
``SegmentArray``, ``CapsuleArray`` and ``PolygonArray``) on large random batches, and puts each next to the bars the issue
sets, all measured in the same run:

* **fastcol, compiled backend** (``fastcol._ext``), ``workers=1`` and ``workers=2``;
* **the reference backend** (``fastcol._ref``) on a small batch (2,000 rows), for the
  compiled/reference ratio;
* **NumPy**: a vectorised float64 formulation written here (``numpy_*`` functions),
  checked against fastcol on every row before it is timed, so the race is fair;
* **a compiled bar**, built by this script with Cython, with the compiler flags of
  fastcol's ``setup.py`` and its release directives (``bench_scalar.py`` builds its
  floor the same way): either the *memory read floor* (a single-threaded loop that
  reads every float of the same input rows, sums them and writes one byte or double
  per row: the memory traffic of the query and nothing else) or a *plain loop of the
  same algorithm* (``nogil`` loops over memoryviews) for the segment-segment distance
  and the point-segment closest point.  These loops check nothing: fastcol also checks
  every number of every row for NaN/inf and moves the origin next to the shapes.

How to run (from the repository root)::

    python bench/bench_batch.py                  # after installing fastcol
    PYTHONPATH=src python bench/bench_batch.py   # with an in-place build of src/fastcol

Options: ``--quick`` (N = 200,000 instead of 1,000,000 and fewer repeats; under a
minute), ``--json FILE`` (the raw per-repeat timings), ``--cpu-time`` (process CPU time
instead of wall-clock time for every single-threaded column: steadier on a busy
machine), ``--no-reference``, ``--rebuild-floor``.

Method.  Every query's input is generated once with a fixed seed (``make_data``) as
C-contiguous float64 rows and wrapped without copying; ``collide`` and ``distance``
write into a preallocated ``out=`` (as a game loop would), ``closest_points`` (which
has no ``out=``) allocates its three results in every call, and so do the NumPy and
compiled-loop versions of that query.  A timed repeat runs the call ``number`` times
(calibrated so that a repeat lasts about 50 ms, 20 ms with ``--quick``) with the
garbage collector off; the compiled loop or floor, ``workers=1`` and ``workers=2`` of a
query take turns repeat by repeat (so are the two control loops below), so that a busy
spell on a shared machine falls on all of them; rates are rows / median seconds per
call, in million pairs (or rows) per second.  Each repeat records both wall-clock and process CPU time: the
``workers=2`` column and the ``w2/w1`` ratio always use wall-clock time (CPU time
adds up over threads), whatever ``--cpu-time`` says.  As a control for that column, the
compiled segment-segment loop is also timed split over two plain threads: when it does
not scale either, the machine (other processes on the cores) is what limits workers=2;
and so is the circle pairs' read floor: when that memory-bound loop does not scale, one
thread already fills the memory bus, and no memory-bound query can scale either.

Queries (one table row each).  Circles (element-wise): radius 0.5-1.5, the second
circle of a pair offset by up to 3 in x and y (about a third collide).  One-against-many:
``Circle(50, 50, 30)`` against circles spread over a 100 x 100 square.  Point-segment
closest point is the primitive ``closest_point_on_segment(points, ends_a, ends_b)`` on
``(N, 2)`` arrays (and, as a second row, ``closest_points(CircleArray(points, r=0),
SegmentArray)``); segments have ends up to 3 apart.  Segment-segment distance is the
primitive ``segment_segment_distance`` on four ``(N, 2)`` arrays (and, as a second row,
``distance(SegmentArray, SegmentArray)``).
Segment-segment and capsule-capsule distances pair segments whose starts are up to 2
apart (about 13% cross or touch; half the capsules overlap); hand-made rows
(``EDGE_SEGMENT_PAIRS``, ``EDGE_POINT_SEGMENTS``) come first.  Polygons are regular
hexagons of radius 1, rotated at random, centres up to 3 apart, at a smaller N
(``PolygonArray.from_padded`` checks every row once).  ``contact`` runs on the circle
pairs and the hexagons; ``raycast`` casts one ray per circle (origin up to 5 away, aimed
at the centre give or take a quarter turn); ``time_of_impact`` moves the partner circles
towards their pair, give or take (their three answers are checked bit for bit against
the reference, and timed against the read floor of the same rows).  To add a query, add
a ``Query`` to ``QUERIES``.

Targets (printed as PASS/MISS; the script exits 0 whatever the timings):
circle-circle collide >= 0.9x the memory read floor; segment-segment distance and
point-segment closest point >= the compiled loop of the same algorithm; rows that compute
(all but the two circle collide rows): workers=2 >= 1.7x workers=1 at N = 1,000,000;
rows that stream memory (the circle collide rows): workers=2 >= 0.9x two threads that
only read the same bytes; an array call beats the same number of scalar calls
from N = 4 (``collide(Circle, CircleArray)`` against a Python loop of scalar
``collide`` calls over prebuilt ``Circle`` objects, results discarded).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gc
import importlib.util
import json
import math
import os
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_scalar.py, next to us
import bench_scalar  # noqa: E402  (its floor builder, machine line and helpers)

N_FULL, N_QUICK = 1_000_000, 200_000
N_POLY_FULL, N_POLY_QUICK = 200_000, 50_000
N_REF_FULL, N_REF_QUICK = 2_000, 1_000
SEED = 5
SCALE = 100.0  # coordinates lie in about [0, SCALE]: the tolerance scale of the checks

TARGET_FLOOR = 0.9  # circle-circle collide, times the memory read floor
TARGET_LOOP = 1.0  # segment-segment distance, point-segment closest point, times the loop
TARGET_WORKERS = 1.7  # workers=2 over workers=1 (wall time), rows that compute
TARGET_STREAM = 0.9  # workers=2 over a two-thread read of the same bytes, rows that stream
# the rows whose work is reading memory: two threads share one memory bus, so their
# bar is what two threads that only read the same bytes reach, not 2x one thread
STREAMING = ("collide_circle_circle", "collide_circle_many")
TARGET_SMALL_N = 4  # an array call beats this many scalar calls
SMALL_NS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)

# ------------------------------------------------------------------ compiled bars

BARS_SOURCE = '''\
# Bars for bench/bench_batch.py: plain single-threaded compiled loops over the same
# C-contiguous float64 rows as fastcol's batch queries.  No validation of any kind.
from libc.math cimport sqrt


def read_floor_bool(const double[:, ::1] a not None, const double[:, ::1] b not None,
                    unsigned char[::1] out not None):
    """Sum every float of rows a[i] and b[i]; write one byte per row (collide's traffic)."""
    cdef Py_ssize_t i, j, n = out.shape[0], wa = a.shape[1], wb = b.shape[1]
    cdef double s
    if a.shape[0] < n or b.shape[0] < n:
        raise ValueError("inputs shorter than out")
    with nogil:
        for i in range(n):
            s = 0.0
            for j in range(wa):
                s += a[i, j]
            for j in range(wb):
                s += b[i, j]
            out[i] = s > 0.0


def read_floor_bool_one(const double[:, ::1] a not None, unsigned char[::1] out not None):
    """Sum every float of row a[i]; write one byte per row (one-against-many collide)."""
    cdef Py_ssize_t i, j, n = out.shape[0], wa = a.shape[1]
    cdef double s
    if a.shape[0] < n:
        raise ValueError("input shorter than out")
    with nogil:
        for i in range(n):
            s = 0.0
            for j in range(wa):
                s += a[i, j]
            out[i] = s > 0.0


def read_floor_f64(const double[:, ::1] a not None, const double[:, ::1] b not None,
                   double[::1] out not None):
    """Sum every float of rows a[i] and b[i]; write one double per row (distance's traffic)."""
    cdef Py_ssize_t i, j, n = out.shape[0], wa = a.shape[1], wb = b.shape[1]
    cdef double s
    if a.shape[0] < n or b.shape[0] < n:
        raise ValueError("inputs shorter than out")
    with nogil:
        for i in range(n):
            s = 0.0
            for j in range(wa):
                s += a[i, j]
            for j in range(wb):
                s += b[i, j]
            out[i] = s


cdef inline double _param(double apx, double apy, double abx, double aby) noexcept nogil:
    # parameter of the point of segment ab nearest to p (ap = p - a), clamped to [0, 1]
    cdef double den = abx * abx + aby * aby
    cdef double t
    if den == 0.0:
        # zero-length segment: its start
        return 0.0
    t = (apx * abx + apy * aby) / den
    if t <= 0.0:
        return 0.0
    if t >= 1.0:
        return 1.0
    return t


cdef inline double _point_segment_d2(double px, double py, double ax, double ay,
                                     double bx, double by) noexcept nogil:
    cdef double abx = bx - ax
    cdef double aby = by - ay
    cdef double t = _param(px - ax, py - ay, abx, aby)
    cdef double dx = px - (ax + t * abx)
    cdef double dy = py - (ay + t * aby)
    return dx * dx + dy * dy


cdef inline double _segment_segment(double ax, double ay, double bx, double by,
                                    double cx, double cy, double dx, double dy) noexcept nogil:
    # fastcol's algorithm: 0 when the segments cross or touch (orientation tests), else
    # the least of the four endpoint-segment distances
    cdef double d1x = bx - ax
    cdef double d1y = by - ay
    cdef double d2x = dx - cx
    cdef double d2y = dy - cy
    cdef double o1 = d1x * (cy - ay) - d1y * (cx - ax)
    cdef double o2 = d1x * (dy - ay) - d1y * (dx - ax)
    cdef double o3 = d2x * (ay - cy) - d2y * (ax - cx)
    cdef double o4 = d2x * (by - cy) - d2y * (bx - cx)
    cdef double best, d
    if (not ((o1 == 0.0 and o2 == 0.0) or (o3 == 0.0 and o4 == 0.0))
            and ((o1 <= 0.0 and 0.0 <= o2) or (o2 <= 0.0 and 0.0 <= o1))
            and ((o3 <= 0.0 and 0.0 <= o4) or (o4 <= 0.0 and 0.0 <= o3))):
        # they cross or touch (collinear pairs, degenerate ones included, take the
        # endpoint distances below, which are 0 where they overlap)
        return 0.0
    best = _point_segment_d2(ax, ay, cx, cy, dx, dy)
    d = _point_segment_d2(bx, by, cx, cy, dx, dy)
    if d < best:
        best = d
    d = _point_segment_d2(cx, cy, ax, ay, bx, by)
    if d < best:
        best = d
    d = _point_segment_d2(dx, dy, ax, ay, bx, by)
    if d < best:
        best = d
    return sqrt(best)


def segment_segment_distance(const double[:, ::1] s not None, const double[:, ::1] u not None,
                             double[::1] out not None):
    """out[i] = distance between segments s[i] and u[i] (rows ax, ay, bx, by)."""
    cdef Py_ssize_t i, n = out.shape[0]
    if s.shape[0] < n or u.shape[0] < n or s.shape[1] < 4 or u.shape[1] < 4:
        raise ValueError("inputs too small")
    with nogil:
        for i in range(n):
            out[i] = _segment_segment(s[i, 0], s[i, 1], s[i, 2], s[i, 3],
                                      u[i, 0], u[i, 1], u[i, 2], u[i, 3])


def point_segment_closest(const double[:, ::1] p not None, const double[:, ::1] s not None,
                          double[:, ::1] pa not None, double[:, ::1] pb not None,
                          double[::1] dist not None):
    """For point p[i] (x, y, ...) and segment s[i]: pa = p, pb = nearest point, dist."""
    cdef Py_ssize_t i, n = dist.shape[0]
    cdef double px, py, ax, ay, abx, aby, t, qx, qy
    if (p.shape[0] < n or s.shape[0] < n or pa.shape[0] < n or pb.shape[0] < n
            or p.shape[1] < 2 or s.shape[1] < 4 or pa.shape[1] < 2 or pb.shape[1] < 2):
        raise ValueError("arrays too small")
    with nogil:
        for i in range(n):
            px = p[i, 0]
            py = p[i, 1]
            ax = s[i, 0]
            ay = s[i, 1]
            abx = s[i, 2] - ax
            aby = s[i, 3] - ay
            t = _param(px - ax, py - ay, abx, aby)
            qx = ax + t * abx
            qy = ay + t * aby
            pa[i, 0] = px
            pa[i, 1] = py
            pb[i, 0] = qx
            pb[i, 1] = qy
            dist[i] = sqrt((px - qx) * (px - qx) + (py - qy) * (py - qy))
'''


def load_bars(rebuild: bool = False):
    """The compiled bars module (``BARS_SOURCE``), built like bench_scalar's floor."""
    name = bench_scalar.floor_module_name(BARS_SOURCE, prefix="_fastcol_batch_bars_")
    directory = bench_scalar.floor_build_dir()
    path = None if rebuild else bench_scalar.find_extension(directory, name)
    if path is None:
        bench_scalar.build_floor(directory, name, BARS_SOURCE)
        path = bench_scalar.find_extension(directory, name)
        if path is None:
            raise RuntimeError(f"bars build produced no extension module in {directory}")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ NumPy versions


def _cols(rows: np.ndarray, count: int) -> list[np.ndarray]:
    """The first ``count`` columns of ``(N, w)`` rows, as (strided) views."""
    return [rows[:, k] for k in range(count)]


def numpy_circle_collide(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``bool[N]``: circles a[i], b[i] (rows x, y, r) overlap or touch (squared test)."""
    ax, ay, ar = _cols(a, 3)
    bx, by, br = _cols(b, 3)
    dx = bx - ax
    dy = by - ay
    rs = ar + br
    dx *= dx
    dy *= dy
    dx += dy
    rs *= rs
    return np.less_equal(dx, rs, out=out)


def numpy_circle_distance(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``float64[N]``: gap between circles a[i], b[i], 0 where they overlap."""
    ax, ay, ar = _cols(a, 3)
    bx, by, br = _cols(b, 3)
    dx = bx - ax
    dy = by - ay
    dx *= dx
    dy *= dy
    dx += dy
    np.sqrt(dx, out=dx)
    dx -= ar
    dx -= br
    return np.maximum(dx, 0.0, out=out)


def numpy_circle_collide_one(cx: float, cy: float, cr: float, a: np.ndarray,
                             out: np.ndarray) -> np.ndarray:
    """``bool[N]``: circle (cx, cy, cr) overlaps or touches circle a[i]."""
    ax, ay, ar = _cols(a, 3)
    dx = ax - cx
    dy = ay - cy
    rs = ar + cr
    dx *= dx
    dy *= dy
    dx += dy
    rs *= rs
    return np.less_equal(dx, rs, out=out)


def _segment_param(apx, apy, abx, aby) -> np.ndarray:
    """Parameter of the nearest point of each segment (ap = p - a), clamped to [0, 1]."""
    den = abx * abx + aby * aby
    t = apx * abx
    t += apy * aby
    # zero-length segments: the numerator is 0 too, so t stays 0 (the start)
    np.divide(t, den, out=t, where=den > 0.0)
    return np.clip(t, 0.0, 1.0, out=t)


def _point_segment_d2(px, py, ax, ay, bx, by) -> np.ndarray:
    """Squared distance from points p to segments ab, row by row."""
    abx = bx - ax
    aby = by - ay
    apx = px - ax
    apy = py - ay
    t = _segment_param(apx, apy, abx, aby)
    abx *= t
    aby *= t
    apx -= abx
    apy -= aby
    apx *= apx
    apy *= apy
    apx += apy
    return apx


def numpy_point_segment_closest(p: np.ndarray, s: np.ndarray):
    """``(p[N, 2], nearest point of s[N, 2], distance[N])`` for points p[i] and segments s[i].

    ``p`` holds rows (x, y, ...) and ``s`` rows (ax, ay, bx, by); the outputs are the
    ones ``closest_points(CircleArray(p with r = 0), SegmentArray(s))`` returns.
    """
    px, py = _cols(p, 2)
    ax, ay, bx, by = _cols(s, 4)
    abx = bx - ax
    aby = by - ay
    t = _segment_param(px - ax, py - ay, abx, aby)
    pa = np.empty((len(p), 2))
    pa[:, 0] = px
    pa[:, 1] = py
    pb = np.empty((len(p), 2))
    np.multiply(t, abx, out=pb[:, 0])
    np.multiply(t, aby, out=pb[:, 1])
    pb[:, 0] += ax
    pb[:, 1] += ay
    dx = px - pb[:, 0]
    dy = py - pb[:, 1]
    dx *= dx
    dy *= dy
    dx += dy
    return pa, pb, np.sqrt(dx, out=dx)


def numpy_segment_segment_distance(s: np.ndarray, u: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``float64[N]``: distance between segments s[i] and u[i], 0 where they cross or touch.

    Orientation tests find the crossing (or touching) pairs; every other pair, the
    collinear ones included, takes the least of the four endpoint-segment distances
    (0 where collinear segments overlap).
    """
    ax, ay, bx, by = _cols(s, 4)
    cx, cy, dx, dy = _cols(u, 4)
    d1x, d1y = bx - ax, by - ay
    d2x, d2y = dx - cx, dy - cy
    o1 = d1x * (cy - ay) - d1y * (cx - ax)
    o2 = d1x * (dy - ay) - d1y * (dx - ax)
    o3 = d2x * (ay - cy) - d2y * (ax - cx)
    o4 = d2x * (by - cy) - d2y * (bx - cx)
    straddle_cd = ((o1 <= 0.0) & (o2 >= 0.0)) | ((o2 <= 0.0) & (o1 >= 0.0))
    straddle_ab = ((o3 <= 0.0) & (o4 >= 0.0)) | ((o4 <= 0.0) & (o3 >= 0.0))
    collinear = ((o1 == 0.0) & (o2 == 0.0)) | ((o3 == 0.0) & (o4 == 0.0))
    cross = straddle_cd & straddle_ab & ~collinear
    best = _point_segment_d2(ax, ay, cx, cy, dx, dy)
    np.minimum(best, _point_segment_d2(bx, by, cx, cy, dx, dy), out=best)
    np.minimum(best, _point_segment_d2(cx, cy, ax, ay, bx, by), out=best)
    np.minimum(best, _point_segment_d2(dx, dy, ax, ay, bx, by), out=best)
    np.sqrt(best, out=out)
    out[cross] = 0.0
    return out


# ------------------------------------------------------------------------- data

# Hand-made rows put first in the segment and point inputs (N >= 14), so the checks of
# the NumPy and loop versions against fastcol and of the reference against the compiled
# backend cover the cases random data never draws (the distance is in each comment).
EDGE_SEGMENT_PAIRS = [
    ((10, 10, 12, 12), (10, 12, 12, 10)),  # crossing: 0
    ((10, 10, 12, 10), (11, 10, 11, 13)),  # T: one end on the other segment: 0
    ((10, 10, 11, 10), (11, 10, 12, 15)),  # sharing an end: 0
    ((10, 10, 14, 10), (12, 10, 16, 10)),  # collinear, overlapping: 0
    ((10, 10, 20, 10), (12, 10, 13, 10)),  # collinear, one inside the other: 0
    ((10, 10, 11, 10), (13, 10, 15, 10)),  # collinear, apart: 2
    ((10, 10, 14, 10), (11, 11, 13, 11)),  # parallel: 1
    ((11, 11, 11, 11), (10, 10, 12, 10)),  # zero-length against a segment: 1
    ((10, 10, 10, 10), (13, 14, 13, 14)),  # two zero-length segments: 5
]
EDGE_POINT_SEGMENTS = [
    ((11, 10), (10, 10, 12, 10)),  # on the segment: 0
    ((12, 10), (10, 10, 12, 10)),  # on an end: 0
    ((15, 14), (10, 10, 12, 10)),  # beyond an end: 5
    ((13, 14), (10, 10, 10, 10)),  # zero-length segment: 5
    ((11, 13), (10, 10, 12, 10)),  # above the middle: 3
]


def _offset(rng, n: int, reach: float) -> np.ndarray:
    return rng.uniform(-reach, reach, (n, 2))


def _segments(rng, n: int, reach: float) -> np.ndarray:
    """``(n, 4)`` segments: a start in the square, an end up to ``reach`` away."""
    start = rng.uniform(0.0, SCALE, (n, 2))
    return np.hstack([start, start + _offset(rng, n, reach)])


def _hexagons(rng, centres: np.ndarray) -> np.ndarray:
    """``(n, 6, 2)`` regular hexagons of radius 1, counter-clockwise, random rotation."""
    angles = rng.uniform(0.0, 2 * math.pi, (len(centres), 1)) + np.arange(6) * (math.pi / 3)
    return np.stack([centres[:, :1] + np.cos(angles), centres[:, 1:] + np.sin(angles)], axis=2)


def make_data(n: int, n_poly: int, seed: int = SEED) -> dict:
    """The raw float64 inputs of every query, C-contiguous, fixed by ``seed``."""
    rng = np.random.default_rng(seed)
    circles = np.column_stack([rng.uniform(0.0, SCALE, (n, 2)), rng.uniform(0.5, 1.5, n)])
    partners = np.column_stack([circles[:, :2] + _offset(rng, n, 3.0),
                                rng.uniform(0.5, 1.5, n)])
    spread = np.column_stack([rng.uniform(0.0, SCALE, (n, 2)), rng.uniform(0.5, 1.5, n)])
    segs = _segments(rng, n, 3.0)
    points = np.column_stack([segs[:, :2] + _offset(rng, n, 3.0), np.zeros(n)])
    other = segs[:, :2] + _offset(rng, n, 2.0)
    partner_segs = np.hstack([other, other + _offset(rng, n, 3.0)])
    for i, (first, second) in enumerate(EDGE_SEGMENT_PAIRS):
        segs[i], partner_segs[i] = first, second
    for i, (point, seg) in enumerate(EDGE_POINT_SEGMENTS, start=len(EDGE_SEGMENT_PAIRS)):
        points[i, :2], segs[i] = point, seg
    centres = rng.uniform(0.0, SCALE, (n_poly, 2))
    return {
        "circles": circles,
        "circle_partners": partners,
        "circles_spread": spread,
        "fixed_circle": (SCALE / 2, SCALE / 2, 0.3 * SCALE),
        "points": points,  # (n, 3): x, y, r = 0
        "segments": segs,
        "segment_partners": partner_segs,
        "capsules": np.column_stack([segs, rng.uniform(0.2, 0.8, n)]),
        "capsule_partners": np.column_stack([partner_segs, rng.uniform(0.2, 0.8, n)]),
        "hexagons": _hexagons(rng, centres),
        "hexagon_partners": _hexagons(rng, centres + _offset(rng, n_poly, 3.0)),
        # a ray per circle: origin up to 5 away, direction towards the centre give or
        # take a quarter turn (about half hit); rows (ox, oy, dx, dy)
        "rays": _rays(rng, circles),
        # b's velocity, towards a give or take: about half of the apart pairs meet by t = 1
        "velocities": (circles[:, :2] - partners[:, :2]) * rng.uniform(0.0, 1.5, (n, 1))
        + _offset(rng, n, 1.0),
    }


def _rays(rng, circles: np.ndarray) -> np.ndarray:
    n = len(circles)
    origins = circles[:, :2] + _offset(rng, n, 5.0)
    aim = np.arctan2(circles[:, 1] - origins[:, 1], circles[:, 0] - origins[:, 0])
    aim += rng.uniform(-math.pi / 4, math.pi / 4, n)
    return np.column_stack([origins, np.cos(aim), np.sin(aim)])


def head(data: dict, n: int, n_poly: int) -> dict:
    """The first rows of every input (contiguous copies), for the reference backend."""
    out = {}
    for key, value in data.items():
        if isinstance(value, np.ndarray):
            value = np.ascontiguousarray(value[: n_poly if key.startswith("hexagon") else n])
        out[key] = value
    return out


# ---------------------------------------------------------------------- queries


@dataclass
class Query:
    """One table row: a batch query, its inputs and the versions it is timed against.

    ``setup(mod, data)`` wraps the inputs for a backend module and returns the
    operands (a dict, also holding the preallocated ``out``); ``call(mod, ops,
    workers)`` runs fastcol's query.  ``numpy(data, ops)`` and ``bar(bars, data, ops)``
    compute the same result another way (``None`` when there is none); ``bar_kind`` says
    whether the bar is the memory read floor or the loop of the same algorithm.
    ``check(expected, got, data)`` raises AssertionError when a result disagrees.
    """

    key: str
    label: str
    size: str  # "main" (N) or "poly" (the polygon N)
    setup: Callable
    call: Callable
    bar_kind: str  # "floor" or "loop"
    bar: Callable
    numpy: Callable | None = None
    check: Callable | None = None
    describe: Callable | None = None  # (result) -> a note on the data, e.g. hit rate


def _pair_setup(array_name: str, key_a: str, key_b: str, out_dtype=None):
    """A setup wrapping ``data[key_a]`` and ``data[key_b]`` as ``array_name`` arrays."""
    def setup(mod, data):
        cls = getattr(mod, array_name)
        a, b = data[key_a], data[key_b]
        ops = {"a": cls(a), "b": cls(b)}
        if out_dtype is not None:
            ops["out"] = np.empty(len(a), dtype=out_dtype)
        return ops
    return setup


def _polygon_setup(mod, data):
    """Wrap the hexagons; ``wrap_us_per_row`` is what ``from_padded``'s checks cost."""
    a, b = data["hexagons"], data["hexagon_partners"]
    counts = np.full(len(a), 6, dtype=np.int64)
    t0 = time.perf_counter()
    ops = {"a": mod.PolygonArray.from_padded(a, counts),
           "b": mod.PolygonArray.from_padded(b, counts),
           "out": np.empty(len(a))}
    ops["wrap_us_per_row"] = (time.perf_counter() - t0) / (2 * len(a)) * 1e6
    return ops


def _one_setup(mod, data):
    return {"a": mod.Circle(*data["fixed_circle"]), "b": mod.CircleArray(data["circles_spread"]),
            "out": np.empty(len(data["circles_spread"]), dtype=bool)}


def _point_segment_setup(mod, data):
    return {"a": mod.CircleArray(data["points"]), "b": mod.SegmentArray(data["segments"])}


def _primitive_point_segment_setup(mod, data):
    seg = data["segments"]
    return {"p": np.ascontiguousarray(data["points"][:, :2]), "a": np.ascontiguousarray(seg[:, :2]),
            "b": np.ascontiguousarray(seg[:, 2:])}


def _primitive_point_segment(mod, ops, workers):
    return mod.closest_point_on_segment(ops["p"], ops["a"], ops["b"], workers=workers)


def _check_point_on_segment(expected, got, data) -> None:
    """fastcol's ``(point, t)`` against another ``(point, t)`` or ``(p, point, d)``."""
    if len(got) == 2:
        _close(expected[0], got[0], "closest point")
        _close(expected[1], got[1], "t")
    else:
        _close(expected[0], got[1], "closest point")


def _primitive_segments_setup(mod, data):
    s, u = data["segments"], data["segment_partners"]
    return {"ends": [np.ascontiguousarray(x) for x in (s[:, :2], s[:, 2:], u[:, :2], u[:, 2:])]}


def _primitive_segments(mod, ops, workers):
    return mod.segment_segment_distance(*ops["ends"], workers=workers)


def _collide(mod, ops, workers):
    return mod.collide(ops["a"], ops["b"], out=ops["out"], workers=workers)


def _distance(mod, ops, workers):
    return mod.distance(ops["a"], ops["b"], out=ops["out"], workers=workers)


def _closest(mod, ops, workers):
    return mod.closest_points(ops["a"], ops["b"], workers=workers)


def _close(expected, got, what: str) -> None:
    """Assert two float results agree to 1e-9 of the coordinate scale (NaN nowhere)."""
    expected, got = np.asarray(expected), np.asarray(got)
    assert expected.shape == got.shape, f"{what}: shapes {expected.shape} != {got.shape}"
    assert not np.isnan(got).any() and not np.isnan(expected).any(), f"{what}: NaN"
    err = np.abs(expected - got)
    worst = int(np.argmax(err)) if err.size else 0
    assert err.size == 0 or err.flat[worst] <= 1e-9 * SCALE, (
        f"{what}: differs by {err.flat[worst]:.3g} at flat index {worst}")


def _check_float(expected, got, data) -> None:
    _close(expected, got, "distance")


def _check_closest(expected, got, data) -> None:
    for name, e, g in zip(("point_a", "point_b", "distance"), expected, got):
        _close(e, g, name)


def _check_collide(expected, got, data, gap) -> None:
    """Booleans must agree except on rows within rounding of touching (``gap`` ~ 0)."""
    expected, got = np.asarray(expected), np.asarray(got)
    differ = expected != got
    assert not (differ & (np.abs(gap) > 1e-9 * SCALE)).any(), (
        f"collide: {int(differ.sum())} rows differ, not all of them touching")


def _circle_gap(a, b) -> np.ndarray:
    return np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]) - a[:, 2] - b[:, 2]


def _check_collide_pairs(expected, got, data) -> None:
    n = len(expected)
    _check_collide(expected, got, data,
                   _circle_gap(data["circles"][:n], data["circle_partners"][:n]))


def _check_collide_one(expected, got, data) -> None:
    n = len(expected)
    fixed = np.array([data["fixed_circle"]])
    _check_collide(expected, got, data, _circle_gap(fixed, data["circles_spread"][:n]))


def _hit_rate(result) -> str:
    return f"{np.mean(result):.0%} collide"


def _zero_rate(result) -> str:
    d = result[2] if isinstance(result, tuple) else result
    return f"{np.mean(d == 0.0):.0%} at distance 0"


def _floor_pairs(key_a, key_b, dtype):
    """The read floor over ``data[key_a]`` and ``data[key_b]`` (polygons as (N, 12) rows)."""
    def bar(bars, data, ops):
        a, b = data[key_a], data[key_b]
        a, b = a.reshape(len(a), -1), b.reshape(len(b), -1)
        fn = bars.read_floor_bool if dtype is bool else bars.read_floor_f64
        fn(a, b, ops["bar_out"])
        return ops["bar_out"]
    return bar


def _loop_segment_segment(bars, data, ops):
    bars.segment_segment_distance(data["segments"], data["segment_partners"], ops["bar_out"])
    return ops["bar_out"]


def _loop_point_segment(bars, data, ops):
    n = len(data["points"])
    pa, pb, d = np.empty((n, 2)), np.empty((n, 2)), np.empty(n)
    bars.point_segment_closest(data["points"], data["segments"], pa, pb, d)
    return pa, pb, d


def _floor_one(bars, data, ops):
    bars.read_floor_bool_one(data["circles_spread"], ops["bar_out"])
    return ops["bar_out"]


def _contact(mod, ops, workers):
    return mod.contact(ops["a"], ops["b"], workers=workers)


def _with_bar_out(setup):
    """A setup whose result is a tuple of arrays, plus a float64 row output for its bar."""
    def wrapped(mod, data):
        ops = setup(mod, data)
        ops["bar_out"] = np.empty(len(ops["a"]))
        return ops
    return wrapped


def _ray_setup(mod, data):
    rays = data["rays"]
    return {"a": mod.CircleArray(data["circles"]), "origins": np.ascontiguousarray(rays[:, :2]),
            "directions": np.ascontiguousarray(rays[:, 2:]), "bar_out": np.empty(len(rays))}


def _raycast(mod, ops, workers):
    return mod.raycast(ops["a"], ops["origins"], ops["directions"], workers=workers)


def _toi_setup(mod, data):
    return {"a": mod.CircleArray(data["circles"]), "b": mod.CircleArray(data["circle_partners"]),
            "v": data["velocities"]}


def _time_of_impact(mod, ops, workers):
    return mod.time_of_impact(ops["a"], (0.0, 0.0), ops["b"], ops["v"], workers=workers)


def _check_same(expected, got, data) -> None:
    """The same rows to the bit (the reference against the compiled backend)."""
    for e, g in zip(expected, got) if isinstance(expected, tuple) else [(expected, got)]:
        assert np.asarray(e).tobytes() == np.asarray(g).tobytes(), "rows differ"


def _contact_rate(result) -> str:
    hit, count = result[0], result[4]  # a copy: a plain tuple of the ContactArray's fields
    return f"{np.mean(hit):.0%} in contact, {np.mean(count == 2):.0%} with 2 points"


def _ray_rate(result) -> str:
    return f"{np.mean(result[0]):.0%} hit"


def _impact_rate(result) -> str:
    return f"{np.mean(result == 0.0):.0%} touching at t=0, {np.mean(result > 0.0):.0%} later"


QUERIES = [
    Query("collide_circle_circle", "collide Circle-Circle (element-wise)", "main",
          _pair_setup("CircleArray", "circles", "circle_partners", bool), _collide,
          "floor", _floor_pairs("circles", "circle_partners", bool),
          numpy=lambda d, ops: numpy_circle_collide(d["circles"], d["circle_partners"],
                                                    ops["np_out"]),
          check=_check_collide_pairs, describe=_hit_rate),
    Query("distance_circle_circle", "distance Circle-Circle (element-wise)", "main",
          _pair_setup("CircleArray", "circles", "circle_partners", np.float64), _distance,
          "floor", _floor_pairs("circles", "circle_partners", np.float64),
          numpy=lambda d, ops: numpy_circle_distance(d["circles"], d["circle_partners"],
                                                     ops["np_out"]),
          check=_check_float, describe=_zero_rate),
    Query("collide_circle_many", "collide Circle vs CircleArray (one-vs-many)", "main",
          _one_setup, _collide, "floor", _floor_one,
          numpy=lambda d, ops: numpy_circle_collide_one(*d["fixed_circle"],
                                                        d["circles_spread"], ops["np_out"]),
          check=_check_collide_one, describe=_hit_rate),
    Query("closest_point_segment", "closest_point_on_segment, (N, 2) arrays",
          "main", _primitive_point_segment_setup, _primitive_point_segment, "loop",
          _loop_point_segment,
          numpy=lambda d, ops: numpy_point_segment_closest(d["points"], d["segments"]),
          check=_check_point_on_segment),
    Query("closest_points_point_segment", "closest_points CircleArray(r=0)-SegmentArray",
          "main", _point_segment_setup, _closest, "loop", _loop_point_segment,
          numpy=lambda d, ops: numpy_point_segment_closest(d["points"], d["segments"]),
          check=_check_closest, describe=_zero_rate),
    Query("distance_segment_segment", "segment_segment_distance, (N, 2) arrays",
          "main", _primitive_segments_setup, _primitive_segments, "loop",
          _loop_segment_segment,
          numpy=lambda d, ops: numpy_segment_segment_distance(
              d["segments"], d["segment_partners"], ops["np_out"]),
          check=_check_float, describe=_zero_rate),
    Query("distance_segmentarray", "distance SegmentArray-SegmentArray", "main",
          _pair_setup("SegmentArray", "segments", "segment_partners", np.float64), _distance,
          "loop", _loop_segment_segment,
          numpy=lambda d, ops: numpy_segment_segment_distance(
              d["segments"], d["segment_partners"], ops["np_out"]),
          check=_check_float, describe=_zero_rate),
    Query("distance_capsule_capsule", "distance Capsule-Capsule (element-wise)", "main",
          _pair_setup("CapsuleArray", "capsules", "capsule_partners", np.float64), _distance,
          "floor", _floor_pairs("capsules", "capsule_partners", np.float64),
          check=_check_float, describe=_zero_rate),
    Query("distance_polygon_polygon", "distance Polygon-Polygon, hexagons (element-wise)",
          "poly", _polygon_setup, _distance,
          "floor", _floor_pairs("hexagons", "hexagon_partners", np.float64),
          check=_check_float, describe=_zero_rate),
    Query("contact_circle_circle", "contact Circle-Circle (element-wise)", "main",
          _with_bar_out(_pair_setup("CircleArray", "circles", "circle_partners")), _contact,
          "floor", _floor_pairs("circles", "circle_partners", np.float64),
          check=_check_same, describe=_contact_rate),
    Query("contact_polygon_polygon", "contact Polygon-Polygon, hexagons (element-wise)",
          "poly", _with_bar_out(_polygon_setup), _contact,
          "floor", _floor_pairs("hexagons", "hexagon_partners", np.float64),
          check=_check_same, describe=_contact_rate),
    Query("raycast_circles", "raycast CircleArray, a ray per circle", "main",
          _ray_setup, _raycast, "floor", _floor_pairs("circles", "rays", np.float64),
          check=_check_same, describe=_ray_rate),
    Query("toi_circle_circle", "time_of_impact Circle-Circle (element-wise)", "main",
          _toi_setup, _time_of_impact, "floor",
          _floor_pairs("circles", "circle_partners", np.float64),
          check=_check_same, describe=_impact_rate),
]


# ----------------------------------------------------------------------- timing


@dataclass
class Plan:
    """``repeat`` timed repeats of about ``target_s`` each."""

    repeat: int
    target_s: float


@dataclass
class Timing:
    """Seconds per call, one per repeat, by wall clock and by process CPU time."""

    rows: int
    number: int
    wall_s: list[float] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)

    def rate(self, clock: str) -> float:
        """Million rows per second: rows over the median seconds per call."""
        return self.rows / statistics.median(getattr(self, clock + "_s")) / 1e6

    def as_dict(self, clock: str) -> dict:
        return {"rows": self.rows, "number": self.number, "wall_s": self.wall_s,
                "cpu_s": self.cpu_s, "mrows_per_s": self.rate(clock), "clock": clock}


def _repeat(fn: Callable[[], object], number: int) -> tuple[float, float]:
    """Wall and CPU seconds per call over ``number`` calls, the collector off."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(number):
            fn()
        w1, c1 = time.perf_counter(), time.process_time()
    finally:
        if enabled:
            gc.enable()
    return (w1 - w0) / number, (c1 - c0) / number


def time_rows(fn: Callable[[], object], rows: int, plan: Plan) -> Timing:
    """Time ``fn`` (which answers ``rows`` rows): calibrate, then ``plan.repeat`` repeats."""
    return time_interleaved({"fn": fn}, rows, plan)["fn"]


def time_interleaved(fns: dict, rows: int, plan: Plan) -> dict:
    """Time several versions of one job, their repeats interleaved (a, b, a, b, ...).

    The ratios of their medians are what the targets judge; interleaving exposes every
    version to the same spells of load on a shared machine, where timing one version's
    repeats after the other's lets a busy spell land on one of them alone.
    """
    timings = {}
    for name, fn in fns.items():
        fn()  # warm-up: first touch of the outputs, caches, thread start-up code
        once, _ = _repeat(fn, 1)
        timings[name] = Timing(rows, max(1, round(plan.target_s / max(once, 1e-9))))
    for _ in range(plan.repeat):
        for name, fn in fns.items():
            wall, cpu = _repeat(fn, timings[name].number)
            timings[name].wall_s.append(wall)
            timings[name].cpu_s.append(cpu)
    return timings


def run_query(q: Query, mods: dict, bars, data: dict, ref_data: dict, plans: dict,
              clock: str, log) -> dict:
    """Check and time every version of one query; return the row of raw results."""
    fast = mods.get("compiled")
    n = rows_of(q, data)
    row = {"key": q.key, "label": q.label, "rows": n, "bar_kind": q.bar_kind}
    if fast is not None:
        ops = q.setup(fast, data)
        if "wrap_us_per_row" in ops:
            row["wrap_us_per_row"] = ops["wrap_us_per_row"]
        expected = copy_result(q.call(fast, ops, 1))
        if q.describe:
            row["data"] = q.describe(expected)
        if not isinstance(expected, tuple):
            # separate outputs for the NumPy version and the bar, like fastcol's out=
            ops["np_out"] = np.empty_like(expected)
            ops["bar_out"] = np.empty_like(expected)
        if q.numpy:
            q.check(expected, q.numpy(data, ops), data)
            row["numpy"] = time_rows(lambda: q.numpy(data, ops), n, plans["main"]).as_dict(clock)
        # the bar, workers=1 and workers=2: the versions the targets compare, interleaved
        versions = {}
        if bars is not None:
            if q.bar_kind == "loop":
                q.check(expected, q.bar(bars, data, ops), data)
            versions["bar"] = lambda: q.bar(bars, data, ops)
        for workers in (1, 2):
            assert_same(expected, q.call(fast, ops, workers), f"{q.key} workers={workers}")
            versions[f"w{workers}"] = lambda workers=workers: q.call(fast, ops, workers)
        for name, timing in time_interleaved(versions, n, plans["main"]).items():
            row[name] = timing.as_dict("wall" if name == "w2" else clock)
    ref = mods.get("reference")
    if ref is not None:
        ref_ops = q.setup(ref, ref_data)
        n_ref = rows_of(q, ref_data)
        result = copy_result(q.call(ref, ref_ops, 1))
        if fast is not None:
            q.check(copy_result(q.call(fast, q.setup(fast, ref_data), 1)), result, ref_data)
        row["reference"] = time_rows(lambda: q.call(ref, ref_ops, 1), n_ref,
                                     plans["reference"]).as_dict(clock)
    log(f"  {q.label:<52} " + "  ".join(
        f"{k} {row[k]['mrows_per_s']:.3g}" for k in ("w1", "w2", "reference", "numpy", "bar")
        if k in row))
    return row


def rows_of(q: Query, data: dict) -> int:
    """The number of rows ``q`` answers on ``data``."""
    return len(data["hexagons" if q.size == "poly" else "circles"])


def copy_result(result):
    """A copy of a result (an array or a tuple of arrays): ``out=`` is reused."""
    if isinstance(result, tuple):
        return tuple(np.copy(x) for x in result)
    return np.copy(result)


def assert_same(expected, got, what: str) -> None:
    """Results of one query two ways (workers, backends) must be equal bit for bit."""
    pairs = zip(expected, got) if isinstance(expected, tuple) else [(expected, got)]
    for e, g in pairs:
        e, g = np.asarray(e), np.asarray(g)
        assert e.shape == g.shape and e.tobytes() == g.tobytes(), f"{what}: results differ"


def two_thread_control(bars, data: dict, plan: Plan) -> dict:
    """Plain GIL-free loops on one thread and split over two, by wall clock.

    Controls for the workers=2 column: how far this machine lets two threads of the
    compiled segment-segment loop scale right now (on a busy machine, often not at
    all), and of the circle pairs' read floor (when it does not scale, two threads
    share one memory bus that one already fills, and no memory-bound query can scale
    either).  The two threads persist between calls, as fastcol's pool does.  Also
    the bars of the rows that stream memory (STREAMING): the rows per second of two
    threads that read the same bytes and do nothing else.
    """
    s, u = data["segments"], data["segment_partners"]
    a, b = data["circles"], data["circle_partners"]
    spread = data["circles_spread"]
    out = np.empty(len(s))
    flags = np.empty(len(a), dtype=bool)
    many = np.empty(len(spread), dtype=bool)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:

        def split(fn, arrays, result):
            mid = len(result) // 2
            jobs = [pool.submit(fn, *(x[lo:hi] for x in arrays), result[lo:hi])
                    for lo, hi in ((0, mid), (mid, len(result)))]
            for job in jobs:
                job.result()

        t1, t2 = time_interleaved(
            {"one": lambda: bars.segment_segment_distance(s, u, out),
             "two": lambda: split(bars.segment_segment_distance, (s, u), out)},
            len(s), plan).values()
        r1, r2, r3 = time_interleaved(
            {"one": lambda: bars.read_floor_bool(a, b, flags),
             "two": lambda: split(bars.read_floor_bool, (a, b), flags),
             "many": lambda: split(bars.read_floor_bool_one, (spread,), many)},
            len(a), plan).values()
    return {"one_thread": t1.as_dict("wall"), "two_threads": t2.as_dict("wall"),
            "speedup": statistics.median(t1.wall_s) / statistics.median(t2.wall_s),
            "memory_speedup": statistics.median(r1.wall_s) / statistics.median(r2.wall_s),
            "floor_two_rate": {
                "collide_circle_circle": len(a) / statistics.median(r2.wall_s),
                "collide_circle_many": len(spread) / statistics.median(r3.wall_s)}}


# ---------------------------------------------------------------- small batches


def small_n_sweep(mod, data: dict, plan: Plan, clock: str) -> list[dict]:
    """``collide(Circle, CircleArray(n rows))`` against n scalar calls, for small n.

    The scalar side is a Python ``for`` loop of ``collide(q, s)`` over prebuilt
    ``Circle`` objects, results discarded: the least a caller can pay for n answers.
    The array call is the plain one (no ``out=``), as a caller would write it.
    """
    timer_clock = time.process_time if clock == "cpu" else time.perf_counter
    fixed = mod.Circle(*data["fixed_circle"])
    results = []
    for n in SMALL_NS:
        arr = mod.CircleArray(np.ascontiguousarray(data["circles_spread"][:n]))
        shapes = [arr[i] for i in range(n)]
        env = {"f": mod.collide, "q": fixed, "arr": arr, "shapes": shapes}
        timers = {name: timeit.Timer(stmt, timer=timer_clock, globals=env)
                  for name, stmt in (("array_s", "f(q, arr)"),
                                     ("scalar_s", "for s in shapes: f(q, s)"))}
        numbers = {name: bench_scalar.calibrate(t, plan.target_s) for name, t in timers.items()}
        times = {name: [] for name in timers}
        for _ in range(plan.repeat):
            # the two take turns, as in time_interleaved
            for name, timer in timers.items():
                times[name].append(timer.timeit(numbers[name]) / numbers[name])
        results.append({"n": n, **{name: statistics.median(t) for name, t in times.items()}})
    return results


def crossover(sweep: list[dict]) -> int | None:
    """The smallest n from which the array call wins at every larger n measured."""
    best = None
    for row in reversed(sweep):
        if row["array_s"] < row["scalar_s"]:
            best = row["n"]
        else:
            break
    return best


# ----------------------------------------------------------------------- report


def rate(row: dict, column: str) -> float | None:
    return row[column]["mrows_per_s"] if column in row else None


def ratio(num: float | None, den: float | None) -> float | None:
    return None if num is None or den is None or den == 0 else num / den


def wall_speedup(row: dict) -> float | None:
    """workers=2 over workers=1, both by wall clock."""
    if "w1" not in row or "w2" not in row:
        return None
    return statistics.median(row["w1"]["wall_s"]) / statistics.median(row["w2"]["wall_s"])


def fmt_rate(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def fmt_ratio(x: float | None) -> str:
    return "—" if x is None else (f"{x:.2f}x" if x < 100 else f"{x:,.0f}x")


def table(rows: list[dict], n_ref: int) -> str:
    lines = [
        f"| query | N | fastcol w=1 | fastcol w=2 | reference (N={n_ref:,}) | NumPy "
        "| compiled loop/floor "
        "| w1/bar | w2/w1 | w1/ref | w1/NumPy |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        w1 = rate(row, "w1")
        bar = rate(row, "bar")
        bar_text = "—" if bar is None else f"{fmt_rate(bar)} ({row['bar_kind']})"
        lines.append(
            f"| {row['label']} | {row['rows']:,} | {fmt_rate(w1)} | {fmt_rate(rate(row, 'w2'))} "
            f"| {fmt_rate(rate(row, 'reference'))} | {fmt_rate(rate(row, 'numpy'))} | {bar_text} "
            f"| {fmt_ratio(ratio(w1, bar))} | {fmt_ratio(wall_speedup(row))} "
            f"| {fmt_ratio(ratio(w1, rate(row, 'reference')))} "
            f"| {fmt_ratio(ratio(w1, rate(row, 'numpy')))} |"
        )
    return "\n".join(lines)


def _target(label: str, status: str, detail: str) -> dict:
    return {"target": label, "status": status, "detail": detail}


def check_bar_target(label: str, rows: list[dict], limit: float) -> dict:
    """PASS when every row's workers=1 rate is at least ``limit`` x its bar."""
    ratios = {r["label"]: ratio(rate(r, "w1"), rate(r, "bar")) for r in rows}
    if not ratios or any(v is None for v in ratios.values()):
        return _target(label, "n/a", "needs the compiled backend and the compiled bars")
    detail = "; ".join(f"{k} {v:.2f}x" for k, v in ratios.items())
    return _target(label, "MISS" if min(ratios.values()) < limit else "PASS", detail)


def check_workers_target(rows: list[dict], n_main: int, control: dict | None) -> dict:
    label = (f"compute rows: workers=2 >= {TARGET_WORKERS:g}x workers=1 at N={n_main:,} "
             "(wall time)")
    speedups = {r["label"]: wall_speedup(r) for r in rows
                if r["rows"] == n_main and r["key"] not in STREAMING}
    speedups = {k: v for k, v in speedups.items() if v is not None}
    if not speedups:
        return _target(label, "n/a", "needs the compiled backend")
    worst = min(speedups, key=speedups.get)
    under = [f"{k} {v:.2f}x" for k, v in speedups.items() if v < TARGET_WORKERS]
    detail = f"lowest {worst} {speedups[worst]:.2f}x"
    if under:
        detail += f"; {len(under)} of {len(speedups)} under: " + ", ".join(under)
    if control:
        detail += (f"; controls: the compiled segment-segment loop split over 2 threads "
                   f"{control['speedup']:.2f}x, the circle pairs' read floor split over 2 "
                   f"threads {control['memory_speedup']:.2f}x in this run")
    return _target(label, "MISS" if under else "PASS", detail)


def check_streaming_target(rows: list[dict], control: dict | None) -> dict:
    """PASS when every row that streams memory reaches, with workers=2, TARGET_STREAM
    times the rate of two threads that only read its bytes (wall time, same run)."""
    label = (f"memory-streaming rows: workers=2 >= {TARGET_STREAM:g}x a two-thread loop "
             "that only reads the same bytes (wall time)")
    if not control or "floor_two_rate" not in control:
        return _target(label, "n/a", "needs the compiled backend and the compiled bars")
    ratios = {}
    for r in rows:
        floor = control["floor_two_rate"].get(r["key"])
        if floor and "w2" in r:
            ratios[r["label"]] = r["rows"] / statistics.median(r["w2"]["wall_s"]) / floor
    if not ratios:
        return _target(label, "n/a", "needs the compiled backend")
    detail = "; ".join(f"{k} {v:.2f}x" for k, v in ratios.items())
    return _target(label, "MISS" if min(ratios.values()) < TARGET_STREAM else "PASS", detail)


def check_small_n_target(sweep: list[dict] | None) -> dict:
    label = (f"an array call beats {TARGET_SMALL_N} scalar calls "
             "(collide Circle vs CircleArray, N=4)")
    if not sweep:
        return _target(label, "n/a", "needs the compiled backend")
    at = next(r for r in sweep if r["n"] == TARGET_SMALL_N)
    won = crossover(sweep)
    detail = (f"N={TARGET_SMALL_N}: array call {at['array_s'] * 1e6:.2f} us, "
              f"{TARGET_SMALL_N} scalar calls {at['scalar_s'] * 1e6:.2f} us; the array call wins "
              + (f"from N={won}" if won else f"at no N up to {SMALL_NS[-1]}"))
    ok = won is not None and won <= TARGET_SMALL_N
    return _target(label, "PASS" if ok else "MISS", detail)


def check_targets(rows: list[dict], sweep, n_main: int, control: dict | None) -> list[dict]:
    by_key = {r["key"]: r for r in rows}
    return [
        check_bar_target(f"collide Circle-Circle >= {TARGET_FLOOR:g}x the memory read floor",
                         [by_key["collide_circle_circle"]], TARGET_FLOOR),
        check_bar_target("segment-segment distance and point-segment closest point >= the "
                         "compiled single-threaded loop of the same algorithm",
                         [by_key["distance_segment_segment"], by_key["closest_point_segment"]],
                         TARGET_LOOP),
        check_workers_target(rows, n_main, control),
        check_streaming_target(rows, control),
        check_small_n_target(sweep),
    ]


def sweep_line(sweep: list[dict]) -> str:
    return "small N, collide(Circle, CircleArray) vs N scalar calls (us): " + ", ".join(
        f"N={r['n']} {r['array_s'] * 1e6:.2f}/{r['scalar_s'] * 1e6:.2f}" for r in sweep)


def machine_line(mods: dict) -> tuple[dict, str]:
    info = bench_scalar.machine_info(mods)
    info["numpy"] = np.__version__
    line = bench_scalar.machine_line(info).replace(
        f"; fastcol {info['fastcol']}", f"; NumPy {info['numpy']}; fastcol {info['fastcol']}")
    return info, line


# -------------------------------------------------------------------------- main


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="fastcol batch benchmark: million pairs per second against NumPy, "
                    "the reference and compiled bars.")
    parser.add_argument("--quick", action="store_true",
                        help=f"N={N_QUICK:,} instead of {N_FULL:,}, fewer repeats")
    parser.add_argument("--json", metavar="FILE", help="write the raw results to FILE")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time single-threaded columns with process CPU time "
                             "(workers=2 is always wall time)")
    parser.add_argument("--no-reference", action="store_true",
                        help="skip the pure-Python reference backend")
    parser.add_argument("--rebuild-floor", action="store_true",
                        help="rebuild the compiled bars even if a cached build exists")
    return parser.parse_args(argv)


def make_plans(quick: bool) -> dict:
    if quick:
        return {"main": Plan(5, 0.020), "reference": Plan(3, 0.020), "small": Plan(5, 0.005)}
    return {"main": Plan(9, 0.050), "reference": Plan(5, 0.050), "small": Plan(7, 0.020)}


def load_bars_or_note(rebuild: bool, notes: list[str]):
    try:
        bench_scalar.log("building/loading the compiled bars ...")
        return load_bars(rebuild)
    except Exception as exc:  # noqa: BLE001 - any build problem: report it, go on without
        notes.append(f"compiled bars not available ({type(exc).__name__}: {exc})")
        bench_scalar.log("note: " + notes[-1])
        return None


def print_report(line: str, settings: dict, notes: list[str], rows: list[dict], sweep,
                 targets: list[dict]) -> None:
    print(line)
    print(f"method: {settings['method']}")
    print("data: " + "; ".join(f"{r['label']}: {r['data']}" for r in rows if "data" in r))
    for note in notes:
        print(f"note: {note}")
    print()
    print("million pairs (rows) per second, higher is better; bar = compiled single-threaded "
          "loop of the same algorithm (loop) or memory read floor (floor)")
    print()
    print(table(rows, settings["n_reference"]))
    print()
    if sweep:
        print(sweep_line(sweep))
        print()
    for t in targets:
        print(f"{t['status']:<4}  {t['target']}  ({t['detail']})")
    counts = {s: sum(t["status"] == s for t in targets) for s in ("PASS", "MISS", "n/a")}
    print("summary: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))


def make_settings(args, plans: dict, n: int, n_poly: int, n_ref: int) -> dict:
    """What was run and how, for the report's method line and the JSON."""
    method = (
        f"median of {plans['main'].repeat} repeats (reference {plans['reference'].repeat}) of "
        f"{'process CPU' if args.cpu_time else 'wall-clock'} time, each about "
        f"{plans['main'].target_s * 1000:.0f} ms; workers=2 and w2/w1 by wall-clock time; "
        f"float64 rows; reference at N={n_ref:,}; compiled bars built with Cython, "
        f"{' '.join(bench_scalar.FLOOR_COMPILE_ARGS)}"
    )
    return {
        "quick": args.quick, "cpu_time": args.cpu_time, "n": n, "n_polygons": n_poly,
        "n_reference": n_ref, "seed": SEED,
        "plans": {k: vars(v) for k, v in plans.items()},
        "compile_args": bench_scalar.FLOOR_COMPILE_ARGS,
        "method": method,
    }


def main(argv=None) -> int:
    args = parse_args(argv)
    log = bench_scalar.log
    plans = make_plans(args.quick)
    clock = "cpu" if args.cpu_time else "wall"
    n, n_poly = (N_QUICK, N_POLY_QUICK) if args.quick else (N_FULL, N_POLY_FULL)
    n_ref = N_REF_QUICK if args.quick else N_REF_FULL

    mods, notes = bench_scalar.load_backends(args.no_reference)
    load = bench_scalar.load_note()
    if load:
        notes.append(load if args.cpu_time else load + "; --cpu-time is steadier")
    if (os.cpu_count() or 1) < 2:
        notes.append("fewer than 2 cores: the workers=2 column cannot scale")
    if not any(mods.values()):
        log("no backend could be imported; nothing to benchmark")
        return 0
    bars = load_bars_or_note(args.rebuild_floor, notes)

    log(f"generating data (N={n:,}, polygons N={n_poly:,}) ...")
    data = make_data(n, n_poly)
    ref_data = head(data, n_ref, n_ref)

    log("timing (million rows per second) ...")
    rows = [run_query(q, mods, bars, data, ref_data, plans, clock, log) for q in QUERIES]
    notes += [f"{r['label']}: PolygonArray.from_padded took {r['wrap_us_per_row']:.1f} us "
              f"per row (N={r['rows']:,}, not timed in the table)"
              for r in rows if "wrap_us_per_row" in r]
    control = None
    if bars is not None:
        log("two-thread control ...")
        control = two_thread_control(bars, data, plans["main"])
    sweep = None
    if mods.get("compiled") is not None:
        log("small batches ...")
        sweep = small_n_sweep(mods["compiled"], data, plans["small"], clock)
    targets = check_targets(rows, sweep, n, control)

    info, line = machine_line(mods)
    settings = make_settings(args, plans, n, n_poly, n_ref)
    print_report(line, settings, notes, rows, sweep, targets)
    if args.json:
        payload = {"machine": info, "settings": settings, "notes": notes, "rows": rows,
                   "two_thread_control": control, "small_n": sweep, "targets": targets}
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        log(f"raw results written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
