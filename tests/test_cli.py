"""``python -m fastcol``: the README's main-job command and ``info`` run end to end."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

BACKEND_ENV = {"compiled": {}, "reference": {"FASTCOL_NO_EXTENSIONS": "1"}}


def run(args, backend):
    env = dict(os.environ)
    env.pop("FASTCOL_NO_EXTENSIONS", None)
    env.update(BACKEND_ENV[backend])
    return subprocess.run(
        [sys.executable, "-m", "fastcol", *args],
        capture_output=True, text=True, env=env, timeout=120,
    )


@pytest.mark.parametrize("backend", sorted(BACKEND_ENV))
def test_info_names_the_backend(backend):
    proc = run(["info"], backend)
    assert proc.returncode == 0, proc.stderr
    assert f"backend: {backend}" in proc.stdout
    if backend == "compiled":
        # the floating-point policy the extension was built with
        assert "-ffp-contract=off" in proc.stdout or "/fp:precise" in proc.stdout
    else:
        assert "pure-Python reference" in proc.stdout


@pytest.mark.parametrize("backend", sorted(BACKEND_ENV))
def test_demo_tours_every_pair(backend):
    proc = run(["demo"], backend)
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.endswith(")") and " - (" in line]
    assert len(rows) == 15  # the pairs of six shapes
    # worked by hand: the capsule's core is x = 2, so the gap is 2 - 1 - 0.5
    row = next(r for r in rows if r.startswith("Circle(0, 0, 1)") and "Capsule" in r)
    assert row.split()[8:11] == ["False", "0.5000", "(1.000,"]


def test_unknown_command_is_a_usage_error():
    proc = run(["nonsense"], "reference")
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr
    assert "Traceback" not in proc.stderr
