"""The six shapes: Circle, Capsule, Segment, AABB, OBB and Polygon.

Small mutable objects with float attributes named as the constructor's arguments.
Every assignment is validated like the constructor, so a shape is always valid (finite
numbers, radii and half extents >= 0, ``min <= max``) and the kernels need not check.
Shapes compare by value and are therefore unhashable, like lists.  A Polygon is the
exception to mutability: its vertices are fixed (build a new one, or ``translated``).
"""

from __future__ import annotations

import math

from .. import _boxes, _polygon
from .._transforms import TAU, as_rotation, rotated_ring
from .._validate import as_finite, as_non_negative, check_order
from .geometry import polygon_centroid, rotate_point

# kind codes, in the order that canonicalises a pair (see queries.py)
CIRCLE, CAPSULE, SEGMENT, AABB_KIND, OBB_KIND, POLYGON = range(6)


class _Field:
    """A validated float attribute stored in the slot ``_<name>``."""

    __slots__ = ("name", "slot", "check")

    def __init__(self, check):
        self.check = check

    def __set_name__(self, owner, name):
        self.name = name
        self.slot = "_" + name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return getattr(obj, self.slot)

    def __set__(self, obj, value):
        setattr(obj, self.slot, self.check(value, self.name))


class _Shape:
    __slots__ = ()
    _fields: tuple[str, ...] = ()
    kind = -1

    def _values(self):
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __ne__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._values() != other._values()

    # equal shapes must hash equal, and these can change: unhashable, like list
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self):
        args = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({args})"

    def __reduce__(self):
        return (type(self), self._values())


class Circle(_Shape):
    """A disc of radius ``r`` centred on ``(x, y)``; ``r == 0`` is a point.

    Examples
    --------
    >>> import fastcol as fc
    >>> c = fc.Circle(1, 2, 0.5)
    >>> c
    Circle(x=1.0, y=2.0, r=0.5)
    >>> c.bounds()
    AABB(min_x=0.5, min_y=1.5, max_x=1.5, max_y=2.5)
    """

    __slots__ = ("_x", "_y", "_r")
    _fields = ("x", "y", "r")
    kind = CIRCLE
    x = _Field(as_finite)
    y = _Field(as_finite)
    r = _Field(as_non_negative)

    def __init__(self, x, y, r):
        self.x = x
        self.y = y
        self.r = r

    def bounds(self):
        """The smallest AABB containing the circle."""
        return AABB(self._x - self._r, self._y - self._r, self._x + self._r, self._y + self._r)

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        dx = as_finite(dx, "dx")
        dy = as_finite(dy, "dy")
        return Circle(self._x + dx, self._y + dy, self._r)

    def rotated(self, angle, about=None):
        """A copy turned counter-clockwise by ``angle`` radians about ``about``.

        Parameters
        ----------
        angle : float
            Radians, counter-clockwise; finite.
        about : (x, y) pair of floats, optional
            The pivot; None (default) turns the circle about its centre, which leaves
            it where it is.

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> fc.Circle(2, 0, 1).rotated(math.pi, about=(0, 0))
        Circle(x=-2.0, y=2.4492935982947064e-16, r=1.0)
        >>> fc.Circle(2, 0, 1).rotated(1.0)
        Circle(x=2.0, y=0.0, r=1.0)
        """
        angle, about = as_rotation(angle, about)
        qx, qy = (self._x, self._y) if about is None else about
        x, y = rotate_point(self._x, self._y, qx, qy, math.cos(angle), math.sin(angle))
        return Circle(x, y, self._r)


class _SegmentCore(_Shape):
    """The validated ends ``(ax, ay)`` and ``(bx, by)`` that Segment and Capsule share."""

    __slots__ = ("_ax", "_ay", "_bx", "_by")
    ax = _Field(as_finite)
    ay = _Field(as_finite)
    bx = _Field(as_finite)
    by = _Field(as_finite)

    @property
    def a(self):
        """The end ``(ax, ay)``, a tuple (read-only: set ``ax`` and ``ay``)."""
        return (self._ax, self._ay)

    @property
    def b(self):
        """The end ``(bx, by)``, a tuple (read-only: set ``bx`` and ``by``)."""
        return (self._bx, self._by)

    def _turned_ends(self, angle, about):
        # both ends turned about the pivot, by default the midpoint of the core
        angle, about = as_rotation(angle, about)
        if about is None:
            qx, qy = (self._ax + self._bx) * 0.5, (self._ay + self._by) * 0.5
        else:
            qx, qy = about
        c = math.cos(angle)
        s = math.sin(angle)
        return (rotate_point(self._ax, self._ay, qx, qy, c, s)
                + rotate_point(self._bx, self._by, qx, qy, c, s))


class Segment(_SegmentCore):
    """The segment from ``(ax, ay)`` to ``(bx, by)``; ``a == b`` is a point.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.Segment(0, 0, 3, 4).bounds()
    AABB(min_x=0.0, min_y=0.0, max_x=3.0, max_y=4.0)
    """

    __slots__ = ()
    _fields = ("ax", "ay", "bx", "by")
    kind = SEGMENT

    def __init__(self, ax, ay, bx, by):
        self.ax = ax
        self.ay = ay
        self.bx = bx
        self.by = by

    @property
    def r(self):
        """Always 0.0: a segment is a capsule of radius zero."""
        return 0.0

    def bounds(self):
        """The smallest AABB containing the segment."""
        return AABB(
            min(self._ax, self._bx),
            min(self._ay, self._by),
            max(self._ax, self._bx),
            max(self._ay, self._by),
        )

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        dx = as_finite(dx, "dx")
        dy = as_finite(dy, "dy")
        return Segment(self._ax + dx, self._ay + dy, self._bx + dx, self._by + dy)

    def rotated(self, angle, about=None):
        """A copy turned counter-clockwise by ``angle`` radians about ``about``
        (default: the midpoint), both ends turned.

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> s = fc.Segment(0, 0, 2, 0).rotated(math.pi / 2)     # about (1, 0)
        >>> [round(v, 12) for v in s.a + s.b]
        [1.0, -1.0, 1.0, 1.0]
        """
        return Segment(*self._turned_ends(angle, about))


class Capsule(_SegmentCore):
    """The segment ab swept by a disc of radius ``r``; ``a == b`` is a circle.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.Capsule(0, 0, 4, 0, 1).bounds()
    AABB(min_x=-1.0, min_y=-1.0, max_x=5.0, max_y=1.0)
    """

    __slots__ = ("_r",)
    _fields = ("ax", "ay", "bx", "by", "r")
    kind = CAPSULE
    r = _Field(as_non_negative)

    def __init__(self, ax, ay, bx, by, r):
        self.ax = ax
        self.ay = ay
        self.bx = bx
        self.by = by
        self.r = r

    def bounds(self):
        """The smallest AABB containing the capsule."""
        r = self._r
        return AABB(
            min(self._ax, self._bx) - r,
            min(self._ay, self._by) - r,
            max(self._ax, self._bx) + r,
            max(self._ay, self._by) + r,
        )

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        dx = as_finite(dx, "dx")
        dy = as_finite(dy, "dy")
        return Capsule(self._ax + dx, self._ay + dy, self._bx + dx, self._by + dy, self._r)

    def rotated(self, angle, about=None):
        """A copy turned counter-clockwise by ``angle`` radians about ``about``
        (default: the midpoint of its core), both ends turned, the radius kept.

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> cap = fc.Capsule(0, 0, 4, 0, 1).rotated(math.pi, about=(0, 0))
        >>> cap.b, cap.r
        ((-4.0, 4.898587196589413e-16), 1.0)
        """
        return Capsule(*self._turned_ends(angle, about), self._r)


class AABB(_Shape):
    """An axis-aligned box; zero width or height is allowed (a segment or a point).

    Examples
    --------
    >>> import fastcol as fc
    >>> box = fc.AABB(0, 0, 2, 1)
    >>> box.max_x
    2.0
    >>> fc.AABB(1, 0, 0, 1)
    Traceback (most recent call last):
    ...
    ValueError: min_x must be <= max_x, got 1.0 > 0.0
    """

    __slots__ = ("_min_x", "_min_y", "_max_x", "_max_y")
    _fields = ("min_x", "min_y", "max_x", "max_y")
    kind = AABB_KIND

    def __init__(self, min_x, min_y, max_x, max_y):
        min_x = as_finite(min_x, "min_x")
        min_y = as_finite(min_y, "min_y")
        max_x = as_finite(max_x, "max_x")
        max_y = as_finite(max_y, "max_y")
        check_order(min_x, max_x, "min_x", "max_x")
        check_order(min_y, max_y, "min_y", "max_y")
        self._min_x = min_x
        self._min_y = min_y
        self._max_x = max_x
        self._max_y = max_y

    @property
    def min_x(self):
        return self._min_x

    @min_x.setter
    def min_x(self, value):
        value = as_finite(value, "min_x")
        check_order(value, self._max_x, "min_x", "max_x")
        self._min_x = value

    @property
    def min_y(self):
        return self._min_y

    @min_y.setter
    def min_y(self, value):
        value = as_finite(value, "min_y")
        check_order(value, self._max_y, "min_y", "max_y")
        self._min_y = value

    @property
    def max_x(self):
        return self._max_x

    @max_x.setter
    def max_x(self, value):
        value = as_finite(value, "max_x")
        check_order(self._min_x, value, "min_x", "max_x")
        self._max_x = value

    @property
    def max_y(self):
        return self._max_y

    @max_y.setter
    def max_y(self, value):
        value = as_finite(value, "max_y")
        check_order(self._min_y, value, "min_y", "max_y")
        self._max_y = value

    def bounds(self):
        """A copy of the box itself."""
        return AABB(self._min_x, self._min_y, self._max_x, self._max_y)

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        dx = as_finite(dx, "dx")
        dy = as_finite(dy, "dy")
        return AABB(self._min_x + dx, self._min_y + dy, self._max_x + dx, self._max_y + dy)

    @property
    def vertices(self):
        """The four corners, counter-clockwise from ``(min_x, min_y)``, as a tuple of
        ``(x, y)`` tuples (read-only).

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.AABB(0, 0, 2, 1).vertices
        ((0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0))
        """
        x0, y0, x1, y1 = self._min_x, self._min_y, self._max_x, self._max_y
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    def rotated(self, angle, about=None):
        """The box turned counter-clockwise by ``angle`` radians about ``about``
        (default: its centre): an `OBB`.

        Its centre turns; its half extents are half the width and height; its angle
        is ``remainder(angle, 2*pi)``, in ``[-pi, pi]``.

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> fc.AABB(0, 0, 4, 2).rotated(math.pi / 2)
        OBB(cx=2.0, cy=1.0, half_w=2.0, half_h=1.0, angle=1.5707963267948966)
        """
        angle, about = as_rotation(angle, about)
        cx = (self._min_x + self._max_x) * 0.5
        cy = (self._min_y + self._max_y) * 0.5
        qx, qy = (cx, cy) if about is None else about
        x, y = rotate_point(cx, cy, qx, qy, math.cos(angle), math.sin(angle))
        return OBB(x, y, (self._max_x - self._min_x) * 0.5, (self._max_y - self._min_y) * 0.5,
                   math.remainder(angle, TAU))


class OBB(_Shape):
    """A rectangle centred on ``(cx, cy)`` with half extents ``half_w`` along its own x
    axis and ``half_h`` along its y axis, rotated counter-clockwise by ``angle`` radians.

    The cosine and sine of ``angle`` are computed once, when it is set.

    Examples
    --------
    >>> import fastcol as fc
    >>> import math
    >>> box = fc.OBB(0, 0, 2, 1, angle=math.pi / 2)
    >>> [round(v, 12) for v in box.bounds()._values()]
    [-1.0, -2.0, 1.0, 2.0]
    """

    __slots__ = ("_cx", "_cy", "_half_w", "_half_h", "_angle", "_cos", "_sin")
    _fields = ("cx", "cy", "half_w", "half_h", "angle")
    kind = OBB_KIND
    cx = _Field(as_finite)
    cy = _Field(as_finite)
    half_w = _Field(as_non_negative)
    half_h = _Field(as_non_negative)

    def __init__(self, cx, cy, half_w, half_h, angle=0.0):
        self.cx = cx
        self.cy = cy
        self.half_w = half_w
        self.half_h = half_h
        self.angle = angle

    @property
    def angle(self):
        return self._angle

    @angle.setter
    def angle(self, value):
        value = as_finite(value, "angle")
        self._angle = value
        self._cos = math.cos(value)
        self._sin = math.sin(value)

    def bounds(self):
        """The smallest AABB containing the box."""
        ex = abs(self._half_w * self._cos) + abs(self._half_h * self._sin)
        ey = abs(self._half_w * self._sin) + abs(self._half_h * self._cos)
        return AABB(self._cx - ex, self._cy - ey, self._cx + ex, self._cy + ey)

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        dx = as_finite(dx, "dx")
        dy = as_finite(dy, "dy")
        return OBB(self._cx + dx, self._cy + dy, self._half_w, self._half_h, self._angle)

    @property
    def vertices(self):
        """The four corners, counter-clockwise from the one bottom-left in the box's
        own frame, as a tuple of ``(x, y)`` tuples (read-only).

        Computed as the kernels compute them (``narrowphase.convex_local``, a side
        thinner than ``2**-48`` of the box's magnitude flattened) with the origin at
        ``(0, 0)``.  A query computes them relative to a local origin near the two
        shapes, so the corners it sees equal these within rounding (exactly when the
        origin is the same, as for a box centred on ``(0, 0)``).

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.OBB(1, 1, 2, 1).vertices
        ((-1.0, 0.0), (3.0, 0.0), (3.0, 2.0), (-1.0, 2.0))
        """
        from .narrowphase import convex_local

        cv = convex_local(self, 0.0, 0.0)
        return tuple(zip(cv.xs, cv.ys))

    @classmethod
    def from_corners(cls, points):
        """The box with these four corners.

        Parameters
        ----------
        points : (4, 2) array_like
            The corners in ring order, either winding, from any corner.

        Returns
        -------
        OBB
            Centred on the corners' mean; ``half_w`` is half the edge from the first
            corner to the next (once the ring is counter-clockwise), ``half_h`` half the
            next edge, ``angle`` the direction of that first edge.

        Raises
        ------
        ValueError
            Unless there are exactly four finite corners of a rectangle: opposite edges
            and diagonals of equal lengths, and square corners, each within ``2**-33``
            of the longer side (plus the rounding of the coordinates themselves).

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.OBB.from_corners([(0, 0), (0, 2), (-4, 2), (-4, 0)])   # a laser beam
        OBB(cx=-2.0, cy=1.0, half_w=1.0, half_h=2.0, angle=1.5707963267948966)
        >>> fc.OBB.from_corners([(0, 0), (4, 0), (4, 2), (0, 2.5)])
        Traceback (most recent call last):
        ...
        ValueError: points must be the corners of a rectangle (within 2**-33 of its size): opposite edges differ in length
        """
        return cls(*_boxes.from_corners(points, "points"))

    def rotated(self, angle, about=None):
        """A copy turned counter-clockwise by ``angle`` radians about ``about``
        (default: its centre).

        The centre turns; the new angle is ``remainder(self.angle + angle, 2*pi)``
        (IEEE remainder, in ``[-pi, pi]``): a box turned every frame keeps an angle
        of a few radians, and its digits.

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> fc.OBB(0, 0, 2, 1, angle=3.0).rotated(1.0)          # 4.0 - 2*pi
        OBB(cx=0.0, cy=0.0, half_w=2.0, half_h=1.0, angle=-2.2831853071795862)
        >>> fc.OBB(1, 0, 2, 1).rotated(math.pi / 2, about=(0, 0)).cx
        6.123233995736766e-17
        """
        angle, about = as_rotation(angle, about)
        qx, qy = (self._cx, self._cy) if about is None else about
        x, y = rotate_point(self._cx, self._cy, qx, qy, math.cos(angle), math.sin(angle))
        return OBB(x, y, self._half_w, self._half_h, math.remainder(self._angle + angle, TAU))


class Polygon(_Shape):
    """A convex polygon.

    Parameters
    ----------
    vertices : (N, 2) array_like
        The corners in either winding.  Repeated and exactly collinear vertices are
        dropped; the polygon is stored counter-clockwise starting at its
        lexicographically smallest vertex.

    Raises
    ------
    ValueError
        If the ring is not convex or encloses no area (fewer than 3 vertices left).

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.Polygon([(0, 0), (0, 2), (2, 2), (2, 0), (1, 0)])   # clockwise, (1, 0) collinear
    Polygon([(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)])
    """

    __slots__ = ("_xs", "_ys", "_vertices")
    _fields = ("vertices",)
    kind = POLYGON

    def __init__(self, vertices):
        xs, ys = _polygon.normalize(_polygon.parse_points(vertices, "vertices"))
        self._set(xs, ys)

    def _set(self, xs, ys):
        self._xs = xs
        self._ys = ys
        self._vertices = tuple(zip(xs, ys))

    @classmethod
    def _trusted(cls, xs, ys):
        """A polygon from vertices already normalised (translation keeps them so)."""
        poly = cls.__new__(cls)
        poly._set(tuple(xs), tuple(ys))
        return poly

    @classmethod
    def hull(cls, points):
        """The convex hull of a set of points.

        Parameters
        ----------
        points : (N, 2) array_like
            At least three points not all on one line.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.Polygon.hull([(0, 0), (1, 1), (2, 0), (1, 3), (1, 0.5)])
        Polygon([(0.0, 0.0), (2.0, 0.0), (1.0, 3.0)])
        """
        return cls(_polygon.hull(_polygon.parse_points(points, "points"), "points"))

    @property
    def vertices(self):
        """The corners, counter-clockwise, as a tuple of ``(x, y)`` tuples (read-only)."""
        return self._vertices

    def __repr__(self):
        return f"Polygon({list(self._vertices)!r})"

    def __reduce__(self):
        return (Polygon, (list(self._vertices),))

    def bounds(self):
        """The smallest AABB containing the polygon."""
        return AABB(min(self._xs), min(self._ys), max(self._xs), max(self._ys))

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        dx = as_finite(dx, "dx")
        dy = as_finite(dy, "dy")
        return Polygon._trusted([x + dx for x in self._xs], [y + dy for y in self._ys])

    def rotated(self, angle, about=None):
        """A copy turned counter-clockwise by ``angle`` radians about ``about``
        (default: its area centroid).

        Every vertex turns; the ring is stored as ``Polygon`` stores it (from its
        smallest vertex).  Should rounding leave the turned ring not strictly convex
        (nearly collinear vertices), it is replaced by its convex hull (the vertex
        that rounded inwards dropped).

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> tri = fc.Polygon([(0, 0), (3, 0), (0, 3)])            # centroid (1, 1)
        >>> [tuple(round(v, 12) for v in p) for p in tri.rotated(math.pi).vertices]
        [(-1.0, 2.0), (2.0, -1.0), (2.0, 2.0)]
        """
        angle, about = as_rotation(angle, about)
        xs = self._xs
        ys = self._ys
        qx, qy = polygon_centroid(xs, ys, len(xs)) if about is None else about
        c = math.cos(angle)
        s = math.sin(angle)
        turned = [rotate_point(x, y, qx, qy, c, s) for x, y in zip(xs, ys)]
        return Polygon._trusted(*rotated_ring([p[0] for p in turned], [p[1] for p in turned]))


SHAPE_TYPES = (Circle, Capsule, Segment, AABB, OBB, Polygon)
# the base class of every shape of this backend (the façade tells shapes from arrays by it)
SHAPE = _Shape
