"""What the extension was built with, for ``python -m fastcol info``."""

cdef extern from "fc_build_info.h":
    const char* FASTCOL_COMPILER
    const char* FASTCOL_BUILD_FLAGS
    const char* FASTCOL_SIMD


def build_info():
    """``{"compiler": ..., "flags": ..., "simd": ...}`` of the compiled extension."""
    return {
        "compiler": FASTCOL_COMPILER.decode("utf-8", "replace"),
        "flags": FASTCOL_BUILD_FLAGS.decode("utf-8", "replace"),
        "simd": FASTCOL_SIMD.decode("utf-8", "replace"),
    }
