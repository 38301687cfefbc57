"""Helpers MXNet 1.x scripts call from ``mx.util``.

Only what holds for weft as MXNet documents it: weft has no ``mx.np`` front end,
so NumPy array and shape semantics are never active (``is_np_array`` and
``is_np_shape`` are False, as they are in MXNet until a script turns them on).
``use_np`` / ``set_np`` are not provided: in MXNet they switch those semantics on,
which weft cannot do.
"""
import functools
import os

from .base import InvalidArgumentError
from .context import num_gpus

__all__ = ["makedirs", "get_gpu_count", "is_np_array", "is_np_shape", "getenv", "setenv", "set_module",
           "wraps_safely"]


def makedirs(d):
    """Creates directory d and its parents; no error when it exists."""
    os.makedirs(os.path.expanduser(d), exist_ok=True)


def get_gpu_count():
    """Number of GPUs (weft.context.num_gpus)."""
    return num_gpus()


def is_np_array():
    """False: weft arrays are always the classic NDArray (no mx.np semantics)."""
    return False


def is_np_shape():
    """False: classic shape semantics (MXNet's default) are always in force."""
    return False


def getenv(name):
    """The value of environment variable name, None when unset."""
    if not isinstance(name, str):
        raise InvalidArgumentError("getenv: name must be a str, got %s" % type(name).__name__)
    return os.environ.get(name)


def setenv(name, value):
    """Sets (value None: unsets) an environment variable of the process; the C++ library
    reads the same environment."""
    if not isinstance(name, str):
        raise InvalidArgumentError("setenv: name must be a str, got %s" % type(name).__name__)
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = str(value)


def set_module(module):
    """Decorator that sets ``__module__`` of a function or class (what documentation shows)."""
    def decorator(func):
        if module is not None:
            func.__module__ = module
        return func
    return decorator


def wraps_safely(wrapped, assigned=functools.WRAPPER_ASSIGNMENTS):
    """functools.wraps that skips attributes the wrapped object lacks."""
    return functools.wraps(wrapped, assigned=[a for a in assigned if hasattr(wrapped, a)])
