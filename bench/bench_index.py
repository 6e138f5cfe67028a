"""Scene queries: ``fc.ShapeIndex`` against brute force, shapely's STRtree and scipy's
cKDTree, in one run (issue 34, criteria 2 and 3).

How to run (from the repository root)::

    python bench/bench_index.py                  # after pip install "fastcol[bench]"
    PYTHONPATH=src python bench/bench_index.py   # with an in-place build of src/fastcol

Options: ``--repeat N`` (default 5), ``--quick`` (a smoke run: every scene and batch a
tenth the size, the clustered scene in the same square with the same clusters; brute
force on 500 and 100 rays; 2 repeats; it cannot ``--write-docs``), ``--write-docs``
(write the result into the section "Scene index" of docs/performance.md, after the
Broadphase section, replacing it if present).  shapely (a test dependency) and scipy (the ``bench`` extra) are optional:
without them their rows are skipped with a note.

Every time is wall-clock milliseconds, the median of the repeats, of one call as a user
writes it, the garbage collector off, each side called once before timing; ratios are
within this one run.  ``workers=1`` (one thread) unless a column says ``workers=2``.
Making the inputs (NumPy rows, and shapely geometries from the same numbers) is not
timed: each library is handed its own input ready-made.

The scenes.  *Mixed*: N items in five arrays, in this item order: a ``CircleArray``
(radius 0.05-0.5), a ``SegmentArray`` (length 0.1-1), an ``AABBArray`` (sides 0.1-1), an
``OBBArray`` (half extents 0.05-0.5, any angle), 22.5% of N each, and a ``PolygonArray``
(10%: regular 3- to 6-gons, circumradius 0.05-0.5, any rotation).  Positions are uniform
in a square of side ``2 sqrt(N)`` (one item per 4 square units: the density, and so the
work per query, does not change with N).  *Exact*: the same without circles (segments,
AABBs and OBBs 30% of N each, polygons 10%), the shapes that shapely represents exactly,
for the comparison with STRtree.  *Balls*: N circles of one radius, 0.25, in the same
square.  Rays start uniformly in the square with uniform unit directions; query AABBs
are placed like the scene's AABBs; query points are uniform in the square.
*Clustered* (table 5 only): the mixed scene's five arrays (the same kinds, sizes and
shares) with N - N/500 items, each placed around one of 50 cluster centres (uniform in
a square of side 2000; the cluster picked uniformly) with a Gaussian offset of that
cluster's standard deviation (log-uniform in 2-60 units), then a sixth array, a
``SegmentArray`` of N/500 segments across the square (200 at N = 100,000; from a
uniform point of one side to a uniform point of the opposite side, half of them left to
right, half bottom to top).  Its rays, query AABBs (lower corner) and query points are
placed by the same clusters, the directions uniform.  Seeded
(``numpy.random.default_rng``).

Tables and columns:

1. **Build.**  ``build``: ``fc.ShapeIndex(arrays)`` of the mixed scene (``workers=1``);
   ``ns per item``: build divided by N; ``build, workers=2``:
   ``fc.ShapeIndex(arrays, workers=2)``; ``w=1 / w=2``: their ratio.

2. **Raycast**, ``idx.raycast(origins, directions, max_t)`` of R = 100,000 rays in one
   call, against the mixed scene of 10,000 and 100,000 items, ``max_t = inf`` and
   ``max_t = 20`` (a sensor's range).  ``hit``: the share of rays that hit an item.
   ``index``: that call; ``index workers=2``: the same call with ``workers=2``;
   ``w=1 / w=2``: their ratio (target 1.7x).  ``brute force``: for each ray, one
   ``fc.raycast(array, origin, direction, max_t)`` per indexed array (fastcol's compiled
   one-ray-many-shapes call: one row per item), then the least ``t`` over the items (at
   equal ``t`` the lower item, ``np.argmin`` over the ``t`` in item order) and its point
   and normal.  Brute force is far too slow for all R rays: it is timed on the first S of
   them (S = 2,000 rays at 10,000 items, 200 at 100,000; the table says S) and scaled
   to R rays (time * R / S); ``brute / index``: that over ``index``.  On those S rays the
   index's answers (hit, t, item, point, normal) must equal brute force's exactly, every
   run, or the script stops with the first ray that differs.

3. **Query**, ``idx.query(boxes)`` with 100,000 query AABBs (``AABBArray``, sides 0.1-1)
   against the exact scene of 100,000 items -> every (query, item) pair that collides,
   against ``shapely.STRtree(geoms).query(boxes, predicate="intersects")`` on the same
   numbers: items as ``shapely.box`` (AABBs), two-point LineStrings (segments) and
   Polygons from the vertices (polygons) and from the four corners of each OBB,
   ``(cx, cy) +- half_w (cos a, sin a) +- half_h (-sin a, cos a)`` in float64, and the
   query AABBs as ``shapely.box``.  ``build``: ``fc.ShapeIndex(items)`` / ``STRtree(geoms)``
   (shapely 2 builds the tree in the constructor; should a GEOS build it lazily, the
   query whose answers are compared runs first, untimed, so ``query`` never holds a
   build).  ``query``: the query on that built tree; ``build + query``: a new tree and
   the query in one timing.  ``x fastcol``: the other's time over fastcol's, for query alone
   and for build + query (targets 5x and 5x).  ``pairs``: how many each reports; the
   note under the table counts the pairs reported by one side only.  fastcol computes an
   OBB's corners from its angle in each pair's local frame, shapely gets them rounded
   once in world coordinates, so a pair whose shapes touch to within rounding may go
   either way (never at random positions in practice); any pair that differs and is not
   that (an item other than an OBB, or both libraries' distances above 1e-12 of the
   scene's side) stops the script.

4. **Nearest**, ``idx.nearest(points)`` (k = 1; 100,000 ``(N, 2)`` points) against the balls
   scene of 100,000 circles, against ``STRtree.query_nearest(points, all_matches=False)``
   on the circles' centres as shapely Points and against
   ``scipy.spatial.cKDTree(centres).query(points, k=1)``.  shapely has no exact circle (a
   buffered point is a polygon), so its tree holds the centres: with one radius for every
   circle the nearest centre is the nearest circle, so all three answer the same
   question (for circles of unequal radius a tree of centres answers a different one).
   This is the fairer comparison than giving STRtree exact AABBs or segments: the
   centre trees do the cheapest leaf test there is (a point-point distance) where fastcol
   measures point to circle, so the ratio compares the trees; GEOS's point-polygon
   distance would charge shapely for its general geometry code, not its tree.  Columns
   as in the query table (cKDTree's build is ``cKDTree(centres)``; the checked query of
   each tree runs first, untimed).  The answers are checked:
   the items must agree, except for points inside two or more circles (all at distance
   0: fastcol gives the lowest item, the centre trees the nearest centre), and fastcol's
   distance must equal ``max(|p - centre| - r, 0)`` to 1e-12 of the scene's side.

5. **Split rule**, the index's internal switch ``fastcol._ext.index.set_split(name)``
   (later builds use it): ``"morton"``, the default (the items sorted by the Morton
   code of their centres, each node split where its codes' highest differing bit
   changes), ``"sah"`` (the binned surface area heuristic) and ``"median"`` (the
   median centre along the wider axis); "morton" is restored at the end, whatever
   happens.  Two tables, each of 100,000 items: the mixed scene (uniform) and the
   clustered scene.  One row per rule: ``build`` as in table 1 (``fc.ShapeIndex(arrays)``);
   ``raycast`` and ``raycast, max_t=20`` as in table 2 (100,000 rays in one call);
   ``query`` 100,000 AABBs as in table 3 (``idx.query(boxes)``); ``nearest`` 100,000
   points as in table 4 (``idx.nearest(points)``, k = 1); all ``workers=1``, each on
   the scene's own rays, boxes and points.  ``sah / morton`` and ``median / morton``:
   each column's time over the morton row's (above 1: morton faster).  The three trees'
   answers (every field of both raycasts, the query pairs, nearest's items and
   distances) must be identical, or the script stops.  The verdict names, per scene,
   the rule with the least geometric mean of the four query timings (build left out),
   and gives the build-time ratios.

6. **Refit and rebuild** on the mixed scene of 100,000 and 1,000,000 items: before each
   repeat every item moves by its own offset (uniform in +-0.05 on each axis, the sign
   flipping each repeat) written into the arrays' data (circles, OBBs: the centre;
   segments, AABBs: both ends/corners; polygons: ``.vertices``), untimed; ``refit``:
   ``idx.refit()``; ``rebuild``: ``idx.rebuild()`` with the default split rule (morton);
   ``rebuild / refit`` (target 5x); ``rebuild, sah``: ``idx.rebuild()`` under
   ``set_split("sah")`` (then morton again); ``rebuild sah / refit``.  The target is a
   ratio to the build, so it depends on how fast the build is: a refit's time does not
   depend on the split rule, a rebuild's does (the morton build is the faster), so the
   same refit can meet the target against an SAH rebuild and miss it against a morton
   one; the notes say by how much.

BLAS thread pools are held at one thread (they spin after NumPy's import).
"""

from __future__ import annotations

import argparse
import gc
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

import fastcol as fc  # noqa: E402

try:
    import shapely
except ImportError:  # optional: a test dependency
    shapely = None
try:
    import scipy
    from scipy.spatial import cKDTree
except ImportError:  # optional: the bench extra
    scipy = cKDTree = None
try:
    from fastcol._ext import index as _ext_index
    set_split = _ext_index.set_split
except (ImportError, AttributeError):  # the reference backend has no tree to split
    set_split = None

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "performance.md"
SECTION = "## Scene index: `bench/bench_index.py`"
AFTER = "## Broadphase: `bench/bench_broadphase.py`"
SEED = 34
SPACING = 2.0      # the scenes' side is SPACING * sqrt(N): one item per 4 square units
BALL_R = 0.25      # the balls scene's one radius
SENSOR = 20.0      # the second raycast row's max_t
MOVE = 0.05        # refit: each item moves by up to this much on each axis
CLUSTER_SIDE = 2000.0   # the clustered scene's square
CLUSTERS = 50           # its Gaussian clusters
SPREAD = (2.0, 60.0)    # their standard deviations, log-uniform in this range
LONG_PER = 500          # one long segment across the square per this many items
RULES = ("morton", "sah", "median")  # set_split's rules, the default first

FULL = dict(build=(10_000, 100_000, 1_000_000), ray_items=(10_000, 100_000), rays=100_000,
            sample={10_000: 2_000, 100_000: 200}, query=100_000, nearest=100_000,
            split=100_000, refit=(100_000, 1_000_000), repeat=5)
QUICK = dict(build=(1_000, 10_000, 100_000), ray_items=(1_000, 10_000), rays=10_000,
             sample={1_000: 500, 10_000: 100}, query=10_000, nearest=10_000,
             split=10_000, refit=(10_000, 100_000), repeat=2)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def timed(fn, repeat, setup=None):
    """Median milliseconds of ``fn()`` over the repeats (``setup()`` untimed before each);
    what ``fn`` returns is dropped after the clock stops."""
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        gc.disable()
        try:
            t0 = time.perf_counter()
            out = fn()
            times.append(time.perf_counter() - t0)
        finally:
            gc.enable()
        del out
    return statistics.median(times) * 1e3


# ----------------------------------------------------------------------------- scenes


def side_of(n):
    return SPACING * math.sqrt(n)


def _parts(n, kinds):
    """Rows per array: 10% polygons, the rest split equally over ``kinds`` arrays."""
    npoly = n // 10
    base, extra = divmod(n - npoly, kinds)
    return [base + (1 if k < extra else 0) for k in range(kinds)] + [npoly]


def uniform(side):
    """Positions uniform in the square ``[0, side]^2``: ``where(rng, m)`` -> ``(m, 2)``."""
    return lambda rng, m: rng.uniform(0, side, (m, 2))


def _aabbs(rng, m, where):
    lo = where(rng, m)
    return np.column_stack([lo, lo + rng.uniform(0.1, 1.0, (m, 2))])


def scene(n, seed, circles=True, where=None):
    """The mixed scene (``circles=False``: the exact one), as a list of shape arrays;
    ``where`` places the items (default: uniform in the square of side ``side_of(n)``)."""
    rng = np.random.default_rng(seed)
    where = where or uniform(side_of(n))
    parts = _parts(n, 4 if circles else 3)
    arrays = []
    if circles:
        m = parts.pop(0)
        arrays.append(fc.CircleArray(np.column_stack(
            [where(rng, m), rng.uniform(0.05, 0.5, m)])))
    m = parts[0]
    a = where(rng, m)
    ang = rng.uniform(0, 2 * math.pi, m)
    length = rng.uniform(0.1, 1.0, (m, 1))
    arrays.append(fc.SegmentArray(np.column_stack(
        [a, a + length * np.column_stack([np.cos(ang), np.sin(ang)])])))
    arrays.append(fc.AABBArray(_aabbs(rng, parts[1], where)))
    m = parts[2]
    arrays.append(fc.OBBArray(np.column_stack(
        [where(rng, m), rng.uniform(0.05, 0.5, (m, 2)),
         rng.uniform(0, math.pi, m)])))
    m = parts[3]
    k = rng.integers(3, 7, m)
    phi = rng.uniform(0, 2 * math.pi, (m, 1)) + 2 * math.pi * np.minimum(
        np.arange(6), k[:, None] - 1) / k[:, None]       # padding repeats the last vertex
    radius = rng.uniform(0.05, 0.5, (m, 1, 1))
    verts = where(rng, m)[:, None, :] + radius * np.stack([np.cos(phi), np.sin(phi)], 2)
    arrays.append(fc.PolygonArray.from_padded(verts, k.astype(np.int64)))
    return arrays


def clusters(seed):
    """``where`` for the clustered scene: each position picks one of ``CLUSTERS``
    centres (uniform in the square of side ``CLUSTER_SIDE``, drawn once from ``seed``)
    and adds a Gaussian offset of that cluster's standard deviation (log-uniform in
    ``SPREAD``)."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(0, CLUSTER_SIDE, (CLUSTERS, 2))
    spreads = np.exp(rng.uniform(math.log(SPREAD[0]), math.log(SPREAD[1]), CLUSTERS))

    def where(rng, m):
        k = rng.integers(0, CLUSTERS, m)
        return centres[k] + spreads[k, None] * rng.standard_normal((m, 2))
    return where


def clustered(n, seed, where):
    """The clustered scene: the mixed scene's five arrays with ``n - n // LONG_PER``
    items placed by ``where``, then a ``SegmentArray`` of ``n // LONG_PER`` segments
    across the square (from one side to the opposite one, half of them left to right)."""
    m = n // LONG_PER
    arrays = scene(n - m, seed, where=where)
    rng = np.random.default_rng(seed + 1)
    a, b = rng.uniform(0, CLUSTER_SIDE, (2, m))
    zero, full = np.zeros(m), np.full(m, CLUSTER_SIDE)
    across = rng.random(m) < 0.5
    arrays.append(fc.SegmentArray(np.where(
        across[:, None], np.column_stack([zero, a, full, b]),
        np.column_stack([a, zero, b, full]))))
    return arrays


def rays(n, side, seed, where=None):
    rng = np.random.default_rng(seed)
    ang = rng.uniform(0, 2 * math.pi, n)
    return (where or uniform(side))(rng, n), np.column_stack([np.cos(ang), np.sin(ang)])


def query_boxes(n, side, seed, where=None):
    return fc.AABBArray(_aabbs(np.random.default_rng(seed), n, where or uniform(side)))


def points(n, side, seed, where=None):
    return (where or uniform(side))(np.random.default_rng(seed), n)


def balls(n, seed):
    rng = np.random.default_rng(seed)
    return fc.CircleArray(np.column_stack(
        [rng.uniform(0, side_of(n), (n, 2)), np.full(n, BALL_R)]))


def obb_corners(d):
    """``(N, 4, 2)`` corners, counter-clockwise, of OBB rows ``(cx, cy, hw, hh, angle)``."""
    c, s = np.cos(d[:, 4]), np.sin(d[:, 4])
    u = np.column_stack([d[:, 2] * c, d[:, 2] * s])     # half_w along the box's x axis
    v = np.column_stack([-d[:, 3] * s, d[:, 3] * c])    # half_h along its y axis
    ctr = d[:, :2]
    return np.stack([ctr - u - v, ctr + u - v, ctr + u + v, ctr - u + v], axis=1)


def to_shapely(arrays):
    """The items as shapely geometries, in item order (no circles: shapely has none)."""
    out = []
    for a in arrays:
        if isinstance(a, fc.SegmentArray):
            out.append(shapely.linestrings(a.data.reshape(-1, 2, 2)))
        elif isinstance(a, fc.AABBArray):
            out.append(shapely.box(*a.data.T))
        elif isinstance(a, fc.OBBArray):
            out.append(shapely.polygons(obb_corners(a.data)))
        elif isinstance(a, fc.PolygonArray):
            geoms = np.empty(len(a), dtype=object)
            for k in np.unique(a.counts):
                rows = np.flatnonzero(a.counts == k)
                geoms[rows] = shapely.polygons(a.vertices[rows, :k])
            out.append(geoms)
        else:
            raise TypeError(f"shapely has no exact {type(a).__name__}")
    return np.concatenate(out)


def item_shape(idx, item):
    k, row = idx.locate(int(item))
    return idx.arrays[k][row]


# ---------------------------------------------------------------------- 1. build


def bench_build(cfg, repeat):
    rows = []
    for n in cfg["build"]:
        log(f"build: {n:,} items")
        arrays = scene(n, SEED + n)
        fc.ShapeIndex(arrays)
        w1 = timed(lambda: fc.ShapeIndex(arrays), repeat)
        w2 = timed(lambda: fc.ShapeIndex(arrays, workers=2), repeat)
        rows.append(dict(n=n, w1=w1, w2=w2))
    return rows


# -------------------------------------------------------------------- 2. raycast


def brute_raycast(arrays, origins, directions, max_t):
    """The first hit of each ray: one ``fc.raycast`` per array per ray, the least t."""
    n = len(origins)
    offsets = np.cumsum([0] + [len(a) for a in arrays])
    item = np.full(n, -1, dtype=np.int64)
    t = np.full(n, math.inf)
    point = np.zeros((n, 2))
    normal = np.zeros((n, 2))
    for i in range(n):
        res = [fc.raycast(a, origins[i], directions[i], max_t) for a in arrays]
        ts = np.concatenate([r.t for r in res])
        j = int(np.argmin(ts))                  # the first of equal t: the lower item
        if ts[j] < math.inf:
            k = int(np.searchsorted(offsets, j, side="right")) - 1
            item[i], t[i] = j, ts[j]
            point[i] = res[k].point[j - offsets[k]]
            normal[i] = res[k].normal[j - offsets[k]]
    return item, t, point, normal


def check_raycast(h, brute, origins, directions, max_t, what):
    item, t, point, normal = brute
    s = len(item)
    same = ((h.item[:s] == item) & (h.hit[:s] == (item >= 0)) & (h.t[:s] == t)
            & (h.point[:s] == point).all(1) & (h.normal[:s] == normal).all(1))
    if not same.all():
        i = int(np.flatnonzero(~same)[0])
        raise RuntimeError(
            f"raycast, {what}: the index differs from brute force on {int((~same).sum())} of "
            f"{s} rays; first: ray {i}, origin {origins[i].tolist()}, direction "
            f"{directions[i].tolist()}, max_t {max_t}: index item {h.item[i]} t {h.t[i]!r} "
            f"point {h.point[i].tolist()} normal {h.normal[i].tolist()}; brute force item "
            f"{item[i]} t {t[i]!r} point {point[i].tolist()} normal {normal[i].tolist()}")


def bench_raycast(cfg, repeat):
    rows = []
    nrays = cfg["rays"]
    for n in cfg["ray_items"]:
        arrays = scene(n, SEED + n)
        idx = fc.ShapeIndex(arrays)
        origins, directions = rays(nrays, side_of(n), SEED + 1)
        s = cfg["sample"][n]
        for max_t in (math.inf, SENSOR):
            what = f"{n:,} items, max_t={max_t}"
            log(f"raycast: {what}")
            h = idx.raycast(origins, directions, max_t)
            idx.raycast(origins, directions, max_t, workers=2)
            brute = brute_raycast(arrays, origins[:s], directions[:s], max_t)
            check_raycast(h, brute, origins, directions, max_t, what)
            w1 = timed(lambda: idx.raycast(origins, directions, max_t), repeat)
            w2 = timed(lambda: idx.raycast(origins, directions, max_t, workers=2), repeat)
            bf = timed(lambda: brute_raycast(arrays, origins[:s], directions[:s], max_t),
                       repeat) * nrays / s
            rows.append(dict(n=n, max_t=max_t, hit=float(h.hit.mean()), w1=w1, w2=w2,
                             brute=bf, sample=s))
    return rows


# ---------------------------------------------------------------------- 3. query


def bench_query(cfg, repeat):
    n = cfg["query"]
    log(f"query: {n:,} AABBs against {n:,} items")
    arrays = scene(n, SEED + 3, circles=False)
    side = side_of(n)
    boxes = query_boxes(n, side, SEED + 4)
    idx = fc.ShapeIndex(arrays)
    pairs = idx.query(boxes)
    r = dict(n=n, pairs=len(pairs))
    r["build"] = timed(lambda: fc.ShapeIndex(arrays), repeat)
    r["query"] = timed(lambda: idx.query(boxes), repeat)
    r["both"] = timed(lambda: (lambda i: (i, i.query(boxes)))(fc.ShapeIndex(arrays)), repeat)
    if shapely is None:
        return r
    geoms = to_shapely(arrays)
    qgeoms = shapely.box(*boxes.data.T)
    tree = shapely.STRtree(geoms)
    got = tree.query(qgeoms, predicate="intersects")
    r["s_build"] = timed(lambda: shapely.STRtree(geoms), repeat)
    r["s_query"] = timed(lambda: tree.query(qgeoms, predicate="intersects"), repeat)
    r["s_both"] = timed(lambda: (lambda t: (t, t.query(qgeoms, predicate="intersects")))(
        shapely.STRtree(geoms)), repeat)
    r["s_pairs"] = got.shape[1]
    code_f = pairs[:, 0] * len(idx) + pairs[:, 1]
    code_s = got[0].astype(np.int64) * len(idx) + got[1]
    only_f = np.setdiff1d(code_f, code_s)
    only_s = np.setdiff1d(code_s, code_f)
    r["only_f"], r["only_s"] = len(only_f), len(only_s)
    # a differing pair must be an OBB touching its query box to within rounding
    tol = 1e-12 * side
    worst = 0.0
    for code in np.concatenate([only_f, only_s])[:2000]:
        i, item = divmod(int(code), len(idx))
        q, it = boxes[i], item_shape(idx, item)
        d_f = fc.distance(q, it)
        d_s = float(shapely.distance(qgeoms[i], geoms[item]))
        worst = max(worst, min(d_f, d_s))
        if type(it).__name__ != "OBB" or min(d_f, d_s) > tol:
            raise RuntimeError(
                f"query: fastcol and shapely differ on query box {i} {q!r} and item {item} "
                f"{it!r} (shapely {geoms[item].wkt}): fastcol collide "
                f"{fc.collide(q, it)}, distance {d_f!r}; shapely intersects "
                f"{bool(shapely.intersects(qgeoms[i], geoms[item]))}, distance {d_s!r}")
    r["worst"] = worst
    return r


# -------------------------------------------------------------------- 4. nearest


def bench_nearest(cfg, repeat):
    n = cfg["nearest"]
    log(f"nearest: {n:,} points against {n:,} circles")
    circles = balls(n, SEED + 5)
    side = side_of(n)
    centres = np.ascontiguousarray(circles.data[:, :2])
    pts = points(n, side, SEED + 6)
    idx = fc.ShapeIndex(circles)
    items, dist = idx.nearest(pts)
    items, dist = items[:, 0], dist[:, 0]
    r = dict(n=n)
    r["build"] = timed(lambda: fc.ShapeIndex(circles), repeat)
    r["query"] = timed(lambda: idx.nearest(pts), repeat)
    r["both"] = timed(lambda: (lambda i: (i, i.nearest(pts)))(fc.ShapeIndex(circles)), repeat)
    # the answers: fastcol's distance is max(|p - centre| - r, 0) of its item, and the
    # items agree except where the point lies in two or more circles (all at 0)
    d_own = np.maximum(np.hypot(*(pts - centres[items]).T) - BALL_R, 0.0)
    if not np.all(np.abs(dist - d_own) <= 1e-12 * side):
        raise RuntimeError("nearest: a distance is not that of its circle")

    def agree(other, name):
        other = np.asarray(other, dtype=np.int64)
        inside = np.hypot(*(pts - centres[other]).T) <= BALL_R
        ok = (other == items) | ((dist == 0.0) & inside)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise RuntimeError(
                f"nearest: fastcol and {name} differ on point {i} {pts[i].tolist()}: fastcol "
                f"item {items[i]} at {dist[i]!r}, {name} item {other[i]} (centre "
                f"{centres[other[i]].tolist()}, radius {BALL_R})")
        return int(np.sum(other != items))

    if shapely is not None:
        sp, sq = shapely.points(centres), shapely.points(pts)
        tree = shapely.STRtree(sp)
        got = tree.query_nearest(sq, all_matches=False)
        if got.shape[1] != n:
            raise RuntimeError(f"nearest: STRtree.query_nearest gave {got.shape[1]} answers "
                               f"for {n} points")
        r["s_differ"] = agree(got[1][np.argsort(got[0], kind="stable")], "STRtree")
        r["s_build"] = timed(lambda: shapely.STRtree(sp), repeat)
        r["s_query"] = timed(lambda: tree.query_nearest(sq, all_matches=False), repeat)
        r["s_both"] = timed(lambda: (lambda t: (t, t.query_nearest(sq, all_matches=False)))(
            shapely.STRtree(sp)), repeat)
    if cKDTree is not None:
        kd = cKDTree(centres)
        r["k_differ"] = agree(kd.query(pts, k=1)[1], "cKDTree")
        r["k_build"] = timed(lambda: cKDTree(centres), repeat)
        r["k_query"] = timed(lambda: kd.query(pts, k=1), repeat)
        r["k_both"] = timed(lambda: (lambda t: (t, t.query(pts, k=1)))(cKDTree(centres)),
                            repeat)
    r["zero"] = int(np.sum(dist == 0.0))
    return r


# ---------------------------------------------------------------- 5. split rule


def _split_scene(name, arrays, origins, directions, boxes, pts, repeat):
    """One scene under each rule of ``RULES``: the timings, and the answers checked
    equal to the first rule's (morton)."""
    rows, answers = [], []
    for mode in RULES:
        log(f"split rule: {mode}, {name} scene, {sum(map(len, arrays)):,} items")
        set_split(mode)
        idx = fc.ShapeIndex(arrays)
        answers.append((idx.raycast(origins, directions), idx.raycast(origins, directions,
                        SENSOR), idx.query(boxes), idx.nearest(pts)))
        rows.append(dict(
            mode=mode,
            build=timed(lambda: fc.ShapeIndex(arrays), repeat),
            ray=timed(lambda: idx.raycast(origins, directions), repeat),
            ray20=timed(lambda: idx.raycast(origins, directions, SENSOR), repeat),
            query=timed(lambda: idx.query(boxes), repeat),
            nearest=timed(lambda: idx.nearest(pts), repeat)))
    ray, ray20, pairs, near = answers[0]
    for mode, (b_ray, b_ray20, b_pairs, b_near) in zip(RULES[1:], answers[1:]):
        for what, x, y in (("raycast", ray, b_ray), (f"raycast max_t={SENSOR:g}", ray20, b_ray20),
                           ("query", (pairs,), (b_pairs,)), ("nearest", near, b_near)):
            if not all(np.array_equal(u, v) for u, v in zip(x, y)):
                raise RuntimeError(f"split rule, {name} scene: the {RULES[0]} and {mode} "
                                   f"trees' {what} answers differ")
    return dict(scene=name, rows=rows, pairs=len(pairs), hit=float(ray.hit.mean()),
                hit20=float(ray20.hit.mean()))


def bench_split(cfg, repeat):
    """Table 5: the uniform mixed scene and the clustered one under each split rule;
    the default, morton, is restored whatever happens."""
    n, nrays = cfg["split"], cfg["rays"]
    side = side_of(n)
    try:
        out = [_split_scene("uniform", scene(n, SEED + n), *rays(nrays, side, SEED + 1),
                            query_boxes(n, side, SEED + 4), points(n, side, SEED + 6), repeat)]
        where = clusters(SEED + 8)
        out.append(_split_scene(
            "clustered", clustered(n, SEED + 9, where),
            *rays(nrays, CLUSTER_SIDE, SEED + 11, where),
            query_boxes(n, CLUSTER_SIDE, SEED + 12, where),
            points(n, CLUSTER_SIDE, SEED + 13, where), repeat))
    finally:
        set_split("morton")
    return out


# ------------------------------------------------------------ 6. refit, rebuild


def bench_refit(cfg, repeat):
    rows = []
    for n in cfg["refit"]:
        log(f"refit and rebuild: {n:,} items")
        arrays = scene(n, SEED + n)
        rng = np.random.default_rng(SEED + 7)
        offsets = [rng.uniform(-MOVE, MOVE, (len(a), 2)) for a in arrays]
        sign = [1.0]

        def move():
            sign[0] = -sign[0]
            for a, d in zip(arrays, offsets):
                d = sign[0] * d
                if isinstance(a, (fc.CircleArray, fc.OBBArray)):
                    a.data[:, :2] += d
                elif isinstance(a, fc.PolygonArray):
                    a.vertices[...] += d[:, None, :]
                else:  # segments, AABBs: both ends, both corners
                    a.data[:, :2] += d
                    a.data[:, 2:4] += d

        idx = fc.ShapeIndex(arrays)
        idx.refit()
        row = dict(n=n, refit=timed(idx.refit, repeat, setup=move),
                   rebuild=timed(idx.rebuild, repeat, setup=move), sah=None)
        if set_split is not None:   # the same rebuild under the SAH rule
            try:
                set_split("sah")
                idx.rebuild()
                row["sah"] = timed(idx.rebuild, repeat, setup=move)
            finally:
                set_split("morton")
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- report


def ms(x):
    return "n/a" if x is None else f"{x:,.0f}" if x >= 100 else f"{x:.1f}" if x >= 1 else f"{x:.2f}"


def ratio(a, b):
    return "n/a" if a is None or b is None else f"{a / b:.1f}x" if a / b >= 10 else f"{a / b:.2f}x"


def met(a, b, target):
    """The ratio a / b against its target."""
    return f"{ratio(a, b)} (target {target:g}x: {'met' if a / b >= target else 'NOT met'})"


def tables(R, nrays):
    out = []
    t = ["| items | build (ms) | ns per item | build, workers=2 (ms) | w=1 / w=2 |",
         "|--:|--:|--:|--:|--:|"]
    for r in R["build"]:
        t.append(f"| {r['n']:,} | {ms(r['w1'])} | {r['w1'] * 1e6 / r['n']:.0f} | "
                 f"{ms(r['w2'])} | {ratio(r['w1'], r['w2'])} |")
    out.append(("Build: `fc.ShapeIndex(arrays)` of the mixed scene.", t))

    t = [f"| items | max_t | rays hit | index (ms) | index, workers=2 (ms) | w=1 / w=2 "
         f"| brute force (ms, per {nrays:,} rays) | brute / index |",
         "|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in R["raycast"]:
        t.append(f"| {r['n']:,} | {r['max_t']:g} | {r['hit']:.1%} | {ms(r['w1'])} | "
                 f"{ms(r['w2'])} | {ratio(r['w1'], r['w2'])} | {ms(r['brute'])} "
                 f"(from {r['sample']:,} rays) | {ratio(r['brute'], r['w1'])} |")
    out.append((f"Raycast: {nrays:,} rays in one call against the mixed scene; brute force "
                "is timed on the first of them (the count after \"from\") and scaled to all; "
                "on those rays its answers equal the index's.", t))

    q = R["query"]
    t = ["| | pairs | build (ms) | query (ms) | build + query (ms) | query, x fastcol "
         "| build + query, x fastcol |", "|---|--:|--:|--:|--:|--:|--:|"]
    t.append(f"| fastcol `ShapeIndex.query` | {q['pairs']:,} | {ms(q['build'])} | "
             f"{ms(q['query'])} | {ms(q['both'])} | 1x | 1x |")
    if "s_query" in q:
        t.append(f"| shapely `STRtree.query(predicate=\"intersects\")` | {q['s_pairs']:,} | "
                 f"{ms(q['s_build'])} | {ms(q['s_query'])} | {ms(q['s_both'])} | "
                 f"{ratio(q['s_query'], q['query'])} | {ratio(q['s_both'], q['both'])} |")
    out.append((f"Query: {q['n']:,} AABBs against the exact scene of {q['n']:,} items "
                "(segments, AABBs, OBBs, polygons).", t))

    nr = R["nearest"]
    t = ["| | build (ms) | query (ms) | build + query (ms) | query, x fastcol "
         "| build + query, x fastcol |", "|---|--:|--:|--:|--:|--:|"]
    t.append(f"| fastcol `ShapeIndex.nearest` (circles) | {ms(nr['build'])} | "
             f"{ms(nr['query'])} | {ms(nr['both'])} | 1x | 1x |")
    for key, name in (("s", "shapely `STRtree.query_nearest` (centres)"),
                      ("k", "scipy `cKDTree.query` (centres)")):
        if f"{key}_query" in nr:
            t.append(f"| {name} | {ms(nr[key + '_build'])} | {ms(nr[key + '_query'])} | "
                     f"{ms(nr[key + '_both'])} | {ratio(nr[key + '_query'], nr['query'])} | "
                     f"{ratio(nr[key + '_both'], nr['both'])} |")
    out.append((f"Nearest (k = 1): {nr['n']:,} points against {nr['n']:,} circles of radius "
                f"{BALL_R:g}.", t))

    for sc in R.get("split") or ():
        t = ["| split | build (ms) | raycast (ms) | raycast, max_t=20 (ms) | query (ms) "
             "| nearest (ms) |", "|---|--:|--:|--:|--:|--:|"]
        base = sc["rows"][0]
        for r in sc["rows"]:
            t.append(f"| {r['mode']} | {ms(r['build'])} | {ms(r['ray'])} | {ms(r['ray20'])} | "
                     f"{ms(r['query'])} | {ms(r['nearest'])} |")
        for r in sc["rows"][1:]:
            t.append(f"| {r['mode']} / {base['mode']} | " + " | ".join(
                ratio(r[k], base[k]) for k in ("build", "ray", "ray20", "query", "nearest"))
                + " |")
        n = R["split_n"]
        if sc["scene"] == "uniform":
            what = (f"the mixed scene of {n:,} items (uniform; {nrays:,} rays, {n:,} query "
                    f"AABBs, {n:,} points)")
        else:
            what = (f"the clustered scene of {n:,} items ({CLUSTERS} Gaussian clusters and "
                    f"{n // LONG_PER:,} segments across a square of side {CLUSTER_SIDE:g}; "
                    f"{nrays:,} rays, {n:,} query AABBs, {n:,} points from the same clusters)")
        out.append((f"Split rule, {what}.", t))

    t = ["| items | refit (ms) | rebuild (ms) | rebuild / refit | rebuild, sah (ms) "
         "| rebuild sah / refit |", "|--:|--:|--:|--:|--:|--:|"]
    for r in R["refit"]:
        t.append(f"| {r['n']:,} | {ms(r['refit'])} | {ms(r['rebuild'])} | "
                 f"{ratio(r['rebuild'], r['refit'])} | {ms(r['sah'])} | "
                 f"{ratio(r['sah'], r['refit'])} |")
    out.append(("Refit and rebuild after every item of the mixed scene moved a little "
                "(`rebuild`: the default split rule, morton; `rebuild, sah`: the same under "
                "the SAH rule).", t))
    return out


def notes(R):
    lines = []
    q, nr = R["query"], R["nearest"]
    if "s_query" in q:
        differ = q["only_f"] + q["only_s"]
        s = (f"Query: fastcol reports {q['pairs']:,} pairs, shapely {q['s_pairs']:,}; "
             f"{differ:,} differ ({q['only_f']:,} fastcol only, {q['only_s']:,} shapely only).")
        if differ:
            s += (f" Each is an OBB item touching its query box to within rounding (the "
                  f"smaller of the two libraries' distances at most {q['worst']:.1e}): "
                  "fastcol computes an OBB's corners from its angle in each pair's own frame, "
                  "shapely was given them rounded once, in world coordinates.")
        else:
            s += (" (A pair could differ only where an OBB touches its query box to within "
                  "rounding: fastcol computes an OBB's corners from its angle in each pair's "
                  "own frame, shapely was given them rounded once; random positions make "
                  "that rare.)")
        lines.append(s)
    else:
        lines.append("Query: the shapely row is skipped: shapely is not installed.")
    s = (f"Nearest: the trees of centres answer the same question because every circle has "
         f"radius {BALL_R:g} (for unequal radii the nearest centre need not be the nearest "
         f"circle); {nr['zero']:,} points lie inside a circle (distance 0).")
    for key, name in (("s", "STRtree"), ("k", "cKDTree")):
        if f"{key}_differ" in nr:
            s += (f" {name}'s items equal fastcol's on all but {nr[key + '_differ']:,} "
                  "points, each inside two or more circles (all at distance 0: fastcol gives "
                  "the lowest item, a tree of centres the nearest centre).")
    missing = [n for n, m in (("shapely", shapely), ("scipy", cKDTree)) if m is None]
    if missing:
        s += f" Skipped: {' and '.join(missing)} (not installed)."
    lines.append(s)
    if R.get("split"):
        u, c = R["split"]
        lines.append(
            f"Split rule: the {len(RULES)} trees' answers are identical on both scenes "
            f"(checked every run). Uniform scene: {u['pairs']:,} query pairs, rays hit "
            f"{u['hit']:.1%} (max_t={SENSOR:g}: {u['hit20']:.1%}); clustered scene: "
            f"{c['pairs']:,} query pairs, rays hit {c['hit']:.1%} "
            f"(max_t={SENSOR:g}: {c['hit20']:.1%}).")
    else:
        lines.append("Split rule: skipped (the compiled backend's `set_split` is unavailable).")
    rf = R["refit"]
    if all(r["sah"] is not None for r in rf):
        def both(key, over):
            return " and ".join(ratio(r[key], r[over]) for r in rf)
        lines.append(
            "Refit: its target (a refit at least 5x faster than a rebuild, issue 34) depends "
            "on how fast the build is: a refit's time does not depend on the split rule, a "
            "rebuild's does. At " + " and ".join(f"{r['n']:,}" for r in rf) + " items the "
            f"default (morton) rebuild takes {both('rebuild', 'refit')} a refit's time; an "
            f"SAH rebuild, {both('sah', 'rebuild')} the morton one's, takes "
            f"{both('sah', 'refit')}.")
    return lines


def verdict(R):
    ray = next((r for r in R["raycast"] if r["n"] == max(x["n"] for x in R["raycast"])
                and r["max_t"] == math.inf), None)
    parts = [f"raycast `workers=2` {met(ray['w1'], ray['w2'], 1.7)} at {ray['n']:,} items"]
    q, nr = R["query"], R["nearest"]
    if "s_query" in q:
        parts.append(f"query against STRtree {met(q['s_query'], q['query'], 5)} without the "
                     f"builds, {met(q['s_both'], q['both'], 5)} with them")
    if "s_query" in nr:
        parts.append(f"nearest against `STRtree.query_nearest` "
                     f"{met(nr['s_query'], nr['query'], 3)} (with the builds: "
                     f"{ratio(nr['s_both'], nr['both'])})")
    parts.append("refit against rebuild " + ", ".join(
        f"{met(r['rebuild'], r['refit'], 5)} at {r['n']:,} items" for r in R["refit"]))
    first = "Targets (issue 34): " + "; ".join(parts) + "."
    if not R.get("split"):
        return [first]
    keys = ("ray", "ray20", "query", "nearest")
    default = RULES[0]
    parts, tops, quickest = [], set(), set()
    for sc in R["split"]:
        rows = {r["mode"]: r for r in sc["rows"]}
        gm = {m: math.exp(statistics.fmean(math.log(r[k]) for k in keys))
              for m, r in rows.items()}
        top = min(gm, key=gm.get)
        tops.add(top)
        quickest.add(min(rows, key=lambda m: rows[m]["build"]))
        others = [m for m in rows if m != default]
        parts.append(
            f"on the {sc['scene']} scene {top} answers fastest (over {default}'s: "
            + ", ".join(f"{m} {gm[m] / gm[default]:.2f}x" for m in others)
            + f"; build time over {default}'s: " + ", ".join(
                f"{m} {ratio(rows[m]['build'], rows[default]['build'])}" for m in others)
            + ")")
    second = (f"Split rule (the default is {default}), by the geometric mean of the four "
              f"query timings (raycast, raycast max_t={SENSOR:g}, query, nearest): "
              + "; ".join(parts) + ".")
    if tops == quickest == {default}:
        second += f" The default, {default}, is the fastest to build and to answer on both."
    return [first, second]


def machine():
    cpu = cpu_model()
    head = git_head()
    u = platform.uname()
    libs = ", ".join(f"{name} {m.__version__ if m else 'missing'}"
                     for name, m in (("shapely", shapely), ("scipy", scipy)))
    return (f"{u.system} {u.machine}, CPU {cpu} ({os.cpu_count()} cores); "
            f"{platform.python_implementation()} {platform.python_version()}, NumPy "
            f"{np.__version__}, {libs}, fastcol {getattr(fc, '__version__', 'unknown')} "
            f"(backend: {fc.backend}); commit {head}, {time.strftime('%Y-%m-%d')}")


def write_docs(text):
    write_section(SECTION, text, AFTER)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="a smoke run: a tenth the sizes, 2 repeats")
    p.add_argument("--repeat", type=int, default=None, help="repeats (default 5; quick 2)")
    p.add_argument("--write-docs", action="store_true",
                   help="write the result into docs/performance.md")
    args = p.parse_args(argv)
    if args.quick and args.write_docs:
        p.error("--quick is a smoke run: it cannot --write-docs")
    cfg = QUICK if args.quick else FULL
    repeat = args.repeat or cfg["repeat"]
    if repeat < 1:
        p.error("--repeat must be at least 1")
    if fc.backend != "compiled":
        log("warning: the compiled backend is not in use (the reference is a brute-force "
            "loop: this takes very long)")
    load0, t0 = load(), time.perf_counter()
    R = {"build": bench_build(cfg, repeat), "raycast": bench_raycast(cfg, repeat),
         "query": bench_query(cfg, repeat), "nearest": bench_nearest(cfg, repeat),
         "split_n": cfg["split"]}
    if set_split is not None:
        R["split"] = bench_split(cfg, repeat)
    R["refit"] = bench_refit(cfg, repeat)
    load1, took = load(), time.perf_counter() - t0
    log(f"took {took:.0f} s")

    env = f"PYTHONPATH={os.environ['PYTHONPATH']} " if os.environ.get("PYTHONPATH") else ""
    command = env + "python " + shlex.join(sys.argv if argv is None else [sys.argv[0], *argv])
    lead = (f"Milliseconds, median of {repeat} repeat{'s' if repeat > 1 else ''}, wall-clock "
            "time, one thread unless a "
            "column says `workers=2`; ratios within this one run.")
    cores = os.cpu_count() or 1
    if max(load0, load1) > 0.5 * cores:
        lead += (f" The machine was busy (load average {load0:.1f} before the run, "
                 f"{load1:.1f} after, on {cores} cores: another job shared them), so single "
                 "times can move by up to 2x.")
    mach = "Machine: " + machine() + "."
    blocks = tables(R, cfg["rays"])
    body = []
    for title, t in blocks:
        body += [title, "", *t, ""]
    lines, verdicts = notes(R), verdict(R)
    print(f"{lead}\n\n{mach}\n\nCommand: {command}\n")
    print("\n".join(body))
    print("\n".join(f"- {ln}" for ln in lines))
    print("\nVerdict:\n" + "\n".join(f"- {ln}" for ln in verdicts))
    if args.write_docs:
        intro = ("`fc.ShapeIndex` (a bounding-volume hierarchy over the rows of mixed shape "
                 "arrays) against brute force with fastcol's own array `raycast`, shapely's "
                 "`STRtree` and scipy's `cKDTree`, in one run (issue 34, criteria 2 and 3; "
                 "the script's docstring says what each column measures and how the "
                 "scenes are drawn). ")

        def fill(text, **kw):
            return textwrap.fill(text, 88, break_on_hyphens=False, **kw)

        doc_body = []
        for title, t in blocks:
            doc_body += [fill(title), "", *t, ""]
        write_docs("\n".join(
            [SECTION, "", fill(intro + lead), "", fill(mach), "", "```bash", command, "```",
             "", *doc_body]
            + [fill(ln, initial_indent="- ", subsequent_indent="  ") for ln in lines]
            + ["", "Verdict:", ""]
            + [fill(ln, initial_indent="- ", subsequent_indent="  ") for ln in verdicts])
            + "\n")
        log(f"wrote the section {SECTION!r} of {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
