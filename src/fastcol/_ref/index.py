"""Scene queries by brute force: every query against every item, with the scalar queries.

The obviously-correct oracle of the compiled bounding-volume hierarchy
(``_ext/index.pyx``): ``fastcol.ShapeIndex`` documents the contract, and both backends
answer it with the same exact scalar kernels, so the hierarchy, which only skips items
whose boxes cannot meet the query, must give the same answers.  There is no tree here:
the items are read from the arrays at build, ``refit`` and ``rebuild`` (as the
compiled index copies them), and every query runs over all of them.  ``workers`` is
accepted and ignored (one thread).  The items' collision filters are read with the
rows; a query's (the query array's, or the rays' and points' ``filters``) are tested
against them before the exact test.
"""

from __future__ import annotations

import math

import numpy as np

from . import queries, sweeps
from .batch import _limits, _rows, _vectors
from .filters import passes, row_filters


class Tree:
    """The items of the indexed arrays, as the last build or refit read them."""

    def __init__(self, arrays, workers):
        self._arrays = arrays
        self.refit(workers)

    def refit(self, workers):
        # every item that is a shape, numbered, as a shape of this backend, with its
        # collision filter (category, mask, group)
        items, filters = [], []
        for a in self._arrays:
            items += _rows(a, len(a))
            filters += row_filters(a._filters(), len(a))
        self._shapes = [(j, s, filters[j]) for j, s in enumerate(items) if s is not None]

    def rebuild(self, workers):
        self.refit(workers)

    def query(self, shapes, workers):
        items = self._shapes
        qf = row_filters(shapes._filters(), len(shapes))
        pairs = [(i, j) for i, q in enumerate(_rows(shapes, len(shapes))) if q is not None
                 for j, s, f in items if passes(*qf[i], *f) and queries.collide(q, s)]
        return np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)

    def raycast(self, origins, directions, max_t, n, workers, filters=None):
        # filters: None, or the rays' (categories, masks, groups), n each
        items = self._shapes
        rf = row_filters(filters, n)
        hit = np.zeros(n, dtype=bool)
        t = np.full(n, math.inf)
        point = np.zeros((n, 2))
        normal = np.zeros((n, 2))
        item = np.full(n, -1, dtype=np.int64)
        rays = zip(_vectors(origins, n), _vectors(directions, n), _limits(max_t, n))
        for i, (p, v, limit) in enumerate(rays):
            if not (all(map(math.isfinite, p + v)) and v != (0.0, 0.0) and limit >= 0.0):
                continue
            for j, s, f in items:
                if not passes(*rf[i], *f):
                    continue
                h = sweeps.raycast(s, p, v, limit)
                # the least t; at equal t the lower item, met first
                if h is not None and h.t < t[i]:
                    hit[i], t[i], point[i], normal[i], item[i] = True, h.t, h.point, h.normal, j
        return hit, t, point, normal, item

    def cast(self, shapes, velocities, max_t, workers):
        items = self._shapes
        n = len(shapes)
        hit = np.zeros(n, dtype=bool)
        t = np.full(n, math.inf)
        point = np.zeros((n, 2))
        normal = np.zeros((n, 2))
        item = np.full(n, -1, dtype=np.int64)
        qf = row_filters(shapes._filters(), n)
        rows = zip(_rows(shapes, n), _vectors(velocities, n), _limits(max_t, n))
        for i, (q, v, limit) in enumerate(rows):
            if q is None or not all(map(math.isfinite, v)) or not limit >= 0.0:
                continue
            for j, s, f in items:
                if not passes(*qf[i], *f):
                    continue
                h = sweeps.shape_cast(q, v, s, (0.0, 0.0), limit)
                # the least t; at equal t the lower item, met first
                if h is not None and (item[i] < 0 or h.t < t[i]):
                    hit[i], t[i], point[i], normal[i], item[i] = True, h.t, h.point, h.normal, j
        return hit, t, point, normal, item

    def nearest(self, shapes, k, max_distance, workers):
        items = self._shapes
        rows = _rows(shapes, len(shapes))
        qf = row_filters(shapes._filters(), len(shapes))
        found = np.full((len(rows), k), -1, dtype=np.int64)
        dist = np.full((len(rows), k), math.inf)
        for i, q in enumerate(rows):
            if q is None:
                continue
            near = sorted((queries.distance(q, s), j) for j, s, f in items
                          if passes(*qf[i], *f))
            near = [(d, j) for d, j in near if d <= max_distance][:k]
            for m, (d, j) in enumerate(near):
                dist[i, m], found[i, m] = d, j
        return found, dist
