"""The compiled backend: Cython twins of the fastcol._ref modules, the same names.

The public functions over it are ``fastcol._api``'s; ``accelerate`` puts their C
entries in front of them (``entries.pyx``).
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
from .entries import accelerate
from .records import CastHit, Closest, Contact, PointQuery, RayHit
from .._ref.records import MassData  # one named tuple for both backends: not a hot path
from .._batch import CastHitArray, ContactArray, PointQueryArray, RayHitArray
from .._index import IndexCastArray, IndexHitArray
from .shapes import AABB, OBB, Capsule, Circle, Polygon, Segment

NAME = "compiled"
