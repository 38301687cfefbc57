"""``weft.sym.np.average``, ``ediff1d``, ``percentile``, ``insert`` and ``delete``:
each writes the one node MXNet 1.9.1's ``mx.sym.np`` writes (``_npi_average``,
``_npi_ediff1d``, ``_npi_percentile``, ``_npi_insert_scalar/_slice/_tensor``,
``_npi_delete``) with MXNet's attributes, so a traced graph exports as MXNet
writes it and an MXNet graph's node reads back as this call makes it.

The values are MXNet's (the operators' Notes in core/op/reduce and
core/op/index): an integer average is truncated, ``insert``/``delete`` read a
Symbol ``obj`` as integer indices (MXNet's rules for a bool or out-of-range
one), and ``insert``/``delete``/``percentile`` have no gradient (MXNet's
operators have none or a zero one).
"""
# pylint: disable=invalid-name
import numbers

from ..symbol import Symbol
from ._symbol import check_axes, np_op

__all__ = ["average", "ediff1d", "percentile", "insert", "delete"]


def _sym(fname, arg, x):
    if not isinstance(x, Symbol):
        raise TypeError("%s: %s must be a Symbol, got %s" % (fname, arg, type(x).__name__))
    return x


def _int(fname, arg, v):
    if not isinstance(v, numbers.Integral) or isinstance(v, bool):
        raise TypeError("%s: %s must be an integer, got %s" % (fname, arg, type(v).__name__))
    return int(v)


def _axes(fname, axis):
    """None, an int or a tuple of ints, written as given (MXNet writes axis=1 as '1')."""
    if axis is None:
        return None
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    check_axes(fname, "axis", axes)
    return tuple(int(a) for a in axes) if isinstance(axis, (tuple, list)) else int(axis)


def _axis(fname, axis):
    return None if axis is None else _int(fname, "axis", axis)


def average(a, axis=None, weights=None, returned=False, out=None):  # pylint: disable=unused-argument
    """The weighted average over axis (``_npi_average``); with returned=True a list
    [average, sum_of_weights] (MXNet's shapes: Note [np.average as MXNet returns it])."""
    a = _sym("average", "a", a)
    if weights is None:
        res = np_op("_npi_average", a, axis=_axes("average", axis), returned=bool(returned), weighted=False)
    else:
        res = np_op("_npi_average", a, _sym("average", "weights", weights), axis=_axes("average", axis),
                    returned=bool(returned))
    return [res[0], res[1]] if returned else res


def _edge(name, value, inputs, params):
    if value is None:
        return
    if isinstance(value, Symbol):
        inputs.append(value)
        params[name + "_arr_given"] = True
    elif isinstance(value, numbers.Real) and not isinstance(value, bool):
        params[name + "_scalar"] = float(value)
    else:
        raise TypeError("ediff1d: %s must be a Symbol, a number or None, got %s" % (name, type(value).__name__))


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of the flattened ary with to_begin/to_end (numbers or Symbols)
    around them (``_npi_ediff1d``, differentiable in ary and the Symbol edges)."""
    inputs, params = [_sym("ediff1d", "ary", ary)], {"to_begin_arr_given": False, "to_end_arr_given": False}
    _edge("to_begin", to_begin, inputs, params)
    _edge("to_end", to_end, inputs, params)
    return np_op("_npi_ediff1d", *inputs, **params)


def percentile(a, q, axis=None, out=None,  # pylint: disable=unused-argument
               overwrite_input=None, interpolation="linear", keepdims=False):
    """The q-th percentiles along axis (``_npi_percentile``): q a number or a 0-d/1-D
    Symbol; float64 for a float64 input, float32 otherwise (MXNet's rule)."""
    if overwrite_input is not None:
        raise NotImplementedError("percentile: 'overwrite_input' is not supported (as in MXNet 1.9.1)")
    a = _sym("percentile", "a", a)
    params = dict(axis=_axes("percentile", axis), interpolation=interpolation, keepdims=bool(keepdims))
    if isinstance(q, Symbol):
        return np_op("_npi_percentile", a, q, **params)
    if not isinstance(q, numbers.Real) or isinstance(q, bool):
        raise TypeError("percentile: q must be a number or a Symbol, got %s" % type(q).__name__)
    return np_op("_npi_percentile", a, q_scalar=q, **params)


def _slice_params(fname, s, step=None):
    """start, stop, step of a slice obj; `step` stands in for a None step (MXNet's
    insert writes 1 there, its delete None)."""
    return {k: (None if v is None else _int(fname, "obj." + k, v))
            for k, v in (("start", s.start), ("stop", s.stop), ("step", step if s.step is None else s.step))}


def insert(arr, obj, values, axis=None):
    """arr with values inserted before obj along axis (``_npi_insert_scalar`` for an
    int obj, ``_npi_insert_slice`` for a slice, ``_npi_insert_tensor`` for a Symbol);
    values a Symbol or a number (MXNet's ``val``)."""
    arr = _sym("insert", "arr", arr)
    axis = _axis("insert", axis)
    if isinstance(values, Symbol):
        vals, params = [values], {}
    elif isinstance(values, numbers.Real) and not isinstance(values, bool):
        vals, params = [], {"val": float(values)}
    else:
        raise TypeError("insert: values must be a Symbol or a number, got %s" % type(values).__name__)
    if isinstance(obj, Symbol):  # obj by name: without values it is the second input
        return np_op("_npi_insert_tensor", arr, *vals, obj=obj, axis=axis, **params)
    if isinstance(obj, slice):
        return np_op("_npi_insert_slice", arr, *vals, axis=axis, **_slice_params("insert", obj, 1), **params)
    return np_op("_npi_insert_scalar", arr, *vals, int_ind=_int("insert", "obj", obj), axis=axis, **params)


def delete(arr, obj, axis=None):
    """arr without the entries obj names along axis (``_npi_delete``): an int, a slice or
    a Symbol of indices (its output shape then known only when it runs)."""
    arr = _sym("delete", "arr", arr)
    axis = _axis("delete", axis)
    if isinstance(obj, Symbol):
        return np_op("_npi_delete", arr, obj, axis=axis)
    if isinstance(obj, slice):
        return np_op("_npi_delete", arr, axis=axis, **_slice_params("delete", obj))
    return np_op("_npi_delete", arr, int_ind=_int("delete", "obj", obj), axis=axis)
