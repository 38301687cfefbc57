"""Puts bindings/python on sys.path when the weft package is not installed, so the
tests run against the development tree (library: $WEFT_LIBRARY_PATH, else
weft/lib/, else <repo>/build/libweft.so -- see weft/base.py)."""
import importlib.util
import os
import sys

_BINDING = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                                         "bindings", "python"))

if importlib.util.find_spec("weft") is None:
    sys.path.insert(0, _BINDING)
