"""Executor: a symbol bound to arrays on a device (MXNet's ``mxnet.executor.Executor``).

Made by ``Symbol.bind`` / ``Symbol.simple_bind``. The graph passes (shape and
type inference, gradient construction, allocation) run once at bind;
``forward`` and ``backward`` push the cached op sequence to the same engine
NDArray operations use, so a training step

    exe.forward(is_train=True); exe.backward()
    for w, g in zip(exe.arg_arrays, exe.grad_arrays): w -= lr * g

needs no synchronisation. The executor keeps references to its arrays: writing
``exe.arg_dict['data'][:] = batch`` before ``forward`` feeds new data.
"""
# pylint: disable=protected-access,too-many-arguments,too-many-locals,too-many-branches
import numpy as np

from . import dtypes as _dt
from .base import ArgumentTypeError, InvalidArgumentError, ShapeError, c_str, check_call, ffi, lib
from .context import Context
from .ndarray.ndarray import NDArray, _wrap, empty as _nd_empty, zeros as _nd_zeros

__all__ = ["Executor", "plan_memory"]

_NULL = ffi.NULL
_GRAD_REQ = {"null": 0, "write": 1, "add": 3}


class Executor:
    """A bound graph. Attributes (as in MXNet): ``arg_arrays``, ``grad_arrays``
    (None where no gradient is computed), ``aux_arrays``, ``outputs``, and the
    dicts ``arg_dict``, ``grad_dict``, ``aux_dict``, ``output_dict``."""

    def __init__(self, handle, symbol, ctx, grad_req, group2ctx, arg_arrays, grad_arrays, aux_arrays):
        if not isinstance(handle, ffi.CData):
            raise ArgumentTypeError("Executor(handle): expected a weft_executor* handle")
        self.handle = handle
        self._symbol = symbol.__copy__()
        self._ctx = ctx
        self._grad_req = grad_req
        self._group2ctx = group2ctx
        self.arg_arrays = list(arg_arrays)
        self.grad_arrays = list(grad_arrays)
        self.aux_arrays = list(aux_arrays)
        self._arg_names = self._symbol.list_arguments()
        self._aux_names = self._symbol.list_auxiliary_states()
        self._out_names = self._symbol.list_outputs()
        self._monitor_callback = None
        self._monitor_all = False
        self._update = None
        # The executor's output arrays are fixed at bind; forward writes into them.
        self.outputs = self._get_outputs()

    def __del__(self, _free=lib.weft_executor_free):
        try:
            h = self.handle
        except AttributeError:
            return
        _free(h)

    def _get_outputs(self):
        n = ffi.new("int*")
        outs = ffi.new("weft_ndarray***")
        check_call(lib.weft_executor_outputs(self.handle, n, outs))
        return [_wrap(outs[0][i]) for i in range(n[0])]

    # -- running ------------------------------------------------------------------------------------------
    def forward(self, is_train=False, **kwargs):
        """Runs the graph. Keyword arguments (NDArray or numpy arrays of the bound
        shapes) are copied into the arguments of those names first. ``is_train``
        selects training behaviour (BatchNorm batch statistics and moving-average
        updates, Dropout). Returns ``outputs``."""
        if kwargs:
            arg_dict = self.arg_dict
            for name, value in kwargs.items():
                if name not in arg_dict:
                    raise InvalidArgumentError("forward: unknown argument '%s' (arguments: %s)"
                                               % (name, ", ".join(self._arg_names)))
                if not isinstance(value, (NDArray, np.ndarray)):
                    raise ArgumentTypeError("forward: '%s' must be an NDArray or a numpy array, got %s"
                                            % (name, type(value).__name__))
                dst = arg_dict[name]
                if tuple(value.shape) != dst.shape:
                    raise ShapeError("forward: argument '%s' has shape %s, got %s"
                                     % (name, dst.shape, tuple(value.shape)))
                dst[:] = value
        check_call(lib.weft_executor_forward(self.handle, 1 if is_train else 0))
        if self._monitor_callback is not None:
            self._run_monitor()
        return self.outputs

    def backward(self, out_grads=None, is_train=True):  # pylint: disable=unused-argument
        """Computes the gradients of the arguments bound with grad_req 'write' or 'add'.

        out_grads: the gradient of each output (an NDArray, a list in output order,
        or a dict by output name); None uses ones (loss outputs such as SoftmaxOutput
        ignore it). Raises NotFoundError naming the operator when an op in the graph
        has no gradient rule (at bind time, for graphs that need gradients)."""
        if out_grads is None:
            out_grads = []
        elif isinstance(out_grads, NDArray):
            out_grads = [out_grads]
        elif isinstance(out_grads, dict):
            out_grads = [out_grads[k] for k in self._out_names]
        for g in out_grads:
            if not isinstance(g, NDArray):
                raise ArgumentTypeError("backward: out_grads must be NDArrays, got %s" % type(g).__name__)
        hs = ffi.new("weft_ndarray*[]", [g.handle for g in out_grads]) if out_grads else _NULL
        check_call(lib.weft_executor_backward(self.handle, len(out_grads), hs))

    def set_monitor_callback(self, callback, monitor_all=False):
        """Installs callback(name, NDArray), called after every forward for each output
        of the executor (``list_outputs()`` names); with ``monitor_all`` also for each
        argument and auxiliary state. Internal node outputs are not exposed: to watch
        one, bind ``symbol.get_internals()[name]`` into the group of outputs."""
        if callback is not None and not callable(callback):
            raise ArgumentTypeError("set_monitor_callback: callback must be callable")
        self._monitor_callback = callback
        self._monitor_all = bool(monitor_all)

    def _run_monitor(self):
        cb = self._monitor_callback
        if self._monitor_all:
            for name, arr in zip(self._arg_names, self.arg_arrays):
                cb(name, arr)
            for name, arr in zip(self._aux_names, self.aux_arrays):
                cb(name, arr)
        for name, arr in zip(self._out_names, self.outputs):
            cb(name, arr)

    # -- dictionaries -------------------------------------------------------------------------------------
    @property
    def arg_dict(self):
        """{argument name: NDArray}."""
        return dict(zip(self._arg_names, self.arg_arrays))

    @property
    def grad_dict(self):
        """{argument name: gradient NDArray} for the arguments that have one."""
        return {n: g for n, g in zip(self._arg_names, self.grad_arrays) if g is not None}

    @property
    def aux_dict(self):
        """{auxiliary state name: NDArray}."""
        return dict(zip(self._aux_names, self.aux_arrays))

    @property
    def output_dict(self):
        """{output name: NDArray}."""
        return dict(zip(self._out_names, self.outputs))

    # -- parameters ---------------------------------------------------------------------------------------
    def copy_params_from(self, arg_params, aux_params=None, allow_extra_params=False):
        """Copies arrays (dtype converted) into the arguments / auxiliary states of the
        same names; a name the executor lacks is an error unless allow_extra_params."""
        for name, array in arg_params.items():
            if name in self._arg_names:
                _copy_into(array, self.arg_arrays[self._arg_names.index(name)], name)
            elif not allow_extra_params:
                raise InvalidArgumentError("copy_params_from: '%s' is not an argument of the executor "
                                           "(arguments: %s)" % (name, ", ".join(self._arg_names)))
        if aux_params is None:
            return
        for name, array in aux_params.items():
            if name in self._aux_names:
                _copy_into(array, self.aux_arrays[self._aux_names.index(name)], name)
            elif not allow_extra_params:
                raise InvalidArgumentError("copy_params_from: '%s' is not an auxiliary state of the executor "
                                           "(auxiliary states: %s)" % (name, ", ".join(self._aux_names) or "none"))

    def reshape(self, partial_shaping=False, allow_up_sizing=False, **kwargs):
        """A new executor for new input shapes (``data=(64, 100)``) sharing this one's
        arrays: arguments keep their memory (views of it when they shrink). An
        argument whose shape changes without being named needs partial_shaping; one
        that grows needs allow_up_sizing (it then gets a new array)."""
        arg_shapes, _, aux_shapes = self._symbol.infer_shape(**kwargs)
        if arg_shapes is None:
            raise ShapeError("reshape: the given shapes do not determine every argument's shape")
        new_args, new_grads, new_aux = {}, {}, {}
        for i, name in enumerate(self._arg_names):
            shape = arg_shapes[i]
            arr, grad = self.arg_arrays[i], self.grad_arrays[i]
            if not (partial_shaping or name in kwargs or shape == arr.shape):
                raise ShapeError("reshape: the shape of argument '%s' would change from %s to %s although it "
                                 "was not given; pass partial_shaping=True if that is intended"
                                 % (name, arr.shape, shape))
            new_args[name] = _resized(arr, shape, allow_up_sizing, name)
            if grad is not None:
                new_grads[name] = _resized(grad, shape, allow_up_sizing, name)
        for i, name in enumerate(self._aux_names):
            shape = aux_shapes[i]
            arr = self.aux_arrays[i]
            if not (partial_shaping or shape == arr.shape):
                raise ShapeError("reshape: the shape of auxiliary state '%s' would change from %s to %s; pass "
                                 "partial_shaping=True if that is intended" % (name, arr.shape, shape))
            new_aux[name] = _resized(arr, shape, allow_up_sizing, name)
        return bind(self._symbol, self._ctx, new_args, new_grads, self._grad_req, new_aux, self._group2ctx,
                    update=self._update)

    # -- reporting ----------------------------------------------------------------------------------------
    def internal_bytes(self):
        """Bytes of the executor's own arrays (not arguments, gradients or aux states)."""
        b = ffi.new("int64_t*")
        check_call(lib.weft_executor_internal_bytes(self.handle, b))
        return int(b[0])

    def debug_str(self):
        """The symbol's listing (:meth:`Symbol.debug_str`), then the executor's steps (forward, then backward) with their inputs and outputs
        and where each output lives (``@sN`` a planned shared buffer, ``@own`` an array
        of its own, ``(dead)`` an output no one reads), the memory plan (strategy,
        planned, naive and lower-bound bytes), fusion, and ``Total N MB allocated``."""
        listing = self._symbol.debug_str()  # before the call: both use the thread's C string buffer
        out = ffi.new("const char**")
        check_call(lib.weft_executor_debug_str(self.handle, out))
        return listing + ffi.string(out[0]).decode()

    def __repr__(self):
        return "<Executor %s @%s>" % (", ".join(self._out_names), self._ctx)


def _copy_into(array, dst, name):
    if isinstance(array, NDArray):
        if array.shape != dst.shape:
            raise ShapeError("copy_params_from: '%s' has shape %s, the executor's has %s"
                             % (name, array.shape, dst.shape))
        array.copyto(dst)
    elif isinstance(array, np.ndarray):
        dst[:] = array
    else:
        raise ArgumentTypeError("copy_params_from: '%s' must be an NDArray, got %s" % (name, type(array).__name__))


def _resized(arr, shape, allow_up_sizing, name):
    """arr itself, a view of its memory with the new shape, or (growing) a new array."""
    shape = tuple(shape)
    if shape == arr.shape:
        return arr
    new_size = int(np.prod(shape, dtype=np.int64))
    if new_size > arr.size:
        if not allow_up_sizing:
            raise ShapeError("reshape: the new shape %s of '%s' is larger than %s; pass allow_up_sizing=True to "
                             "allocate new arrays (making a big executor and then shrinking it is cheaper)"
                             % (shape, name, arr.shape))
        return _nd_empty(shape, ctx=arr.context, dtype=arr._dtype_flag)
    flat = arr._view((arr.size,))
    return flat._slice(0, new_size)._view(shape) if new_size < arr.size else flat._view(shape)


# ---- binding ------------------------------------------------------------------------------------------------
def _arrays(what, given, names, allow_missing):
    """A list in names order from a list or dict of NDArrays (None where missing)."""
    if given is None:
        given = {} if allow_missing else []
    if isinstance(given, (list, tuple)):
        if len(given) != len(names):
            raise InvalidArgumentError("bind: %s has %d arrays, the symbol has %d (%s)"
                                       % (what, len(given), len(names), ", ".join(names) or "none"))
        out = list(given)
    elif isinstance(given, dict):
        out = []
        for n in names:
            if n in given:
                out.append(given[n])
            elif allow_missing:
                out.append(None)
            else:
                raise InvalidArgumentError("bind: %s lacks '%s'" % (what, n))
    else:
        raise ArgumentTypeError("bind: %s must be a list or a dict of NDArrays, got %s"
                                % (what, type(given).__name__))
    for n, a in zip(names, out):
        if a is None and allow_missing:
            continue
        if not isinstance(a, NDArray):
            raise ArgumentTypeError("bind: %s['%s'] must be an NDArray, got %s" % (what, n, type(a).__name__))
    return out


def _grad_reqs(grad_req, names, missing_means_null):
    if isinstance(grad_req, str):
        reqs = [grad_req] * len(names)
    elif isinstance(grad_req, (list, tuple)):
        if len(grad_req) != len(names):
            raise InvalidArgumentError("grad_req has %d entries, the symbol has %d arguments"
                                       % (len(grad_req), len(names)))
        reqs = list(grad_req)
    elif isinstance(grad_req, dict):
        unknown = [k for k in grad_req if k not in names]
        if unknown:
            raise InvalidArgumentError("grad_req names unknown arguments: %s" % ", ".join(unknown))
        reqs = [grad_req.get(n, "null" if missing_means_null else "write") for n in names]
    else:
        raise ArgumentTypeError("grad_req must be a str, a list or a dict, got %s" % type(grad_req).__name__)
    for r in reqs:
        if r not in _GRAD_REQ:
            raise InvalidArgumentError("grad_req must be one of 'write', 'add', 'null', got %r" % (r,))
    return reqs


def _group_lists(group2ctx, fn):
    """The C arrays of a group2ctx dict (``{'dev1': weft.cpu(1), ...}``, MXNet's): names, device types and ids,
    and the strings they point into (kept alive by the caller for the call). None or {}: no groups."""
    if group2ctx is None:
        return 0, _NULL, _NULL, _NULL, []
    if not isinstance(group2ctx, dict):
        raise ArgumentTypeError("%s: group2ctx must be a dict of context group name to Context, got %s"
                                % (fn, type(group2ctx).__name__))
    names, types, ids = [], [], []
    for k, v in group2ctx.items():
        if not isinstance(k, str):
            raise ArgumentTypeError("%s: group2ctx keys must be context group names (str), got %r" % (fn, k))
        if not isinstance(v, Context):
            raise ArgumentTypeError("%s: group2ctx['%s'] must be a weft.Context, got %s" % (fn, k, type(v).__name__))
        names.append(ffi.new("char[]", c_str(k, "%s: group2ctx key" % fn)))
        types.append(v.device_typeid)
        ids.append(v.device_id)
    if not names:
        return 0, _NULL, _NULL, _NULL, []
    return (len(names), ffi.new("const char*[]", names), ffi.new("int[]", types), ffi.new("int[]", ids), names)


def _place_inputs(symbol, ctx, group2ctx):
    """Where simple_bind allocates each argument and aux state of a group2ctx bind, as MXNet 1.9.1's does: on the
    context of the variable's group, else on ``ctx``: ([arg contexts], [aux contexts])."""
    n_args, n_aux = len(symbol.list_arguments()), len(symbol.list_auxiliary_states())
    n_groups, names, types, ids, _keep = _group_lists(group2ctx, "simple_bind")
    n = n_args + n_aux
    out_types, out_ids = ffi.new("int[]", max(n, 1)), ffi.new("int[]", max(n, 1))
    check_call(lib.weft_symbol_place_inputs(symbol.handle, ctx.device_typeid, ctx.device_id, n_groups, names, types,
                                            ids, n, out_types, out_ids))
    ctxs = [Context(Context.devtype2str[out_types[i]], out_ids[i]) for i in range(n)]
    return ctxs[:n_args], ctxs[n_args:]


def _update_spec(update):
    """(op name, [keys], [values]) from None, an op name, or (op name, {attr: value})."""
    if update is None:
        return None, [], []
    if isinstance(update, str):
        name, attrs = update, {}
    elif isinstance(update, (tuple, list)) and len(update) == 2 and isinstance(update[0], str) \
            and isinstance(update[1], dict):
        name, attrs = update
    else:
        raise ArgumentTypeError("update must be an optimizer update operator name or (name, {attribute: value}), "
                                "got %r" % (update,))
    keys = [str(k) for k in attrs]
    vals = [str(v) if not isinstance(v, bool) else str(int(v)) for v in attrs.values()]
    return name, keys, vals


def bind(symbol, ctx, args, args_grad=None, grad_req="write", aux_states=None, group2ctx=None,
         shared_exec=None, update=None):  # pylint: disable=unused-argument
    """Symbol.bind (see there).

    ``group2ctx`` (MXNet's model parallelism) maps context group names, set with
    ``weft.AttrScope(ctx_group='dev1')``, to contexts: each group's nodes, their
    gradients included, run on its context, the other nodes on ``ctx``, and a
    ``_CrossDeviceCopy`` engine op copies data where an edge crosses contexts
    (between CPU contexts; an edge to a GPU context is refused). The arrays may
    then be on any context; ``simple_bind`` allocates each argument, its gradient
    and each aux state on its group's context, else on ``ctx`` (as MXNet 1.9.1)."""
    if not isinstance(ctx, Context):
        raise ArgumentTypeError("bind: ctx must be a weft.Context, got %s" % type(ctx).__name__)
    n_groups, g_names, g_types, g_ids, _keep_names = _group_lists(group2ctx, "bind")
    arg_names = symbol.list_arguments()
    aux_names = symbol.list_auxiliary_states()
    arg_arrays = _arrays("args", args, arg_names, False)
    grad_arrays = _arrays("args_grad", args_grad, arg_names, True)
    aux_arrays = _arrays("aux_states", [] if aux_states is None and not aux_names else aux_states,
                         aux_names, False)
    reqs = _grad_reqs(grad_req, arg_names, True)
    # An argument without a gradient array gets no gradient (MXNet).
    flags = [_GRAD_REQ[r] if g is not None else 0 for r, g in zip(reqs, grad_arrays)]
    n = len(arg_names)
    c_args = ffi.new("weft_ndarray*[]", [a.handle for a in arg_arrays]) if n else _NULL
    c_grads = ffi.new("weft_ndarray*[]", [g.handle if g is not None else _NULL for g in grad_arrays]) if n else _NULL
    c_reqs = ffi.new("int[]", flags) if n else _NULL
    c_aux = ffi.new("weft_ndarray*[]", [a.handle for a in aux_arrays]) if aux_arrays else _NULL
    op_name, keys, vals = _update_spec(update)
    keep = [ffi.new("char[]", c_str(k, "bind: update attribute")) for k in keys + vals]
    c_keys = ffi.new("const char*[]", keep[:len(keys)]) if keys else _NULL
    c_vals = ffi.new("const char*[]", keep[len(keys):]) if keys else _NULL
    out = ffi.new("weft_executor**")
    check_call(lib.weft_executor_bind_groups(symbol.handle, ctx.device_typeid, ctx.device_id, n, c_args, c_grads,
                                             c_reqs, len(aux_arrays), c_aux,
                                             op_name.encode() if op_name else _NULL, len(keys), c_keys, c_vals,
                                             n_groups, g_names, g_types, g_ids, out))
    grads = [g if f else None for g, f in zip(grad_arrays, flags)]
    exe = Executor(out[0], symbol, ctx, grad_req, group2ctx, arg_arrays, grads, aux_arrays)
    exe._update = update
    return exe


def simple_bind(symbol, ctx, grad_req, type_dict, stype_dict, group2ctx, shared_arg_names, shared_exec,
                shared_buffer, shapes, update=None):
    """Symbol.simple_bind (see there)."""
    if not isinstance(ctx, Context):
        raise ArgumentTypeError("simple_bind: ctx must be a weft.Context, got %s" % type(ctx).__name__)
    for k, v in (stype_dict or {}).items():
        if v != "default":
            raise InvalidArgumentError("simple_bind: '%s': only the dense ('default') storage type is supported"
                                       % k)
    shape_kw = {k: v for k, v in shapes.items() if isinstance(v, (tuple, list))}
    for k, v in shapes.items():
        if k not in shape_kw:
            raise ArgumentTypeError("simple_bind: the shape of '%s' must be a tuple, got %s" % (k, type(v).__name__))
    (arg_shapes, _, aux_shapes), complete = symbol._infer_shape_impl(True, **shape_kw)
    if not complete:
        unknown = [n for n, s in zip(symbol.list_arguments(), arg_shapes) if not s or 0 in s]
        unknown += [n for n, s in zip(symbol.list_auxiliary_states(), aux_shapes) if not s or 0 in s]
        raise ShapeError("simple_bind: cannot infer the shapes of %s from %s"
                         % (", ".join(unknown) or "some internal entries", shape_kw))
    (arg_types, _, aux_types), _ = symbol._infer_type_impl(**(type_dict or {}))
    arg_names = symbol.list_arguments()
    if _group_lists(group2ctx, "simple_bind")[0]:
        arg_ctxs, aux_ctxs = _place_inputs(symbol, ctx, group2ctx)
    else:
        arg_ctxs, aux_ctxs = [ctx] * len(arg_names), [ctx] * len(aux_shapes)
    reqs = _grad_reqs(grad_req if grad_req is not None else "null", arg_names, True)
    shared = {}
    if shared_exec is not None:
        for n in shared_arg_names or []:
            if n in shared_exec.arg_dict:
                shared[n] = (shared_exec.arg_dict[n], shared_exec.grad_dict.get(n))

    def alloc(name, shape, f, actx):
        if shared_buffer is None:
            return _nd_zeros(shape, ctx=actx, dtype=f)
        a = shared_buffer.get(name)
        if a is None or a.shape != tuple(shape) or a._dtype_flag != f or a.context != actx:
            a = shared_buffer[name] = _nd_zeros(shape, ctx=actx, dtype=f)
        return a

    args, grads = [], []
    for name, shape, t, r, actx in zip(arg_names, arg_shapes, arg_types, reqs, arg_ctxs):
        f = 0 if t is None else _dt.flag(t)
        arr, grad = shared.get(name, (None, None))
        if arr is None or arr.shape != tuple(shape) or arr._dtype_flag != f or arr.context != actx:
            arr, grad = alloc(name, shape, f, actx), None
        if r == "null":
            grad = None
        elif grad is None or grad.shape != arr.shape or grad._dtype_flag != f or grad.context != actx:
            grad = _nd_zeros(shape, ctx=actx, dtype=f)
        args.append(arr)
        grads.append(grad)
    aux = [_nd_zeros(shape, ctx=actx, dtype=0 if t is None else _dt.flag(t))
           for shape, t, actx in zip(aux_shapes, aux_types, aux_ctxs)]
    grad_dict = {n: g for n, g in zip(arg_names, grads) if g is not None}
    return bind(symbol, ctx, args, grad_dict, dict(zip(arg_names, reqs)), aux, group2ctx, update=update)


_PLAN_STRATEGIES = ("naive", "inplace", "coshare", "both")


def plan_memory(symbol, strategy="both", for_training=False, **shapes):
    """The memory plan a bind of ``symbol`` would make, without allocating anything.

    ``shapes`` give input shapes by name (``data=(64, 3, 224, 224)``), dtypes are
    float32 unless the symbol says otherwise. With ``for_training`` every argument
    not named in ``shapes`` gets a gradient (the named ones are data and labels).
    The graph is the one the executor runs (gradient, in-graph fusion as
    ``WEFT_FUSION`` says, dead outputs). Counted is what the planner places:
    internal entries — not arguments, auxiliary states, gradients of arguments or
    graph outputs, which belong to the caller.

    Returns a dict: ``planned_bytes`` (the plan under ``strategy``),
    ``naive_bytes`` (one buffer per entry), ``lower_bound_bytes`` (largest set
    of entries live at once under the executor's schedule), ``buffers``,
    ``nodes`` (operator nodes) and ``fused`` (fused groups)."""
    if strategy not in _PLAN_STRATEGIES:
        raise InvalidArgumentError("plan_memory: strategy must be one of %s, got %r"
                                   % (", ".join(_PLAN_STRATEGIES), strategy))
    names, ndims, data, offsets = [], [], [], []
    for k, v in shapes.items():
        if not isinstance(v, (tuple, list)):
            raise ArgumentTypeError("plan_memory: the shape of '%s' must be a tuple, got %s"
                                    % (k, type(v).__name__))
        names.append(k)
        ndims.append(len(v))
        offsets.append(len(data))
        data.extend(int(d) for d in v)
    keep = [ffi.new("char[]", c_str(n, "plan_memory: argument name")) for n in names]
    stats = ffi.new("int64_t[6]")
    check_call(lib.weft_symbol_plan_memory(
        symbol.handle, len(names), ffi.new("const char*[]", keep) if names else _NULL,
        ffi.new("int[]", ndims) if names else _NULL, ffi.new("int64_t[]", data) if data else _NULL,
        ffi.new("int64_t[]", offsets) if names else _NULL, strategy.encode(), 1 if for_training else 0, stats))
    keys = ("planned_bytes", "lower_bound_bytes", "naive_bytes", "buffers", "nodes", "fused")
    return {k: int(stats[i]) for i, k in enumerate(keys)}
