# The broadphase's padded boxes of shapes and rows, shared with the scene index
# (index.pyx): inline here, so that each module's loops compile their own copy.

from cython cimport floating
from libc.math cimport fabs

from .batch cimport Side, load_row
from .queries cimport View
from .shapes cimport AABB_KIND, CAPSULE, CIRCLE, OBB_KIND, POLYGON, SEGMENT


cdef inline void view_box(const View* v, double* b) noexcept nogil:
    # b (OUT): x0, y0, x1, y1 of a padded box holding the shape (reference: _box)
    cdef int k = v.kind
    cdef int j
    cdef double x0, y0, x1, y1, r
    if k == CIRCLE:
        x0 = v.f[0] - v.f[2]
        y0 = v.f[1] - v.f[2]
        x1 = v.f[0] + v.f[2]
        y1 = v.f[1] + v.f[2]
    elif k <= SEGMENT:
        r = v.f[4] if k == CAPSULE else 0.0
        x0 = min(v.f[0], v.f[2]) - r
        y0 = min(v.f[1], v.f[3]) - r
        x1 = max(v.f[0], v.f[2]) + r
        y1 = max(v.f[1], v.f[3]) + r
    elif k == AABB_KIND:
        x0 = v.f[0]
        y0 = v.f[1]
        x1 = v.f[2]
        y1 = v.f[3]
    elif k == OBB_KIND:
        obb_box(v, b)
        return
    else:
        x0 = x1 = v.xs[0]
        y0 = y1 = v.ys[0]
        for j in range(1, v.n):
            x0 = min(x0, v.xs[j])
            x1 = max(x1, v.xs[j])
            y0 = min(y0, v.ys[j])
            y1 = max(y1, v.ys[j])
    pad_box(x0, y0, x1, y1, b)


cdef inline void obb_box(const View* v, double* b) noexcept nogil:
    # view_box of an OBB (its cosine and sine in v)
    cdef double ex = fabs(v.f[2] * v.cos) + fabs(v.f[3] * v.sin)
    cdef double ey = fabs(v.f[2] * v.sin) + fabs(v.f[3] * v.cos)
    pad_box(v.f[0] - ex, v.f[1] - ey, v.f[0] + ex, v.f[1] + ey, b)


cdef inline void pad_box(double x0, double y0, double x1, double y1, double* b) noexcept nogil:
    # b (OUT): the box x0, y0, x1, y1 padded by 2**-40 of its largest coordinate and a
    # subnormal-sized amount (_ref: PAD, TINY)
    cdef double m = max(max(fabs(x0), fabs(y0)), max(fabs(x1), fabs(y1)))
    cdef double pad = m * 9.094947017729282e-13 + 1e-300
    b[0] = x0 - pad
    b[1] = y0 - pad
    b[2] = x1 + pad
    b[3] = y1 + pad


cdef inline bint row_box(Side* side, const floating* data, Py_ssize_t i, double* b) noexcept nogil:
    # b (OUT): the padded box of row i; False when the row is no shape.  Every kind
    # but OBBs inline (their trigonometry is load_row's), with view_box's numbers
    cdef double x, y, x1, y1, r, finite
    cdef const floating* row
    cdef long long n, j
    if side.kind == CIRCLE:
        x = data[3 * i]
        y = data[3 * i + 1]
        r = data[3 * i + 2]
        # load_row's test: finite (x - x is NaN for NaN and inf) and r >= 0
        if not (r >= 0.0 and (x - x) + (y - y) + (r - r) == 0.0):
            return False
        # view_box's numbers for a circle
        b[0] = x - r
        b[1] = y - r
        b[2] = x + r
        b[3] = y + r
    elif side.kind == AABB_KIND:
        row = data + 4 * i
        b[0] = row[0]
        b[1] = row[1]
        b[2] = row[2]
        b[3] = row[3]
        # load_row's test: finite and min <= max on both axes
        if not ((b[0] - b[0]) + (b[1] - b[1]) + (b[2] - b[2]) + (b[3] - b[3]) == 0.0
                and b[0] <= b[2] and b[1] <= b[3]):
            return False
    elif side.kind == SEGMENT or side.kind == CAPSULE:
        row = data + side.width * i
        x = row[0]
        y = row[1]
        x1 = row[2]
        y1 = row[3]
        r = row[4] if side.kind == CAPSULE else 0.0
        # load_row's test: finite, and a capsule's radius >= 0
        if not (r >= 0.0 and (x - x) + (y - y) + (x1 - x1) + (y1 - y1) + (r - r) == 0.0):
            return False
        # view_box's numbers for a segment or capsule
        b[0] = min(x, x1) - r
        b[1] = min(y, y1) - r
        b[2] = max(x, x1) + r
        b[3] = max(y, y1) + r
    elif side.kind == POLYGON:
        row = data + side.width * i
        n = side.counts[i]
        # load_row's test: a count the row holds, every vertex finite
        if n < 3 or n > side.capacity:
            return False
        b[0] = b[2] = row[0]
        b[1] = b[3] = row[1]
        finite = 0.0
        for j in range(n):
            x = row[2 * j]
            y = row[2 * j + 1]
            finite += (x - x) + (y - y)
            # view_box's numbers for a polygon (from its first vertex on)
            b[0] = min(b[0], x)
            b[2] = max(b[2], x)
            b[1] = min(b[1], y)
            b[3] = max(b[3], y)
        if not finite == 0.0:
            return False
    else:
        if not load_row(side, data + i * side.width, i):
            return False
        view_box(&side.view, b)
        return True
    pad_box(b[0], b[1], b[2], b[3], b)
    return True
