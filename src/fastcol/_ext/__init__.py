"""The compiled backend: Cython twins of the fastcol._ref modules, the same names.

The public functions over it are ``fastcol._api``'s; ``accelerate`` puts their C
entries in front of them (``entries.pyx``).
"""

from .._version import __version__
from . import batch, broadphase, contacts, geometry, index, mass, queries, shapes, sweeps
from .arrays import (
    AABBArray,
    CapsuleArray,
    CircleArray,
    OBBArray,
    PolygonArray,
    SegmentArray,
)
from .entries import accelerate
from .records import Closest, Contact, RayHit
from .._ref.records import MassData  # one named tuple for both backends: not a hot path
from .._batch import ContactArray, RayHitArray
from .._index import IndexHitArray
from .shapes import AABB, OBB, Capsule, Circle, Polygon, Segment
# point queries (issue 35)
from . import points
from .records import PointQuery
from .._batch import PointQueryArray

NAME = "compiled"
