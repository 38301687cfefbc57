"""Batchify functions: a list of samples -> a batch, as ``mxnet.gluon.data.batchify``.

``default_batchify_fn`` is what DataLoader uses unless told otherwise; Stack,
Pad, Append, Group (alias Tuple) and AsList compose, e.g.
``Group(Stack(), Pad(val=-1))`` for (image, variable-length label) samples.

Each of these also has a numpy twin (``_host``) that DataLoader worker
processes run: it returns numpy arrays marked to become NDArrays in the parent
process, so the batch is the same as in-process batchifying gives. A
batchify_fn of your own (or a subclass of these) runs in the parent process on
the samples the workers loaded.
"""
import math

import numpy as np

from ... import ndarray as _nd
from ...ndarray import NDArray
from ._host import ND, host_array, plain

__all__ = ["default_batchify_fn", "default_mp_batchify_fn", "Stack", "Pad", "Append", "Group", "Tuple", "AsList"]


def _as_nd(host):
    a = np.asarray(host)
    return _nd.array(a, dtype=a.dtype)


def default_batchify_fn(data):
    """Stacks NDArray samples (``nd.stack``); batches each field of tuple samples
    separately (a list of batches); anything else (numpy arrays, numbers, lists)
    goes through ``np.asarray`` and keeps its numpy dtype (python floats give
    float64, ints int64, as in MXNet)."""
    first = data[0]
    if isinstance(first, NDArray):
        return _nd.stack(*data)
    if isinstance(first, tuple):
        return [default_batchify_fn(list(field)) for field in zip(*data)]
    return _as_nd(data)


def default_mp_batchify_fn(data):
    """What MXNet uses in worker processes; the same as default_batchify_fn here
    (weft workers batchify with numpy, see DataLoader)."""
    return default_batchify_fn(data)


def _default_host(data):
    first = data[0]
    if isinstance(first, tuple):
        return [_default_host(list(field)) for field in zip(*data)]
    return ND(np.asarray([plain(x) for x in data]))


class _Batchify:
    """Base of the batchify classes that have a numpy twin."""

    def _host(self, data):
        raise NotImplementedError

    def _host_capable(self):
        return True


class Stack(_Batchify):
    """Stacks samples along a new first axis. NDArray samples: ``nd.stack``;
    others: ``np.asarray`` then an NDArray. ``dtype`` (default: the samples')
    casts the result. ``use_shared_mem`` is accepted for MXNet compatibility."""

    def __init__(self, use_shared_mem=False, dtype=None):  # pylint: disable=unused-argument
        self._dtype = None if dtype is None else np.dtype(dtype)

    def __call__(self, data):
        if isinstance(data[0], NDArray):
            out = _nd.stack(*data)
            return out if self._dtype is None or out.dtype == self._dtype else out.astype(self._dtype)
        return _as_nd(np.asarray(data, dtype=self._dtype))

    def _host(self, data):
        return ND(np.asarray([plain(x) for x in data], dtype=self._dtype))


class Pad(_Batchify):
    """Pads samples of different shapes with ``val`` (default 0) to a common
    shape, then stacks them.

    As in MXNet 1.x every axis is padded to its largest size (rounded up to a
    multiple of ``round_to`` when given). GluonNLP's keywords work too:
    ``axis`` pads only that axis (the others must agree), ``pad_val`` is val,
    ``ret_length=True`` returns ``(batch, lengths)`` with the int32 lengths
    along ``axis`` (axis 0 when axis is None). ``dtype`` defaults to the
    first sample's."""

    def __init__(self, val=None, dtype=None, round_to=None, use_shared_mem=False,  # pylint: disable=unused-argument
                 axis=None, pad_val=None, ret_length=False):
        if val is not None and pad_val is not None and val != pad_val:
            raise ValueError("Pad: give val or pad_val, not both")
        self._val = val if val is not None else (pad_val if pad_val is not None else 0)
        self._dtype = None if dtype is None else np.dtype(dtype)
        self._round_to = round_to
        self._axis = axis
        self._ret_length = ret_length

    def _pad(self, arrays):
        ndim = arrays[0].ndim
        if ndim == 0:
            raise ValueError("Pad: samples must have at least one axis, got a scalar")
        if any(a.ndim != ndim for a in arrays):
            raise ValueError("Pad: samples must have the same number of axes, got shapes %s"
                             % [a.shape for a in arrays])
        axes = range(ndim) if self._axis is None else [self._axis % ndim]
        shape = list(arrays[0].shape)
        for ax in range(ndim):
            sizes = [a.shape[ax] for a in arrays]
            if ax in axes:
                size = max(sizes)
                if self._round_to:
                    size = int(math.ceil(size / self._round_to)) * self._round_to
                shape[ax] = size
            elif any(s != shape[ax] for s in sizes):
                raise ValueError("Pad: samples differ along axis %d, which is not padded (axis=%d); sizes %s"
                                 % (ax, self._axis, sizes))
        dtype = self._dtype if self._dtype is not None else arrays[0].dtype
        out = np.full([len(arrays)] + shape, self._val, dtype=dtype)
        for i, a in enumerate(arrays):
            out[(i,) + tuple(slice(0, d) for d in a.shape)] = a
        if not self._ret_length:
            return out, None
        length_axis = 0 if self._axis is None else self._axis % ndim
        return out, np.array([a.shape[length_axis] for a in arrays], dtype=np.int32)

    def __call__(self, data):
        out, lengths = self._pad([host_array(x) for x in data])
        if lengths is None:
            return _as_nd(out)
        return _as_nd(out), _as_nd(lengths)

    def _host(self, data):
        out, lengths = self._pad([host_array(x) for x in data])
        return ND(out) if lengths is None else (ND(out), ND(lengths))


class Append(_Batchify):
    """A list of the samples as NDArrays, each with a new axis of length 1 at
    ``batch_axis`` when ``expand`` (for samples that cannot be stacked)."""

    def __init__(self, expand=True, batch_axis=0, use_shared_mem=False):  # pylint: disable=unused-argument
        self._expand = expand
        self._batch_axis = batch_axis

    def __call__(self, data):
        out = [x if isinstance(x, NDArray) else _as_nd(x) for x in data]
        if self._expand:
            out = [x.expand_dims(self._batch_axis) for x in out]
        return out

    def _host(self, data):
        out = [host_array(x) for x in data]
        if self._expand:
            out = [np.expand_dims(x, self._batch_axis) for x in out]
        return [ND(x) for x in out]


class Group(_Batchify):
    """Batchifies field i of the (tuple) samples with function i; returns a
    tuple. ``Group(Stack(), Pad())`` or ``Group([Stack(), Pad()])``."""

    def __init__(self, fn, *args):
        if isinstance(fn, (list, tuple)):
            if args:
                raise ValueError("Group: give the functions as one list or as arguments, not both")
            fns = tuple(fn)
        else:
            fns = (fn,) + args
        for f in fns:
            if not callable(f):
                raise TypeError("Group: batchify functions must be callable, got %r" % (f,))
        self._fn = fns

    def _check(self, data):
        if len(data[0]) != len(self._fn):
            raise ValueError("Group: samples have %d fields but %d batchify functions were given"
                             % (len(data[0]), len(self._fn)))

    def __call__(self, data):
        self._check(data)
        return tuple(f([x[i] for x in data]) for i, f in enumerate(self._fn))

    def _host_capable(self):
        return all(host_batchify(f) is not None for f in self._fn)

    def _host(self, data):
        self._check(data)
        return tuple(host_batchify(f)([x[i] for x in data]) for i, f in enumerate(self._fn))


Tuple = Group  # GluonNLP's name


class AsList(_Batchify):
    """The samples as they are, in a list."""

    def __call__(self, data):
        return list(data)

    def _host(self, data):
        return list(data)


_HOST_CLASSES = (Stack, Pad, Append, Group, AsList)


def host_batchify(fn):
    """The numpy twin of batchify function fn, or None when fn has none (a
    function of the user's, or a subclass that may behave differently)."""
    if fn is default_batchify_fn or fn is default_mp_batchify_fn:
        return _default_host
    if type(fn) in _HOST_CLASSES and fn._host_capable():  # pylint: disable=unidiomatic-typecheck,protected-access
        return fn._host  # pylint: disable=protected-access
    return None
