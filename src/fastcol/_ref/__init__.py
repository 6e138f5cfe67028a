"""The pure-Python reference backend: the same kernels and behaviour as the compiled one.

It is the fallback where the extension is missing and the oracle the compiled code is
tested against.  Each module mirrors the ``_ext`` module of the same name; the public
functions over it are ``fastcol._api``'s.
"""

from .._version import __version__
from . import (batch, broadphase, contacts, geometry, index, mass, points, queries, shapes,
               sweeps, transforms)
from .arrays import (
    AABBArray,
    CapsuleArray,
    CircleArray,
    OBBArray,
    PolygonArray,
    SegmentArray,
)
from .records import CastHit, Closest, Contact, MassData, PointQuery, RayHit
from .._batch import CastHitArray, ContactArray, PointQueryArray, RayHitArray
from .._index import IndexCastArray, IndexHitArray
from .shapes import AABB, OBB, Capsule, Circle, Polygon, Segment

NAME = "reference"
