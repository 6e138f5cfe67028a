"""What the extension was built with, for ``python -m fastcol info``."""

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #define FASTCOL_STR2(x) #x
    #define FASTCOL_STR(x) FASTCOL_STR2(x)
    #define FASTCOL_COMPILER "MSVC " FASTCOL_STR(_MSC_FULL_VER)
    #elif defined(__clang__)
    #define FASTCOL_COMPILER "clang " __clang_version__
    #elif defined(__GNUC__)
    #define FASTCOL_COMPILER "gcc " __VERSION__
    #else
    #define FASTCOL_COMPILER "unknown"
    #endif
    #ifndef FASTCOL_BUILD_FLAGS
    #define FASTCOL_BUILD_FLAGS "unknown"
    #endif
    """
    const char* FASTCOL_COMPILER
    const char* FASTCOL_BUILD_FLAGS


def build_info():
    """``{"compiler": ..., "flags": ...}`` of the compiled extension."""
    return {
        "compiler": FASTCOL_COMPILER.decode("utf-8", "replace"),
        "flags": FASTCOL_BUILD_FLAGS.decode("utf-8", "replace"),
    }
