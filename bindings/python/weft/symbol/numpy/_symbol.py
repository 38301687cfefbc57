"""``_Symbol``: MXNet 1.9.1's NumPy-semantics symbol (``mxnet.symbol.numpy._Symbol``).

Note [NumPy-semantics symbols]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
In NumPy mode MXNet traces ``hybrid_forward`` with ``_Symbol``s: ``a + b`` is
a broadcasting ``_npi_add`` node (a legacy Symbol's is the same-shape
``_Plus``), ``x * 2`` is ``_npi_multiply_scalar``, ``F.npx.relu`` is
``_npx_relu``, and ``export()`` writes those names. Weft's ``_Symbol`` is a
``Symbol`` over the same handle type that only chooses those operators, the
way ``weft.np.ndarray`` subclasses ``NDArray`` (Note [One array, two classes]).

The MXNet names are aliases of Weft operators (Note [NumPy-mode op names] in
core/opdef/np_op_names.cc), and a node composed through an alias records the
operator's own name (``broadcast_add``). So the MXNet spelling is restored when
a ``_Symbol`` is written (``tojson``/``save``, hence ``export``): every node
whose operator has a NumPy-mode alias is written under it (``_np_name_of``).
That also renames the nodes of Weft's built-in layers, traced with legacy
Symbols inside a NumPy-mode graph (``FullyConnected`` ->
``_npx_fully_connected``), which is what MXNet's layers write in that mode.
Operators with no NumPy-mode alias keep their legacy name (``Reshape``,
``sum``, ``Concat``); MXNet loads those in NumPy mode too.

What a traced graph cannot do as the arrays do: it has no shapes or dtypes at
trace time. A full reduction (``axis=None``) is followed by
``_np_reshape(newshape=())``, so it gives a 0-d result as in MXNet (Note [0-d
results in a traced graph] in core/op/shape/np_reshape.cc); but an explicit
axis tuple naming every axis still gives ``(1,)`` (the legacy reductions' rule:
the rank is unknown at trace time). Mixed dtypes are not promoted (the
operators keep their inputs' dtype).
"""
# pylint: disable=protected-access,invalid-name
import numbers
import re

from ... import ndarray as _nd
from .. import _internal
from ..symbol import Group, Symbol

__all__ = ["_Symbol", "as_np_symbol", "as_legacy_symbol", "np_op", "is_scalar", "binary", "comparison",
           "np_name_of"]


def is_scalar(x):
    """A Python or NumPy scalar (bool included, as NumPy takes True for 1)."""
    return isinstance(x, numbers.Number)


def _fresh(sym):
    """sym, a Symbol nobody else holds yet, re-classed as _Symbol."""
    sym.__class__ = _Symbol
    return sym


def _reclass(sym, cls):
    """A new Python object of class cls over the same graph outputs (no node is copied: a
    parameter's cached variable stays the one node of that name)."""
    if sym.__class__ is cls:
        return sym
    n = len(sym)
    out = Symbol.__getitem__(sym, 0) if n == 1 else Group([Symbol.__getitem__(sym, i) for i in range(n)])
    out.__class__ = cls
    return out


def as_np_symbol(sym):
    """sym as a _Symbol (itself when it is one)."""
    return _reclass(sym, _Symbol)


def as_legacy_symbol(sym):
    """sym as a legacy Symbol (itself when it is one)."""
    return _reclass(sym, Symbol)


def np_op(opname, *inputs, **params):
    """Composes registry operator opname (an MXNet NumPy-mode name or a legacy one) over
    inputs and returns a _Symbol."""
    return _fresh(getattr(_internal, opname)(*inputs, **params))


def _scalar_params(value):
    # MXNet's NumpyBinaryScalarParam: the scalar, and whether the Python value was an int
    return {"scalar": value, "is_int": isinstance(value, numbers.Integral)}


def binary(fname, ufunc, a, b, reflected_scalar=None):
    """MXNet's ufunc dispatch: _npi_<ufunc> for two symbols (broadcasting),
    _npi_<ufunc>_scalar / _npi_r<ufunc>_scalar with a Python scalar."""
    a_sym, b_sym = isinstance(a, Symbol), isinstance(b, Symbol)
    if a_sym and b_sym:
        return np_op("_npi_" + ufunc, a, b)
    if a_sym and is_scalar(b):
        return np_op("_npi_%s_scalar" % ufunc, a, **_scalar_params(b))
    if b_sym and is_scalar(a):
        if reflected_scalar is None:  # commutative
            return np_op("_npi_%s_scalar" % ufunc, b, **_scalar_params(a))
        return np_op("_npi_%s_scalar" % reflected_scalar, b, **_scalar_params(a))
    bad = b if a_sym or is_scalar(a) else a
    raise TypeError("%s: operands must be Symbols or Python scalars, got %s" % (fname, type(bad).__name__))


def comparison(fname, legacy, a, b):
    # MXNet's _npi_equal ... give bool; the legacy operators keep the input dtype (Note
    # [NumPy-mode op names]), so the node is followed by a cast to bool.
    if isinstance(b, Symbol):
        out = np_op("broadcast_" + legacy, a, b)
    elif is_scalar(b):
        out = np_op("_%s_scalar" % legacy, a, scalar=b)
    else:
        raise TypeError("%s: operands must be Symbols or Python scalars, got %s" % (fname, type(b).__name__))
    return np_op("_npx_cast", out, dtype="bool")


def check_axes(fname, arg, axes):
    for ax in axes:
        if not isinstance(ax, numbers.Integral) or isinstance(ax, bool):
            raise TypeError("%s: %s must be an integer or a tuple of integers, got %s"
                            % (fname, arg, type(ax).__name__))
    if len(set(int(a) for a in axes)) != len(axes):
        raise ValueError("%s: duplicate value in '%s'" % (fname, arg))


def reduce(opname, fname, a, axis, keepdims):
    """A NumPy reduction over the legacy operator; axis=None without keepdims gives a 0-d
    result (Note [NumPy-semantics symbols]); axis=() reduces nothing."""
    if not isinstance(a, Symbol):
        raise TypeError("%s: a must be a Symbol, got %s" % (fname, type(a).__name__))
    if axis is None:
        out = np_op(opname, a, keepdims=bool(keepdims))
        return out if keepdims else np_op("_np_reshape", out, newshape=())
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    check_axes(fname, "axis", axes)
    if not axes:
        return np_op("_np_copy", a)
    return np_op(opname, a, axis=tuple(int(x) for x in axes), keepdims=bool(keepdims))


def check_newshape(fname, newshape):
    """newshape as a tuple of ints with NumPy's meaning (-1 inferred once, no other negative);
    0 is refused: the legacy Reshape written for it would read 0 as "copy this axis"."""
    shape = tuple(newshape) if isinstance(newshape, (tuple, list)) else (newshape,)
    for d in shape:
        if not isinstance(d, numbers.Integral) or isinstance(d, bool):
            raise TypeError("%s: newshape must be an int or a tuple of ints, got %s" % (fname, type(d).__name__))
    if sum(1 for d in shape if d == -1) > 1:
        raise ValueError("%s: can only specify one unknown dimension (-1) in newshape" % fname)
    if any(d < -1 or d == 0 for d in shape):
        raise ValueError("%s: newshape %s: every dimension must be positive or -1 (a traced graph cannot "
                         "reshape to zero-size axes)" % (fname, shape))
    return tuple(int(d) for d in shape)


def getitem(x, key):
    """Basic indexing with ints and slices on the leading axes (slice, then squeeze of the
    int axes)."""
    keys = key if isinstance(key, tuple) else (key,)
    begin, end, step, drop = [], [], [], []
    for i, k in enumerate(keys):
        if isinstance(k, numbers.Integral) and not isinstance(k, bool):
            k = int(k)
            begin.append(k)
            end.append(k + 1 if k != -1 else None)
            step.append(1)
            drop.append(i)
        elif isinstance(k, slice):
            for v in (k.start, k.stop, k.step):
                if v is not None and (not isinstance(v, numbers.Integral) or isinstance(v, bool)):
                    raise IndexError("_Symbol.__getitem__: slice bounds must be integers or None, got %s"
                                     % type(v).__name__)
            if k.step == 0:
                raise ValueError("_Symbol.__getitem__: slice step cannot be zero")
            begin.append(k.start)
            end.append(k.stop)
            step.append(k.step)
        else:
            raise IndexError("_Symbol.__getitem__: only integers and slices are valid indices of a traced "
                             "symbol, got %s" % type(k).__name__)
    out = np_op("slice", x, begin=tuple(begin), end=tuple(end), step=tuple(step))
    return np_op("squeeze", out, axis=tuple(drop)) if drop else out


# ---- the MXNet spelling of the graph's operators -------------------------------------------------------
_NP_NAMES = None
_PREFIXES = ("_npi_", "_np_", "_npx_")
# Aliases Weft's registry holds that MXNet 1.9.1 does not register (checked against
# its operator list): a node is never written under these, or MXNet could not load
# the file; the legacy name is written instead.
_NOT_IN_MXNET = frozenset({"_np_broadcast_to", "_np_zeros_like", "_np_ones_like"})
# NumPy-mode names MXNet 1.9.1 registers only as aliases of another operator (add_alias;
# checked in MXNet 1.9.1: MXSymbolGetAtomicSymbolInfo gives the target's name). MXNet reads
# them but writes the operator's own name (Custom, take, _image_resize ...), so Weft writes
# that too; core/opdef/np_op_names.cc reads both.
_MXNET_ALIASES = frozenset({
    "_npi_shuffle", "_npi_random_randint", "_npi_linspace", "_npi_Custom",
    "_np_repeat", "_npi_argsort", "_npi_gather_nd", "_npi_histogram", "_npi_scatter_set_nd", "_npi_slice",
    "_npi_slice_assign", "_npi_slice_assign_scalar", "_npi_sort", "_npi_take", "_npi_rnn_param_concat",
    "_npi_abs", "_npi_cast", "_npi_copyto", "_npi_hypot_scalar", "_npi_nonzero"} | {
    "_npx__image_" + n for n in (
        "adjust_lighting crop flip_left_right flip_top_bottom normalize random_brightness random_color_jitter "
        "random_contrast random_flip_left_right random_flip_top_bottom random_hue random_lighting "
        "random_saturation resize to_tensor").split()})


def np_name_of():
    """{Weft operator name: the MXNet NumPy-mode name it is written under}, from the
    registry's aliases (Note [NumPy-semantics symbols])."""
    global _NP_NAMES  # pylint: disable=global-statement
    if _NP_NAMES is None:
        names = {}
        for op, schema in _nd.SCHEMAS.items():
            if op.startswith(_PREFIXES):
                continue  # already MXNet's NumPy-mode name (_np_any, not its alias _np_sometrue)
            found = sorted(a for a in schema.get("aliases", [])
                           if a.startswith(_PREFIXES) and a not in _NOT_IN_MXNET | _MXNET_ALIASES)
            if found:
                # One op, two NumPy-mode names (none today): the first in sorted order, stably.
                names[op] = found[0]
        _NP_NAMES = names
    return _NP_NAMES


_OP_FIELD = re.compile(rb'("op"\s*:\s*")([^"]+)(")')


_VERSION_ATTR = b'"attrs": {"mxnet_version"'


def to_np_names(json_bytes):
    """The JSON text with each node's operator written under its NumPy-mode name, and the
    graph attribute ``is_np_shape`` MXNet writes for a graph saved in NumPy mode."""
    names = np_name_of()

    def sub(m):
        op = m.group(2).decode("utf-8")
        return m.group(1) + names.get(op, op).encode("utf-8") + m.group(3)
    out = _OP_FIELD.sub(sub, json_bytes)
    head, sep, tail = out.rpartition(_VERSION_ATTR)
    if sep and b'"is_np_shape"' not in tail:
        out = head + b'"attrs": {"is_np_shape": ["int", 1], "mxnet_version"' + tail
    return out


def symbol_as_np_ndarray(self):
    """The same graph as a _Symbol (MXNet's ``Symbol.as_np_ndarray``); installed on Symbol
    by weft.symbol, which sees both classes."""
    return as_np_symbol(self)


class _Symbol(Symbol):
    """A symbol with NumPy semantics (MXNet's ``mx.sym.np._Symbol``): its operators
    and methods compose MXNet's NumPy-mode operators, and it is written with their
    names (Note [NumPy-semantics symbols])."""

    __slots__ = ()

    def _json_bytes(self):
        return to_np_names(Symbol._json_bytes(self))

    def as_nd_ndarray(self):
        """The same graph as a legacy Symbol (MXNet's name)."""
        return as_legacy_symbol(self)

    def as_np_ndarray(self):
        return self

    # -- graph operations keep the class (MXNet's _Symbol returns _Symbols) ----------------------------
    def __copy__(self):
        return _fresh(Symbol.__copy__(self))

    def __call__(self, *args, **kwargs):
        return _fresh(Symbol.__call__(self, *args, **kwargs))

    def get_internals(self):
        return _fresh(Symbol.get_internals(self))

    def get_children(self):
        children = Symbol.get_children(self)
        return None if children is None else _fresh(children)

    @property
    def shape(self):
        """A traced symbol has no shape: MXNet's hybridized code writes shapes with npx.reshape's
        codes (-2 copy, -4 rest, -5 merge, -6 split) instead of reading x.shape."""
        raise AttributeError("_Symbol.shape: a symbol traced by hybridize() has no shape; write the shape "
                             "with npx.reshape's codes (-2 copy an axis, -4 the rest, -5 merge two, -6 split "
                             "one), or run the block without hybridize()")

    def __getitem__(self, key):
        if len(self) > 1:  # a multi-output symbol (split ...): select outputs, as MXNet does
            return as_np_symbol(Symbol.__getitem__(self, key))
        if isinstance(key, str):
            return as_np_symbol(Symbol.__getitem__(self, key))
        return getitem(self, key)

    def __iter__(self):
        return (as_np_symbol(Symbol.__getitem__(self, i)) for i in range(len(self)))

    # -- arithmetic ------------------------------------------------------------------------------------------
    def __add__(self, other):
        return binary("_Symbol.__add__", "add", self, other)

    def __radd__(self, other):
        return binary("_Symbol.__radd__", "add", other, self)

    def __sub__(self, other):
        return binary("_Symbol.__sub__", "subtract", self, other)

    def __rsub__(self, other):
        return binary("_Symbol.__rsub__", "subtract", other, self, reflected_scalar="rsubtract")

    def __mul__(self, other):
        return binary("_Symbol.__mul__", "multiply", self, other)

    def __rmul__(self, other):
        return binary("_Symbol.__rmul__", "multiply", other, self)

    def __truediv__(self, other):
        return binary("_Symbol.__truediv__", "true_divide", self, other)

    def __rtruediv__(self, other):
        return binary("_Symbol.__rtruediv__", "true_divide", other, self, reflected_scalar="rtrue_divide")

    __div__, __rdiv__ = __truediv__, __rtruediv__

    def __mod__(self, other):
        return binary("_Symbol.__mod__", "mod", self, other)

    def __rmod__(self, other):
        return binary("_Symbol.__rmod__", "mod", other, self, reflected_scalar="rmod")

    def __pow__(self, other):
        return binary("_Symbol.__pow__", "power", self, other)

    def __rpow__(self, other):
        return binary("_Symbol.__rpow__", "power", other, self, reflected_scalar="rpower")

    def __neg__(self):
        return np_op("_npi_negative", self)

    def __abs__(self):
        return np_op("_npi_absolute", self)

    def __eq__(self, other):
        return comparison("_Symbol.__eq__", "equal", self, other)

    def __ne__(self, other):
        return comparison("_Symbol.__ne__", "not_equal", self, other)

    def __gt__(self, other):
        return comparison("_Symbol.__gt__", "greater", self, other)

    def __ge__(self, other):
        return comparison("_Symbol.__ge__", "greater_equal", self, other)

    def __lt__(self, other):
        return comparison("_Symbol.__lt__", "lesser", self, other)

    def __le__(self, other):
        return comparison("_Symbol.__le__", "lesser_equal", self, other)

    __hash__ = Symbol.__hash__

    # -- methods (MXNet's _Symbol methods with NumPy signatures) -------------------------------------------
    def reshape(self, *args, **kwargs):
        """NumPy's reshape: ``x.reshape(2, -1)`` or ``x.reshape((2, -1))``; order 'C' only."""
        order = kwargs.pop("order", "C")
        if kwargs:
            raise TypeError("_Symbol.reshape: unexpected keyword argument '%s'" % next(iter(kwargs)))
        if order != "C":
            raise NotImplementedError("_Symbol.reshape: order=%r (only 'C' is supported, as in MXNet)" % (order,))
        if not args:
            raise TypeError("_Symbol.reshape: missing the new shape")
        shape = args[0] if len(args) == 1 else args
        return np_op("Reshape", self, shape=check_newshape("_Symbol.reshape", shape))

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = () if axes[0] is None else tuple(axes[0])
        check_axes("_Symbol.transpose", "axes", axes)
        return np_op("_np_transpose", self, axes=tuple(int(a) for a in axes)) if axes \
            else np_op("_np_transpose", self)

    @property
    def T(self):
        return self.transpose()

    def astype(self, dtype, copy=True):  # pylint: disable=unused-argument
        return np_op("_npx_cast", self, dtype=dtype)

    def flatten(self, order="C"):
        if order != "C":
            raise NotImplementedError("_Symbol.flatten: order=%r (only 'C' is supported)" % (order,))
        return np_op("Reshape", self, shape=(-1,))

    def squeeze(self, axis=None):
        return np_op("_np_squeeze", self) if axis is None else np_op("_np_squeeze", self, axis=axis)

    def sum(self, axis=None, keepdims=False):
        return reduce("sum", "_Symbol.sum", self, axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        return reduce("mean", "_Symbol.mean", self, axis, keepdims)

    def max(self, axis=None, keepdims=False):
        return reduce("max", "_Symbol.max", self, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return reduce("min", "_Symbol.min", self, axis, keepdims)

    def prod(self, axis=None, keepdims=False):
        return reduce("prod", "_Symbol.prod", self, axis, keepdims)

    def dot(self, b):
        return np_op("dot", self, b)

    def copy(self):
        return np_op("_np_copy", self)

    def exp(self):
        return np_op("_npi_exp", self)

    def log(self):
        return np_op("_npi_log", self)

    def sqrt(self):
        return np_op("_npi_sqrt", self)

    def square(self):
        return np_op("_npi_square", self)

    def tanh(self):
        return np_op("_npi_tanh", self)

    def sigmoid(self):
        return np_op("_npx_sigmoid", self)

    def relu(self):
        return np_op("_npx_relu", self)

    def softmax(self, axis=-1):
        return np_op("_npx_softmax", self, axis=axis)

    def clip(self, a_min=None, a_max=None):
        if a_min is None and a_max is None:
            raise ValueError("_Symbol.clip: one of a_min and a_max must be given")
        return np_op("_npi_clip", self, a_min=float("-inf") if a_min is None else a_min,
                     a_max=float("inf") if a_max is None else a_max)
