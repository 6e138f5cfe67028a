"""Textbook loops: fastcol's buffer API against the loop a user writes with numba.

The yardstick of issue 33.  Each query is answered for the same N rows by fastcol, in
one call of its buffer API (``CircleArray`` ... ``PolygonArray``, or ``(N, 2)`` arrays;
``workers=1``), and by the textbook loop a user writes in ten minutes, compiled with
numba, in the same run:

* circle-circle ``collide`` (``dx*dx + dy*dy <= (ra + rb)**2``) and ``distance``
  (``sqrt(dx*dx + dy*dy) - ra - rb`` clamped at 0.0: fastcol's ``distance`` is 0.0,
  never negative, for circles that overlap or touch, ``_ref/queries.py``);
* ``closest_point_on_segment`` on ``(N, 2)`` arrays against Ericson (Real-Time
  Collision Detection) 5.1.2, the projection clamped before the division;
* ``segment_segment_distance`` on ``(N, 2)`` arrays and ``distance(SegmentArray,
  SegmentArray)``, both against Ericson 5.1.9 (ClosestPtSegmentSegment), and
  ``distance(CapsuleArray, CapsuleArray)`` against that loop minus the radii, clamped
  at 0.0;
* circle-AABB and circle-OBB ``collide``: the centre clamped into the box (in the box's
  frame for the OBB), squared distances compared;
* hexagon-hexagon ``collide``: separating axes over the 12 edge normals of the
  ``(N, 6, 2)`` vertex arrays that the ``PolygonArray`` wraps;
* ``raycast``, a ray per row: circles (Ericson 5.3.2, the quadratic's smaller root; an
  origin inside or on the circle gives t = 0, as fastcol's, see ``_ref/sweeps.py``; a
  miss gives inf) and AABBs (slabs, Ericson 5.3.3).  Each loop fills what fastcol's
  ``RayHitArray`` holds, hit, t, point and normal, into arrays it allocates, as
  fastcol does (a user replacing ``raycast`` needs them; Ericson's routines return t
  and the point); the answers compared are the t;
* ``rotate`` with ``out=`` in place (issue 35: a frame loop turning its bodies), a turn
  of 0.01 rad a call: OBB rows about a fixed point (the centre turned, the angle kept in
  [-pi, pi] as fastcol keeps it, ``a - 2 pi rint(a / 2 pi)``: numba has no
  ``math.remainder``), and hexagon rows about a fixed point and about each row's area
  centroid (the shoelace formula).  These loops work in place on the very ``(N, 5)``
  and ``(N, 6, 2)`` arrays the shape arrays wrap, as a user's state would be; the
  answers compared are the rows (how many differ in any bit, the largest difference).

How to run (from the repository root)::

    python bench/bench_textbook.py                  # after pip install "fastcol[bench]"
    PYTHONPATH=src python bench/bench_textbook.py   # with an in-place build of src/fastcol

Options: ``--quick`` (N = 200,000 and 3 repeats instead of 1,000,000 and 5),
``--cpu-time`` (process CPU time instead of wall-clock time: steadier on a busy
machine; both sides run on one thread), ``--write-docs`` (write the result into the
section "Textbook loops" at the end of docs/performance.md, replacing it if present).

The host's vector unit matters: numba compiles each loop for the CPU it runs on (AVX2 or
AVX-512 where present: 4 or 8 doubles an instruction), while fastcol's wheels are built
for their platform's baseline (x86-64: SSE2, 2 doubles), so the loops that vectorize
(the circle rows, circle-AABB) gain on a wider host and the ratios fall; the machine
line names the widest unit.

Method.  Each data set is drawn once, seeded (``numpy.random.default_rng``), as
C-contiguous float64 rows; two per query: *uniform* (every number drawn independently,
shapes in a 10 x 10 square) and *half*, built so that about half of the pairs cross,
overlap or touch (pairs through a common point, offsets of (ra + rb) times a factor in
[0, 2), rays aimed at the shape or beside it), a tenth of them touching by construction,
exactly or to rounding.  The loops are plain ``@numba.njit`` (no fastmath, no
parallel) and read the same numbers as fastcol: the columns of its row arrays, taken
as contiguous 1-D arrays beforehand, outside the timing (the hexagons: the very
``(N, 6, 2)`` array).  Where fastcol writes into ``out=`` (``collide``, ``distance``), so
does the loop; where fastcol allocates (the ``(N, 2)`` primitives; ``raycast``, which
also fills points and normals), the loop allocates its result.  Both are called once
before timing (numba compiles then) and those answers are compared: the verdicts
that differ (collide; distance == 0.0; hit or miss; the closest point's feature: end
a, interior, end b), the largest absolute difference of distances, points or t where
both give a number, and, for up to 2,000 differing rows, the verdict of exact
rational arithmetic on the shapes as stored.  Each repeat times one call of each side,
in turn (the order alternates), the garbage collector off; the table gives M rows per
second from the best repeat, and from the median.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import re
import shlex
import statistics
import sys
import textwrap
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Callable

import numpy as np

from _docs import git_head, load, write_section  # noqa: E402  (this folder's shared helpers)

try:
    import numba
except ImportError:
    numba = None

import fastcol as fc

N_FULL, N_QUICK = 1_000_000, 200_000
REPEATS_FULL, REPEATS_QUICK = 5, 3
SEED = 33
SIDE = 10.0  # the uniform data sets lie in [0, SIDE] x [0, SIDE]
EXACT_ROWS = 2_000  # differing rows per table row checked in exact arithmetic
EPS = 1e-12  # Ericson's EPSILON: a segment whose squared length is below it is a point
ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "performance.md"
SECTION = "## Textbook loops: `bench/bench_textbook.py`"


def njit(f):
    """``numba.njit``, lazily (without numba, main() says how to get it)."""
    return numba.njit(f) if numba is not None else f


# ------------------------------------------------------------------- textbook loops


@njit
def nb_circle_collide(ax, ay, ar, bx, by, br, out):
    for i in range(out.size):
        dx = bx[i] - ax[i]
        dy = by[i] - ay[i]
        r = ar[i] + br[i]
        out[i] = dx * dx + dy * dy <= r * r


@njit
def nb_circle_distance(ax, ay, ar, bx, by, br, out):
    for i in range(out.size):
        dx = bx[i] - ax[i]
        dy = by[i] - ay[i]
        d = math.sqrt(dx * dx + dy * dy) - ar[i] - br[i]
        out[i] = d if d > 0.0 else 0.0  # as fastcol: 0.0 for overlapping circles


@njit
def nb_closest_point(px, py, ax, ay, bx, by):
    """Ericson 5.1.2, the version that clamps before it divides."""
    q = np.empty((px.size, 2))
    ts = np.empty(px.size)
    for i in range(px.size):
        abx = bx[i] - ax[i]
        aby = by[i] - ay[i]
        t = (px[i] - ax[i]) * abx + (py[i] - ay[i]) * aby
        den = abx * abx + aby * aby
        if t <= 0.0:
            t, q[i, 0], q[i, 1] = 0.0, ax[i], ay[i]
        elif t >= den:
            t, q[i, 0], q[i, 1] = 1.0, bx[i], by[i]
        else:
            t = t / den
            q[i, 0] = ax[i] + t * abx
            q[i, 1] = ay[i] + t * aby
        ts[i] = t
    return q, ts


@njit
def _clamp01(x):
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


@njit
def _seg_seg_d2(p1x, p1y, q1x, q1y, p2x, p2y, q2x, q2y):
    """Ericson 5.1.9, ClosestPtSegmentSegment: the squared distance."""
    d1x, d1y, d2x, d2y = q1x - p1x, q1y - p1y, q2x - p2x, q2y - p2y
    rx, ry = p1x - p2x, p1y - p2y
    a = d1x * d1x + d1y * d1y
    e = d2x * d2x + d2y * d2y
    f = d2x * rx + d2y * ry
    s = t = 0.0
    if a <= EPS and e > EPS:
        t = _clamp01(f / e)
    elif a > EPS:
        c = d1x * rx + d1y * ry
        if e <= EPS:
            s = _clamp01(-c / a)
        else:
            b = d1x * d2x + d1y * d2y
            denom = a * e - b * b
            s = _clamp01((b * f - c * e) / denom) if denom != 0.0 else 0.0
            t = (b * s + f) / e
            if t < 0.0:
                t, s = 0.0, _clamp01(-c / a)
            elif t > 1.0:
                t, s = 1.0, _clamp01((b - c) / a)
    dx = (p1x + d1x * s) - (p2x + d2x * t)
    dy = (p1y + d1y * s) - (p2y + d2y * t)
    return dx * dx + dy * dy


@njit
def nb_segment_distance(ax, ay, bx, by, cx, cy, dx, dy, out):
    for i in range(out.size):
        out[i] = math.sqrt(_seg_seg_d2(ax[i], ay[i], bx[i], by[i], cx[i], cy[i], dx[i], dy[i]))
    return out


@njit
def nb_capsule_distance(ax, ay, bx, by, ar, cx, cy, dx, dy, cr, out):
    for i in range(out.size):
        d2 = _seg_seg_d2(ax[i], ay[i], bx[i], by[i], cx[i], cy[i], dx[i], dy[i])
        d = math.sqrt(d2) - ar[i] - cr[i]
        out[i] = d if d > 0.0 else 0.0  # clamped at 0.0, as fastcol's distance


@njit
def nb_circle_aabb(cx, cy, r, x0, y0, x1, y1, out):
    for i in range(out.size):
        dx = cx[i] - min(max(cx[i], x0[i]), x1[i])
        dy = cy[i] - min(max(cy[i], y0[i]), y1[i])
        out[i] = dx * dx + dy * dy <= r[i] * r[i]


@njit
def nb_circle_obb(cx, cy, r, bx, by, hw, hh, angle, out):
    for i in range(out.size):
        c = math.cos(angle[i])
        s = math.sin(angle[i])
        dx = cx[i] - bx[i]
        dy = cy[i] - by[i]
        u = dx * c + dy * s  # the centre in the box's frame
        v = dy * c - dx * s
        du = u - min(max(u, -hw[i]), hw[i])
        dv = v - min(max(v, -hh[i]), hh[i])
        out[i] = du * du + dv * dv <= r[i] * r[i]


@njit
def nb_hexagon_sat(va, vb, out):
    for i in range(out.size):
        apart = False
        for side in range(2):
            v = va if side == 0 else vb
            for k in range(6):
                j = k + 1 if k < 5 else 0
                nx = v[i, j, 1] - v[i, k, 1]  # normal to edge k (either sign will do)
                ny = v[i, k, 0] - v[i, j, 0]
                amin = amax = va[i, 0, 0] * nx + va[i, 0, 1] * ny
                bmin = bmax = vb[i, 0, 0] * nx + vb[i, 0, 1] * ny
                for m in range(1, 6):
                    p = va[i, m, 0] * nx + va[i, m, 1] * ny
                    amin, amax = min(amin, p), max(amax, p)
                    p = vb[i, m, 0] * nx + vb[i, m, 1] * ny
                    bmin, bmax = min(bmin, p), max(bmax, p)
                if amax < bmin or bmax < amin:
                    apart = True
                    break
            if apart:
                break
        out[i] = not apart


@njit
def _ray_rows(n):
    """A RayHitArray's arrays for n rows: hit, t, point, normal."""
    return np.empty(n, np.bool_), np.empty(n), np.empty((n, 2)), np.empty((n, 2))


@njit
def _ray_row(i, hit, t, point, normal, ti, px, py, nx, ny):
    """Row i of the ray answers: a hit at ti (inf: none) with the point and normal."""
    hit[i] = ti < np.inf
    t[i] = ti
    point[i, 0], point[i, 1] = (px, py) if ti < np.inf else (0.0, 0.0)
    normal[i, 0], normal[i, 1] = (nx, ny) if ti < np.inf else (0.0, 0.0)


@njit
def nb_ray_circle(ox, oy, dx, dy, cx, cy, r):
    """Ericson 5.3.2 with an unnormalised direction: hit, t, point and normal, as
    fastcol's RayHitArray (an origin inside or on the circle: t = 0, normal (0, 0))."""
    n = ox.size
    hit, t, point, normal = _ray_rows(n)
    for i in range(n):
        mx = ox[i] - cx[i]
        my = oy[i] - cy[i]
        c = mx * mx + my * my - r[i] * r[i]
        b = mx * dx[i] + my * dy[i]
        ti, nx, ny = np.inf, 0.0, 0.0
        if c <= 0.0:
            ti = 0.0
        elif b < 0.0:
            a = dx[i] * dx[i] + dy[i] * dy[i]
            disc = b * b - a * c
            if disc >= 0.0:
                ti = (-b - math.sqrt(disc)) / a
                nx = (mx + ti * dx[i]) / r[i]
                ny = (my + ti * dy[i]) / r[i]
        _ray_row(i, hit, t, point, normal, ti, ox[i] + ti * dx[i], oy[i] + ti * dy[i], nx, ny)
    return hit, t, point, normal


@njit
def nb_ray_aabb(ox, oy, dx, dy, x0, y0, x1, y1):
    """Ericson 5.3.3 (slabs) in 2D: hit, t, point and the entered face's normal, as
    fastcol's RayHitArray (an origin inside: t = 0, normal (0, 0))."""
    n = ox.size
    hit, t, point, normal = _ray_rows(n)
    for i in range(n):
        tmin, tmax, nx, ny = 0.0, np.inf, 0.0, 0.0
        for p, d, lo, hi, axis in ((ox[i], dx[i], x0[i], x1[i], 0), (oy[i], dy[i], y0[i], y1[i], 1)):
            if d == 0.0:  # parallel: inside the slab, or a miss
                if p < lo or p > hi:
                    tmin = np.inf
                continue
            t1, t2, s = (lo - p) / d, (hi - p) / d, -1.0
            if t1 > t2:
                t1, t2, s = t2, t1, 1.0
            if t1 > tmin:
                tmin, nx, ny = t1, (s if axis == 0 else 0.0), (s if axis == 1 else 0.0)
            tmax = min(tmax, t2)
        ti = tmin if tmin <= tmax else np.inf
        _ray_row(i, hit, t, point, normal, ti, ox[i] + ti * dx[i], oy[i] + ti * dy[i], nx, ny)
    return hit, t, point, normal


TAU = 2.0 * math.pi


@njit
def nb_rotate_obbs(boxes, angle, qx, qy):
    """A turn of every box about (qx, qy), in place: the centre turned, the angle
    advanced and kept in [-pi, pi]."""
    c = math.cos(angle)
    s = math.sin(angle)
    for i in range(boxes.shape[0]):
        dx = boxes[i, 0] - qx
        dy = boxes[i, 1] - qy
        boxes[i, 0] = qx + (dx * c - dy * s)
        boxes[i, 1] = qy + (dx * s + dy * c)
        a = boxes[i, 4] + angle
        boxes[i, 4] = a - TAU * np.rint(a / TAU)


@njit
def nb_rotate_polygons(v, angle, qx, qy):
    """A turn of every vertex of every polygon about (qx, qy), in place."""
    c = math.cos(angle)
    s = math.sin(angle)
    for i in range(v.shape[0]):
        for k in range(v.shape[1]):
            dx = v[i, k, 0] - qx
            dy = v[i, k, 1] - qy
            v[i, k, 0] = qx + (dx * c - dy * s)
            v[i, k, 1] = qy + (dx * s + dy * c)


@njit
def nb_spin_polygons(v, angle):
    """A turn of every polygon about its own area centroid (the shoelace formula), in
    place."""
    c = math.cos(angle)
    s = math.sin(angle)
    m = v.shape[1]
    for i in range(v.shape[0]):
        a2 = sx = sy = 0.0
        for k in range(m):
            j = k + 1 if k + 1 < m else 0
            cross = v[i, k, 0] * v[i, j, 1] - v[i, j, 0] * v[i, k, 1]
            a2 += cross
            sx += (v[i, k, 0] + v[i, j, 0]) * cross
            sy += (v[i, k, 1] + v[i, j, 1]) * cross
        qx = sx / (3.0 * a2)
        qy = sy / (3.0 * a2)
        for k in range(m):
            dx = v[i, k, 0] - qx
            dy = v[i, k, 1] - qy
            v[i, k, 0] = qx + (dx * c - dy * s)
            v[i, k, 1] = qy + (dx * s + dy * c)


# ------------------------------------------------------------------------- data sets


def _unit(angle):
    return np.column_stack([np.cos(angle), np.sin(angle)])


def _factor(rng, n):
    """f in [0, 2), a tenth of it exactly 1: offsets of f times the touching distance."""
    f = rng.uniform(0, 2, n)
    f[rng.random(n) < 0.1] = 1.0
    return f


def data_circles(rng, n, half):
    """Half: b at (ra + rb) * f from a."""
    a = np.column_stack([rng.uniform(0, SIDE, (n, 2)), rng.uniform(0.25, 1.5, n)])
    b = np.column_stack([rng.uniform(0, SIDE, (n, 2)), rng.uniform(0.25, 1.5, n)])
    if half:
        dist = (a[:, 2] + b[:, 2]) * _factor(rng, n)
        b[:, :2] = a[:, :2] + dist[:, None] * _unit(rng.uniform(0, 2 * np.pi, n))
    return {"a": a, "b": b}


def data_point_segment(rng, n, half):
    """Half: half the points are a + u (b - a), on the segment to rounding."""
    p, a, b = (rng.uniform(0, SIDE, (n, 2)) for _ in range(3))
    if half:
        on = rng.random(n) < 0.5
        p[on] = (a + rng.uniform(0, 1, (n, 1)) * (b - a))[on]
    return {"p": p, "a": a, "b": b}


def data_segments(rng, n, half, radii=None):
    """Pairs ``s1``, ``s2`` ``(N, 4)`` (and their ends as ``(N, 2)`` arrays).  Half: both
    lines through a point P; 40% cross there, 5% share an end (touch exactly), 5% start
    at a + u (b - a) (touch to rounding), 50% stop short of P (apart)."""
    if not half:
        s1, s2 = rng.uniform(0, SIDE, (n, 4)), rng.uniform(0, SIDE, (n, 4))
    else:
        P = rng.uniform(0, SIDE, (n, 2))
        d1 = _unit(rng.uniform(0, 2 * np.pi, n)) * rng.uniform(0.5, 3, (n, 1))
        d2 = _unit(rng.uniform(0, 2 * np.pi, n)) * rng.uniform(0.5, 3, (n, 1))
        u1 = rng.uniform(0.05, 0.95, (n, 1))
        a = P - u1 * d1
        b = a + d1
        kind = rng.choice(4, size=n, p=[0.4, 0.05, 0.05, 0.5])
        u2 = np.where(kind == 0, rng.uniform(0.05, 0.95, n), rng.uniform(-1.0, -0.05, n))
        c = P - u2[:, None] * d2
        c[kind == 1] = a[kind == 1]
        c[kind == 2] = (a + u1 * (b - a))[kind == 2]
        s1, s2 = np.hstack([a, b]), np.hstack([c, c + d2])
    if radii is not None:
        r = rng.uniform(*radii, (n, 2))
        return {"c1": np.column_stack([s1, r[:, 0]]), "c2": np.column_stack([s2, r[:, 1]])}
    ends = {k: np.ascontiguousarray(s[:, j:j + 2])
            for k, s, j in (("a", s1, 0), ("b", s1, 2), ("c", s2, 0), ("d", s2, 2))}
    return {"s1": s1, "s2": s2, **ends}


def data_circle_box(rng, n, half, oriented):
    """Circles ``(N, 3)``, boxes (AABB ``(N, 4)``, OBB ``(N, 5)``).  Half: the circle at
    r * f from the point of the box nearest to a point of the ellipse through (2 hw, 0)
    and (0, 2 hh): on an edge, or at a corner (a third of them)."""
    circ = np.column_stack([rng.uniform(0, SIDE, (n, 2)), rng.uniform(0.25, 1.5, n)])
    ctr, H = rng.uniform(0, SIDE, (n, 2)), rng.uniform(0.25, 1.5, (n, 2))  # centre, half extents
    angle = rng.uniform(0, 2 * np.pi, n)
    box = np.column_stack([ctr, H, angle] if oriented else [ctr - H, ctr + H])
    if half:
        X = 2 * H * _unit(rng.uniform(0, 2 * np.pi, n))  # outside the box
        Q = np.clip(X, -H, H)
        offset = (X - Q) / np.linalg.norm(X - Q, axis=1, keepdims=True)
        offset *= (circ[:, 2] * _factor(rng, n))[:, None]
        if oriented:  # in the box's frame, then turned into the world
            L = Q + offset
            c, s = np.cos(angle), np.sin(angle)
            circ[:, 0] = ctr[:, 0] + L[:, 0] * c - L[:, 1] * s
            circ[:, 1] = ctr[:, 1] + L[:, 0] * s + L[:, 1] * c
        else:  # from the box's sides as stored
            circ[:, :2] = np.clip(ctr + X, box[:, :2], box[:, 2:]) + offset
    return {"circles": circ, "boxes": box}


def _hexagons(centres, radius, theta):
    ang = theta[:, None] + np.arange(6) * (np.pi / 3)
    return np.ascontiguousarray(np.stack([centres[:, :1] + radius[:, None] * np.cos(ang),
                                          centres[:, 1:] + radius[:, None] * np.sin(ang)], -1))


def data_hexagons(rng, n, half):
    """Regular hexagons ``(N, 6, 2)``, CCW.  Half: centres (Ra + Rb) * f apart, f in
    [0, 1.8); a tenth are twins placed edge to edge (touching to rounding)."""
    ra, rb = rng.uniform(0.5, 1.5, n), rng.uniform(0.5, 1.5, n)
    ta, tb = rng.uniform(0, np.pi / 3, n), rng.uniform(0, np.pi / 3, n)
    ca, cb = rng.uniform(0, SIDE, (n, 2)), rng.uniform(0, SIDE, (n, 2))
    if half:
        twin = rng.random(n) < 0.1
        rb[twin], tb[twin] = ra[twin], ta[twin]
        phi = rng.uniform(0, 2 * np.pi, n)
        dist = (ra + rb) * rng.uniform(0, 1.8, n)
        # twins: across edge k, along its normal, two apothems apart
        phi[twin] = (ta + rng.integers(0, 6, n) * (np.pi / 3) + np.pi / 6)[twin]
        dist[twin] = (2 * ra * math.cos(math.pi / 6))[twin]
        cb = ca + dist[:, None] * _unit(phi)
    va, vb = _hexagons(ca, ra, ta), _hexagons(cb, rb, tb)
    counts = np.full(n, 6, dtype=np.int64)
    return {"va": va, "vb": vb, "pa": fc.PolygonArray.from_padded(va, counts, copy=False),
            "pb": fc.PolygonArray.from_padded(vb, counts, copy=False)}


def data_rays(rng, n, half, box):
    """Origins, directions ``(N, 2)``; circles ``(N, 3)`` or AABBs ``(N, 4)``.  Half: the
    shape 2.5-8 away; 45% of the rays aimed at it (circles: within the angle it spans;
    boxes: at a point of the box), 45% beside it (up to that angle again beyond its
    bounding circle), 10% tangent (circles) or at a corner (boxes); and 5% of the
    circle rays start inside."""
    o = rng.uniform(0, SIDE, (n, 2))
    size = rng.uniform(0.25, 1.5, (n, 2))  # half extents; a circle's radius is size[:, 0]
    ctr = rng.uniform(0, SIDE, (n, 2))
    d = _unit(rng.uniform(0, 2 * np.pi, n)) * rng.uniform(0.5, 2, (n, 1))
    if half:
        dist, phi = rng.uniform(2.5, 8, n), rng.uniform(0, 2 * np.pi, n)
        ctr = o + dist[:, None] * _unit(phi)
        kind = rng.choice(3, size=n, p=[0.45, 0.45, 0.1])
        alpha = np.arcsin((np.hypot(size[:, 0], size[:, 1]) if box else size[:, 0]) / dist)
        theta = alpha * np.select([kind == 0, kind == 1],
                                  [rng.uniform(0, 1, n), rng.uniform(1, 2, n)], 1.0)
        d = _unit(phi + theta * rng.choice([-1.0, 1.0], n)) * rng.uniform(0.5, 2, (n, 1))
        if box:
            target = ctr + size * rng.uniform(-1, 1, (n, 2))
            target[kind == 2] = (ctr + size * rng.choice([-1.0, 1.0], (n, 2)))[kind == 2]
            d[kind != 1] = (target - o)[kind != 1]
        else:
            inside = rng.random(n) < 0.05
            o[inside] = (ctr + size[:, :1] * rng.uniform(0, 1, (n, 1))
                         * _unit(rng.uniform(0, 2 * np.pi, n)))[inside]
    shapes = np.column_stack([ctr - size, ctr + size] if box else [ctr, size[:, 0]])
    return {"o": np.ascontiguousarray(o), "d": np.ascontiguousarray(d), "shapes": shapes}


def data_turning_obbs(rng, n, half):
    """OBB rows ``(N, 5)`` in the square, angles in [-pi, pi]: one copy each side turns."""
    ctr, H = rng.uniform(0, SIDE, (n, 2)), rng.uniform(0.25, 1.5, (n, 2))
    rows = np.column_stack([ctr, H, rng.uniform(-np.pi, np.pi, n)])
    return {"fast": fc.OBBArray(rows.copy()), "loop": rows.copy()}


def data_turning_hexagons(rng, n, half):
    """Hexagon rows ``(N, 6, 2)``: one copy each side turns."""
    v = data_hexagons(rng, n, False)["va"]
    counts = np.full(n, 6, dtype=np.int64)
    return {"fast": fc.PolygonArray.from_padded(v.copy(), counts, copy=False), "loop": v.copy()}


# each family: its builder, and the row arrays whose columns the loop reads
FAMILIES = {
    "circles": (data_circles, ("a", "b")),
    "point_segment": (data_point_segment, ("p", "a", "b")),
    "segments": (data_segments, ("s1", "s2")),
    "capsules": (lambda rng, n, half: data_segments(
        rng, n, half, radii=(0.02, 0.2) if half else (0.05, 0.5)), ("c1", "c2")),
    "circle_aabb": (lambda rng, n, half: data_circle_box(rng, n, half, False),
                    ("circles", "boxes")),
    "circle_obb": (lambda rng, n, half: data_circle_box(rng, n, half, True), ("circles", "boxes")),
    "hexagons": (data_hexagons, ()),
    "ray_circle": (lambda rng, n, half: data_rays(rng, n, half, False), ("o", "d", "shapes")),
    "ray_aabb": (lambda rng, n, half: data_rays(rng, n, half, True), ("o", "d", "shapes")),
    "turning_obbs": (data_turning_obbs, ()),
    "turning_hexagons": (data_turning_hexagons, ()),
}


def make_data(family, n, half):
    build, arrays = FAMILIES[family]
    D = build(np.random.default_rng([SEED, list(FAMILIES).index(family), int(half)]), n, half)
    # the loop's arguments: the same numbers, as contiguous columns (not timed)
    D["cols"] = tuple(np.ascontiguousarray(D[k][:, j]) for k in arrays for j in range(D[k].shape[1]))
    return D


# ------------------------------------------------------------------- exact referees
# One row's verdict in exact rational arithmetic (fractions.Fraction) for the shapes as
# stored: which side had it right, on a sample of the rows whose verdicts differ.


def _q(*rows):
    return [Fraction(float(x)) for row in rows for x in np.ravel(row)]


def _orient(ax, ay, bx, by, cx, cy):
    det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (det > 0) - (det < 0)


def _point_segment_d2(px, py, ax, ay, bx, by):
    ex, ey = bx - ax, by - ay
    den = ex * ex + ey * ey
    t = 0 if den == 0 else min(max(((px - ax) * ex + (py - ay) * ey) / den, 0), 1)
    return (px - ax - t * ex) ** 2 + (py - ay - t * ey) ** 2


def _segment_d2(ax, ay, bx, by, cx, cy, dx, dy):
    if (_orient(ax, ay, bx, by, cx, cy) * _orient(ax, ay, bx, by, dx, dy) < 0
            and _orient(cx, cy, dx, dy, ax, ay) * _orient(cx, cy, dx, dy, bx, by) < 0):
        return 0  # a proper crossing; segments that touch have an end at distance 0
    return min(_point_segment_d2(ax, ay, cx, cy, dx, dy), _point_segment_d2(bx, by, cx, cy, dx, dy),
               _point_segment_d2(cx, cy, ax, ay, bx, by), _point_segment_d2(dx, dy, ax, ay, bx, by))


def exact_circles(D, i):
    ax, ay, ar, bx, by, br = _q(D["a"][i], D["b"][i])
    return (bx - ax) ** 2 + (by - ay) ** 2 <= (ar + br) ** 2


def exact_segments(D, i):
    return _segment_d2(*_q(D["s1"][i], D["s2"][i])) == 0


def exact_capsules(D, i):
    a, b = _q(D["c1"][i]), _q(D["c2"][i])
    return _segment_d2(*a[:4], *b[:4]) <= (a[4] + b[4]) ** 2


def exact_circle_aabb(D, i):
    cx, cy, r, x0, y0, x1, y1 = _q(D["circles"][i], D["boxes"][i])
    return (cx - min(max(cx, x0), x1)) ** 2 + (cy - min(max(cy, y0), y1)) ** 2 <= r * r


def exact_hexagons(D, i):
    """Apart exactly when every vertex of one lies strictly outside an edge of the other."""
    for p, q in ((_q(D["va"][i]), _q(D["vb"][i])), (_q(D["vb"][i]), _q(D["va"][i]))):
        for k in range(6):
            x0, y0, x1, y1 = p[2 * k], p[2 * k + 1], p[(2 * k + 2) % 12], p[(2 * k + 3) % 12]
            if all(_orient(x0, y0, x1, y1, q[2 * m], q[2 * m + 1]) < 0 for m in range(6)):
                return False
    return True


def exact_ray_circle(D, i):
    ox, oy, dx, dy, cx, cy, r = _q(D["o"][i], D["d"][i], D["shapes"][i])
    mx, my = ox - cx, oy - cy
    c, b = mx * mx + my * my - r * r, mx * dx + my * dy
    return c <= 0 or (b < 0 and b * b >= (dx * dx + dy * dy) * c)


def exact_ray_aabb(D, i):
    ox, oy, dx, dy, x0, y0, x1, y1 = _q(D["o"][i], D["d"][i], D["shapes"][i])
    tmin, tmax = Fraction(0), None
    for p, d, lo, hi in ((ox, dx, x0, x1), (oy, dy, y0, y1)):
        if d == 0:
            if not lo <= p <= hi:
                return False
            continue
        t1, t2 = sorted(((lo - p) / d, (hi - p) / d))
        tmin, tmax = max(tmin, t1), t2 if tmax is None else min(tmax, t2)
    return tmax is None or tmin <= tmax


# ---------------------------------------------------------------------------- queries


@dataclass
class Query:
    label: str
    family: str  # the data (rows of one family share it)
    kind: str  # bool | dist | point | ray | rows
    fast: Callable  # (data, out) -> answer
    loop: Callable  # (data, out) -> answer (None: it wrote into out)
    exact: Callable | None = None  # (data, row) -> the exact verdict
    sets: tuple = (("uniform", False), ("half", True))  # the data sets it runs on


QUERIES = [
    Query("circle-circle `collide`", "circles", "bool",
          lambda D, o: fc.collide(fc.CircleArray(D["a"]), fc.CircleArray(D["b"]), out=o, workers=1),
          lambda D, o: nb_circle_collide(*D["cols"], o), exact_circles),
    Query("circle-circle `distance`", "circles", "dist",
          lambda D, o: fc.distance(fc.CircleArray(D["a"]), fc.CircleArray(D["b"]), out=o, workers=1),
          lambda D, o: nb_circle_distance(*D["cols"], o), exact_circles),
    Query("`closest_point_on_segment`, (N, 2) arrays", "point_segment", "point",
          lambda D, o: fc.closest_point_on_segment(D["p"], D["a"], D["b"], workers=1),
          lambda D, o: nb_closest_point(*D["cols"])),
    Query("`segment_segment_distance`, (N, 2) arrays", "segments", "dist",
          lambda D, o: fc.segment_segment_distance(D["a"], D["b"], D["c"], D["d"], workers=1),
          lambda D, o: nb_segment_distance(*D["cols"], np.empty(o.size)), exact_segments),
    Query("`distance(SegmentArray, SegmentArray)`", "segments", "dist",
          lambda D, o: fc.distance(fc.SegmentArray(D["s1"]), fc.SegmentArray(D["s2"]), out=o,
                                   workers=1),
          lambda D, o: nb_segment_distance(*D["cols"], o), exact_segments),
    Query("`distance(CapsuleArray, CapsuleArray)`", "capsules", "dist",
          lambda D, o: fc.distance(fc.CapsuleArray(D["c1"]), fc.CapsuleArray(D["c2"]), out=o,
                                   workers=1),
          lambda D, o: nb_capsule_distance(*D["cols"], o), exact_capsules),
    Query("circle-AABB `collide`", "circle_aabb", "bool",
          lambda D, o: fc.collide(fc.CircleArray(D["circles"]), fc.AABBArray(D["boxes"]), out=o,
                                  workers=1),
          lambda D, o: nb_circle_aabb(*D["cols"], o), exact_circle_aabb),
    Query("circle-OBB `collide`", "circle_obb", "bool",
          lambda D, o: fc.collide(fc.CircleArray(D["circles"]), fc.OBBArray(D["boxes"]), out=o,
                                  workers=1),
          lambda D, o: nb_circle_obb(*D["cols"], o)),  # no exact referee: cos, sin
    Query("hexagon-hexagon `collide`", "hexagons", "bool",
          lambda D, o: fc.collide(D["pa"], D["pb"], out=o, workers=1),
          lambda D, o: nb_hexagon_sat(D["va"], D["vb"], o), exact_hexagons),
    Query("`raycast` of circles, a ray per row", "ray_circle", "ray",
          lambda D, o: fc.raycast(fc.CircleArray(D["shapes"]), D["o"], D["d"], workers=1).t,
          lambda D, o: nb_ray_circle(*D["cols"])[1], exact_ray_circle),
    Query("`raycast` of AABBs, a ray per row", "ray_aabb", "ray",
          lambda D, o: fc.raycast(fc.AABBArray(D["shapes"]), D["o"], D["d"], workers=1).t,
          lambda D, o: nb_ray_aabb(*D["cols"])[1], exact_ray_aabb),
    Query("`rotate(OBBArray)` about a point, `out=` in place", "turning_obbs", "rows",
          lambda D, o: fc.rotate(D["fast"], 0.01, (5.0, 5.0), out=D["fast"], workers=1).data,
          lambda D, o: nb_rotate_obbs(D["loop"], 0.01, 5.0, 5.0) or D["loop"],
          sets=(("uniform", False),)),
    Query("`rotate(PolygonArray)` of hexagons about a point, `out=` in place",
          "turning_hexagons", "rows",
          lambda D, o: fc.rotate(D["fast"], 0.01, (5.0, 5.0), out=D["fast"], workers=1).vertices,
          lambda D, o: nb_rotate_polygons(D["loop"], 0.01, 5.0, 5.0) or D["loop"],
          sets=(("uniform", False),)),
    Query("`rotate(PolygonArray)` of hexagons about their centroids, `out=` in place",
          "turning_hexagons", "rows",
          lambda D, o: fc.rotate(D["fast"], 0.01, out=D["fast"], workers=1).vertices,
          lambda D, o: nb_spin_polygons(D["loop"], 0.01) or D["loop"],
          sets=(("uniform", False),)),
]


def compare(q, D, fast, loop):
    """``(verdicts differing, max |difference|, hit share, detail)`` of the two answers."""
    if q.kind == "rows":  # turned shapes: the rows that differ in any bit
        fast, loop = fast.reshape(len(fast), -1), loop.reshape(len(loop), -1)
        bad = np.flatnonzero((fast != loop).any(axis=1))
        return int(bad.size), float(np.abs(fast - loop).max()), 0.0, {}
    if q.kind == "point":  # the closest point's feature: end a (0), interior (1), end b (2)
        (pf, tf), (pn, tn) = fast, loop
        vf, vn = np.digitize(tf, [0.0, 1.0], right=True), np.digitize(tn, [0.0, 1.0], right=True)
        diff = np.abs(pf - pn).max()
    elif q.kind == "bool":
        vf, vn, diff = fast, loop, None
    elif q.kind == "dist":
        vf, vn, diff = fast == 0.0, loop == 0.0, np.abs(fast - loop).max()
    else:
        vf, vn = np.isfinite(fast), np.isfinite(loop)
        both = vf & vn
        diff = np.abs(fast[both] - loop[both]).max() if both.any() else 0.0
    bad = np.flatnonzero(vf != vn)
    detail = {"fast_only": int(np.sum(vf[bad] > vn[bad])),
              "loop_only": int(np.sum(vf[bad] < vn[bad]))}
    if q.kind == "dist" and bad.size:  # the nonzero side's distance on those rows
        detail["other"] = float(np.maximum(fast[bad], loop[bad]).max())
    if q.exact is not None and bad.size:
        rows = np.random.default_rng(SEED).permutation(bad)[:EXACT_ROWS]
        truth = np.array([q.exact(D, i) for i in rows])
        detail["exact"] = (rows.size, int(np.sum(vf[rows] == truth)), int(np.sum(vn[rows] == truth)))
    return int(bad.size), diff, float(np.mean(vf)), detail


def best_median(calls, repeats, clock):
    """Per call: (best, median) seconds over the repeats, the calls taking turns."""
    times = [[] for _ in calls]
    for k in range(repeats):
        for j in (range(len(calls)) if k % 2 == 0 else reversed(range(len(calls)))):
            gc.disable()
            t0 = clock()
            calls[j]()
            times[j].append(clock() - t0)
            gc.enable()
    return [(min(ts), statistics.median(ts)) for ts in times]


def _own(answer, out):
    """The answer as arrays of its own (``out`` is reused by the timed calls)."""
    if answer is None or answer is out:
        return out.copy()
    return tuple(np.copy(a) for a in answer) if isinstance(answer, tuple) else np.copy(answer)


def run(queries, n, repeats, clock, log):
    rows, data = [], {}
    for q in queries:
        for name, half in q.sets:
            if (q.family, name) not in data:
                data = {k: v for k, v in data.items() if k[0] == q.family}  # free the last family
                data[q.family, name] = make_data(q.family, n, half)
            D = data[q.family, name]
            out = np.empty(n, dtype=bool if q.kind == "bool" else np.float64)
            out_l = np.empty_like(out)
            fast = _own(q.fast(D, out), out)
            loop = _own(q.loop(D, out_l), out_l)  # numba compiles here
            ndiff, diff, hits, detail = compare(q, D, fast, loop)
            del fast, loop
            (bf, mf), (bl, ml) = best_median([lambda: q.fast(D, out), lambda: q.loop(D, out_l)],
                                             repeats, clock)
            rows.append(dict(query=q.label, kind=q.kind, data=name, hits=hits,
                             fast=n / bf / 1e6, fast_med=n / mf / 1e6, loop=n / bl / 1e6,
                             loop_med=n / ml / 1e6, ndiff=ndiff, diff=diff, detail=detail))
            log(f"  {q.label}, {name}: fastcol {rows[-1]['fast']:.1f}, numba "
                f"{rows[-1]['loop']:.1f} M rows/s; {ndiff:,} verdicts differ")
    return rows


# --------------------------------------------------------------------------- report


def _rate(x):
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def table(rows, n):
    out = ["| query | data | fastcol M rows/s | numba M rows/s | fastcol/numba "
           "| verdicts differing | max \\|difference\\| |", "|---|---|--:|--:|--:|--:|--:|"]
    for r in rows:
        data = r["data"] if r["kind"] in ("point", "rows") else f"{r['data']}, {r['hits']:.0%} hit"
        diff = "—" if r["diff"] is None else f"{r['diff']:.1e}" if r["diff"] else "0"
        out.append(f"| {r['query']} | {data} | {_rate(r['fast'])} ({_rate(r['fast_med'])}) "
                   f"| {_rate(r['loop'])} ({_rate(r['loop_med'])}) | {r['fast'] / r['loop']:.2f} "
                   f"| {r['ndiff']:,} of {n:,} | {diff} |")
    return "\n".join(out)


# what each kind of difference is; shown for the queries where differences were found
EXPLAIN = {
    "circle": (
        "Circles and circle-AABB: neither side is exact. fastcol compares sqrt(d^2) with "
        "ra + rb (for the box: the distance to the centre clamped into the box, as the loop "
        "takes it), so that collide is exactly distance == 0.0; the loop compares "
        "d^2 with (ra + rb)^2. They disagree on pairs that touch to an ulp (those built with "
        "f = 1), where the square root leans to 'touching': it maps the doubles just above "
        "(ra + rb)^2 onto ra + rb. The distances differ in the last bits (the loop's "
        "sqrt(...) - ra - rb, fastcol's sqrt(...) - (ra + rb))."),
    "segment": (
        "Segments: fastcol decides crossing and touching by exact orientation signs and "
        "returns exactly 0.0 then. Ericson 5.1.9 places the closest points by the lines' "
        "parameters, an ulp or so apart for segments that cross, so its distance is rounding "
        "noise instead of 0.0 (largest for nearly parallel segments, where a e - b^2 "
        "cancels): its 0.0 is no crossing test. An end put on the other segment as "
        "a + u (b - a) (the built T-junctions) lies off it by an ulp: fastcol's exact sign "
        "says apart (a distance of about 1e-16), the loop often 0.0. No segment here is "
        "degenerate (a == b)."),
    "capsule": (
        "Capsules: the radii absorb the segments' rounding noise; only pairs within an ulp "
        "of touching could differ, and the distances differ by a few ulps."),
    "OBB": (
        "Circle-OBB: both sides round the box itself (cos and sin), so there is no exact "
        "referee: fastcol tests the circle against the four corners as it computes them, "
        "the loop clamps the centre in the rotated frame; circles built to touch go either "
        "way."),
    "hexagon": (
        "Hexagons: the twins built edge to edge touch to an ulp; fastcol decides each axis "
        "by exact orientation signs of the vertices against the edges as stored, the loop "
        "compares rounded projections, which tie or overlap by an ulp where exact "
        "arithmetic finds a gap (or the reverse)."),
    "ray-circle": (
        "Ray-circle: tangent rays (and origins within an ulp of the circle) are decided by "
        "rounding on both sides: fastcol compares |m x d| with r |d|, the loop takes the "
        "sign of b^2 - a c, which cancels. fastcol's half chord sqrt((r|d| - h)(r|d| + h)) "
        "keeps its digits for near-tangent rays, the loop's discriminant does not: the "
        "largest t differences are there; elsewhere t agrees to a few ulps."),
    "ray-AABB": (
        "Ray-AABB: for rays aimed at a corner (the direction corner - origin, rounded) the "
        "loop's two slab times tie and it reports a hit; fastcol decides by the exact side "
        "of the corner against the ray as given. Where both hit, t comes from the same "
        "division."),
}
EXPLAIN["rotate"] = (
    "Rotations: fastcol turns each point as q + ((p - q) c - ...), the loops the same "
    "way, so rows about a fixed point agree to the bit (fastcol also checks each row and "
    "writes NaN for a row that is no shape, which the loops do not). About the centroids "
    "the two differ in the last bits: fastcol's area centroid is the fan from the first "
    "vertex, taken relative to it (accurate far from the origin), the loop's the "
    "shoelace sums on the stored coordinates.")
EXPLAIN_KEY = {"rotate": "rotate", "circle-circle": "circle", "circle-AABB": "circle", "segment": "segment",
               "SegmentArray": "segment", "Capsule": "capsule", "OBB": "OBB",
               "hexagon": "hexagon", "of circles": "ray-circle", "of AABBs": "ray-AABB"}


def notes(rows):
    lines, kinds = [], []
    for r in rows:
        d = r["detail"]
        if r["ndiff"] or r["diff"]:
            kinds += [v for k, v in EXPLAIN_KEY.items() if k in r["query"] and v not in kinds]
        if not r["ndiff"] or r["kind"] == "rows":
            continue
        what = {"bool": "collide", "dist": "distance 0.0", "ray": "a hit", "point": "feature"}
        s = (f"{r['query']}, {r['data']}: {r['ndiff']:,} rows differ ({d['fast_only']:,} "
             f"{what[r['kind']]} for fastcol only, {d['loop_only']:,} for the loop only)")
        if "other" in d:
            s += f"; there the other side's distance is at most {d['other']:.1e}"
        if "exact" in d:
            k, f_ok, l_ok = d["exact"]
            s += (f"; exact arithmetic on {'all' if k == r['ndiff'] else f'{k:,}'} of them: "
                  f"fastcol right on {f_ok:,}, the loop on {l_ok:,}")
        lines.append(s + ".")
    lines += [EXPLAIN[k] for k in EXPLAIN if k in kinds]
    if not any(r["ndiff"] or r["diff"] for r in rows if r["kind"] == "point"):
        lines.append("Closest point on a segment: fastcol's kernel is Ericson 5.1.2 itself "
                     "(clamped before the division); the answers agree to the bit.")
    return lines


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            info = f.read().splitlines()
        cpu = next((ln.split(":", 1)[1].strip() for ln in info
                    if ln.lower().startswith(("model name", "hardware"))), cpu)
        # numba compiles for this CPU's widest vectors, fastcol's wheels for the
        # platform's baseline (x86-64: SSE2): the ratios depend on it
        flags = next((ln.split(":", 1)[1].split() for ln in info
                      if ln.lower().startswith("flags")), [])
        widest = next((v for v in ("avx512f", "avx2", "avx", "sse2") if v in flags), None)
        if widest:
            cpu += f", {widest.upper()}"
    except OSError:
        pass
    head = git_head()
    u = platform.uname()
    return (f"{u.system} {u.machine}, CPU {cpu} ({os.cpu_count()} cores); "
            f"{platform.python_implementation()} {platform.python_version()}, NumPy "
            f"{np.__version__}, numba {numba.__version__}, fastcol "
            f"{getattr(fc, '__version__', 'unknown')} (backend: {fc.backend}); "
            f"commit {head}, {time.strftime('%Y-%m-%d')}")


def _fill(text, **kw):
    """Wrapped at 88 columns, unless a wrapped line would start like a Markdown list item."""
    out = textwrap.fill(text, 88, **kw)
    if any(re.match(r"\s*([-+*]|\d+\.)\s", ln) for ln in out.splitlines()[1:]):
        return kw.get("initial_indent", "") + text
    return out


def write_docs(text):
    write_section(SECTION, text)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="fastcol's buffer API against textbook numba loops")
    p.add_argument("--quick", action="store_true", help=f"N={N_QUICK:,}, {REPEATS_QUICK} repeats")
    p.add_argument("--cpu-time", action="store_true", help="process CPU time, not wall time")
    p.add_argument("--write-docs", action="store_true",
                   help="write the result into docs/performance.md")
    p.add_argument("--only", metavar="TEXT", default="",
                   help="only the queries whose label contains TEXT (not with --write-docs)")
    args = p.parse_args(argv)
    if args.only and args.write_docs:
        p.error("--only measures part of the table: it cannot --write-docs")
    if numba is None:
        print('numba is missing: pip install "fastcol[bench]" (or pip install "numba>=0.59")')
        return 1
    n = N_QUICK if args.quick else N_FULL
    repeats = REPEATS_QUICK if args.quick else REPEATS_FULL
    clock = time.process_time if args.cpu_time else time.perf_counter

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    load0 = load()
    log(f"N={n:,}, {repeats} repeats; numba compiles each loop at its first call ...")
    rows = run([q for q in QUERIES if args.only in q.label], n, repeats, clock, log)
    load1 = load()
    env = f"PYTHONPATH={os.environ['PYTHONPATH']} " if os.environ.get("PYTHONPATH") else ""
    command = env + "python " + shlex.join(sys.argv if argv is None else [sys.argv[0], *argv])
    lead = (f"N = {n:,} rows, float64, one thread; M rows per second from the best of "
            f"{repeats} repeats (the median in brackets), "
            f"{'process CPU' if args.cpu_time else 'wall-clock'} time, the two sides taking "
            "turns; \"hit\": the share of rows that fastcol finds colliding, at distance 0.0, "
            "or hit by the ray.")
    cores = os.cpu_count() or 1
    if max(load0, load1) > 0.5 * cores:
        lead += (f" The machine was busy (load average {load0:.1f} before the run, "
                 f"{load1:.1f} after, on {cores} cores: another job shared them), so single "
                 "rates can move by up to 2x; the ratios, timed in turns, move less.")
    mach, text_table, lines = "Machine: " + machine() + ".", table(rows, n), notes(rows)
    print(f"{lead}\n\n{mach}\n\nCommand: {command}\n\n{text_table}\n\nHow the answers differ:")
    print("\n".join(f"- {ln}" for ln in lines))
    if args.write_docs:
        intro = ("fastcol's buffer API (one call per batch, `workers=1`) against the loop a "
                 "user writes with numba in ten minutes, on the same arrays, in one run "
                 "(issue 33; the script's docstring describes the loops and the data). "
                 "numba compiles each loop for the CPU it runs on (the machine line names "
                 "its widest vector unit), fastcol's wheels are built for the platform's "
                 "baseline (x86-64: SSE2): the ratios depend on the host, most for the "
                 "loops that vectorize. ")
        write_docs("\n".join(
            [SECTION, "", _fill(intro + lead), "", _fill(mach), "", "```bash", command, "```",
             "", text_table, "", "How the answers differ:", ""]
            + [_fill(ln, initial_indent="- ", subsequent_indent="  ") for ln in lines]) + "\n")
        log(f"wrote the section {SECTION!r} of {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
