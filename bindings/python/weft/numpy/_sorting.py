"""``weft.np.sort`` and ``weft.np.argsort`` (MXNet 1.9.1's names and
parameters) over the registry's sort/argsort ops."""
# pylint: disable=redefined-builtin
from ._array import _invoke, _np
from ._reductions import normalize_axis
from ._ufunc_core import check_array

__all__ = ["sort", "argsort"]

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _prepare(fname, a, axis, kind, order):
    a = check_array(fname, "a", a)
    if kind not in _KINDS:
        raise ValueError("%s: sort kind must be one of %s, got %r" % (fname, _KINDS[1:], kind))
    if order is not None:
        raise ValueError("%s: order= needs a structured array, which weft.np does not have" % fname)
    if axis is None:
        return _np(a.reshape((-1,))), 0
    if isinstance(axis, (tuple, list)):
        raise TypeError("%s: axis must be an integer or None" % fname)
    if a.ndim == 0:
        # NumPy: sorting a 0-d array along an axis is an AxisError.
        normalize_axis(fname, axis, 0)
    return a, normalize_axis(fname, axis, a.ndim)[0]


def sort(a, axis=-1, kind=None, order=None):
    """A sorted copy of a along axis (None: the flattened array), ascending.

    ``kind`` is accepted for NumPy compatibility; every kind gives the same
    values (the engine's sort)."""
    x, ax = _prepare("sort", a, axis, kind, order)
    if x.size == 0:
        return _invoke("_plus_scalar", [x], scalar=0)
    return _invoke("sort", [x], axis=ax, is_ascend=True)


def argsort(a, axis=-1, kind=None, order=None):
    """Indices (int64) that sort a along axis (None: the flattened array).

    The engine's order is stable for every kind (equal elements keep their
    index order) and puts NaN last, as NumPy's; Note [Sort order] in
    core/op/sort/topk_rules.h."""
    x, ax = _prepare("argsort", a, axis, kind, order)
    if x.size == 0:
        return _invoke("Cast", [x], dtype="int64")
    return _invoke("argsort", [x], axis=ax, is_ascend=True, dtype="int64")
