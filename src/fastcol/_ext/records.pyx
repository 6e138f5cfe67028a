"""Result records (compiled twin of fastcol._ref.records).

The reference returns named tuples; building one costs about ten times a bare call
into C.  These records hold C doubles, come from a free list, and build their tuples
only when a field is read, yet unpack, index, hash and compare exactly like the named
tuple of the reference (and compare equal to it).
"""

cimport cython
from cpython.object cimport PyObject_RichCompare

from fastcol._validate import as_finite, as_point


cdef Closest make_closest(double pax, double pay, double pbx, double pby, double dist):
    cdef Closest r = Closest.__new__(Closest)
    r.pax = pax
    r.pay = pay
    r.pbx = pbx
    r.pby = pby
    r.dist = dist
    return r


@cython.freelist(32)
@cython.final
cdef class Closest:
    """Closest points of two shapes and their distance.

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

    def _asdict(self):
        return {"point_a": self.point_a, "point_b": self.point_b, "distance": self.dist}

    def __len__(self):
        return 3

    def __getitem__(self, index):
        return self._tuple()[index]

    def __iter__(self):
        return iter(self._tuple())

    def __richcmp__(self, other, int op):
        if isinstance(other, Closest):
            return PyObject_RichCompare(self._tuple(), (<Closest>other)._tuple(), op)
        if isinstance(other, tuple):
            return PyObject_RichCompare(self._tuple(), other, op)
        return NotImplemented

    def __hash__(self):
        return hash(self._tuple())

    def __repr__(self):
        return (f"Closest(point_a={self.point_a!r}, point_b={self.point_b!r}, "
                f"distance={self.dist!r})")

    def __reduce__(self):
        return (Closest, self._tuple())
