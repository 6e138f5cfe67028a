"""Scalar-query benchmark: nanoseconds per call, against the Python -> C call floor.

Measures ``collide``, ``distance``, ``closest_points``, ``contact`` and
``time_of_impact`` for every unordered pair of the six shapes (21 pairs),
``raycast`` for each shape, and ``shape_cast`` for the round pairs (Circle-Circle,
Circle-Capsule, Capsule-Capsule: placed as ``time_of_impact``'s, its target a ratio to
``time_of_impact``'s time), on the compiled backend (``fastcol._ext``) and on the
pure-Python reference (``fastcol._ref``), each imported directly.  In the same run it
measures the *floor*: a Cython ``def floor(a, b): pass`` that this script compiles
itself, with the compiler flags of fastcol's ``setup.py`` (``-O3 -ffp-contract=off``
...) and its release directives, so "x floor" says how many bare Python -> C calls one
query costs on this machine.

How to run (from the repository root)::

    python bench/bench_scalar.py                  # after installing fastcol
    PYTHONPATH=src python bench/bench_scalar.py   # with an in-place build of src/fastcol

Options: ``--quick`` (fewer and shorter repeats), ``--only QUERY``, ``--json FILE`` (write the raw per-repeat timings),
``--no-reference`` (skip the slow reference backend), ``--cpu-time`` (time with
process CPU time instead of wall-clock time: much steadier when other processes compete
for the CPU), ``--rebuild-floor``.

The floor module is built once with Cython + setuptools (``build_ext --inplace``) into
``bench/_floor_build/`` (git-ignored; a temporary directory if that is not writable)
and reused while its source, flags, Cython and Python versions are unchanged.  If the
compiled backend cannot be imported the script says so and benchmarks the reference
alone; if the floor cannot be built the "x floor" column is left empty.

Method: ``timeit.Timer("f(a, b)", globals=...)`` with fixed arguments; ``number`` is
calibrated so that one repeat takes about 20-40 ms (less for the reference); at least
7 repeats; the median ns per call is reported.  Each repeat of a compiled query comes
right after a repeat of the floor, and "x floor" is the median over the repeats of the
query's time divided by the floor's just before it: the host's speed drifts (other
tenants; the floor alone ranges over 30-55 ns in one run), and a ratio of two times
taken a few milliseconds apart cancels that drift where one run-wide floor median
cannot.  The floor's line reports its median over all its repeats.

Placement: every pair is shape A (centred on the origin) against shape B (a mirrored
variant, so no two edges are parallel by construction).  ``collide`` uses B moved by
(0.75, 0.25), overlapping A (its typical case in a game loop, after a broadphase);
``distance`` and ``closest_points`` use B moved by (2.25, 0.25), a gap of about 0.25-0.5
(near but separated, so the full closest-feature computation runs).  ``contact`` uses
the overlapping placement; ``raycast`` casts from (-5, 0.3) along (1, 0.05) at shape A;
``time_of_impact`` moves B from the separated placement by (-3, 0) per unit time onto
a still A.  Calls with more arguments than two are still divided by the two-argument
floor (a slightly strict ratio).  Polygons are regular hexagons.  The script exits 0
whatever the timings; targets are printed as
PASS/MISS.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

QUERIES = ("collide", "distance", "closest_points", "contact", "raycast", "time_of_impact",
           "shape_cast")
KINDS = ("Circle", "Capsule", "Segment", "AABB", "OBB", "Polygon")
PAIRS = [(a, b) for i, a in enumerate(KINDS) for b in KINDS[i:]]  # 21 unordered pairs
ROUND = ("Circle", "Capsule", "Segment")

OVERLAP_OFFSET = (0.75, 0.25)  # B's centre inside A: overlapping
GAP_OFFSET = (2.25, 0.25)  # every shape has |x| <= 1 about its centre: separated

# Issue targets (ratios to the floor; speed-up over the reference).
TARGET_CIRCLE_CIRCLE = 1.2
TARGET_COLLIDE = 3.0
TARGET_DISTANCE = 5.0
TARGET_SPEEDUP = 20.0
TARGET_CONTACT_ROUND = 3.0
TARGET_CONTACT_HEXAGONS = 6.0
TARGET_RAYCAST = 3.0
TARGET_TOI_ROUND = 4.0
# shape_cast against time_of_impact's time for the same round pairs
TARGET_CAST_OVER_TOI = 1.5
CAST_PAIRS = (("Circle", "Circle"), ("Circle", "Capsule"), ("Capsule", "Capsule"))
# a ray from the left towards every shape A; B moving left onto A (A stays still)
RAY = ((-5.0, 0.3), (1.0, 0.05))
TOI_VELOCITY = (-3.0, 0.0)
SPEEDUP_PAIRS = (("Capsule", "Capsule"), ("Polygon", "Polygon"))

# --------------------------------------------------------------------------- floor


def project_compile_args() -> list[str]:
    """The compiler flags of fastcol's setup.py (GCC_FLAGS / MSVC_FLAGS), else its policy."""
    wanted = "MSVC_FLAGS" if os.name == "nt" else "GCC_FLAGS"
    fallback = ["/O2", "/fp:precise"] if os.name == "nt" else ["-O3", "-ffp-contract=off"]
    setup_py = Path(__file__).resolve().parent.parent / "setup.py"
    try:
        tree = ast.parse(setup_py.read_text())
    except (OSError, SyntaxError):
        return fallback
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == wanted for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    return fallback


# Same optimisation flags and (release) directives as fastcol's own extension.
FLOOR_COMPILE_ARGS = project_compile_args()
FLOOR_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "initializedcheck": False,
    "nonecheck": False,
    "cdivision": True,
    "embedsignature": True,
    "binding": True,
    "freethreading_compatible": True,
}
FLOOR_SOURCE = '''\
def floor(a, b):
    """Take two objects, do nothing: the cost of a bare Python -> C call."""
    pass
'''
FLOOR_SETUP = '''\
from setuptools import Extension, setup
from Cython.Build import cythonize

setup(
    name={name!r},
    ext_modules=cythonize(
        [Extension({name!r}, [{name!r} + ".pyx"], extra_compile_args={args!r})],
        compiler_directives={directives!r},
        quiet=True,
    ),
    script_args=["build_ext", "--inplace", "--build-temp", "build", "-q"],
)
'''


def floor_module_name(source: str = FLOOR_SOURCE, prefix: str = "_fastcol_floor_") -> str:
    """A name that changes whenever the built module would differ.

    ``source`` and ``prefix`` let other benchmarks (bench_batch.py) build their own
    modules with the same flags and directives.
    """
    import Cython

    key = repr(
        (source, FLOOR_COMPILE_ARGS, sorted(FLOOR_DIRECTIVES.items()),
         Cython.__version__, sys.version, sys.platform)
    )
    return prefix + hashlib.sha256(key.encode()).hexdigest()[:12]


def floor_build_dir() -> Path:
    """``bench/_floor_build/`` when writable, else a fresh temporary directory."""
    here = Path(__file__).resolve().parent / "_floor_build"
    try:
        here.mkdir(exist_ok=True)
        probe = here / ".write-test"
        probe.write_text("")
        probe.unlink()
        return here
    except OSError:
        return Path(tempfile.mkdtemp(prefix="fastcol_floor_"))


def find_extension(directory: Path, name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = directory / (name + suffix)
        if candidate.exists():
            return candidate
    return None


def build_floor(directory: Path, name: str, source: str = FLOOR_SOURCE) -> None:
    """Cythonize and compile ``source`` as ``name.pyx`` in place; raise with the log on failure."""
    (directory / (name + ".pyx")).write_text(source)
    setup_py = directory / ("setup_" + name + ".py")
    setup_py.write_text(
        FLOOR_SETUP.format(name=name, args=FLOOR_COMPILE_ARGS, directives=FLOOR_DIRECTIVES)
    )
    proc = subprocess.run(
        [sys.executable, setup_py.name], cwd=directory, capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise RuntimeError(f"floor build failed:\n{proc.stdout}\n{proc.stderr}")


def load_floor(rebuild: bool = False):
    """Return the compiled ``floor(a, b)`` function, building it if needed."""
    name = floor_module_name()
    directory = floor_build_dir()
    path = None if rebuild else find_extension(directory, name)
    if path is None:
        build_floor(directory, name)
        path = find_extension(directory, name)
        if path is None:
            raise RuntimeError(f"floor build produced no extension module in {directory}")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.floor


# -------------------------------------------------------------------------- timing


@dataclass
class Plan:
    """How long to time one function: ``repeat`` runs of about ``target_s`` each."""

    repeat: int
    target_s: float
    clock: Callable[[], float] = time.perf_counter  # or time.process_time (--cpu-time)


@dataclass
class Timing:
    number: int
    samples_ns: list[float] = field(default_factory=list)  # ns per call, one per repeat
    floor_ns: list[float] = field(default_factory=list)  # the floor just before each repeat

    @property
    def median_ns(self) -> float:
        return statistics.median(self.samples_ns)


def make_timer(f, args, clock) -> timeit.Timer:
    names = [f"x{i}" for i in range(len(args))]
    env = dict(zip(names, args), f=f)
    return timeit.Timer(f"f({', '.join(names)})", timer=clock, globals=env)


def calibrate(timer: timeit.Timer, target_s: float) -> int:
    """The ``number`` of calls that takes about ``target_s`` (also warms up)."""
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= target_s / 5:
            return max(1, round(number * target_s / elapsed))
        number *= 10


def measure(timer: timeit.Timer, number: int, repeat: int) -> list[float]:
    return [t / number * 1e9 for t in timer.repeat(repeat=repeat, number=number)]


def time_call(f, args, plan: Plan, floor: Floor | None = None) -> Timing:
    """Time ``f(*args)``; with ``floor``, each repeat right after a repeat of the floor."""
    timer = make_timer(f, args, plan.clock)
    number = calibrate(timer, plan.target_s)
    if floor is None:
        return Timing(number, measure(timer, number, plan.repeat))
    timing = Timing(number)
    for _ in range(plan.repeat):
        floor.sample(repeat=1)
        timing.floor_ns.append(floor.timing.samples_ns[-1])
        timing.samples_ns += measure(timer, number, 1)
    return timing


def paired_ratio(timing: Timing) -> float:
    """The median over the repeats of the query's time / the floor's just before it."""
    return statistics.median(t / f for t, f in zip(timing.samples_ns, timing.floor_ns))


class Floor:
    """The floor, timed repeatedly during the run with one fixed ``number``."""

    def __init__(self, func, plan: Plan):
        self.timer = make_timer(func, (object(), object()), plan.clock)
        self.plan = plan
        self.timing = Timing(calibrate(self.timer, plan.target_s))

    def sample(self, repeat: int | None = None) -> None:
        repeat = self.plan.repeat if repeat is None else repeat
        self.timing.samples_ns += measure(self.timer, self.timing.number, repeat)

    @property
    def median_ns(self) -> float:
        return self.timing.median_ns


# -------------------------------------------------------------------------- shapes


def hexagon(radius: float, phase: float) -> list[tuple[float, float]]:
    return [
        (radius * math.cos(phase + k * math.pi / 3), radius * math.sin(phase + k * math.pi / 3))
        for k in range(6)
    ]


def shape_a(mod, kind: str):
    """Shape A of each kind, centred on the origin, |x| <= 1."""
    return {
        "Circle": lambda: mod.Circle(0.0, 0.0, 1.0),
        "Capsule": lambda: mod.Capsule(-0.5, -0.25, 0.5, 0.25, 0.5),
        "Segment": lambda: mod.Segment(-1.0, -0.5, 1.0, 0.5),
        "AABB": lambda: mod.AABB(-1.0, -0.75, 1.0, 0.75),
        "OBB": lambda: mod.OBB(0.0, 0.0, 0.8, 0.4, 0.5),
        "Polygon": lambda: mod.Polygon(hexagon(1.0, 0.0)),
    }[kind]()


def shape_b(mod, kind: str, offset: tuple[float, float]):
    """Shape B of each kind: a mirrored variant of A (|x| <= 1), moved by ``offset``."""
    shape = {
        "Circle": lambda: mod.Circle(0.0, 0.0, 0.75),
        "Capsule": lambda: mod.Capsule(-0.5, 0.25, 0.5, -0.25, 0.5),
        "Segment": lambda: mod.Segment(-1.0, 0.5, 1.0, -0.5),
        "AABB": lambda: mod.AABB(-0.75, -1.0, 0.75, 1.0),
        "OBB": lambda: mod.OBB(0.0, 0.0, 0.8, 0.4, -0.5),
        "Polygon": lambda: mod.Polygon(hexagon(1.0, 0.25)),
    }[kind]()
    return shape.translated(*offset)


def pair_shapes(mod, query: str, kind_a: str, kind_b: str):
    offset = OVERLAP_OFFSET if query in ("collide", "contact") else GAP_OFFSET
    return shape_a(mod, kind_a), shape_b(mod, kind_b, offset)


def call_args(mod, query: str, kind_a: str, kind_b: str) -> tuple:
    """The arguments of one timed call: a pair, or a ray at A, or B moving onto A."""
    if query == "raycast":
        return (shape_a(mod, kind_a), *RAY)
    a, b = pair_shapes(mod, query, kind_a, kind_b)
    if query in ("time_of_impact", "shape_cast"):
        return (a, (0.0, 0.0), b, TOI_VELOCITY)
    return (a, b)


def cases(query: str) -> list[tuple[str, str]]:
    """The pairs a query is timed on (a ray needs one shape: the pair (kind, kind))."""
    if query == "shape_cast":
        # the round pairs, next to time_of_impact's (the same placement and velocity)
        return list(CAST_PAIRS)
    return [(k, k) for k in KINDS] if query == "raycast" else PAIRS


def check_placement(mod, backend: str) -> list[str]:
    """Warnings for pairs whose placement is not what the table claims."""
    problems = []
    for kind_a, kind_b in PAIRS:
        a, b = pair_shapes(mod, "collide", kind_a, kind_b)
        if mod.collide(a, b) is not True:
            problems.append(f"{backend}: {kind_a}-{kind_b} collide pair does not overlap")
        a, b = pair_shapes(mod, "distance", kind_a, kind_b)
        if not mod.distance(a, b) > 0.0:
            problems.append(f"{backend}: {kind_a}-{kind_b} distance pair is not separated")
    return problems


# ------------------------------------------------------------------------ backends


def import_backend(module_name: str):
    """The public API over ``fastcol._ext`` or ``fastcol._ref``; return (API, error
    message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the façade's fallback warning; we report it
            from fastcol._api import bind

            return bind(importlib.import_module(module_name)), None
    except ImportError as exc:
        return None, f"{type(exc).__name__}: {exc}"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def load_note() -> str | None:
    """A warning when other processes compete for the CPU (timings get noisy)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return None
    cores = os.cpu_count() or 1
    if load > 0.5 * cores:
        return (f"machine busy: load average {load:.1f} on {cores} cores; "
                "timings and ratios are noisy, rerun on a quiet machine")
    return None


def machine_info(backends: dict) -> dict:
    uname = platform.uname()
    version = next((getattr(m, "__version__", None) for m in backends.values() if m), None)
    try:
        import Cython

        cython_version = Cython.__version__
    except ImportError:
        cython_version = None
    return {
        "uname": f"{uname.system} {uname.release} {uname.machine}",
        "processor": platform.processor() or uname.machine,
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "fastcol": version or "unknown",
        "cython": cython_version,
        "backends": sorted(name for name, m in backends.items() if m),
    }


def machine_line(info: dict) -> str:
    return (
        f"machine: {info['uname']}; processor {info['processor']}; CPU {info['cpu']} "
        f"({info['cores']} cores); Python {info['python']}; fastcol {info['fastcol']}; "
        f"Cython {info['cython']}; backends: {', '.join(info['backends']) or 'none'}"
    )


# ------------------------------------------------------------------------ the run


def run(queries, backends: dict, plans: dict, floor: Floor | None, log) -> list[dict]:
    """Time every query and pair on every backend.

    The floor gets a full set of repeats before the first query and after the last,
    and one right before every repeat of a compiled query (the "x floor" ratios).
    """
    results = []
    if floor:
        floor.sample()
    for query in queries:
        if not any(hasattr(mod, query) for mod in backends.values() if mod is not None):
            log(f"  {query}: not in this fastcol, skipped")
            continue
        for kind_a, kind_b in cases(query):
            row = {"query": query,
                   "pair": kind_a if query == "raycast" else f"{kind_a}-{kind_b}"}
            for name, mod in backends.items():
                if mod is None:
                    continue
                args = call_args(mod, query, kind_a, kind_b)
                paired = floor if name == "compiled" else None
                timing = time_call(getattr(mod, query), args, plans[name], paired)
                row[name] = {"number": timing.number, "samples_ns": timing.samples_ns,
                             "median_ns": timing.median_ns}
                if paired:
                    row[name]["floor_ns"] = timing.floor_ns
                    row[name]["x_floor"] = paired_ratio(timing)
            results.append(row)
            log(f"  {query:<15} {row['pair']:<17} " + "  ".join(
                f"{n} {row[n]['median_ns']:9.1f} ns" for n in backends if n in row))
    if floor:
        floor.sample()
    return results


def median(row: dict, backend: str) -> float | None:
    return row[backend]["median_ns"] if backend in row else None


def x_floor(row: dict) -> float | None:
    """The compiled row's paired ratio to the floor (None without the floor)."""
    return row.get("compiled", {}).get("x_floor")


def fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "—"
    return f"{ns:,.1f}" if ns < 1000 else f"{ns:,.0f}"


def fmt_ratio(x: float | None) -> str:
    return "—" if x is None else (f"{x:.2f}x" if x < 100 else f"{x:,.0f}x")


def ratio(num: float | None, den: float | None) -> float | None:
    return None if num is None or den is None else num / den


def table(results: list[dict]) -> str:
    lines = [
        "| query | pair | compiled ns | x floor | reference ns | ref/compiled |",
        "|---|---|--:|--:|--:|--:|",
    ]
    for row in results:
        c, r = median(row, "compiled"), median(row, "reference")
        lines.append(
            f"| {row['query']} | {row['pair']} | {fmt_ns(c)} | {fmt_ratio(x_floor(row))} "
            f"| {fmt_ns(r)} | {fmt_ratio(ratio(r, c))} |"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------------- targets


def check_ratio_target(label: str, rows: list[dict], limit: float) -> dict:
    """PASS when every compiled row is at most ``limit`` x floor (its paired ratio)."""
    if not rows:
        return {"target": label, "status": "n/a", "detail": "not measured in this run"}
    if any(x_floor(r) is None for r in rows):
        return {"target": label, "status": "n/a", "detail": "needs the compiled backend and the floor"}
    ratios = {f"{r['query']} {r['pair']}": x_floor(r) for r in rows}
    worst = max(ratios, key=ratios.get)
    misses = sorted((k for k, v in ratios.items() if v > limit), key=ratios.get, reverse=True)
    detail = ("" if len(ratios) == 1 else "worst ") + f"{worst} {ratios[worst]:.3g}x"
    if misses and len(ratios) > 1:
        shown = ", ".join(f"{k} {ratios[k]:.2f}x" for k in misses[:5])
        more = f", and {len(misses) - 5} more" if len(misses) > 5 else ""
        detail += f"; {len(misses)} of {len(ratios)} over: {shown}{more}"
    return {"target": label, "status": "MISS" if misses else "PASS", "detail": detail}


def check_speedup_target(results: list[dict]) -> dict:
    label = (f"compiled >= {TARGET_SPEEDUP:g}x faster than reference on "
             + " and ".join(f"{a}-{b}" for a, b in SPEEDUP_PAIRS))
    wanted = {f"{a}-{b}" for a, b in SPEEDUP_PAIRS}
    rows = [r for r in results if r["pair"] in wanted]
    if not rows:
        return {"target": label, "status": "n/a", "detail": "not measured in this run"}
    if any("compiled" not in r or "reference" not in r for r in rows):
        return {"target": label, "status": "n/a", "detail": "needs both backends"}
    speedups = {f"{r['query']} {r['pair']}": median(r, "reference") / median(r, "compiled")
                for r in rows}
    worst = min(speedups, key=speedups.get)
    misses = [k for k, v in speedups.items() if v < TARGET_SPEEDUP]
    detail = f"lowest {worst} {speedups[worst]:.1f}x"
    if misses:
        detail += "; under: " + ", ".join(f"{k} {speedups[k]:.1f}x" for k in misses)
    return {"target": label, "status": "MISS" if misses else "PASS", "detail": detail}


def check_cast_target(results: list[dict]) -> dict:
    """PASS when shape_cast of each round pair takes at most TARGET_CAST_OVER_TOI x
    time_of_impact's compiled time for the same pair (the medians of this run)."""
    label = f"shape_cast of round pairs <= {TARGET_CAST_OVER_TOI:g}x time_of_impact"
    toi = {r["pair"]: median(r, "compiled") for r in results if r["query"] == "time_of_impact"}
    rows = [r for r in results if r["query"] == "shape_cast"]
    ratios = {r["pair"]: ratio(median(r, "compiled"), toi.get(r["pair"])) for r in rows}
    if not ratios or any(v is None for v in ratios.values()):
        return {"target": label, "status": "n/a",
                "detail": "needs shape_cast and time_of_impact on the compiled backend"}
    worst = max(ratios, key=ratios.get)
    misses = [k for k, v in ratios.items() if v > TARGET_CAST_OVER_TOI]
    return {"target": label, "status": "MISS" if misses else "PASS",
            "detail": f"worst {worst} {ratios[worst]:.2f}x"}


def check_targets(results: list[dict]) -> list[dict]:
    by_query = {q: [r for r in results if r["query"] == q] for q in QUERIES}
    circle = [r for r in by_query["collide"] if r["pair"] == "Circle-Circle"]
    round_pairs = {f"{a}-{b}" for a, b in PAIRS if a in ROUND and b in ROUND}
    return [
        check_ratio_target(f"collide(Circle, Circle) <= {TARGET_CIRCLE_CIRCLE:g}x floor",
                           circle, TARGET_CIRCLE_CIRCLE),
        check_ratio_target(f"every collide <= {TARGET_COLLIDE:g}x floor",
                           by_query["collide"], TARGET_COLLIDE),
        check_ratio_target(f"every distance/closest_points <= {TARGET_DISTANCE:g}x floor",
                           by_query["distance"] + by_query["closest_points"],
                           TARGET_DISTANCE),
        check_speedup_target(results),
        check_ratio_target(f"contact of round pairs <= {TARGET_CONTACT_ROUND:g}x floor",
                           [r for r in by_query["contact"] if r["pair"] in round_pairs],
                           TARGET_CONTACT_ROUND),
        check_ratio_target(f"contact of two hexagons <= {TARGET_CONTACT_HEXAGONS:g}x floor",
                           [r for r in by_query["contact"] if r["pair"] == "Polygon-Polygon"],
                           TARGET_CONTACT_HEXAGONS),
        check_ratio_target(f"every raycast <= {TARGET_RAYCAST:g}x floor",
                           by_query["raycast"], TARGET_RAYCAST),
        check_ratio_target(f"time_of_impact of round pairs <= {TARGET_TOI_ROUND:g}x floor",
                           [r for r in by_query["time_of_impact"] if r["pair"] in round_pairs],
                           TARGET_TOI_ROUND),
        check_cast_target(results),
    ]


# ---------------------------------------------------------------------------- main


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="fastcol scalar benchmark: ns per call and ratio to the Python->C call floor.",
    )
    parser.add_argument("--quick", action="store_true", help="fewer and shorter repeats")
    parser.add_argument("--only", choices=QUERIES, metavar="QUERY", nargs="+",
                        help="benchmark these queries only: " + ", ".join(QUERIES))
    parser.add_argument("--json", metavar="FILE", help="write the raw results to FILE")
    parser.add_argument("--no-reference", action="store_true",
                        help="skip the pure-Python reference backend")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with process CPU time instead of wall-clock time "
                             "(much steadier on a busy machine)")
    parser.add_argument("--rebuild-floor", action="store_true",
                        help="rebuild the floor module even if a cached build exists")
    return parser.parse_args(argv)


def make_plans(quick: bool, cpu_time: bool) -> dict:
    clock = time.process_time if cpu_time else time.perf_counter
    if quick:
        return {"compiled": Plan(7, 0.020, clock), "reference": Plan(7, 0.005, clock)}
    return {"compiled": Plan(11, 0.040, clock), "reference": Plan(7, 0.010, clock)}


def log(msg: str) -> None:
    """Progress goes to stderr; stdout is the report."""
    print(msg, file=sys.stderr, flush=True)


def load_backends(no_reference: bool) -> tuple[dict, list[str]]:
    """{"compiled": module or None, "reference": ...} and notes on what is missing."""
    wanted = {"compiled": "fastcol._ext"}
    if not no_reference:
        wanted["reference"] = "fastcol._ref"
    backends, notes = {}, []
    for name, module_name in wanted.items():
        backends[name], error = import_backend(module_name)
        if error:
            notes.append(f"{name} backend ({module_name}) not available: {error}; "
                         "continuing without it")
    return backends, notes


def make_floor(plan: Plan, rebuild: bool, notes: list[str]) -> Floor | None:
    try:
        log("building/loading the floor module ...")
        return Floor(load_floor(rebuild=rebuild), plan)
    except Exception as exc:  # noqa: BLE001 - any build problem: report it, go on without
        notes.append(f"floor not available ({type(exc).__name__}: {exc}); no 'x floor' column")
        log("note: " + notes[-1])
        return None


def print_report(info, floor, plans, backends, cpu_time, notes, results, targets) -> None:
    print(machine_line(info))
    if floor:
        s = floor.timing.samples_ns
        print(f"floor: def floor(a, b): pass (Cython, {' '.join(FLOOR_COMPILE_ARGS)}) = "
              f"{floor.median_ns:.1f} ns per call (median of {len(s)} repeats, "
              f"{min(s):.1f}..{max(s):.1f}, {floor.timing.number:,} calls each)")
    repeats = " / ".join(f"{plans[n].repeat} ({n})" for n, m in backends.items() if m)
    print(f"placement: collide overlapping (B moved by {OVERLAP_OFFSET}); distance and "
          f"closest_points separated by a gap of about 0.25-0.5 (B moved by {GAP_OFFSET}); "
          f"polygons are regular hexagons; median of {repeats} repeats of "
          f"{'process CPU' if cpu_time else 'wall-clock'} time")
    for note in notes:
        print(f"note: {note}")
    print()
    print(table(results))
    print()
    for t in targets:
        print(f"{t['status']:<4}  {t['target']}  ({t['detail']})")
    counts = {s: sum(t["status"] == s for t in targets) for s in ("PASS", "MISS", "n/a")}
    print("summary: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))


def write_json(path, args, info, floor, plans, notes, results, targets) -> None:
    payload = {
        "machine": info,
        "settings": {
            "quick": args.quick,
            "cpu_time": args.cpu_time,
            "plans": {k: {"repeat": v.repeat, "target_s": v.target_s} for k, v in plans.items()},
            "overlap_offset": OVERLAP_OFFSET,
            "gap_offset": GAP_OFFSET,
            "floor_compile_args": FLOOR_COMPILE_ARGS,
        },
        "floor": None if floor is None else {
            "number": floor.timing.number,
            "samples_ns": floor.timing.samples_ns,
            "median_ns": floor.median_ns,
        },
        "notes": notes,
        "results": results,
        "targets": targets,
    }
    Path(path).write_text(json.dumps(payload, indent=2) + "\n")
    log(f"raw results written to {path}")


def main(argv=None) -> int:
    args = parse_args(argv)
    plans = make_plans(args.quick, args.cpu_time)
    queries = tuple(args.only) if args.only else QUERIES

    backends, notes = load_backends(args.no_reference)
    load = load_note()
    if load:
        notes.append(load if args.cpu_time else load + "; --cpu-time is steadier")
    for note in notes:
        log("note: " + note)
    if not any(backends.values()):
        log("no backend could be imported; nothing to benchmark")
        return 0

    floor = make_floor(plans["compiled"], args.rebuild_floor, notes)
    for name, mod in backends.items():
        if mod is not None:
            notes += check_placement(mod, name)

    log("timing ...")
    results = run(queries, backends, plans, floor, log)
    targets = check_targets(results)
    info = machine_info(backends)
    print_report(info, floor, plans, backends, args.cpu_time, notes, results, targets)
    if args.json:
        write_json(args.json, args, info, floor, plans, notes, results, targets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
