"""The examples of the docstrings and of the documents run, and give what they show.

The docstrings' Examples sections call ``fastcol`` (the façade), so each module's
examples run once per backend, with ``import fastcol`` bound to the API over it.
The ```pycon blocks of README.md and docs/*.md run once per backend (the second half of
this file).
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

# the backend modules whose classes carry examples (the array classes are made by
# fastcol._arrays.bind in each backend's arrays module); the public functions'
# examples are fastcol._api's
MODULES = ["_api", "shapes", "records", "arrays"]
PACKAGES = {"reference": "fastcol._ref", "compiled": "fastcol._ext"}
# modules outside the backends, whose examples run on the façade as a user runs them
PUBLIC_MODULES = ["fastcol._batch", "fastcol.demo.scene", "fastcol.demo.step",
                  "fastcol.demo.cli", "fastcol.demo.lidar"]


def _public(backend):
    """Stands in for ``import fastcol`` inside the examples: the API over the backend
    under test."""
    from fastcol._api import bind

    return bind(importlib.import_module(PACKAGES[backend]))


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("backend", sorted(PACKAGES))
def test_docstring_examples(backend, module, monkeypatch):
    import sys

    name = "fastcol._api" if module == "_api" else f"{PACKAGES[backend]}.{module}"
    mod = importlib.import_module(name)
    monkeypatch.setitem(sys.modules, "fastcol", _public(backend))
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for t in finder.find(mod, mod.__name__) if t.examples]
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {mod.__name__}"
    if module in ("_api", "shapes"):
        assert result.attempted > 0, f"no examples found in {mod.__name__}"


def test_package_docstring_example():
    import fastcol

    result = doctest.testmod(fastcol, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_public_module_examples(module):
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


# ------------------------------------------------------------ README.md and docs/*.md
#
# Every example that shows a result is a ```pycon block in doctest form; each runs here
# once per backend, with ``import fastcol`` bound to that backend (the backends give
# bit-identical answers, so one shown output must hold on both).  The blocks of one file
# run in order and share their names, as a reader meets them.

ROOT = Path(__file__).resolve().parent.parent
DOC_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# a fenced block: its opening fence, language and body (fences of three backticks at
# the start of a line, as these documents write them)
_FENCE = re.compile(r"^```([\w+-]*)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
# the fence languages the documents may use: pycon (run here), bash and text (shown only)
DOC_LANGUAGES = {"pycon", "bash", "text"}


def _documents():
    docs = ROOT / "docs"
    return [ROOT / "README.md"] + (sorted(docs.glob("*.md")) if docs.is_dir() else [])


def _blocks(path):
    """``(language, line number of the block's first line, body)`` of each fenced block."""
    text = path.read_text(encoding="utf-8")
    for m in _FENCE.finditer(text):
        yield m.group(1), text.count("\n", 0, m.start(2)) + 1, m.group(2)


def _require(path):
    if not path.exists():
        # the wheel tests run a copy of tests/ alone (cibuildwheel's test-sources):
        # the documents are checked where they live, in the checkout
        pytest.skip(f"{path.name} is not beside tests/ (a copy of the tests run alone)")


def _doc_ids():
    return [str(p.relative_to(ROOT)) for p in _documents()]


@pytest.mark.parametrize("backend", sorted(PACKAGES))
@pytest.mark.parametrize("document", _doc_ids())
def test_document_examples(document, backend, monkeypatch):
    """Every ```pycon block of the document gives exactly its shown output."""
    import sys

    path = ROOT / document
    _require(path)
    blocks = [(line, body) for lang, line, body in _blocks(path) if lang == "pycon"]
    if path.name == "README.md":
        assert blocks, "README.md holds no ```pycon block: its examples would go untested"
    if not blocks:
        return  # a document without examples (tables, prose)
    public = _public(backend)
    if any("fastcol.dask" in body for _, body in blocks):
        # ``import fastcol.dask`` below finds the module already imported, as an
        # attribute of the stand-in for ``fastcol`` (its calls follow the backend of
        # the shapes they are given)
        dask_module = importlib.import_module("fastcol.dask")
        monkeypatch.setattr(public, "dask", dask_module, raising=False)
    monkeypatch.setitem(sys.modules, "fastcol", public)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=DOC_FLAGS)
    globs = {"__name__": "__doc_example__"}
    attempted = 0
    for line, body in blocks:
        test = parser.get_doctest(body, globs, f"{document}:{line}", str(path), line - 1)
        assert test.examples, f"{document}:{line}: a ```pycon block without a >>> line"
        attempted += len(test.examples)
        runner.run(test, clear_globs=False)
        globs = test.globs  # a DocTest copies its globals: the next block goes on from here
    result = runner.summarize(verbose=False)
    assert result.attempted == attempted
    assert result.failed == 0, f"{result.failed} example(s) failed in {document} ({backend})"


@pytest.mark.parametrize("document", _doc_ids())
def test_document_fences(document):
    """Code is fenced as pycon (examples with their results, run above), bash or text:
    an example in an unlabelled or ```python block would show results no test checks."""
    path = ROOT / document
    _require(path)
    bad = [(line, lang or "(none)") for lang, line, _ in _blocks(path)
           if lang not in DOC_LANGUAGES]
    assert not bad, (f"{document}: fenced blocks must be one of {sorted(DOC_LANGUAGES)}; "
                     f"found {bad} (language at the block's first line)")
    for lang, line, body in _blocks(path):
        if lang != "pycon":
            assert ">>> " not in body, (f"{document}:{line}: a doctest in a ```{lang} "
                                        f"block (make it ```pycon so that it runs)")


def test_readme_commands():
    """The README's two commands stand verbatim, each a line of a fenced block (CI runs
    the second as written; both must work on a fresh machine)."""
    path = ROOT / "README.md"
    _require(path)
    lines = {line for _, _, body in _blocks(path) for line in body.splitlines()}
    for command in ('python -m pip install ".[demo]" && python -m fastcol demo',
                    'python -m pip install ".[test]" && python -m pytest'):
        assert command in lines, f"README.md lacks the command line {command!r}"
