# Type information for the public API: what mypy and IDEs see of `import fastcol`.
# The runtime names come from the selected backend (fastcol._ext or fastcol._ref),
# whose classes are extension types or plain classes with the same behaviour; this
# stub states that behaviour once.  tests/test_typing.py checks it with mypy and that
# it names exactly fastcol.__all__.

from collections.abc import Iterator, Sequence
from typing import Any, Generic, NamedTuple, TypeVar, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

__version__: str
backend: str

_Point = tuple[float, float]
# a point argument: a pair of reals (an (N, 2) NumPy array takes the array overloads)
_PointLike = Sequence[float]
_Float = np.floating[Any]

class _Shape:
    kind: int
    def bounds(self) -> AABB: ...

class Circle(_Shape):
    x: float
    y: float
    r: float
    def __init__(self, x: float, y: float, r: float) -> None: ...
    def translated(self, dx: float, dy: float) -> Circle: ...
    def rotated(self, angle: float, about: _PointLike | None = None) -> Circle: ...

class Capsule(_Shape):
    ax: float
    ay: float
    bx: float
    by: float
    r: float
    def __init__(self, ax: float, ay: float, bx: float, by: float, r: float) -> None: ...
    @property
    def a(self) -> _Point: ...
    @property
    def b(self) -> _Point: ...
    def translated(self, dx: float, dy: float) -> Capsule: ...
    def rotated(self, angle: float, about: _PointLike | None = None) -> Capsule: ...

class Segment(_Shape):
    ax: float
    ay: float
    bx: float
    by: float
    def __init__(self, ax: float, ay: float, bx: float, by: float) -> None: ...
    @property
    def a(self) -> _Point: ...
    @property
    def b(self) -> _Point: ...
    def translated(self, dx: float, dy: float) -> Segment: ...
    def rotated(self, angle: float, about: _PointLike | None = None) -> Segment: ...

class AABB(_Shape):
    min_x: float
    min_y: float
    max_x: float
    max_y: float
    def __init__(self, min_x: float, min_y: float, max_x: float, max_y: float) -> None: ...
    @property
    def vertices(self) -> tuple[_Point, _Point, _Point, _Point]: ...
    def translated(self, dx: float, dy: float) -> AABB: ...
    def rotated(self, angle: float, about: _PointLike | None = None) -> OBB: ...

class OBB(_Shape):
    cx: float
    cy: float
    half_w: float
    half_h: float
    angle: float
    def __init__(
        self, cx: float, cy: float, half_w: float, half_h: float, angle: float = 0.0
    ) -> None: ...
    @property
    def vertices(self) -> tuple[_Point, _Point, _Point, _Point]: ...
    @classmethod
    def from_corners(cls, points: Sequence[_PointLike] | NDArray[Any]) -> OBB: ...
    def translated(self, dx: float, dy: float) -> OBB: ...
    def rotated(self, angle: float, about: _PointLike | None = None) -> OBB: ...

class Polygon(_Shape):
    @property
    def vertices(self) -> tuple[_Point, ...]: ...
    def __init__(self, vertices: Sequence[_PointLike] | NDArray[Any]) -> None: ...
    @classmethod
    def hull(cls, points: Sequence[_PointLike] | NDArray[Any]) -> Polygon: ...
    def translated(self, dx: float, dy: float) -> Polygon: ...
    def rotated(self, angle: float, about: _PointLike | None = None) -> Polygon: ...

_AnyShape = Circle | Capsule | Segment | AABB | OBB | Polygon
_S = TypeVar("_S", bound=_Shape)
# collision filters: a number for every row, or one a row (None: no filter)
_FilterLike = int | ArrayLike | None

class _Filtered:
    @property
    def categories(self) -> NDArray[np.uint32] | None: ...
    @categories.setter
    def categories(self, value: _FilterLike) -> None: ...
    @property
    def masks(self) -> NDArray[np.uint32] | None: ...
    @masks.setter
    def masks(self, value: _FilterLike) -> None: ...
    @property
    def groups(self) -> NDArray[np.int32] | None: ...
    @groups.setter
    def groups(self, value: _FilterLike) -> None: ...

class _ShapeArray(_Filtered, Generic[_S]):
    kind: int
    def __init__(
        self, data: ArrayLike | Sequence[_S], *, copy: bool | None = None,
        categories: _FilterLike = None, masks: _FilterLike = None, groups: _FilterLike = None,
    ) -> None: ...
    @property
    def data(self) -> NDArray[_Float]: ...
    @property
    def dtype(self) -> np.dtype[_Float]: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> _S: ...
    @overload
    def __getitem__(self, index: slice | Sequence[int] | NDArray[Any]) -> _ShapeArray[_S]: ...
    def __iter__(self) -> Iterator[_S]: ...

class CircleArray(_ShapeArray[Circle]): ...
class CapsuleArray(_ShapeArray[Capsule]): ...
class SegmentArray(_ShapeArray[Segment]): ...
class AABBArray(_ShapeArray[AABB]): ...
class OBBArray(_ShapeArray[OBB]): ...

class PolygonArray(_Filtered):
    kind: int
    def __init__(
        self, polygons: Sequence[Polygon | Sequence[_PointLike]], dtype: Any = ..., *,
        categories: _FilterLike = None, masks: _FilterLike = None, groups: _FilterLike = None,
    ) -> None: ...
    @classmethod
    def from_padded(
        cls, vertices: ArrayLike, counts: ArrayLike, *, copy: bool | None = None,
        categories: _FilterLike = None, masks: _FilterLike = None, groups: _FilterLike = None,
    ) -> PolygonArray: ...
    @property
    def vertices(self) -> NDArray[_Float]: ...
    @property
    def counts(self) -> NDArray[np.int64]: ...
    @property
    def dtype(self) -> np.dtype[_Float]: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Polygon: ...
    @overload
    def __getitem__(self, index: slice | Sequence[int] | NDArray[Any]) -> PolygonArray: ...
    def __iter__(self) -> Iterator[Polygon]: ...

_AnyArray = CircleArray | CapsuleArray | SegmentArray | AABBArray | OBBArray | PolygonArray

class Closest(NamedTuple):
    point_a: _Point
    point_b: _Point
    distance: float

class MassData(NamedTuple):
    mass: float
    centroid: _Point
    inertia: float

class Contact(NamedTuple):
    normal: _Point
    depth: float
    points: tuple[_Point, ...]

class RayHit(NamedTuple):
    t: float
    point: _Point
    normal: _Point

class CastHit(NamedTuple):
    t: float
    point: _Point
    normal: _Point

class PointQuery(NamedTuple):
    point: _Point
    distance: float
    normal: _Point

class ContactArray(NamedTuple):
    hit: NDArray[np.bool_]
    normal: NDArray[_Float]
    depth: NDArray[_Float]
    points: NDArray[_Float]
    count: NDArray[np.int64]

class RayHitArray(NamedTuple):
    hit: NDArray[np.bool_]
    t: NDArray[_Float]
    point: NDArray[_Float]
    normal: NDArray[_Float]

class CastHitArray(NamedTuple):
    hit: NDArray[np.bool_]
    t: NDArray[_Float]
    point: NDArray[_Float]
    normal: NDArray[_Float]

class IndexHitArray(NamedTuple):
    hit: NDArray[np.bool_]
    t: NDArray[np.float64]
    point: NDArray[np.float64]
    normal: NDArray[np.float64]
    item: NDArray[np.int64]

class IndexCastArray(NamedTuple):
    hit: NDArray[np.bool_]
    t: NDArray[np.float64]
    point: NDArray[np.float64]
    normal: NDArray[np.float64]
    item: NDArray[np.int64]

class PointQueryArray(NamedTuple):
    point: NDArray[_Float]
    distance: NDArray[_Float]
    normal: NDArray[_Float]

class ShapeIndex:
    def __init__(self, arrays: _AnyArray | Sequence[_AnyArray], workers: int = 1) -> None: ...
    def __len__(self) -> int: ...
    @property
    def arrays(self) -> tuple[_AnyArray, ...]: ...
    @overload
    def locate(self, items: int) -> tuple[int, int]: ...
    @overload
    def locate(self, items: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    def locate(self, items: Any) -> Any: ...
    @overload
    def query(self, shapes: _AnyShape, workers: int | None = None) -> NDArray[np.int64]: ...
    @overload
    def query(self, shapes: _AnyArray, workers: int | None = None) -> NDArray[np.int64]: ...
    def query(self, shapes: Any, workers: int | None = None) -> NDArray[np.int64]: ...
    def raycast(
        self, origins: _PointLike | NDArray[Any], directions: _PointLike | NDArray[Any],
        max_t: float | NDArray[Any] = ..., workers: int | None = None, *,
        categories: _FilterLike = None, masks: _FilterLike = None, groups: _FilterLike = None,
    ) -> IndexHitArray: ...
    def cast(
        self, shapes: _AnyShape | _AnyArray, velocities: _PointLike | NDArray[Any],
        max_t: float | NDArray[Any] = 1.0, workers: int | None = None,
    ) -> IndexCastArray: ...
    def nearest(
        self, shapes_or_points: _AnyShape | _AnyArray | _PointLike | NDArray[Any], k: int = 1,
        max_distance: float = ..., workers: int | None = None, *,
        categories: _FilterLike = None, masks: _FilterLike = None, groups: _FilterLike = None,
    ) -> tuple[NDArray[np.int64], NDArray[np.float64]]: ...
    def refit(self, workers: int | None = None) -> None: ...
    def rebuild(self, workers: int | None = None) -> None: ...

# ------------------------------------------------------------------- pair queries
# one pair of shapes gives a scalar answer; a shape array on either side (the other a
# shape or an array of the same length) gives one row per pair

@overload
def collide(a: _AnyShape, b: _AnyShape, out: None = None, workers: int = 1) -> bool: ...
@overload
def collide(
    a: _AnyArray, b: _AnyShape | _AnyArray, out: NDArray[np.bool_] | None = None,
    workers: int = 1,
) -> NDArray[np.bool_]: ...
@overload
def collide(
    a: _AnyShape, b: _AnyArray, out: NDArray[np.bool_] | None = None, workers: int = 1
) -> NDArray[np.bool_]: ...
@overload
def distance(a: _AnyShape, b: _AnyShape, out: None = None, workers: int = 1) -> float: ...
@overload
def distance(
    a: _AnyArray, b: _AnyShape | _AnyArray, out: NDArray[_Float] | None = None,
    workers: int = 1,
) -> NDArray[_Float]: ...
@overload
def distance(
    a: _AnyShape, b: _AnyArray, out: NDArray[_Float] | None = None, workers: int = 1
) -> NDArray[_Float]: ...
@overload
def closest_points(a: _AnyShape, b: _AnyShape, workers: int = 1) -> Closest: ...
@overload
def closest_points(
    a: _AnyArray, b: _AnyShape | _AnyArray, workers: int = 1
) -> tuple[NDArray[_Float], NDArray[_Float], NDArray[_Float]]: ...
@overload
def closest_points(
    a: _AnyShape, b: _AnyArray, workers: int = 1
) -> tuple[NDArray[_Float], NDArray[_Float], NDArray[_Float]]: ...
@overload
def contact(
    a: _AnyShape, b: _AnyShape, workers: int = 1, *, pairs: None = None
) -> Contact | None: ...
@overload
def contact(
    a: _AnyArray, b: _AnyShape | _AnyArray, workers: int = 1, *,
    pairs: ArrayLike | None = None,
) -> ContactArray: ...
@overload
def contact(
    a: _AnyShape, b: _AnyArray, workers: int = 1, *, pairs: ArrayLike | None = None
) -> ContactArray: ...

# -------------------------------------------------------------- rays and sweeps

@overload
def raycast(
    shape: _AnyShape, origin: _PointLike, direction: _PointLike, max_t: float = ...,
    workers: int = 1,
) -> RayHit | None: ...
@overload
def raycast(
    shape: _AnyShape | _AnyArray, origin: ArrayLike, direction: ArrayLike,
    max_t: ArrayLike = ..., workers: int = 1,
) -> RayHitArray: ...
@overload
def time_of_impact(
    a: _AnyShape, velocity_a: _PointLike, b: _AnyShape, velocity_b: _PointLike,
    max_t: float = 1.0, workers: int = 1,
) -> float | None: ...
@overload
def time_of_impact(
    a: _AnyShape | _AnyArray, velocity_a: ArrayLike, b: _AnyShape | _AnyArray,
    velocity_b: ArrayLike, max_t: ArrayLike = 1.0, workers: int = 1,
) -> NDArray[_Float]: ...
@overload
def shape_cast(
    a: _AnyShape, velocity_a: _PointLike, b: _AnyShape, velocity_b: _PointLike,
    max_t: float = 1.0, workers: int = 1,
) -> CastHit | None: ...
@overload
def shape_cast(
    a: _AnyShape | _AnyArray, velocity_a: ArrayLike, b: _AnyShape | _AnyArray,
    velocity_b: ArrayLike, max_t: ArrayLike = 1.0, workers: int = 1,
) -> CastHitArray: ...

# ------------------------------------------------------------------------ mass

@overload
def mass_properties(shape: _AnyShape, density: float = 1.0, workers: int = 1) -> MassData: ...
@overload
def mass_properties(
    shape: _AnyArray, density: ArrayLike = 1.0, workers: int = 1
) -> tuple[NDArray[_Float], NDArray[_Float], NDArray[_Float]]: ...
# ------------------------------------------------------------- point queries

@overload
def point_query(shape: _AnyShape, point: _PointLike, workers: int = 1) -> PointQuery: ...
@overload
def point_query(
    shape: _AnyShape | _AnyArray, point: ArrayLike, workers: int = 1
) -> PointQueryArray: ...
@overload
def contains(
    shape: _AnyShape, point: _PointLike, out: None = None, workers: int = 1
) -> bool: ...
@overload
def contains(
    shape: _AnyShape | _AnyArray, point: ArrayLike, out: NDArray[np.bool_] | None = None,
    workers: int = 1,
) -> NDArray[np.bool_]: ...

# ----------------------------------------------------------------- primitives

@overload
def closest_point_on_segment(
    p: _PointLike, a: _PointLike, b: _PointLike, workers: int = 1
) -> tuple[_Point, float]: ...
@overload
def closest_point_on_segment(
    p: ArrayLike, a: ArrayLike, b: ArrayLike, workers: int = 1
) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
@overload
def closest_point_on_line(
    p: _PointLike, a: _PointLike, b: _PointLike, workers: int = 1
) -> tuple[_Point, float]: ...
@overload
def closest_point_on_line(
    p: ArrayLike, a: ArrayLike, b: ArrayLike, workers: int = 1
) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
@overload
def point_segment_distance(
    p: _PointLike, a: _PointLike, b: _PointLike, workers: int = 1
) -> float: ...
@overload
def point_segment_distance(
    p: ArrayLike, a: ArrayLike, b: ArrayLike, workers: int = 1
) -> NDArray[np.float64]: ...
@overload
def segment_segment_closest(
    a: _PointLike, b: _PointLike, c: _PointLike, d: _PointLike, workers: int = 1
) -> tuple[float, float, float, _Point, _Point]: ...
@overload
def segment_segment_closest(
    a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, workers: int = 1
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64],
           NDArray[np.float64], NDArray[np.float64]]: ...
@overload
def segment_segment_distance(
    a: _PointLike, b: _PointLike, c: _PointLike, d: _PointLike, workers: int = 1
) -> float: ...
@overload
def segment_segment_distance(
    a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, workers: int = 1
) -> NDArray[np.float64]: ...
@overload
def segments_intersect(
    a: _PointLike, b: _PointLike, c: _PointLike, d: _PointLike, workers: int = 1
) -> bool: ...
@overload
def segments_intersect(
    a: ArrayLike, b: ArrayLike, c: ArrayLike, d: ArrayLike, workers: int = 1
) -> NDArray[np.bool_]: ...
@overload
def orient2d(a: _PointLike, b: _PointLike, c: _PointLike, workers: int = 1) -> int: ...
@overload
def orient2d(
    a: ArrayLike, b: ArrayLike, c: ArrayLike, workers: int = 1
) -> NDArray[np.int8]: ...

# ------------------------------------------------------------------ broadphase

def overlapping_pairs(
    A: _AnyArray, B: _AnyArray | ShapeIndex | None = None, workers: int = 1
) -> NDArray[np.int64]: ...

# ------------------------------------------------------ moving and turning arrays
# an AABBArray turned is an OBBArray; every other array keeps its class

_Angle = float | ArrayLike
_Pivot = _PointLike | NDArray[Any] | None
_Arr = TypeVar("_Arr", CircleArray, CapsuleArray, SegmentArray, OBBArray, PolygonArray)
_AnyArr = TypeVar("_AnyArr", CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray,
                  PolygonArray)

@overload
def rotate(
    shapes: AABBArray, angle: _Angle, about: _Pivot = None, out: OBBArray | None = None,
    workers: int = 1,
) -> OBBArray: ...
@overload
def rotate(
    shapes: _Arr, angle: _Angle, about: _Pivot = None, out: _Arr | None = None,
    workers: int = 1,
) -> _Arr: ...
def translate(
    shapes: _AnyArr, offset: _PointLike | NDArray[Any], out: _AnyArr | None = None,
    workers: int = 1,
) -> _AnyArr: ...
