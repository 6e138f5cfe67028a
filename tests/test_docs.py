"""The Examples sections of the docstrings run, on the backend whose module holds them.

The examples call ``fastcol`` (the façade) and show reference-style output, so each
module's examples run with ``fc`` bound to that module's own backend.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = {
    "reference": ["geometry", "shapes", "queries", "records", "arrays", "contacts", "sweeps",
                  "broadphase"],
    "compiled": ["geometry", "shapes", "queries", "records", "arrays", "contacts", "sweeps",
                 "broadphase"],
}
PACKAGES = {"reference": "fastcol._ref", "compiled": "fastcol._ext"}
# modules outside the backends, whose examples run on the façade as a user runs them
PUBLIC_MODULES = ["fastcol._batch", "fastcol.demo.scene", "fastcol.demo.step",
                  "fastcol.demo.cli"]


class _Facade:
    """Stands in for ``import fastcol`` inside the examples: the backend under test."""

    def __init__(self, backend):
        self.__dict__.update(vars(backend))


@pytest.mark.parametrize(
    "backend, module",
    [(b, m) for b, mods in MODULES.items() for m in mods],
    ids=lambda v: v,
)
def test_docstring_examples(backend, module, monkeypatch):
    import sys

    pkg = importlib.import_module(PACKAGES[backend])
    mod = importlib.import_module(f"{PACKAGES[backend]}.{module}")
    monkeypatch.setitem(sys.modules, "fastcol", _Facade(pkg))
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for t in finder.find(mod, mod.__name__) if t.examples]
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {mod.__name__}"
    if module in ("geometry", "queries", "shapes"):
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
