"""fastcol's public functions, each written once, over either backend.

Each function here holds what a user meets: its documentation, the checks of its
arguments, the decision between one answer (two shapes, or points) and an answer per
row (shape arrays, ``(N, 2)`` arrays), and ``out=``, ``workers=`` and ``pairs=``.
It then calls the backend's function of the same name: ``queries.collide`` for two
shapes, ``batch.collide`` for rows.  The backends (``fastcol._ext``, the compiled
kernels, and ``fastcol._ref``, the pure-Python reference) hold kernels and row loops
only, and never import this module.

``import fastcol`` binds the selected backend (``bind``); the tests bind both.  The
compiled backend puts a C entry in front of the commonest calls (two shapes or points,
positional arguments): it answers those itself and hands every other call to the
function here, so the rules below are the ones both paths follow.
"""

from __future__ import annotations

import importlib
import inspect
import math
from types import ModuleType

from . import _batch, _index
from ._names import PUBLIC
from ._validate import shape_array_error

class API:
    """The public names of fastcol over one backend (``fastcol._ext`` or ``fastcol._ref``).

    ``fastcol.collide`` is ``bind(backend).collide``; the classes (``Circle``,
    ``CircleArray``, ``Contact``, ...) are the backend's own.
    """

    def __init__(self, impl: ModuleType) -> None:
        self.backend = impl.NAME
        self.kernels = impl
        # what the functions call, looked up once
        self._shape = impl.shapes.SHAPE
        self._rows = impl.batch
        self._queries = impl.queries
        self._contacts = impl.contacts
        self._sweeps = impl.sweeps
        self._mass = impl.mass
        # the public functions are this class's; the classes and __version__ the
        # backend's, but for ShapeIndex, written once in fastcol._index over the backend
        functions = [name for name in PUBLIC if hasattr(API, name)]
        for name in PUBLIC:
            if name not in functions and name != "ShapeIndex":
                setattr(self, name, getattr(impl, name))
        self._array_types = (self.CircleArray, self.CapsuleArray, self.SegmentArray,
                             self.AABBArray, self.OBBArray, self.PolygonArray)
        self.ShapeIndex = _index.bind(self, impl)
        accelerate = getattr(impl, "accelerate", None)
        if accelerate is not None:
            # the compiled backend's C entries take the common calls before this
            # class's Python frame (see fastcol._ext.entries)
            for name in functions:
                general = getattr(self, name)
                setattr(self, name, accelerate(name, general, _parameters(general)))

    def __repr__(self) -> str:
        return f"<fastcol API over the {self.backend} backend>"

    # ------------------------------------------------------------- the queries

    def collide(self, a, b, out=None, workers=1):
        """Whether two shapes overlap or touch.

        Parameters
        ----------
        a, b : shape or shape array
            Any two shapes (Circle, Capsule, Segment, AABB, OBB or Polygon), in either
            order; or a shape array and a shape, or two shape arrays of one length
            (``CircleArray``, ...), answered row by row.
        out : bool ndarray of shape (N,), optional
            For arrays: where to write the result (it is also returned).
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        bool or bool ndarray of shape (N,)
            True when the shapes share at least one point: overlapping, one inside the
            other, or touching.  Exactly when ``distance(a, b) == 0.0``.  A row that is no
            shape (NaN, a negative radius, ``min > max``) gives False.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.collide(fc.Circle(0, 0, 1), fc.AABB(1, -1, 2, 1))   # touching counts
        True
        >>> fc.collide(fc.Capsule(0, 0, 4, 0, 1), fc.Segment(0, 3, 4, 3))
        False
        >>> fc.collide(fc.Circle(0, 0, 1), fc.CircleArray([[2, 0, 1], [3, 0, 1], [0, 0, float("nan")]]))
        array([ True, False, False])
        """
        if not (isinstance(a, self._shape) and isinstance(b, self._shape)):
            return self._rows.collide(a, b, out, workers)
        if out is not None or type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(out, workers)
        return self._queries.collide(a, b)

    def distance(self, a, b, out=None, workers=1):
        """Separation of two shapes: 0.0 when they overlap or touch.

        Parameters
        ----------
        a, b : shape or shape array
            Any two shapes, in either order, or arrays of them (see `collide`).
        out : float ndarray of shape (N,), optional
            For arrays: where to write the result (it is also returned); float32 when
            every array is float32, else float64.
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        float or float ndarray of shape (N,)
            The length of the shortest segment joining the two shapes; exactly
            symmetric, and 0.0 exactly when ``collide(a, b)``.  NaN for a row that is no
            shape.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.distance(fc.Circle(0, 0, 1), fc.Circle(5, 0, 1))
        3.0
        >>> fc.distance(fc.Polygon([(0, 0), (2, 0), (0, 2)]), fc.AABB(0.5, 0.5, 3, 3))
        0.0
        """
        if not (isinstance(a, self._shape) and isinstance(b, self._shape)):
            return self._rows.distance(a, b, out, workers)
        if out is not None or type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(out, workers)
        return self._queries.distance(a, b)

    def closest_points(self, a, b, workers=1):
        """Closest points of two shapes, and their distance.

        Parameters
        ----------
        a, b : shape or shape array
            Any two shapes, in either order, or arrays of them (see `collide`).
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        Closest, or (point_a, point_b, distance) arrays
            ``(point_a, point_b, distance)``: ``point_a`` on ``a``, ``point_b`` on ``b``,
            ``distance == distance(a, b)``.  When the shapes overlap or touch, ``point_a ==
            point_b`` is a point inside (or on the boundary of) both.  For arrays, three
            arrays of shapes (N, 2), (N, 2) and (N,), NaN in the rows that are no shape.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.closest_points(fc.Circle(0, 0, 1), fc.Circle(5, 0, 1))
        Closest(point_a=(1.0, 0.0), point_b=(4.0, 0.0), distance=3.0)
        >>> pa, pb, d = fc.closest_points(fc.Segment(0, 0, 2, 2), fc.Segment(0, 2, 2, 0))
        >>> pa == pb == (1.0, 1.0), d
        (True, 0.0)
        """
        if not (isinstance(a, self._shape) and isinstance(b, self._shape)):
            return self._rows.closest_points(a, b, workers)
        if type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(None, workers)
        return self._queries.closest_points(a, b)

    def contact(self, a, b, workers=1, *, pairs=None):
        """How two shapes meet: normal, penetration depth and contact points.

        Parameters
        ----------
        a, b : shape or shape array
            Any two shapes (Circle, Capsule, Segment, AABB, OBB or Polygon), in either
            order; or a shape array and a shape, or two shape arrays of one length,
            answered row by row.
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).
        pairs : integer array (M, 2), optional
            Rows of two shape arrays ``a`` and ``b`` (of any lengths) to answer: row ``k``
            of the result is the contact of ``a[i]`` and ``b[j]`` for ``(i, j) =
            pairs[k]``, as ``overlapping_pairs(a, b)`` gives them (or ``(a, a)`` with
            ``overlapping_pairs(a)``).  The same answers as ``contact(a[pairs[:, 0]],
            b[pairs[:, 1]])``, without copying the rows: the narrowphase after a
            broadphase.  Indices must lie in ``0..len - 1`` (no negative indices: a ``-1``
            in a pair list is more often a sentinel than a wish to count from the end);
            otherwise a ValueError names the first pair out of range.

        Returns
        -------
        Contact or None, or ContactArray
            None exactly when ``collide(a, b)`` is False.  Otherwise ``normal`` is the unit
            vector from ``a`` towards ``b``; ``depth`` (0.0 when they only touch) is the
            length of the shortest translation that separates them, so moving ``b`` by
            ``normal * depth`` leaves them touching; ``points`` holds 1 or 2 contact
            points midway between the two surfaces (2 where parallel faces or edges
            overlap).  ``contact(b, a)`` has the negated normal, the same depth and the
            same points.  For arrays, a ``ContactArray(hit, normal, depth, points,
            count)`` holding each row's contact (each pair's, with ``pairs``); rows
            without one (no collision, or a row that is no shape) are zeros.

        Notes
        -----
        Round cores that are apart meet along their closest points; crossing cores and
        convex pairs use the least-penetration face and clip the other shape's feature to
        it (see the module docstring).  Ties prefer the first shape's faces, within a
        tolerance relative to the shapes' size.  Coincident centres of two circles (or any
        two point cores) have no direction: the normal is ``(1.0, 0.0)`` for the pair in
        canonical order (Circle < Capsule < Segment < AABB < OBB < Polygon, then by
        fields), so ``(-1.0, 0.0)`` when given the other way round.  Two equal shapes
        (same kind and fields) cannot tell which came first: both orders give the same
        contact, with the normal of the first face in ring order (or ``(1.0, 0.0)``).

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.contact(fc.Circle(0, 0, 1), fc.Circle(1.5, 0, 1))
        Contact(normal=(1.0, 0.0), depth=0.5, points=((0.75, 0.0),))
        >>> fc.contact(fc.AABB(0, 0, 2, 2), fc.AABB(1, 1, 4, 4)).depth
        1.0
        >>> fc.contact(fc.Circle(0, 0, 1), fc.Circle(2, 0, 1)).depth   # touching
        0.0
        >>> fc.contact(fc.Circle(0, 0, 1), fc.Circle(3, 0, 1)) is None
        True
        >>> c = fc.contact(fc.Circle(0, 0, 1), fc.CircleArray([[1.5, 0, 1], [3, 0, 1]]))
        >>> c.hit, c.depth, c.count
        (array([ True, False]), array([0.5, 0. ]), array([1, 0]))
        >>> balls = fc.CircleArray([[0, 0, 1], [1.5, 0, 1], [9, 0, 1]])
        >>> fc.contact(balls, balls, pairs=fc.overlapping_pairs(balls)).depth
        array([0.5])
        """
        if pairs is not None or not (isinstance(a, self._shape) and isinstance(b, self._shape)):
            return self._rows.contact(a, b, workers, pairs)
        if type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(None, workers)
        return self._contacts.contact(a, b)

    def raycast(self, shape, origin, direction, max_t=math.inf, workers=1):
        """Where the ray ``origin + t * direction`` first meets a shape.

        Parameters
        ----------
        shape : Circle, Capsule, Segment, AABB, OBB or Polygon, or a shape array
            The shape; it is closed (its boundary belongs to it, as in ``collide``).
        origin : (x, y) pair of finite floats, or an (N, 2) array
            Start of the ray.
        direction : (x, y) pair of finite floats, not (0, 0), or an (N, 2) array
            Need not be unit: ``t`` is measured in units of ``direction``.
        max_t : float, default inf, or an (N,) array
            Longest ``t`` accepted (>= 0; inf allowed).
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        RayHit or None
            ``RayHit(t, point, normal)`` for the first hit with ``0 <= t <= max_t``:
            ``point == origin + t * direction`` (computed in world coordinates) and
            ``normal`` the unit outward normal of the surface entered, facing the ray.
            ``None`` when the ray misses within ``max_t``.
        RayHitArray
            When the shape is an array or an argument holds rows (one ray over many
            shapes, many rays over one shape, or N rays against N shapes): a
            ``RayHitArray(hit, t, point, normal)`` of the rows' hits.  Rows without a hit
            hold ``t = inf`` and zeros; so does a row that is no shape or no ray (a
            non-finite origin or direction, a zero direction, a negative or NaN
            ``max_t``): array rows are data, checked as they are read, never an error.

        Notes
        -----
        An origin inside the shape, or on its boundary, hits at once:
        ``RayHit(0.0, origin, (0.0, 0.0))``.  Degenerate shapes are ordinary shapes: a
        zero-radius circle and a zero-length segment are points, zero-width boxes are
        segments.  A zero-thickness feature hit end-on (a point, a segment's end along its
        line) has no surface normal and gives ``-direction / |direction|``; a segment hit
        broadside gives its perpendicular facing the ray's origin.  Whether the ray hits,
        and the face of a box or polygon it enters through, are decided by exact signs (for
        the shape as stored; an OBB's corners as computed).  A ray exactly through a
        corner enters by a face of positive length, then by the face that comes first in
        the vertex ring (edge k joins vertex k to k + 1; for boxes the bottom side in the
        box's frame, then right, top, left).  A hit farther than the float range (a tiny
        direction) is a miss.  ``t`` is rounded: an origin within an ulp of a round
        shape's surface can hit at ``t == 0.0`` with a normal.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.raycast(fc.Circle(5, 0, 1), (0, 0), (1, 0))
        RayHit(t=4.0, point=(4.0, 0.0), normal=(-1.0, 0.0))
        >>> fc.raycast(fc.AABB(0, 0, 2, 2), (1, 1), (1, 0))   # starts inside
        RayHit(t=0.0, point=(1.0, 1.0), normal=(0.0, 0.0))
        >>> fc.raycast(fc.Segment(3, -1, 3, 1), (0, 0), (1, 0), max_t=2.0) is None
        True
        >>> import numpy as np
        >>> fc.raycast(fc.Circle(5, 0, 1), np.array([[0.0, 0.0], [0.0, 5.0]]), (1, 0)).t
        array([ 4., inf])
        """
        if _batch.is_ray_batch(shape, origin, direction, max_t):
            return self._rows.raycast(shape, origin, direction, max_t, workers)
        if type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(None, workers)
        return self._sweeps.raycast(shape, origin, direction, max_t)

    def time_of_impact(self, a, velocity_a, b, velocity_b, max_t=1.0, workers=1):
        """First time at which two translating shapes touch.

        Parameters
        ----------
        a, b : shape or shape array
            Any two shapes, in either order; or shape arrays (row by row).
        velocity_a, velocity_b : (x, y) pair of finite floats, or an (N, 2) array
            Displacement of each shape per unit of time; (0, 0) is a static body.
        max_t : float, default 1.0, or an (N,) array
            Latest time accepted (>= 0; inf allowed).
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        float or None
            The least ``t`` in ``[0, max_t]`` at which ``a`` moved by ``velocity_a * t``
            and ``b`` moved by ``velocity_b * t`` touch; ``0.0`` exactly when
            ``collide(a, b)``; ``None`` when they never touch within ``max_t`` (always so
            when both move alike and are apart).
        ndarray of shape (N,)
            When a shape or an argument is an array: each row's time, NaN where there is
            no impact, and where a row is no shape, a velocity row is not finite or a
            ``max_t`` row is negative or NaN.

        Notes
        -----
        Translation only, closed form (no iteration): b moves relative to a with
        ``v = velocity_b - velocity_a``, and two convex shapes first touch where a vertex
        of one (an end of a round shape's core) meets the other grown by the sum of the
        radii, so the answer is the least hit of those vertex rays.  The answer is exactly
        symmetric (swapping the shapes with their velocities negates v exactly).  A zero
        velocity is allowed: only a ray direction must be non-zero.  Whether a vertex ray
        hits a segment, box or polygon is decided by exact signs (on the relative
        velocity, the difference of the two, rounded once).  When collide says apart but a
        round shape's rounded inside test finds a vertex already touching, or the time
        underflows to 0.0, the answer is the smallest positive float (5e-324): contact at
        once, never a missed one, and never 0.0 for shapes that do not collide.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.time_of_impact(fc.Circle(0, 0, 1), (1, 0), fc.Circle(10, 0, 1), (-1, 0), max_t=10)
        4.0
        >>> fc.time_of_impact(fc.Circle(0, 0, 1), (0, 0), fc.AABB(1, -1, 2, 1), (5, 0))  # touching
        0.0
        >>> fc.time_of_impact(fc.Circle(0, 0, 1), (-1, 0), fc.Circle(5, 0, 1), (1, 0)) is None
        True
        >>> fc.time_of_impact(fc.Circle(0, 0, 1), (1, 0),
        ...                   fc.CircleArray([[10, 0, 1], [0, 5, 1]]), (-1, 0), max_t=10)
        array([ 4., nan])
        """
        if _batch.is_sweep_batch(a, velocity_a, b, velocity_b, max_t):
            return self._rows.time_of_impact(a, velocity_a, b, velocity_b, max_t,
                                                     workers)
        if type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(None, workers)
        return self._sweeps.time_of_impact(a, velocity_a, b, velocity_b, max_t)

    def shape_cast(self, a, velocity_a, b, velocity_b, max_t=1.0, workers=1):
        """Where and along which normal two translating shapes first touch.

        Parameters
        ----------
        a, b : shape or shape array
            Any two shapes, in either order; or shape arrays (row by row).
        velocity_a, velocity_b : (x, y) pair of finite floats, or an (N, 2) array
            Displacement of each shape per unit of time; (0, 0) is a static body.
        max_t : float, default 1.0, or an (N,) array
            Latest time accepted (>= 0; inf allowed).
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        CastHit or None
            ``CastHit(t, point, normal)``: ``t`` is ``time_of_impact(a, velocity_a, b,
            velocity_b, max_t)`` (the same float, None together); ``point`` is where
            the moved shapes touch at ``t``; ``normal`` is the unit normal there from
            ``a`` towards ``b`` (what a character controller slides along).  Shapes
            that already collide give ``t == 0.0`` with ``contact(a, b)``'s normal and
            point (the midpoint of its two points when it has two).
        CastHitArray
            When a shape or an argument is an array: ``(hit, t, point, normal)`` per
            row, rows without a hit (or that are no shape, a velocity that is not
            finite, a negative or NaN ``max_t``) with ``t = inf`` and zero point and
            normal.

        Notes
        -----
        The same closed-form sweep as `time_of_impact` (no iteration, no second
        query): the vertex ray that hits first (a vertex of one shape, or an end of a
        round shape's core, against the other grown by the sum of the radii) names the
        feature that touches.  Its ray kernel's normal is the normal (the face
        entered, or the radial direction of a rounded corner), and the point is that
        vertex at ``t`` moved back along the normal by its own shape's radius.  So:

        - faces that meet parallel (a box sliding onto a box, a capsule landing flat)
          touch along a segment; the point is the end of it whose vertex ray came
          first (b's vertices before a's, each shape's in its own order), not the
          middle;
        - where a corner meets a corner (shapes without radius: a vertex of a box or
          polygon, a segment's end, or a point, that is a circle of radius 0 or a
          segment or capsule of zero length and radius), the normal is the bisector
          of the normal cone of the shapes' Minkowski difference there: the
          directions that are outward normals of ``a`` at its corner and inward
          normals of ``b`` at its corner (a segment's end has the half-plane beyond
          it, a point every direction).  Moving ``b`` a little along ``-normal``
          then overlaps ``a``, along ``+normal`` separates them, however sharp the
          corners or where one grazes past the other.  The corner on the shape the
          winning ray hit is the vertex it entered at (within rounding, relative
          ``2**-33``); two points, or two segments along one line, keep the face's
          or end-on normal;
        - where no face is entered (two points, a zero-length box side, or a vertex
          already touching by a rounded test, the 5e-324 case of `time_of_impact`),
          the normal is ``-v / |v|`` for ``v = velocity_b - velocity_a``, as a ray's
          end-on normal.

        Swapping ``a`` and ``b`` (with their velocities) keeps ``t`` and ``point`` and
        negates ``normal``, to the bit.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.shape_cast(fc.Circle(0, 0, 1), (1, 0), fc.Circle(10, 0, 1), (-1, 0), max_t=10)
        CastHit(t=4.0, point=(5.0, 0.0), normal=(1.0, 0.0))
        >>> fc.shape_cast(fc.Circle(0, 3, 1), (0, -1), fc.AABB(-5, -1, 5, 0), (0, 0), max_t=5)
        CastHit(t=2.0, point=(0.0, 0.0), normal=(0.0, -1.0))
        >>> # corner to corner: the bisector of the two corners' normal cones
        >>> fc.shape_cast(fc.AABB(0, 0, 1, 1), (0, 0), fc.AABB(2, 1, 3, 2), (-1, 0), max_t=5)
        CastHit(t=1.0, point=(1.0, 1.0), normal=(0.7071067811865475, 0.7071067811865475))
        >>> fc.shape_cast(fc.Circle(0, 0, 1), (0, 0), fc.AABB(1, -1, 2, 1), (5, 0))  # touching
        CastHit(t=0.0, point=(1.0, 0.0), normal=(1.0, 0.0))
        >>> fc.shape_cast(fc.Circle(0, 0, 1), (-1, 0), fc.Circle(5, 0, 1), (1, 0)) is None
        True
        """
        if _batch.is_sweep_batch(a, velocity_a, b, velocity_b, max_t):
            return self._rows.shape_cast(a, velocity_a, b, velocity_b, max_t, workers)
        if type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(None, workers)
        return self._sweeps.shape_cast(a, velocity_a, b, velocity_b, max_t)

    def mass_properties(self, shape, density=1.0, workers=1):
        """Mass, centroid and polar moment of inertia of a shape, or of each row.

        Parameters
        ----------
        shape : shape or shape array
            Any of the six shapes, or a shape array (answered row by row).
        density : float, default 1.0, or an (N,) array for a shape array
            Mass per unit area: finite and >= 0.
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        MassData
            ``MassData(mass, centroid, inertia)``: the area times ``density``, the
            centroid of the area, and the polar moment of inertia about the centroid
            (the axis perpendicular to the plane), as Box2D's ``b2ComputePolygonMass``
            and pymunk's ``moment_for_*`` give it.
        tuple of ndarrays
            For a shape array: ``(mass[N], centroid[N, 2], inertia[N])`` in the rows'
            precision; NaN in the rows that are no shape.

        Notes
        -----
        Closed forms: a disc ``m r^2 / 2``; a box ``m (w^2 + h^2) / 12``; a capsule as a
        rectangle plus two half discs; a polygon as a fan of triangles from its first
        vertex.  A segment, a zero-radius circle and a zero-width box enclose no area:
        mass and inertia 0.0, and the centroid is the segment's midpoint (the point, the
        box's centre).

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.mass_properties(fc.AABB(0, 0, 2, 1), density=3.0)
        MassData(mass=6.0, centroid=(1.0, 0.5), inertia=2.5)
        >>> m = fc.mass_properties(fc.Circle(1, 2, 1))
        >>> round(m.mass, 6), m.centroid, round(m.inertia, 6)
        (3.141593, (1.0, 2.0), 1.570796)
        >>> mass, centroid, inertia = fc.mass_properties(fc.CircleArray([[0, 0, 1], [0, 0, float("nan")]]))
        >>> centroid
        array([[ 0.,  0.],
               [nan, nan]])
        """
        if isinstance(shape, self._shape):
            if type(workers) is not int or workers != 1:
                _batch.no_out_for_shapes(None, workers)
            return self._mass.mass_properties(shape, _batch.as_density(density))
        if not _batch.is_array(shape):
            raise _batch.operand_error(shape, "shape")
        nworkers = _batch.check_workers(workers)
        return self._mass.mass_rows(shape, _batch.density_arg(density, len(shape)), nworkers)

    def overlapping_pairs(self, A, B=None, workers=1):
        """Every pair of rows that collide: ``(i, j)`` with ``collide(A[i], B[j])``.

        A broadphase prunes the pairs whose bounding boxes are apart, so the work grows
        with the number of shapes plus the number of pairs found, never with N²; every
        remaining pair is decided by the exact ``collide``.

        Parameters
        ----------
        A : shape array
            ``CircleArray``, ``CapsuleArray``, ``SegmentArray``, ``AABBArray``,
            ``OBBArray`` or ``PolygonArray`` (float64 or float32).
        B : shape array or ShapeIndex, optional
            Any shape array, of any length and type.  Without it, the pairs within ``A``.
            A ``ShapeIndex`` stands for its items: ``j`` is then an item number, and the
            pairs are ``B.query(A)`` (the index's tree is used, not a new grid).
        workers : int, optional
            Threads to split the work over (``-1``: every core).  The answer does not
            depend on it.

        Returns
        -------
        int64 ndarray of shape (M, 2)
            The pairs ``(i, j)``, sorted lexicographically, each once.  With ``B`` None,
            ``i < j`` are rows of ``A`` (a shape is never paired with itself); else ``i``
            is a row of ``A`` and ``j`` a row of ``B`` (passing ``A`` as ``B`` gives both
            orders and the ``(i, i)`` pairs).  ``(0, 2)`` when nothing collides.

        Notes
        -----
        Touching counts, as in ``collide``.  A row that is no shape (NaN or inf, a negative
        radius or half extent, ``min > max``) is never paired.  The reference backend
        sweeps along one axis in Python; the compiled one uses a hierarchical grid.

        Collision filters (the arrays' ``categories``, ``masks`` and ``groups``): a pair
        is tested only when ``A.categories[i] & B.masks[j]`` and ``B.categories[j] &
        A.masks[i]`` are both non-zero, and not when ``A.groups[i] == B.groups[j] !=
        0`` (pymunk's ``ShapeFilter``, Box2D's category and mask bits); with ``B`` None,
        ``A``'s filters stand on both sides; an array without filters passes every
        filter but the other side's (all bits, group 0); with a ``ShapeIndex`` the
        items' filters as its last build or refit read them.  Pairs ruled out are
        never tested.

        Examples
        --------
        >>> import fastcol as fc
        >>> balls = fc.CircleArray([[0, 0, 1], [2, 0, 1], [9, 9, 1], [0.5, 0, float("nan")]])
        >>> fc.overlapping_pairs(balls)          # touching counts; the NaN row never pairs
        array([[0, 1]])
        >>> walls = fc.SegmentArray([[0, -5, 0, 5], [9, 0, 9, 20]])
        >>> fc.overlapping_pairs(balls, walls)
        array([[0, 0],
               [2, 1]])
        >>> fc.overlapping_pairs(balls, fc.ShapeIndex(walls))    # the same, from an index
        array([[0, 0],
               [2, 1]])
        >>> fc.overlapping_pairs(fc.CircleArray([[0, 0, 1]])).shape
        (0, 2)

        Walls in category 1 whose mask leaves themselves out never pair with each other,
        only with the balls (all bits):

        >>> walls = fc.SegmentArray([[0, -5, 0, 5], [0, 0, 9, 0]], categories=1, masks=0xFFFFFFFE)
        >>> fc.overlapping_pairs(walls)                      # they touch, but never tested
        array([], shape=(0, 2), dtype=int64)
        >>> fc.overlapping_pairs(balls, walls)
        array([[0, 0],
               [0, 1],
               [1, 1]])
        """
        nworkers = _batch.check_workers(workers)
        if not _batch.is_array(A):
            raise shape_array_error(A, "A")
        if isinstance(B, _index.ShapeIndex):
            return B.query(A, nworkers)
        if B is not None and not _batch.is_array(B):
            raise shape_array_error(B, "B")
        return self.kernels.broadphase.overlapping_pairs(A, B, nworkers)

    # ------------------------------------------------- moving and turning arrays

    def rotate(self, shapes, angle, about=None, out=None, workers=1):
        """Every shape of an array turned counter-clockwise, row by row.

        Parameters
        ----------
        shapes : shape array
            ``CircleArray``, ``CapsuleArray``, ``SegmentArray``, ``AABBArray``,
            ``OBBArray`` or ``PolygonArray`` (float64 or float32).
        angle : float, or (N,) array_like
            Radians, counter-clockwise: one angle for every row (finite), or one a row.
        about : (x, y) pair of floats, or (N, 2) array, optional
            The pivot: one point for every row (finite), or one a row.  None (default)
            turns each shape about its own centroid: a circle's centre (it stays put),
            the midpoint of a capsule's or segment's ends, a box's centre, a polygon's
            area centroid.
        out : shape array, optional
            Where to write the result (it is also returned): an array of the result's
            class (``OBBArray`` for an ``AABBArray``), length and dtype, and for
            polygons the same padded size; it may be ``shapes`` itself, turning the
            shapes in place (a frame loop).  A ``PolygonArray`` receives the counts of
            ``shapes``.
        workers : int, optional
            Threads to split the rows over (``-1``: every core).

        Returns
        -------
        shape array
            Of the class of ``shapes``, but an ``OBBArray`` for an ``AABBArray``; of its
            dtype (float32 rows are computed in float64 and rounded once).  Row ``i`` is
            ``shapes[i].rotated(angle_i, about_i)``, bit for bit for float64; polygon rows
            keep their vertex order and count (the ring stays counter-clockwise) and their
            padding turns with them.

        Notes
        -----
        The rotation of a point ``p`` about ``q`` is ``q + R (p - q)`` with ``c = cos(angle)``,
        ``s = sin(angle)``, computed as ``qx + ((px - qx) * c - (py - qy) * s)`` and
        ``qy + ((px - qx) * s + (py - qy) * c)``, the same in every shape, row and backend.
        An OBB's new angle is ``remainder(angle + turn, 2*pi)`` (IEEE remainder, exact, in
        ``[-pi, pi]``), so a box turned every frame for hours keeps its digits.  A row
        that is no shape (NaN or inf, a negative radius or half extent, ``min > max``, a
        polygon count outside 3..K) or whose angle or pivot is not finite becomes a row of
        NaN: rows are data, never an error.  A non-finite single ``angle`` or ``about`` is
        a ValueError.  Unlike ``Polygon.rotated``, a polygon row is not re-normalised: a
        nearly collinear row that rounding leaves not strictly convex stays as turned.

        Examples
        --------
        >>> import math
        >>> import fastcol as fc
        >>> boxes = fc.OBBArray([[1, 0, 2, 1, 0.0], [0, 5, 1, 1, 3.0]])
        >>> fc.rotate(boxes, math.pi / 2, about=(0, 0)).data.round(12)
        array([[ 0.        ,  1.        ,  2.        ,  1.        ,  1.57079633],
               [-5.        ,  0.        ,  1.        ,  1.        , -1.71238898]])
        >>> fc.rotate(fc.AABBArray([[0, 0, 4, 2]]), math.pi / 2).data      # an OBBArray
        array([[2.        , 1.        , 2.        , 1.        , 1.57079633]])
        >>> tri = fc.PolygonArray([[(0, 0), (3, 0), (0, 3)]])
        >>> fc.rotate(tri, math.pi, out=tri) is tri                         # in place
        True
        >>> tri.vertices.round(12)
        array([[[ 2.,  2.],
                [-1.,  2.],
                [ 2., -1.]]])
        >>> fc.rotate(fc.CircleArray([[2, 0, 1], [0, 0, float("nan")]]), [math.pi, 0.0],
        ...           about=(0, 0)).data.round(12)
        array([[-2.,  0.,  1.],
               [nan, nan, nan]])
        """
        return self.kernels.transforms.rotate(shapes, angle, about, out, workers)

    def translate(self, shapes, offset, out=None, workers=1):
        """Every shape of an array moved by an offset, row by row.

        Parameters
        ----------
        shapes : shape array
            ``CircleArray``, ``CapsuleArray``, ``SegmentArray``, ``AABBArray``,
            ``OBBArray`` or ``PolygonArray`` (float64 or float32).
        offset : (dx, dy) pair of floats, or (N, 2) array
            One offset for every row (finite), or one a row.
        out : shape array, optional
            Where to write the result (it is also returned): an array of the class,
            length and dtype of ``shapes`` (for polygons the same padded size), or
            ``shapes`` itself (in place).
        workers : int, optional
            Threads to split the rows over (``-1``: every core).

        Returns
        -------
        shape array
            Of the class and dtype of ``shapes``; row ``i`` is
            ``shapes[i].translated(*offset_i)``.  Rows that are no shape, or whose
            offset is not finite, are rows of NaN.

        Examples
        --------
        >>> import numpy as np
        >>> import fastcol as fc
        >>> caps = fc.CapsuleArray([[0, 0, 4, 0, 1], [0, 5, 4, 5, 1]])
        >>> fc.translate(caps, (1, -1)).data
        array([[ 1., -1.,  5., -1.,  1.],
               [ 1.,  4.,  5.,  4.,  1.]])
        >>> fc.translate(caps, np.array([[0.0, 1.0], [np.inf, 0.0]]), out=caps).data
        array([[ 0.,  1.,  4.,  1.,  1.],
               [nan, nan, nan, nan, nan]])
        """
        return self.kernels.transforms.translate(shapes, offset, out, workers)

    # ---------------------------------------------------------- the primitives

    def _primitive(self, name, values, names, workers):
        # one call on points, or rows when any argument is an (N, 2) array
        if _batch.has_rows(*values):
            return self._rows.primitive(name, values, names, workers)
        if type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(None, workers)
        return getattr(self.kernels.geometry, name)(*values)

    def closest_point_on_segment(self, p, a, b, workers=1):
        """Point of segment ab nearest to p, and its parameter.

        Parameters
        ----------
        p, a, b : (2,) sequence of float, or (N, 2) array
            The query point and the segment's ends.
        workers : int, optional
            For ``(N, 2)`` arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        point : tuple of float
            ``a + t * (b - a)``; exactly ``a`` when ``t == 0`` and exactly ``b`` when ``t == 1``.
        t : float
            The parameter, clamped to ``[0, 1]``; ``0.0`` when ``a == b`` (the segment is a point).

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.closest_point_on_segment((1.0, 5.0), (0.0, 0.0), (4.0, 0.0))
        ((1.0, 0.0), 0.25)
        >>> fc.closest_point_on_segment((9.0, 1.0), (0.0, 0.0), (4.0, 0.0))
        ((4.0, 0.0), 1.0)
        """
        return self._primitive("closest_point_on_segment", (p, a, b), ("p", "a", "b"), workers)

    def closest_point_on_line(self, p, a, b, workers=1):
        """Point of the infinite line through a and b nearest to p, and its parameter.

        Parameters
        ----------
        p, a, b : (2,) sequence of float, or (N, 2) array
            The query point and two points of the line.
        workers : int, optional
            For ``(N, 2)`` arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        point : tuple of float
            ``a + t * (b - a)``.
        t : float
            The unclamped parameter; ``0.0`` (and ``point == a``) when ``a == b``.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.closest_point_on_line((6.0, 3.0), (0.0, 0.0), (4.0, 0.0))
        ((6.0, 0.0), 1.5)
        """
        return self._primitive("closest_point_on_line", (p, a, b), ("p", "a", "b"), workers)

    def point_segment_distance(self, p, a, b, workers=1):
        """Distance from point p to segment ab.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.point_segment_distance((3.0, 4.0), (0.0, 0.0), (0.0, 0.0))
        5.0
        >>> fc.point_segment_distance((2.0, 0.0), (0.0, 0.0), (4.0, 0.0))   # on the segment
        0.0
        """
        return self._primitive("point_segment_distance", (p, a, b), ("p", "a", "b"), workers)

    def segment_segment_closest(self, a, b, c, d, workers=1):
        """Closest points of segments ab and cd.

        Parameters
        ----------
        a, b, c, d : (2,) sequence of float, or (N, 2) array
            The ends of the two segments; a segment whose ends coincide is a point.
        workers : int, optional
            For ``(N, 2)`` arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        distance : float
            ``0.0`` exactly when the segments intersect or touch.
        s, t : float
            Parameters in ``[0, 1]`` of the closest points on ab and on cd.
        point_on_ab, point_on_cd : tuple of float
            The closest points; equal when the segments intersect.  For parallel segments
            at a constant distance, the pair at an endpoint is returned.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.segment_segment_closest((0, 0), (2, 0), (1, 1), (1, 3))
        (1.0, 0.5, 0.0, (1.0, 0.0), (1.0, 1.0))
        >>> fc.segment_segment_closest((0, 0), (2, 2), (0, 2), (2, 0))[0]   # crossing
        0.0
        """
        return self._primitive("segment_segment_closest", (a, b, c, d), ("a", "b", "c", "d"),
                               workers)

    def segment_segment_distance(self, a, b, c, d, workers=1):
        """Distance between segments ab and cd (0.0 when they intersect or touch).

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.segment_segment_distance((0, 0), (4, 0), (5, 3), (9, 3))   # parallel
        3.1622776601683795
        """
        return self._primitive("segment_segment_distance", (a, b, c, d), ("a", "b", "c", "d"),
                               workers)

    def segments_intersect(self, a, b, c, d, workers=1):
        """Whether segments ab and cd intersect; touching and collinear overlap count.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.segments_intersect((0, 0), (2, 0), (2, 0), (3, 5))   # touching at an end
        True
        >>> fc.segments_intersect((0, 0), (2, 0), (3, 0), (4, 0))   # collinear, apart
        False
        """
        return self._primitive("segments_intersect", (a, b, c, d), ("a", "b", "c", "d"), workers)

    def orient2d(self, a, b, c, workers=1):
        """Which side of the directed line a -> b the point c lies on, exactly.

        Parameters
        ----------
        a, b, c : (2,) sequence of float, or (N, 2) array
            Three points; a single point stands for every row of the arrays.
        workers : int, optional
            For ``(N, 2)`` arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        int, or int8 array (N,)
            ``1`` when a, b, c turn counter-clockwise (c to the left), ``-1`` clockwise
            (c to the right), ``0`` when the three points lie exactly on one line (or two
            of them coincide).  Rows of arrays holding NaN or inf give 0.

        Notes
        -----
        The sign of ``(bx - ax) * (cy - ay) - (by - ay) * (cx - ax)`` in exact arithmetic,
        for every finite input: the determinant is computed in floating point and compared
        with a proven bound on its rounding error (Shewchuk, 1997); the rare inputs within
        that bound of zero are decided in exact arithmetic.  Every verdict of fastcol that a
        sign decides (do segments cross, is a point inside a polygon, which face a ray
        enters) is made with it.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.orient2d((0, 0), (1, 0), (0, 1))
        1
        >>> fc.orient2d((0, 0), (1, 1), (3, 3))       # collinear
        0
        >>> a, b, c = (0.2, 0.2), (1.0, 0.7), (1.4000000000000001, 0.95)
        >>> (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])   # rounded: wrong sign
        1.1102230246251565e-16
        >>> fc.orient2d(a, b, c)
        -1
        """
        return self._primitive("orient2d", (a, b, c), ("a", "b", "c"), workers)

    # ------------------------------------------------------------ point queries

    def point_query(self, shape, point, workers=1):
        """The boundary of a shape nearest to a point, the signed distance to it and
        the outward normal there (as pymunk's ``Shape.point_query``).

        Parameters
        ----------
        shape : Circle, Capsule, Segment, AABB, OBB or Polygon, or a shape array
            The shape; it is closed (its boundary belongs to it, as in ``collide``).
        point : (x, y) pair of finite floats, or an (N, 2) array
            The query point.
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        PointQuery
            ``PointQuery(point, distance, normal)``: ``point`` the nearest point of the
            shape's boundary; ``distance`` the signed distance from it to the query
            point, negative inside the shape (minus the depth), 0.0 on the boundary;
            ``normal`` the unit outward normal of the boundary at ``point`` (outside,
            it points from ``point`` towards the query point; inside, away from it).
        PointQueryArray
            When the shape is an array or the point holds rows (a shape array against
            one point or N points, or one shape against N points): a
            ``PointQueryArray(point, distance, normal)`` of the rows' answers.  A row
            whose shape is no shape or whose point is not finite is NaN throughout.

        Notes
        -----
        The sign of ``distance`` is the verdict of ``contains``: negative only inside,
        0.0 only on the boundary (or inside a shape that has no inside), positive
        exactly when ``contains`` is False.  Outside the shape, ``distance`` equals
        ``distance(shape, Circle(x, y, 0.0))`` to the bit (the same kernels in the same
        local frame).  Inside, it is minus the radius less the core's distance for
        round shapes, and minus the least distance to an edge's line for boxes and
        polygons (ties: the first edge in ring order, edge k joining vertex k to k +
        1; for boxes the bottom side in the box's frame, then right, top, left); a
        point strictly inside by exact signs never gets 0.0 (at worst ``-5e-324``).

        Where the direction is not defined: a point at a circle's centre (or a
        zero-length capsule's) gets the normal ``(1.0, 0.0)``, its boundary point
        ``(x + r, y)``; a point on a capsule's core gets the core's left
        perpendicular (of the direction a to b).  Segments, circles of radius 0 and
        boxes of zero width have no inside: ``distance >= 0``; a point on a segment
        gets 0.0 and the segment's left perpendicular (``(1.0, 0.0)`` for a segment
        whose ends coincide).  A point exactly on a box's or polygon's boundary (exact
        signs, for the shape as stored; an OBB's corners as computed) gets 0.0, itself
        as the boundary point, and the outward normal of the first edge in ring order
        whose line holds it (at a corner, the lower-numbered of its two edges).
        Boundary points and
        depths are rounded: a boundary point lies within a few ulps of the shape's size
        of the boundary.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.point_query(fc.Circle(0, 0, 1), (3, 4))
        PointQuery(point=(0.6, 0.8), distance=4.0, normal=(0.6, 0.8))
        >>> fc.point_query(fc.AABB(0, 0, 4, 2), (1, 0.5))       # inside: negative
        PointQuery(point=(1.0, 0.0), distance=-0.5, normal=(0.0, -1.0))
        >>> fc.point_query(fc.AABB(0, 0, 4, 2), (4, 1))         # on the boundary
        PointQuery(point=(4.0, 1.0), distance=0.0, normal=(1.0, 0.0))
        >>> q = fc.point_query(fc.CircleArray([[0, 0, 1], [0, 0, float("nan")]]), (0, 2))
        >>> q.distance                                          # a NaN row
        array([ 1., nan])
        """
        if _batch.is_point_batch(shape, point):
            return self.kernels.points.point_query_rows(shape, point, workers)
        if type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(None, workers)
        return self.kernels.points.point_query(shape, point)

    def contains(self, shape, point, out=None, workers=1):
        """Whether a point lies inside a shape or on its boundary.

        Parameters
        ----------
        shape : Circle, Capsule, Segment, AABB, OBB or Polygon, or a shape array
            The shape (closed: its boundary counts).
        point : (x, y) pair of finite floats, or an (N, 2) array
            The query point.
        out : bool ndarray of shape (N,), optional
            For arrays: where to write the result (it is also returned).
        workers : int, optional
            For arrays: threads to split the rows over (``-1``: every core).

        Returns
        -------
        bool or bool ndarray of shape (N,)
            Exactly ``collide(shape, Circle(x, y, 0.0))``, by the same kernels: exact
            signs for boxes, polygons and segments (for the shape as stored; an OBB's
            corners as computed), the rounded distance against the radius for round
            shapes.  For arrays (as in `point_query`), a row whose shape is no shape or
            whose point is not finite gives False.

        Examples
        --------
        >>> import fastcol as fc
        >>> fc.contains(fc.Polygon([(0, 0), (4, 0), (0, 4)]), (2, 2))    # on an edge
        True
        >>> fc.contains(fc.Capsule(0, 0, 4, 0, 1), (2, 1.5))
        False
        >>> import numpy as np
        >>> fc.contains(fc.AABB(0, 0, 1, 1), np.array([[0.5, 0.5], [2.0, 0.0], [np.nan, 0.0]]))
        array([ True, False, False])
        """
        if _batch.is_point_batch(shape, point):
            return self.kernels.points.contains_rows(shape, point, out, workers)
        if out is not None or type(workers) is not int or workers != 1:
            _batch.no_out_for_shapes(out, workers)
        return self.kernels.points.contains(shape, point)


def _parameters(func) -> str:
    """``func``'s parameters as the text a builtin's signature line holds (an infinite
    default is written ``math.inf``, which ``inspect.signature`` reads back)."""
    return str(inspect.signature(func))[1:-1].replace("=inf", "=math.inf")


BACKENDS = {"compiled": "fastcol._ext", "reference": "fastcol._ref"}
_BOUND: dict[str, API] = {}


def bind(impl: ModuleType) -> API:
    """The public names over backend ``impl``: one ``API`` per backend, made once
    (the compiled backend's C entries are made once)."""
    api = _BOUND.get(impl.__name__)
    if api is None:
        api = _BOUND[impl.__name__] = API(impl)
    return api


def load(name: str) -> API:
    """The public names over backend ``name`` (``"compiled"`` or ``"reference"``),
    whichever ``import fastcol`` selected: for the tests and benchmarks that run both."""
    return bind(importlib.import_module(BACKENDS[name]))
