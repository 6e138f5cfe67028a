"""The ball pit (``fastcol.demo``) on both backends: walls, settling, determinism, answers.

Scenes are small (the reference backend is a Python loop): tens of bodies, tens to a
few hundred steps.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from fastcol.demo import Params, Timings, build_scene, find_contacts, make_scene, run, simulate

# the reference backend is ~100x slower: fewer bodies and steps there
SMALL = {"compiled": (60, 120), "reference": (16, 40)}


def small(fc):
    return SMALL[fc.backend]


def bounds_of(scene):
    """Every body's bounding box, computed from the shape arrays' rows (not from the
    simulation's own bookkeeping): ``(min_x, min_y, max_x, max_y)`` arrays."""
    circles, capsules, boxes, polygons = scene.arrays
    parts = []
    c = circles.data
    parts.append((c[:, 0] - c[:, 2], c[:, 1] - c[:, 2], c[:, 0] + c[:, 2], c[:, 1] + c[:, 2]))
    k = capsules.data
    parts.append((np.minimum(k[:, 0], k[:, 2]) - k[:, 4], np.minimum(k[:, 1], k[:, 3]) - k[:, 4],
                  np.maximum(k[:, 0], k[:, 2]) + k[:, 4], np.maximum(k[:, 1], k[:, 3]) + k[:, 4]))
    b = boxes.data
    xs, ys = [], []
    for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
        xs.append(b[:, 0] + sx * b[:, 2] * np.cos(b[:, 4]) - sy * b[:, 3] * np.sin(b[:, 4]))
        ys.append(b[:, 1] + sx * b[:, 2] * np.sin(b[:, 4]) + sy * b[:, 3] * np.cos(b[:, 4]))
    parts.append((np.min(xs, 0), np.min(ys, 0), np.max(xs, 0), np.max(ys, 0)))
    rows = [polygons.vertices[i, : polygons.counts[i]] for i in range(len(polygons))]
    parts.append(tuple(np.array([f(r[:, a]) for r in rows]) for f, a in
                       ((np.min, 0), (np.min, 1), (np.max, 0), (np.max, 1))))
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))


def test_scene_has_every_type_and_starts_apart(fc):
    scene = make_scene(40, seed=2, fc=fc)
    assert [len(a) for a in scene.arrays] == [16, 8, 8, 8]
    assert all(type(a).__module__.startswith(fc.kernels.__name__) for a in scene.arrays)
    ia, _ib, _n, _d = find_contacts(scene)[:4]
    assert len(ia) == 0  # shelf packing leaves a gap between every two bodies


def test_no_body_leaves_the_walls(fc):
    n, steps = small(fc)
    outside = []

    def check(k, scene):
        x0, y0, x1, y1 = bounds_of(scene)
        bad = (x0 < 0) | (y0 < 0) | (x1 > scene.width) | (y1 > scene.height)
        if bad.any():
            outside.append((k, np.flatnonzero(bad).tolist()))

    # a crowded, fast scene pushes bodies hard against the walls: start everyone
    # moving fast towards the left wall and the floor
    scene = make_scene(n, seed=5, fc=fc)
    scene.vel[:] = [-40.0, -25.0]
    scene.omega[:] = 30.0   # spinning: corners and capsule ends swing out
    run(scene, steps, Params(), check)
    assert outside == []
    assert np.abs(scene.angle).max() > 1.0   # the test means something: they turned


@pytest.mark.parametrize("workers", [1, 3])
def test_contacts_are_every_colliding_pair(fc, workers):
    """find_contacts (one broadphase over the bounding boxes, then contact arrays per
    pair of types, on 1 or 3 threads) against a double loop of the scalar queries over
    every pair of bodies."""
    n = 30 if fc.backend == "compiled" else 14
    scene = make_scene(n, seed=3, fc=fc)
    run(scene, 90 if n == 30 else 60)  # fallen and touching
    ia, ib, normal, depth = find_contacts(scene, workers=workers)[:4]
    shapes = [s for arr in scene.arrays for s in arr]
    expected = {}
    for i in range(len(shapes)):
        for j in range(i + 1, len(shapes)):
            c = fc.contact(shapes[i], shapes[j])
            if c is not None:
                expected[i, j] = c
    assert len(expected) >= n // 3  # the test means something: the bodies touch
    got = {(int(a), int(b)): (tuple(nv), d) for a, b, nv, d in zip(ia, ib, normal, depth)}
    assert set(got) == set(expected)
    for key, c in expected.items():
        assert got[key] == (tuple(c.normal), c.depth)


def test_same_seed_same_state_and_seeds_differ(fc):
    n, steps = small(fc)
    steps //= 2
    a, _ = simulate(n, steps, seed=11, fc=fc)
    b, _ = simulate(n, steps, seed=11, fc=fc)
    c, _ = simulate(n, steps, seed=12, fc=fc)
    assert a.state_bytes() == b.state_bytes()
    assert a.state_bytes() != c.state_bytes()
    assert a.angle.tobytes() in a.state_bytes() and a.angle.any()   # angles count
    for x, y in zip(a.arrays, b.arrays):   # the shapes, turned in place, too
        assert (x.vertices if hasattr(x, "vertices") else x.data).tobytes() == \
            (y.vertices if hasattr(y, "vertices") else y.data).tobytes()


def test_contact_threads_do_not_change_the_run(fc):
    """The narrowphase's contact calls on 1 or 3 threads: the same contacts and, step
    after step, the same state (each call writes its own slice of the answers)."""
    n, steps = small(fc)
    steps = max(steps, 60)  # landed: contacts of several type pairs
    one = make_scene(n, seed=5, fc=fc)
    three = make_scene(n, seed=5, fc=fc)
    run(one, steps, Params(workers=1))
    run(three, steps, Params(workers=3))
    assert one.state_bytes() == three.state_bytes()
    found = [find_contacts(one, workers=w) for w in (1, 3)]
    # the test means something: contacts of several type pairs, so several calls
    kinds = np.searchsorted(np.asarray(one.start[1:]), np.c_[found[0][0], found[0][1]],
                            side="right")
    assert len({tuple(k) for k in kinds.tolist()}) >= 2
    for x, y in zip(*found):
        assert x.tobytes() == y.tobytes()


def test_backends_agree_bit_for_bit(ext, ref):
    """The backends' contacts are bit-identical, so the whole run is; and so is the
    check of deep pairs after the move (a ball knocked beyond its reach)."""
    a, _ = simulate(12, 30, seed=4, fc=ext)
    b, _ = simulate(12, 30, seed=4, fc=ref)
    assert a.state_bytes() == b.state_bytes()
    a, b = knocked(ext), knocked(ref)
    run(a, 5)
    run(b, 5)
    assert a.state_bytes() == b.state_bytes()
    assert a.corrected.tobytes() == b.corrected.tobytes()


def test_pile_settles_with_small_penetration(fc):
    """After settling, the deepest overlap is under 5% of the smaller body's size.

    Why 5%: contacts are solved by Gauss-Seidel passes with a position correction
    that leaves a slop of 1% of the size by design, so about 1% is the floor; these
    piles (two or three bodies deep) measure 2.1% (20 bodies) and 1.8% (60) after
    settling.  5% leaves room for another platform's rounding to take a different
    path through the pile, and a solver that failed (no position correction, bodies
    sinking into each other) is far above it.
    """
    n = 60 if fc.backend == "compiled" else 20
    steps = 400 if n == 60 else 300
    scene, _ = simulate(n, steps, seed=7, fc=fc)
    ia, ib, _normal, depth = find_contacts(scene)[:4]
    assert len(ia) >= n // 2  # a pile: they rest on each other
    rel = depth / np.minimum(scene.size[ia], scene.size[ib])
    assert rel.max() < 0.05
    speed = np.hypot(scene.vel[:, 0], scene.vel[:, 1])
    assert speed.max() < 0.5  # at rest (they fell at ~40 units/s)
    # and they did fall: every body is in the lower part of the box
    assert (scene.pos[:, 1] < 0.5 * scene.height).all()


@pytest.mark.parametrize("speed, after", [(12.0, 6.0), (4.0, 0.0)], ids=["impact", "slow"])
def test_head_on_circles(fc, speed, after):
    """Worked by hand: equal circles (r = 1, size 1) meeting at +speed and -speed,
    no gravity, no air, restitution e = 0.5.

    An impact is an approach faster than 0.2 * 1 * 60 = 12 per second.  Head on, the
    contact point is on the line of centres: no torque, they do not turn.  At
    speed 12 (approach 24) one impulse along the normal (1, 0) turns the relative
    normal speed -24 into +e * 24 = 12: each circle's velocity changes by 18 (equal
    masses), +12 -> -6 and -12 -> +6.  At speed 4 (approach 8, no impact) the target
    is 0: both stop.
    """
    scene = build_scene(40.0, 20.0, circles=[[19.05, 10.0, 1.0], [20.95, 10.0, 1.0]],
                        velocities=[[speed, 0.0], [-speed, 0.0]], fc=fc)
    params = Params(gravity=0.0, damping=0.0, restitution=0.5, friction=0.0)
    run(scene, 1, params)
    assert scene.vel[:, 0] == pytest.approx([-after, after], rel=1e-12, abs=1e-12)
    assert scene.vel[:, 1].tolist() == [0.0, 0.0]
    assert scene.omega.tolist() == [0.0, 0.0]
    # the overlap 0.1 is corrected beyond the slop (1% of the size) and the circles
    # moved apart by 2 * after * dt in the step: no longer overlapping by 0.1
    assert scene.pos[1, 0] - scene.pos[0, 0] > 1.9


def test_stack_rests_on_the_floor(fc):
    """A box on the floor and a ball on the box: they come to rest where a hand
    drawing puts them, the box's bottom on the floor (y = 0), the ball's centre at
    box height 2 * 0.5 plus its radius 0.5 = 1.5, within the slop."""
    scene = build_scene(10.0, 10.0, circles=[[5.0, 2.0, 0.5]], boxes=[[5.0, 0.6, 1.0, 0.5, 0.0]],
                        fc=fc)
    run(scene, 240 if fc.backend == "compiled" else 120)
    box_bottom = scene.pos[1, 1] - 0.5
    ball = scene.pos[0]
    slop = 0.02 * max(scene.size)  # 1% of the size per contact, two contacts
    assert 0.0 <= box_bottom <= slop
    assert ball[1] == pytest.approx(1.5, abs=slop)
    assert ball[0] == pytest.approx(5.0, abs=1e-9)   # straight above: nothing pushes sideways
    assert np.abs(scene.vel).max() < 1e-3


def test_timings_split_the_step(fc):
    scene = make_scene(12, seed=1, fc=fc)
    timings = run(scene, 5)
    assert isinstance(timings, Timings)
    assert len(timings.broadphase) == len(timings.narrowphase) == len(timings.response) == 5
    summary = timings.summary()
    assert set(summary) == {"broadphase", "narrowphase", "response", "total"}
    assert all(v >= 0.0 for v in summary.values())
    assert summary["total"] == pytest.approx(
        summary["broadphase"] + summary["narrowphase"] + summary["response"])


def test_spring_pushes_overlapping_balls_apart(fc):
    """With the spring on, two overlapping resting balls (no gravity) separate faster."""
    rows = [[9.5, 10.0, 1.0], [10.5, 10.0, 1.0]]  # overlapping by 1.0
    still = Params(gravity=0.0, damping=0.0, beta=0.0)
    plain = build_scene(20.0, 20.0, circles=rows, fc=fc)
    sprung = build_scene(20.0, 20.0, circles=rows, fc=fc)
    run(plain, 1, still)
    run(sprung, 1, Params(gravity=0.0, damping=0.0, beta=0.0, spring=10.0))
    assert plain.vel.tolist() == [[0.0, 0.0], [0.0, 0.0]]  # no correction, no spring
    # worked by hand: separating speed spring * depth = 10, split between equal masses
    assert sprung.vel[:, 0] == pytest.approx([-5.0, 5.0], rel=1e-12)


def test_bad_scene_arguments(fc):
    with pytest.raises(ValueError, match="n_bodies"):
        make_scene(-1, fc=fc)
    with pytest.raises(ValueError, match="steps"):
        run(make_scene(2, fc=fc), -1)
    with pytest.raises(ValueError, match="circles"):
        build_scene(10, 10, circles=[[1, 2]], fc=fc)
    with pytest.raises(ValueError, match="velocities"):
        build_scene(10, 10, circles=[[1, 2, 1]], velocities=[[0, 0], [0, 0]], fc=fc)


def test_make_scene_sizes():
    scene = make_scene(200, seed=0)
    assert len(scene) == 200
    area = 1.0 / scene.inv_mass
    # circles: pi r^2 with r in [0.35, 1.0]
    assert ((area[:80] >= math.pi * 0.35**2) & (area[:80] <= math.pi)).all()
    # the pile (area / 0.6) fills at most about half the walls' height
    assert area.sum() / 0.6 / scene.width < 0.5 * scene.height


def test_demo_uses_only_the_public_api():
    """The simulation is the example users copy: it reaches fastcol through the public
    names a backend module has (``fc.overlapping_pairs``, ``fc.contact``, the shape
    arrays, ``fc.rotate``), never through private modules."""
    import ast
    import pathlib

    import fastcol
    import fastcol.demo

    public = set(fastcol.__all__)
    folder = pathlib.Path(fastcol.demo.__file__).parent
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert not (node.module or "").startswith("fastcol."), (path.name, node.module)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "fc":
                assert node.attr in public, (path.name, node.attr)


def test_tilted_box_topples_onto_a_face(fc):
    """A 2 x 1 box standing on one corner, tilted 30 degrees, its corner on the floor:
    gravity at the centroid and the floor's push at the corner turn it until a long
    face lies on the floor (worked by hand: at rest the angle is a multiple of pi/2
    and the centre is half the height, 0.5, above the floor, within the slop)."""
    tilt = math.radians(30.0)
    # the lowest corner of a 2 x 1 box at 30 degrees is 1 sin 30 + 0.5 cos 30 below
    # its centre: start with that corner on the floor
    cy = 1.0 * math.sin(tilt) + 0.5 * math.cos(tilt)
    scene = build_scene(10.0, 10.0, boxes=[[5.0, cy, 1.0, 0.5, tilt]], fc=fc)
    run(scene, 150 if fc.backend == "compiled" else 90)
    angle = scene.arrays[2].data[0, 4]
    quarter = angle / (math.pi / 2)
    assert abs(quarter - round(quarter)) * (math.pi / 2) < 0.01   # on a face
    assert round(quarter) % 2 == 0                             # a long face
    assert abs(scene.angle[0] + tilt) < 0.01 or abs(scene.angle[0] - (math.pi - tilt)) < 0.01
    assert 0.5 <= scene.pos[0, 1] <= 0.5 + 0.02 * scene.size[0]
    assert abs(scene.omega[0]) < 1e-3 and np.abs(scene.vel[0]).max() < 1e-3   # resting


def test_box_on_its_face_stays(fc):
    """The same box lying flat does not turn at all (the two floor points push alike)."""
    scene = build_scene(10.0, 10.0, boxes=[[5.0, 0.5, 1.0, 0.5, 0.0]], fc=fc)
    run(scene, 60 if fc.backend == "compiled" else 30)
    assert scene.angle[0] == 0.0 and scene.omega[0] == 0.0
    assert scene.pos[0, 0] == 5.0


def energy(scene, params):
    """Kinetic, rotational and potential energy of every body, from the masses and
    moments the scene holds (``fc.mass_properties``, tested in test_mass.py)."""
    m, inertia = 1.0 / scene.inv_mass, 1.0 / scene.inv_inertia
    return (0.5 * m * (scene.vel ** 2).sum(axis=1) + 0.5 * inertia * scene.omega ** 2
            + m * params.gravity * scene.pos[:, 1])


def test_energy_never_grows_without_restitution(fc):
    """Total energy (kinetic + rotational + potential) over a pile run without
    restitution, step by step.

    What can add energy in a step, and what the test allows:

    * the position correction and the wall clamp move bodies without a velocity,
      and moving one up lifts it: the step records each body's correction
      (``Scene.corrected``) and ``m g dy`` of it is allowed, measured here;
    * the Gauss-Seidel passes with mass scaling (the lower body counts heavier: not
      momentum conserving), the points of a group solved together and the
      speculative contacts are not exactly energy conserving: measured on these
      scenes, at most 3e-6 of the starting energy in a step (0.10 of 38,803 for 60
      bodies), so the test allows 1e-4 of it;
    * everything else loses energy: gravity by semi-implicit Euler (-m g^2 dt^2 / 2
      a step), air damping, friction, inelastic contacts.

    And the correction is small: over the run it lifts less than 5% of the energy the
    run loses (measured 0.8% for 60 bodies, 0.6% for 16).
    """
    n, steps = (60, 300) if fc.backend == "compiled" else (16, 120)
    params = Params(restitution=0.0)
    scene = make_scene(n, seed=1, fc=fc)
    m = 1.0 / scene.inv_mass
    e = [energy(scene, params).sum()]
    lifted = []

    def record(k, scene):
        e.append(energy(scene, params).sum())
        lifted.append(float((m * params.gravity * scene.corrected[:, 1]).sum()))

    run(scene, steps, params, record)
    e = np.array(e)
    growth = np.diff(e) - np.array(lifted)
    assert growth.max() <= 1e-4 * e[0], (growth.argmax(), growth.max())
    lost = e[0] - e[-1]
    assert lost > 0.5 * e[0]              # the test means something: the pile fell
    assert sum(lifted) < 0.05 * lost
    assert sum(lifted) > 0.0              # and the lift is real (66 of the 60 bodies'
    # 300 steps gain energy; none of the 16 bodies' 120, which lose more than it lifts)


def test_capsules_and_polygons_turn(fc):
    """In a pile run bodies turn: some capsule and some polygon turn by more than half
    a radian (29 degrees; measured 1.59 and 1.05 on the reference's 16 bodies, 1.04
    and 1.83 on the compiled run's 60), and the shape arrays show it (their rows
    turned, not only ``angle``)."""
    n, steps = small(fc)
    scene, _ = simulate(n, 3 * steps, seed=5, fc=fc)
    k0, k1, p0 = scene.start[1], scene.start[2], scene.start[3]
    assert np.abs(scene.angle[k0:k1]).max() > 0.5
    assert np.abs(scene.angle[p0:]).max() > 0.5
    # a capsule's core direction in its row agrees with its angle (drawn at the start)
    fresh = make_scene(n, seed=5, fc=fc)
    before, after = fresh.arrays[1].data, scene.arrays[1].data
    phi0 = np.arctan2(before[:, 3] - before[:, 1], before[:, 2] - before[:, 0])
    phi1 = np.arctan2(after[:, 3] - after[:, 1], after[:, 2] - after[:, 0])
    turned = np.angle(np.exp(1j * (phi1 - phi0 - scene.angle[k0:k1])))
    assert np.abs(turned).max() < 1e-9


def test_deepest_overlap_at_every_step_of_a_2000_body_run(ext):
    """The deepest overlap of any pair at every step of the 2,000-body default run
    (compiled only: the reference takes minutes), relative to the smaller body's size.

    The issue asks for under 25% at every step.  The deep overlaps came while the pile
    lands: pairs that a turn or a fast slide took deep past the step's linear position
    correction, and bodies knocked beyond their reach into bodies the step never met.
    The step now meets again after the move every pair that may have gone past 20%
    (and every pair of a body that outran its reach) and translates the deep ones back
    to 10%: measured 16.6% at the worst step (130), none over 25% (before: 49.5% at
    step 124, 18 steps over 25%); seeds 1-7 measured 15.1% to 18.7% at their worst
    steps.  After settling it stays small: under 20% over the last 50 steps
    (measured 11.2%) and under 10% at the end (measured 7.1%; the settled piles are
    chaotic: seeds 0-7 measured 5.5% to 11.6% at the end, and 5.4% to 11.8% before).
    """
    scene = make_scene(2000, seed=0, fc=ext)
    worst = []

    def deepest(k, scene):
        ia, ib, _n, depth = find_contacts(scene)[:4]
        rel = depth / np.minimum(scene.size[ia], scene.size[ib])
        worst.append(float(rel.max(initial=0.0)))

    run(scene, 300, Params(), deepest)
    worst = np.array(worst)
    assert worst.max() < 0.25, (worst.argmax(), worst.max())
    assert worst[-50:].max() < 0.2
    assert worst[-1] < 0.1


def circle_overlap(scene):
    """The deepest overlap of two circles of the scene, relative to the smaller radius,
    worked from the circles' rows (radii less the distance of the centres)."""
    c = scene.arrays[0].data
    apart = np.hypot(c[:, None, 0] - c[None, :, 0], c[:, None, 1] - c[None, :, 1])
    depth = c[:, None, 2] + c[None, :, 2] - apart
    np.fill_diagonal(depth, -np.inf)
    rel = depth / np.minimum(c[:, None, 2], c[None, :, 2])
    return float(rel.max())


def knocked(fc):
    """Three balls of radius 0.5 on the floor: the first, at 90 per second, hits the
    second, which rests 0.1 short of the third (further than their reaches: the step
    does not meet that pair)."""
    return build_scene(20.0, 10.0, circles=[[2.0, 0.5, 0.5], [4.0, 0.5, 0.5], [5.1, 0.5, 0.5]],
                       velocities=[[90.0, 0.0], [0.0, 0.0], [0.0, 0.0]], fc=fc)


def test_a_ball_knocked_beyond_its_reach_is_met_again(fc):
    """Worked by hand: the hit gives the second ball about (1 + restitution) / 2 of
    the first's speed, 58.5 per second, 0.975 in the step, so without the check after
    the move it ends 0.875 deep in the third (175% of the radius; measured 174%).
    The check meets the pairs of a body that outran its reach and moves them back to
    ``deep_to`` (10%) of the smaller size (the size of a ball is its radius)."""
    plain = knocked(fc)
    run(plain, 1, Params(deep=1.0))
    assert circle_overlap(plain) > 1.5
    checked = knocked(fc)
    run(checked, 1, Params())
    assert circle_overlap(checked) <= Params().deep_to + 1e-9
    # the push moved the third ball to the right, and it took the first step's
    # correction into account (energy bookkeeping)
    assert checked.pos[2, 0] > 5.1 and checked.corrected[2, 0] > 0.0


def test_bounds_of_some_rows(fc):
    """``Scene.bounds(rows)`` (the wall clamp's boxes of the bodies near a wall)
    against the boxes worked from every type's rows, on a landed scene of every type."""
    n, steps = small(fc)
    scene = make_scene(n, seed=7, fc=fc)
    run(scene, steps // 2)
    expected = np.stack(bounds_of(scene), axis=1)
    rows = np.flatnonzero(np.arange(n) % 3 != 1)
    assert np.allclose(scene.bounds(rows), expected[rows], rtol=0, atol=1e-12)
    assert np.allclose(scene.bounds(), expected, rtol=0, atol=1e-12)
    assert scene.bounds(np.zeros(0, np.int64)).shape == (0, 4)
