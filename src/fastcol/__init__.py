"""fastcol: 2D collision detection for Python.

Overlap tests, distances and closest points between circles, capsules, segments,
axis-aligned boxes, oriented boxes and convex polygons, computed by typed Cython
kernels (or by the pure-Python reference where no compiled extension is available).

>>> import fastcol as fc
>>> fc.collide(fc.Circle(0, 0, 1), fc.Circle(2, 0, 1))   # touching counts
True
>>> fc.distance(fc.Circle(0, 0, 1), fc.AABB(3, -1, 4, 1))
2.0
"""

from ._backend import select as _select

backend, _impl = _select()

__version__ = _impl.__version__

Circle = _impl.Circle
Capsule = _impl.Capsule
Segment = _impl.Segment
AABB = _impl.AABB
OBB = _impl.OBB
Polygon = _impl.Polygon

CircleArray = _impl.CircleArray
CapsuleArray = _impl.CapsuleArray
SegmentArray = _impl.SegmentArray
AABBArray = _impl.AABBArray
OBBArray = _impl.OBBArray
PolygonArray = _impl.PolygonArray

Closest = _impl.Closest
Contact = _impl.Contact
RayHit = _impl.RayHit
ContactArray = _impl.ContactArray
RayHitArray = _impl.RayHitArray

collide = _impl.collide
distance = _impl.distance
closest_points = _impl.closest_points
contact = _impl.contact

closest_point_on_segment = _impl.closest_point_on_segment
closest_point_on_line = _impl.closest_point_on_line
point_segment_distance = _impl.point_segment_distance
segment_segment_closest = _impl.segment_segment_closest
segment_segment_distance = _impl.segment_segment_distance
segments_intersect = _impl.segments_intersect
orient2d = _impl.orient2d

raycast = _impl.raycast
time_of_impact = _impl.time_of_impact

overlapping_pairs = _impl.overlapping_pairs

__all__ = [
    "backend",
    "__version__",
    "Circle",
    "Capsule",
    "Segment",
    "AABB",
    "OBB",
    "Polygon",
    "CircleArray",
    "CapsuleArray",
    "SegmentArray",
    "AABBArray",
    "OBBArray",
    "PolygonArray",
    "Closest",
    "Contact",
    "RayHit",
    "ContactArray",
    "RayHitArray",
    "collide",
    "distance",
    "closest_points",
    "contact",
    "closest_point_on_segment",
    "closest_point_on_line",
    "point_segment_distance",
    "segment_segment_closest",
    "segment_segment_distance",
    "segments_intersect",
    "orient2d",
    "raycast",
    "time_of_impact",
    "overlapping_pairs",
]

del _select
