"""Where the package's C library and headers are, and the flags to link them:
one libweft.so for every language (issue 42). Go's scripts/build_go.sh and R's
bindings/r/configure ask this when there is no build/ tree.

    python -m weft.config --cflags     # -I<site-packages>/weft/include
    python -m weft.config --libs       # -L<...>/weft/lib -lweft -Wl,-rpath-link,<its BLAS folder>
    python -m weft.config --rpath      # -Wl,-rpath,<...>/weft/lib
    python -m weft.config --prefix     # the package folder (lib/, include/ below it)
    python -m weft.config --libdir / --includedir / --library / --pkgconfigdir

Several options print their answers on one line, in the order given. The library
is the one ``import weft`` loads (``weft.base.LIB_PATH``: WEFT_LIBRARY_PATH, else
the package's own lib/libweft.so, else a development tree's build/), the headers
those Python reads (``weft.base.HEADER_PATH``). The BLAS that libweft.so needs is
found through its own RUNPATH (Note [Linking the installed library] in
``weft/_link_flags.py``). ``<prefix>/lib/pkgconfig/weft.pc``, written at install,
carries the same flags for pkg-config.
"""
import argparse
import os
import sys

from . import _link_flags
from .base import HEADER_PATH, LIB_PATH

__all__ = ["get_prefix", "get_include", "get_lib_dir", "get_library", "get_pkgconfig_dir",
           "cflags", "libs", "rpath"]


def get_library():
    """The path of the libweft.so this package loads, symlinks resolved: its RUNPATH's
    ``$ORIGIN`` is its real folder (Note [Linking the installed library])."""
    return os.path.realpath(LIB_PATH)


def get_lib_dir():
    return os.path.dirname(get_library())


def get_include():
    """The folder that holds ``weft/c_api.h`` and ``weft/c_predict_api.h``."""
    return os.path.dirname(os.path.dirname(os.path.abspath(HEADER_PATH)))


def get_prefix():
    """The folder holding lib/ and include/ (the installed ``weft`` package folder)."""
    return os.path.dirname(get_lib_dir())


def get_pkgconfig_dir():
    """The folder of weft.pc (written at install; absent in a development tree)."""
    return os.path.join(get_lib_dir(), "pkgconfig")


def cflags():
    return " ".join(_link_flags.cflags(get_include()))


def libs():
    return " ".join(_link_flags.libs(get_library()))


def rpath():
    return " ".join(_link_flags.rpath(get_library()))


_ANSWERS = {
    "cflags": cflags, "libs": libs, "rpath": rpath, "prefix": get_prefix, "libdir": get_lib_dir,
    "includedir": get_include, "library": get_library, "pkgconfigdir": get_pkgconfig_dir,
}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m weft.config",
                                     description="Flags to compile and link against the libweft.so of this package.")
    for name in _ANSWERS:
        parser.add_argument("--" + name, dest="wanted", action="append_const", const=name)
    args = parser.parse_args(argv)
    if not args.wanted:
        parser.error("name at least one of " + ", ".join("--" + n for n in _ANSWERS))
    print(" ".join(_ANSWERS[name]() for name in args.wanted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
