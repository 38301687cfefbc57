"""Samples and batches as numpy, for DataLoader worker processes.

A worker must not call into the weft engine (see Note [DataLoader workers] in
_worker_pool.py), so what it sends to the parent holds numpy arrays, and each
leaf that the in-process DataLoader would have made an NDArray is wrapped in an
``ND`` marker; the parent turns exactly those into NDArrays (``to_nd``) and
leaves everything else as it came."""
import numpy as np

from ... import ndarray as _nd
from ...ndarray import NDArray
from ...numpy import ndarray as _np_ndarray
from ...util import is_np_array


class ND:
    """A numpy array that becomes an NDArray of the same dtype in the parent."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __reduce__(self):
        return (ND, (self.value,))


def plain(x):
    """x without its ND marker."""
    return x.value if isinstance(x, ND) else x


def _rebuild(container, items):
    if type(container) in (tuple, list):  # pylint: disable=unidiomatic-typecheck
        return type(container)(items)
    if hasattr(container, "_fields"):  # namedtuple
        return type(container)._make(items)
    try:
        return type(container)(items)
    except TypeError:
        return tuple(items) if isinstance(container, tuple) else list(items)


def _map_leaves(obj, leaf_type, fn):
    """obj with every leaf of leaf_type replaced by fn(leaf), through tuples, lists
    and dicts; containers without such a leaf are returned as they are."""
    if isinstance(obj, leaf_type):
        return fn(obj)
    if isinstance(obj, (tuple, list)):
        items = [_map_leaves(x, leaf_type, fn) for x in obj]
        if all(a is b for a, b in zip(items, obj)):
            return obj
        return _rebuild(obj, items)
    if isinstance(obj, dict):
        items = {k: _map_leaves(v, leaf_type, fn) for k, v in obj.items()}
        if all(items[k] is v for k, v in obj.items()):
            return obj
        out = type(obj)() if type(obj) is not dict else {}  # pylint: disable=unidiomatic-typecheck
        out.update(items)
        return out
    return obj


def to_host(sample):
    """A sample with its NDArrays as ND(numpy) (read in the worker: a copy of
    memory the parent computed before the fork, no operator runs)."""
    return _map_leaves(sample, NDArray, lambda a: ND(a.asnumpy()))


def to_nd(obj):
    """obj with its ND markers made NDArrays (in the parent)."""
    return _map_leaves(obj, ND, lambda m: _nd.array(m.value, dtype=m.value.dtype))


def host_array(x):
    """A sample field as a numpy array (NDArray, ND, numpy, list, number)."""
    if isinstance(x, NDArray):
        return x.asnumpy()
    return np.asarray(plain(x))


def in_array_mode(obj):
    """obj with its legacy NDArrays seen as weft.np.ndarray when NumPy mode is on in
    this thread (no copy), else obj as it is.

    Note [DataLoader in NumPy mode]: MXNet 1.9.1's batchify functions build np
    arrays when ``is_np_array()`` (``_mx_np.stack`` / ``_mx_np.array``) and its
    worker pools start with the parent's NumPy flags. Here batches are built as
    legacy NDArrays (in the parent, from the workers' numpy) and the DataLoader
    converts the batch it yields, in the thread that iterates, whatever made it:
    so a batch is an np array in NumPy mode for num_workers=0, worker processes
    and worker threads alike; the workers also run with the parent's flags, so
    a dataset's transforms see the mode the user set."""
    if not is_np_array():
        return obj
    return _map_leaves(obj, NDArray, lambda a: a if isinstance(a, _np_ndarray) else a.as_np_ndarray())
