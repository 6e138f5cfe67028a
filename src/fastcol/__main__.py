"""``python -m fastcol``: info, demo and bench.

``info`` prints the version, the backend and how the extension was built.  ``demo``
is the main job: for now a tour of the queries on the six shapes (the animated ball pit
arrives with the buffer API).  ``bench`` points at the benchmark scripts.
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
    else:
        print("compiler: none (pure-Python reference)")
    return 0


def _demo() -> int:
    import math

    import fastcol as fc

    shapes = {
        "Circle(0, 0, 1)": fc.Circle(0, 0, 1),
        "Capsule(2, -1, 2, 1, 0.5)": fc.Capsule(2, -1, 2, 1, 0.5),
        "Segment(-3, 2, 3, 2)": fc.Segment(-3, 2, 3, 2),
        "AABB(-1, -4, 1, -2)": fc.AABB(-1, -4, 1, -2),
        "OBB(4, 2, 1, 0.5, pi/4)": fc.OBB(4, 2, 1, 0.5, math.pi / 4),
        "hexagon at (-3, -1)": fc.Polygon(
            [(-3 + math.cos(k * math.pi / 3), -1 + math.sin(k * math.pi / 3)) for k in range(6)]
        ),
    }
    print(f"fastcol {fc.__version__} ({fc.backend} backend): every pair of six shapes\n")
    names = list(shapes)
    print(f"{'a':28s} {'b':28s} {'collide':8s} {'distance':>9s}  closest points")
    for i, na in enumerate(names):
        for nb in names[i + 1:]:
            pa, pb, d = fc.closest_points(shapes[na], shapes[nb])
            hit = fc.collide(shapes[na], shapes[nb])
            print(f"{na:28s} {nb:28s} {str(hit):8s} {d:9.4f}  "
                  f"({pa[0]:.3f}, {pa[1]:.3f}) - ({pb[0]:.3f}, {pb[1]:.3f})")
    return 0


def _bench() -> int:
    print("The benchmarks are scripts in the source tree's bench/ folder:")
    print("  python bench/bench_scalar.py        ns per call of every query and pair")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fastcol", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="version, backend, compiler and flags")
    sub.add_parser("demo", help="the main job: queries on every pair of shapes")
    sub.add_parser("bench", help="where the benchmarks are")
    args = parser.parse_args(argv)
    return {"info": _info, "demo": _demo, "bench": _bench}[args.command]()


if __name__ == "__main__":
    sys.exit(main())
