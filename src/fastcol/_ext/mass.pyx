"""Mass, centroid and polar moment of inertia (compiled twin of fastcol._ref.mass).

The same closed forms in the same order as the reference (see its docstring), on C
doubles; ``mass_rows`` answers a shape array row by row without the GIL.
"""

from libc.math cimport M_PI, hypot, isfinite, NAN

from cython cimport floating

from .batch cimport Buffers
from .pool cimport run_rows, slots_for
from .shapes cimport (
    AABB, AABB_KIND, CAPSULE, CIRCLE, OBB, OBB_KIND, POLYGON, SEGMENT,
    Capsule, Circle, Polygon, Shape, _SegmentCore,
)

import numpy as np

from fastcol import _batch
from fastcol._ref.records import MassData

# a half disc's centroid lies this many radii from its flat side
cdef double HALF_DISC = 4.0 / (3.0 * M_PI)


cdef struct Mass:
    double mass, cx, cy, inertia


cdef inline Mass circle_mass(double x, double y, double r, double density) noexcept nogil:
    cdef Mass m
    m.mass = density * (M_PI * r * r)
    m.cx = x
    m.cy = y
    m.inertia = m.mass * (0.5 * r * r)
    return m


cdef inline Mass capsule_mass(double ax, double ay, double bx, double by, double r,
                              double density) noexcept nogil:
    cdef Mass m
    cdef double length = hypot(bx - ax, by - ay)
    cdef double box = density * (2.0 * r * length)
    cdef double disc = density * (M_PI * r * r)
    m.inertia = (box * (length * length + 4.0 * r * r) / 12.0
                 + disc * (0.5 * r * r + 0.25 * length * length + length * (HALF_DISC * r)))
    m.mass = box + disc
    m.cx = (ax + bx) * 0.5
    m.cy = (ay + by) * 0.5
    return m


cdef inline Mass box_mass(double cx, double cy, double half_w, double half_h,
                          double density) noexcept nogil:
    cdef Mass m
    m.mass = density * (4.0 * half_w * half_h)
    m.cx = cx
    m.cy = cy
    m.inertia = m.mass * (half_w * half_w + half_h * half_h) / 3.0
    return m


cdef Mass polygon_mass(const floating* xs, const floating* ys, Py_ssize_t n, Py_ssize_t step,
                       double density) noexcept nogil:
    # vertex k at xs[k * step], ys[k * step] (step 1 for a Polygon, 2 for padded rows)
    cdef Mass m
    cdef double ox = xs[0], oy = ys[0]
    cdef double area = 0.0, sx = 0.0, sy = 0.0, moment = 0.0
    cdef double e1x, e1y, e2x, e2y, d, cx, cy
    cdef Py_ssize_t i
    for i in range(1, n - 1):
        e1x = xs[i * step] - ox
        e1y = ys[i * step] - oy
        e2x = xs[(i + 1) * step] - ox
        e2y = ys[(i + 1) * step] - oy
        d = e1x * e2y - e1y * e2x
        # a triangle (o, o + e1, o + e2): half of d, its centroid a third of e1 + e2
        area += 0.5 * d
        sx += d * (e1x + e2x)
        sy += d * (e1y + e2y)
        moment += d * (e1x * e1x + e1x * e2x + e2x * e2x + e1y * e1y + e1y * e2y + e2y * e2y)
    # sums of d * (e1 + e2) are 6 * area * centroid; the moment sum is 12 * I about o
    cx = sx / (6.0 * area)
    cy = sy / (6.0 * area)
    m.inertia = density * (moment / 12.0 - area * (cx * cx + cy * cy))
    m.mass = density * area
    m.cx = ox + cx
    m.cy = oy + cy
    return m


cdef Mass shape_mass(Shape s, double density):
    cdef int kind = s.kind
    cdef _SegmentCore k
    cdef AABB a
    cdef OBB o
    cdef Polygon p
    if kind == CIRCLE:
        return circle_mass((<Circle>s)._x, (<Circle>s)._y, (<Circle>s)._r, density)
    if kind == CAPSULE or kind == SEGMENT:
        k = <_SegmentCore>s
        return capsule_mass(k._ax, k._ay, k._bx, k._by,
                            (<Capsule>s)._r if kind == CAPSULE else 0.0, density)
    if kind == AABB_KIND:
        a = <AABB>s
        return box_mass((a._min_x + a._max_x) * 0.5, (a._min_y + a._max_y) * 0.5,
                        (a._max_x - a._min_x) * 0.5, (a._max_y - a._min_y) * 0.5, density)
    if kind == OBB_KIND:
        o = <OBB>s
        return box_mass(o._cx, o._cy, o._half_w, o._half_h, density)
    p = <Polygon>s
    return polygon_mass[double](p.xs, p.ys, p.n, 1, density)


def mass_properties(Shape s, double density):
    """``MassData`` of a shape; ``density`` is a checked float >= 0."""
    cdef Mass m = shape_mass(s, density)
    return MassData(m.mass, (m.cx, m.cy), m.inertia)


# ------------------------------------------------------------------------- rows

cdef struct Job:
    int kind
    const void* rows        # (N, width) rows, or (N, K, 2) padded vertices
    bint single             # float32 rows
    Py_ssize_t width        # numbers per row (2 K for polygons)
    const long long* counts
    const double* density   # one value, or one per row
    Py_ssize_t density_step
    double* mass
    double* centroid
    double* inertia


cdef inline bint _row_mass(const Job* job, const floating* row, Py_ssize_t i,
                           double density, Mass* m) noexcept nogil:
    # False for a row that is no shape: a number not finite, a negative radius or
    # half extent, min > max, a vertex count out of range
    cdef double v[5]
    cdef Py_ssize_t j, n
    cdef int kind = job.kind
    if kind == POLYGON:
        # counts can be written after construction: never read past the row
        n = job.counts[i]
        if n < 3 or 2 * n > job.width:
            return False
        for j in range(2 * n):
            if not isfinite(row[j]):
                return False
        m[0] = polygon_mass(row, row + 1, n, 2, density)
        return True
    for j in range(job.width):
        v[j] = row[j]
        if not isfinite(v[j]):
            return False
    if kind == CIRCLE:
        if v[2] < 0.0:
            return False
        m[0] = circle_mass(v[0], v[1], v[2], density)
    elif kind == CAPSULE or kind == SEGMENT:
        if kind == CAPSULE and v[4] < 0.0:
            return False
        m[0] = capsule_mass(v[0], v[1], v[2], v[3], v[4] if kind == CAPSULE else 0.0, density)
    elif kind == AABB_KIND:
        if v[0] > v[2] or v[1] > v[3]:
            return False
        m[0] = box_mass((v[0] + v[2]) * 0.5, (v[1] + v[3]) * 0.5,
                        (v[2] - v[0]) * 0.5, (v[3] - v[1]) * 0.5, density)
    else:
        if v[2] < 0.0 or v[3] < 0.0:
            return False
        m[0] = box_mass(v[0], v[1], v[2], v[3], density)
    return True


cdef void _rows(const Job* job, const floating* rows, Py_ssize_t start,
                Py_ssize_t stop) noexcept nogil:
    cdef Py_ssize_t i
    cdef Mass m
    for i in range(start, stop):
        if _row_mass(job, rows + i * job.width, i, job.density[i * job.density_step], &m):
            job.mass[i] = m.mass
            job.centroid[2 * i] = m.cx
            job.centroid[2 * i + 1] = m.cy
            job.inertia[i] = m.inertia
        else:
            job.mass[i] = job.centroid[2 * i] = job.centroid[2 * i + 1] = NAN
            job.inertia[i] = NAN


cdef void _job_rows(void* ctx, int slot, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    cdef const Job* job = <const Job*>ctx
    if job.single:
        _rows[float](job, <const float*>job.rows, start, stop)
    else:
        _rows[double](job, <const double*>job.rows, start, stop)


def mass_rows(shapes, density, int workers):
    """``(mass, centroid, inertia)`` of each row of a shape array.

    ``density`` is a checked C-contiguous float64 array of one value or one per row;
    ``workers`` a checked thread count.  Computed in float64, returned in the rows'
    precision; NaN in the rows that are no shape.
    """
    cdef Job job
    cdef Py_ssize_t n = len(shapes)
    cdef Buffers held = Buffers.__new__(Buffers)   # the arrays, until the end
    job.kind = shapes.kind
    data = shapes.vertices if job.kind == POLYGON else shapes.data
    job.width = data.shape[1] * (2 if job.kind == POLYGON else 1)
    job.single = data.dtype == np.float32
    mass = np.empty(n)
    centroid = np.empty((n, 2))
    inertia = np.empty(n)
    if n:
        job.rows = held.address(data, False)
        job.counts = <const long long*>held.address(shapes.counts, False) if job.kind == POLYGON else NULL
        job.density = <const double*>held.address(density, False)
        job.density_step = 0 if density.shape[0] == 1 else 1
        job.mass = <double*>held.address(mass, True)
        job.centroid = <double*>held.address(centroid, True)
        job.inertia = <double*>held.address(inertia, True)
        run_rows(_job_rows, &job, n, 1024, slots_for(workers))
    if job.single:
        return mass.astype(np.float32), centroid.astype(np.float32), inertia.astype(np.float32)
    return mass, centroid, inertia
