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

from ._api import bind as _bind
from ._backend import select as _select
from ._names import PUBLIC

backend, _impl = _select()

# every public name over the selected backend (their types: __init__.pyi)
_public = _bind(_impl)
globals().update({name: getattr(_public, name) for name in PUBLIC})

__all__ = ["backend", *PUBLIC]

del _bind, _select, _public, PUBLIC
