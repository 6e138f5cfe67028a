"""Backend selection: the one place that decides which implementation the façade uses.

``FASTCOL_NO_EXTENSIONS=1`` selects the pure-Python reference.  Otherwise the compiled
extension is imported; if that fails the reference is used with a ``RuntimeWarning``
saying why, unless ``FASTCOL_REQUIRE_EXTENSIONS=1`` turns the failure into an
``ImportError`` (CI and the wheel tests set it, so a broken build cannot pass on the
reference alone).  ``FASTCOL_NO_EXTENSIONS`` wins when both are set: asking for the
reference explicitly is never an error.
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def select() -> tuple[str, ModuleType]:
    """Return ``(name, module)`` of the backend the façade re-exports."""
    if _flag("FASTCOL_NO_EXTENSIONS"):
        from . import _ref

        return "reference", _ref
    try:
        from . import _ext
    except ImportError as exc:
        if _flag("FASTCOL_REQUIRE_EXTENSIONS"):
            raise ImportError(
                "fastcol: FASTCOL_REQUIRE_EXTENSIONS is set but the compiled extension "
                f"cannot be imported: {exc}"
            ) from exc
        warnings.warn(
            f"fastcol: the compiled extension cannot be imported ({exc}); "
            "using the pure-Python reference backend, which is much slower",
            RuntimeWarning,
            stacklevel=3,
        )
        from . import _ref

        return "reference", _ref
    return "compiled", _ext
