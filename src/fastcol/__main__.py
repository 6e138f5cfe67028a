"""``python -m fastcol``: info, demo and bench.

``info`` prints the version, the backend and how the extension was built.  ``demo``
is the main job: the ball pit (``fastcol.demo``), bodies falling, colliding and
settling, drawn to an animated GIF (``--scene lidar``: agents steering among walls by
their rays, ``fastcol.demo.lidar``).  ``bench`` prints a quick speed table.
"""

from __future__ import annotations

import argparse
import platform
import sys


def _info() -> int:
    import fastcol

    print(f"fastcol {fastcol.__version__}")
    print(f"backend: {fastcol.backend}")
    print(f"python: {platform.python_implementation()} {platform.python_version()} "
          f"on {platform.system()} {platform.machine()}")
    if fastcol.backend == "compiled":
        from fastcol._ext._info import build_info

        info = build_info()
        print(f"compiler: {info['compiler']}")
        print(f"flags: {info['flags']}")
        print(f"simd: {info['simd']}")
    else:
        print("compiler: none (pure-Python reference)")
    return 0


def _bench(argv) -> int:
    from fastcol._quickbench import main as bench

    return bench(argv)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fastcol", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="version, backend, compiler and flags")
    demo = sub.add_parser("demo", help="the main job: the ball pit, bodies falling and settling "
                                       "(--scene lidar: agents scanning with rays)",
                          description="The ball pit: bodies of four shapes fall, collide "
                                      "and settle, on fastcol's buffer API.  --scene lidar: "
                                      "agents find their way among walls and boxes by "
                                      "casting rays into a ShapeIndex.")
    from fastcol.demo.cli import add_arguments, run

    add_arguments(demo)
    bench = sub.add_parser("bench", help="a quick speed table on this machine")
    bench.add_argument("--quick", action="store_true", help="shorter timings (less precise)")
    args = parser.parse_args(argv)
    if args.command == "demo":
        return run(args, demo)
    if args.command == "bench":
        return _bench(["--quick"] if args.quick else [])
    return _info()


if __name__ == "__main__":
    sys.exit(main())
