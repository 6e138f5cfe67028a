"""``ShapeIndex``: scene queries against many shapes, written once over either backend.

This module holds what a user meets (the documentation, the argument checks, the
numbering of items across the indexed arrays, pickling) and hands the work to the
backend's ``index.Tree``: in the compiled backend a bounding-volume hierarchy
(``_ext/index.pyx``), in the reference a plain loop over every item (``_ref/index.py``),
the brute force that the hierarchy must equal.  ``bind`` makes the class of one backend.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import NamedTuple

import numpy as np

from . import _batch, _filters
from ._validate import as_direction, as_point, as_real, type_name

_ARRAYS_ERROR = (f"arrays must be a shape array ({_batch.ARRAY_NAMES}) or a list of them")


class IndexHitArray(NamedTuple):
    """The first hit of each ray among the items of a ``ShapeIndex`` (``raycast``).

    ``hit``, ``t``, ``point`` and ``normal`` are those of ``RayHitArray`` for the item
    hit first; ``item[i]`` is its item number (``-1`` where the ray hits nothing, with
    ``t = inf`` and zero point and normal).  Always float64.  Unpacks like a tuple:
    ``hit, t, point, normal, item = h``.

    Examples
    --------
    >>> import numpy as np, fastcol as fc
    >>> walls = fc.SegmentArray([[5, -5, 5, 5], [8, -5, 8, 5]])
    >>> h = fc.ShapeIndex(walls).raycast((0, 0), np.array([[1.0, 0.0], [-1.0, 0.0]]))
    >>> h.item, h.t
    (array([ 0, -1]), array([ 5., inf]))
    """

    hit: np.ndarray
    t: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    item: np.ndarray


class IndexCastArray(NamedTuple):
    """The first item each moving shape touches among those of a ``ShapeIndex`` (``cast``).

    ``hit``, ``t``, ``point`` and ``normal`` are those of ``CastHitArray`` for the item
    touched first (``normal`` from the moving shape towards the item); ``item[i]`` is
    its item number (``-1`` where the shape touches nothing, with ``t = inf`` and zero
    point and normal).  Always float64.  Unpacks like a tuple:
    ``hit, t, point, normal, item = h``.

    Examples
    --------
    >>> import numpy as np, fastcol as fc
    >>> walls = fc.SegmentArray([[5, -5, 5, 5], [8, -5, 8, 5]])
    >>> h = fc.ShapeIndex(walls).cast(fc.Circle(0, 0, 1), np.array([[1.0, 0.0], [-1.0, 0.0]]), max_t=10)
    >>> h.item, h.t
    (array([ 0, -1]), array([ 4., inf]))
    """

    hit: np.ndarray
    t: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    item: np.ndarray


class ShapeIndex:
    """A bounding-volume hierarchy over the rows of shape arrays, for scene queries.

    Parameters
    ----------
    arrays : shape array, or a sequence of shape arrays
        The items: the rows of ``arrays[0]`` are items ``0 .. len(arrays[0]) - 1``, the
        rows of ``arrays[1]`` come next, and so on (any mix of the six array types and
        of float64 and float32).  The index reads the rows when it is built and at
        each `refit` or `rebuild`: write to the arrays' data, then call `refit`, to
        move the items.
    workers : int, optional
        Threads for building, `refit`, `rebuild`, and the default of every query's
        ``workers`` (``-1``: every core).

    Notes
    -----
    Every answer equals the brute-force one: the scalar queries of the query shape (or
    ray) against every item.  Touching counts, as in ``collide``; a row that is no shape
    (NaN, a negative radius, ``min > max``) is never an item of an answer.  After
    writing to the arrays' data, `refit` (linear time, keeps the tree's shape) or
    `rebuild` (a new tree, better after large moves) must be called before the next
    query; adding or removing rows needs a new index (a query then raises ValueError).
    The queries release the GIL.  An index pickles with its arrays (unpickling builds
    the tree anew).

    Collision filters: the items' ``categories``, ``masks`` and ``groups`` (attributes
    of the indexed arrays) are read with their rows, at build, `refit` and `rebuild`
    (filters written later take effect at the next `refit`, as moved rows do).  Every
    query skips an item before its exact test unless ``categories[q] & masks[item]``
    and ``categories[item] & masks[q]`` are both non-zero, and skips it when
    ``groups[q] == groups[item] != 0``; ``q``'s filters are the query array's (`query`,
    `cast`, `nearest` of shapes) or the ``categories=``, ``masks=``, ``groups=`` given to
    `raycast` and to `nearest` of points or of one shape.  Without filters on either
    side nothing is skipped.

    Examples
    --------
    >>> import fastcol as fc
    >>> walls = fc.SegmentArray([[0, 0, 10, 0], [10, 0, 10, 10]])
    >>> crates = fc.AABBArray([[2, 2, 3, 3]])
    >>> idx = fc.ShapeIndex([walls, crates])        # items 0, 1 (walls) and 2 (the crate)
    >>> idx.query(fc.Circle(10, 5, 1))
    array([1])
    >>> idx.locate([2])
    (array([1]), array([0]))
    >>> idx.nearest((2.5, 5.0))
    (array([2]), array([2.]))

    Walls in category 1 and a crate in category 2; a ghost whose mask leaves out the
    walls sees only the crate:

    >>> walls.categories, crates.categories = 1, 2
    >>> idx.refit()                                 # filters are read at refit
    >>> ghosts = fc.CircleArray([[10, 5, 1], [2.5, 3.5, 1]], masks=2)
    >>> idx.query(ghosts)
    array([[1, 2]])
    >>> idx.nearest((10.0, 2.5), masks=2)
    (array([2]), array([7.]))
    """

    __slots__ = ("_arrays", "_lengths", "_offsets", "_workers", "_tree", "__weakref__")

    # set on the class of each backend by ``bind``
    _core = None
    _api = None
    _shape_type: type = object

    def __init__(self, arrays, workers=1):
        self._setup(arrays, workers)
        self._tree = self._core.Tree(self._arrays, self._workers)

    def _setup(self, arrays, workers):
        self._workers = _batch.check_workers(workers)
        if _batch.is_array(arrays):
            arrays = (arrays,)
        elif isinstance(arrays, (list, tuple)):
            arrays = tuple(arrays)
            for k, a in enumerate(arrays):
                if not _batch.is_array(a):
                    raise TypeError(f"arrays[{k}] must be a shape array "
                                    f"({_batch.ARRAY_NAMES}), not {type_name(a)}")
        else:
            raise TypeError(f"{_ARRAYS_ERROR}, not {type_name(arrays)}")
        self._arrays = arrays
        self._lengths = tuple(len(a) for a in arrays)
        self._offsets = np.cumsum((0,) + self._lengths, dtype=np.int64)

    # ----------------------------------------------------------------- the items

    def __len__(self):
        """The number of items (rows of every indexed array, shapes or not)."""
        return int(self._offsets[-1])

    @property
    def arrays(self):
        """The indexed shape arrays, in item order (a tuple)."""
        return self._arrays

    def __repr__(self):
        return f"<ShapeIndex of {len(self)} items in {len(self._arrays)} arrays>"

    def locate(self, items):
        """The array and row of each item number.

        Parameters
        ----------
        items : int or integer array_like of shape (M,)
            Item numbers, ``0 <= item < len(index)``.

        Returns
        -------
        (array_number, row) : two int64 arrays of shape (M,), or two ints
            ``arrays[array_number[m]][row[m]]`` is item ``items[m]``.

        Examples
        --------
        >>> import fastcol as fc
        >>> idx = fc.ShapeIndex([fc.CircleArray([[0, 0, 1]] * 3), fc.AABBArray([[0, 0, 1, 1]])])
        >>> idx.locate([0, 3])
        (array([0, 1]), array([0, 0]))
        >>> idx.locate(1)
        (0, 1)
        """
        arr = np.asarray(items)
        if arr.size == 0 and arr.ndim == 1:
            arr = arr.astype(np.int64)   # [] reads as float64
        if arr.dtype.kind not in "iu" or arr.ndim > 1:
            raise TypeError(f"items must be an integer or a 1-D integer array, not {type_name(items)}"
                            + (f" of {arr.dtype}" if isinstance(items, np.ndarray) else ""))
        bad = (arr < 0) | (arr >= len(self))
        if bad.any():
            first = int(np.asarray(arr).reshape(-1)[np.argmax(bad.reshape(-1))])
            raise ValueError(f"items must lie in 0..{len(self) - 1}, got {first}")
        flat = arr.astype(np.int64).reshape(-1)
        which = np.searchsorted(self._offsets, flat, side="right") - 1
        rows = flat - self._offsets[which]
        if arr.ndim == 0:
            return int(which[0]), int(rows[0])
        return which.astype(np.int64), rows

    # --------------------------------------------------------------- the queries

    def query(self, shapes, workers=None):
        """Every item that collides with each query shape.

        Parameters
        ----------
        shapes : shape or shape array
            Any shape of this backend, or a shape array of query shapes.
        workers : int, optional
            Threads to split the query shapes over (default: the index's).

        Returns
        -------
        int64 ndarray of shape (M, 2), or of shape (M,) for one shape
            The pairs ``(i, item)`` with ``collide(shapes[i], item)``, sorted; for one
            shape, the items it collides with, ascending.  Pairs that the collision
            filters of ``shapes`` and of the items rule out are left out (see the
            class's Notes); a single shape has no filter.

        Examples
        --------
        >>> import fastcol as fc
        >>> idx = fc.ShapeIndex(fc.CircleArray([[0, 0, 1], [3, 0, 1], [9, 0, 1]]))
        >>> idx.query(fc.AABBArray([[1, -1, 2, 1], [5, 5, 6, 6]]))   # touching counts
        array([[0, 0],
               [0, 1]])
        >>> idx.arrays[0].groups = [3, 0, 0]
        >>> idx.refit()                               # filters are read at refit
        >>> idx.query(fc.AABBArray([[1, -1, 2, 1]], groups=3))   # group 3 skips item 0
        array([[0, 1]])
        """
        nworkers = self._check(workers)
        if isinstance(shapes, self._shape_type):
            return self._tree.query(self._one_row(shapes), nworkers)[:, 1].copy()
        if not _batch.is_array(shapes):
            raise _batch.operand_error(shapes, "shapes")
        return self._tree.query(shapes, nworkers)

    def raycast(self, origins, directions, max_t=math.inf, workers=None, *,
                categories=None, masks=None, groups=None):
        """The first item each ray hits.

        Parameters
        ----------
        origins : (x, y) pair of finite floats, or an (N, 2) array
            Start of each ray (one point stands for every ray: a lidar's fan).
        directions : (x, y) pair of finite floats, not (0, 0), or an (N, 2) array
            Need not be unit: ``t`` is measured in units of the direction.
        max_t : float, default inf, or an (N,) array
            Longest ``t`` accepted (>= 0; inf allowed).
        workers : int, optional
            Threads to split the rays over (default: the index's).
        categories, masks, groups : int or (N,) array_like of integers, optional
            The rays' collision filters (keyword only; a number for every ray, or one a
            ray): a ray skips the items whose filters rule the pair out, as a shape
            array's ``categories``, ``masks`` and ``groups`` do (Box2D's ray casts take a
            query filter too).  None (default): all bits, group 0.

        Returns
        -------
        IndexHitArray
            ``(hit, t, point, normal, item)`` of the least ``t`` over every item, as
            ``raycast(item, origin, direction, max_t)`` gives it; two items hit at the
            same ``t``: the lower item number.  float64, one row per ray (one row when
            every argument is a single value).  A row that is no ray (not finite, a zero
            direction, a negative or NaN ``max_t``) hits nothing.

        Examples
        --------
        >>> import numpy as np, fastcol as fc
        >>> idx = fc.ShapeIndex([fc.CircleArray([[5, 0, 1]]), fc.SegmentArray([[3, -1, 3, 1]])])
        >>> h = idx.raycast((0, 0), np.array([[1.0, 0.0], [0.0, 1.0]]))
        >>> h.item, h.t, h.point[0]
        (array([ 1, -1]), array([ 3., inf]), array([3., 0.]))
        >>> idx.arrays[1].categories = 2              # the segment in category 2
        >>> idx.refit()
        >>> idx.raycast((0, 0), (1, 0), masks=1).item   # a ray that sees category 1 only
        array([0])
        """
        nworkers = self._check(workers)
        lengths, dtypes = [], []
        o = _batch._vector(origins, "origins", lengths, dtypes, as_point)
        d = _batch._vector(directions, "directions", lengths, dtypes, as_direction)
        t = _batch._limit(max_t, "max_t", lengths, dtypes)
        f = _filters.query_filters(categories, masks, groups, lengths)
        n = _batch._length(lengths) if lengths else 1
        filters = _filters.expand(f, n)
        if filters is None:
            return IndexHitArray(*self._tree.raycast(o, d, t, n, nworkers))
        return IndexHitArray(*self._tree.raycast(o, d, t, n, nworkers, filters))

    def cast(self, shapes, velocities, max_t=1.0, workers=None):
        """The first item each moving shape touches (the items static).

        Parameters
        ----------
        shapes : shape or shape array
            The moving shapes (a shape stands for every row).
        velocities : (x, y) pair or (N, 2) array_like of floats
            Each shape's displacement per unit of time.
        max_t : float or (N,) array_like, default 1.0
            Latest time accepted (>= 0; inf allowed).
        workers : int, optional
            Threads to split the shapes over (default: the index's).

        Returns
        -------
        IndexCastArray
            ``(hit, t, point, normal, item)`` of the least ``t`` over every item, as
            ``shape_cast(shape, velocity, item, (0, 0), max_t)`` gives it; two items
            touched at the same ``t``: the lower item number.  float64, one row per
            shape (one row when every argument is a single value).  A row that is no
            shape, a velocity that is not finite, or a negative or NaN ``max_t``
            touches nothing.  Items that the filters of ``shapes`` rule out are passed
            through (see the class's Notes); a single shape has no filter.

        Examples
        --------
        >>> import fastcol as fc
        >>> idx = fc.ShapeIndex([fc.AABBArray([[4, -1, 6, 1]]), fc.SegmentArray([[3, -5, 3, 5]])])
        >>> h = idx.cast(fc.CircleArray([[0, 0, 1], [0, 9, 1]]), (1, 0), max_t=10)
        >>> h.item, h.t, h.point[0], h.normal[0]
        (array([ 1, -1]), array([ 2., inf]), array([3., 0.]), array([1., 0.]))
        """
        nworkers = self._check(workers)
        lengths, dtypes = [], []
        if isinstance(shapes, self._shape_type):
            shapes = self._one_row(shapes)
        elif not _batch.is_array(shapes):
            raise _batch.operand_error(shapes, "shapes")
        else:
            lengths.append(("shapes", len(shapes)))
        v = _batch._vector(velocities, "velocities", lengths, dtypes, as_point)
        t = _batch._limit(max_t, "max_t", lengths, dtypes)
        n = _batch._length(lengths) if lengths else 1
        if len(shapes) != n:
            # one shape for every row of the velocities or limits
            shapes = shapes[np.zeros(n, dtype=np.int64)]
        return IndexCastArray(*self._tree.cast(shapes, v, t, nworkers))

    def nearest(self, shapes_or_points, k=1, max_distance=math.inf, workers=None, *,
                categories=None, masks=None, groups=None):
        """The ``k`` items nearest to each query shape or point.

        Parameters
        ----------
        shapes_or_points : shape, shape array, (x, y) point or (N, 2) array of points
            What to measure from; a point is a circle of radius 0.
        k : int, default 1
            How many items per query (>= 1).
        max_distance : float, default inf
            Items farther than this are left out (>= 0).
        workers : int, optional
            Threads to split the queries over (default: the index's).
        categories, masks, groups : int or (N,) array_like of integers, optional
            The collision filters of the points, or of one shape (keyword only; a number
            for every point, or one a point): items whose filters rule the pair out are
            not candidates (see the class's Notes).  A shape array brings its own
            filters (its attributes): giving these with one is a TypeError.

        Returns
        -------
        (item, distance) : int64 and float64 ndarrays of shape (N, k), or (k,) for one query
            Nearest first, as ``distance(query, item)`` gives it (0.0 for items that
            collide with it); equal distances in ascending item order.  Rows with fewer
            than ``k`` items within ``max_distance`` (or a query that is no shape) are
            padded with ``-1`` and ``inf``.

        Examples
        --------
        >>> import fastcol as fc
        >>> idx = fc.ShapeIndex(fc.CircleArray([[0, 0, 1], [5, 0, 1], [9, 0, 1]]))
        >>> idx.nearest((6.0, 0.0), k=2)
        (array([1, 2]), array([0., 2.]))
        >>> idx.nearest(fc.Circle(-5, 0, 1), k=2, max_distance=4)
        (array([ 0, -1]), array([ 3., inf]))
        >>> idx.arrays[0].groups = [1, 0, 1]
        >>> idx.refit()
        >>> idx.nearest((6.0, 0.0), k=2, groups=1)    # group 1 skips items 0 and 2
        (array([ 1, -1]), array([ 0., inf]))
        """
        nworkers = self._check(workers)
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
            raise TypeError(f"k must be an integer, not {type(k).__name__}")
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        limit = as_real(max_distance, "max_distance")
        if not limit >= 0.0:
            raise ValueError(f"max_distance must be >= 0 (inf allowed), got {limit!r}")
        x = shapes_or_points
        one = False
        given = (categories, masks, groups)
        if _batch.is_array(x) and any(v is not None for v in given):
            raise TypeError("categories, masks and groups are for points or one shape: a "
                            "shape array's filters are its attributes")
        if isinstance(x, self._shape_type):
            x, one = self._one_row(x), True
        elif isinstance(x, np.ndarray) and x.ndim == 2:
            x = self._points(_batch.as_float_array(x, 2, 2, "shapes_or_points"))
        elif isinstance(x, np.ndarray) and x.shape == (2,):
            x, one = self._points(np.array([as_point(x, "shapes_or_points")])), True
        elif not _batch.is_array(x):
            if isinstance(x, (list, tuple)) and len(x) == 2 and not any(
                    _batch.is_array(v) or isinstance(v, self._shape_type) for v in x):
                x, one = self._points(np.array([as_point(x, "shapes_or_points")])), True
            else:
                raise TypeError(
                    "shapes_or_points must be a shape, a shape array, a point (x, y) or "
                    f"an (N, 2) array of points, not {type_name(shapes_or_points)}")
        if any(v is not None for v in given):
            # the points' (or the shape's) filters, on the array that stands for them
            lengths = [] if one else [("shapes_or_points", len(x))]
            f = _filters.query_filters(categories, masks, groups, lengths)
            n = _batch._length(lengths) if lengths else 1
            if one and n != 1:
                raise ValueError(f"{lengths[0][0]} must be a number for one point or "
                                 f"shape, got shape ({n},)")
            x._categories, x._masks, x._groups = _filters.expand(f, n)
        items, dist = self._tree.nearest(x, int(k), limit, nworkers)
        return (items[0], dist[0]) if one else (items, dist)

    # ------------------------------------------------------------- moving items

    def refit(self, workers=None):
        """Update the boxes after the indexed arrays' data was written (items moved).

        Linear in the number of items; the tree keeps its shape, so queries slow down
        when items move far from where the tree was built (then `rebuild`).

        Examples
        --------
        >>> import fastcol as fc
        >>> balls = fc.CircleArray([[0, 0, 1], [5, 0, 1]])
        >>> idx = fc.ShapeIndex(balls)
        >>> balls.data[1] = [0, 0.5, 1]
        >>> idx.refit()
        >>> idx.query(fc.Circle(0, 1.0, 0.1))
        array([0, 1])
        """
        self._tree.refit(self._check(workers))

    def rebuild(self, workers=None):
        """Build a new tree over the indexed arrays' current data (as a new index would)."""
        self._tree.rebuild(self._check(workers))

    # ----------------------------------------------------------------- helpers

    def _check(self, workers):
        # the queries' threads, after checking that no indexed array changed length
        for k, (a, n) in enumerate(zip(self._arrays, self._lengths)):
            if len(a) != n:
                raise ValueError(
                    f"arrays[{k}] changed length from {n} to {len(a)} since the index "
                    f"was built: make a new ShapeIndex")
        return self._workers if workers is None else _batch.check_workers(workers)

    def _one_row(self, shape):
        # a single query shape as an array of one row of its kind
        return self._api._array_types[shape.kind]([shape])

    def _points(self, points):
        # points as circles of radius 0 (a NaN point is a row that is no shape)
        circles = np.zeros((len(points), 3), dtype=points.dtype)
        circles[:, :2] = points
        return self._api.CircleArray(circles)

    def __reduce__(self):
        # the arrays and workers: unpickling builds the tree anew over the arrays' data
        return _restore, (self._api.backend, self._arrays, self._workers)


def _restore(backend, arrays, workers):
    """A pickled index again (``ShapeIndex.__reduce__``)."""
    from ._api import load

    return load(backend).ShapeIndex(arrays, workers)


def bind(api, impl: ModuleType) -> type:
    """The ``ShapeIndex`` class over backend ``impl`` (``api`` is its public names)."""
    return type("ShapeIndex", (ShapeIndex,), {
        "__slots__": (), "__doc__": ShapeIndex.__doc__, "__module__": "fastcol",
        "_core": impl.index, "_api": api, "_shape_type": impl.shapes.SHAPE,
    })
