"""The six shapes (compiled twin of fastcol._ref.shapes).

Extension types holding C doubles, so the query kernels read their fields directly.
Every assignment is validated like the constructor (fast path for Python floats,
otherwise fastcol._validate, which raises the reference's errors).  Shapes compare by
value and are unhashable; a Polygon's vertices are fixed.  See the reference module
for the full documentation of each class.

Each class docstring opens with its signature line, ``Name(params)`` then ``--``
(setup.py embeds signatures in that "clinic" form): CPython reads it as the type's
``__text_signature__``, so ``inspect.signature`` and ``help`` show the parameters.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport cos, fabs, remainder, sin

from .geometry cimport polygon_centroid, rotate_point
from .validate cimport finite, non_negative

from fastcol import _boxes, _polygon
from fastcol._transforms import TAU, as_rotation, rotated_ring
from fastcol._validate import check_order

# the pivot of a turn (the shape's own centroid when about is None) and the turn's
# cosine and sine, from the checked arguments
cdef int _turn(object angle, object about, double cx, double cy, double* q) except -1:
    # q (OUT): qx, qy, cos, sin, angle
    cdef double a
    angle, about = as_rotation(angle, about)
    a = angle
    if about is None:
        q[0] = cx
        q[1] = cy
    else:
        q[0] = about[0]
        q[1] = about[1]
    q[2] = cos(a)
    q[3] = sin(a)
    q[4] = a
    return 0


cdef class Shape:
    """Base of the six shapes: value equality, round-trip repr, pickling."""

    _fields = ()

    def _values(self):
        return tuple([getattr(self, f) for f in self._fields])

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __ne__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._values() != other._values()

    # equal shapes must hash equal, and these can change: unhashable, like list
    __hash__ = None

    def __repr__(self):
        args = ", ".join([f"{f}={getattr(self, f)!r}" for f in self._fields])
        return f"{type(self).__name__}({args})"

    def __reduce__(self):
        return (type(self), self._values())


cdef class Circle(Shape):
    """Circle(x, y, r)
--

    A disc of radius ``r`` centred on ``(x, y)``; ``r == 0`` is a point.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.Circle(1, 2, 0.5)
    Circle(x=1.0, y=2.0, r=0.5)
    """

    _fields = ("x", "y", "r")

    def __cinit__(self, *args, **kwargs):
        self.kind = CIRCLE

    def __init__(self, x, y, r):
        self._x = finite(x, "x")
        self._y = finite(y, "y")
        self._r = non_negative(r, "r")

    @property
    def x(self):
        return self._x

    @x.setter
    def x(self, value):
        self._x = finite(value, "x")

    @property
    def y(self):
        return self._y

    @y.setter
    def y(self, value):
        self._y = finite(value, "y")

    @property
    def r(self):
        return self._r

    @r.setter
    def r(self, value):
        self._r = non_negative(value, "r")

    def bounds(self):
        """The smallest AABB containing the circle."""
        return AABB(self._x - self._r, self._y - self._r, self._x + self._r, self._y + self._r)

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        cdef double ddx = finite(dx, "dx")
        cdef double ddy = finite(dy, "dy")
        return Circle(self._x + ddx, self._y + ddy, self._r)

    def rotated(self, angle, about=None):
        """A copy turned counter-clockwise by ``angle`` radians about ``about`` (default:
        its centre, which leaves it where it is).

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> fc.Circle(2, 0, 1).rotated(math.pi, about=(0, 0))
        Circle(x=-2.0, y=2.4492935982947064e-16, r=1.0)
        """
        cdef double q[5]
        cdef double x, y
        _turn(angle, about, self._x, self._y, q)
        rotate_point(self._x, self._y, q[0], q[1], q[2], q[3], &x, &y)
        return Circle(x, y, self._r)


cdef class _SegmentCore(Shape):
    """The validated ends ``(ax, ay)`` and ``(bx, by)`` that Segment and Capsule share."""

    @property
    def ax(self):
        return self._ax

    @ax.setter
    def ax(self, value):
        self._ax = finite(value, "ax")

    @property
    def ay(self):
        return self._ay

    @ay.setter
    def ay(self, value):
        self._ay = finite(value, "ay")

    @property
    def bx(self):
        return self._bx

    @bx.setter
    def bx(self, value):
        self._bx = finite(value, "bx")

    @property
    def by(self):
        return self._by

    @by.setter
    def by(self, value):
        self._by = finite(value, "by")

    cdef _set_ends(self, ax, ay, bx, by):
        self._ax = finite(ax, "ax")
        self._ay = finite(ay, "ay")
        self._bx = finite(bx, "bx")
        self._by = finite(by, "by")

    @property
    def a(self):
        """The end ``(ax, ay)``, a tuple (read-only: set ``ax`` and ``ay``)."""
        return (self._ax, self._ay)

    @property
    def b(self):
        """The end ``(bx, by)``, a tuple (read-only: set ``bx`` and ``by``)."""
        return (self._bx, self._by)

    cdef tuple _turned_ends(self, angle, about):
        # both ends turned about the pivot, by default the midpoint of the core
        cdef double q[5]
        cdef double ax, ay, bx, by
        _turn(angle, about, (self._ax + self._bx) * 0.5, (self._ay + self._by) * 0.5, q)
        rotate_point(self._ax, self._ay, q[0], q[1], q[2], q[3], &ax, &ay)
        rotate_point(self._bx, self._by, q[0], q[1], q[2], q[3], &bx, &by)
        return (ax, ay, bx, by)


cdef class Segment(_SegmentCore):
    """Segment(ax, ay, bx, by)
--

    The segment from ``(ax, ay)`` to ``(bx, by)``; ``a == b`` is a point.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.Segment(0, 0, 3, 4).bounds()
    AABB(min_x=0.0, min_y=0.0, max_x=3.0, max_y=4.0)
    """

    _fields = ("ax", "ay", "bx", "by")

    def __cinit__(self, *args, **kwargs):
        self.kind = SEGMENT

    def __init__(self, ax, ay, bx, by):
        self._set_ends(ax, ay, bx, by)

    @property
    def r(self):
        """Always 0.0: a segment is a capsule of radius zero."""
        return 0.0

    def bounds(self):
        """The smallest AABB containing the segment."""
        return AABB(min(self._ax, self._bx), min(self._ay, self._by),
                    max(self._ax, self._bx), max(self._ay, self._by))

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        cdef double ddx = finite(dx, "dx")
        cdef double ddy = finite(dy, "dy")
        return Segment(self._ax + ddx, self._ay + ddy, self._bx + ddx, self._by + ddy)

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


cdef class Capsule(_SegmentCore):
    """Capsule(ax, ay, bx, by, r)
--

    The segment ab swept by a disc of radius ``r``; ``a == b`` is a circle.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.Capsule(0, 0, 4, 0, 1).bounds()
    AABB(min_x=-1.0, min_y=-1.0, max_x=5.0, max_y=1.0)
    """

    _fields = ("ax", "ay", "bx", "by", "r")

    def __cinit__(self, *args, **kwargs):
        self.kind = CAPSULE

    def __init__(self, ax, ay, bx, by, r):
        self._set_ends(ax, ay, bx, by)
        self._r = non_negative(r, "r")

    @property
    def r(self):
        return self._r

    @r.setter
    def r(self, value):
        self._r = non_negative(value, "r")

    def bounds(self):
        """The smallest AABB containing the capsule."""
        cdef double r = self._r
        return AABB(min(self._ax, self._bx) - r, min(self._ay, self._by) - r,
                    max(self._ax, self._bx) + r, max(self._ay, self._by) + r)

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        cdef double ddx = finite(dx, "dx")
        cdef double ddy = finite(dy, "dy")
        return Capsule(self._ax + ddx, self._ay + ddy, self._bx + ddx, self._by + ddy, self._r)

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


cdef class AABB(Shape):
    """AABB(min_x, min_y, max_x, max_y)
--

    An axis-aligned box; zero width or height is allowed (a segment or a point).

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.AABB(0, 0, 2, 1).max_x
    2.0
    """

    _fields = ("min_x", "min_y", "max_x", "max_y")

    def __cinit__(self, *args, **kwargs):
        self.kind = AABB_KIND

    def __init__(self, min_x, min_y, max_x, max_y):
        cdef double x0 = finite(min_x, "min_x")
        cdef double y0 = finite(min_y, "min_y")
        cdef double x1 = finite(max_x, "max_x")
        cdef double y1 = finite(max_y, "max_y")
        if x0 > x1:
            check_order(x0, x1, "min_x", "max_x")
        if y0 > y1:
            check_order(y0, y1, "min_y", "max_y")
        self._min_x = x0
        self._min_y = y0
        self._max_x = x1
        self._max_y = y1

    @property
    def min_x(self):
        return self._min_x

    @min_x.setter
    def min_x(self, value):
        cdef double v = finite(value, "min_x")
        if v > self._max_x:
            check_order(v, self._max_x, "min_x", "max_x")
        self._min_x = v

    @property
    def min_y(self):
        return self._min_y

    @min_y.setter
    def min_y(self, value):
        cdef double v = finite(value, "min_y")
        if v > self._max_y:
            check_order(v, self._max_y, "min_y", "max_y")
        self._min_y = v

    @property
    def max_x(self):
        return self._max_x

    @max_x.setter
    def max_x(self, value):
        cdef double v = finite(value, "max_x")
        if self._min_x > v:
            check_order(self._min_x, v, "min_x", "max_x")
        self._max_x = v

    @property
    def max_y(self):
        return self._max_y

    @max_y.setter
    def max_y(self, value):
        cdef double v = finite(value, "max_y")
        if self._min_y > v:
            check_order(self._min_y, v, "min_y", "max_y")
        self._max_y = v

    def bounds(self):
        """A copy of the box itself."""
        return AABB(self._min_x, self._min_y, self._max_x, self._max_y)

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        cdef double ddx = finite(dx, "dx")
        cdef double ddy = finite(dy, "dy")
        return AABB(self._min_x + ddx, self._min_y + ddy, self._max_x + ddx, self._max_y + ddy)

    @property
    def vertices(self):
        """The four corners, counter-clockwise from ``(min_x, min_y)``, as a tuple of
        ``(x, y)`` tuples (read-only)."""
        return ((self._min_x, self._min_y), (self._max_x, self._min_y),
                (self._max_x, self._max_y), (self._min_x, self._max_y))

    def rotated(self, angle, about=None):
        """The box turned counter-clockwise by ``angle`` radians about ``about``
        (default: its centre): an `OBB`, of angle ``remainder(angle, 2*pi)``.

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> fc.AABB(0, 0, 4, 2).rotated(math.pi / 2)
        OBB(cx=2.0, cy=1.0, half_w=2.0, half_h=1.0, angle=1.5707963267948966)
        """
        cdef double q[5]
        cdef double x, y
        cdef double cx = (self._min_x + self._max_x) * 0.5
        cdef double cy = (self._min_y + self._max_y) * 0.5
        _turn(angle, about, cx, cy, q)
        rotate_point(cx, cy, q[0], q[1], q[2], q[3], &x, &y)
        return OBB(x, y, (self._max_x - self._min_x) * 0.5, (self._max_y - self._min_y) * 0.5,
                   remainder(q[4], TAU))


cdef class OBB(Shape):
    """OBB(cx, cy, half_w, half_h, angle=0.0)
--

    A rectangle centred on ``(cx, cy)``, half extents ``half_w`` and ``half_h`` along
    its own axes, rotated counter-clockwise by ``angle`` radians.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.OBB(0, 0, 2, 1).angle
    0.0
    """

    _fields = ("cx", "cy", "half_w", "half_h", "angle")

    def __cinit__(self, *args, **kwargs):
        self.kind = OBB_KIND

    def __init__(self, cx, cy, half_w, half_h, angle=0.0):
        self._cx = finite(cx, "cx")
        self._cy = finite(cy, "cy")
        self._half_w = non_negative(half_w, "half_w")
        self._half_h = non_negative(half_h, "half_h")
        self.angle = angle

    @property
    def cx(self):
        return self._cx

    @cx.setter
    def cx(self, value):
        self._cx = finite(value, "cx")

    @property
    def cy(self):
        return self._cy

    @cy.setter
    def cy(self, value):
        self._cy = finite(value, "cy")

    @property
    def half_w(self):
        return self._half_w

    @half_w.setter
    def half_w(self, value):
        self._half_w = non_negative(value, "half_w")

    @property
    def half_h(self):
        return self._half_h

    @half_h.setter
    def half_h(self, value):
        self._half_h = non_negative(value, "half_h")

    @property
    def angle(self):
        return self._angle

    @angle.setter
    def angle(self, value):
        # the cosine and sine are computed once, here (the same libm calls as math.cos)
        self._angle = finite(value, "angle")
        self._cos = cos(self._angle)
        self._sin = sin(self._angle)

    def bounds(self):
        """The smallest AABB containing the box."""
        cdef double ex = fabs(self._half_w * self._cos) + fabs(self._half_h * self._sin)
        cdef double ey = fabs(self._half_w * self._sin) + fabs(self._half_h * self._cos)
        return AABB(self._cx - ex, self._cy - ey, self._cx + ex, self._cy + ey)

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        cdef double ddx = finite(dx, "dx")
        cdef double ddy = finite(dy, "dy")
        return OBB(self._cx + ddx, self._cy + ddy, self._half_w, self._half_h, self._angle)

    @property
    def vertices(self):
        """The four corners, counter-clockwise from the one bottom-left in the box's
        own frame, as a tuple of ``(x, y)`` tuples (read-only), computed as the kernels
        compute them (narrowphase's ``convex_obb``)."""
        from .transforms import box_vertices

        return box_vertices(self._cx, self._cy, self._cos, self._sin, self._half_w,
                            self._half_h)

    @classmethod
    def from_corners(cls, points):
        """The box with these four corners, in ring order, either winding, from any
        corner (see the reference's ``OBB.from_corners``).

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.OBB.from_corners([(0, 0), (0, 2), (-4, 2), (-4, 0)])
        OBB(cx=-2.0, cy=1.0, half_w=1.0, half_h=2.0, angle=1.5707963267948966)
        """
        return cls(*_boxes.from_corners(points, "points"))

    def rotated(self, angle, about=None):
        """A copy turned counter-clockwise by ``angle`` radians about ``about``
        (default: its centre); the new angle is ``remainder(self.angle + angle, 2*pi)``.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.OBB(0, 0, 2, 1, angle=3.0).rotated(1.0)          # 4.0 - 2*pi
        OBB(cx=0.0, cy=0.0, half_w=2.0, half_h=1.0, angle=-2.2831853071795862)
        """
        cdef double q[5]
        cdef double x, y
        _turn(angle, about, self._cx, self._cy, q)
        rotate_point(self._cx, self._cy, q[0], q[1], q[2], q[3], &x, &y)
        return OBB(x, y, self._half_w, self._half_h,
                   remainder(self._angle + q[4], TAU))


cdef class Polygon(Shape):
    """Polygon(vertices)
--

    A convex polygon, stored counter-clockwise from its smallest ``(x, y)`` vertex.

    Repeated and exactly collinear vertices are dropped; a ring that is not convex or
    encloses no area is a ValueError.

    Examples
    --------
    >>> import fastcol as fc
    >>> fc.Polygon([(0, 0), (0, 2), (2, 2), (2, 0), (1, 0)])
    Polygon([(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)])
    """

    _fields = ("vertices",)

    def __cinit__(self, *args, **kwargs):
        self.kind = POLYGON
        self.n = 0
        self.xs = NULL
        self.ys = NULL

    def __dealloc__(self):
        PyMem_Free(self.xs)
        PyMem_Free(self.ys)

    def __init__(self, vertices):
        xs, ys = _polygon.normalize(_polygon.parse_points(vertices, "vertices"))
        self._set(xs, ys)

    cdef _set(self, xs, ys):
        cdef int n = len(xs)
        cdef int i
        cdef double* new_xs = <double*>PyMem_Malloc(n * sizeof(double))
        cdef double* new_ys = <double*>PyMem_Malloc(n * sizeof(double))
        if new_xs == NULL or new_ys == NULL:
            PyMem_Free(new_xs)
            PyMem_Free(new_ys)
            raise MemoryError()
        for i in range(n):
            new_xs[i] = xs[i]
            new_ys[i] = ys[i]
        self.x0 = min(xs)
        self.x1 = max(xs)
        self.y0 = min(ys)
        self.y1 = max(ys)
        PyMem_Free(self.xs)
        PyMem_Free(self.ys)
        self.xs = new_xs
        self.ys = new_ys
        self.n = n
        self._vertices = tuple(zip(xs, ys))

    @classmethod
    def hull(cls, points):
        """The convex hull of a set of points (collinear points dropped).

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
        cdef double x0 = self.xs[0], y0 = self.ys[0], x1 = self.xs[0], y1 = self.ys[0]
        cdef int i
        for i in range(1, self.n):
            x0 = min(x0, self.xs[i])
            x1 = max(x1, self.xs[i])
            y0 = min(y0, self.ys[i])
            y1 = max(y1, self.ys[i])
        return AABB(x0, y0, x1, y1)

    def translated(self, dx, dy):
        """A copy moved by ``(dx, dy)``."""
        cdef double ddx = finite(dx, "dx")
        cdef double ddy = finite(dy, "dy")
        cdef Polygon poly = Polygon.__new__(Polygon)
        cdef int i
        poly._set([self.xs[i] + ddx for i in range(self.n)],
                  [self.ys[i] + ddy for i in range(self.n)])
        return poly

    def rotated(self, angle, about=None):
        """A copy turned counter-clockwise by ``angle`` radians about ``about``
        (default: its area centroid), stored as ``Polygon`` stores it (the convex hull
        should rounding leave the ring not strictly convex).

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> tri = fc.Polygon([(0, 0), (3, 0), (0, 3)])            # centroid (1, 1)
        >>> [tuple(round(v, 12) for v in p) for p in tri.rotated(math.pi).vertices]
        [(-1.0, 2.0), (2.0, -1.0), (2.0, 2.0)]
        """
        cdef double q[5]
        cdef double cx, cy, x, y
        cdef int i
        polygon_centroid(<const double*>self.xs, <const double*>self.ys, 1, self.n, &cx, &cy)
        _turn(angle, about, cx, cy, q)
        xs = []
        ys = []
        for i in range(self.n):
            rotate_point(self.xs[i], self.ys[i], q[0], q[1], q[2], q[3], &x, &y)
            xs.append(x)
            ys.append(y)
        cdef Polygon poly = Polygon.__new__(Polygon)
        xs, ys = rotated_ring(xs, ys)
        poly._set(xs, ys)
        return poly


SHAPE_TYPES = (Circle, Capsule, Segment, AABB, OBB, Polygon)
# the base class of every shape of this backend (the façade tells shapes from arrays by it)
SHAPE = Shape
