"""Parameters of Gluon blocks (MXNet 1.x's ``mxnet.gluon.parameter``).

A ``Parameter`` holds one copy of its data per device and, unless its
``grad_req`` is 'null', a gradient array per copy, attached with
``NDArray.attach_grad`` so ``autograd.backward`` writes into it. A
``ParameterDict`` maps full names (``dense0_weight``) to parameters and is what
``Block.collect_params()`` returns.

Note [Deferred initialization]
    A layer created without its input size (``Dense(10)``) has parameters with
    unknown (0) dimensions, e.g. shape ``(10, 0)``. ``initialize()`` cannot
    allocate them, so when ``allow_deferred_init`` is set it only records
    ``(init, ctx, default_init, data)`` in ``_deferred_init``. Accessing the data
    then raises ``DeferredInitializationError``; the block catches it at its
    first forward, infers the missing dimensions from the input shapes (by
    tracing ``hybrid_forward`` with symbols and ``Symbol.infer_shape``, see
    block.py), assigns them through the ``shape`` setter and calls
    ``_finish_deferred_init``, which allocates and fills the arrays. A
    ``set_data`` or ``load_parameters`` before that stores the data in the
    record instead of the initializer's output.
"""
# pylint: disable=protected-access,too-many-instance-attributes,too-many-arguments
import warnings
import weakref
from collections import OrderedDict

import numpy as np

from .. import autograd, ndarray
from .. import initializer
from .. import symbol as _symbol
from ..base import InvalidArgumentError, NotFoundError, ShapeError, WeftError
from ..context import Context, cpu, current_context
from .utils import _brief_print_list, _indent, shape_is_known

__all__ = ["ParameterError", "DeferredInitializationError", "Parameter", "Constant", "ParameterDict", "tensor_types"]

tensor_types = (_symbol.Symbol, ndarray.NDArray)


class ParameterError(WeftError, RuntimeError):
    """A parameter used in a state that does not allow it: not initialized, no
    gradient (grad_req 'null'), or not on the requested device. A RuntimeError,
    as MXNet raises there."""


class DeferredInitializationError(ParameterError):
    """The parameter's initialization was deferred until its shape is known
    (Note [Deferred initialization])."""


def _default_init():
    return initializer.Uniform()


def _dtype_eq(a, b):
    try:
        return np.dtype(a) == np.dtype(b)
    except TypeError:
        return a == b


def _ctx_list(ctx):
    if ctx is None:
        return [current_context()]
    if isinstance(ctx, Context):
        return [ctx]
    ctx = list(ctx)
    for c in ctx:
        if not isinstance(c, Context):
            raise InvalidArgumentError("ctx must be a Context or a list of Contexts, got %s" % type(c).__name__)
    return ctx


class Parameter:
    """A weight, bias or state of a Block (MXNet's ``gluon.Parameter``).

    Parameters
    ----------
    name : str
        Full name, e.g. ``dense0_weight``.
    grad_req : {'write', 'add', 'null'}
        How ``backward`` updates the gradient ('null': no gradient).
    shape : int or tuple of int
        0 marks an unknown dimension (Note [Deferred initialization]).
    dtype : numpy dtype or str
    lr_mult, wd_mult : float
        Multipliers of the optimizer's learning rate and weight decay.
    init : Initializer or str
        This parameter's initializer (default: the one given to ``initialize``).
    allow_deferred_init : bool
        Whether ``initialize`` may wait for the shape to be inferred.
    differentiable : bool
        False forces ``grad_req='null'`` (e.g. BatchNorm's running statistics).
    stype, grad_stype : str
        Only 'default' (dense) storage is supported.
    """

    def __init__(self, name, grad_req="write", shape=None, dtype=np.float32, lr_mult=1.0, wd_mult=1.0,
                 init=None, allow_deferred_init=False, differentiable=True, stype="default",
                 grad_stype="default"):
        self._var = None
        self._data = None
        self._grad = None
        self._ctx_list = None
        self._ctx_map = None
        self._trainer = None
        self._deferred_init = ()
        self._differentiable = differentiable
        self._allow_deferred_init = allow_deferred_init
        self._grad_req = None
        if isinstance(shape, (int, np.integer)):
            shape = (int(shape),)
        self._shape = tuple(int(d) for d in shape) if shape is not None else None
        self.name = name
        self._dtype = dtype
        self.lr_mult = lr_mult
        self.wd_mult = wd_mult
        self.grad_req = grad_req
        self.init = init
        for what, st in (("stype", stype), ("grad_stype", grad_stype)):
            if st != "default":
                raise InvalidArgumentError("Parameter '%s': %s=%r is not supported (only 'default', dense storage)"
                                           % (name, what, st))
        self._stype = stype
        self._grad_stype = grad_stype

    def __repr__(self):
        return "Parameter %s (shape=%s, dtype=%s)" % (self.name, self.shape, self.dtype)

    # -- attributes ------------------------------------------------------------------------------
    @property
    def grad_req(self):
        """'write', 'add' or 'null' (always 'null' when not differentiable)."""
        return self._grad_req

    @grad_req.setter
    def grad_req(self, req):
        if req not in ("write", "add", "null"):
            raise InvalidArgumentError("Parameter '%s': grad_req must be one of 'write', 'add', or 'null', "
                                       "but got '%s'" % (self.name, req))
        if not self._differentiable:
            req = "null"
        if self._grad_req == req:
            return
        self._grad_req = req
        if req == "null" and self._grad is not None:
            self._grad = None
            self._data = [d.detach() for d in self._data]
        elif self._data is not None:
            self._init_grad()

    @property
    def dtype(self):
        """The element type (setting it casts the data, as ``cast``)."""
        return self._dtype

    @dtype.setter
    def dtype(self, dtype):
        self.cast(dtype)

    @property
    def shape(self):
        """The shape; 0 marks a dimension not known yet. Setting it fills the
        unknown dimensions; changing a known one is an error."""
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        if new_shape is not None:
            if isinstance(new_shape, (int, np.integer)):
                new_shape = (int(new_shape),)
            new_shape = tuple(int(d) for d in new_shape)
        if self._shape is None:
            self._shape = new_shape
            return
        if new_shape is None or len(self._shape) != len(new_shape) or \
                not all(j in (0, i) for i, j in zip(new_shape, self._shape)):
            raise ShapeError("Parameter '%s': expected shape %s is incompatible with given shape %s"
                             % (self.name, str(new_shape), str(self._shape)))
        self._shape = new_shape

    # -- data access -------------------------------------------------------------------------------
    def _check_and_get(self, arr_list, ctx):
        if arr_list is not None:
            if ctx is list:
                return arr_list
            if ctx is None:
                if len(arr_list) == 1:
                    return arr_list[0]
                ctx = current_context()
            ctx_list = self._ctx_map[ctx.device_typeid & 1]
            if ctx.device_id < len(ctx_list):
                idx = ctx_list[ctx.device_id]
                if idx is not None:
                    return arr_list[idx]
            raise ParameterError("Parameter '%s' was not initialized on context %s. It was only "
                                       "initialized on %s." % (self.name, str(ctx), str(self._ctx_list)))
        if self._deferred_init:
            raise DeferredInitializationError(
                "Parameter '%s' has not been initialized yet because initialization was deferred. Actual "
                "initialization happens during the first forward pass. Please pass one batch of data through "
                "the network before accessing Parameters. You can also avoid deferred initialization by "
                "specifying in_units, num_features, etc., for network layers." % self.name)
        raise ParameterError("Parameter '%s' has not been initialized. Call initialize() first (note that you "
                        "should initialize parameters and create Trainer with Block.collect_params() instead of "
                        "Block.params because the later does not include Parameters of nested child Blocks)"
                        % self.name)

    def data(self, ctx=None):
        """The copy on ``ctx`` (default: the only copy, else the current context's)."""
        return self._check_and_get(self._data, ctx)

    def list_data(self):
        """All copies, in the order of ``list_ctx()``."""
        return self._check_and_get(self._data, list)

    def grad(self, ctx=None):
        """The gradient on ``ctx``."""
        if self._data is not None and self._grad is None:
            raise ParameterError("Cannot get gradient array for Parameter '%s' because grad_req='null'" % self.name)
        return self._check_and_get(self._grad, ctx)

    def list_grad(self):
        """All gradient copies."""
        if self._data is not None and self._grad is None:
            raise ParameterError("Cannot get gradient array for Parameter '%s' because grad_req='null'" % self.name)
        return self._check_and_get(self._grad, list)

    def list_ctx(self):
        """The devices holding a copy (or that will once deferred init finishes)."""
        if self._data is None:
            if self._deferred_init:
                return self._deferred_init[1]
            raise ParameterError("Parameter '%s' has not been initialized" % self.name)
        return self._ctx_list

    # -- initialization ------------------------------------------------------------------------------
    def initialize(self, init=None, ctx=None, default_init=None, force_reinit=False):
        """Allocates and fills the data on each of ``ctx`` (default: the current
        context). ``init`` overrides this parameter's own ``init``, which
        overrides ``default_init`` (default ``weft.init.Uniform()``). With unknown
        dimensions the work is deferred (Note [Deferred initialization])."""
        if default_init is None:
            default_init = _default_init()
        if self._data is not None and not force_reinit:
            warnings.warn("Parameter '%s' is already initialized, ignoring. Set force_reinit=True to "
                          "re-initialize." % self.name, stacklevel=2)
            return
        self._data = self._grad = None
        ctx = _ctx_list(ctx)
        if init is None:
            init = default_init if self.init is None else self.init
        if not shape_is_known(self.shape):
            if self._allow_deferred_init:
                self._deferred_init = (init, ctx, default_init, None)
                return
            raise ShapeError("Cannot initialize Parameter '%s' because it has invalid shape: %s."
                             % (self.name, str(self.shape)))
        self._deferred_init = (init, ctx, default_init, None)
        self._finish_deferred_init()

    def _finish_deferred_init(self):
        """Allocates the data once the shape is known (Note [Deferred initialization])."""
        if not self._deferred_init:
            return
        init, ctx, default_init, data = self._deferred_init
        self._deferred_init = ()
        if not shape_is_known(self.shape):
            raise ShapeError("Cannot initialize Parameter '%s' because it has invalid shape: %s. Please "
                             "specify in_units, in_channels, etc for `Block`s." % (self.name, str(self.shape)))
        with autograd.pause():
            own = data is None  # an array made here may become the parameter itself
            if data is None:
                data = ndarray.zeros(self.shape, ctx=cpu(), dtype=self.dtype)
                initializer.create(default_init)(initializer.InitDesc(self.name, {"__init__": init}), data)
            self._init_impl(data, ctx, own)

    def _init_impl(self, data, ctx_list, own=False):
        self._ctx_list = list(ctx_list)
        self._ctx_map = [[], []]
        for i, ctx in enumerate(self._ctx_list):
            dev_list = self._ctx_map[ctx.device_typeid & 1]
            while len(dev_list) <= ctx.device_id:
                dev_list.append(None)
            dev_list[ctx.device_id] = i
        # An array made by the initialiser that is already on the first device
        # becomes that device's parameter: a copy would keep the temporary alive
        # (the engine is still initialising) while later arrays are allocated,
        # which added ~42 MiB to ResNet-18's training peak. User arrays are
        # always copied, never aliased.
        self._data = [data if own and i == 0 and ctx == data.context else data.copyto(ctx)
                      for i, ctx in enumerate(self._ctx_list)]
        self._init_grad()

    def _init_grad(self):
        if self.grad_req == "null":
            self._grad = None
            return
        for d in self._data:
            d.attach_grad(self.grad_req)
        self._grad = [d.grad for d in self._data]

    def _reduce(self):
        """The data on cpu (the mean of the copies when there are several)."""
        block = self.list_data()
        if len(block) > 1:
            return ndarray.add_n(*(w.copyto(cpu()) for w in block)) / len(block)
        return self.data().copyto(cpu())

    def _load_init(self, data, ctx, cast_dtype=False, dtype_source="current"):
        """Sets the data from a loaded array (checking shape and dtype)."""
        if cast_dtype and dtype_source not in ("current", "saved"):
            raise InvalidArgumentError("dtype_source must be 'current' or 'saved', got %r" % (dtype_source,))
        if self.shape:
            if len(self.shape) != len(data.shape) or \
                    any(s not in (0, d) for s, d in zip(self.shape, data.shape)):
                raise ShapeError("Failed loading Parameter '%s' from saved params: shape incompatible expected "
                                 "%s vs saved %s" % (self.name, str(self.shape), str(data.shape)))
            self.shape = tuple(d if s == 0 else s for s, d in zip(self.shape, data.shape))
        else:
            self._shape = tuple(data.shape)
        if self.dtype is not None and not _dtype_eq(self.dtype, data.dtype):
            if not cast_dtype:
                raise InvalidArgumentError(
                    "Failed loading Parameter '%s' from saved params: dtype incompatible expected %s vs saved %s. "
                    "Set cast_dtype=True to cast the dtype of saved params."
                    % (self.name, str(np.dtype(self.dtype)), str(data.dtype)))
            if dtype_source == "current":
                data = data.astype(self.dtype, copy=False)
            else:
                self._dtype = data.dtype.type
                self._var = None
        if isinstance(ctx, Context):
            ctx = [ctx]
        if self._data is None:
            if self._deferred_init:
                if ctx is not None and set(ctx) != set(self._deferred_init[1]):
                    raise InvalidArgumentError("Failed to load Parameter '%s' on %s because it was previous "
                                               "initialized on %s." % (self.name, str(ctx), str(self.list_ctx())))
                ctx = self._deferred_init[1]
            elif ctx is None:
                ctx = [cpu()]
            self._init_impl(data, ctx)
        else:
            if ctx is not None and set(ctx) != set(self.list_ctx()):
                raise InvalidArgumentError("Failed to load Parameter '%s' on %s because it was previous "
                                           "initialized on %s." % (self.name, str(ctx), str(self.list_ctx())))
            self.set_data(data)
        self._deferred_init = ()

    def set_data(self, data):
        """Copies ``data`` into every copy (before a deferred initialization
        finishes: replaces what the initializer would fill in)."""
        self.shape = data.shape
        if self._data is None:
            if not self._deferred_init:
                raise ParameterError("Parameter '%s' has not been initialized" % self.name)
            self._deferred_init = self._deferred_init[:3] + (data,)
            return
        trainer = self._trainer() if self._trainer is not None else None
        if trainer is not None and getattr(trainer, "_kv_initialized", False) and \
                getattr(trainer, "_update_on_kvstore", False):
            if self not in getattr(trainer, "_params_to_init", ()):
                trainer._reset_kvstore()
        for arr in self._check_and_get(self._data, list):
            arr[:] = data

    def _set_trainer(self, trainer):
        """Remembers (weakly) the Trainer updating this parameter (None to forget)."""
        self._trainer = weakref.ref(trainer) if trainer is not None else None

    def zero_grad(self):
        """Sets the gradient copies to 0."""
        if self._grad is None:
            return
        for g in self._grad:
            g[:] = 0

    def reset_ctx(self, ctx):
        """Moves the data (and gradient) to the devices ``ctx``."""
        ctx = _ctx_list(ctx)
        if self._data:
            data = self._reduce()
            with autograd.pause():
                self._init_impl(data, ctx)
        elif self._deferred_init:
            init, _, default_init, data = self._deferred_init
            self._deferred_init = (init, ctx, default_init, data)
        else:
            raise ParameterError("Cannot reset context for Parameter '%s' because it has not been initialized."
                            % self.name)

    def var(self):
        """The variable standing for this parameter in graphs (cached): carries
        __shape__, __dtype__, __lr_mult__, __wd_mult__, __init__ as MXNet's does."""
        if self._var is None:
            self._var = _symbol.var(self.name, shape=self.shape, dtype=self.dtype, lr_mult=self.lr_mult,
                                    wd_mult=self.wd_mult, init=self.init, stype=self._stype)
        return self._var

    def cast(self, dtype):
        """Converts data and gradient to ``dtype``."""
        self._dtype = dtype
        self._var = None
        if self._data is None:
            if self._deferred_init and self._deferred_init[3] is not None:
                init, ctx, default_init, data = self._deferred_init
                self._deferred_init = (init, ctx, default_init, data.astype(dtype))
            return
        with autograd.pause():
            self._data = [d.astype(dtype) for d in self._data]
            if self._grad is None:
                return
            self._grad = [g.astype(dtype) for g in self._grad]
            autograd.mark_variables(self._data, self._grad, self.grad_req)


class Constant(Parameter):
    """A parameter that keeps ``value`` and gets no gradient (``grad_req``
    is always 'null'). Its initializer is registered under
    ``Constant_<id>`` so a graph that names it in ``__init__`` can recreate it."""

    def __init__(self, name, value):
        if not isinstance(value, ndarray.NDArray):
            value = ndarray.array(value)
        self.value = value

        class _ConstInit(initializer.Initializer):  # pylint: disable=too-few-public-methods
            def _init_weight(self, _, arr):
                value.copyto(arr)

        init_name = "Constant_{}".format(id(self))
        _ConstInit.__name__ = init_name
        initializer.alias(init_name)(_ConstInit)
        super().__init__(name, grad_req="null", shape=value.shape, dtype=value.dtype, init=init_name)

    def __repr__(self):
        return "Constant %s (shape=%s, dtype=%s)" % (self.name, self.shape, self.dtype)

    @property
    def grad_req(self):
        return "null"

    @grad_req.setter
    def grad_req(self, req):
        if req != "null":
            warnings.warn('Constant parameter "%s" does not support grad_req other than "null", and new value '
                          '"%s" is ignored.' % (self.name, req), stacklevel=2)
        self._grad_req = "null"


class ParameterDict:
    """An ordered name -> Parameter dict whose ``get`` creates parameters named
    ``prefix + name``; with ``shared``, names found there are reused."""

    def __init__(self, prefix="", shared=None):
        self._prefix = prefix
        self._params = OrderedDict()
        self._shared = shared

    def __repr__(self):
        name = self._prefix + " " if self._prefix else ""
        content = "\n".join(_indent("  {0}".format(v), 2) for v in self.values())
        return "{name}(\n{content}\n)".format(name=name, content=content)

    def __getitem__(self, key):
        return self._params[key]

    def __iter__(self):
        return iter(self._params)

    def __len__(self):
        return len(self._params)

    def __contains__(self, key):
        return key in self._params

    def items(self):
        return self._params.items()

    def keys(self):
        return self._params.keys()

    def values(self):
        return self._params.values()

    @property
    def prefix(self):
        """The prefix put in front of names given to ``get``."""
        return self._prefix

    def _get_impl(self, name):
        if name in self._params:
            return self._params[name]
        if self._shared is not None and name in self._shared._params:
            self._params[name] = self._shared._params[name]
            return self._shared._params[name]
        return None

    def get(self, name, **kwargs):
        """The parameter ``prefix + name``, created with ``kwargs`` (Parameter's
        arguments) when missing; when it exists, the given attributes must agree
        with it (unknown shape dimensions are filled in)."""
        name = self.prefix + name
        param = self._get_impl(name)
        if param is None:
            param = Parameter(name, **kwargs)
            self._params[name] = param
            return param
        for k, v in kwargs.items():
            existing = getattr(param, k, None)
            if existing is None:
                setattr(param, k, v)
                continue
            if k == "shape" and v is not None:
                v = (int(v),) if isinstance(v, (int, np.integer)) else tuple(v)
                if len(v) == len(existing):
                    if all(a == b or a == 0 or b == 0 for a, b in zip(v, existing)):
                        param._shape = tuple(b if a == 0 else a for a, b in zip(v, existing))
                        continue
            elif k == "dtype" and v is not None and _dtype_eq(v, existing):
                continue
            if v is not None and v != existing:
                raise InvalidArgumentError(
                    "Cannot retrieve Parameter '%s' because desired attribute does not match with stored for "
                    "attribute '%s': desired '%s' vs stored '%s'." % (name, k, str(v), str(existing)))
        return param

    def update(self, other):
        """Adds the parameters of ``other`` (a name must not name two different parameters)."""
        for k, v in other.items():
            if k in self._params and self._params[k] is not v:
                raise InvalidArgumentError("Cannot update self with other because they have different "
                                           "Parameters with the same name '%s'" % k)
        for k, v in other.items():
            self._params[k] = v

    def get_constant(self, name, value=None):
        """The Constant ``prefix + name``, created from ``value`` when missing."""
        name = self.prefix + name
        param = self._get_impl(name)
        if param is None:
            if value is None:
                raise NotFoundError("No constant named '{}'. Please specify value if you want to create a new "
                                    "constant.".format(name))
            param = Constant(name, value)
            self._params[name] = param
        elif value is not None:
            if not isinstance(param, Constant):
                raise InvalidArgumentError("Parameter '{}' already exists but it is not a constant.".format(name))
            if isinstance(value, ndarray.NDArray):
                value = value.asnumpy()
            value = np.asarray(value)
            if param.shape != value.shape or not (param.value.asnumpy() == value).all():
                raise InvalidArgumentError("Constant '{}' already exists but it's value doesn't match new value"
                                           .format(name))
        return param

    def initialize(self, init=None, ctx=None, verbose=False, force_reinit=False):
        """Initializes every parameter (``init``, default ``weft.init.Uniform()``,
        is the default_init; a parameter's own ``init`` wins)."""
        if init is None:
            init = _default_init()
        if verbose:
            init.set_verbosity(verbose=verbose)
        for _, v in self.items():
            v.initialize(None, ctx, init, force_reinit=force_reinit)

    def zero_grad(self):
        """Sets every gradient to 0."""
        for p in self.values():
            p.zero_grad()

    def reset_ctx(self, ctx):
        """Moves every parameter to ``ctx``."""
        for p in self.values():
            p.reset_ctx(ctx)

    def list_ctx(self):
        """The devices any parameter lives on."""
        s = set()
        for p in self.values():
            s.update(p.list_ctx())
        return list(s)

    def setattr(self, name, value):
        """Sets attribute ``name`` (e.g. 'grad_req', 'lr_mult') of every parameter."""
        for p in self.values():
            setattr(p, name, value)

    def save(self, filename, strip_prefix=""):
        """Saves the data (full names, less ``strip_prefix``) as a .params file."""
        arg_dict = OrderedDict()
        for param in self.values():
            weight = param._reduce()
            if not param.name.startswith(strip_prefix):
                raise InvalidArgumentError(
                    "Prefix '%s' is to be striped before saving, but Parameter's name '%s' does not start with "
                    "'%s'. this may be due to your Block shares parameters from other Blocks or you forgot to use "
                    "'with name_scope()' when creating child blocks." % (strip_prefix, param.name, strip_prefix))
            arg_dict[param.name[len(strip_prefix):]] = weight
        ndarray.save(filename, arg_dict)

    def load(self, filename, ctx=None, allow_missing=False, ignore_extra=False, restore_prefix="",
             cast_dtype=False, dtype_source="current"):
        """Loads a .params file (names ``restore_prefix`` + key; ``arg:``/``aux:``
        prefixes are dropped)."""
        if restore_prefix:
            for name in self.keys():
                if not name.startswith(restore_prefix):
                    raise InvalidArgumentError("restore_prefix is '%s' but Parameters name '%s' does not start "
                                               "with '%s'" % (restore_prefix, name, restore_prefix))
        loaded = ndarray.load(filename)
        if isinstance(loaded, list):
            if loaded:
                raise InvalidArgumentError("'%s' holds a list of arrays without names; cannot load it into a "
                                           "ParameterDict" % filename)
            loaded = {}
        self.load_dict(loaded, ctx, allow_missing, ignore_extra, restore_prefix, filename, cast_dtype,
                       dtype_source)

    def load_dict(self, param_dict, ctx=None, allow_missing=False, ignore_extra=False, restore_prefix="",
                  filename=None, cast_dtype=False, dtype_source="current"):
        """Loads a dict name -> NDArray as ``load`` does."""
        lprefix = len(restore_prefix)
        where = "file '%s'" % filename if filename else "the dict"
        param_dict = OrderedDict(
            (restore_prefix + (k[4:] if k.startswith("arg:") or k.startswith("aux:") else k), v)
            for k, v in param_dict.items())
        if not allow_missing:
            for name in self.keys():
                if name not in param_dict:
                    raise InvalidArgumentError(
                        "Parameter '%s' is missing in %s, which contains parameters: %s. Please make sure source "
                        "and target networks have the same prefix (or set allow_missing=True)."
                        % (name[lprefix:], where, _brief_print_list(param_dict.keys())))
        for name, value in param_dict.items():
            if name not in self._params:
                if not ignore_extra:
                    raise InvalidArgumentError(
                        "Parameter '%s' loaded from %s is not present in ParameterDict, choices are: %s. Set "
                        "ignore_extra to True to ignore. Please make sure source and target networks have the "
                        "same prefix." % (name[lprefix:], where, _brief_print_list(self._params.keys())))
                continue
            self[name]._load_init(value, ctx, cast_dtype=cast_dtype, dtype_source=dtype_source)

