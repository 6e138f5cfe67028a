"""The lidar scene (``fastcol.demo.lidar``, ``python -m fastcol demo --scene lidar``) on
both backends: the drawn rays against brute force, agents never inside a wall or a box,
determinism, the command line.

Scenes are small on the reference backend (its ``ShapeIndex`` is a loop over every item
for every ray): a few agents of a few rays, tens of steps.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from fastcol.demo import lidar
from fastcol.demo.render import lidar_primitives
from test_cli import run as run_cli  # the subprocess runner of the pit's command-line tests

# (agents, rays, steps) small enough for each backend
SMALL = {"compiled": (48, 32, 300), "reference": (5, 12, 40)}


def small(fc):
    return SMALL[fc.backend]


def brute_force(fc, scene, origin, direction, max_t):
    """The first hit of one ray over every item of the scene's index, scalar query by
    scalar query: ``(item, t, point)``, ``(-1, inf, None)`` for no hit; at equal ``t``
    the lower item (as ``ShapeIndex.raycast`` promises)."""
    best = (-1, math.inf, None)
    item = 0
    for array in scene.index.arrays:
        for row in range(len(array)):
            h = fc.raycast(array[row], origin, direction, max_t)
            if h is not None and h.t < best[1]:
                best = (item, h.t, h.point)
            item += 1
    return best


def test_drawn_rays_end_where_brute_force_hits(fc):
    """For a few steps, every ray the picture draws ends at the first hit that the
    scalar ``fc.raycast`` over every item gives (or at full range), bit for bit, and no
    agent's ray hits the agent itself."""
    n, m = (16, 32) if fc.backend == "compiled" else (4, 8)
    scene = lidar.make_scene(n, m, seed=3, fc=fc)
    seen = {"static": 0, "agent": 0, "none": 0}

    def check(k, scene):
        s = scene.scan
        ends = s.ends
        scale, height = 7.5, 400.0
        rays, hits, _walls, _solids, _agents = lidar_primitives(scene, scale, height)
        assert rays.shape == (n * m, 4)
        for i in range(n * m):
            origin = tuple(map(float, s.origins[i]))
            direction = tuple(map(float, s.directions[i]))
            item, t, point = brute_force(fc, scene, origin, direction, s.max_t)
            assert s.hits.item[i] == item
            assert item != scene.n_static + i // m  # never the agent itself
            if item < 0:
                seen["none"] += 1
                assert not s.hits.hit[i] and s.hits.t[i] == math.inf
                assert tuple(ends[i]) == tuple(s.origins[i] + s.max_t * s.directions[i])
            else:
                seen["static" if item < scene.n_static else "agent"] += 1
                assert s.hits.t[i] == t and tuple(s.hits.point[i]) == point
                assert tuple(ends[i]) == point
                # the picture draws the line to that point (pixels: x * scale + 1, y down)
                assert tuple(rays[i, 2:]) == (point[0] * scale + 1.0, height - point[1] * scale)
        assert len(hits) == int(s.hits.hit.sum())

    check(-1, scene)
    lidar.run(scene, 3, on_step=check)
    # the test means something: rays hit walls and boxes, other agents, and nothing
    assert seen["static"] > 0 and seen["none"] > 0
    assert seen["agent"] > 0


def outside_everything(fc, scene):
    """True when no agent collides with a wall or a box (the scalar circle against each
    static array) and every agent is inside the arena."""
    for x, y, r in scene.agents.data.tolist():
        circle = fc.Circle(x, y, r)
        if any(bool(fc.collide(circle, a).any()) for a in scene.statics if len(a)):
            return False
        if not (0.0 < x - r and x + r < scene.width and 0.0 < y - r and y + r < scene.height):
            return False
    return True


def test_agents_never_overlap_walls_or_boxes(fc):
    n, m, steps = small(fc)
    scene = lidar.make_scene(n, m, seed=1, fc=fc)
    assert outside_everything(fc, scene)
    bad = []
    start = scene.positions.copy()
    lidar.run(scene, steps, on_step=lambda k, s: outside_everything(fc, s) or bad.append(k))
    assert bad == []
    assert np.hypot(*(scene.positions - start).T).min() > 0.5  # every agent went somewhere


def test_blocked_paths_keep_reckless_agents_out(fc):
    """Agents that ignore their lidar (no turning, full speed whatever the clearance,
    a whole diameter a step) still never enter a wall or a box: the path query stops
    them, and they turn round."""
    n, m, steps = small(fc)
    reckless = lidar.Params(speed=60.0, turn=0.0, wander=0.0, stop=-1.0, brake=1e-9)
    scene = lidar.make_scene(n, m, seed=2, fc=fc)
    bad = []
    timings = lidar.run(scene, steps // 2,
                        reckless, lambda k, s: outside_everything(fc, s) or bad.append(k))
    assert bad == []
    assert sum(timings.blocked) >= n  # they ran into things: the test means something


def test_same_seed_same_run_and_seeds_differ(fc):
    n, m, steps = small(fc)
    a, _ = lidar.simulate(n, m, steps // 4, seed=11, fc=fc)
    b, _ = lidar.simulate(n, m, steps // 4, seed=11, fc=fc)
    c, _ = lidar.simulate(n, m, steps // 4, seed=12, fc=fc)
    assert a.state_bytes() == b.state_bytes()
    assert a.scan.ends.tobytes() == b.scan.ends.tobytes()
    assert a.state_bytes() != c.state_bytes()


def test_workers_do_not_change_the_run(fc):
    n, m, steps = small(fc)
    one, _ = lidar.simulate(n, m, steps // 4, seed=5, fc=fc, workers=1)
    three, _ = lidar.simulate(n, m, steps // 4, seed=5, fc=fc, workers=3)
    assert one.state_bytes() == three.state_bytes()
    assert one.scan.ends.tobytes() == three.scan.ends.tobytes()


def test_rebuilding_the_tree_does_not_change_the_run(fc):
    """Rebuilt every step or only refitted: the index's answers equal brute force
    either way, so the run is the same bit for bit."""
    n, m, steps = small(fc)
    every, never = (lidar.make_scene(n, m, seed=6, fc=fc) for _ in range(2))
    lidar.run(every, steps // 4, lidar.Params(rebuild=1))
    lidar.run(never, steps // 4, lidar.Params(rebuild=10 ** 9))
    assert every.state_bytes() == never.state_bytes()
    assert every.scan.ends.tobytes() == never.scan.ends.tobytes()


def test_backends_agree_bit_for_bit(ext, ref):
    a, _ = lidar.simulate(4, 8, 20, seed=4, fc=ext)
    b, _ = lidar.simulate(4, 8, 20, seed=4, fc=ref)
    assert a.state_bytes() == b.state_bytes()
    assert a.scan.ends.tobytes() == b.scan.ends.tobytes()


def test_scene_layout(fc):
    scene = lidar.make_scene(6, 16, seed=0, fc=fc)
    assert len(scene) == 6 and len(scene.fan) == 16 and scene.fan[0] == 0.0
    walls = scene.statics[0].data
    # the first four walls close the arena
    w, h = scene.width, scene.height
    assert walls[:4].tolist() == [[0, 0, w, 0], [w, 0, w, h], [w, h, 0, h], [0, h, 0, 0]]
    assert len(scene.index) == scene.n_static + 6
    # the arena grows with the agents, keeping about 50 square units each
    big = lidar.make_scene(200, 1, seed=0, fc=fc)
    assert big.width * big.height >= 200 * lidar.AREA_PER_AGENT
    # agents start apart from each other
    p = big.positions
    gaps = np.hypot(p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1])
    assert (gaps + np.eye(len(p)) * 10 >= 2 * lidar.RADIUS).all()


def test_edge_sizes(fc):
    scene, timings = lidar.simulate(0, 4, 3, seed=0, fc=fc)        # no agents
    assert len(scene.scan.origins) == 0 and len(timings.raycast) == 3
    scene, _ = lidar.simulate(2, 1, 3, seed=0, fc=fc)              # one ray each
    assert scene.scan.origins.shape == (2, 2)


def test_timings_split_the_step(fc):
    scene = lidar.make_scene(3, 8, seed=1, fc=fc)
    timings = lidar.run(scene, 4)
    parts = ("raycast", "query", "refit", "numpy")
    assert all(len(getattr(timings, p)) == 4 for p in parts) and len(timings.blocked) == 4
    summary = timings.summary()
    assert set(summary) == {*parts, "total"}
    assert summary["total"] == pytest.approx(sum(summary[p] for p in parts))


def test_bad_scene_arguments(fc):
    with pytest.raises(ValueError, match="n_agents"):
        lidar.make_scene(-1, fc=fc)
    with pytest.raises(ValueError, match="n_rays"):
        lidar.make_scene(2, 0, fc=fc)
    with pytest.raises(ValueError, match="steps"):
        lidar.run(lidar.make_scene(1, 4, fc=fc), -1)


def test_same_seed_same_gif_bytes(fc, tmp_path):
    pytest.importorskip("PIL")
    from fastcol.demo.render import LidarRecorder

    def picture(seed, name):
        scene = lidar.make_scene(4, 8, seed=seed, fc=fc)
        recorder = LidarRecorder(scene, 200)
        recorder.draw(scene)
        lidar.run(scene, 5, on_step=lambda k, s: recorder.draw(s))
        return (tmp_path / recorder.save(tmp_path / name)[0]).read_bytes()

    first = picture(7, "a.gif")
    assert first == picture(7, "b.gif")
    assert first != picture(8, "c.gif")


# ------------------------------------------------------------------ the command line

SMALL_CLI = {"compiled": ["--agents", "12", "--rays", "32", "--steps", "30"],
             "reference": ["--agents", "3", "--rays", "8", "--steps", "6"]}


@pytest.mark.parametrize("backend", sorted(SMALL_CLI))
def test_cli_lidar_runs_and_draws(backend, tmp_path):
    out = tmp_path / "scan.gif"
    args = ["demo", "--scene", "lidar", *SMALL_CLI[backend], "--frames", "4", "--out", str(out)]
    proc = run_cli(args, backend)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"({backend} backend)" in proc.stdout
    summary = next(line for line in proc.stdout.splitlines() if line.startswith("per step"))
    for part in ("raycast", "rays/s", "query", "refit", "NumPy", "steps/s"):
        assert part in summary
    # the same seed writes the same bytes
    again = tmp_path / "again.gif"
    proc2 = run_cli(args[:-1] + [str(again)], backend)
    assert proc2.returncode == 0, proc2.stderr
    pytest.importorskip("PIL")
    from PIL import Image

    assert f"wrote {out}" in proc.stdout
    assert out.read_bytes() == again.read_bytes()
    with Image.open(out) as gif:
        assert gif.format == "GIF" and gif.n_frames == 4 and gif.width == 640


def test_cli_lidar_default_output_name(tmp_path):
    proc = run_cli(["demo", "--scene", "lidar", *SMALL_CLI["reference"], "--frames", "1"],
                   "reference", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    pytest.importorskip("PIL")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lidar.gif"]


def test_cli_lidar_without_pillow_still_runs(tmp_path, monkeypatch, capsys):
    import sys

    from fastcol.__main__ import main

    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now raises ImportError
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    out = tmp_path / "scan.gif"
    assert main(["demo", "--scene", "lidar", "--agents", "3", "--rays", "4", "--steps", "3",
                 "--out", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert 'python -m pip install "fastcol[demo]"' in stdout
    assert "per step" in stdout and "rays/s" in stdout
    assert not out.exists()


BAD = {
    "negative agents": (["--scene", "lidar", "--agents", "-1"], "--agents"),
    "no rays": (["--scene", "lidar", "--rays", "0"], "--rays"),
    "rays not a number": (["--scene", "lidar", "--rays", "many"], "--rays"),
    "unknown scene": (["--scene", "maze"], "--scene"),
    "agents in the pit": (["--agents", "5"], "--agents is not an option of --scene pit"),
    "rays in the pit": (["--scene", "pit", "--rays", "5"], "--rays is not an option"),
    "bodies in lidar": (["--scene", "lidar", "--bodies", "5"],
                        "--bodies is not an option of --scene lidar"),
    "spring in lidar": (["--scene", "lidar", "--spring", "1"], "--spring is not an option"),
    "window in lidar": (["--scene", "lidar", "--window"], "--window is not an option"),
    "lidar picture type": (["--scene", "lidar", "--out", "scan.jpg"], ".gif or .png"),
    "lidar no workers": (["--scene", "lidar", "--workers", "0"], "--workers"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_cli_bad_values_are_one_line_errors(case, tmp_path):
    args, message = BAD[case]
    proc = run_cli(["demo", "--steps", "1", *args], "reference", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert message in proc.stderr
    assert len([line for line in proc.stderr.splitlines() if "error:" in line]) == 1
    assert list(tmp_path.iterdir()) == []


def test_filters_walls_never_meet_walls_and_agents_never_meet_themselves(fc):
    """The scene's collision filters: the border walls touch at the corners, yet walls
    and boxes never pair among themselves; an agent's rays and path never meet its own
    circle; other agents are still seen."""
    scene = lidar.make_scene(6, 8, seed=4, fc=fc)
    walls = scene.statics[0]
    assert fc.overlapping_pairs(walls).tolist() == []
    bare = fc.SegmentArray(walls.data)
    assert len(fc.overlapping_pairs(bare)) >= 4          # the four corners touch
    for a in scene.statics:
        assert fc.overlapping_pairs(a, walls).tolist() == []
    # a ray from an agent's centre would hit its own circle at once without its group
    own = scene.n_static
    centre = np.repeat(scene.positions[:1], 2, axis=0)
    directions = np.array([[1.0, 0.0], [0.0, 1.0]])
    hits = scene.index.raycast(centre, directions, categories=lidar.AGENT,
                               masks=lidar.STATIC | lidar.AGENT, groups=1)
    assert own not in hits.item.tolist() and hits.hit.all()
    assert scene.index.raycast(centre, directions).item.tolist() == [own, own]
    # an agent's circle queried with its filters finds every item it touches but itself
    me = scene.agents[np.array([0])]
    assert own not in scene.index.query(me)[:, 1].tolist()
    me.groups = None
    assert own in scene.index.query(me)[:, 1].tolist()
