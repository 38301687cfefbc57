"""The functions MXNet 1.9.1's ``mx.np`` hands to official NumPy on the host
(its python/mxnet/numpy/fallback.py), under the same names.

Note [Host NumPy fallback]
~~~~~~~~~~~~~~~~~~~~~~~~~~
These are rarely used functions with no engine op. As in MXNet, a call
copies every ``weft.np`` array argument (also inside lists, tuples and
dicts) to a host NumPy array, calls NumPy, and copies every NumPy array in
the result back to a ``weft.np`` array on the device of the first array
argument (the default device when there is none). Scalars, Python objects
and NumPy arrays of a type the engine lacks (complex roots, object arrays)
come back unchanged. There is no gradient through a fallback (the host copy
leaves the tape), and each call waits for its inputs to be computed.

``FALLBACK`` is MXNet 1.9.1's list, restricted to the names its ``mx.np``
exposes (pmt is in the list but not in mx.np). Names NumPy removed come from
_host_compat (Note [Fallback names NumPy removed]). ``float_power``,
``heaviside`` and ``positive`` (_arithmetic, _elementwise), ``size``
(reshaping) and ``dsplit`` (splitting) are in MXNet's list too, but weft.np
exports engine versions of them (on the device, differentiable where that
means something); the host versions stay reachable as
``weft.np.fallback.<name>``.
"""
import functools

import numpy as onp

from ..ndarray.ndarray import NDArray
from . import _host_compat
from ._promotion import dtype_name
from ._ufunc_core import from_host

FALLBACK = (
    "allclose", "alltrue", "apply_along_axis", "apply_over_axes", "argpartition", "argwhere", "array_equal",
    "array_equiv", "choose", "compress", "corrcoef", "correlate", "count_nonzero", "cov", "digitize", "divmod",
    "dsplit", "extract", "float_power", "frexp", "heaviside", "histogram2d", "histogram_bin_edges",
    "histogramdd", "i0", "in1d", "intersect1d", "isclose", "isin", "ix_", "lexsort", "min_scalar_type", "mirr",
    "modf", "msort", "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmedian", "nanmin",
    "nanpercentile", "nanprod", "nanquantile", "npv", "packbits", "partition", "piecewise", "poly", "polyadd",
    "polydiv", "polyfit", "polyint", "polymul", "polysub", "positive", "ppmt", "promote_types", "ptp", "pv",
    "rate", "real", "result_type", "roots", "searchsorted", "select", "setdiff1d", "setxor1d", "signbit",
    "size", "spacing", "take_along_axis", "trapz", "tril_indices_from", "trim_zeros", "triu_indices_from",
    "union1d", "unpackbits", "unwrap", "vander",
)
# In FALLBACK but exported by weft.np from its engine implementation.
ENGINE_OVERRIDES = ("float_power", "heaviside", "positive", "size", "dsplit")

__all__ = [n for n in FALLBACK if n not in ENGINE_OVERRIDES]


def _first_array(obj):
    if isinstance(obj, NDArray):
        return obj
    if isinstance(obj, (list, tuple)):
        for o in obj:
            found = _first_array(o)
            if found is not None:
                return found
    if isinstance(obj, dict):
        return _first_array(list(obj.values()))
    return None


def _to_host(obj):
    if isinstance(obj, NDArray):
        return obj.asnumpy()
    if isinstance(obj, list):
        return [_to_host(o) for o in obj]
    if isinstance(obj, tuple):
        return tuple(_to_host(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_host(v) for k, v in obj.items()}
    return obj


def _engine_type(dt):
    try:
        dtype_name(dt)
        return dt.kind in "biuf"
    except TypeError:
        return False


def _to_device(obj, ref):
    if isinstance(obj, onp.ndarray):
        return from_host(onp.ascontiguousarray(obj), ref) if _engine_type(obj.dtype) else obj
    if isinstance(obj, list):
        return [_to_device(o, ref) for o in obj]
    if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
        return tuple(_to_device(o, ref) for o in obj)
    return obj


def _make(name):
    host = getattr(_host_compat, name, None) or getattr(onp, name)

    @functools.wraps(host)
    def fallback(*args, **kwargs):
        ref = _first_array(args)
        ref = _first_array(kwargs) if ref is None else ref
        return _to_device(host(*_to_host(args), **_to_host(kwargs)), ref)
    fallback.__name__ = name
    fallback.__qualname__ = name
    fallback.__module__ = __name__
    fallback.__doc__ = ("Fallback to official NumPy on the host (as MXNet 1.9.1's mx.np.%s; "
                        "Note [Host NumPy fallback] in weft/numpy/fallback.py): weft.np arrays go to the "
                        "host and NumPy arrays come back as weft.np arrays; no gradient.\n\n%s"
                        % (name, host.__doc__ or ""))
    fallback.is_fallback = True
    return fallback


for _name in FALLBACK:
    globals()[_name] = _make(_name)
