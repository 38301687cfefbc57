"""SymbolBlock: a Gluon block running a given graph (MXNet 1.x's
``gluon.SymbolBlock``), e.g. one written by ``HybridBlock.export`` in Weft or
MXNet and loaded with ``SymbolBlock.imports``."""
# pylint: disable=protected-access
import warnings
from collections import OrderedDict

import numpy as np

from .. import dtypes as _dt
from .. import symbol
from ..base import InvalidArgumentError, WeftError
from ..ndarray import NDArray
from ..symbol import Symbol
from .block import HybridBlock, _flatten, _regroup
from .parameter import ParameterDict

__all__ = ["SymbolBlock"]


def _infer_param_types(in_params, out_params, arg_params, aux_params, default_dtype=np.float32):
    """dtypes of the graph's arguments and auxiliary states, inferred from the
    inputs' ``__dtype__`` (float32 when unknown or when inference fails)."""
    given = {}
    for p in in_params:
        flag = p.attr("__dtype__")
        given[p.name] = np.dtype(_dt.FLAG_TO_NP[int(flag)]) if flag is not None else default_dtype
    arg_types = aux_types = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arg_types, _, aux_types = out_params.infer_type(**given)
    except WeftError:
        arg_types = aux_types = None
    if arg_types is None or len(arg_types) != len(arg_params) or any(t is None for t in arg_types):
        arg_types = [default_dtype] * len(arg_params)
    if aux_types is None or len(aux_types) != len(aux_params) or any(t is None for t in aux_types):
        aux_types = [default_dtype] * len(aux_params)
    return arg_types, aux_types


def _common_prefix(names):
    if not names:
        return ""
    prefix = names[0]
    for name in names:
        i = 0
        while i < len(prefix) and i < len(name) and prefix[i] == name[i]:
            i += 1
        prefix = prefix[:i]
    return prefix


class SymbolBlock(HybridBlock):
    """A block running a given graph (MXNet's ``gluon.SymbolBlock``).

    Parameters
    ----------
    outputs : Symbol or list of Symbol
        The outputs of the graph.
    inputs : Symbol or list of Symbol
        The input variables; every other variable becomes a parameter (shape
        inferred at the first call), auxiliary states with ``grad_req='null'``.
    params : ParameterDict
        Parameters to reuse (by full name).
    """

    @staticmethod
    def imports(symbol_file, input_names, param_file=None, ctx=None, allow_missing=False, ignore_extra=False):
        """A SymbolBlock of a ``-symbol.json`` file (Weft's or MXNet's export)
        with the parameters of ``param_file`` loaded onto ``ctx``."""
        sym = symbol.load(symbol_file)
        if isinstance(input_names, str):
            input_names = [input_names]
        if param_file is None:
            inputs = [symbol.var(i, dtype=np.float32) for i in input_names]
        else:
            inputs = [symbol.var(i) for i in input_names]
        ret = SymbolBlock(sym, inputs)
        if param_file is not None:
            ret.collect_params().load(param_file, ctx, allow_missing, ignore_extra, cast_dtype=True,
                                      dtype_source="saved")
        return ret

    def __repr__(self):
        sym = self._cached_graph[1]
        return "{name}(\n{block} : {nin} -> {nout}\n)".format(name=self.__class__.__name__, block=sym,
                                                               nin=len(self._cached_graph[0]),
                                                               nout=len(sym.list_outputs()))

    def __init__(self, outputs, inputs, params=None):
        super().__init__(prefix=None, params=None)
        self._prefix = ""
        self._params = ParameterDict("", params)
        if isinstance(inputs, Symbol) and len(inputs.list_outputs()) == 1:
            inputs = [inputs]
        if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
            outputs = outputs[0]
        syms, self._in_format = _flatten(inputs, "input")
        out, self._out_format = _flatten(outputs, "output")
        out = out[0] if len(out) == 1 else symbol.Group(out)
        input_names = set()
        for i in syms:
            if len(i.get_internals().list_outputs()) != 1:
                raise InvalidArgumentError("Input symbols must be variable, but %s is an output of operators"
                                           % str(i))
            input_names.add(i.name)
        arg_params = out.list_arguments()
        aux_params = out.list_auxiliary_states()
        arg_types, aux_types = _infer_param_types(syms, out, arg_params, aux_params)
        for i, arg in enumerate(arg_params):
            if arg not in input_names:
                self.params.get(arg, allow_deferred_init=True, dtype=arg_types[i])
        for i, aux in enumerate(aux_params):
            if aux not in input_names:
                self.params.get(aux, grad_req="null", allow_deferred_init=True, dtype=aux_types[i])
        self._cached_graph = syms, out
        len_prefix = len(_common_prefix(list(self._params.keys())))
        self._reg_params = OrderedDict((key[len_prefix:], val) for key, val in self._params.items())

    def forward(self, x, *args):
        if isinstance(x, NDArray):
            with x.context:
                return self._call_cached_op(x, *args)
        if not isinstance(x, Symbol):
            raise InvalidArgumentError("HybridBlock requires the first argument to forward be either Symbol or "
                                       "NDArray, but got %s" % type(x))
        flat, in_fmt = _flatten([x] + list(args), "input")
        if in_fmt != self._in_format:
            raise InvalidArgumentError("Invalid input format")
        ret = self._cached_graph[1](**{k.name: v for k, v in zip(self._cached_graph[0], flat)})
        return _regroup(list(ret), self._out_format)

    def _clear_cached_op(self):
        tmp = self._cached_graph
        super()._clear_cached_op()
        self._cached_graph = tmp

    def cast(self, dtype):
        self._clear_cached_op()
        super().cast(dtype)
        if np.dtype(dtype).name == "float16":
            # BatchNorm keeps float32 statistics and scale/shift.
            names = self._cached_graph[1].list_inputs()
            for node in names:
                for stat, sibs in (("running_var", ("running_mean", "gamma", "beta")),
                                   ("moving_var", ("moving_mean", "gamma", "beta"))):
                    if node.endswith(stat):
                        prefix = node[:-len(stat)]
                        group = [prefix + t for t in sibs]
                        if all(p in names for p in group):
                            for p in [node] + group:
                                if p in self.params:
                                    self.params[p].cast("float32")

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError
