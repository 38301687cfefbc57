"""Symbol: a graph over a ``weft_symbol`` handle (MXNet's ``mxnet.symbol.Symbol``).

A symbol is a list of outputs of a graph whose nodes are variables or operator
applications with string attributes. Composition (``weft.sym.<Op>(...)``,
arithmetic) builds new graphs that share the nodes of their inputs, as in MXNet;
``bind`` / ``simple_bind`` turn a symbol into an :class:`weft.executor.Executor`.

Attributes follow MXNet 1.x to the letter (FORMATS.md B.2, B.5): operator
parameters are stored as the text ``str(value)`` of what the caller passed (no
defaults filled in); the hidden keys ``ctx_group``, ``lr_mult``, ``wd_mult``,
``force_mirroring`` and ``mirror_stage`` are stored as ``__ctx_group__`` ...;
``attr('lr_mult')`` also finds ``__lr_mult__`` and ``list_attr()`` /
``attr_dict()`` show both spellings, as MXNet's C API does.
"""
# pylint: disable=protected-access,too-many-lines,invalid-name
import logging
import numbers
import warnings

import numpy as np

from .. import attribute as _attribute
from .. import dtypes as _dt
from ..base import (ArgumentTypeError, InvalidArgumentError, NotFoundError, NotImplementedForSymbol, WeftError,
                    WeftIOError, c_str, check_call, ffi, lib)
from ..context import Context, current_context
from ..executor import bind as _executor_bind, simple_bind as _executor_simple_bind
from ..ndarray.ndarray import NDArray
from . import _internal
from .debug_str import _debug_str

__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json", "pow", "power", "maximum", "minimum",
           "zeros", "ones", "full", "arange"]

_NULL = ffi.NULL

# ---- hidden attribute keys (MXNet's kHiddenKeys, c_api_symbolic.cc) -------------------------------
HIDDEN_KEYS = ("ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage")
_REPLACED_KEYS = {"__%s__" % k: k for k in HIDDEN_KEYS}
_STYPE_ID = {"default": 0, "row_sparse": 1, "csr": 2}


def creation_key(key, opname):
    """The key an attribute given at operator creation is stored under:
    ``ctx_group`` -> ``__ctx_group__``; ``<input>_lr_mult`` and the like are refused
    (MXNet: set them on the input variable instead)."""
    for k in HIDDEN_KEYS:
        pos = key.rfind(k)
        if pos == 0:
            return "__%s__" % key
        if pos > 0 and pos == len(key) - len(k):
            raise InvalidArgumentError(
                "%s: setting variable attributes with '%s' is deprecated; use w = Variable(..., %s=...) "
                "and pass %s=w instead" % (opname, key, k, key[:pos - 1] or "input"))
    return key


def set_attr_key(key):
    """The key ``_set_attr(key=...)`` stores (MXSymbolSetAttr's rule)."""
    for k in HIDDEN_KEYS:
        pos = key.rfind(k)
        if pos == 0 and len(k) == len(key):
            return "__%s__" % key
        if pos >= 0 and pos + len(k) == len(key):
            raise InvalidArgumentError(
                "setting variable attributes with '%s' is deprecated; use w = Variable(..., %s=...) instead"
                % (key, k))
    return key


def attr_text(v):
    """An operator attribute value as MXNet's front end writes it: ``str(v)`` (numpy
    scalars as their Python value, so ``(np.int64(3),)`` still reads ``(3,)``)."""
    t = v.__class__
    if t is str:
        return v
    if t is tuple or t is list:
        return str(t(_py_scalar(x) for x in v))
    if isinstance(v, np.ndarray):
        return str(tuple(v.tolist())) if v.ndim else str(v.item())
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, (Symbol, NDArray)):
        raise ArgumentTypeError("a %s cannot be an attribute value" % t.__name__)
    return str(_py_scalar(v))


def _py_scalar(x):
    return x.item() if isinstance(x, np.generic) else x


# ---- small cffi helpers ------------------------------------------------------------------------------
def _cstr_array(strings, what="name"):
    """(const char*[] or NULL, keep-alive list) for a list of str."""
    if not strings:
        return _NULL, None
    keep = [ffi.new("char[]", c_str(s, what)) for s in strings]
    return ffi.new("const char*[]", keep), keep


def _handles(symbols):
    if not symbols:
        return _NULL
    return ffi.new("weft_symbol*[]", [s.handle for s in symbols])


def _s(p):
    return ffi.string(p).decode("utf-8")


def _new_symbol(fn, *args):
    out = ffi.new("weft_symbol**")
    check_call(fn(*args, out))
    return Symbol(out[0])


def _reraise_with(err, prefix):
    """The same weft error class with prefix put in front of the message."""
    return type(err)("%s%s" % (prefix, err))


# ---- the symbol ----------------------------------------------------------------------------------------
class Symbol:
    """A symbolic graph: one or more outputs of operator and variable nodes.

    Mirrors ``mxnet.sym.Symbol``: ``list_arguments()``, ``list_outputs()``,
    ``list_auxiliary_states()``, ``infer_shape``, ``infer_type``, ``tojson``,
    indexing by output, arithmetic with symbols and scalars, ``bind`` and
    ``simple_bind``.
    """

    __slots__ = ("handle", "__weakref__")
    __array_priority__ = 1000.0  # numpy defers to the reflected operators

    def __init__(self, handle):
        if not isinstance(handle, ffi.CData):
            raise ArgumentTypeError("Symbol(handle): expected a weft_symbol* handle, got %s"
                                    % type(handle).__name__)
        self.handle = handle

    def __del__(self, _free=lib.weft_symbol_free):
        try:
            h = self.handle
        except AttributeError:
            return
        _free(h)

    # -- identity and structure ------------------------------------------------------------------------
    @property
    def name(self):
        """The head node's name; None for a symbol with several head nodes (a group)."""
        p = ffi.new("const char**")
        check_call(lib.weft_symbol_name(self.handle, p))
        n = _s(p[0])
        return n if n else None

    def __repr__(self):
        name = self.name
        if name is None:
            return "<%s group [%s]>" % (type(self).__name__, ", ".join(s.name or "?" for s in self))
        return "<%s %s>" % (type(self).__name__, name)

    def __len__(self):
        """The number of outputs."""
        n = ffi.new("int*")
        check_call(lib.weft_symbol_num_outputs(self.handle, n))
        return n[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __bool__(self):
        raise TypeError("the truth value of a Symbol is undefined (it is a graph, not a value)")

    __hash__ = object.__hash__

    def __getitem__(self, index):
        """Output ``index`` (an int, an output name from ``list_outputs()``, or a slice)."""
        n = len(self)
        if isinstance(index, slice):
            return Group([self[i] for i in range(*index.indices(n))])
        if isinstance(index, str):
            names = self.list_outputs()
            hits = [i for i, o in enumerate(names) if o == index]
            if not hits:
                raise NotFoundError("Symbol has no output named '%s' (outputs: %s)" % (index, ", ".join(names)))
            if len(hits) > 1:
                raise InvalidArgumentError("Symbol has several outputs named '%s'" % index)
            index = hits[0]
        if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
            raise ArgumentTypeError("Symbol indices must be int, str or slice, not %s" % type(index).__name__)
        index = int(index)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("output index %d out of range: the symbol has %d outputs" % (index, n))
        return _new_symbol(lib.weft_symbol_get_output, self.handle, index)

    def get_internals(self):
        """A group of every output of every node in the graph (post order)."""
        return _new_symbol(lib.weft_symbol_get_internals, self.handle)

    def get_children(self):
        """A group of the inputs of the head node(s); None when there are none."""
        s = _new_symbol(lib.weft_symbol_get_children, self.handle)
        return s if len(s) else None

    def __call__(self, *args, **kwargs):
        """Re-composition (MXNet's ``sym(*args, **kwargs)``): a copy of this graph whose
        arguments are replaced by the given single-output symbols, positionally in
        ``list_arguments()`` order and/or by name (``net2 = net(data=features)``).
        The node names of the copy stay as they are."""
        if "name" in kwargs and not isinstance(kwargs["name"], Symbol):
            raise InvalidArgumentError("compose: name= is not supported when re-composing a graph (its node names "
                                       "stay); compose operators with name= instead")
        for a in list(args) + list(kwargs.values()):
            if not isinstance(a, Symbol):
                raise ArgumentTypeError("compose: arguments must be Symbols, got %s" % type(a).__name__)
        c_args = ffi.new("weft_symbol*[]", [a.handle for a in args]) if args else ffi.NULL
        keys = list(kwargs)
        keep = [ffi.new("char[]", c_str(k, "compose: argument name")) for k in keys]
        c_names = ffi.new("const char*[]", keep) if keys else ffi.NULL
        c_kw = ffi.new("weft_symbol*[]", [kwargs[k].handle for k in keys]) if keys else ffi.NULL
        return _new_symbol(lib.weft_symbol_substitute, self.handle, len(args), c_args, len(keys), c_names, c_kw)

    def __copy__(self):
        return _new_symbol(lib.weft_symbol_copy, self.handle)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def copy(self):
        """A deep copy of the graph (changes to it do not show in this one)."""
        return self.__copy__()

    def __reduce__(self):
        return (load_json, (self.tojson(),))

    # -- listing -----------------------------------------------------------------------------------------
    def _list(self, which):
        n = ffi.new("int*")
        names = ffi.new("const char***")
        check_call(lib.weft_symbol_list(self.handle, which, n, names))
        return [_s(names[0][i]) for i in range(n[0])]

    def list_arguments(self):
        """Names of the arguments (non-mutated variables), in graph order."""
        return self._list(0)

    def list_outputs(self):
        """Names of the outputs (``<node>_output``, ``<node>_output<i>``, or a variable's name)."""
        return self._list(1)

    def list_auxiliary_states(self):
        """Names of the auxiliary states (variables an operator mutates, e.g. BatchNorm's moving stats)."""
        return self._list(2)

    def list_inputs(self):
        """Names of all variables: arguments and auxiliary states, in graph order."""
        return self._list(3)

    # -- attributes ----------------------------------------------------------------------------------------
    def attr(self, key):
        """The head node's attribute ``key`` (None when absent). Hidden keys may be
        given without underscores: ``attr('lr_mult')`` reads ``__lr_mult__``."""
        if key == "name":
            return self.name
        p = ffi.new("const char**")
        found = ffi.new("int*")
        check_call(lib.weft_symbol_get_attr(self.handle, c_str(key, "attribute key"), p, found))
        if found[0]:
            return _s(p[0])
        if key in HIDDEN_KEYS:
            check_call(lib.weft_symbol_get_attr(self.handle, ("__%s__" % key).encode("utf-8"), p, found))
            if found[0]:
                return _s(p[0])
        return None

    def _attr_pairs(self, recursive):
        n = ffi.new("int*")
        pairs = ffi.new("const char***")
        check_call(lib.weft_symbol_list_attr(self.handle, 1 if recursive else 0, n, pairs))
        return [(_s(pairs[0][2 * i]), _s(pairs[0][2 * i + 1])) for i in range(n[0])]

    def list_attr(self, recursive=False):
        """The head node's attributes as a dict (hidden keys also without underscores)."""
        if recursive:
            raise DeprecationWarning("Symbol.list_attr with recursive=True has been deprecated; "
                                     "use attr_dict() instead")
        ret = {}
        for k, v in self._attr_pairs(False):
            ret[k] = v
            if k in _REPLACED_KEYS:
                ret[_REPLACED_KEYS[k]] = v
        return ret

    def attr_dict(self):
        """{node name: {key: value}} for every node with attributes."""
        ret = {}
        for nk, v in self._attr_pairs(True):
            node, key = nk.split("$", 1)
            d = ret.setdefault(node, {})
            d[key] = v
            if key in _REPLACED_KEYS:
                d[_REPLACED_KEYS[key]] = v
        return ret

    def _set_attr(self, **kwargs):
        """Sets attributes of the head node (string values; ``lr_mult`` is stored as
        ``__lr_mult__``). Operator parameters are checked by the operator."""
        for key, value in kwargs.items():
            if not isinstance(value, str):
                raise InvalidArgumentError("_set_attr: the value of '%s' must be a string, got %s"
                                           % (key, type(value).__name__))
            check_call(lib.weft_symbol_set_attr(self.handle, c_str(set_attr_key(key), "attribute key"),
                                                c_str(value, "attribute value")))

    # -- inference -------------------------------------------------------------------------------------------
    def _given(self, args, kwargs, what):
        """[(name, value)] from positional values (in list_arguments order) or keywords."""
        if args and kwargs:
            raise InvalidArgumentError("%s: give the known values either positionally or by keyword, not both"
                                       % what)
        if args:
            names = self.list_arguments()
            if len(args) > len(names):
                raise InvalidArgumentError("%s: %d positional values for %d arguments"
                                           % (what, len(args), len(names)))
            return [(n, v) for n, v in zip(names, args) if v is not None]
        return [(k, v) for k, v in kwargs.items() if v is not None]

    def _infer_shape_impl(self, partial, *args, **kwargs):
        given = self._given(args, kwargs, "infer_shape")
        names, ndims, data, offsets = [], [], [], []
        for k, v in given:
            if isinstance(v, (int, np.integer)):
                v = (v,)
            if not isinstance(v, (tuple, list)):
                raise ArgumentTypeError("infer_shape: the shape of '%s' must be a tuple, got %s"
                                        % (k, type(v).__name__))
            names.append(k)
            ndims.append(len(v))
            offsets.append(len(data))
            data.extend(int(d) for d in v)
        c_names, keep = _cstr_array(names)
        complete = ffi.new("int*")
        n = [ffi.new("int*") for _ in range(3)]
        nd = [ffi.new("const int**") for _ in range(3)]
        dd = [ffi.new("const int64_t* const**") for _ in range(3)]
        check_call(lib.weft_symbol_infer_shape(
            self.handle, len(names), c_names, ffi.new("int[]", ndims) if names else _NULL,
            ffi.new("int64_t[]", data) if data else _NULL, ffi.new("int64_t[]", offsets) if names else _NULL,
            1 if partial else 0, complete, n[0], nd[0], dd[0], n[1], nd[1], dd[1], n[2], nd[2], dd[2]))
        del keep
        res = []
        for k in range(3):
            shapes = []
            for i in range(n[k][0]):
                r = nd[k][0][i]
                # MXNet 1.x (legacy shapes): an unknown shape reads as ().
                shapes.append(tuple(int(dd[k][0][i][j]) for j in range(r)) if r > 0 else ())
            res.append(shapes)
        # MXNet 1.x (legacy shapes): a 0 dimension means "unknown", so such a result is incomplete.
        known = bool(complete[0]) and not any(0 in sh for part in res for sh in part)
        return tuple(res), known

    def infer_shape(self, *args, **kwargs):
        """(arg_shapes, out_shapes, aux_shapes) from known shapes (positionally in
        ``list_arguments()`` order, or by name). ``(None, None, None)`` with a warning
        when the known shapes do not determine every shape (a 0 dimension means
        unknown, as in MXNet 1.x); a ShapeError (naming the node) when they
        contradict each other."""
        res, complete = self._infer_shape_impl(True, *args, **kwargs)
        if complete:
            return res
        unknown = ["%s: %s" % (n, s) for n, s in zip(self.list_arguments(), res[0]) if not s or 0 in s]
        warnings.warn("Cannot decide shape for the following arguments (0s in shape means unknown "
                      "dimensions). Consider providing them as input:\n\t" + "\n\t".join(unknown[:10]),
                      stacklevel=2)
        return (None, None, None)

    def infer_shape_partial(self, *args, **kwargs):
        """Like infer_shape, but returns what is known: an unknown shape reads ``()``
        and an unknown dimension 0, as in MXNet 1.x (``(a + b).infer_shape_partial(
        a=(0, 3))`` gives ``(0, 3)`` for a, b and the output)."""
        return self._infer_shape_impl(True, *args, **kwargs)[0]

    def _infer_type_impl(self, *args, **kwargs):
        given = self._given(args, kwargs, "infer_type")
        names = [k for k, _ in given]
        flags = [_dt.flag(v) for _, v in given]
        c_names, keep = _cstr_array(names)
        complete = ffi.new("int*")
        n = [ffi.new("int*") for _ in range(3)]
        ts = [ffi.new("const enum weft_dtype**") for _ in range(3)]
        check_call(lib.weft_symbol_infer_type(
            self.handle, len(names), c_names, ffi.new("enum weft_dtype[]", flags) if flags else _NULL, complete,
            n[0], ts[0], n[1], ts[1], n[2], ts[2]))
        del keep
        res = tuple([_np_type(ts[k][0][i]) for i in range(n[k][0])] for k in range(3))
        return res, bool(complete[0])

    def infer_type(self, *args, **kwargs):
        """(arg_types, out_types, aux_types) as numpy types (``numpy.float32`` ...) from
        known dtypes given positionally or by name; ``(None, None, None)`` with a
        warning when incomplete. With nothing given, float32 is assumed."""
        res, complete = self._infer_type_impl(*args, **kwargs)
        if complete:
            return res
        unknown = [n for n, t in zip(self.list_arguments(), res[0]) if t is None]
        warnings.warn("Cannot decide type for the following arguments. Consider providing them as input:\n\t"
                      + "\n\t".join(unknown[:10]), stacklevel=2)
        return (None, None, None)

    def infer_type_partial(self, *args, **kwargs):
        """Like infer_type, but returns what is known (None for unknown types)."""
        return self._infer_type_impl(*args, **kwargs)[0]

    # -- serialisation ------------------------------------------------------------------------------------
    def _json_bytes(self):
        p = ffi.new("const char**")
        check_call(lib.weft_symbol_to_json(self.handle, p))
        return ffi.string(p[0])

    def tojson(self):
        """The graph as MXNet 1.x JSON text (byte-compatible, FORMATS.md B)."""
        return self._json_bytes().decode("utf-8")

    def save(self, fname, remove_amp_cast=True):  # pylint: disable=unused-argument
        """Writes ``tojson()`` to fname (no AMP casts exist in weft to remove)."""
        if not isinstance(fname, str):
            raise ArgumentTypeError("Symbol.save: fname must be a str, got %s" % type(fname).__name__)
        data = self._json_bytes()
        try:
            with open(fname, "wb") as f:
                f.write(data)
        except OSError as e:
            raise WeftIOError("Symbol.save: cannot write '%s': %s" % (fname, e.strerror or e)) from None

    def debug_str(self):
        """A readable listing of the graph: outputs, variables and operator nodes with
        their inputs and attributes (MXNet's layout)."""
        return _debug_str(self)

    # -- arithmetic (MXNet's op choice and node names: a + b -> _plus0, a * 2 -> _mulscalar0) --------------
    def _binary(self, other, sym_fn, scalar_fn, what):
        if isinstance(other, Symbol):
            return getattr(_internal, sym_fn)(self, other)
        if isinstance(other, numbers.Number):
            return getattr(_internal, scalar_fn)(self, scalar=other)
        raise ArgumentTypeError("Symbol %s: type %s is not supported" % (what, type(other).__name__))

    def _reflected(self, other, scalar_fn, what):
        if isinstance(other, numbers.Number):
            return getattr(_internal, scalar_fn)(self, scalar=other)
        raise ArgumentTypeError("Symbol %s: type %s is not supported" % (what, type(other).__name__))

    def __add__(self, other):
        return self._binary(other, "_Plus", "_PlusScalar", "+")

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        return self._binary(other, "_Minus", "_MinusScalar", "-")

    def __rsub__(self, other):
        return self._reflected(other, "_RMinusScalar", "-")

    def __mul__(self, other):
        return self._binary(other, "_Mul", "_MulScalar", "*")

    def __rmul__(self, other):
        return self.__mul__(other)

    def __truediv__(self, other):
        return self._binary(other, "_Div", "_DivScalar", "/")

    def __rtruediv__(self, other):
        return self._reflected(other, "_RDivScalar", "/")

    __div__ = __truediv__
    __rdiv__ = __rtruediv__

    def __mod__(self, other):
        return self._binary(other, "_Mod", "_ModScalar", "%")

    def __rmod__(self, other):
        return self._reflected(other, "_RModScalar", "%")

    def __pow__(self, other):
        return self._binary(other, "_Power", "_PowerScalar", "**")

    def __rpow__(self, other):
        return self._reflected(other, "_rpower_scalar", "**")

    def __neg__(self):
        return self.__mul__(-1.0)

    def __abs__(self):
        return _internal.abs(self)

    def __eq__(self, other):
        return self._binary(other, "_equal", "_equal_scalar", "==")

    def __ne__(self, other):
        return self._binary(other, "_not_equal", "_not_equal_scalar", "!=")

    def __gt__(self, other):
        return self._binary(other, "_greater", "_greater_scalar", ">")

    def __ge__(self, other):
        return self._binary(other, "_greater_equal", "_greater_equal_scalar", ">=")

    def __lt__(self, other):
        return self._binary(other, "_lesser", "_lesser_scalar", "<")

    def __le__(self, other):
        return self._binary(other, "_lesser_equal", "_lesser_equal_scalar", "<=")

    # -- binding -------------------------------------------------------------------------------------------
    def simple_bind(self, ctx, grad_req="write", type_dict=None, stype_dict=None, group2ctx=None,
                    shared_arg_names=None, shared_exec=None, shared_buffer=None, update=None, **kwargs):
        """Allocates (zero-filled) arguments, gradients and auxiliary states from the
        given input shapes (``data=(32, 100)``) and binds; see :meth:`bind`.

        ``type_dict`` gives dtypes by name (others are inferred, float32 by default).
        ``shared_exec`` with ``shared_arg_names``, and ``shared_buffer`` (a dict name ->
        NDArray, filled with what is allocated here) let executors share arrays of
        equal shape and dtype. ``update`` as in :meth:`bind`."""
        return _executor_simple_bind(self, ctx, grad_req, type_dict, stype_dict, group2ctx, shared_arg_names,
                           shared_exec, shared_buffer, kwargs, update)

    def bind(self, ctx, args, args_grad=None, grad_req="write", aux_states=None, group2ctx=None,
             shared_exec=None, update=None):
        """Binds the graph to arrays on ctx and returns an :class:`weft.executor.Executor`.

        args / args_grad / aux_states are lists in ``list_arguments()`` /
        ``list_auxiliary_states()`` order or dicts by name (args_grad may leave names
        out: those get no gradient). grad_req is 'write', 'add', 'null', or a list /
        dict of them. A wrong shape raises ShapeError naming the argument.

        ``update`` (a Weft extension) makes one forward + backward a whole training
        step: an optimizer update operator, by name or as ``(name, {attr: value})``
        (``("sgd_update", {"lr": 0.1, "wd": 1e-4})``, ``"sgd_mom_update"``, ...),
        runs inside the graph after the gradients and writes every argument that has
        a gradient (grad_req must be 'write'); optimizer states start at zero. group2ctx: see weft.executor.bind."""
        return _executor_bind(self, ctx, args, args_grad, grad_req, aux_states, group2ctx, shared_exec, update)

    def eval(self, ctx=None, **kwargs):
        """Binds to the given arrays (all arguments by name), runs forward and returns
        the list of outputs."""
        if ctx is None:
            ctx = current_context()
        return self.bind(ctx, kwargs).forward()

    # -- fluent methods --------------------------------------------------------------------------------------
    def reshape(self, *args, **kwargs):
        """Same as weft.sym.reshape(self, ...)."""
        return _internal.Reshape(self, *args, **kwargs)

    def astype(self, *args, **kwargs):
        """Same as weft.sym.cast(self, ...)."""
        return _internal.Cast(self, *args, **kwargs)

    # -- the NDArray-only methods MXNet's Symbol has, raising as MXNet's do ----------------------------------
    # A Symbol is a graph and holds no values: bind it (simple_bind / eval) and read
    # the executor's outputs.
    def asnumpy(self, *args, **kwargs):
        """Raises NotImplementedForSymbol (NDArray only), as in MXNet."""
        raise NotImplementedForSymbol(self.asnumpy, None)

    def asscalar(self, *args, **kwargs):
        """Raises NotImplementedForSymbol (NDArray only), as in MXNet."""
        raise NotImplementedForSymbol(self.asscalar, None)

    def as_in_context(self, *args, **kwargs):
        """Raises NotImplementedForSymbol (NDArray only), as in MXNet; a symbol's
        device is chosen when it is bound."""
        raise NotImplementedForSymbol(self.as_in_context, None)

    def detach(self, *args, **kwargs):
        """Raises NotImplementedForSymbol (NDArray only), as in MXNet; see BlockGrad."""
        raise NotImplementedForSymbol(self.detach, None)

    def backward(self, *args, **kwargs):
        """Raises NotImplementedForSymbol (NDArray only), as in MXNet; bind the symbol
        and call the executor's backward."""
        raise NotImplementedForSymbol(self.backward, None)

    def wait_to_read(self, *args, **kwargs):
        """Raises NotImplementedForSymbol (NDArray only), as in MXNet."""
        raise NotImplementedForSymbol(self.wait_to_read, None)

    def as_nd_ndarray(self):
        """This symbol itself: it is already a classic (non-numpy) Symbol."""
        return self

    def gradient(self, wrt):
        """MXNet 1.9.1 documents this as not implemented (its MXSymbolGrad raises
        MXNetError); so does Weft. For gradients bind the symbol with args_grad and
        call the executor's backward, or record NDArray code with weft.autograd."""
        if isinstance(wrt, str) or not all(isinstance(w, str) for w in wrt):
            raise ArgumentTypeError("Symbol.gradient: wrt must be a list of argument names (str)")
        raise WeftError("Symbol.gradient is not implemented (as in MXNet 1.9.1): bind the symbol with "
                        "args_grad and call Executor.backward, or use weft.autograd")

    def get_backend_symbol(self, backend):
        """The graph partitioned for a subgraph backend (MXNet's MXGenBackendSubgraph).
        This build of Weft registers no subgraph backend, so every name is unknown
        and, as in MXNet for an unknown one, NotFoundError is raised."""
        if not isinstance(backend, str):
            raise ArgumentTypeError("get_backend_symbol: backend must be a str, got %s" % type(backend).__name__)
        raise NotFoundError("get_backend_symbol: SubgraphProperty '%s' is not found in SubgraphBackendRegistry "
                            "(this build of weft registers no subgraph backends)" % backend)

    def optimize_for(self, backend, args=None, aux=None, ctx=None, shape_dict=None, type_dict=None,
                     stype_dict=None, skip_infer=False, **kwargs):  # pylint: disable=unused-argument
        """Partitions the graph for a backend (MXNet's MXOptimizeForBackend) and returns
        the new symbol. The arguments are checked as MXNet checks them (backend a str,
        args / aux dicts of name -> NDArray or lists in list_arguments() /
        list_auxiliary_states() order, ctx a Context). This build of Weft
        registers no subgraph backend or graph pass, so, as MXNet does for a backend
        it cannot find, an error is logged ("Error optimizing for backend 'x' cannot
        be found") and an unpartitioned copy of the graph is returned; args and aux
        are left as they are."""
        if not isinstance(backend, str):
            raise ArgumentTypeError("optimize_for: backend must be a str, got %s" % type(backend).__name__)
        for what, given, names in (("args", args, self.list_arguments), ("aux", aux, self.list_auxiliary_states)):
            if given is None:
                continue
            if isinstance(given, (list, tuple)):
                listed = names()
                if len(given) != len(listed):
                    raise InvalidArgumentError("optimize_for: %s has %d arrays, the symbol has %d (%s)"
                                               % (what, len(given), len(listed), ", ".join(listed)))
                given = {n: a for n, a in zip(listed, given) if a is not None}
            if not isinstance(given, dict):
                raise ArgumentTypeError("optimize_for: %s must be a dict of str to NDArray (or a list in "
                                        "list_arguments() order), got %s" % (what, type(given).__name__))
            for name in names():
                if name in given and not isinstance(given[name], NDArray):
                    raise ArgumentTypeError("optimize_for: %s['%s'] must be an NDArray, got %s"
                                            % (what, name, type(given[name]).__name__))
        if ctx is not None and not isinstance(ctx, Context):
            raise ArgumentTypeError("optimize_for: ctx must be a weft.Context, got %s" % type(ctx).__name__)
        logging.getLogger("weft").error("Error optimizing for backend '%s' cannot be found", backend)
        return self.__copy__()


def _np_type(flag):
    """numpy type for a dtype flag as MXNet returns it (numpy.float32 ...), None when unknown."""
    if flag < 0:
        return None
    d = _dt.FLAG_TO_NP[flag]
    return d if flag == 12 else d.type


# ---- creation ---------------------------------------------------------------------------------------------
def var(name, attr=None, shape=None, lr_mult=None, wd_mult=None, dtype=None, init=None, stype=None, **kwargs):
    """A variable: an input, parameter or auxiliary state of a graph.

    Hidden attributes are stored as MXNet does: ``__shape__`` (``str(shape)``),
    ``__lr_mult__``, ``__wd_mult__``, ``__dtype__`` (the dtype flag, e.g. ``"0"``),
    ``__init__`` (an initializer's ``dumps()`` or a string), ``__storage_type__``,
    plus the current AttrScope's attributes and ``attr``; other keyword arguments
    must be ``__dunder__`` names.
    """
    if not isinstance(name, str):
        raise ArgumentTypeError("Variable: name must be a str, got %s" % type(name).__name__)
    out = ffi.new("weft_symbol**")
    check_call(lib.weft_symbol_create_variable(c_str(name, "Variable: name"), out))
    ret = Symbol(out[0])
    attr = _attribute.current().get(attr)
    if shape is not None:
        attr["__shape__"] = str(tuple(int(d) for d in shape) if isinstance(shape, tuple) else shape)
    if lr_mult is not None:
        attr["__lr_mult__"] = str(lr_mult)
    if wd_mult is not None:
        attr["__wd_mult__"] = str(wd_mult)
    if dtype is not None:
        attr["__dtype__"] = str(_dt.flag(dtype))
    if init is not None:
        attr["__init__"] = init if isinstance(init, str) else init.dumps()
    if stype is not None:
        if stype not in _STYPE_ID:
            raise InvalidArgumentError("Variable '%s': unknown stype '%s' (expected one of %s)"
                                       % (name, stype, ", ".join(_STYPE_ID)))
        attr["__storage_type__"] = str(_STYPE_ID[stype])
    for k, v in kwargs.items():
        if k.startswith("__") and k.endswith("__"):
            attr[k] = str(v)
        else:
            raise InvalidArgumentError("Variable '%s': attribute name=%s is not supported; additional attributes "
                                       "must start and end with double underscores, e.g. __yourattr__" % (name, k))
    ret._set_attr(**attr)
    return ret


Variable = var


def Group(symbols):
    """One symbol whose outputs are the outputs of all ``symbols``, in order."""
    symbols = list(symbols) if isinstance(symbols, (list, tuple)) else symbols
    if not isinstance(symbols, list) or not symbols or any(not isinstance(s, Symbol) for s in symbols):
        raise ArgumentTypeError("Group: expected a non-empty list of Symbols")
    return _new_symbol(lib.weft_symbol_group, len(symbols), _handles(symbols))


def load_json(json_str):
    """The symbol of a JSON text (MXNet 1.x format, older versions upgraded)."""
    if isinstance(json_str, bytes):
        json_str = json_str.decode("utf-8")
    if not isinstance(json_str, str):
        raise ArgumentTypeError("load_json: expected a str, got %s" % type(json_str).__name__)
    return _new_symbol(lib.weft_symbol_from_json, c_str(json_str, "load_json: the JSON text"))


def load(fname):
    """The symbol saved in a JSON file (``prefix-symbol.json``)."""
    if not isinstance(fname, str):
        raise ArgumentTypeError("load: fname must be a str, got %s" % type(fname).__name__)
    try:
        with open(fname, "rb") as f:
            data = f.read()
    except OSError as e:
        raise WeftIOError("load: cannot read symbol file '%s': %s" % (fname, e.strerror or e)) from None
    try:
        return _new_symbol(lib.weft_symbol_from_json, data)
    except WeftError as e:
        raise _reraise_with(e, "symbol file '%s': " % fname) from None


# ---- helpers like MXNet's mx.sym.zeros / pow / maximum ... -------------------------------------------------
def _default_dtype(dtype):
    return np.float32 if dtype is None else dtype


def zeros(shape, dtype=None, **kwargs):
    """A symbol of the given shape filled with zeros (``_zeros``; default float32)."""
    return _internal._zeros(shape=shape, dtype=_default_dtype(dtype), **kwargs)


def ones(shape, dtype=None, **kwargs):
    """A symbol of the given shape filled with ones (``_ones``; default float32)."""
    return _internal._ones(shape=shape, dtype=_default_dtype(dtype), **kwargs)


def full(shape, val, dtype=None, **kwargs):
    """A symbol of the given shape filled with val (``_full``; default float32)."""
    return _internal._full(shape=shape, dtype=_default_dtype(dtype), value=float(val), **kwargs)


def arange(start, stop=None, step=1.0, repeat=1, infer_range=False, name=None, dtype=None):
    """Evenly spaced values in [start, stop) (``_arange``; default float32)."""
    return _internal._arange(start=start, stop=stop, step=step, repeat=repeat, infer_range=infer_range,
                             name=name, dtype=_default_dtype(dtype))


def _two_way(left, right, sym_fn, scalar_fn, rscalar_fn, py_fn, what):
    if isinstance(left, Symbol) and isinstance(right, Symbol):
        return getattr(_internal, sym_fn)(left, right)
    if isinstance(left, Symbol) and isinstance(right, numbers.Number):
        return getattr(_internal, scalar_fn)(left, scalar=right)
    if isinstance(left, numbers.Number) and isinstance(right, Symbol):
        return getattr(_internal, rscalar_fn)(right, scalar=left)
    if isinstance(left, numbers.Number) and isinstance(right, numbers.Number):
        return py_fn(left, right)
    raise ArgumentTypeError("%s: types (%s, %s) are not supported"
                            % (what, type(left).__name__, type(right).__name__))


def pow(base, exp):  # pylint: disable=redefined-builtin
    """base ** exp for symbols and scalars (no broadcasting; see broadcast_power)."""
    return _two_way(base, exp, "_Power", "_PowerScalar", "_RPowerScalar", lambda a, b: a ** b, "pow")


def power(base, exp):
    """Same as :func:`pow`."""
    return pow(base, exp)


def maximum(left, right):
    """Element-wise maximum of symbols and scalars."""
    return _two_way(left, right, "_Maximum", "_MaximumScalar", "_MaximumScalar",
                    lambda a, b: a if a > b else b, "maximum")


def minimum(left, right):
    """Element-wise minimum of symbols and scalars."""
    return _two_way(left, right, "_Minimum", "_MinimumScalar", "_MinimumScalar",
                    lambda a, b: a if a < b else b, "minimum")
