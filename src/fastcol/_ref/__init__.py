"""The pure-Python reference backend: the same names and behaviour as the compiled one.

It is the fallback where the extension is missing and the oracle the compiled code is
tested against.  Each module mirrors the ``_ext`` module of the same name.
"""

from .._names import PUBLIC
from .._version import __version__
from .geometry import (
    closest_point_on_line,
    closest_point_on_segment,
    point_segment_distance,
    segment_segment_closest,
    segment_segment_distance,
    segments_intersect,
    orient2d,
)
from .arrays import (
    AABBArray,
    CapsuleArray,
    CircleArray,
    OBBArray,
    PolygonArray,
    SegmentArray,
)
from .contacts import contact
from .queries import closest_points, collide, distance
from .records import Closest, Contact, RayHit
from .._batch import ContactArray, RayHitArray
from .shapes import AABB, OBB, Capsule, Circle, Polygon, Segment
from .sweeps import raycast, time_of_impact
from .broadphase import overlapping_pairs

__all__ = list(PUBLIC)
