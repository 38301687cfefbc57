"""NumPy's ufunc protocol for ``weft.np.ndarray``: ``onp.add(x, y)``,
``onp.float32(2) * x`` and ``onp.sqrt(x)`` run weft.np's functions on the
engine and return weft.np arrays, as MXNet 1.9.1's ``__array_ufunc__`` does.

Note [Why ndarray speaks the ufunc protocol]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The array class has ``__array__`` (host conversion). Without
``__array_ufunc__``, a NumPy scalar on the left of an operator
(``onp.float64(2) * x``, common in code that mixes NumPy constants with
arrays) makes NumPy convert x to a host array and return a host result: a
silent device-to-host copy that also leaves the autograd tape. With it,
NumPy hands every ufunc call that involves a weft.np array to this hook,
which runs the weft.np function of the same name. A ufunc weft.np lacks, or
a method other than a plain call (``reduce``, ``accumulate``, ``at`` ...),
is computed by host NumPy on copies and comes back as weft.np arrays (the
fallback MXNet uses for such calls, Note [Host NumPy fallback]).
"""
import numpy as onp

from ..ndarray.ndarray import NDArray
from . import _arithmetic as _ar
from . import _elementwise as _el
from ._array import ndarray
from ._ufunc_core import from_host

__all__ = []

# NumPy ufunc name -> weft.np function (NumPy 1.x calls division 'true_divide').
_UFUNCS = {name: getattr(mod, name) for mod in (_ar, _el) for name in mod.__all__ if isinstance(
    getattr(onp, name, None), onp.ufunc)}
_UFUNCS["true_divide"] = _ar.true_divide
_UFUNCS["divide"] = _ar.divide
_UFUNCS["floor_divide"] = _ar.floor_divide


def _host(v):
    return v.asnumpy() if isinstance(v, NDArray) else v


def _device(v, ref):
    if isinstance(v, onp.ndarray):
        return from_host(onp.ascontiguousarray(v), ref)
    if isinstance(v, tuple):
        return tuple(_device(o, ref) for o in v)
    return v


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's ``__array_ufunc__`` hook (Note [Why ndarray speaks the ufunc protocol])."""
    fn = _UFUNCS.get(ufunc.__name__)
    out = kwargs.get("out")
    if method == "__call__" and fn is not None and all(
            isinstance(v, NDArray) or onp.isscalar(v) or (isinstance(v, onp.ndarray) and v.ndim == 0)
            for v in inputs):
        args = [v.item() if isinstance(v, onp.ndarray) else v for v in inputs]
        if out is not None:
            if len(out) != 1 or not isinstance(out[0], NDArray):
                return NotImplemented
            kwargs["out"] = out[0]
        return fn(*args, **kwargs)
    if out is not None:
        return NotImplemented  # host results cannot be written into device arrays here
    res = getattr(ufunc, method)(*[_host(v) for v in inputs], **{k: _host(v) for k, v in kwargs.items()})
    return _device(res, self)


ndarray.__array_ufunc__ = array_ufunc
