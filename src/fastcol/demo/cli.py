"""``python -m fastcol demo``: run the ball pit headless (or in a window) and draw it.

Options: ``--scene pit|lidar --steps S --seed K --out FILE --frames F --width PX
--workers T``; the ball pit (the default) also ``--bodies N --spring K --window``, the
lidar scene (``fastcol.demo.lidar``) ``--agents N --rays R``.
Bad values (negative counts, an output that cannot be written, an unknown suffix, an
option of the other scene) are a one-line usage error, exit status 2, before anything
runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from .render import PICTURES_HINT, WINDOW_HINT, have_pillow
from .scene import TYPE_NAMES, make_scene
from .step import Params, Timings, find_contacts, run as run_scene


def _count(minimum):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, got {value}")
        return value
    return parse


def _non_negative_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value >= 0.0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return value


# the options of one scene only, and their defaults there
PIT_OPTIONS = {"bodies": 2000, "spring": 0.0}
LIDAR_OPTIONS = {"agents": 32, "rays": 64}
DEFAULT_OUT = {"pit": "ball_pit.gif", "lidar": "lidar.gif"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scene", choices=("pit", "lidar"), default="pit",
                        help="pit: bodies falling and settling (default); lidar: agents "
                             "steering among walls and boxes by their rays")
    parser.add_argument("--bodies", type=_count(0), default=None, metavar="N",
                        help="pit: number of bodies (default 2000)")
    parser.add_argument("--agents", type=_count(0), default=None, metavar="N",
                        help="lidar: number of agents (default 32)")
    parser.add_argument("--rays", type=_count(1), default=None, metavar="R",
                        help="lidar: rays per agent, over 360 degrees (default 64)")
    parser.add_argument("--steps", type=_count(0), default=300, metavar="S",
                        help="fixed steps of 1/60 s (default 300)")
    parser.add_argument("--seed", type=_count(0), default=0, metavar="K",
                        help="random seed: the same seed gives the same run (default 0)")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="animated GIF (.gif) or numbered PNG frames (.png) "
                             "(default ball_pit.gif, or lidar.gif; needs Pillow)")
    parser.add_argument("--frames", type=_count(0), default=60, metavar="F",
                        help="frames in the picture: the start, then the rest spread over the "
                             "run, the last at its end; 0 for none (default 60)")
    parser.add_argument("--width", type=_count(16), default=640, metavar="PX",
                        help="picture width in pixels (default 640)")
    parser.add_argument("--spring", type=_non_negative_float, default=None, metavar="K",
                        help="pit: spring push between overlapping bodies, separating speed "
                             "per unit of depth (default 0: off)")
    parser.add_argument("--workers", type=_count(1), default=2, metavar="T",
                        help="threads for the queries (pit: the broadphase and the contact "
                             "calls; lidar: the index's); the run does not depend on it "
                             "(default 2)")
    parser.add_argument("--window", action="store_true",
                        help="pit: show the run live in a pygame-ce window (instead of "
                             "pictures)")


def _scene_options(parser, args):
    """Fill in the defaults of the chosen scene's options; a usage error for an option
    of the other scene."""
    mine, other = ((PIT_OPTIONS, LIDAR_OPTIONS) if args.scene == "pit"
                   else (LIDAR_OPTIONS, {**PIT_OPTIONS, "window": False}))
    for name in other:
        if getattr(args, name) not in (None, False):
            parser.error(f"--{name} is not an option of --scene {args.scene}")
    for name, default in mine.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    if args.out is None:
        args.out = DEFAULT_OUT[args.scene]


def _check_out(parser, path):
    """A usage error unless ``path`` can be written (checked before the run)."""
    if not path.lower().endswith((".gif", ".png")):
        parser.error(f"--out must end in .gif or .png, got {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        parser.error(f"--out {path!r}: folder {folder!r} does not exist")
    if os.path.isdir(path):
        parser.error(f"--out {path!r} is a folder")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        parser.error(f"--out {path!r}: not writable")


class _Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, total):
        self.total = total
        self.on = sys.stderr.isatty() and total > 0
        self.last = -1

    def __call__(self, k):
        if not self.on:
            return
        done = (k + 1) * 30 // self.total
        if done != self.last or k + 1 == self.total:
            self.last = done
            bar = "#" * done + "." * (30 - done)
            sys.stderr.write(f"\r[{bar}] step {k + 1}/{self.total}")
            if k + 1 == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def frame_steps(frames, steps):
    """The steps (0-based) after which a frame is drawn, besides the start.

    ``frames`` frames in all: the start, then ``frames - 1`` spread evenly over the run,
    the last one after the last step.  A single frame is the end of the run (the start
    when there are no steps).

    >>> sorted(frame_steps(5, 30)), sorted(frame_steps(1, 30)), sorted(frame_steps(3, 1))
    ([7, 14, 21, 29], [29], [0])
    """
    if frames == 1:
        return {steps - 1} if steps else set()
    return {round(j * steps / (frames - 1)) - 1 for j in range(1, frames)} - {-1}


def _pictures(args, parser, wanted) -> bool:
    """Whether the run draws pictures: ``wanted``, an output that can be written (else a
    usage error) and Pillow (else a note, and the run goes on without them)."""
    if wanted:
        _check_out(parser, args.out)
    if wanted and not have_pillow():
        print(f"note: {PICTURES_HINT}; running without pictures")
        return False
    return wanted


def run(args, parser) -> int:
    _scene_options(parser, args)
    if args.scene == "lidar":
        return run_lidar(args, parser)
    import fastcol as fc

    pictures = _pictures(args, parser, args.frames > 0 and not args.window)
    show = None
    if args.window:
        try:
            import pygame  # noqa: F401
        except ImportError:
            print(f"error: {WINDOW_HINT}", file=sys.stderr)
            return 1
    marks = frame_steps(args.frames, args.steps)
    progress = _Progress(args.steps)
    draw_time = [0.0]
    recorder = None

    def on_step(k, scene):
        t0 = time.perf_counter()
        if pictures and k in marks:
            recorder.draw(scene)
        open_ = show is None or show(scene)
        draw_time[0] += time.perf_counter() - t0
        progress(k)
        return open_  # False (the window was closed) stops the run

    params = Params(spring=args.spring, workers=args.workers)
    scene = make_scene(args.bodies, args.seed, fc)
    if pictures:
        from .render import FrameRecorder

        recorder = FrameRecorder(scene, args.width)
        if args.frames > 1 or not args.steps:
            recorder.draw(scene)
    if args.window:
        from .render import NoDisplay, open_window

        try:
            show = open_window(scene)
        except NoDisplay as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1

    t0 = time.perf_counter()
    try:
        timings = run_scene(scene, args.steps, params, on_step)
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        return 130
    wall = time.perf_counter() - t0

    if len(timings.response) < args.steps:
        print(f"window closed after {len(timings.response)} of {args.steps} steps", file=sys.stderr)
    _summary(fc, args, scene, timings, wall - draw_time[0])
    if pictures:
        return _save(recorder, args.out, draw_time[0])
    return 0


def _save(recorder, path, draw_seconds) -> int:
    """Write the frames; print what was written (exit status 0), or a one-line error (1)."""
    t0 = time.perf_counter()
    try:
        written = recorder.save(path)
    except OSError as exc:
        print(f"error: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    size = sum(os.path.getsize(f) for f in written)
    what = written[0] if len(written) == 1 else f"{written[0]} ... {written[-1]}"
    print(f"wrote {what} ({len(recorder.frames)} frames, {recorder.size[0]}x"
          f"{recorder.size[1]} px, {size / 1024:.0f} KB; drawing and saving "
          f"{draw_seconds + time.perf_counter() - t0:.1f} s)")
    return 0


def _summary(fc, args, scene, timings: Timings, seconds):
    steps = len(timings.response)
    counts = ", ".join(f"{len(a):,} {name}" for a, name in zip(scene.arrays, TYPE_NAMES))
    print(f"fastcol {fc.__version__} ({fc.backend} backend): {len(scene):,} bodies "
          f"({counts}), {steps} steps of 1/60 s, seed {args.seed}")
    if not steps:
        return
    skip = steps // 2
    ms = timings.summary(skip)
    contacts = int(sum(timings.contacts[skip:]) / max(1, len(timings.contacts[skip:])))
    rate = 1e3 / ms["total"] if ms["total"] > 0 else float("inf")
    print(f"per step, median of steps {skip + 1}-{steps}: broadphase {ms['broadphase']:.2f} ms, "
          f"narrowphase {ms['narrowphase']:.2f} ms, response {ms['response']:.2f} ms, "
          f"total {ms['total']:.2f} ms ({rate:,.0f} steps/s); {contacts:,} contacts")
    print(f"simulated {steps * Params().dt:.1f} s in {seconds:.1f} s")
    ia, ib, _normal, depth = find_contacts(scene)[:4]
    if len(depth):
        import numpy as np

        rel = depth / np.minimum(scene.size[ia], scene.size[ib])
        print(f"largest penetration at the end: {100 * rel.max():.1f}% of the smaller "
              f"body's size (median {100 * np.median(rel):.1f}%)")


def run_lidar(args, parser) -> int:
    """``--scene lidar``: agents scanning and steering (``fastcol.demo.lidar``)."""
    import fastcol as fc

    from .lidar import Params as LidarParams, make_scene as make_lidar, run as run_agents

    pictures = _pictures(args, parser, args.frames > 0)
    marks = frame_steps(args.frames, args.steps)
    progress = _Progress(args.steps)
    draw_time = [0.0]
    recorder = None

    def on_step(k, scene):
        if pictures and k in marks:
            t0 = time.perf_counter()
            recorder.draw(scene)
            draw_time[0] += time.perf_counter() - t0
        progress(k)

    try:
        scene = make_lidar(args.agents, args.rays, args.seed, fc, workers=args.workers)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if pictures:
        from .render import LidarRecorder

        recorder = LidarRecorder(scene, args.width)
        if args.frames > 1 or not args.steps:
            recorder.draw(scene)
    t0 = time.perf_counter()
    try:
        timings = run_agents(scene, args.steps, LidarParams(), on_step)
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        return 130
    wall = time.perf_counter() - t0
    _lidar_summary(fc, args, scene, timings, wall - draw_time[0])
    if pictures:
        return _save(recorder, args.out, draw_time[0])
    return 0


def _lidar_summary(fc, args, scene, timings, seconds):
    from .lidar import KINDS, Params

    steps = len(timings.raycast)
    rays = len(scene.scan.origins)
    counts = ", ".join(f"{len(a):,} {name}" for a, name in zip(scene.statics, KINDS))
    print(f"fastcol {fc.__version__} ({fc.backend} backend): {len(scene):,} agents of "
          f"{args.rays} rays ({rays:,} rays a step, range {scene.sensor_range:g}) among "
          f"{counts} in a {scene.width:g} x {scene.height:g} arena; {steps} steps of "
          f"1/60 s, seed {args.seed}")
    if not steps:
        return
    skip = steps // 2
    ms = timings.summary(skip)
    rate = 1e3 / ms["total"] if ms["total"] > 0 else float("inf")
    ray_rate = rays * 1e3 / ms["raycast"] if ms["raycast"] > 0 else float("inf")
    print(f"per step, median of steps {skip + 1}-{steps}: raycast {ms['raycast']:.2f} ms "
          f"({ray_rate / 1e6:,.2f} million rays/s), path query {ms['query']:.2f} ms, "
          f"refit {ms['refit']:.2f} ms, NumPy {ms['numpy']:.2f} ms, total "
          f"{ms['total']:.2f} ms ({rate:,.0f} steps/s)")
    blocked = sum(timings.blocked)
    print(f"simulated {steps * Params().dt:.1f} s in {seconds:.1f} s; {blocked:,} of "
          f"{steps * len(scene):,} moves blocked by a wall, a box or an agent in the way "
          f"(the agent turned instead)")
