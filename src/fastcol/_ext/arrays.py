"""Shape arrays whose items are the compiled backend's shapes (classes: ``fastcol._arrays``)."""

from __future__ import annotations

from .. import _arrays
from .shapes import AABB, OBB, Capsule, Circle, Polygon, Segment

CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray, PolygonArray = _arrays.bind(
    __name__, Circle, Capsule, Segment, AABB, OBB, Polygon
)

ARRAY_TYPES = (CircleArray, CapsuleArray, SegmentArray, AABBArray, OBBArray, PolygonArray)
