"""``python -m fastcol bench``: a quick speed table on this machine, in a few seconds.

Scalar queries in nanoseconds per call and batch queries in million pairs per second,
for the compiled backend, the pure-Python reference and (for circle pairs) a NumPy
formulation written here.  The floor line times ``abs(1.0)``: one call from Python into
a C builtin that does almost nothing, the least any call can cost.  It needs nothing
but fastcol and NumPy (no ``bench/`` folder, so it runs from an installed wheel), and
without the compiled extension it says so and times the reference alone.  The full
benchmarks are the scripts in the source tree's ``bench/`` folder.
"""

from __future__ import annotations

import argparse
import math
import platform
import timeit

import numpy as np

from ._api import load


def _best(stmt, env, budget, repeat=3):
    """Seconds per execution of ``stmt``: the best of ``repeat`` runs of ~``budget`` s."""
    timer = timeit.Timer(stmt, globals=env)
    number, elapsed = 1, timer.timeit(1)
    while elapsed < budget / 4 and number < 10**8:
        number *= 4 if elapsed < budget / 40 else 2
        elapsed = timer.timeit(number)
    runs = [elapsed] + [timer.timeit(number) for _ in range(repeat - 1)]
    return min(runs) / number


def _backends():
    out = {}
    notes = []
    try:
        out["compiled"] = load("compiled")
    except ImportError as exc:
        notes.append(f"compiled backend not available ({exc}): timing the reference only")
    out["reference"] = load("reference")
    return out, notes


def _scalar_cases(fc):
    hexagon = [(math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6)]
    return [
        ("collide", "Circle-Circle", "collide(a, b)", fc.Circle(0, 0, 1), fc.Circle(1.5, 0.5, 1)),
        ("distance", "Capsule-Capsule", "distance(a, b)",
         fc.Capsule(0, 0, 2, 1, 0.5), fc.Capsule(3, -1, 4, 2, 0.25)),
        ("closest_points", "OBB-Polygon", "closest_points(a, b)",
         fc.OBB(0, 0, 1, 0.5, 0.3), fc.Polygon([(x + 3, y) for x, y in hexagon])),
        ("contact", "Polygon-Polygon", "contact(a, b)",
         fc.Polygon(hexagon), fc.Polygon([(x + 1.5, y + 0.2) for x, y in hexagon])),
        ("raycast", "Circle", "raycast(a, (-5.0, 0.1), (1.0, 0.0))", fc.Circle(0, 0, 1), None),
    ]


def _circle_rows(n, seed=1):
    rng = np.random.default_rng(seed)
    rows = np.empty((n, 3))
    rows[:, :2] = rng.uniform(0.0, 100.0, (n, 2))
    rows[:, 2] = rng.uniform(0.5, 2.0, n)
    return rows


def _fmt(value, unit=""):
    if value != value:
        return "—"
    if value >= 100:
        return f"{value:,.0f}{unit}"
    if value >= 10:
        return f"{value:.1f}{unit}"
    return f"{value:.3g}{unit}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fastcol bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter timings (less precise)")
    args = parser.parse_args(argv)
    budget = 0.02 if args.quick else 0.1

    import fastcol

    backends, notes = _backends()
    print(f"fastcol {fastcol.__version__} on {platform.system()} {platform.machine()}, "
          f"{platform.python_implementation()} {platform.python_version()}, NumPy {np.__version__}; "
          f"best of 3 runs of ~{budget * 1e3:.0f} ms each")
    for note in notes:
        print(f"note: {note}")
    floor = _best("f(x)", {"f": abs, "x": 1.0}, budget) * 1e9
    print(f"call floor: abs(1.0) takes {floor:.0f} ns (a Python call into a C builtin "
          f"that does nearly nothing: no call can cost less)\n")

    names = list(backends)
    print("scalar queries, ns per call".ljust(38) + "".join(f"{n:>12}" for n in names)
          + ("   reference/compiled" if "compiled" in names else ""))
    for k in range(len(_scalar_cases(backends["reference"]))):
        row = {}
        for name, fc in backends.items():
            query, pair, stmt, a, b = _scalar_cases(fc)[k]
            env = {query: getattr(fc, query), "a": a, "b": b}
            row[name] = _best(stmt, env, budget) * 1e9
        label = f"{query} {pair}"
        line = label.ljust(38) + "".join(f"{_fmt(row[n]):>12}" for n in names)
        if "compiled" in row:
            line += f"   {row['reference'] / row['compiled']:>10.0f}x"
        print(line)

    # batch: element-wise circle pairs; the reference on fewer rows (it is a loop)
    sizes = {"compiled": 100_000, "reference": 2_000}
    print()
    print("batch, million pairs per second".ljust(38) + "".join(f"{n:>12}" for n in names)
          + f"{'NumPy':>12}")
    print(f"  (rows: {', '.join(f'{n} {sizes[n]:,}' for n in names)}, NumPy {sizes['compiled']:,})")
    a_rows, b_rows = _circle_rows(sizes["compiled"], 1), _circle_rows(sizes["compiled"], 2)
    b_rows[:, :2] = a_rows[:, :2] + (b_rows[:, :2] - 50.0) * 0.05  # about half overlap

    def numpy_collide(a, b):
        dx = b[:, 0] - a[:, 0]
        dy = b[:, 1] - a[:, 1]
        rr = a[:, 2] + b[:, 2]
        return dx * dx + dy * dy <= rr * rr

    def numpy_distance(a, b):
        d = np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]) - (a[:, 2] + b[:, 2])
        return np.maximum(d, 0.0)

    batch = [
        ("collide CircleArray-CircleArray", "collide(A, B)", numpy_collide),
        ("distance CircleArray-CircleArray", "distance(A, B)", numpy_distance),
        ("contact CircleArray-CircleArray", "contact(A, B)", None),
    ]
    for label, stmt, numpy_form in batch:
        row = {}
        for name, fc in backends.items():
            n = sizes[name]
            env = {"collide": fc.collide, "distance": fc.distance, "contact": fc.contact,
                   "A": fc.CircleArray(a_rows[:n]), "B": fc.CircleArray(b_rows[:n])}
            try:
                row[name] = n / _best(stmt, env, budget) / 1e6
            except (TypeError, ValueError):
                row[name] = float("nan")  # this backend does not take arrays here (yet)
        if numpy_form is not None:
            n = sizes["compiled"]
            env = {"f": numpy_form, "a": a_rows, "b": b_rows}
            row["NumPy"] = n / _best("f(a, b)", env, budget) / 1e6
        else:
            row["NumPy"] = float("nan")
        print(label.ljust(38) + "".join(f"{_fmt(row[n]):>12}" for n in names)
              + f"{_fmt(row['NumPy']):>12}")

    if all(hasattr(fc, "overlapping_pairs") for fc in backends.values()):
        print()
        print("overlapping_pairs, circles with ~3 neighbours each, ms per call")
        for name, fc in backends.items():
            n = 20_000 if name == "compiled" else 1_000
            rows = _circle_rows(n, 3)
            # radii uniform in [0.5, 2]: E[(r1 + r2)^2] = 6.625, so a square of this
            # side gives each circle 3 overlapping neighbours on average
            side = math.sqrt(n * math.pi * 6.625 / 3.0)
            rows[:, :2] *= side / 100.0
            env = {"f": fc.overlapping_pairs, "A": fc.CircleArray(rows)}
            print(f"  {name:10s} N={n:>6,}  {_best('f(A)', env, budget, repeat=2) * 1e3:10.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
