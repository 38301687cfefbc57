"""Custom operators written in Python (MXNet 1.x's ``mx.operator``)::

    class Softmax(weft.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            x = in_data[0].asnumpy()
            y = np.exp(x - x.max(axis=1, keepdims=True))
            self.assign(out_data[0], req[0], weft.nd.array(y / y.sum(axis=1, keepdims=True)))
        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            ...

    @weft.operator.register("softmax")
    class SoftmaxProp(weft.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=False)
        def list_arguments(self):
            return ["data", "label"]
        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0]], []
        def create_operator(self, ctx, shapes, dtypes):
            return Softmax()

    y = weft.nd.Custom(x, label, op_type="softmax")
    s = weft.sym.Custom(data=d, label=l, op_type="softmax", name="softmax")

``Custom`` is a registry operator (core/op/custom/custom.cc) and the classes
here answer its callbacks through the C ABI's ``weft_custom_op_register``
(Note [Custom operators] in core/op/custom/custom_op.h): one prop object per
distinct set of keyword arguments (passed as strings, as MXNet does), one
operator object per device, input shapes and dtypes, shared by forward and
backward. ``forward``/``backward`` run on an engine worker thread with
recording paused; the arrays they get view the operator's own buffers (write
outputs with ``assign``) and must not be kept. NDArray operations inside them
run at once on that thread, so waiting on them (``asnumpy``) is safe. An
exception raised there surfaces at the next wait on the outputs, naming the
op_type. Only dense storage is supported.
"""
import inspect
import json
import threading
import traceback

from . import autograd as _autograd
from . import dtypes as _dtypes
from . import ndarray as _nd
from . import profiler as _profiler
from . import symbol as _sym
from .base import ArgumentTypeError, InvalidArgumentError, c_str, check_call, ffi, lib, op_handle, op_schema
from .context import Context
from .ndarray.attr_text import attr_str
from .ndarray.ndarray_class import NDArray, _wrap
from .ndarray.op_call import invoke
from .symbol import register as _sreg
from .symbol.symbol import Symbol

__all__ = ["CustomOp", "CustomOpProp", "register", "get_all_registered_operators"]

_REQ = {0: "null", 1: "write", 2: "inplace", 3: "add"}


class CustomOp:
    """Base class of the operators: override ``forward`` and ``backward``."""

    def __init__(self):
        pass

    def forward(self, is_train, req, in_data, out_data, aux):
        """Compute out_data from in_data; write each output with ``self.assign``."""
        raise NotImplementedError("CustomOp.forward")

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Compute in_grad; write each gradient with ``self.assign``."""
        raise NotImplementedError("CustomOp.backward")

    def assign(self, dst, req, src):
        """Writes src (an NDArray or array-like) into dst as req says: 'null'
        skips, 'write' and 'inplace' overwrite, 'add' accumulates."""
        if req == "null":
            return
        if req in ("write", "inplace"):
            dst[:] = src
        elif req == "add":
            dst[:] += src
        else:
            raise InvalidArgumentError("CustomOp.assign: unknown req %r (expected 'null', 'write', "
                                       "'inplace' or 'add')" % (req,))


class CustomOpProp:
    """Describes a custom operator: its inputs, outputs, shapes, types and
    backward dependencies, and makes its CustomOp."""

    def __init__(self, need_top_grad=True):
        self.need_top_grad_ = need_top_grad

    def infer_shape(self, in_shape):
        """(argument shapes, output shapes, aux shapes) from the argument shapes."""
        return in_shape, (in_shape[0],) * len(self.list_outputs()), ()

    def infer_type(self, in_type):
        """(argument dtypes, output dtypes, aux dtypes) from the argument dtypes."""
        return (in_type, [in_type[0]] * len(self.list_outputs()),
                [in_type[0]] * len(self.list_auxiliary_states()))

    def infer_storage_type(self, in_stype):
        """Storage types; only 'default' (dense) is supported."""
        return (in_stype, [in_stype[0]] * len(self.list_outputs()),
                [in_stype[0]] * len(self.list_auxiliary_states()))

    def infer_storage_type_backward(self, ograd_stype, in_stype, out_stype, igrad_stype, aux_stype):
        return (["default"] * len(ograd_stype), ["default"] * len(in_stype), ["default"] * len(out_stype),
                ["default"] * len(igrad_stype), ["default"] * len(aux_stype))

    def list_outputs(self):
        return ["output"]

    def list_arguments(self):
        return ["data"]

    def list_auxiliary_states(self):
        return []

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The ids (among those given) that backward reads."""
        deps = []
        if self.need_top_grad_:
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return CustomOp()


# ---- the callbacks --------------------------------------------------------------------------------------
# Objects handed to the core as void* (ffi.new_handle) live in _LIVE until the
# core deletes them; _TLS keeps the buffers a callback returns until the next
# callback on that thread (the C ABI's rule).
_REGISTRY = {}   # op_type -> prop class
_USER = {}       # op_type -> its handle (the `user` pointer)
_LIVE = {}       # id(holder) -> (holder, handle)
_TLS = threading.local()


def _keep(*objs):
    _TLS.keep = objs


def _new_handle(obj):
    h = ffi.new_handle(obj)
    _LIVE[id(obj)] = (obj, h)
    return h


def _fail(where, exc):
    msg = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    lib.weft_custom_op_set_error(("%s raised %s" % (where, msg)).encode("utf-8", "replace"))
    return 1


class _Prop:
    __slots__ = ("op_type", "prop", "__weakref__")

    def __init__(self, op_type, prop):
        self.op_type = op_type
        self.prop = prop


# Note [Custom ops in the profiler]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The core runs every custom op as its op "Custom", so that is all its own
# profiling hooks can name. MXNet 1.9.1 (the profiler tutorial's MyAddOne)
# records the Python part of each call as "<op_type>::pure_python" in the
# domain "Custom Operator", a category of its own in the aggregate table and
# the chrome trace; we time forward and backward here, where the op_type is
# known, with one profiler Task per op_type (start/stop record nothing while
# the profiler is stopped). Not done: MXNet also prefixes the NDArray ops a
# custom op calls ("MyAddOne::_plus_scalar"); here those keep their own names
# (the core's op records carry no caller).
# A Task holds one start time, so two calls of one op_type must never share
# one: the engine runs a forward and a backward of the same op_type on two
# worker threads at once, and a custom op may call itself. Each thread keeps a
# free list of Tasks per op_type; a call takes one and gives it back.
_PROFILE_LOCK = threading.Lock()
_PROFILE_LOCAL = threading.local()  # .free: op_type -> [profiler.Task] not in use on this thread
_PROFILE_DOMAIN = []  # [profiler.Domain], made on first use (not at import: it needs the library)


def _take_profile_task(op_type):
    free = getattr(_PROFILE_LOCAL, "free", None)
    if free is None:
        free = _PROFILE_LOCAL.free = {}
    tasks = free.setdefault(op_type, [])
    if tasks:
        return tasks.pop()
    with _PROFILE_LOCK:
        if not _PROFILE_DOMAIN:
            _PROFILE_DOMAIN.append(_profiler.Domain("Custom Operator"))
    return _PROFILE_DOMAIN[0].new_task(op_type + "::pure_python")


def _give_back_profile_task(op_type, task):
    _PROFILE_LOCAL.free[op_type].append(task)


class _Op:
    """What the core holds for a created operator: the user's CustomOp and its op_type."""
    __slots__ = ("op", "op_type", "__weakref__")

    def __init__(self, op, op_type):
        self.op = op
        self.op_type = op_type


def _names(fn, n, out):
    names = [str(s) for s in fn()]
    bufs = [ffi.new("char[]", c_str(s, "CustomOp: name")) for s in names]
    arr = ffi.new("const char*[]", bufs) if bufs else ffi.new("const char*[1]")
    _keep(bufs, arr)
    n[0] = len(names)
    out[0] = arr
    return 0


@ffi.callback("int(void*, int, const char* const*, const char* const*, void**)")
def _create_prop(user, num, keys, vals, out):
    op_type = ffi.from_handle(user)
    try:
        kwargs = {ffi.string(keys[i]).decode("utf-8"): ffi.string(vals[i]).decode("utf-8") for i in range(num)}
        prop = _REGISTRY[op_type](**kwargs)
        if not isinstance(prop, CustomOpProp):
            raise ArgumentTypeError("the class registered as %r must derive from CustomOpProp" % op_type)
        out[0] = _new_handle(_Prop(op_type, prop))
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        return _fail("CustomOpProp(%s)" % op_type, e)


def _list_cb(method):
    def cb(prop, n, out):
        holder = ffi.from_handle(prop)
        try:
            return _names(getattr(holder.prop, method), n, out)
        except BaseException as e:  # pylint: disable=broad-except
            return _fail(method, e)
    return ffi.callback("int(void*, int*, const char* const**)", cb)


_list_arguments = _list_cb("list_arguments")
_list_outputs = _list_cb("list_outputs")
_list_aux = _list_cb("list_auxiliary_states")


def _shape_list(x, what):
    return [tuple(int(d) for d in s) for s in x] if x is not None else []


@ffi.callback("int(void*, int, const int*, const int64_t* const*, int*, const int**, const int64_t* const**)")
def _infer_shape(prop, num, in_ndims, in_dims, total, ndims, dims):
    holder = ffi.from_handle(prop)
    try:
        in_shape = [tuple(in_dims[i][j] for j in range(in_ndims[i])) if in_ndims[i] >= 0 else ()
                    for i in range(num)]
        res = holder.prop.infer_shape(in_shape)
        if not isinstance(res, (list, tuple)) or len(res) not in (2, 3):
            raise InvalidArgumentError("infer_shape must return (in_shape, out_shape[, aux_shape])")
        shapes = (_shape_list(res[0], "in") + _shape_list(res[1], "out") +
                  (_shape_list(res[2], "aux") if len(res) == 3 else []))
        nd_arr = ffi.new("int[]", [len(s) for s in shapes] or [0])
        dim_bufs = [ffi.new("int64_t[]", list(s) or [0]) for s in shapes]
        dim_arr = ffi.new("const int64_t*[]", dim_bufs or [ffi.NULL])
        _keep(nd_arr, dim_bufs, dim_arr)
        total[0] = len(shapes)
        ndims[0] = nd_arr
        dims[0] = dim_arr
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        return _fail("infer_shape", e)


def _np_type(f):
    if f < 0:
        return None
    t = _dtypes.FLAG_TO_NP[f]
    return getattr(t, "type", t)


@ffi.callback("int(void*, int, int, int*)")
def _infer_type(prop, num, total, types):
    holder = ffi.from_handle(prop)
    try:
        res = holder.prop.infer_type([_np_type(types[i]) for i in range(num)])
        if not isinstance(res, (list, tuple)) or len(res) not in (2, 3):
            raise InvalidArgumentError("infer_type must return (in_type, out_type[, aux_type])")
        flat = list(res[0]) + list(res[1]) + (list(res[2]) if len(res) == 3 else [])
        if len(flat) != total:
            raise InvalidArgumentError("infer_type returned %d dtypes, expected %d" % (len(flat), total))
        for i, t in enumerate(flat):
            types[i] = -1 if t is None else _dtypes.flag(t)
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        return _fail("infer_type", e)


@ffi.callback("int(void*, int*)")
def _need_top_grad(prop, out):
    holder = ffi.from_handle(prop)
    try:
        out[0] = 1 if holder.prop.need_top_grad_ else 0
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        return _fail("need_top_grad", e)


@ffi.callback("int(void*, int, const int*, int, const int*, int, const int*, int*, const int**)")
def _declare_deps(prop, n_og, og, n_id, idd, n_od, od, n, out):
    holder = ffi.from_handle(prop)
    try:
        deps = [int(d) for d in holder.prop.declare_backward_dependency(
            [og[i] for i in range(n_og)], [idd[i] for i in range(n_id)], [od[i] for i in range(n_od)])]
        arr = ffi.new("int[]", deps or [0])
        _keep(arr)
        n[0] = len(deps)
        out[0] = arr
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        return _fail("declare_backward_dependency", e)


@ffi.callback("int(void*, enum weft_dev_type, int, int, const int*, const int64_t* const*, const int*, void**)")
def _create_operator(prop, dev_type, dev_id, num, ndims, dims, types, out):
    holder = ffi.from_handle(prop)
    try:
        stypes = holder.prop.infer_storage_type(["default"] * num)
        for group in stypes:
            for s in group:
                if s != "default":
                    raise InvalidArgumentError("storage type %r is not supported (only 'default', dense)" % (s,))
        shapes = [tuple(dims[i][j] for j in range(ndims[i])) for i in range(num)]
        op = holder.prop.create_operator(Context(int(dev_type), dev_id), shapes,
                                         [_np_type(types[i]) for i in range(num)])
        if not isinstance(op, CustomOp):
            raise ArgumentTypeError("create_operator must return a CustomOp, got %s" % type(op).__name__)
        out[0] = _new_handle(_Op(op, holder.op_type))
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        return _fail("create_operator", e)


def _arrays(num, arrays, tags):
    groups = {0: [], 1: [], 2: [], 3: [], 4: []}
    for i in range(num):  # wrap every handle first: we own them
        groups[tags[i]].append(_wrap(arrays[i]) if arrays[i] != ffi.NULL else None)
    return groups


@ffi.callback("int(void*, int, int, weft_ndarray**, const int*, const int*)")
def _forward(op, is_train, num, arrays, tags, reqs):
    try:
        obj = ffi.from_handle(op)
        g = _arrays(num, arrays, tags)
        req = [_REQ[reqs[i]] for i in range(num) if tags[i] == 1]
        task = _take_profile_task(obj.op_type)  # Note [Custom ops in the profiler]
        task.start()
        try:
            with _autograd.pause(train_mode=bool(is_train)):
                obj.op.forward(is_train=bool(is_train), req=req, in_data=g[0], out_data=g[1], aux=g[4])
        finally:
            task.stop()
            _give_back_profile_task(obj.op_type, task)
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        return _fail("forward", e)


@ffi.callback("int(void*, int, weft_ndarray**, const int*, const int*)")
def _backward(op, num, arrays, tags, reqs):
    try:
        obj = ffi.from_handle(op)
        g = _arrays(num, arrays, tags)
        req = [_REQ[reqs[i]] for i in range(num) if tags[i] == 2]
        task = _take_profile_task(obj.op_type)
        task.start()
        try:
            with _autograd.pause(train_mode=True):
                obj.op.backward(req=req, out_grad=g[3], in_data=g[0], out_data=g[1], in_grad=g[2], aux=g[4])
        finally:
            task.stop()
            _give_back_profile_task(obj.op_type, task)
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        return _fail("backward", e)


@ffi.callback("void(void*)")
def _delete(obj, _live=_LIVE):  # bound early: may run late in interpreter shutdown
    try:
        _live.pop(id(ffi.from_handle(obj)), None)
    except BaseException:  # pylint: disable=broad-except
        pass


_CALLBACKS = ffi.new("weft_custom_op_callbacks*")
_CALLBACKS.create_prop = _create_prop
_CALLBACKS.list_arguments = _list_arguments
_CALLBACKS.list_outputs = _list_outputs
_CALLBACKS.list_auxiliary_states = _list_aux
_CALLBACKS.infer_shape = _infer_shape
_CALLBACKS.infer_type = _infer_type
_CALLBACKS.need_top_grad = _need_top_grad
_CALLBACKS.declare_backward_dependency = _declare_deps
_CALLBACKS.create_operator = _create_operator
_CALLBACKS.forward = _forward
_CALLBACKS.backward = _backward
_CALLBACKS.delete_prop = _delete
_CALLBACKS.delete_operator = _delete


def register(reg_name):
    """Class decorator: registers a CustomOpProp subclass as op_type ``reg_name``
    (registering a name again replaces it, as in MXNet)."""
    if not isinstance(reg_name, str) or not reg_name:
        raise ArgumentTypeError("operator.register: reg_name must be a non-empty str, got %r" % (reg_name,))

    def do_register(prop_cls):
        if not (isinstance(prop_cls, type) and issubclass(prop_cls, CustomOpProp)):
            raise ArgumentTypeError("operator.register(%r): %r is not a CustomOpProp subclass" % (reg_name, prop_cls))
        _REGISTRY[reg_name] = prop_cls
        user = _USER.get(reg_name)
        if user is None:
            user = _USER[reg_name] = ffi.new_handle(reg_name)
        check_call(lib.weft_custom_op_register(c_str(reg_name, "CustomOp: op type"), _CALLBACKS, user))
        return prop_cls

    return do_register


def get_all_registered_operators():
    """The op_type names registered from Python."""
    return sorted(_REGISTRY)


# ---- weft.nd.Custom / weft.sym.Custom --------------------------------------------------------------------
def _nd_op(opname):
    """weft.nd.<opname> for Custom and _backward_Custom, whose inputs depend on
    the prop: arrays positionally (or by input name), op_type, and the
    prop's keyword arguments (passed as strings)."""
    def fn(*data, op_type=None, out=None, name=None, **kwargs):  # pylint: disable=unused-argument
        if not isinstance(op_type, str):
            raise ArgumentTypeError("%s: op_type must be a str naming a registered operator, got %r"
                                    % (opname, op_type))
        if len(data) == 1 and isinstance(data[0], (list, tuple)):
            data = tuple(data[0])
        named = {k: v for k, v in kwargs.items() if isinstance(v, NDArray)}
        attrs = {k: attr_str(v) for k, v in kwargs.items() if k not in named}
        pieces = ["op_type\0" + op_type] + ["%s\0%s" % kv for kv in attrs.items()]
        inputs = list(data)
        if named:
            if op_type not in _REGISTRY:
                raise InvalidArgumentError("%s: op_type %r is not registered" % (opname, op_type))
            prop = _REGISTRY[op_type](**attrs)
            order = list(prop.list_arguments()) + list(prop.list_auxiliary_states())
            for k in named:
                if k not in order:
                    raise InvalidArgumentError("%s '%s': unknown input '%s' (inputs: %s)"
                                               % (opname, op_type, k, ", ".join(order)))
            inputs += [named[k] for k in order[len(inputs):] if k in named]
        for i, x in enumerate(inputs):
            if not isinstance(x, NDArray):
                raise ArgumentTypeError("%s: input %d must be an NDArray, got %s" % (opname, i, type(x).__name__))
        return invoke(op_handle(opname), opname, [x.handle for x in inputs], pieces, out)
    _describe(fn, opname, "NDArray", "out : NDArray, optional\n    The output array.\n"
              "name : str, optional\n    Ignored (kept for MXNet's signature).\n")
    return fn


def _describe(fn, opname, kind, extra):
    """Name, docstring (numpydoc, from the schema) and signature of a
    Custom wrapper: *data (the prop's arguments, then its aux states), op_type."""
    schema = json.loads(op_schema(opname))
    fn.__name__ = fn.__qualname__ = opname
    fn.__doc__ = ("%s\n\nParameters\n----------\n*data : %s\n    The inputs, in the prop's order: "
                  "list_arguments(), then list_auxiliary_states() (or by name as keyword arguments).\n"
                  "op_type : str, required\n    The name given to weft.operator.register.\n%s"
                  "**kwargs\n    Keyword arguments of the CustomOpProp (passed as strings).\n\n"
                  "Returns\n-------\n%s or list of %s\n    The prop's list_outputs().\n"
                  % (schema["doc"], kind, extra, kind, kind))
    P = inspect.Parameter
    tail = [P("out", P.KEYWORD_ONLY, default=None)] if kind == "NDArray" else [
        P("attr", P.KEYWORD_ONLY, default=None), P("out", P.KEYWORD_ONLY, default=None)]
    fn.__signature__ = inspect.Signature(
        [P("data", P.VAR_POSITIONAL), P("op_type", P.KEYWORD_ONLY, default=None),
         P("name", P.KEYWORD_ONLY, default=None)] + tail + [P("kwargs", P.VAR_KEYWORD)]
        if kind == "Symbol" else
        [P("data", P.VAR_POSITIONAL), P("op_type", P.KEYWORD_ONLY, default=None)] + tail +
        [P("name", P.KEYWORD_ONLY, default=None), P("kwargs", P.VAR_KEYWORD)])
    fn._weft_op = opname  # pylint: disable=protected-access
    fn._weft_schema = schema  # pylint: disable=protected-access


_nd_custom = _nd_op("Custom")
_nd_backward_custom = _nd_op("_backward_Custom")


def _sym_custom(*data, op_type=None, name=None, attr=None, out=None, **kwargs):  # pylint: disable=unused-argument
    """Composes the custom operator ``op_type`` on Symbols (positional or by
    input name); other keyword arguments go to its CustomOpProp as strings."""
    if not isinstance(op_type, str):
        raise ArgumentTypeError("Custom: op_type must be a str naming a registered operator, got %r" % (op_type,))
    if len(data) == 1 and isinstance(data[0], (list, tuple)):
        data = tuple(data[0])
    for i, x in enumerate(data):
        if not isinstance(x, Symbol):
            raise ArgumentTypeError("Custom: input %d must be a Symbol, got %s" % (i, type(x).__name__))
    return _sreg.create(op_handle("Custom"), "Custom", "custom", None, list(data), [],
                        [("op_type", op_type)], kwargs, name, attr)


_describe(_sym_custom, "Custom", "Symbol", "name : str, optional\n    The node's name.\n"
          "attr : dict of str, optional\n    Node attributes.\n")


def _install():
    for mod in (_nd, _nd.op, _nd._internal):  # pylint: disable=protected-access
        setattr(mod, "Custom", _nd_custom)
    for mod in (_nd, _nd._internal):  # pylint: disable=protected-access
        setattr(mod, "_backward_Custom", _nd_backward_custom)
    for mod in (_sym, _sym.op, _sym._internal):  # pylint: disable=protected-access
        setattr(mod, "Custom", _sym_custom)
    # The wrappers are the namespaces' Custom functions now (one table, as for every op).
    _nd._FUNCS["Custom"] = _nd_custom  # pylint: disable=protected-access
    _nd._FUNCS["_backward_Custom"] = _nd_backward_custom  # pylint: disable=protected-access
    _sym._FUNCS["Custom"] = _sym_custom  # pylint: disable=protected-access


_install()
