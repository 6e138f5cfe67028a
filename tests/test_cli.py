"""``python -m fastcol``: the README's main-job command (the ball pit), ``bench`` and
``info`` run end to end; bad arguments are one-line errors, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

BACKEND_ENV = {"compiled": {}, "reference": {"FASTCOL_NO_EXTENSIONS": "1"}}
# a scene small enough for the reference backend
SMALL = {"compiled": ["--bodies", "40", "--steps", "30"],
         "reference": ["--bodies", "12", "--steps", "10"]}


def run(args, backend, cwd=None):
    env = dict(os.environ)
    env.pop("FASTCOL_NO_EXTENSIONS", None)
    env.update(BACKEND_ENV[backend])
    if cwd is not None and env.get("PYTHONPATH"):
        # PYTHONPATH=src (the development setup) must still find fastcol from cwd
        env["PYTHONPATH"] = os.pathsep.join(
            os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    return subprocess.run(
        [sys.executable, "-m", "fastcol", *args],
        capture_output=True, text=True, env=env, timeout=120, cwd=cwd,
    )


@pytest.mark.parametrize("backend", sorted(BACKEND_ENV))
def test_info_names_the_backend(backend):
    proc = run(["info"], backend)
    assert proc.returncode == 0, proc.stderr
    assert f"backend: {backend}" in proc.stdout
    if backend == "compiled":
        # the floating-point policy the extension was built with
        assert "-ffp-contract=off" in proc.stdout or "/fp:precise" in proc.stdout
        # the SIMD lanes, or the one-lane fallback (fc_simd.h)
        assert "\nsimd: SSE2, two lanes\n" in proc.stdout or "\nsimd: none" in proc.stdout
    else:
        assert "pure-Python reference" in proc.stdout


def test_unknown_command_is_a_usage_error():
    proc = run(["nonsense"], "reference")
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("backend", sorted(BACKEND_ENV))
def test_demo_runs_and_draws(backend, tmp_path):
    out = tmp_path / "pit.gif"
    proc = run(["demo", *SMALL[backend], "--frames", "5", "--out", str(out)], backend)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"({backend} backend)" in proc.stdout
    summary = next(line for line in proc.stdout.splitlines() if line.startswith("per step"))
    for part in ("broadphase", "narrowphase", "response", "steps/s"):
        assert part in summary
    # Pillow is in the test extra; the run without it is test_demo_without_pillow_...
    from PIL import Image

    with Image.open(out) as gif:
        assert gif.format == "GIF"
        assert gif.n_frames == 5  # the start and 4 frames spread over the steps
        assert gif.width == 640
    assert out.stat().st_size < 1 << 20
    assert f"wrote {out}" in proc.stdout


def test_demo_writes_png_frames(tmp_path):
    proc = run(["demo", *SMALL["compiled"], "--frames", "3", "--width", "64",
                "--out", str(tmp_path / "f.png")], "compiled")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f_0000.png", "f_0001.png", "f_0002.png"]
    from PIL import Image

    with Image.open(tmp_path / "f_0002.png") as last:
        assert last.width == 64


def test_demo_without_pillow_says_how_to_get_pictures(tmp_path, monkeypatch, capsys):
    from fastcol.__main__ import main

    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now raises ImportError
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    out = tmp_path / "pit.gif"
    assert main(["demo", "--bodies", "10", "--steps", "3", "--out", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert 'python -m pip install "fastcol[demo]"' in stdout
    assert "per step" in stdout
    assert not out.exists()


def test_window_without_pygame_is_a_clear_error(monkeypatch, capsys):
    from fastcol.__main__ import main

    monkeypatch.setitem(sys.modules, "pygame", None)
    assert main(["demo", "--window", "--bodies", "5", "--steps", "2"]) == 1
    err = capsys.readouterr().err
    assert "pip install pygame-ce" in err


class _FakePygame:
    """Stands in for pygame-ce: records what the window would draw."""

    QUIT = 256

    class error(RuntimeError):
        pass

    def __init__(self, close_after, driver="x11"):
        import types

        self.drawn = []
        self.frames = 0
        self.close_after = close_after
        fake = self

        class Clock:
            def tick(self, fps):
                assert fps == 60

        class Screen:
            def fill(self, colour):
                fake.frames += 1

        self.time = types.SimpleNamespace(Clock=Clock)
        self.display = types.SimpleNamespace(
            init=lambda: None, quit=lambda: None, flip=lambda: None,
            get_driver=lambda: driver, set_mode=lambda size: Screen(),
            set_caption=lambda title: None)
        self.draw = types.SimpleNamespace(
            polygon=lambda screen, colour, points: self.drawn.append(("polygon", colour)),
            ellipse=lambda screen, colour, rect: self.drawn.append(("ellipse", colour)))
        self.Rect = lambda *args: args
        self.event = types.SimpleNamespace(get=self._events)

    def _events(self):
        import types

        if self.frames >= self.close_after:
            return [types.SimpleNamespace(type=self.QUIT)]
        return []


@pytest.mark.parametrize("driver", ["offscreen", "dummy"])
def test_window_without_a_display_is_a_clear_error(monkeypatch, capsys, driver):
    # SDL falls back to a driver that draws nowhere when there is no display: the run
    # would show nothing and exit 0
    from fastcol.__main__ import main

    fake = _FakePygame(close_after=3, driver=driver)
    monkeypatch.setitem(sys.modules, "pygame", fake)
    assert main(["demo", "--window", "--bodies", "5", "--steps", "2"]) == 1
    err = capsys.readouterr().err
    assert "found no display" in err and repr(driver) in err
    assert fake.frames == 0


def test_window_whose_display_fails_to_open_is_a_clear_error(monkeypatch, capsys):
    from fastcol.__main__ import main

    fake = _FakePygame(close_after=3)

    def no_video():
        raise fake.error("No available video device")

    fake.display.init = no_video
    monkeypatch.setitem(sys.modules, "pygame", fake)
    assert main(["demo", "--window", "--bodies", "5", "--steps", "2"]) == 1
    assert "No available video device" in capsys.readouterr().err


def test_window_draws_every_body_and_closes(monkeypatch, capsys):
    from fastcol.__main__ import main
    from fastcol.demo.render import COLOURS

    fake = _FakePygame(close_after=3)
    monkeypatch.setitem(sys.modules, "pygame", fake)
    # closing the window ends the run early, normally, with the summary of the steps run
    assert main(["demo", "--window", "--bodies", "10", "--steps", "50"]) == 0
    assert fake.frames == 3
    captured = capsys.readouterr()
    assert "window closed after 4 of 50 steps" in captured.err
    assert "10 bodies" in captured.out and "4 steps of 1/60 s" in captured.out
    per_frame = fake.drawn[: len(fake.drawn) // 3]
    # 10 bodies: 4 circles (1 ellipse), 2 capsules (a quad and 2 ends), 2 boxes and
    # 2 polygons (1 polygon each)
    assert sorted(per_frame) == sorted(
        [("ellipse", COLOURS[0])] * 4 + [("polygon", COLOURS[1])] * 2
        + [("ellipse", COLOURS[1])] * 4 + [("polygon", COLOURS[2])] * 2
        + [("polygon", COLOURS[3])] * 2)


def _bad_arguments(tmp_path):
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    a_folder = tmp_path / "folder.gif"
    a_folder.mkdir()
    return {
        "negative bodies": (["--bodies", "-5"], "--bodies"),
        "negative steps": (["--steps", "-1"], "--steps"),
        "negative seed": (["--seed", "-3"], "--seed"),
        "bodies not a number": (["--bodies", "many"], "--bodies"),
        "negative spring": (["--spring", "-1"], "--spring"),
        "spring not finite": (["--spring", "nan"], "--spring"),
        "missing folder": (["--out", str(tmp_path / "nowhere" / "pit.gif")], "does not exist"),
        "folder is a file": (["--out", str(a_file / "pit.gif")], "does not exist"),
        "out is a folder": (["--out", str(a_folder)], "is a folder"),
        "unknown picture type": (["--out", str(tmp_path / "pit.jpg")], ".gif or .png"),
        "unknown option": (["--frobnicate"], "unrecognized arguments"),
        "no workers": (["--workers", "0"], "--workers"),
    }


BAD = ["negative bodies", "negative steps", "negative seed", "bodies not a number",
       "negative spring", "spring not finite", "missing folder", "folder is a file",
       "out is a folder", "unknown picture type", "unknown option", "no workers"]


@pytest.mark.parametrize("case", BAD)
def test_demo_bad_arguments_are_one_line_errors(case, tmp_path):
    args, message = _bad_arguments(tmp_path)[case]
    proc = run(["demo", "--steps", "1", "--bodies", "3", *args], "reference", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert message in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1
    assert not (tmp_path / "ball_pit.gif").exists()


def test_unwritable_output_found_at_save_is_an_error(tmp_path, monkeypatch, capsys):
    """A file that cannot be written when the run ends (here: the folder is removed
    during the run) is a one-line error and exit 1, not a traceback."""
    from fastcol.__main__ import main
    from fastcol.demo import render

    folder = tmp_path / "gone"
    folder.mkdir()
    real_save = render.FrameRecorder.save

    def save_after_removal(self, path, fps=30):
        folder.rmdir()
        return real_save(self, path, fps)

    monkeypatch.setattr(render.FrameRecorder, "save", save_after_removal)
    code = main(["demo", "--bodies", "5", "--steps", "2", "--out", str(folder / "pit.gif")])
    assert code == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write") and err.count("\n") == 1


def test_bench_prints_the_table():
    proc = run(["bench", "--quick"], "compiled")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("call floor: abs(1.0) takes") for line in lines)
    header = next(line for line in lines if line.startswith("scalar queries"))
    assert "compiled" in header and "reference" in header  # both backends are importable
    rows = {line[:38].strip(): line[38:].split() for line in lines if line[:38].strip()}
    # scalar rows: ns per call on each backend and the ratio
    for name in ("collide Circle-Circle", "contact Polygon-Polygon", "raycast Circle"):
        compiled, reference, ratio = rows[name][:3]
        assert float(compiled.replace(",", "")) > 0 and float(reference.replace(",", "")) > 0
        assert ratio.endswith("x")
    # batch rows come after their header: million pairs/s, compiled, reference, NumPy
    values = [float(v.replace(",", "")) for v in rows["collide CircleArray-CircleArray"]]
    assert len(values) == 3 and all(v > 0 for v in values)


def test_bench_without_the_compiled_backend(monkeypatch, capsys):
    from fastcol import _quickbench

    monkeypatch.setitem(sys.modules, "fastcol._ext", None)
    assert _quickbench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "compiled backend not available" in out
    header = next(line for line in out.splitlines() if line.startswith("scalar queries"))
    assert "compiled" not in header and "reference" in header


def test_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    import io

    from fastcol.demo.cli import _Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    bar = _Progress(60)
    for k in range(60):
        bar(k)
    text = term.getvalue()
    assert text.count("\r") == 31  # redrawn when a 30th of the run is done, and at the end
    assert text.endswith("\r[" + "#" * 30 + "] step 60/60\n")
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: quiet
    quiet = _Progress(60)
    for k in range(60):
        quiet(k)
    assert sys.stderr.getvalue() == ""
