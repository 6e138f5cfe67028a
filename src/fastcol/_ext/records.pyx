"""Result records (compiled twin of fastcol._ref.records).

The reference returns named tuples; building one costs about ten times a bare call
into C.  These records hold C doubles, come from a free list (or are the last record
returned, refilled once its caller has dropped it: see the spare records below), and
build their tuples only when a field is read, yet unpack, index, hash and compare
exactly like the named tuple of the reference (and compare equal to it).

Each class docstring opens with its signature line, ``Name(params)`` then ``--``
(setup.py embeds signatures in that "clinic" form): CPython reads it as the type's
``__text_signature__``, so ``inspect.signature`` and ``help`` show the parameters.
"""

cimport cython
from cpython.object cimport PyObject, PyObject_RichCompare

from fastcol._validate import as_finite, as_point


# A spare record of each type: the last one a query returned, reused in place when
# nothing but this module refers to it any more (its reference count is 1: whoever
# received it has dropped it, so no one can see it change).  That is the common case
# of a game loop, which reads a record's fields and lets it go; it skips the
# allocation, the zeroing and the free that even a free list costs (a third of a
# round contact's time: `contact` of two circles 36 -> 24 ns with no record at all,
# bench_scalar.py).  CPython's own zip() and enumerate() reuse their result tuples
# the same way.  The check and the reuse run under the GIL with no Python code
# between them; a free-threaded build (no GIL) allocates every record instead.
cdef extern from "fc_records.h":
    bint FASTCOL_SPARE_RECORDS
    bint fastcol_sole(PyObject* o)


cdef Closest _spare_closest = None
cdef Contact _spare_contact = None
cdef RayHit _spare_rayhit = None


# What the three records share: each behaves as the tuple of its fields, which it
# builds in _tuple() (a named tuple's behaviour, without its cost).  The records have
# no common base class: Cython gives free lists only to classes without one, and a
# free list is what keeps a record near the cost of a bare call (a base class costs
# ~150 instructions more per record: an allocation, a memset and a free).

cdef object _tuple_of(object x):
    # the fields of a record as a tuple, or None for anything else
    if type(x) is Closest:
        return (<Closest>x)._tuple()
    if type(x) is Contact:
        return (<Contact>x)._tuple()
    if type(x) is RayHit:
        return (<RayHit>x)._tuple()
    return None


cdef object _compare(object mine, object self, object other, int op):
    # rich comparison of a record (its tuple: mine) with another record or a tuple
    if type(other) is type(self):
        return PyObject_RichCompare(mine, _tuple_of(other), op)
    if isinstance(other, tuple):
        return PyObject_RichCompare(mine, other, op)
    return NotImplemented


cdef Closest make_closest(double pax, double pay, double pbx, double pby, double dist):
    global _spare_closest
    cdef Closest r
    if FASTCOL_SPARE_RECORDS:
        if fastcol_sole(<PyObject*>_spare_closest):
            r = _spare_closest
        else:
            r = Closest.__new__(Closest)
            _spare_closest = r
    else:
        r = Closest.__new__(Closest)
    r.pax = pax
    r.pay = pay
    r.pbx = pbx
    r.pby = pby
    r.dist = dist
    return r


@cython.freelist(32)
@cython.final
cdef class Closest:
    """Closest(point_a, point_b, distance)
--

    Closest points of two shapes and their distance.

    ``point_a`` lies on (or in) the first shape and ``point_b`` on the second; when the
    shapes overlap or touch, both are the same point, inside both shapes, and
    ``distance`` is 0.0.  Unpacks, indexes and compares like the tuple
    ``(point_a, point_b, distance)``.
    """

    _fields = ("point_a", "point_b", "distance")

    def __init__(self, point_a, point_b, distance):
        self.pax, self.pay = as_point(point_a, "point_a")
        self.pbx, self.pby = as_point(point_b, "point_b")
        self.dist = as_finite(distance, "distance")

    @property
    def point_a(self):
        return (self.pax, self.pay)

    @property
    def point_b(self):
        return (self.pbx, self.pby)

    @property
    def distance(self):
        return self.dist

    cdef tuple _tuple(self):
        return ((self.pax, self.pay), (self.pbx, self.pby), self.dist)

    # the tuple behaviour (see _compare and _tuple_of above)
    def _asdict(self):
        return dict(zip(self._fields, self._tuple()))

    def __len__(self):
        return 3

    def __getitem__(self, index):
        return self._tuple()[index]

    def __iter__(self):
        return iter(self._tuple())

    def __richcmp__(self, other, int op):
        return _compare(self._tuple(), self, other, op)

    def __hash__(self):
        return hash(self._tuple())

    def __reduce__(self):
        return (type(self), self._tuple())

    def __repr__(self):
        return (f"Closest(point_a={self.point_a!r}, point_b={self.point_b!r}, "
                f"distance={self.dist!r})")


cdef Contact make_contact(double nx, double ny, double depth, int count,
                          double p0x, double p0y, double p1x, double p1y):
    # count is 1 or 2; the second point is ignored when count == 1
    global _spare_contact
    cdef Contact r
    if FASTCOL_SPARE_RECORDS:
        if fastcol_sole(<PyObject*>_spare_contact):
            r = _spare_contact
        else:
            r = Contact.__new__(Contact)
            _spare_contact = r
    else:
        r = Contact.__new__(Contact)
    r.nx = nx
    r.ny = ny
    r.depth = depth
    r.count = count
    r.p0x = p0x
    r.p0y = p0y
    r.p1x = p1x
    r.p1y = p1y
    return r


@cython.freelist(32)
@cython.final
cdef class Contact:
    """Contact(normal, depth, points)
--

    How two overlapping or touching shapes meet, from ``contact(a, b)``.

    ``normal`` is the unit vector from ``a`` towards ``b``; ``depth`` (>= 0.0, 0.0 when
    they only touch) is the shortest translation that separates them, so moving ``b``
    by ``normal * depth`` (or ``a`` by the opposite) leaves them touching; ``points``
    holds one or two contact points, each midway between the two surfaces.  Unpacks,
    indexes and compares like the tuple ``(normal, depth, points)``.
    """

    _fields = ("normal", "depth", "points")

    def __init__(self, normal, depth, points):
        self.nx, self.ny = as_point(normal, "normal")
        self.depth = as_finite(depth, "depth")
        pts = tuple(points)
        if not 1 <= len(pts) <= 2:
            raise ValueError(f"points must hold 1 or 2 points, got {len(pts)}")
        self.count = len(pts)
        self.p0x, self.p0y = as_point(pts[0], "points[0]")
        self.p1x = self.p1y = 0.0
        if self.count == 2:
            self.p1x, self.p1y = as_point(pts[1], "points[1]")

    @property
    def normal(self):
        return (self.nx, self.ny)

    @property
    def depth(self):
        return self.depth

    @property
    def points(self):
        return self._points()

    cdef tuple _points(self):
        if self.count == 2:
            return ((self.p0x, self.p0y), (self.p1x, self.p1y))
        return ((self.p0x, self.p0y),)

    cdef tuple _tuple(self):
        return ((self.nx, self.ny), self.depth, self._points())

    # the tuple behaviour (see _compare and _tuple_of above)
    def _asdict(self):
        return dict(zip(self._fields, self._tuple()))

    def __len__(self):
        return 3

    def __getitem__(self, index):
        return self._tuple()[index]

    def __iter__(self):
        return iter(self._tuple())

    def __richcmp__(self, other, int op):
        return _compare(self._tuple(), self, other, op)

    def __hash__(self):
        return hash(self._tuple())

    def __reduce__(self):
        return (type(self), self._tuple())

    def __repr__(self):
        return (f"Contact(normal={self.normal!r}, depth={self.depth!r}, "
                f"points={self._points()!r})")


cdef RayHit make_rayhit(double t, double px, double py, double nx, double ny):
    global _spare_rayhit
    cdef RayHit r
    if FASTCOL_SPARE_RECORDS:
        if fastcol_sole(<PyObject*>_spare_rayhit):
            r = _spare_rayhit
        else:
            r = RayHit.__new__(RayHit)
            _spare_rayhit = r
    else:
        r = RayHit.__new__(RayHit)
    r.t = t
    r.px = px
    r.py = py
    r.nx = nx
    r.ny = ny
    return r


@cython.freelist(32)
@cython.final
cdef class RayHit:
    """RayHit(t, point, normal)
--

    Where a ray first meets a shape, from ``raycast``.

    The hit is ``point = origin + t * direction``; ``normal`` is the unit surface normal
    facing the ray, or ``(0.0, 0.0)`` when the ray starts inside the shape (``t == 0``).
    Unpacks, indexes and compares like the tuple ``(t, point, normal)``.
    """

    _fields = ("t", "point", "normal")

    def __init__(self, t, point, normal):
        self.t = as_finite(t, "t")
        self.px, self.py = as_point(point, "point")
        self.nx, self.ny = as_point(normal, "normal")

    @property
    def t(self):
        return self.t

    @property
    def point(self):
        return (self.px, self.py)

    @property
    def normal(self):
        return (self.nx, self.ny)

    cdef tuple _tuple(self):
        return (self.t, (self.px, self.py), (self.nx, self.ny))

    # the tuple behaviour (see _compare and _tuple_of above)
    def _asdict(self):
        return dict(zip(self._fields, self._tuple()))

    def __len__(self):
        return 3

    def __getitem__(self, index):
        return self._tuple()[index]

    def __iter__(self):
        return iter(self._tuple())

    def __richcmp__(self, other, int op):
        return _compare(self._tuple(), self, other, op)

    def __hash__(self):
        return hash(self._tuple())

    def __reduce__(self):
        return (type(self), self._tuple())

    def __repr__(self):
        return f"RayHit(t={self.t!r}, point={self.point!r}, normal={self.normal!r})"


# ------------------------------------------------------------------- point queries

cdef PointQuery _spare_pointquery = None


cdef PointQuery make_pointquery(double px, double py, double dist, double nx, double ny):
    global _spare_pointquery
    cdef PointQuery r
    if FASTCOL_SPARE_RECORDS:
        if fastcol_sole(<PyObject*>_spare_pointquery):
            r = _spare_pointquery
        else:
            r = PointQuery.__new__(PointQuery)
            _spare_pointquery = r
    else:
        r = PointQuery.__new__(PointQuery)
    r.px = px
    r.py = py
    r.dist = dist
    r.nx = nx
    r.ny = ny
    return r


@cython.freelist(32)
@cython.final
cdef class PointQuery:
    """PointQuery(point, distance, normal)
--

    The boundary of a shape nearest to a point, from ``point_query``.

    ``point`` lies on the shape's boundary; ``distance`` is the signed distance from the
    boundary to the query point (negative inside the shape, 0.0 on the boundary);
    ``normal`` is the unit outward normal of the boundary at ``point``.  Unpacks,
    indexes and compares like the tuple ``(point, distance, normal)``.
    """

    _fields = ("point", "distance", "normal")

    def __init__(self, point, distance, normal):
        self.px, self.py = as_point(point, "point")
        self.dist = as_finite(distance, "distance")
        self.nx, self.ny = as_point(normal, "normal")

    @property
    def point(self):
        return (self.px, self.py)

    @property
    def distance(self):
        return self.dist

    @property
    def normal(self):
        return (self.nx, self.ny)

    cdef tuple _tuple(self):
        return ((self.px, self.py), self.dist, (self.nx, self.ny))

    # the tuple behaviour (as the records above; _tuple_of does not list this one)
    def _asdict(self):
        return dict(zip(self._fields, self._tuple()))

    def __len__(self):
        return 3

    def __getitem__(self, index):
        return self._tuple()[index]

    def __iter__(self):
        return iter(self._tuple())

    def __richcmp__(self, other, int op):
        if type(other) is PointQuery:
            return PyObject_RichCompare(self._tuple(), (<PointQuery>other)._tuple(), op)
        if isinstance(other, tuple):
            return PyObject_RichCompare(self._tuple(), other, op)
        return NotImplemented

    def __hash__(self):
        return hash(self._tuple())

    def __reduce__(self):
        return (type(self), self._tuple())

    def __repr__(self):
        return (f"PointQuery(point={self.point!r}, distance={self.dist!r}, "
                f"normal={self.normal!r})")


# -------------------------------------------------------------------- shape casts

cdef CastHit _spare_casthit = None


cdef CastHit make_casthit(double t, double px, double py, double nx, double ny):
    global _spare_casthit
    cdef CastHit r
    if FASTCOL_SPARE_RECORDS:
        if fastcol_sole(<PyObject*>_spare_casthit):
            r = _spare_casthit
        else:
            r = CastHit.__new__(CastHit)
            _spare_casthit = r
    else:
        r = CastHit.__new__(CastHit)
    r.t = t
    r.px = px
    r.py = py
    r.nx = nx
    r.ny = ny
    return r


@cython.freelist(32)
@cython.final
cdef class CastHit:
    """CastHit(t, point, normal)
--

    Where two translating shapes first touch, from ``shape_cast``.

    ``t`` is ``time_of_impact``'s time; ``point`` is where the moved shapes touch at
    ``t``; ``normal`` is the unit normal there from ``a`` towards ``b`` (for shapes
    already colliding, ``t == 0.0`` with ``contact``'s normal and point).  Unpacks,
    indexes and compares like the tuple ``(t, point, normal)``.

    Examples
    --------
    >>> import fastcol as fc
    >>> t, point, normal = fc.shape_cast(fc.Circle(0, 0, 1), (1, 0), fc.Circle(4, 0, 1), (0, 0), max_t=5)
    >>> t, point, normal
    (2.0, (3.0, 0.0), (1.0, 0.0))
    """

    _fields = ("t", "point", "normal")

    def __init__(self, t, point, normal):
        self.t = as_finite(t, "t")
        self.px, self.py = as_point(point, "point")
        self.nx, self.ny = as_point(normal, "normal")

    @property
    def t(self):
        return self.t

    @property
    def point(self):
        return (self.px, self.py)

    @property
    def normal(self):
        return (self.nx, self.ny)

    cdef tuple _tuple(self):
        return (self.t, (self.px, self.py), (self.nx, self.ny))

    # the tuple behaviour (as the records above; _tuple_of does not list this one)
    def _asdict(self):
        return dict(zip(self._fields, self._tuple()))

    def __len__(self):
        return 3

    def __getitem__(self, index):
        return self._tuple()[index]

    def __iter__(self):
        return iter(self._tuple())

    def __richcmp__(self, other, int op):
        if type(other) is CastHit:
            return PyObject_RichCompare(self._tuple(), (<CastHit>other)._tuple(), op)
        if isinstance(other, tuple):
            return PyObject_RichCompare(self._tuple(), other, op)
        return NotImplemented

    def __hash__(self):
        return hash(self._tuple())

    def __reduce__(self):
        return (type(self), self._tuple())

    def __repr__(self):
        return f"CastHit(t={self.t!r}, point={self.point!r}, normal={self.normal!r})"
