"""Blocks, the building units of Gluon models (MXNet 1.x's ``mxnet.gluon.block``).

``Block`` holds parameters and child blocks and runs ``forward`` imperatively.
``HybridBlock`` writes its computation once as ``hybrid_forward(F, x, ...)``,
where ``F`` is ``weft.nd`` when called with NDArrays and ``weft.sym`` when
traced with Symbols, so it can also run as one compiled graph
(Note [Hybridize]). ``SymbolBlock`` wraps an existing graph, e.g. one written
by ``HybridBlock.export`` in Weft or MXNet.

Note [Block names]
    Every block gets a prefix that prefixes its parameter names. A block made
    outside any ``name_scope`` is named by the thread's ``weft.name`` manager
    from its alias (the lower-cased class name): ``dense0_``, ``dense1_``. A
    block made inside ``parent.name_scope()`` counts per parent instead and is
    prefixed by the parent's prefix: ``hybridsequential0_dense0_``. Inside the
    scope the name manager is a ``weft.name.Prefix(parent prefix)`` too, so
    operator nodes traced there are named ``<prefix>fwd`` and so on.
    ``save_parameters`` uses structural names instead (the attribute or child
    index path: ``0.weight``, ``features.3.bias``), which do not depend on how
    many blocks were made before.

Note [Hybridize]
    ``hybridize()`` marks blocks active. The first call of an active block
    traces ``hybrid_forward`` with Symbols: one input is the variable ``data``,
    several are ``data0``, ``data1`` ...; parameters are their ``var()``. The
    outputs become one graph (``_cached_graph``) that ``weft.cached_op.CachedOp``
    compiles; later calls pass the NDArrays in ``graph.list_inputs()`` order
    (data inputs and parameter data, auxiliary states such as BatchNorm's
    running statistics included) and the CachedOp runs the whole graph,
    recorded for autograd like any operator. Deferred shapes are inferred from
    the same traced graph (``infer_shape``) at the first call, hybridized or
    not.
"""
# pylint: disable=protected-access,too-many-instance-attributes,too-many-arguments
import re
import threading
import warnings
from collections import OrderedDict

from .. import ndarray
from .. import name as _name
from .. import symbol
from ..base import InvalidArgumentError, ShapeError, WeftError
from ..cached_op import CachedOp
from ..ndarray import NDArray
from ..symbol import Symbol
from ..util import is_np_array
from . import _np_mode
from .block_hooks import BlockPersistenceMixin, OpHookMixin
from .parameter import DeferredInitializationError, Parameter, ParameterDict
from .utils import HookHandle, _brief_print_list, _indent

__all__ = ["Block", "HybridBlock", "SymbolBlock"]


class _BlockScope:
    """The scope ``with block.name_scope():`` opens: children made inside it
    are named after ``block`` (Note [Block names])."""

    _current = threading.local()

    def __init__(self, block):
        self._block = block
        self._counter = {}
        self._old_scope = None
        self._name_scope = None

    @staticmethod
    def current():
        return getattr(_BlockScope._current, "value", None)

    @staticmethod
    def create(prefix, params, hint):
        """(prefix, ParameterDict) for a new block with alias ``hint``."""
        current = _BlockScope.current()
        if current is None:
            if prefix is None:
                prefix = _name.current().get(None, hint) + "_"
            params = ParameterDict(prefix) if params is None else ParameterDict(params.prefix, params)
            return prefix, params
        if prefix is None:
            count = current._counter.get(hint, 0)
            prefix = "%s%d_" % (hint, count)
            current._counter[hint] = count + 1
        if params is None:
            parent = current._block.params
            params = ParameterDict(parent.prefix + prefix, parent._shared)
        else:
            params = ParameterDict(params.prefix, params)
        return current._block.prefix + prefix, params

    def __enter__(self):
        if self._block._empty_prefix:
            return self
        self._old_scope = _BlockScope.current()
        _BlockScope._current.value = self
        self._name_scope = _name.Prefix(self._block.prefix)
        self._name_scope.__enter__()
        return self

    def __exit__(self, ptype, value, trace):
        if self._block._empty_prefix:
            return
        self._name_scope.__exit__(ptype, value, trace)
        self._name_scope = None
        _BlockScope._current.value = self._old_scope


def _flatten(args, inout_str):
    """(flat list of NDArray/Symbol/None, format) for nested lists of them."""
    if isinstance(args, NDArray):
        return [args], 0
    if isinstance(args, Symbol):
        length = len(args.list_outputs())
        return [args], (length if length > 1 else 0)
    if args is None:
        return [None], -1
    if not isinstance(args, (list, tuple)):
        raise InvalidArgumentError("HybridBlock %s must be (nested) list of Symbol or NDArray, but got %s of type %s"
                                   % (inout_str, str(args), str(type(args))))
    flat, fmts = [], []
    for i in args:
        arg, fmt = _flatten(i, inout_str)
        flat.extend(arg)
        fmts.append(fmt)
    return flat, fmts


def _regroup(args, fmt):
    """Inverse of ``_flatten``: the nested structure of ``fmt`` over ``args``."""
    def merge(args, fmt):
        if isinstance(fmt, int):
            if fmt == 0:
                return args[0], args[1:]
            if fmt == -1:
                if args[0] is not None:
                    raise InvalidArgumentError("We do not support passing types that are not None when the initial "
                                               "HybridBlock has received NoneType and has been hybridized.")
                return None, args[1:]
            return list(args[:fmt]), args[fmt:]
        if not isinstance(args, (list, tuple)):
            raise InvalidArgumentError("When hybridized, the output of HybridBlock must be (nested) list of Symbol "
                                       "or NDArray, but got %s of type %s" % (args, type(args)))
        ret = []
        for i in fmt:
            res, args = merge(args, i)
            ret.append(res)
        return ret, args
    return merge(args, fmt)[0]


class Block(BlockPersistenceMixin, OpHookMixin):
    """Base class of all layers and models (MXNet's ``gluon.Block``).

    Subclasses create parameters and child blocks in ``__init__`` (inside
    ``with self.name_scope():``) and compute in ``forward``. Assigning a Block
    or Parameter to an attribute registers it.

    Parameters
    ----------
    prefix : str
        Prefix of this block's name and parameter names (Note [Block names]).
    params : ParameterDict
        Parameters to share (names found there are reused).
    """

    # summary() lists the layers a container runs, not the container: Sequential and
    # HybridSequential (nn/basic_layers.py, which sits above this file) set this.
    _summary_skips = False

    def __init__(self, prefix=None, params=None):
        self._empty_prefix = prefix == ""
        self._prefix, self._params = _BlockScope.create(prefix, params, self._alias())
        self._name = self._prefix[:-1] if self._prefix.endswith("_") else self._prefix
        self._scope = _BlockScope(self)
        self._children = OrderedDict()
        self._reg_params = OrderedDict()
        self._forward_hooks = OrderedDict()
        self._forward_pre_hooks = OrderedDict()

    def __repr__(self):
        modstr = "\n".join("  ({key}): {block}".format(key=key, block=_indent(repr(block), 2))
                           for key, block in self.__dict__.items() if isinstance(block, Block))
        return "{name}(\n{modstr}\n)".format(name=self.__class__.__name__, modstr=modstr)

    def __setattr__(self, name, value):
        """Registers Blocks as children and Parameters as this block's parameters."""
        if hasattr(self, name):
            existing = getattr(self, name)
            if isinstance(existing, (Parameter, Block)) and not isinstance(value, type(existing)):
                raise TypeError("Changing attribute type for {name} from {type1} to {type2} is not allowed."
                                .format(name=name, type1=type(existing), type2=type(value)))
        if isinstance(value, Block):
            self.register_child(value, name)
        elif isinstance(value, Parameter):
            if name in self.__dict__.get("_reg_params", {}):
                raise InvalidArgumentError("Overriding Parameter attribute %s is not allowed. If you want to share "
                                           "parameters between blocks, please set 'params' at Block construction "
                                           "instead." % name)
            self._reg_params[name] = value
        super().__setattr__(name, value)

    def _check_container_with_block(self):
        children = set(self._children.values())

        def unregistered(data):
            if isinstance(data, (list, tuple)):
                return any(unregistered(e) for e in data)
            if isinstance(data, dict):
                return any(unregistered(v) for v in data.values())
            return isinstance(data, Block) and data not in children

        for k, v in self.__dict__.items():
            if isinstance(v, (list, tuple, dict)) and not (k.startswith("__") or k == "_children"):
                if unregistered(v):
                    warnings.warn('"{name}" is an unregistered container with Blocks. Note that Blocks inside the '
                                  'list, tuple or dict will not be registered automatically. Make sure to register '
                                  'them using register_child() or switching to nn.Sequential/nn.HybridSequential '
                                  'instead.'.format(name=self.__class__.__name__ + "." + k), stacklevel=3)

    def _alias(self):
        return self.__class__.__name__.lower()

    @property
    def prefix(self):
        """Prefix of this block's parameter names (e.g. ``dense0_``)."""
        return self._prefix

    @property
    def name(self):
        """The prefix without its trailing underscore."""
        return self._name

    def name_scope(self):
        """A with-block in which new child blocks and traced operators are named
        after this block."""
        return self._scope

    @property
    def params(self):
        """This block's own ParameterDict (children's parameters not included)."""
        return self._params

    def collect_params(self, select=None):
        """A ParameterDict of this block's and all descendants' parameters;
        ``select`` is a regular expression the names must match (from the
        start), e.g. ``'.*weight|.*bias'``."""
        self._check_container_with_block()
        ret = ParameterDict(self._params.prefix)
        if not select:
            ret.update(self.params)
        else:
            pattern = re.compile(select)
            ret.update(OrderedDict((k, v) for k, v in self.params.items() if pattern.match(k)))
        for cld in self._children.values():
            ret.update(cld.collect_params(select=select))
        return ret

    def _collect_params_with_prefix(self, prefix=""):
        """{structural name: Parameter}: ``weight``, ``0.weight``, ``features.3.bias``."""
        if prefix:
            prefix += "."
        ret = OrderedDict((prefix + key, val) for key, val in self._reg_params.items())
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    def save_parameters(self, filename, deduplicate=False):
        """Saves the parameters under their structural names (a shared parameter
        is saved under every name, or only once with ``deduplicate``)."""
        params = self._collect_params_with_prefix()
        if deduplicate:
            reverse = OrderedDict()
            for k, v in params.items():
                reverse.setdefault(v, k)
            params = OrderedDict((k, v) for v, k in reverse.items())
        arg_dict = OrderedDict((key, val._reduce()) for key, val in params.items())
        ndarray.save(filename, arg_dict)

    def load_parameters(self, filename, ctx=None, allow_missing=False, ignore_extra=False, cast_dtype=False,
                        dtype_source="current"):
        """Loads parameters saved by ``save_parameters`` (or, for files without
        structural names, by ``collect_params().save(strip_prefix=prefix)``)."""
        loaded = ndarray.load(filename)
        if isinstance(loaded, list):
            if loaded:
                raise InvalidArgumentError("'%s' holds a list of arrays without names; it was not written by "
                                           "save_parameters" % filename)
            loaded = {}
        params = self._collect_params_with_prefix()
        if not loaded and not params:
            return
        if not any("." in k for k in loaded):
            # Files of save_params / ParameterDict.save(strip_prefix=self.prefix).
            del loaded
            self.collect_params().load(filename, ctx, allow_missing, ignore_extra, self.prefix,
                                       cast_dtype=cast_dtype, dtype_source=dtype_source)
            return
        if not allow_missing:
            names_of = {}
            for k, v in params.items():
                names_of.setdefault(v, []).append(k)
            for name, param in params.items():
                if not any(p in loaded for p in names_of[param]):
                    raise InvalidArgumentError(
                        "Parameter '%s' is missing in file '%s', which contains parameters: %s. Set "
                        "allow_missing=True to ignore missing parameters."
                        % (name, filename, _brief_print_list(loaded.keys())))
        for name in loaded:
            if not ignore_extra and name not in params:
                raise InvalidArgumentError(
                    "Parameter '%s' loaded from file '%s' is not present in ParameterDict, which contains "
                    "parameters %s. Set ignore_extra=True to ignore." % (name, filename, _brief_print_list(params)))
            if name in params:
                params[name]._load_init(loaded[name], ctx, cast_dtype=cast_dtype, dtype_source=dtype_source)

    def save_params(self, filename):
        """Deprecated (MXNet < 1.3): saves under full names less this block's prefix."""
        warnings.warn("save_params is deprecated. Please use save_parameters. Note that if you want load from "
                      "SymbolBlock later, please use export instead.", DeprecationWarning, stacklevel=2)
        self.collect_params().save(filename, strip_prefix=self.prefix)

    def load_params(self, filename, ctx=None, allow_missing=False, ignore_extra=False):
        """Deprecated alias of ``load_parameters``."""
        warnings.warn("load_params is deprecated. Please use load_parameters.", DeprecationWarning, stacklevel=2)
        self.load_parameters(filename, ctx, allow_missing, ignore_extra)

    def register_child(self, block, name=None):
        """Registers ``block`` as a child (under ``name``, default its index)."""
        if name is None:
            name = str(len(self._children))
        self._children[name] = block

    def register_forward_pre_hook(self, hook):
        """Calls ``hook(block, inputs)`` before each forward; returns a HookHandle."""
        handle = HookHandle()
        handle.attach(self._forward_pre_hooks, hook)
        return handle

    def register_forward_hook(self, hook):
        """Calls ``hook(block, inputs, outputs)`` after each forward; returns a HookHandle."""
        handle = HookHandle()
        handle.attach(self._forward_hooks, hook)
        return handle

    def apply(self, fn):
        """Calls ``fn(block)`` on every descendant, then on this block; returns self."""
        for cld in self._children.values():
            cld.apply(fn)
        fn(self)
        return self

    def initialize(self, init=None, ctx=None, verbose=False, force_reinit=False):
        """Initializes all parameters (``collect_params().initialize(...)``;
        ``init`` defaults to ``weft.init.Uniform()``)."""
        self.collect_params().initialize(init, ctx, verbose, force_reinit)

    def hybridize(self, active=True, **kwargs):
        """Hybridizes the HybridBlock descendants (a plain Block stays imperative)."""
        for cld in self._children.values():
            cld.hybridize(active, **kwargs)

    def cast(self, dtype):
        """Casts all parameters to ``dtype``."""
        for child in self._children.values():
            child.cast(dtype)
        for _, param in self.params.items():
            param.cast(dtype)

    def __call__(self, *args, **kwargs):
        for hook in self._forward_pre_hooks.values():
            hook(self, args)
        np_mode = is_np_array()
        if not np_mode:
            if _np_mode.is_legacy_body(self):
                _np_mode.check_no_np(args, self)
            out = self.forward(*args, **kwargs)
        elif _np_mode.is_legacy_body(self):  # Note [Gluon in NumPy mode] in _np_mode.py
            out = _np_mode.as_np(self.forward(*_np_mode.as_nd(args), **_np_mode.as_nd(kwargs)))
        else:
            out = self.forward(*args, **kwargs)
        for hook in self._forward_hooks.values():
            hook(self, args, out)
        if np_mode:
            _np_mode.check_all_np(out, self)
        return out

    def forward(self, *args):
        """The computation; override it."""
        raise NotImplementedError

    def summary(self, *inputs):
        """Prints each layer's output shape and parameter count for ``inputs``
        (runs one forward; the block must not be hybridized)."""
        summary = OrderedDict()
        seen = set()
        hooks = []

        def shape_str(args):
            flat, fmt = _flatten(args, "output") if not isinstance(args, NDArray) else ([args], 0)
            shapes = _regroup([x.shape if isinstance(x, NDArray) else x for x in flat], fmt)
            return str(shapes)[1:-1] if isinstance(shapes, list) else str(shapes)

        def add_hook(block):
            if isinstance(block, HybridBlock) and block._active:
                raise WeftError('"{}" must not be hybridized to print summary.'.format(block.name))

            def hook(block, _, outputs):
                if any(isinstance(o, Symbol) for o in _flatten(outputs, "output")[0]):
                    return  # traced for deferred shape inference, not a real call
                key = "%s-%i" % (block.__class__.__name__, len(summary))
                n_params = trainable = shared = 0
                for p in block._reg_params.values():
                    size = p.data().size
                    n_params += size
                    trainable += 0 if p.grad_req == "null" else size
                    if p in seen:
                        shared += size
                    seen.add(p)
                summary[key] = dict(output_shape=shape_str(outputs), n_params=n_params, trainable=trainable,
                                    shared=shared)

            if not block._summary_skips:
                hooks.append(block.register_forward_hook(hook))

        summary["Input"] = dict(output_shape=shape_str(list(inputs) if len(inputs) > 1 else inputs[0]),
                                n_params=0, trainable=0, shared=0)
        try:
            self.apply(add_hook)
            self(*inputs)
            line = "{:>20}  {:>42} {:>15}"
            print("-" * 80)
            print(line.format("Layer (type)", "Output Shape", "Param #"))
            print("=" * 80)
            total = trainable = shared = 0
            for layer, row in summary.items():
                print(line.format(layer, str(row["output_shape"]), row["n_params"]))
                total += row["n_params"]
                trainable += row["trainable"]
                shared += row["shared"]
            print("=" * 80)
            print("Parameters in forward computation graph, duplicate included")
            print("   Total params: %d" % total)
            print("   Trainable params: %d" % trainable)
            print("   Non-trainable params: %d" % (total - trainable))
            print("Shared params in forward computation graph: %d" % shared)
            print("Unique parameters in model: %d" % (total - shared))
            print("-" * 80)
        finally:
            for h in hooks:
                h.detach()


def _flag_value(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


def _input_kind(args):
    """(has_symbol, has_ndarray, contexts of the NDArrays, first context)."""
    flat, _ = _flatten(list(args), "input")
    has_sym = any(isinstance(a, Symbol) for a in flat)
    nds = [a for a in flat if isinstance(a, NDArray)]
    ctxs = {a.context for a in nds}
    return has_sym, bool(nds), ctxs, (nds[0].context if nds else None)


class HybridBlock(Block):
    """A Block that can run imperatively or as a compiled graph.

    Subclasses implement ``hybrid_forward(F, x, *args, **params)``: ``F`` is
    ``weft.nd`` or ``weft.sym``, and each registered parameter arrives by its
    attribute name (``weight=...``). ``hybridize()`` switches to the graph
    (Note [Hybridize]); children must be HybridBlocks too.
    """

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._cached_graph = ()
        self._cached_op = None
        self._cached_op_args = []
        self._out_format = None
        self._in_format = None
        self._active = False
        self._flags = []

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if isinstance(value, HybridBlock):
            self._clear_cached_op()

    def register_child(self, block, name=None):
        if not isinstance(block, HybridBlock):
            raise InvalidArgumentError(
                "Children of HybridBlock must also be HybridBlock, but %s has type %s. If you are using "
                "Sequential, please try HybridSequential instead." % (str(block), str(type(block))))
        super().register_child(block, name)
        self._clear_cached_op()

    def _get_graph(self, *args):
        """(input variables, output symbol) of ``hybrid_forward`` traced with Symbols (cached)."""
        if not self._cached_graph:
            flat_args, self._in_format = _flatten(args, "input")
            real = sum(a is not None for a in flat_args)
            if real == 0:
                raise InvalidArgumentError("There must at least one NDArray or Symbol in the input of "
                                           "HybridBlock %s" % self.name)
            flat_inputs, sym_inputs = [], []
            cnt = 0
            for a in flat_args:
                if a is None:
                    flat_inputs.append(None)
                    continue
                v = symbol.var("data%d" % cnt if real > 1 else "data")
                cnt += 1
                flat_inputs.append(v)
                sym_inputs.append(v)
            grouped = _regroup(flat_inputs, self._in_format)
            params = {k: p.var() for k, p in self._reg_params.items()}
            # NumPy mode: a user hybrid_forward traces with _Symbols, weft's with legacy Symbols, and the
            # graph is a _Symbol, written with MXNet's NumPy-mode names (Note [Gluon in NumPy mode]).
            np_mode = is_np_array()
            np_user = np_mode and not _np_mode.is_legacy_hybrid_forward(self)
            if np_user:
                grouped, params = _np_mode.as_np(grouped), {k: _np_mode.as_np(v) for k, v in params.items()}
            with self.name_scope():
                out = self.hybrid_forward(symbol, *grouped, **params)
            if np_user:
                _np_mode.check_all_np(out, self)
            out, self._out_format = _flatten(out, "output")
            for o in out:
                if not isinstance(o, Symbol):
                    raise InvalidArgumentError("HybridBlock %s: hybrid_forward traced with Symbols returned %s; "
                                               "outputs must be Symbols" % (self.name, type(o).__name__))
            graph = out[0] if len(out) == 1 else symbol.Group(out)
            self._cached_graph = sym_inputs, (_np_mode.as_np(graph) if np_mode else graph)
        return self._cached_graph

    def _build_cache(self, *args):
        data, out = self._get_graph(*args)
        data_names = OrderedDict((d.name, i) for i, d in enumerate(data))
        params = self.collect_params()
        input_names = out.list_inputs()
        expected = set(input_names)
        for name in expected:
            if name not in params.keys() and name not in data_names:
                raise InvalidArgumentError("Unknown input to HybridBlock: %s" % name)
        unused = ["%d-th" % i for name, i in data_names.items() if name not in expected]
        if unused:
            warnings.warn("The %s input to HybridBlock is not used by any computation. Is this intended?"
                          % ", ".join(unused), stacklevel=4)
        unused = [name for name in params.keys() if name not in expected]
        if unused:
            warnings.warn("Parameter %s is not used by any computation. Is this intended?" % ", ".join(unused),
                          stacklevel=4)
        self._cached_op_args = [(True, data_names[name]) if name in data_names else (False, params[name])
                                for name in input_names]
        self._cached_op = self._make_cached_op(out, [(k, _flag_value(v)) for k, v in self._flags])

    def _deferred_infer_shape(self, *args):
        try:
            self.infer_shape(*args)
        except Exception as e:  # pylint: disable=broad-except
            raise ShapeError("Deferred initialization failed because shape cannot be inferred. {}".format(e)) \
                from e

    def _call_cached_op(self, *args):
        if self._cached_op is None:
            self._build_cache(*args)
        flat, fmt = _flatten(args, "input")
        if fmt != self._in_format:
            raise InvalidArgumentError("The argument structure of HybridBlock does not match the cached version. "
                                       "Stored format = {}, input format = {}".format(self._in_format, fmt))
        flat = [a for a in flat if a is not None]
        try:
            cargs = [flat[i] if is_arg else i._data_as(None, False) for is_arg, i in self._cached_op_args]
        except DeferredInitializationError:
            self._deferred_infer_shape(*args)
            cargs = []
            for is_arg, i in self._cached_op_args:
                if is_arg:
                    cargs.append(flat[i])
                else:
                    i._finish_deferred_init()
                    cargs.append(i._data_as(None, False))
        out = self._cached_op(*cargs)
        if isinstance(out, NDArray):
            out = [out]
        if is_np_array():  # the compiled graph's outputs are legacy arrays (Note [Gluon in NumPy mode])
            out = _np_mode.as_np(out)
        return _regroup(out, self._out_format)

    def _clear_cached_op(self):
        self._cached_graph = ()
        self._cached_op = None

    def hybridize(self, active=True, backend=None, backend_opts=None, clear=True, partition_if_dynamic=False,
                  static_alloc=False, static_shape=False, inline_limit=2, forward_bulk_size=None,
                  backward_bulk_size=None, inline_recording=False, **kwargs):
        """Runs this block and its descendants as one compiled graph from the
        next call on (Note [Hybridize]), with MXNet 1.9.1's signature and flags:
        static_alloc, static_shape, inline_limit, forward_bulk_size,
        backward_bulk_size go to the CachedOp (Weft's executor always plans
        memory statically; the bulk sizes and inline_limit are checked and
        change no result). ``inline_recording=True`` (Weft's) records op by op
        under autograd, for second-order gradients through random ops. MXNet
        hands other keywords to a partitioning backend; Weft has none, so a
        backend or an unknown keyword raises naming it."""
        if backend is not None or backend_opts:
            raise InvalidArgumentError("hybridize: backend %r: backend partitioning is not supported" % (backend,))
        if kwargs:
            raise InvalidArgumentError(
                "hybridize: unknown flag %s (known: static_alloc, static_shape, inline_limit, forward_bulk_size, "
                "backward_bulk_size, inline_recording; MXNet passes other keywords to a partitioning backend, "
                "which Weft does not have)" % ", ".join("'%s'" % k for k in sorted(kwargs)))
        for name, value in (("inline_limit", inline_limit), ("forward_bulk_size", forward_bulk_size),
                            ("backward_bulk_size", backward_bulk_size)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise InvalidArgumentError("hybridize: %s must be an int >= 0, got %r" % (name, value))
        self._active = active
        self._flags = [("static_alloc", static_alloc), ("static_shape", static_shape),
                       ("inline_limit", inline_limit)]
        if forward_bulk_size is not None:
            self._flags.append(("forward_bulk_size", forward_bulk_size))
        if backward_bulk_size is not None:
            self._flags.append(("backward_bulk_size", backward_bulk_size))
        if inline_recording:
            self._flags.append(("inline_recording", True))
        if clear:
            self._clear_cached_op()
        if active and (self._forward_hooks or self._forward_pre_hooks):
            warnings.warn('"{block}" is being hybridized while still having forward hook/pre-hook. If "{block}" '
                          'is a child of HybridBlock, the hooks will not take effect.'.format(block=self),
                          stacklevel=2)
        super().hybridize(active, static_alloc=static_alloc, static_shape=static_shape, inline_limit=inline_limit,
                          forward_bulk_size=forward_bulk_size, backward_bulk_size=backward_bulk_size,
                          inline_recording=inline_recording)

    def cast(self, dtype):
        self._clear_cached_op()
        super().cast(dtype)

    def _infer_attrs(self, infer_fn, attr, *args):
        inputs, out = self._get_graph(*args)
        flat, _ = _flatten(args, "input")
        flat = [a for a in flat if a is not None]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            arg_attrs, _, aux_attrs = getattr(out, infer_fn)(
                **{i.name: getattr(j, attr) for i, j in zip(inputs, flat)})
        if arg_attrs is None:
            raise ShapeError(str(w[0].message) if w else "%s failed" % infer_fn)
        sdict = dict(zip(out.list_arguments(), arg_attrs))
        sdict.update(zip(out.list_auxiliary_states(), aux_attrs))
        for p in self.collect_params().values():
            if p.name in sdict:
                setattr(p, attr, sdict[p.name])

    def infer_shape(self, *args):
        """Fills the unknown parameter dimensions from the input arrays' shapes."""
        self._infer_attrs("infer_shape", "shape", *args)

    def infer_type(self, *args):
        """Sets the parameter dtypes from the input arrays' dtypes."""
        self._infer_attrs("infer_type", "dtype", *args)

    def export(self, path, epoch=0, remove_amp_cast=True):
        """Writes ``path-symbol.json`` (the traced graph) and ``path-%04d.params``
        (``arg:<name>`` / ``aux:<name>`` arrays) as MXNet's export does; the
        block must have run once after ``hybridize()``. Returns
        (symbol, params file name)."""
        if not self._cached_graph:
            raise WeftError("Please first call block.hybridize() and then run forward with this block at least "
                            "once before calling export.")
        sym = self._cached_graph[1]
        sym.save("%s-symbol.json" % path, remove_amp_cast=remove_amp_cast)
        arg_names = set(sym.list_arguments())
        aux_names = set(sym.list_auxiliary_states())
        arg_dict = OrderedDict()
        for name, param in self.collect_params().items():
            if name in arg_names:
                arg_dict["arg:%s" % name] = param._reduce()
            elif name in aux_names:
                arg_dict["aux:%s" % name] = param._reduce()
        params_filename = "%s-%04d.params" % (path, epoch)
        ndarray.save(params_filename, arg_dict)
        return sym, params_filename

    def forward(self, x, *args):
        """Runs ``hybrid_forward`` with weft.nd (or the compiled graph when
        hybridized) for NDArrays, or composes a graph for Symbols."""
        has_sym, has_nd, ctxs, ctx = _input_kind([x] + list(args))
        if has_sym and has_nd:
            raise InvalidArgumentError("In HybridBlock, we do not support mixed NDArrays and Symbols types for the "
                                       "input. Please check the type of the args.")
        if not has_sym and not has_nd:
            raise InvalidArgumentError("In HybridBlock, there must be one NDArray or one Symbol in the input. "
                                       "Please check the type of the args.")
        if has_nd:
            if self._active:
                if len(ctxs) > 1:
                    raise InvalidArgumentError("Find multiple contexts in the input, After hybridized, the "
                                               "HybridBlock only supports one input context. You can print the "
                                               "ele.ctx in the input arguments to inspect their contexts. Find all "
                                               "contexts = {}".format(ctxs))
                with ctx:
                    return self._call_cached_op(x, *args)
            # weft's hybrid_forward gets legacy arrays, parameters included, and its outputs come back
            # as np arrays in NumPy mode, also under a user's forward calling super().forward; user
            # code gets np arrays (Note [Gluon in NumPy mode] in _np_mode.py).
            np_mode = is_np_array()
            legacy = np_mode and _np_mode.is_legacy_hybrid_forward(self)
            np_params = np_mode and not legacy
            try:
                params = {k: v._data_as(ctx, np_params) for k, v in self._reg_params.items()}
            except DeferredInitializationError:
                self._deferred_infer_shape(x, *args)
                for v in self.params.values():
                    v._finish_deferred_init()
                params = {k: v._data_as(ctx, np_params) for k, v in self._reg_params.items()}
            if legacy:
                return _np_mode.as_np(self.hybrid_forward(ndarray, *_np_mode.as_nd((x,) + args), **params))
            return self.hybrid_forward(ndarray, x, *args, **params)
        params = {k: v.var() for k, v in self._reg_params.items()}
        # Symbols in NumPy mode: the same rule as the arrays above (Note [Gluon in NumPy mode]).
        np_mode = is_np_array()
        with self.name_scope():
            if np_mode and _np_mode.is_legacy_hybrid_forward(self):
                return _np_mode.as_np(self.hybrid_forward(symbol, *_np_mode.as_nd((x,) + args), **params))
            if np_mode:
                x, args = _np_mode.as_np(x), _np_mode.as_np(args)
                params = {k: _np_mode.as_np(v) for k, v in params.items()}
            return self.hybrid_forward(symbol, x, *args, **params)

    def hybrid_forward(self, F, x, *args, **kwargs):
        """The computation, with ``F`` = weft.nd or weft.sym; override it."""
        raise NotImplementedError

