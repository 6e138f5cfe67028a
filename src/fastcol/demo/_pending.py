"""Stand-ins for ``fc.rotate``, ``fc.translate`` and ``fc.mass_properties`` (issue 35).

Temporary: the library's own calls of the same names are being written alongside the
demo; once they are in, the demo's ``from ._pending import ...`` lines become calls of
``fc.rotate``, ``fc.translate`` and ``fc.mass_properties`` and this module is deleted.
Each function has the contract of DESIGN.md's "Moving, rotating and measuring shapes"
over shape arrays, in NumPy, with the formulas the kernels use:

* rotating a point p about q by ``angle`` (c, s its cosine and sine):
  ``x' = qx + ((px - qx) * c - (py - qy) * s)``, ``y' = qy + ((px - qx) * s + (py - qy) * c)``;
  an OBB row's angle becomes ``math.remainder(angle + delta, 2 * pi)``; an
  ``AABBArray`` rotated is an ``OBBArray``; polygon rows keep their vertex order;
* ``mass_properties``: area times density, the area centroid and the polar moment of
  inertia about it (disc ``m r^2 / 2``; box ``m (w^2 + h^2) / 12``; capsule a rectangle
  and two half discs; polygon a triangle fan from its first vertex, as Box2D's
  ``b2ComputePolygonMass``; a segment has mass 0).

The first argument is the fastcol API (``fc``), whose array classes the results are.
"""

from __future__ import annotations

import math

import numpy as np

TWO_PI = 2.0 * math.pi


def _kind(fc, shapes):
    for name in ("CircleArray", "CapsuleArray", "SegmentArray", "AABBArray", "OBBArray",
                 "PolygonArray"):
        if isinstance(shapes, getattr(fc, name)):
            return name
    raise TypeError(f"shapes must be a shape array, got {type(shapes).__name__}")


def _pairs(value, n, name):
    """``(2,)`` or ``(n, 2)`` as an ``(n, 2)`` float64 array (broadcast, not copied)."""
    v = np.asarray(value, dtype=np.float64)
    if v.shape == (2,):
        v = np.broadcast_to(v, (n, 2))
    if v.shape != (n, 2):
        raise ValueError(f"{name} must have shape (2,) or ({n}, 2), got {v.shape}")
    return v


def _angles(value, n):
    a = np.asarray(value, dtype=np.float64)
    if a.ndim == 0:
        if not math.isfinite(float(a)):
            raise ValueError(f"angle must be finite, got {float(a)}")
        a = np.broadcast_to(a, (n,))
    if a.shape != (n,):
        raise ValueError(f"angle must be a number or have shape ({n},), got {a.shape}")
    return a


def _out(fc, out, cls_name, n, like):
    """The array written: ``out`` checked, or a new one shaped as ``like``."""
    cls = getattr(fc, cls_name)
    if out is None:
        if cls_name == "PolygonArray":
            return fc.PolygonArray.from_padded(np.empty_like(like.vertices), like.counts.copy())
        return cls(np.empty((n, like.data.shape[1] if cls_name != "OBBArray" else 5),
                            dtype=like.dtype))
    if not isinstance(out, cls) or len(out) != n:
        raise ValueError(f"out must be a {cls_name} of length {n}")
    return out


def _turn(x, y, qx, qy, c, s):
    """Point(s) ``(x, y)`` rotated about ``(qx, qy)`` (the formula of the kernels)."""
    dx = x - qx
    dy = y - qy
    return qx + (dx * c - dy * s), qy + (dx * s + dy * c)


def rotate(fc, shapes, angle, about=None, out=None):
    """Every row of ``shapes`` turned counter-clockwise by ``angle`` about ``about``
    (``(2,)`` or ``(N, 2)``; None: each row's centroid).  Stands in for ``fc.rotate``."""
    kind = _kind(fc, shapes)
    n = len(shapes)
    a = _angles(angle, n)
    c, s = np.cos(a), np.sin(a)
    out_kind = "OBBArray" if kind == "AABBArray" else kind
    if about is None:
        about = mass_properties(fc, shapes)[1] if kind != "SegmentArray" else \
            0.5 * (shapes.data[:, 0:2] + shapes.data[:, 2:4])
    q = _pairs(about, n, "about")
    qx, qy = q[:, 0], q[:, 1]
    result = _out(fc, out, out_kind, n, shapes)
    if kind == "PolygonArray":
        v = shapes.vertices
        x, y = _turn(v[..., 0], v[..., 1], qx[:, None], qy[:, None], c[:, None], s[:, None])
        w = result.vertices
        w[..., 0] = x
        w[..., 1] = y
        if result is not shapes:
            result.counts[...] = shapes.counts
        return result
    d = shapes.data
    o = result.data
    if kind == "CircleArray":
        x, y = _turn(d[:, 0], d[:, 1], qx, qy, c, s)
        o[:, 0], o[:, 1], o[:, 2] = x, y, d[:, 2]
    elif kind in ("CapsuleArray", "SegmentArray"):
        ax, ay = _turn(d[:, 0], d[:, 1], qx, qy, c, s)
        bx, by = _turn(d[:, 2], d[:, 3], qx, qy, c, s)
        if kind == "CapsuleArray":
            o[:, 4] = d[:, 4]
        o[:, 0], o[:, 1], o[:, 2], o[:, 3] = ax, ay, bx, by
    elif kind == "AABBArray":
        cx, cy = 0.5 * (d[:, 0] + d[:, 2]), 0.5 * (d[:, 1] + d[:, 3])
        hw, hh = 0.5 * (d[:, 2] - d[:, 0]), 0.5 * (d[:, 3] - d[:, 1])
        x, y = _turn(cx, cy, qx, qy, c, s)
        o[:, 0], o[:, 1], o[:, 2], o[:, 3] = x, y, hw, hh
        o[:, 4] = [math.remainder(t, TWO_PI) for t in a.tolist()]
    else:  # OBB
        x, y = _turn(d[:, 0], d[:, 1], qx, qy, c, s)
        turned = [math.remainder(t + u, TWO_PI) for t, u in zip(d[:, 4].tolist(), a.tolist())]
        o[:, 0], o[:, 1], o[:, 2], o[:, 3] = x, y, d[:, 2], d[:, 3]
        o[:, 4] = turned
    return result


def translate(fc, shapes, offset, out=None):
    """Every row of ``shapes`` moved by ``offset`` (``(2,)`` or ``(N, 2)``).  Stands in
    for ``fc.translate``."""
    kind = _kind(fc, shapes)
    n = len(shapes)
    off = _pairs(offset, n, "offset")
    dx, dy = off[:, 0], off[:, 1]
    result = _out(fc, out, kind, n, shapes)
    if kind == "PolygonArray":
        v, w = shapes.vertices, result.vertices
        w[..., 0] = v[..., 0] + dx[:, None]
        w[..., 1] = v[..., 1] + dy[:, None]
        if result is not shapes:
            result.counts[...] = shapes.counts
        return result
    d, o = shapes.data, result.data
    if result is not shapes:
        o[...] = d
    # x columns and y columns of each layout
    xs = {"CircleArray": (0,), "CapsuleArray": (0, 2), "SegmentArray": (0, 2),
          "AABBArray": (0, 2), "OBBArray": (0,)}[kind]
    for col in xs:
        o[:, col] = d[:, col] + dx
        o[:, col + 1] = d[:, col + 1] + dy
    return result


def mass_properties(fc, shapes, density=1.0):
    """``(mass[N], centroid[N, 2], inertia[N])`` of every row.  Stands in for
    ``fc.mass_properties`` over arrays."""
    kind = _kind(fc, shapes)
    density = float(density)
    if not density >= 0.0 or math.isinf(density):
        raise ValueError(f"density must be a finite number >= 0, got {density}")
    if kind == "PolygonArray":
        return _polygon_mass(shapes.vertices, density)
    d = np.asarray(shapes.data, dtype=np.float64)
    if kind == "CircleArray":
        r = d[:, 2]
        mass = density * (math.pi * r * r)
        return mass, d[:, 0:2].copy(), mass * (0.5 * (r * r))
    if kind in ("CapsuleArray", "SegmentArray"):
        centre = 0.5 * (d[:, 0:2] + d[:, 2:4])
        if kind == "SegmentArray":
            zero = np.zeros(len(d))
            return zero, centre, zero.copy()
        r = d[:, 4]
        length = np.hypot(d[:, 2] - d[:, 0], d[:, 3] - d[:, 1])
        # the core's rectangle (length x 2r) and the two half discs at its ends, whose
        # centroids sit 4r/(3 pi) beyond the ends (parallel axis theorem)
        rect = density * (2.0 * r * length)
        disc = density * (math.pi * r * r)
        lc = 4.0 * r / (3.0 * math.pi)
        half = 0.5 * length + lc
        inertia = rect * (length * length + 4.0 * r * r) / 12.0 \
            + disc * (0.5 * r * r - lc * lc + half * half)
        return rect + disc, centre, inertia
    if kind == "AABBArray":
        w, h = d[:, 2] - d[:, 0], d[:, 3] - d[:, 1]
        centre = 0.5 * (d[:, 0:2] + d[:, 2:4])
    else:  # OBB: full sizes from the half sizes
        w, h = 2.0 * d[:, 2], 2.0 * d[:, 3]
        centre = d[:, 0:2].copy()
    mass = density * (w * h)
    return mass, centre, mass * (w * w + h * h) / 12.0


def _polygon_mass(vertices, density):
    """Box2D's b2ComputePolygonMass over padded rings: a fan of triangles from each
    ring's first vertex (the padding repeats the last vertex: its triangles are empty)."""
    v = np.asarray(vertices, dtype=np.float64)
    origin = v[:, 0, :]
    e = v - origin[:, None, :]           # relative to the first vertex, for round-off
    e1, e2 = e[:, 1:-1, :], e[:, 2:, :]
    cross = e1[..., 0] * e2[..., 1] - e1[..., 1] * e2[..., 0]
    tri = 0.5 * cross
    area = tri.sum(axis=1)
    cx = (tri * (e1[..., 0] + e2[..., 0])).sum(axis=1) / 3.0
    cy = (tri * (e1[..., 1] + e2[..., 1])).sum(axis=1) / 3.0
    intx2 = e1[..., 0] * e1[..., 0] + e2[..., 0] * e1[..., 0] + e2[..., 0] * e2[..., 0]
    inty2 = e1[..., 1] * e1[..., 1] + e2[..., 1] * e1[..., 1] + e2[..., 1] * e2[..., 1]
    about_origin = ((0.25 / 3.0) * cross * (intx2 + inty2)).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        gx, gy = cx / area, cy / area
    mass = density * area
    # moved from the first vertex to the centroid (parallel axis theorem)
    inertia = density * about_origin - mass * (gx * gx + gy * gy)
    centroid = np.stack([origin[:, 0] + gx, origin[:, 1] + gy], axis=1)
    return mass, centroid, inertia
