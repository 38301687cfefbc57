"""Helpers MXNet 1.x scripts call from ``mx.util``, and the switches of NumPy mode.

Note [NumPy mode switches]
~~~~~~~~~~~~~~~~~~~~~~~~~~
MXNet 1.6+ has three flags that ``npx.set_np(shape=True, array=True, dtype=False)``
turns on and ``npx.reset_np()`` turns off, each also scoped by a ``with`` object
and a decorator:

* *shape* (``is_np_shape``, ``np_shape``, ``use_np_shape``): NumPy's shape
  semantics, where 0 in a shape is a zero-size axis and -1 an unknown one.
* *array* (``is_np_array``, ``np_array``, ``use_np_array``): code that checks it
  (Gluon, data loaders, ``mx.test_utils``) produces ``mx.np.ndarray`` instead of
  ``mx.nd.NDArray``. It requires the shape flag, as in MXNet.
* *dtype* (``is_np_default_dtype``, ``np_default_dtype``): creation functions
  default to float64 instead of float32 (``_default_float_dtype``).

As in MXNet, each flag is per thread: a thread starts with all three off, and
setting one in a thread leaves the others' threads alone. Here the flags are
held in Python only. Weft's C++ core already treats 0 in a shape as a zero-size
axis in both modes (it has no legacy "0 means unknown" shape inference to
switch off), so the shape flag records the mode for code that asks. What the
array flag changes elsewhere in the library (Gluon blocks returning np arrays,
``mx.test_utils`` building np arrays) is part 2 of NumPy mode (issue 39): this
module only keeps and reports the state.
"""
import functools
import inspect
import os
import threading

import numpy

from .base import InvalidArgumentError
from .context import num_gpus

__all__ = ["makedirs", "get_gpu_count", "is_np_array", "is_np_shape", "getenv", "setenv", "set_module",
           "wraps_safely", "set_np_shape", "np_shape", "use_np_shape", "np_array", "use_np_array", "use_np",
           "set_np", "reset_np", "is_np_default_dtype", "set_np_default_dtype", "np_default_dtype",
           "use_np_default_dtype"]


def makedirs(d):
    """Creates directory d and its parents; no error when it exists."""
    os.makedirs(os.path.expanduser(d), exist_ok=True)


def get_gpu_count():
    """Number of GPUs (weft.context.num_gpus)."""
    return num_gpus()


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


# ---- NumPy mode (Note [NumPy mode switches]) ----

_STATE = threading.local()  # attributes shape, dtype: bools; absent = False (a new thread)


def _get(flag):
    if flag == "array":
        # Kept where MXNet keeps it (code written for MXNet reads _NumpyArrayScope._current.value).
        cur = getattr(_NumpyArrayScope._current, "value", None)
        return bool(cur._is_np_array) if cur is not None else False
    return getattr(_STATE, flag, False)


def _put(flag, active):
    if flag == "array":
        _NumpyArrayScope._current.value = _NumpyArrayScope(active)
    else:
        setattr(_STATE, flag, active)


def _as_flag(v, func, arg):
    if not isinstance(v, (bool, int, numpy.bool_)):
        raise TypeError("%s: %s must be a bool, got %s" % (func, arg, type(v).__name__))
    return bool(v)


def _set(flag, active, func):
    active = _as_flag(active, func, "active")
    prev = _get(flag)
    _put(flag, active)
    return prev


def is_np_shape():
    """Whether NumPy shape semantics are on in this thread (``mx.util.is_np_shape``)."""
    return _get("shape")


def is_np_array():
    """Whether NumPy array semantics are on in this thread (``mx.util.is_np_array``)."""
    return _get("array")


def is_np_default_dtype():
    """Whether float64 is the default float dtype in this thread (``set_np(dtype=True)``)."""
    return _get("dtype")


def set_np_shape(active):
    """Turns NumPy shape semantics on or off in this thread; returns the previous state."""
    if not active and _get("array"):
        # MXNet keeps the invariant "array implies shape" (set_np raises for it too).
        raise ValueError("set_np_shape: NumPy array semantics are on and require NumPy shape semantics; "
                         "call reset_np() or set_np(shape=False, array=False) first")
    return _set("shape", active, "set_np_shape")


def _set_np_array(active):
    return _set("array", active, "set_np_array")


def set_np_default_dtype(is_np_default_dtype=True):  # pylint: disable=redefined-outer-name
    """Makes float64 (True) or float32 (False) the default float dtype in this thread;
    returns the previous state."""
    return _set("dtype", is_np_default_dtype, "set_np_default_dtype")


def _default_float_dtype():
    """The dtype float creation functions use when given none: numpy.float32, or
    numpy.float64 under ``set_np(dtype=True)`` (MXNet's default-dtype switch).

    Called by weft.np's creation and random functions; it lives here, below both
    weft.numpy and weft.numpy_extension, so that neither imports the other for it."""
    return numpy.float64 if _get("dtype") else numpy.float32


def set_np(shape=True, array=True, dtype=False):
    """Turns NumPy mode on in this thread (``mx.npx.set_np``).

    ``shape``: NumPy shape semantics; ``array``: NumPy array semantics (requires
    ``shape``); ``dtype``: float64 as the default float dtype. See Note [NumPy mode
    switches] for what the flags do in weft."""
    shape, array = _as_flag(shape, "set_np", "shape"), _as_flag(array, "set_np", "array")
    dtype = _as_flag(dtype, "set_np", "dtype")
    if not shape and array:
        raise ValueError("set_np: NumPy Shape semantics is required in using NumPy array semantics "
                         "(shape=False with array=True)")
    _put("shape", shape)
    _put("array", array)
    _put("dtype", dtype)


def reset_np():
    """Turns NumPy mode off in this thread (``mx.npx.reset_np``)."""
    set_np(shape=False, array=False, dtype=False)


class _Scope:
    """Sets one flag for a ``with`` block and restores it after (re-entrant)."""

    _flag = None

    def __init__(self, active=True):
        self._active = bool(active)
        self._prev = []

    def __enter__(self):
        self._prev.append(_get(self._flag))
        _put(self._flag, self._active)
        return self

    def __exit__(self, *exc):
        _put(self._flag, self._prev.pop())


class _NumpyShapeScope(_Scope):
    """``with _NumpyShapeScope(True):`` NumPy shape semantics in the block (MXNet's class)."""
    _flag = "shape"


class _NumpyArrayScope(_Scope):
    """``with _NumpyArrayScope(True):`` NumPy array semantics in the block (MXNet's class).

    As in MXNet, the thread's current scope object is ``_NumpyArrayScope._current.value``
    and its flag ``_is_np_array``; entering makes this object the current one."""
    _flag = "array"
    _current = threading.local()

    def __init__(self, is_np_array=True):  # pylint: disable=redefined-outer-name
        super().__init__(is_np_array)
        self._is_np_array = bool(is_np_array)

    def __enter__(self):
        self._prev.append(getattr(_NumpyArrayScope._current, "value", None))
        _NumpyArrayScope._current.value = self
        return self

    def __exit__(self, *exc):
        _NumpyArrayScope._current.value = self._prev.pop()


class _NumpyDefaultDtypeScope(_Scope):
    """``with _NumpyDefaultDtypeScope(True):`` float64 default dtype in the block."""
    _flag = "dtype"


def np_shape(active=True):
    """A ``with`` scope of NumPy shape semantics (``mx.np_shape``)."""
    return _NumpyShapeScope(active)


def np_array(active=True):
    """A ``with`` scope of NumPy array semantics (``mx.util.np_array``)."""
    return _NumpyArrayScope(active)


def np_default_dtype(active=True):
    """A ``with`` scope of the float64 default dtype (``mx.util.np_default_dtype``)."""
    return _NumpyDefaultDtypeScope(active)


def _decorate(obj, scope_cls, name):
    """Runs a function, or every method and property of a class, inside scope_cls(True).

    A class is changed in place and returned, as MXNet's decorators do, so that
    ``@use_np`` on a Gluon block class keeps its identity. As in MXNet
    (inspect.getmembers), inherited Python methods are wrapped too and set on
    the class, so ``net(x)`` through a base class's ``__call__`` runs in the
    scope; static and class methods stay static and class methods."""
    if inspect.isclass(obj):
        for attr in dir(obj):
            raw = inspect.getattr_static(obj, attr)
            if isinstance(raw, staticmethod):
                setattr(obj, attr, staticmethod(_decorate(raw.__func__, scope_cls, name)))
            elif isinstance(raw, classmethod):
                setattr(obj, attr, classmethod(_decorate(raw.__func__, scope_cls, name)))
            elif isinstance(raw, property):
                fget = _decorate(raw.fget, scope_cls, name) if raw.fget else None
                fset = _decorate(raw.fset, scope_cls, name) if raw.fset else None
                setattr(obj, attr, property(fget, fset, raw.fdel, raw.__doc__))
            elif inspect.isfunction(raw):
                setattr(obj, attr, _decorate(raw, scope_cls, name))
        return obj
    if callable(obj):
        @wraps_safely(obj)
        def _in_scope(*args, **kwargs):
            with scope_cls(True):
                return obj(*args, **kwargs)
        return _in_scope
    raise TypeError("%s can only decorate classes and callable objects, while received a %s"
                    % (name, type(obj).__name__))


def use_np_shape(func):
    """Decorator: the function (or each method of the class) runs with NumPy shape semantics."""
    return _decorate(func, _NumpyShapeScope, "use_np_shape")


def use_np_array(func):
    """Decorator: the function (or each method of the class) runs with NumPy array semantics."""
    return _decorate(func, _NumpyArrayScope, "use_np_array")


def use_np_default_dtype(func):
    """Decorator: the function (or each method of the class) runs with float64 as default dtype."""
    return _decorate(func, _NumpyDefaultDtypeScope, "use_np_default_dtype")


def use_np(func):
    """Decorator (``mx.util.use_np``, ``mx.test_utils.use_np``): NumPy shape and array
    semantics for the function or for every method and property of the class."""
    return use_np_shape(use_np_array(func))
