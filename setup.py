"""Declares the Cython extensions; all metadata lives in pyproject.toml.

Environment:
  FASTCOL_NO_EXTENSIONS=1   build a pure-Python package (the reference backend only)
  FASTCOL_CYTHON_DEBUG=1    turn Cython's checks back on (bounds, wraparound, None,
                            initialisation, zero division) for a debug build
  FASTCOL_ANNOTATE=1        write Cython's HTML annotation next to each .pyx
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _flag(name):
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


MODULES = [
    "pool", "predicates", "geometry", "records", "shapes", "narrowphase", "queries", "batch", "contacts",
    "sweeps", "_info", "broadphase", "index", "mass", "points", "transforms", "entries",
]

# Floating-point policy: no FMA contraction and never fast-math, so the kernels round
# exactly like the pure-Python reference (bit-identical float64 results on x86-64).
GCC_FLAGS = ["-O3", "-ffp-contract=off", "-fno-math-errno"]
MSVC_FLAGS = ["/O2", "/fp:precise"]


class BuildExt(build_ext):
    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def build_extensions(self):
        msvc = self.compiler.compiler_type == "msvc"
        flags = MSVC_FLAGS if msvc else GCC_FLAGS
        described = " ".join(flags) + (" debug-directives" if _flag("FASTCOL_CYTHON_DEBUG") else "")
        for ext in self.extensions:
            ext.extra_compile_args = list(flags)
            ext.define_macros = list(ext.define_macros or []) + [
                ("FASTCOL_BUILD_FLAGS", '"%s"' % described),
            ]
        super().build_extensions()


# the C that is not Cython (SIMD lanes, atomics, the entry points' slots), as headers
INCLUDE = "src/fastcol/_ext/include"


def _c_options(name):
    """Include directories and macros of one module: fastcol's headers, and NumPy's for
    the module that uses NumPy's C API (batch: small calls).

    Built against NumPy 2 headers, the extension runs on NumPy >= 1.23 as well (the
    runtime requirement), which NPY_TARGET_VERSION states.
    """
    if name != "batch":
        return {"include_dirs": [INCLUDE]}
    import numpy

    return {
        "include_dirs": [INCLUDE, numpy.get_include()],
        "define_macros": [
            ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
            ("NPY_TARGET_VERSION", "NPY_1_23_API_VERSION"),
        ],
    }


def extensions():
    from Cython.Build import cythonize

    debug = _flag("FASTCOL_CYTHON_DEBUG")
    directives = {
        "language_level": 3,
        "boundscheck": debug,
        "wraparound": debug,
        "initializedcheck": debug,
        "nonecheck": debug,
        "cdivision": not debug,
        "embedsignature": True,
        # signatures in the form inspect.signature and help() read (the "--" line)
        "embedsignature.format": "clinic",
        "binding": True,
        "freethreading_compatible": True,
    }
    exts = [
        Extension(f"fastcol._ext.{name}", [f"src/fastcol/_ext/{name}.pyx"], **_c_options(name))
        for name in MODULES
    ]
    return cythonize(
        exts,
        compiler_directives=directives,
        annotate=_flag("FASTCOL_ANNOTATE"),
        include_path=["src"],
        quiet=True,
    )


if _flag("FASTCOL_NO_EXTENSIONS"):
    setup()
else:
    setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
