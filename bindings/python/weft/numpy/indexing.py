"""Indexing and assignment of ``weft.np.ndarray`` with NumPy's rules:
``a[key]`` and ``a[key] = value`` for basic keys (ints, slices, Ellipsis,
None), integer-array keys and boolean masks.

Note [NumPy indexing over the legacy machinery]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The work is done by ``weft.ndarray.indexing`` (views for leading ints and
contiguous slices, then the slice, take, gather_nd and _scatter_set_nd ops),
so autograd records np indexing exactly as it records legacy indexing. Two
things differ in NumPy mode and are handled here:

* Validation and the result shape come from NumPy itself: the key is applied
  to a zero-stride NumPy array of a's shape (``numpy.broadcast_to`` of one
  byte, so a basic key costs nothing and an advanced one only the size of its
  result). NumPy's IndexError for a bad key is raised before anything runs,
  prefixed with the method's name, and the result is re-viewed to NumPy's
  shape where MXNet 1.x's legacy rule differs (``a[i]`` of a 1-d array is 0-d
  here, shape (1,) there).
* Index arrays given as device arrays are read to the host first, so an index
  out of range is an IndexError at once rather than an engine error at the
  next wait (the cost is one synchronisation per advanced index).

Note [Assignment under autograd]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
The legacy assignment writes into a view (``weft_ndarray_copy``, not an op)
or runs ``_slice_assign``/``_scatter_set_nd``, which have no gradient: on a
recorded array ``z[1:3] = y`` left z's tape entry as it was, so backward gave
silently wrong gradients (through z's old value, none to y). While autograd
records and the array or the value is on the tape, the assignment is therefore
composed of ops that have gradients: the host computes, for every element of
``a``, which element of the (broadcast, flattened) value lands there (NumPy's
own assignment of ``arange`` through the key, so repeated indices keep the last
write as NumPy does); ``take`` spreads the value to a's shape, ``where``
chooses it inside the region and a's old value outside, and ``_copyto`` writes
the result into ``a`` as a recorded op, so a's tape entry moves to it. The
gradient of the old value is zero inside the region, the value's is the
region's gradient (summed over broadcast and repeated positions).

The cost, paid only while recording, is a host index array of a's size and
three ops instead of one.

MXNet 1.9.1 refuses every in-place write into an array of the graph inside
``record()`` (all but ``a[:] = y``); Weft computes it. Two limits remain, both
needing versions on the core's tape: as for ``+=``, an array that an earlier
recorded op read for its own gradient (``y = z * x``) must not be overwritten
before backward (the tape keeps no copy of old values); and a write through a
view (``v = z[0]; v[1:3] = y``) moves the view's tape entry, not z's.
"""
# pylint: disable=protected-access
import numpy as _onp

from .. import autograd as _autograd
from ..dtypes import FLAG_TO_NAME
from ..ndarray import indexing as _legacy
from ..ndarray.creation import array as _nd_array
from ..ndarray.ndarray import NDArray
from ._array import _invoke, _np, ndarray
from ._ufunc_core import expand_to

__all__ = ["getitem", "setitem"]

_BYTE = _onp.zeros((), dtype=_onp.int8)


def _host_key(key):
    """key with every array entry (weft or NumPy or list) as a NumPy array."""
    def conv(k):
        if isinstance(k, NDArray):
            return k.asnumpy()
        if isinstance(k, list):
            try:
                return _onp.asarray(k)
            except ValueError:
                raise IndexError("only integers, slices, ellipsis, None and integer or boolean arrays "
                                 "are valid indices, got a ragged list") from None
        return k
    if isinstance(key, tuple):
        return tuple(conv(k) for k in key)
    return conv(key)


def _numpy_shape(shape, hkey, method):
    """The shape NumPy gives for a[hkey] (raising NumPy's error, named, for a bad key)."""
    try:
        return _onp.broadcast_to(_BYTE, shape)[hkey].shape
    except IndexError as err:
        raise IndexError("%s: %s" % (method, err)) from None
    except (TypeError, ValueError) as err:  # NumPy's own words for a key of the wrong kind
        raise IndexError("%s: invalid index %r (%s)" % (method, hkey, err)) from None


def _fix_float_indices(hkey):
    # MXNet scripts index with float arrays holding whole numbers; NumPy refuses them.
    def conv(k):
        if isinstance(k, _onp.ndarray) and k.dtype.kind == "f" and (k.size == 0 or (_onp.floor(k) == k).all()):
            return k.astype(_onp.int64)
        return k
    return tuple(conv(k) for k in hkey) if isinstance(hkey, tuple) else conv(hkey)


def getitem(a, key):
    """a[key] with NumPy's rules (Note [NumPy indexing over the legacy machinery])."""
    hkey = _fix_float_indices(_host_key(key))
    want = _numpy_shape(a.shape, hkey, "ndarray.__getitem__")
    res = _legacy.getitem(a, hkey)
    if res is a or res.shape != want:
        res = res._view(want)
    return _np(res)


def setitem(a, key, value):
    """a[key] = value with NumPy's rules (value broadcast to the indexed shape)."""
    hkey = _fix_float_indices(_host_key(key))
    want = _numpy_shape(a.shape, hkey, "ndarray.__setitem__")
    if isinstance(value, NDArray):
        vs = value.shape
    else:
        vs = _onp.shape(value) if isinstance(value, (list, tuple, _onp.ndarray)) else ()
    vs = tuple(vs)
    while len(vs) > len(want) and vs[0] == 1:  # NumPy drops a value's leading 1s
        vs = vs[1:]
    try:
        ok = _onp.broadcast_shapes(vs, want) == tuple(want)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError("ndarray.__setitem__: could not broadcast a value of shape %s to the indexed shape %s"
                         % (vs, want))
    if 0 in want:
        return
    if isinstance(value, ndarray) and value.context != a.context:
        value = value.as_in_context(a.context)
    if _autograd.is_recording() and (a._on_tape or (isinstance(value, NDArray) and value._on_tape)):
        _set_recorded(a, hkey, tuple(want), value)
        return
    _legacy.setitem(a, hkey, value)


def _set_recorded(a, hkey, want, value):
    """a[hkey] = value as ops autograd records (Note [Assignment under autograd])."""
    n = int(_onp.prod(want, dtype=_onp.int64))
    source = _onp.full(a.shape, -1, dtype=_onp.int64)
    source[hkey] = _onp.arange(n, dtype=_onp.int64).reshape(want)
    ctx, name = a.context, FLAG_TO_NAME[a._dtype_flag]
    if isinstance(value, NDArray):
        v = value if FLAG_TO_NAME[value._dtype_flag] == name else _invoke("Cast", [value], dtype=name)
        v = _np(v._view((1,) * (len(want) - v.ndim) + v.shape)) if v.ndim < len(want) else v
        v = expand_to(_np(v._view(v.shape[v.ndim - len(want):])) if v.ndim > len(want) else v, want)
    else:
        v = _np(_nd_array(_onp.broadcast_to(_onp.asarray(value, dtype=a.dtype), want).reshape(-1) if want
                          else _onp.asarray(value, dtype=a.dtype).reshape(1), ctx=ctx, dtype=name))
    flat = _invoke("Reshape", [v], shape=(n,))
    inside = _nd_array((source >= 0).astype(a.dtype).reshape(a.shape or (1,)), ctx=ctx, dtype=name)
    where = _nd_array(_onp.maximum(source, 0).reshape(a.shape or (1,)), ctx=ctx, dtype="int64")
    spread = _invoke("take", [flat, where], axis=0)
    old = a if a.shape else _np(a._view((1,)))
    new = _invoke("where", [inside, spread, old])
    _invoke("_copyto", [new if a.shape else _np(new._view(()))], out=a)
