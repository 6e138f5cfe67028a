"""Every test of the public API runs once per backend through the ``fc`` fixture.

``fc`` is the public API bound to one backend (``fastcol._api.bind`` of ``fastcol._ext``
or ``fastcol._ref``): the same names as ``import fastcol``, and ``fc.backend``.  A missing compiled extension is
an error, never a skip: a broken build must not pass on the reference alone.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# CI is a gate: the same examples on every run, so a result can be reproduced.  Local
# runs draw new examples each time and keep exploring.
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

BACKENDS = ("compiled", "reference")


def load_backend(name: str):
    from fastcol._api import load

    return load(name)


@pytest.fixture(scope="session", params=sorted(BACKENDS), ids=lambda name: name)
def fc(request):
    """The public API over the backend under test: ``compiled`` or ``reference``."""
    return load_backend(request.param)


@pytest.fixture(scope="session")
def ext():
    return load_backend("compiled")


@pytest.fixture(scope="session")
def ref():
    return load_backend("reference")
