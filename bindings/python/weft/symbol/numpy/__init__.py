"""``weft.sym.np`` (also ``weft.symbol.numpy``): MXNet 1.9.1's ``mx.sym.np``, the
NumPy-semantics functions ``F.np`` is inside a ``hybrid_forward`` traced in
NumPy mode. Each composes MXNet's NumPy-mode operators over ``_Symbol``s
(Note [NumPy-semantics symbols] in ``_symbol.py``); Python scalars take the
``_npi_*_scalar`` operators, as in MXNet.
"""
# pylint: disable=redefined-builtin,invalid-name
import numbers

from ..symbol import Symbol
from . import linalg, random
from ._broadcasting import matmul, where
from ._npinsert import average, delete, ediff1d, insert, percentile
from ._symbol import (_Symbol, as_legacy_symbol, as_np_symbol, binary, check_axes, check_newshape, comparison,
                      is_scalar, np_op, reduce)

__all__ = ["_Symbol", "add", "subtract", "multiply", "divide", "true_divide", "mod", "remainder", "power",
           "maximum", "minimum", "hypot", "negative", "absolute", "abs", "exp", "log", "log2", "log10", "log1p",
           "expm1", "sqrt", "cbrt", "square", "reciprocal", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
           "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "sign", "rint", "ceil", "floor", "trunc",
           "fix", "degrees", "radians", "sum", "mean", "max", "min", "amax", "amin", "prod", "reshape",
           "transpose", "swapaxes", "expand_dims", "squeeze", "concatenate", "stack", "split", "broadcast_to",
           "tile", "clip", "copy", "zeros_like", "ones_like", "zeros", "ones", "full", "arange", "eye", "dot",
           "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "as_np_symbol", "as_legacy_symbol",
           "where", "matmul", "einsum", "linalg", "random", "average", "ediff1d", "percentile", "insert",
           "delete"]


def _sym(fname, arg, x):
    if not isinstance(x, Symbol):
        raise TypeError("%s: %s must be a Symbol, got %s" % (fname, arg, type(x).__name__))
    return x


# ---- binary ufuncs (broadcasting) ---------------------------------------------------------------------------
def add(x1, x2, out=None):  # pylint: disable=unused-argument
    """x1 + x2, broadcasting (``_npi_add``; ``_npi_add_scalar`` with a scalar)."""
    return binary("add", "add", x1, x2)


def subtract(x1, x2, out=None):  # pylint: disable=unused-argument
    """x1 - x2 (``_npi_subtract`` / ``_npi_subtract_scalar`` / ``_npi_rsubtract_scalar``)."""
    return binary("subtract", "subtract", x1, x2, reflected_scalar="rsubtract")


def multiply(x1, x2, out=None):  # pylint: disable=unused-argument
    """x1 * x2 (``_npi_multiply`` / ``_npi_multiply_scalar``)."""
    return binary("multiply", "multiply", x1, x2)


def true_divide(x1, x2, out=None):  # pylint: disable=unused-argument
    """x1 / x2 (``_npi_true_divide`` / ``_npi_true_divide_scalar`` / ``_npi_rtrue_divide_scalar``)."""
    return binary("true_divide", "true_divide", x1, x2, reflected_scalar="rtrue_divide")


divide = true_divide


def mod(x1, x2, out=None):  # pylint: disable=unused-argument
    """x1 % x2 (``_npi_mod`` / ``_npi_mod_scalar`` / ``_npi_rmod_scalar``)."""
    return binary("mod", "mod", x1, x2, reflected_scalar="rmod")


remainder = mod


def power(x1, x2, out=None):  # pylint: disable=unused-argument
    """x1 ** x2 (``_npi_power`` / ``_npi_power_scalar`` / ``_npi_rpower_scalar``)."""
    return binary("power", "power", x1, x2, reflected_scalar="rpower")


def maximum(x1, x2, out=None):  # pylint: disable=unused-argument
    """Elementwise maximum (``_npi_maximum`` / ``_npi_maximum_scalar``)."""
    return binary("maximum", "maximum", x1, x2)


def minimum(x1, x2, out=None):  # pylint: disable=unused-argument
    """Elementwise minimum (``_npi_minimum`` / ``_npi_minimum_scalar``)."""
    return binary("minimum", "minimum", x1, x2)


def hypot(x1, x2, out=None):  # pylint: disable=unused-argument
    """sqrt(x1**2 + x2**2) of two symbols (``_npi_hypot``)."""
    return np_op("_npi_hypot", _sym("hypot", "x1", x1), _sym("hypot", "x2", x2))


# ---- comparisons (bool results: the legacy comparison, then a cast) ---------------------------------------------
def _compare(name, legacy):
    def fn(x1, x2, out=None):  # pylint: disable=unused-argument
        if not isinstance(x1, Symbol):
            raise TypeError("%s: x1 must be a Symbol, got %s" % (name, type(x1).__name__))
        return comparison(name, legacy, x1, x2)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "NumPy's %s of a symbol and a symbol or scalar, as a bool symbol." % name
    return fn


equal, not_equal = _compare("equal", "equal"), _compare("not_equal", "not_equal")
greater, greater_equal = _compare("greater", "greater"), _compare("greater_equal", "greater_equal")
less, less_equal = _compare("less", "lesser"), _compare("less_equal", "lesser_equal")


# ---- unary ufuncs ------------------------------------------------------------------------------------------------
def _unary(name, opname):
    def fn(x, out=None):  # pylint: disable=unused-argument
        return np_op(opname, _sym(name, "x", x))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "NumPy's %s of a symbol (MXNet's ``%s``)." % (name, opname)
    return fn


_UNARY = {"negative": "_npi_negative", "absolute": "_npi_absolute", "abs": "_npi_absolute"}
_UNARY.update({n: "_npi_" + n for n in (
    "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "cbrt", "square", "reciprocal", "sin", "cos", "tan",
    "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "sign", "rint", "ceil",
    "floor", "trunc", "fix", "degrees", "radians")})
for _name, _op in _UNARY.items():
    globals()[_name] = _unary(_name, _op)
del _name, _op


# ---- reductions (legacy operators: Note [NumPy-semantics symbols]) ---------------------------------------
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None):  # pylint: disable=unused-argument
    """Sum over axis (None: all, a 0-d result). dtype and initial are MXNet's
    and not supported in a traced graph."""
    _no_extra("sum", dtype=dtype, initial=initial)
    return reduce("sum", "sum", a, axis, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False):  # pylint: disable=unused-argument
    """Mean over axis (None: all, a 0-d result)."""
    _no_extra("mean", dtype=dtype)
    return reduce("mean", "mean", a, axis, keepdims)


def max(a, axis=None, out=None, keepdims=False):  # pylint: disable=unused-argument
    """Maximum over axis."""
    return reduce("max", "max", a, axis, keepdims)


def min(a, axis=None, out=None, keepdims=False):  # pylint: disable=unused-argument
    """Minimum over axis."""
    return reduce("min", "min", a, axis, keepdims)


amax, amin = max, min


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None):  # pylint: disable=unused-argument
    """Product over axis."""
    _no_extra("prod", dtype=dtype, initial=initial)
    return reduce("prod", "prod", a, axis, keepdims)


def _no_extra(fname, **given):
    for k, v in given.items():
        if v is not None:
            raise NotImplementedError("%s: %s=%r is not supported in a traced graph (weft.sym.np)" % (fname, k, v))


# ---- shapes ------------------------------------------------------------------------------------------------------
def reshape(a, newshape, order="C"):
    """NumPy's reshape (-1 inferred once); written as the legacy Reshape."""
    return as_np_symbol(_sym("reshape", "a", a)).reshape(newshape, order=order)


def transpose(a, axes=None):
    """Permutes the axes (``_np_transpose``; None reverses them)."""
    return as_np_symbol(_sym("transpose", "a", a)).transpose(axes)


def swapaxes(a, axis1, axis2):
    """Swaps two axes (``_npi_swapaxes``)."""
    check_axes("swapaxes", "axis1", (axis1,))
    check_axes("swapaxes", "axis2", (axis2,))
    return np_op("_npi_swapaxes", _sym("swapaxes", "a", a), dim1=int(axis1), dim2=int(axis2))


def expand_dims(a, axis):
    """Inserts a size-1 axis (``_npi_expand_dims``)."""
    check_axes("expand_dims", "axis", (axis,))
    return np_op("_npi_expand_dims", _sym("expand_dims", "a", a), axis=int(axis))


def squeeze(a, axis=None):
    """Removes size-1 axes (``_np_squeeze``)."""
    return as_np_symbol(_sym("squeeze", "a", a)).squeeze(axis)


def _seq(fname, seq):
    if isinstance(seq, Symbol) or not isinstance(seq, (list, tuple)) or not seq:
        raise TypeError("%s: expected a non-empty list or tuple of Symbols" % fname)
    for i, s in enumerate(seq):
        _sym(fname, "seq[%d]" % i, s)
    return list(seq)


def concatenate(seq, axis=0, out=None):  # pylint: disable=unused-argument
    """Joins along an existing axis (the legacy Concat: Note [NumPy-mode op names])."""
    seq = _seq("concatenate", seq)
    if axis is None:
        return np_op("Concat", *[np_op("Reshape", s, shape=(-1,)) for s in seq], dim=0)
    check_axes("concatenate", "axis", (axis,))
    return np_op("Concat", *seq, dim=int(axis))


def stack(arrays, axis=0, out=None):  # pylint: disable=unused-argument
    """Joins along a new axis (``_npi_stack``)."""
    arrays = _seq("stack", arrays)
    check_axes("stack", "axis", (axis,))
    return np_op("_npi_stack", *arrays, axis=int(axis))


def split(ary, indices_or_sections, axis=0):
    """Splits into equal sections or at indices (``_npi_split``); a list of _Symbols."""
    _sym("split", "ary", ary)
    check_axes("split", "axis", (axis,))
    if isinstance(indices_or_sections, numbers.Integral) and not isinstance(indices_or_sections, bool):
        if indices_or_sections <= 0:
            raise ValueError("split: number sections must be larger than 0")
        out = np_op("_npi_split", ary, sections=int(indices_or_sections), axis=int(axis))
    elif isinstance(indices_or_sections, (list, tuple)):
        for i in indices_or_sections:
            check_axes("split", "indices_or_sections", (i,))
        idx = [int(i) for i in indices_or_sections]
        out = np_op("_npi_split", ary, indices=tuple([0] + idx), axis=int(axis))
    else:
        raise TypeError("split: indices_or_sections must be an int or a list of ints, got %s"
                        % type(indices_or_sections).__name__)
    return list(out)


# MXNet 1.9.1 has no `_np_broadcast_to`, `_np_zeros_like` or `_np_ones_like` (its
# NumPy mode writes `_npi_broadcast_to` and `_npi_full_like`, which Weft does not
# declare): these write the legacy operators, which MXNet loads in NumPy mode too
# (checked with MXNet 1.9.1's operator list).
def broadcast_to(array, shape):
    """Broadcasts to shape (the legacy ``broadcast_to``; no zero-size axes in a graph)."""
    _sym("broadcast_to", "array", array)
    shape = check_newshape("broadcast_to", shape)
    if -1 in shape:
        raise ValueError("broadcast_to: shape %s must not contain -1" % (shape,))
    return np_op("broadcast_to", array, shape=shape)


def tile(A, reps):
    """Repeats the whole array (``_npi_tile``)."""
    reps = tuple(reps) if isinstance(reps, (tuple, list)) else (reps,)
    return np_op("_npi_tile", _sym("tile", "A", A), reps=reps)


def clip(a, a_min, a_max, out=None):  # pylint: disable=unused-argument
    """Limits the values to [a_min, a_max] (``_npi_clip``)."""
    return as_np_symbol(_sym("clip", "a", a)).clip(a_min, a_max)


def copy(a):
    """A copy (``_np_copy``)."""
    return np_op("_np_copy", _sym("copy", "a", a))


def zeros_like(a, dtype=None):
    """Zeros of a's shape (the legacy ``zeros_like``); dtype= casts."""
    out = np_op("zeros_like", _sym("zeros_like", "a", a))
    return out if dtype is None else out.astype(dtype)


def ones_like(a, dtype=None):
    """Ones of a's shape (the legacy ``ones_like``); dtype= casts."""
    out = np_op("ones_like", _sym("ones_like", "a", a))
    return out if dtype is None else out.astype(dtype)


def _shape(fname, shape):
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    for d in shape:
        if not isinstance(d, numbers.Integral) or isinstance(d, bool) or d < 0:
            raise ValueError("%s: shape must hold non-negative ints, got %r" % (fname, d))
    return tuple(int(d) for d in shape)


def zeros(shape, dtype="float32", order="C", ctx=None):  # pylint: disable=unused-argument
    """An array of zeros (``_npi_zeros``)."""
    return np_op("_npi_zeros", shape=_shape("zeros", shape), dtype=dtype or "float32")


def ones(shape, dtype="float32", order="C", ctx=None):  # pylint: disable=unused-argument
    """An array of ones (``_npi_ones``)."""
    return np_op("_npi_ones", shape=_shape("ones", shape), dtype=dtype or "float32")


def full(shape, fill_value, dtype="float32", order="C", ctx=None, out=None):  # pylint: disable=unused-argument
    """An array of fill_value (``_npi_full``)."""
    if not is_scalar(fill_value):
        raise TypeError("full: fill_value must be a scalar in a traced graph, got %s" % type(fill_value).__name__)
    return np_op("_npi_full", shape=_shape("full", shape), value=fill_value, dtype=dtype or "float32")


def arange(start, stop=None, step=1, dtype="float32", ctx=None):  # pylint: disable=unused-argument
    """Evenly spaced values (``_npi_arange``)."""
    for arg, v in (("start", start), ("stop", stop), ("step", step)):
        if v is not None and not is_scalar(v):
            raise TypeError("arange: %s must be a number, got %s" % (arg, type(v).__name__))
    if step == 0:
        raise ValueError("arange: step must not be zero")
    if stop is None:
        start, stop = 0, start
    return np_op("_npi_arange", start=start, stop=stop, step=step, dtype=dtype or "float32")


def eye(N, M=None, k=0, dtype="float32", ctx=None):  # pylint: disable=unused-argument
    """The identity-like matrix (``_npi_eye``)."""
    params = {"N": N, "k": k, "dtype": dtype or "float32"}
    if M is not None:
        params["M"] = M
    return np_op("_npi_eye", **params)


def dot(a, b, out=None):  # pylint: disable=unused-argument
    """NumPy's dot for 1-d and 2-d b (any a): the legacy dot, which contracts a's last axis
    with b's first; MXNet's ``_np_dot`` of an N-d b (b's second-to-last axis) is not
    expressible without b's rank, which a traced graph does not know."""
    return np_op("dot", _sym("dot", "a", a), _sym("dot", "b", b))


def einsum(*operands, **kwargs):
    """Einstein summation (``_npi_einsum``, MXNet's node): ``einsum(subscripts,
    *operands, optimize=False)``. The operands share one dtype, as MXNet's
    (weft.np.einsum casts mixed ones first); ``optimize`` is kept on the node
    and does not change values."""
    optimize = kwargs.pop("optimize", False)
    kwargs.pop("out", None)  # MXNet's symbol einsum accepts and ignores it
    if kwargs:
        raise TypeError("einsum: unexpected keyword argument(s) %s" % sorted(kwargs))
    if not operands or not isinstance(operands[0], str):
        raise TypeError("einsum: the first argument must be the subscripts str")
    ops = [_sym("einsum", "operand %d" % i, x) for i, x in enumerate(operands[1:])]
    if not ops:
        raise ValueError("einsum: at least one operand is needed")
    return np_op("_npi_einsum", *ops, subscripts=operands[0], num_args=len(ops), optimize=int(bool(optimize)))
