cdef class Closest:
    cdef double pax, pay, pbx, pby, dist
    cdef tuple _tuple(self)


cdef Closest make_closest(double pax, double pay, double pbx, double pby, double dist)
