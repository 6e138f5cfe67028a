cdef class Closest:
    cdef double pax, pay, pbx, pby, dist
    cdef tuple _tuple(self)


cdef Closest make_closest(double pax, double pay, double pbx, double pby, double dist)


cdef class Contact:
    cdef double nx, ny, depth
    cdef int count
    cdef double p0x, p0y, p1x, p1y
    cdef tuple _points(self)
    cdef tuple _tuple(self)


cdef Contact make_contact(double nx, double ny, double depth, int count,
                          double p0x, double p0y, double p1x, double p1y)


cdef class RayHit:
    cdef double t, px, py, nx, ny
    cdef tuple _tuple(self)


cdef RayHit make_rayhit(double t, double px, double py, double nx, double ny)


cdef class PointQuery:
    cdef double px, py, dist, nx, ny
    cdef tuple _tuple(self)


cdef PointQuery make_pointquery(double px, double py, double dist, double nx, double ny)


cdef class CastHit:
    cdef double t, px, py, nx, ny
    cdef tuple _tuple(self)


cdef CastHit make_casthit(double t, double px, double py, double nx, double ny)
