"""Shape arrays: many shapes of one kind as rows of a NumPy array (shared by both backends).

An array wraps a C-contiguous float64 or float32 array without copying it when it is
already suitable, so moving shapes is writing to ``.data`` (or ``.vertices``); other
input is converted into a new array once (``copy=False`` makes that an error).  The
kernels validate rows as they read them: arrays change every frame and cannot be
checked once, so a row holding NaN, a negative radius or ``min > max`` gives the
documented "no result" (False, NaN) rather than an error.

Each backend binds these classes to its own scalar shapes (``arr[i]`` is a scalar shape
of that backend) in its ``arrays`` module.
"""

from __future__ import annotations

import operator

import numpy as np

from . import _filters


_FLOAT_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


def as_float_array(value, ndim, width, name, *, dtype=None, copy=None, axes=None):
    """``value`` as a C-contiguous native float64/float32 array of the given layout.

    ``width`` is the size of the last axis (None: any); ``axes`` names the axes in
    messages (default ``N, ..., width``).  Integers, float16, non-native byte orders,
    strided and Fortran-ordered arrays are converted once (to float64; big-endian
    float32 stays float32); object, complex, boolean and non-numeric data are a
    TypeError naming ``name``; a wrong number of axes or last-axis size is a ValueError
    naming it.  ``copy`` as NumPy 2 means it: None copies only when a conversion needs
    it, True always copies, False never does (a ValueError when a conversion would be
    needed: a caller who writes to its own array must know it is the one wrapped).
    """
    try:
        arr = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of real numbers: {exc}") from None
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"{name} must hold real numbers, not {arr.dtype}")
    if arr.ndim != ndim or (width is not None and arr.shape[-1] != width):
        want = axes or ", ".join(["N"] * (ndim - 1) + [str(width) if width is not None else "K"])
        raise ValueError(f"{name} must have shape ({want}), got {arr.shape}")
    if arr.dtype not in _FLOAT_DTYPES:
        if arr.dtype.kind == "f" and arr.dtype.itemsize == 4:
            arr = arr.astype(np.float32)  # big-endian float32: same precision, native order
        else:
            arr = arr.astype(np.float64)
    arr = np.ascontiguousarray(arr)
    if copy is False and arr is not value:
        raise ValueError(
            f"{name} cannot be wrapped without a copy (copy=False): it must be a "
            f"C-contiguous float64 or float32 NumPy array"
        )
    if copy and arr is value:
        arr = arr.copy()
    return arr


def _shape_list(data, shape_type):
    """Whether ``data`` is a non-empty list or tuple of ``shape_type`` shapes (an array
    class builds from its shapes, as ``PolygonArray`` does)."""
    return (type(data) in (list, tuple) and len(data) > 0
            and all(isinstance(x, shape_type) for x in data))


def _index_array(index):
    """Whether ``index`` is a 1-D array of integers, which ``np.take`` gathers.

    ``np.take`` along the first axis gives what indexing gives (negative indices, an
    IndexError out of range) and costs less than fancy indexing: a game gathers the
    candidate rows of its broadphase this way every frame.
    """
    return type(index) is np.ndarray and index.ndim == 1 and index.dtype.kind in "iu"


def _row_index(index, n):
    """An integer index in range, or None when ``index`` selects several rows."""
    if isinstance(index, (bool, np.bool_)):
        raise TypeError("shape arrays are indexed by integers, slices or index arrays")
    try:
        i = operator.index(index)
    except TypeError:
        if isinstance(index, tuple):
            raise TypeError("shape arrays are indexed by one integer, slice or index array")
        return None
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of range for {n} shapes")
    return i + n if i < 0 else i


class _Filtered:
    """The collision filters of an array's rows: ``categories``, ``masks``, ``groups``.

    Each is None (the default: no filter, the kernels skip the test) or a C-contiguous
    array of one value per row.  Arrays made without ``__init__`` (by rotate, or
    pickled before filters existed) have none: the getters read a missing slot as None.
    """

    __slots__ = ("_categories", "_masks", "_groups")

    def _set_filters(self, categories, masks, groups):
        n = len(self)
        self._categories = _filters.as_filter(categories, "categories", n)
        self._masks = _filters.as_filter(masks, "masks", n)
        self._groups = _filters.as_filter(groups, "groups", n)

    @property
    def categories(self):
        """The category bits of each row, ``uint32[N]``, or None (no filter: all bits).

        Settable: a number sets every row, an ``(N,)`` array of integers one a row
        (converted once to uint32; a uint32 array is kept, so writing to it changes the
        filter); None removes it.  See `overlapping_pairs` for the rule.
        """
        return getattr(self, "_categories", None)

    @categories.setter
    def categories(self, value):
        self._categories = _filters.as_filter(value, "categories", len(self))

    @property
    def masks(self):
        """The bits of the categories each row is tested against, ``uint32[N]``, or None
        (no filter: all bits).  Settable as `categories`."""
        return getattr(self, "_masks", None)

    @masks.setter
    def masks(self, value):
        self._masks = _filters.as_filter(value, "masks", len(self))

    @property
    def groups(self):
        """The group of each row, ``int32[N]``, or None (no filter: group 0).  Rows of
        one non-zero group are never tested against each other.  Settable as
        `categories`."""
        return getattr(self, "_groups", None)

    @groups.setter
    def groups(self, value):
        self._groups = _filters.as_filter(value, "groups", len(self))

    def _filters(self):
        """``(categories, masks, groups)`` with defaults in place of None, or None when
        the array has no filter (what the kernels read)."""
        return _filters.rows(self.categories, self.masks, self.groups, len(self))

    def _take_filters(self, sub, index):
        # sub (a new array of rows of this one) gets those rows' filters
        for name in _filters.NAMES:
            f = getattr(self, name)
            if f is not None:
                f = np.take(f, index) if _index_array(index) else np.ascontiguousarray(f[index])
            setattr(sub, "_" + name, f)
        return sub

    def _filter_repr(self):
        return "".join(f", {name}={getattr(self, name)!r}" for name in _filters.NAMES
                       if getattr(self, name) is not None)


class ShapeArray(_Filtered):
    """Base of the arrays of circles, capsules, segments, AABBs and OBBs."""

    __slots__ = ("_data",)
    # set by each subclass / backend
    _width = 0
    _shape = None
    kind = -1

    def __init__(self, data, *, copy=None, categories=None, masks=None, groups=None):
        if _shape_list(data, self._shape):
            # a list of this backend's shapes: their fields as rows (a new array)
            data = [shape._values() for shape in data]
        self._data = as_float_array(data, 2, self._width, "data", copy=copy)
        self._set_filters(categories, masks, groups)

    @property
    def data(self):
        """The ``(N, width)`` array of rows, shared with the caller: writing moves shapes."""
        return self._data

    @property
    def dtype(self):
        """``float64`` or ``float32``."""
        return self._data.dtype

    def __len__(self):
        return self._data.shape[0]

    def __getitem__(self, index):
        if _index_array(index):
            # rows of a checked array: a new C-contiguous array of the same dtype and
            # width, so it needs no second check (a game gathers every frame)
            sub = type(self).__new__(type(self))
            sub._data = np.take(self._data, index, axis=0)
            return self._take_filters(sub, index)
        i = _row_index(index, len(self))
        if i is not None:
            return self._shape(*(float(v) for v in self._data[i]))
        return self._take_filters(type(self)(self._data[index]), index)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self):
        return f"{type(self).__name__}({self._data!r}{self._filter_repr()})"


class PolygonArray(_Filtered):
    """Base of the arrays of convex polygons (see the backends' ``PolygonArray``)."""

    __slots__ = ("_vertices", "_counts")
    _shape = None
    kind = 5

    def __init__(self, polygons, dtype=np.float64, *, categories=None, masks=None,
                 groups=None):
        dtype = np.dtype(dtype)
        if dtype not in _FLOAT_DTYPES:
            raise TypeError(f"dtype must be float64 or float32, not {dtype}")
        if isinstance(polygons, (str, bytes)) or not hasattr(polygons, "__iter__"):
            raise TypeError(
                f"polygons must be a sequence of Polygons or vertex lists, "
                f"not {type(polygons).__name__}"
            )
        rings = []
        for i, p in enumerate(polygons):
            if not isinstance(p, self._shape):
                if isinstance(p, (str, bytes)) or not hasattr(p, "__iter__"):
                    raise TypeError(
                        f"polygons[{i}] must be a Polygon or a vertex list, "
                        f"not {type(p).__name__}"
                    )
                p = self._shape(p)
            rings.append(p.vertices)
        k = max((len(r) for r in rings), default=3)
        vertices = np.zeros((len(rings), k, 2), dtype=dtype)
        counts = np.zeros(len(rings), dtype=np.int64)
        for i, ring in enumerate(rings):
            vertices[i, : len(ring)] = ring
            # padding repeats the last vertex: a reader that strays past the count
            # sees a degenerate edge, never garbage
            vertices[i, len(ring):] = ring[-1]
            counts[i] = len(ring)
        self._vertices = vertices
        self._counts = counts
        self._set_filters(categories, masks, groups)

    @classmethod
    def from_padded(cls, vertices, counts, *, copy=None, categories=None, masks=None,
                    groups=None):
        """Wrap padded vertices ``(N, K, 2)`` and vertex counts ``(N,)``.

        Without a copy when ``vertices`` is a C-contiguous float64 or float32 array and
        ``counts`` a C-contiguous int64 one; others are converted once, and
        ``copy=False`` makes that a ValueError instead (``copy`` as `CircleArray` takes
        it).  Each row's first ``counts[i]`` vertices must form a strictly convex
        counter-clockwise ring (as ``Polygon`` stores them; checked here, once).  Rows
        written later are the caller's responsibility: a row that is no longer convex
        gives results that are memory-safe but meaningless.  ``categories``,
        ``masks`` and ``groups`` are the rows' collision filters, as the constructor
        takes them.
        """
        self = cls.__new__(cls)
        self._vertices = as_float_array(vertices, 3, 2, "vertices", copy=copy, axes="N, K, 2")
        c = np.asarray(counts)
        if c.dtype.kind not in "iu":
            raise TypeError(f"counts must hold integers, not {c.dtype}")
        if c.shape != self._vertices.shape[:1]:
            raise ValueError(
                f"counts must have shape ({self._vertices.shape[0]},), got {c.shape}"
            )
        k = self._vertices.shape[1]
        if c.size and (c.min() < 3 or c.max() > k):
            raise ValueError(f"counts must lie between 3 and {k} (the padded size)")
        self._counts = np.ascontiguousarray(c, dtype=np.int64)
        if copy is False and self._counts is not counts:
            raise ValueError(
                "counts cannot be wrapped without a copy (copy=False): it must be a "
                "C-contiguous int64 NumPy array"
            )
        if copy and self._counts is counts:
            self._counts = self._counts.copy()
        _check_rings(self._vertices, self._counts)
        self._set_filters(categories, masks, groups)
        return self

    @classmethod
    def _as_data(cls, vertices, counts):
        """Padded rows wrapped as data, without ``from_padded``'s count and ring checks,
        as rows written after an array was made (``fastcol.dask``'s blocks: a check
        there would raise inside a worker).  A row with NaN or a count outside 3..K is
        no shape; the kernels never read past a row."""
        self = cls.__new__(cls)
        self._vertices = as_float_array(vertices, 3, 2, "vertices", axes="N, K, 2")
        self._counts = np.ascontiguousarray(counts, dtype=np.int64)
        self._set_filters(None, None, None)
        return self

    @property
    def vertices(self):
        """The ``(N, K, 2)`` padded vertices, shared with the caller: writing moves polygons."""
        return self._vertices

    @property
    def counts(self):
        """The number of vertices of each polygon, ``int64[N]``."""
        return self._counts

    @property
    def dtype(self):
        """``float64`` or ``float32``."""
        return self._vertices.dtype

    def __len__(self):
        return self._vertices.shape[0]

    def __getitem__(self, index):
        if _index_array(index):
            return self._take_filters(self._rows(np.take(self._vertices, index, axis=0),
                                                 np.take(self._counts, index)), index)
        i = _row_index(index, len(self))
        if i is not None:
            ring = self._vertices[i, : self._counts[i]]
            return self._shape([(float(x), float(y)) for x, y in ring])
        return self._take_filters(self._rows(np.ascontiguousarray(self._vertices[index]),
                                             np.ascontiguousarray(self._counts[index])), index)

    def _rows(self, vertices, counts):
        # a new array of rows taken from this one (already checked rings)
        sub = type(self).__new__(type(self))
        sub._vertices = vertices
        sub._counts = counts
        return sub

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self):
        return (f"{type(self).__name__}.from_padded({self._vertices!r}, {self._counts!r}"
                f"{self._filter_repr()})")


def _check_rings(vertices, counts):
    """ValueError naming the first row that is not a strictly convex CCW ring.

    Vectorised over the rows: every vertex turns strictly left (no repeated or
    collinear vertices, counter-clockwise), and the turns add up to one revolution (a
    pentagram turns left everywhere but winds twice).
    """
    n, k = vertices.shape[:2]
    if n == 0:
        return
    v = vertices.astype(np.float64)
    j = np.arange(k)
    count = counts[:, None]
    valid = j < count
    rows = np.arange(n)[:, None]
    a = v[rows, j % count]
    b = v[rows, (j + 1) % count]
    c = v[rows, (j + 2) % count]
    e1 = b - a
    e2 = c - b
    cross = e1[..., 0] * e2[..., 1] - e1[..., 1] * e2[..., 0]
    dot = e1[..., 0] * e2[..., 0] + e1[..., 1] * e2[..., 1]
    finite = np.isfinite(v).all(axis=2) | ~valid
    left = (cross > 0.0) | ~valid
    with np.errstate(invalid="ignore"):
        turning = np.where(valid, np.arctan2(cross, dot), 0.0).sum(axis=1)
    for name, bad, what in (
        ("finite", ~finite.all(axis=1), "must hold finite numbers"),
        ("left", ~left.all(axis=1),
         "must be a strictly convex counter-clockwise ring (no repeated or collinear vertices)"),
        ("once", turning > 3.0 * np.pi, "must wind once (it is a star)"),
    ):
        if bad.any():
            raise ValueError(f"vertices[{int(np.argmax(bad))}] {what}")


class CircleArray(ShapeArray):
    """Circles as rows ``(x, y, r)`` of an ``(N, 3)`` float64 or float32 array.

    Parameters
    ----------
    data : (N, 3) array_like, or a list of Circles
        Wrapped without a copy when it is already a C-contiguous float64 or float32
        array; anything else (integers, a strided or Fortran-ordered array, a list) is
        converted once into a new array.  Writing to ``.data`` moves the circles.  Rows
        are checked when a query reads them: a row holding NaN or a negative radius
        counts as no shape (``collide`` False, distances NaN).
    copy : bool or None, optional
        As in NumPy 2: None (default) copies only when converting, True always
        copies, False never does and raises ValueError when ``data`` would need a
        conversion (so a loop that writes to its own array knows it is the one wrapped).
    categories, masks : int or (N,) array_like of integers, optional
        Collision filters (keyword only; also settable attributes): the category bits
        of each row (``uint32``, 0 .. 2**32 - 1) and the categories it is tested
        against.  `overlapping_pairs` and every `ShapeIndex` query test rows ``i`` and
        ``j`` only when ``categories[i] & masks[j]`` and ``categories[j] & masks[i]``
        are both non-zero.  A number sets every row.  None (default): no filter (all
        bits), and the attribute reads None.
    groups : int or (N,) array_like of integers, optional
        ``int32``: rows of one non-zero group are never tested against each other (the
        parts of one ragdoll); 0 (as None, the default) is no group.

    Notes
    -----
    The filters are kept by indexing and slicing (``arr[rows]`` has those rows'
    filters), by pickling and copying; a scalar shape ``arr[i]`` has none.  They are
    not checked against the rows' data: a filtered-out pair is simply never tested.

    Examples
    --------
    >>> import numpy as np
    >>> import fastcol as fc
    >>> balls = fc.CircleArray(np.array([[0.0, 0.0, 1.0], [5.0, 0.0, 1.0]]))
    >>> len(balls), balls[1]
    (2, Circle(x=5.0, y=0.0, r=1.0))
    >>> fc.collide(fc.Circle(2, 0, 1), balls)     # touching counts
    array([ True, False])
    >>> fc.CircleArray([fc.Circle(0, 0, 1), fc.Circle(3, 0, 2)]).data
    array([[0., 0., 1.],
           [3., 0., 2.]])
    >>> balls.groups is None                      # no filter unless one is set
    True
    >>> balls.categories = [1, 2]
    >>> balls[::-1].categories
    array([2, 1], dtype=uint32)
    """

    __slots__ = ()
    _width = 3
    kind = 0


class CapsuleArray(ShapeArray):
    """Capsules as rows ``(ax, ay, bx, by, r)`` of an ``(N, 5)`` array.

    Parameters
    ----------
    data : (N, 5) array_like, or a list of Capsules
        As for `CircleArray`; a row with NaN or a negative radius counts as no shape.
    copy : bool or None, optional
        As for `CircleArray`.
    categories, masks, groups : int or (N,) array_like of integers, optional
        Collision filters (keyword only, settable attributes), as for `CircleArray`.

    Examples
    --------
    >>> import fastcol as fc
    >>> caps = fc.CapsuleArray([[0, 0, 4, 0, 1], [0, 5, 4, 5, 1]])
    >>> fc.distance(fc.Circle(2, 3, 1), caps)
    array([1., 0.])
    """

    __slots__ = ()
    _width = 5
    kind = 1


class SegmentArray(ShapeArray):
    """Segments as rows ``(ax, ay, bx, by)`` of an ``(N, 4)`` array.

    Parameters
    ----------
    data : (N, 4) array_like, or a list of Segments
        As for `CircleArray`; a row with NaN counts as no shape.
    copy : bool or None, optional
        As for `CircleArray`.
    categories, masks, groups : int or (N,) array_like of integers, optional
        Collision filters (keyword only, settable attributes), as for `CircleArray`.

    Examples
    --------
    >>> import fastcol as fc
    >>> walls = fc.SegmentArray([[0, 0, 10, 0], [10, 0, 10, 10]])
    >>> fc.collide(walls, fc.Circle(10, 5, 0.5))
    array([False,  True])
    """

    __slots__ = ()
    _width = 4
    kind = 2


class AABBArray(ShapeArray):
    """Axis-aligned boxes as rows ``(min_x, min_y, max_x, max_y)`` of an ``(N, 4)`` array.

    Parameters
    ----------
    data : (N, 4) array_like, or a list of AABBs
        As for `CircleArray`; a row with NaN or ``min > max`` counts as no shape.
    copy : bool or None, optional
        As for `CircleArray`.
    categories, masks, groups : int or (N,) array_like of integers, optional
        Collision filters (keyword only, settable attributes), as for `CircleArray`.

    Examples
    --------
    >>> import fastcol as fc
    >>> boxes = fc.AABBArray([[0, 0, 1, 1], [3, 0, 4, 1]])
    >>> fc.distance(boxes, fc.AABB(1.5, 0, 2, 1))
    array([0.5, 1. ])
    """

    __slots__ = ()
    _width = 4
    kind = 3


class OBBArray(ShapeArray):
    """Oriented boxes as rows ``(cx, cy, half_w, half_h, angle)`` of an ``(N, 5)`` array.

    Parameters
    ----------
    data : (N, 5) array_like, or a list of OBBs
        As for `CircleArray`; ``angle`` in radians, counter-clockwise; a row with NaN
        or a negative half extent counts as no shape.
    copy : bool or None, optional
        As for `CircleArray`.
    categories, masks, groups : int or (N,) array_like of integers, optional
        Collision filters (keyword only, settable attributes), as for `CircleArray`.

    Examples
    --------
    >>> import math
    >>> import fastcol as fc
    >>> boxes = fc.OBBArray([[0, 0, 1, 1, 0.0], [0, 0, 1, 1, math.pi / 4]])
    >>> fc.collide(boxes, fc.Circle(2.3, 0, 1))
    array([False,  True])
    """

    __slots__ = ()
    _width = 5
    kind = 4


PolygonArray.__doc__ = """Convex polygons as padded vertex rows.

    Parameters
    ----------
    polygons : sequence of Polygon or of vertex lists
        Each is normalised as ``Polygon`` does (counter-clockwise, repeated and
        collinear vertices dropped).
    dtype : float64 or float32
        Precision of the stored vertices.
    categories, masks, groups : int or (N,) array_like of integers, optional
        Collision filters (keyword only, settable attributes), as for `CircleArray`.

    Notes
    -----
    ``.vertices`` is ``(N, K, 2)``, padded to the largest polygon by repeating each
    polygon's last vertex, and ``.counts`` holds the number of vertices of each.
    ``PolygonArray.from_padded(vertices, counts)`` wraps arrays without copying (see
    its ``copy``).  A row holding NaN counts as no shape.

    Examples
    --------
    >>> import fastcol as fc
    >>> polys = fc.PolygonArray([[(0, 0), (2, 0), (1, 2)], [(5, 5), (6, 5), (6, 6), (5, 6)]])
    >>> polys.vertices.shape, polys.counts.tolist()
    ((2, 4, 2), [3, 4])
    >>> fc.collide(polys, fc.Circle(1, 1, 0.5))
    array([ True, False])
    """


def bind(module, circle, capsule, segment, aabb, obb, polygon):
    """The six array classes of a backend: subclasses whose items are its shapes."""
    bases = (CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray, PolygonArray)
    shapes = (circle, capsule, segment, aabb, obb, polygon)
    return tuple(
        type(base.__name__, (base,),
             {"__slots__": (), "__doc__": base.__doc__, "__module__": module, "_shape": shape})
        for base, shape in zip(bases, shapes)
    )
