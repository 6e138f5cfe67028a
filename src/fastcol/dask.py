"""fastcol over Dask: the element-wise queries and ``overlapping_pairs`` on ``dask.array``s.

Needs the ``dask`` extra (``pip install "fastcol[dask]"``).  Shapes are rows of a dask
array chunked along rows only (axis 0), with the shape type named by ``kind``:

=========== ============================================================
``kind``    rows
=========== ============================================================
"circle"    ``(N, 3)``: x, y, r
"capsule"   ``(N, 5)``: ax, ay, bx, by, r
"segment"   ``(N, 4)``: ax, ay, bx, by
"aabb"      ``(N, 4)``: min_x, min_y, max_x, max_y
"obb"       ``(N, 5)``: cx, cy, half_w, half_h, angle
"polygon"   a pair ``(vertices, counts)``: ``(N, K, 2)`` padded vertices and
            ``(N,)`` integer counts, as ``PolygonArray.from_padded`` takes them
=========== ============================================================

Every block is one call of the in-memory fastcol function on that block's rows, with
``workers=1``: the kernels release the GIL, so the threaded scheduler runs blocks in
parallel, and the distributed one spreads them over processes and machines.  Results
equal the in-memory call on the computed arrays, bit for bit; they keep its precision
(float32 rows give float32 results) and its record types (a ``ContactArray`` of dask
arrays).  Argument errors (an unknown kind, a wrong row width or dtype, chunks along
columns, operands of different lengths) are TypeError/ValueError naming the argument,
raised when the graph is built, never inside a worker.

``backend=None`` (every function takes it) runs the backend of the single shape given
as an operand, if any, else the one ``import fastcol`` selected, on each worker;
``"compiled"`` or ``"reference"`` (or the API object the tests bind,
``fastcol._api.load(name)``) names one, and a single shape given as an operand must
then be one of that backend's shapes.

Examples
--------
>>> import dask.array as da
>>> import fastcol as fc
>>> import fastcol.dask as fcd
>>> balls = da.from_array([[0.0, 0, 1], [2, 0, 1], [9, 9, 1], [0.5, 0, 1]], chunks=(2, -1))
>>> fcd.collide(balls, fc.Circle(0, 0, 1), kind="circle").compute()
array([ True,  True, False,  True])
>>> fcd.overlapping_pairs(balls, kind="circle").compute()
array([[0, 1],
       [0, 3],
       [1, 3]])
"""

from __future__ import annotations

import math
from typing import Any

import dask
import dask.array as da
import numpy as np

from . import _api
from ._tiles import _aligned, _grid, _merge, _route, _sample, _tile

__all__ = [
    "KINDS",
    "collide",
    "distance",
    "closest_points",
    "contact",
    "raycast",
    "time_of_impact",
    "shape_cast",
    "point_query",
    "contains",
    "mass_properties",
    "closest_point_on_segment",
    "closest_point_on_line",
    "point_segment_distance",
    "segment_segment_closest",
    "segment_segment_distance",
    "segments_intersect",
    "orient2d",
    "overlapping_pairs",
]

# kind -> (array class name, row width); polygons are (vertices, counts) pairs
KINDS = {
    "circle": ("CircleArray", 3),
    "capsule": ("CapsuleArray", 5),
    "segment": ("SegmentArray", 4),
    "aabb": ("AABBArray", 4),
    "obb": ("OBBArray", 5),
    "polygon": ("PolygonArray", None),
}


# ------------------------------------------------------------------ arguments


def _backend_name(backend) -> str:
    """``"compiled"`` or ``"reference"``: the name a worker loads (picklable)."""
    if backend is None:
        import fastcol

        return fastcol.backend
    if isinstance(backend, _api.API):
        return backend.backend
    if isinstance(backend, str) and backend in _api.BACKENDS:
        return backend
    raise ValueError(f"backend must be None, 'compiled', 'reference' or a fastcol API, "
                     f"got {backend!r}")


def _kind(kind, name="kind") -> str:
    if not isinstance(kind, str):
        raise TypeError(f"{name} must be a string (one of {', '.join(KINDS)}), "
                        f"not {type(kind).__name__}")
    if kind not in KINDS:
        raise ValueError(f"{name} must be one of {', '.join(KINDS)}, got {kind!r}")
    return kind


def _as_dask(value, name):
    """A dask array as given, a NumPy array as a dask array of one block."""
    if isinstance(value, da.Array):
        return value
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{name} must be a dask array, not {type(value).__name__}")
    return da.from_array(value, chunks=value.shape or ())


def _any_shape(value) -> bool:
    """Whether ``value`` is a shape of either backend."""
    for backend in _api.BACKENDS:
        try:
            if isinstance(value, _api.load(backend)._shape):
                return True
        except ImportError:   # the compiled backend is not built
            pass
    return False


def _rows(value, name, ndim, width, what):
    """``value`` (a dask or NumPy array) checked as rows: real dtype, ``ndim`` axes, last
    axis ``width`` (None: any), chunked along axis 0 only, known chunk sizes."""
    x = _as_dask(value, name)
    if x.dtype.kind not in "fiu":
        raise TypeError(f"{name} must hold real numbers, not {x.dtype}")
    if x.ndim != ndim or (width is not None and x.shape[-1] != width):
        raise ValueError(f"{name} must have shape {what}, got {x.shape}")
    for axis in range(1, x.ndim):
        if len(x.chunks[axis]) > 1:
            raise ValueError(
                f"{name} must be chunked along rows only (axis 0), but has "
                f"{len(x.chunks[axis])} chunks along axis {axis}: "
                f"use {name}.rechunk({{{axis}: -1}})")
    if any(math.isnan(c) for c in x.chunks[0]):
        raise ValueError(f"{name} has unknown chunk sizes: call {name}.compute_chunk_sizes()")
    return x


def _is_rows(value) -> bool:
    return isinstance(value, (da.Array, np.ndarray))


class _Args:
    """The operands of one call: constants (shapes, single points and limits) kept as
    they are, rows (dask arrays) checked, counted and rechunked to the first one's
    row chunks.  ``layout`` tells a block how to rebuild the call's arguments."""

    def __init__(self, api):
        self.api = api
        self.layout = []     # per argument: ("const", value) | ("shape", kind) | ("rows",)
        self.arrays = []     # the dask arrays, in the order the blocks come
        self.first = None    # (name, length) of the first row operand

    def _length(self, name, n):
        if self.first is None:
            self.first = (name, n)
        elif n != self.first[1]:
            raise ValueError(f"{self.first[0]} and {name} must have the same length, "
                             f"got {self.first[1]} and {n}")

    def shape(self, value, name, kind):
        """A shape operand: one shape of the backend, or rows of ``kind``."""
        if isinstance(value, self.api._shape):
            self.layout.append(("const", value))
            return
        if kind == "polygon":
            if not (isinstance(value, tuple) and len(value) == 2):
                raise TypeError(
                    f"{name} must be a Polygon or a pair (vertices, counts) of arrays for "
                    f"kind='polygon', not {type(value).__name__}")
            vertices = _rows(value[0], f"{name}[0]", 3, 2, "(N, K, 2) (vertices)")
            counts = _rows(value[1], f"{name}[1]", 1, None, "(N,) (counts)")
            if counts.dtype.kind not in "iu":
                raise TypeError(f"{name}[1] (counts) must hold integers, not {counts.dtype}")
            self._length(name, vertices.shape[0])
            self._length(f"{name}[1]", counts.shape[0])
            self.layout.append(("polygon",))
            self.arrays += [vertices, counts]
            return
        if not _is_rows(value):
            if _any_shape(value):
                raise TypeError(f"{name} is a shape of another fastcol backend than "
                                f"{self.api.backend!r} (the backend= the call runs on)")
            raise TypeError(f"{name} must be a dask array of rows (kind={kind!r}) or a "
                            f"single fastcol shape, not {type(value).__name__}")
        width = KINDS[kind][1]
        x = _rows(value, name, 2, width, f"(N, {width}) for kind={kind!r}")
        self._length(name, x.shape[0])
        self.layout.append(("shape", kind))
        self.arrays.append(x)

    def vector(self, value, name):
        """A point or vector: one ``(x, y)`` (a constant) or ``(N, 2)`` rows."""
        if isinstance(value, da.Array) or (_is_rows(value) and np.ndim(value) == 2):
            x = _rows(value, name, 2, 2, "(N, 2), or be one point (x, y)")
            self._length(name, x.shape[0])
            self.layout.append(("rows",))
            self.arrays.append(x)
        else:
            self.layout.append(("const", value))

    def column(self, value, name):
        """A limit or density: one number (a constant) or ``(N,)`` rows."""
        if isinstance(value, da.Array) or (_is_rows(value) and np.ndim(value) >= 1):
            x = _rows(value, name, 1, None, "(N,), or be one number")
            self._length(name, x.shape[0])
            self.layout.append(("rows",))
            self.arrays.append(x)
        else:
            self.layout.append(("const", value))

    def aligned(self, needed):
        """The dask arrays, each rechunked to the first's row chunks."""
        if not self.arrays:
            raise TypeError(f"{needed} must be a dask array of rows")
        target = self.arrays[0].chunks[0]
        return [x if x.chunks[0] == target else x.rechunk({0: target})
                for x in self.arrays]


def _assemble(api, layout, blocks):
    """The arguments of the in-memory call from a layout and one block of each row
    operand (polygon rows are wrapped as data, their rings not checked: see
    ``overlapping_pairs``)."""
    args = []
    it = iter(blocks)
    for entry in layout:
        if entry[0] == "const":
            args.append(entry[1])
        elif entry[0] == "shape":
            args.append(getattr(api, KINDS[entry[1]][0])(next(it)))
        elif entry[0] == "polygon":
            args.append(_polygons(api, next(it), next(it)))
        else:
            args.append(next(it))
    return args


def _polygons(api, vertices, counts):
    """A PolygonArray over padded rows, as data (see ``overlapping_pairs``)."""
    return api.PolygonArray._as_data(vertices, counts)


def _call_block(backend, name, layout, *blocks):
    """One block: the in-memory function ``name`` over the block's rows (a task)."""
    api = _api.load(backend)
    # each row operand comes as the one block of its trailing axes, in nested lists
    # (not concatenated: concatenating one block would copy it)
    blocks = [_only(b) for b in blocks]
    return getattr(api, name)(*_assemble(api, layout, blocks), workers=1)


def _only(block):
    while isinstance(block, list):
        (block,) = block
    return _aligned(block)


def _field(result, k):
    return result if k is None else result[k]


def _elementwise(backend, name, args, needed):
    """The dask result of the element-wise function ``name`` over ``args``: a dask array,
    or the in-memory result's record (or tuple) of dask arrays."""
    arrays = args.aligned(needed)
    layout = tuple(args.layout)
    # the in-memory call on no rows: checks the constants as the in-memory call does
    # (naming them) and gives the results' dtypes and trailing shapes
    empty = [np.empty((0,) + x.shape[1:], dtype=x.dtype) for x in arrays]
    probe = getattr(args.api, name)(*_assemble(args.api, layout, empty), workers=1)
    blockwise_args = []
    for k, x in enumerate(arrays):
        blockwise_args += [x, ("i",) + tuple(f"c{k}_{d}" for d in range(1, x.ndim))]
    token = dask.base.tokenize(backend, name, layout, *arrays)
    tmp = da.blockwise(_call_block, ("i",), backend, None, name, None, layout, None,
                       *blockwise_args, concatenate=False, dtype=object,
                       meta=np.empty((0,), dtype=object),
                       name=f"fastcol-{name}-blocks-{token}")
    rows = tmp.chunks[0]

    def field(part, k, label):
        trailing = part.shape[1:]
        return da.map_blocks(
            _field, tmp, k, dtype=part.dtype, chunks=(rows,) + tuple((s,) for s in trailing),
            new_axis=list(range(1, 1 + len(trailing))),
            meta=np.empty((0,) + trailing, dtype=part.dtype),
            name=f"fastcol-{label}-{token}")

    if isinstance(probe, np.ndarray):
        return field(probe, None, name)
    labels = getattr(probe, "_fields", range(len(probe)))
    parts = [field(p, k, f"{name}-{label}") for k, (p, label) in enumerate(zip(probe, labels))]
    return type(probe)(*parts) if hasattr(probe, "_fields") else tuple(parts)


def _api_of(backend, *operands):
    """The backend's name and API; with ``backend=None``, that of the first single
    shape among the operands (else the façade's), so shapes pass as they came."""
    if backend is None:
        for value in operands:
            # (by the class's module: the compiled backend need not be built)
            module = type(value).__module__
            for candidate, package in _api.BACKENDS.items():
                if module.startswith(package + "."):
                    api = _api.load(candidate)
                    if isinstance(value, api._shape):
                        return candidate, api
    name = _backend_name(backend)
    return name, _api.load(name)


def _pair_args(api, a, b, kind, kind_b):
    kind = _kind(kind)
    kind_b = kind if kind_b is None else _kind(kind_b, "kind_b")
    args = _Args(api)
    args.shape(a, "a", kind)
    args.shape(b, "b", kind_b)
    return args


# ------------------------------------------------------------- the element-wise queries


def collide(a: Any, b: Any, kind: str = "circle", kind_b: str | None = None, *,
            backend: Any = None) -> da.Array:
    """Whether each pair of rows overlaps or touches (`fastcol.collide` per block).

    Parameters
    ----------
    a, b : dask array of rows, or a shape
        Rows of the shape type ``kind`` (``kind_b`` for ``b``), chunked along rows, of
        one length; or a single fastcol shape, which stands for every row.  At least
        one is rows.  ``b`` is rechunked to ``a``'s row chunks (when both are rows).
    kind, kind_b : str
        ``"circle"``, ``"capsule"``, ``"segment"``, ``"aabb"``, ``"obb"`` or
        ``"polygon"`` (rows as in the module's table); ``kind_b`` defaults to ``kind``.
    backend : None, "compiled" or "reference", optional
        The fastcol backend the blocks run on (None: that of ``a`` or ``b`` when one
        is a single shape, else the one ``import fastcol`` chose).

    Returns
    -------
    dask array of bool, shape (N,)
        ``fastcol.collide`` of the computed rows: touching counts, a row that is no
        shape gives False.

    Examples
    --------
    >>> import dask.array as da, fastcol as fc, fastcol.dask as fcd
    >>> a = da.from_array([[0.0, 0, 1], [0, 0, 1], [0, 0, float("nan")]], chunks=(2, -1))
    >>> b = da.from_array([[2.0, 0, 1], [3, 0, 1], [0, 0, 1]], chunks=(1, -1))
    >>> fcd.collide(a, b).compute()
    array([ True, False, False])
    >>> fcd.collide(fc.AABB(1, -1, 2, 1), a, kind_b="circle").compute()
    array([ True,  True, False])
    """
    name, api = _api_of(backend, a, b)
    return _elementwise(name, "collide", _pair_args(api, a, b, kind, kind_b), "a or b")


def distance(a: Any, b: Any, kind: str = "circle", kind_b: str | None = None, *,
             backend: Any = None) -> da.Array:
    """Separation of each pair of rows (`fastcol.distance` per block).

    Parameters
    ----------
    a, b, kind, kind_b, backend
        As in `collide`.

    Returns
    -------
    dask array of float, shape (N,)
        0.0 where the shapes overlap or touch, NaN where a row is no shape; float32
        when every row operand is float32.

    Examples
    --------
    >>> import dask.array as da, fastcol as fc, fastcol.dask as fcd
    >>> a = da.from_array([[0.0, 0, 1], [5, 0, 1]], chunks=(1, -1))
    >>> fcd.distance(a, fc.Circle(10, 0, 1)).compute()
    array([8., 3.])
    """
    name, api = _api_of(backend, a, b)
    return _elementwise(name, "distance", _pair_args(api, a, b, kind, kind_b), "a or b")


def closest_points(a: Any, b: Any, kind: str = "circle", kind_b: str | None = None, *,
                   backend: Any = None) -> tuple[da.Array, da.Array, da.Array]:
    """Closest points and distance of each pair of rows (`fastcol.closest_points`).

    Parameters
    ----------
    a, b, kind, kind_b, backend
        As in `collide`.

    Returns
    -------
    (point_a, point_b, distance) : tuple of dask arrays
        Shapes (N, 2), (N, 2) and (N,), as the in-memory call gives them.

    Examples
    --------
    >>> import dask.array as da, fastcol as fc, fastcol.dask as fcd
    >>> pa, pb, d = fcd.closest_points(da.from_array([[0.0, 0, 1]]), fc.Circle(5, 0, 1))
    >>> pa.compute(), pb.compute(), d.compute()
    (array([[1., 0.]]), array([[4., 0.]]), array([3.]))
    """
    name, api = _api_of(backend, a, b)
    return _elementwise(name, "closest_points", _pair_args(api, a, b, kind, kind_b),
                        "a or b")


def contact(a: Any, b: Any, kind: str = "circle", kind_b: str | None = None, *,
            backend: Any = None) -> Any:
    """Contact (normal, depth, points) of each pair of rows (`fastcol.contact`).

    Parameters
    ----------
    a, b, kind, kind_b, backend
        As in `collide`.

    Returns
    -------
    ContactArray
        ``(hit, normal, depth, points, count)`` of dask arrays, shapes (N,), (N, 2),
        (N,), (N, 2, 2) and (N,); rows without a contact are zeros.

    Examples
    --------
    >>> import dask.array as da, fastcol as fc, fastcol.dask as fcd
    >>> c = fcd.contact(da.from_array([[0.0, 0, 1], [3, 0, 1]], chunks=(1, -1)), fc.Circle(1.5, 0, 1))
    >>> c.hit.compute(), c.depth.compute()
    (array([ True,  True]), array([0.5, 0.5]))
    """
    name, api = _api_of(backend, a, b)
    return _elementwise(name, "contact", _pair_args(api, a, b, kind, kind_b), "a or b")


def raycast(shape: Any, origin: Any, direction: Any, max_t: Any = math.inf,
            kind: str = "circle", *, backend: Any = None) -> Any:
    """First hit of each ray on each row (`fastcol.raycast` per block).

    Parameters
    ----------
    shape : dask array of rows, or a shape
        Rows of ``kind`` or one shape.
    origin, direction : (x, y) pair, or (N, 2) dask array
        One ray for every row, or one a row (``direction`` not zero when single).
    max_t : float, or (N,) dask array
        Longest ``t`` accepted.
    kind : str
        The shape type of the rows (see the module's table).
    backend : None, "compiled" or "reference", optional
        As in `collide`.

    Returns
    -------
    RayHitArray
        ``(hit, t, point, normal)`` of dask arrays; rows without a hit hold ``t = inf``
        and zeros.

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> h = fcd.raycast(da.from_array([[5.0, 0, 1], [5, 9, 1]], chunks=(1, -1)), (0, 0), (1, 0))
    >>> h.t.compute()
    array([ 4., inf])
    """
    name, api = _api_of(backend, shape)
    args = _Args(api)
    args.shape(shape, "shape", _kind(kind))
    args.vector(origin, "origin")
    args.vector(direction, "direction")
    args.column(max_t, "max_t")
    return _elementwise(name, "raycast", args, "shape, origin, direction or max_t")


def _sweep_args(api, a, velocity_a, b, velocity_b, max_t, kind, kind_b):
    kind = _kind(kind)
    kind_b = kind if kind_b is None else _kind(kind_b, "kind_b")
    args = _Args(api)
    args.shape(a, "a", kind)
    args.vector(velocity_a, "velocity_a")
    args.shape(b, "b", kind_b)
    args.vector(velocity_b, "velocity_b")
    args.column(max_t, "max_t")
    return args


def time_of_impact(a: Any, velocity_a: Any, b: Any, velocity_b: Any, max_t: Any = 1.0,
                   kind: str = "circle", kind_b: str | None = None, *,
                   backend: Any = None) -> da.Array:
    """First time each pair of translating rows touch (`fastcol.time_of_impact`).

    Parameters
    ----------
    a, b : dask array of rows, or a shape
        As in `collide`.
    velocity_a, velocity_b : (x, y) pair, or (N, 2) dask array
        Displacement per unit of time.
    max_t : float, or (N,) dask array
        Latest time accepted.
    kind, kind_b, backend
        As in `collide`.

    Returns
    -------
    dask array of float, shape (N,)
        NaN where there is no impact.

    Examples
    --------
    >>> import dask.array as da, fastcol as fc, fastcol.dask as fcd
    >>> a = da.from_array([[0.0, 0, 1], [0, 5, 1]], chunks=(1, -1))
    >>> fcd.time_of_impact(a, (1, 0), fc.Circle(10, 0, 1), (-1, 0), max_t=10).compute()
    array([ 4., nan])
    """
    name, api = _api_of(backend, a, b)
    args = _sweep_args(api, a, velocity_a, b, velocity_b, max_t, kind, kind_b)
    return _elementwise(name, "time_of_impact", args, "a, b, a velocity or max_t")


def shape_cast(a: Any, velocity_a: Any, b: Any, velocity_b: Any, max_t: Any = 1.0,
               kind: str = "circle", kind_b: str | None = None, *,
               backend: Any = None) -> Any:
    """Where and along which normal each pair of translating rows first touch
    (`fastcol.shape_cast` per block).

    Parameters
    ----------
    a, velocity_a, b, velocity_b, max_t, kind, kind_b, backend
        As in `time_of_impact`.

    Returns
    -------
    CastHitArray
        ``(hit, t, point, normal)`` of dask arrays.

    Examples
    --------
    >>> import dask.array as da, fastcol as fc, fastcol.dask as fcd
    >>> a = da.from_array([[0.0, 0, 1], [0, 5, 1]], chunks=(1, -1))
    >>> h = fcd.shape_cast(a, (1, 0), fc.Circle(10, 0, 1), (-1, 0), max_t=10)
    >>> h.t.compute(), h.point.compute()
    (array([ 4., inf]), array([[5., 0.],
           [0., 0.]]))
    """
    name, api = _api_of(backend, a, b)
    args = _sweep_args(api, a, velocity_a, b, velocity_b, max_t, kind, kind_b)
    return _elementwise(name, "shape_cast", args, "a, b, a velocity or max_t")


def point_query(shape: Any, point: Any, kind: str = "circle", *, backend: Any = None) -> Any:
    """Nearest boundary point, signed distance and normal for each row
    (`fastcol.point_query` per block).

    Parameters
    ----------
    shape : dask array of rows, or a shape
        Rows of ``kind`` or one shape.
    point : (x, y) pair, or (N, 2) dask array
        The query points.
    kind, backend
        As in `collide`.

    Returns
    -------
    PointQueryArray
        ``(point, distance, normal)`` of dask arrays.

    Examples
    --------
    >>> import dask.array as da, fastcol as fc, fastcol.dask as fcd
    >>> q = fcd.point_query(fc.Circle(0, 0, 1), da.from_array([[3.0, 0], [0, 0.5]], chunks=(1, -1)))
    >>> q.distance.compute()
    array([ 2. , -0.5])
    """
    name, api = _api_of(backend, shape)
    args = _Args(api)
    args.shape(shape, "shape", _kind(kind))
    args.vector(point, "point")
    return _elementwise(name, "point_query", args, "shape or point")


def contains(shape: Any, point: Any, kind: str = "circle", *,
             backend: Any = None) -> da.Array:
    """Whether each point lies in each row's shape (`fastcol.contains` per block).

    Parameters
    ----------
    shape, point, kind, backend
        As in `point_query`.

    Returns
    -------
    dask array of bool, shape (N,)

    Examples
    --------
    >>> import dask.array as da, fastcol as fc, fastcol.dask as fcd
    >>> fcd.contains(fc.AABB(0, 0, 1, 1), da.from_array([[0.5, 0.5], [2, 0]], chunks=(1, -1))).compute()
    array([ True, False])
    """
    name, api = _api_of(backend, shape)
    args = _Args(api)
    args.shape(shape, "shape", _kind(kind))
    args.vector(point, "point")
    return _elementwise(name, "contains", args, "shape or point")


def mass_properties(shape: Any, density: Any = 1.0, kind: str = "circle", *,
                    backend: Any = None) -> tuple[da.Array, da.Array, da.Array]:
    """Mass, centroid and inertia of each row (`fastcol.mass_properties` per block).

    Parameters
    ----------
    shape : dask array of rows
        Rows of ``kind``.
    density : float, or (N,) dask array
        Mass per unit area (finite, >= 0 when single).
    kind, backend
        As in `collide`.

    Returns
    -------
    (mass, centroid, inertia) : tuple of dask arrays
        Shapes (N,), (N, 2) and (N,).

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> mass, centroid, inertia = fcd.mass_properties(da.from_array([[0.0, 0, 2, 1]]),
    ...                                               density=3.0, kind="aabb")
    >>> mass.compute(), inertia.compute()
    (array([6.]), array([2.5]))
    """
    name, api = _api_of(backend, shape)
    args = _Args(api)
    kind = _kind(kind)
    if isinstance(shape, api._shape):
        raise TypeError("shape must be a dask array of rows (a single shape: use "
                        "fastcol.mass_properties)")
    args.shape(shape, "shape", kind)
    args.column(density, "density")
    return _elementwise(name, "mass_properties", args, "shape")


# ------------------------------------------------------------------- the primitives


def _primitive(backend, fname, values, names):
    name, api = _api_of(backend)
    args = _Args(api)
    for v, n in zip(values, names):
        args.vector(v, n)
    return _elementwise(name, fname, args, "one of " + ", ".join(names))


def closest_point_on_segment(p: Any, a: Any, b: Any, *,
                             backend: Any = None) -> tuple[da.Array, da.Array]:
    """`fastcol.closest_point_on_segment` over rows of points.

    Parameters
    ----------
    p, a, b : (x, y) pair, or (N, 2) dask array
        The points and the segments' ends; at least one is rows.
    backend : None, "compiled" or "reference", optional
        As in `collide`.

    Returns
    -------
    (point, t) : tuple of dask arrays
        Shapes (N, 2) and (N,).

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> point, t = fcd.closest_point_on_segment(da.from_array([[1.0, 5], [9, 1]], chunks=(1, -1)),
    ...                                         (0, 0), (4, 0))
    >>> point.compute(), t.compute()
    (array([[1., 0.],
           [4., 0.]]), array([0.25, 1.  ]))
    """
    return _primitive(backend, "closest_point_on_segment", (p, a, b), ("p", "a", "b"))


def closest_point_on_line(p: Any, a: Any, b: Any, *,
                          backend: Any = None) -> tuple[da.Array, da.Array]:
    """`fastcol.closest_point_on_line` over rows of points.

    Parameters
    ----------
    p, a, b, backend
        As in `closest_point_on_segment`.

    Returns
    -------
    (point, t) : tuple of dask arrays
        Shapes (N, 2) and (N,); ``t`` unclamped.

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> point, t = fcd.closest_point_on_line(da.from_array([[6.0, 3]]), (0, 0), (4, 0))
    >>> t.compute()
    array([1.5])
    """
    return _primitive(backend, "closest_point_on_line", (p, a, b), ("p", "a", "b"))


def point_segment_distance(p: Any, a: Any, b: Any, *, backend: Any = None) -> da.Array:
    """`fastcol.point_segment_distance` over rows of points.

    Parameters
    ----------
    p, a, b, backend
        As in `closest_point_on_segment`.

    Returns
    -------
    dask array of float, shape (N,)

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> fcd.point_segment_distance(da.from_array([[3.0, 4], [2, 0]]), (0, 0), (0, 0)).compute()
    array([5., 2.])
    """
    return _primitive(backend, "point_segment_distance", (p, a, b), ("p", "a", "b"))


def segment_segment_closest(a: Any, b: Any, c: Any, d: Any, *,
                            backend: Any = None) -> tuple[da.Array, ...]:
    """`fastcol.segment_segment_closest` over rows of segments.

    Parameters
    ----------
    a, b, c, d : (x, y) pair, or (N, 2) dask array
        The ends of the segments ab and cd; at least one is rows.
    backend : None, "compiled" or "reference", optional
        As in `collide`.

    Returns
    -------
    (distance, s, t, point_on_ab, point_on_cd) : tuple of dask arrays
        Shapes (N,), (N,), (N,), (N, 2) and (N, 2).

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> dist, s, t, p, q = fcd.segment_segment_closest(da.from_array([[0.0, 0]]), (2, 0),
    ...                                                (1, 1), (1, 3))
    >>> dist.compute(), q.compute()
    (array([1.]), array([[1., 1.]]))
    """
    return _primitive(backend, "segment_segment_closest", (a, b, c, d), ("a", "b", "c", "d"))


def segment_segment_distance(a: Any, b: Any, c: Any, d: Any, *,
                             backend: Any = None) -> da.Array:
    """`fastcol.segment_segment_distance` over rows of segments.

    Parameters
    ----------
    a, b, c, d, backend
        As in `segment_segment_closest`.

    Returns
    -------
    dask array of float, shape (N,)

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> fcd.segment_segment_distance(da.from_array([[0.0, 2], [0, 0]]), (2, 0),
    ...                              (0, 2), (2, 2)).compute()
    array([0., 2.])
    """
    return _primitive(backend, "segment_segment_distance", (a, b, c, d),
                      ("a", "b", "c", "d"))


def segments_intersect(a: Any, b: Any, c: Any, d: Any, *,
                       backend: Any = None) -> da.Array:
    """`fastcol.segments_intersect` over rows of segments (touching counts).

    Parameters
    ----------
    a, b, c, d, backend
        As in `segment_segment_closest`.

    Returns
    -------
    dask array of bool, shape (N,)

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> fcd.segments_intersect(da.from_array([[2.0, 0], [3, 0]]), (3, 5), (0, 0), (2, 0)).compute()
    array([ True, False])
    """
    return _primitive(backend, "segments_intersect", (a, b, c, d), ("a", "b", "c", "d"))


def orient2d(a: Any, b: Any, c: Any, *, backend: Any = None) -> da.Array:
    """`fastcol.orient2d` over rows of points: exact signs.

    Parameters
    ----------
    a, b, c : (x, y) pair, or (N, 2) dask array
        At least one is rows.
    backend : None, "compiled" or "reference", optional
        As in `collide`.

    Returns
    -------
    dask array of int8, shape (N,)
        1 counter-clockwise, -1 clockwise, 0 collinear (or a row with NaN).

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> fcd.orient2d((0, 0), (1, 0), da.from_array([[0.0, 1], [0, -1], [3, 0]])).compute()
    array([ 1, -1,  0], dtype=int8)
    """
    return _primitive(backend, "orient2d", (a, b, c), ("a", "b", "c"))


# -------------------------------------------------------------- overlapping_pairs

def _row_blocks(rows, kind):
    """The delayed blocks of the rows, chunk by chunk: ``(data,)`` or ``(vertices,
    counts)`` (counts rechunked to the vertices' chunks), and the chunks."""
    if kind == "polygon":
        if not (isinstance(rows, tuple) and len(rows) == 2):
            raise TypeError(f"rows must be a pair (vertices, counts) of arrays for "
                            f"kind='polygon', not {type(rows).__name__}")
        vertices = _rows(rows[0], "rows[0]", 3, 2, "(N, K, 2) (vertices)")
        counts = _rows(rows[1], "rows[1]", 1, None, "(N,) (counts)")
        if counts.dtype.kind not in "iu":
            raise TypeError(f"rows[1] (counts) must hold integers, not {counts.dtype}")
        if counts.shape[0] != vertices.shape[0]:
            raise ValueError(f"rows[0] and rows[1] must have the same length, got "
                             f"{vertices.shape[0]} and {counts.shape[0]}")
        counts = counts.rechunk({0: vertices.chunks[0]})
        blocks = zip(vertices.to_delayed().ravel(), counts.to_delayed().ravel())
        return [tuple(b) for b in blocks], vertices.chunks[0]
    if not _is_rows(rows):
        raise TypeError(f"rows must be a dask array of rows (kind={kind!r}), "
                        f"not {type(rows).__name__}")
    width = KINDS[kind][1]
    x = _rows(rows, "rows", 2, width, f"(N, {width}) for kind={kind!r}")
    return [(b,) for b in x.to_delayed().ravel()], x.chunks[0]


def overlapping_pairs(rows: Any, kind: str = "circle", tile: float | None = None, *,
                      backend: Any = None) -> da.Array:
    """Every pair of rows that collide, within one dask array of rows, by spatial tiles.

    Parameters
    ----------
    rows : dask array of rows
        Rows of ``kind`` chunked along rows (a ``(vertices, counts)`` pair of dask
        arrays for ``kind="polygon"``).
    kind : str
        The shape type of the rows (see the module's table).
    tile : float, optional
        The side of the grid's square tiles, in the rows' units.  None (default):
        sized from the data, about four tiles per input chunk over the extent of the
        shapes, and never less than four times their median extent.
    backend : None, "compiled" or "reference", optional
        As in `collide`.

    Returns
    -------
    dask array of int64, shape (M, 2)
        The pairs ``(i, j)``, ``i < j`` global row numbers, sorted lexicographically,
        each once: equal to ``fastcol.overlapping_pairs`` of the computed rows.  Block
        ``k`` holds the pairs whose ``i`` lies in the rows' chunk ``k``, so the blocks
        concatenate into the sorted whole; their lengths are unknown (NaN) until
        computed (``compute_chunk_sizes()`` finds them).

    Notes
    -----
    Each row is bounded by a box, padded outward (by ``2**-36`` of its largest
    coordinate) so that rounding never parts the boxes of two shapes that collide; rows
    that are no shape get none and are never paired.  The boxes are laid on a uniform
    grid of square tiles starting at a multiple of the tile (borders at ``k * tile``;
    the grid spans the boxes of a sample of each chunk, and rows beyond it fall in the
    edge tiles).  The tiles are dealt round robin to as many tile tasks as the rows
    have chunks, and each row goes to every task one of whose tiles its box touches
    (the halo; a row touching more than 64 tiles goes to every task).  Each task runs
    the in-memory broadphase (``fastcol.overlapping_pairs`` with ``workers=1``) over
    its rows and keeps a pair only when it owns the tile of the lower-left corner of
    the two boxes' intersection, ``(max(x0_i, x0_j), max(y0_i, y0_j))``, the tile
    numbered ``floor((x - x0) / tile)`` (clamped to the grid) on each axis as the rows
    were.  That corner lies in both boxes and the numbering is monotone, so its tile
    is one both rows were sent to: every pair is kept exactly once.  The kept pairs are
    then gathered by the chunk of ``i`` and sorted there.

    Nothing is computed while the graph is built: the grid is sized on the workers
    (a small task reads a sample of each chunk).  The graph has about ``2 C**2``
    small tasks for ``C`` chunks (each chunk's rows to each tile task, each tile task's
    pairs to each output block): chunks of about a million rows keep it small.
    Collision filters are not supported (the rows are bare arrays).  Polygon rows are
    read as data, like an array's vertices written after it was made: rows with NaN,
    or a count outside 3..K, are no shape, and rings are not checked for convexity.

    Examples
    --------
    >>> import dask.array as da, fastcol.dask as fcd
    >>> balls = da.from_array([[0.0, 0, 1], [2, 0, 1], [9, 9, 1], [0.5, 0, float("nan")],
    ...                        [9, 10, 0.5]], chunks=(2, -1))
    >>> pairs = fcd.overlapping_pairs(balls, kind="circle")    # lazy: nothing runs yet
    >>> pairs.compute()            # touching counts; the NaN row is never paired
    array([[0, 1],
           [2, 4]])
    """
    name = _backend_name(backend)
    kind = _kind(kind)
    if tile is not None:
        if isinstance(tile, (bool, np.bool_)) or not isinstance(tile, (int, float, np.integer,
                                                                         np.floating)):
            raise TypeError(f"tile must be a number or None, not {type(tile).__name__}")
        tile = float(tile)
        if not 0.0 < tile < math.inf:
            raise ValueError(f"tile must be positive and finite, got {tile!r}")
    blocks, chunks = _row_blocks(rows, kind)
    n = int(sum(chunks))
    starts = tuple(int(s) for s in np.concatenate([[0], np.cumsum(chunks)]))
    tasks = len(blocks)
    samples = [dask.delayed(_sample, pure=True)(kind, *b) for b in blocks]
    grid = dask.delayed(_grid, pure=True)(samples, tile, tasks)
    routed = [dask.delayed(_route, pure=True, nout=tasks)(kind, starts[c], grid, tasks, *b)
              for c, b in enumerate(blocks)]
    tiles = [dask.delayed(_tile, pure=True, nout=tasks)(
        name, kind, k, tasks, grid, starts, *[routed[c][k] for c in range(tasks)])
        for k in range(tasks)]
    out = [da.from_delayed(dask.delayed(_merge, pure=True)(
        starts[c], starts[c + 1], n, *[tiles[k][c] for k in range(tasks)]),
        shape=(math.nan, 2), dtype=np.int64, meta=np.empty((0, 2), dtype=np.int64))
        for c in range(tasks)]
    return da.concatenate(out, axis=0)
