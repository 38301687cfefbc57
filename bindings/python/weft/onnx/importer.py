"""ONNX -> Weft: import_model, import_to_gluon and get_model_metadata, as
MXNet 1.9.1's mx.contrib.onnx.

The driver loads and checks the model with the ``onnx`` package, runs ONNX's
shape inference (translations read static ranks and parameter shapes), and
walks the graph's nodes (ONNX stores them in topological order) handing each
to its translation (import_registry.py, imports/). Initializers become
parameters: the moving mean and variance of BatchNormalization auxiliary
states, the others arguments; constants only read at import time (Reshape
shapes, Clip bounds, ...) become no parameter at all.

Note [Constant folding on import]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Exporters (ours included) compute shapes at run time (Shape -> Slice ->
Concat -> Reshape) and weights from initializers (Transpose, Gather of gates).
A node whose inputs are all constants, or a Shape/Size of a tensor whose shape
ONNX inferred completely, is evaluated at import time by ONNX's own reference
implementation (onnx.reference), so Weft sees constants: static Reshape
targets, ready weights. A dynamic dimension stops this, and the operators
that needed the constant say so.

Note [Scalars on import]
~~~~~~~~~~~~~~~~~~~~~~~~
MXNet's operators never give a 0-d result: a full reduction, a Size, an
ArgMax of a vector give shape (1,) where ONNX gives (). The importer reshapes
every output ONNX infers 0-d to Weft's 0-d shape (reshape_like a 0-d zeros),
so a graph's scalar outputs and the broadcasting of scalars downstream are
ONNX's.
"""
import os
import re

import numpy as np

from .. import ndarray as nd
from .. import symbol as S
from ..gluon.symbol_block import SymbolBlock
from . import imports  # noqa: F401  (registers every import translation)
from ._deps import ReferenceEvaluator, checker, helper, numpy_helper, onnx, require, shape_inference
from .dim_values import materialize, track
from .import_registry import lookup_import

__all__ = ["import_model", "import_to_gluon", "get_model_metadata", "ImportContext"]

_FN = "weft.onnx.import_model"
MIN_IMPORT_OPSET = 7
MAX_FOLD_ELEMENTS = 2 ** 24  # per folded output (Note [Constant folding on import])
# Operators whose output can be far larger than their inputs.
_GROWING = {"Expand", "Tile", "ConstantOfShape", "Range", "Resize", "Upsample", "Pad", "OneHot",
            "EyeLike"}


def _load(model_file):
    if not isinstance(model_file, (str, os.PathLike)):
        raise TypeError("%s: model_file must be a path, not %s" % (_FN, type(model_file).__name__))
    if not os.path.isfile(model_file):
        raise ValueError("%s: model file %r does not exist" % (_FN, str(model_file)))
    model = onnx.load(os.fspath(model_file))
    checker.check_model(model)
    return model


def _dims(type_proto):
    """The static dims (None where dynamic), or None when the rank is unknown."""
    if not type_proto.tensor_type.HasField("shape"):
        return None
    shape = type_proto.tensor_type.shape
    # A negative dim_value (-1, written by some exporters) is a dynamic dim, as a dim_param is.
    return tuple(d.dim_value if d.HasField("dim_value") and d.dim_value >= 0 else None for d in shape.dim)


class ImportContext:
    """What a translation reads: input symbols, constant values, static shapes,
    attributes; and where it adds parameters."""

    def __init__(self, model):
        self.model = model
        versions = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
        self.opset = versions[0] if versions else MIN_IMPORT_OPSET
        if self.opset < MIN_IMPORT_OPSET:
            raise NotImplementedError("%s: opset %d is not supported (from %d)" % (_FN, self.opset,
                                                                                   MIN_IMPORT_OPSET))
        graph = model.graph
        self.consts = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
        self.shapes = {n: tuple(v.shape) for n, v in self.consts.items()}
        try:
            # data_prop: shapes computed by Shape/Slice/Concat chains are followed too.
            inferred = shape_inference.infer_shapes(model, data_prop=True).graph
            infos = list(inferred.value_info) + list(inferred.input) + list(inferred.output)
        except Exception:  # ONNX's inference is best effort; translations report what they miss
            infos = list(graph.input) + list(graph.output)
        self.dtypes = {n: v.dtype for n, v in self.consts.items()}
        self.dim_values = {}   # Note [Dynamic dims on import] (dim_values.py)
        self.dim_params = {}   # tensor -> its dims' ONNX dim_param names (None where not one)
        for vi in infos:
            if vi.type.tensor_type.HasField("shape"):
                dims = vi.type.tensor_type.shape.dim
                self.dim_params.setdefault(vi.name, tuple(d.dim_param or None for d in dims))
            if _dims(vi.type) is not None:
                self.shapes.setdefault(vi.name, _dims(vi.type))
            elem = vi.type.tensor_type.elem_type
            if elem:
                self.dtypes.setdefault(vi.name, np.dtype(helper.tensor_dtype_to_np_dtype(elem)))
        self.syms = {}
        self.params = {}       # parameter name -> numpy value (those read as symbols)
        self.aux = set()
        self.data_inputs = [i.name for i in graph.input if i.name not in self.consts]
        for name in self.data_inputs:
            self.syms[name] = S.var(name)

    def error(self, node, what):
        return NotImplementedError("%s: cannot import ONNX operator %s (node '%s'): %s"
                                   % (_FN, node.op_type, node.name or node.output[0], what))

    def attr(self, node, key, default=None):
        for a in node.attribute:
            if a.name == key:
                v = helper.get_attribute_value(a)
                if isinstance(v, bytes):
                    return v.decode()
                if isinstance(v, (list, tuple)):
                    return [x.decode() if isinstance(x, bytes) else x for x in v]
                return v
        return default

    def name(self, node):
        raw = node.name or node.output[0]
        return re.sub(r"[^0-9A-Za-z_.\-]", "_", raw)

    def shape_of(self, tensor):
        if tensor not in self.shapes and tensor in self.syms:
            # ONNX could not infer it (a shape computed at run time): Weft can, from the
            # graph inputs' static shapes, now that such computations are folded.
            given = {n: self.shapes[n] for n in self.data_inputs
                     if self.shapes.get(n) is not None and None not in self.shapes[n]}
            try:
                _, out, _ = self.syms[tensor].infer_shape_partial(**given)
                if out and out[0] is not None and all(d > 0 for d in out[0]):
                    self.shapes[tensor] = tuple(out[0])
            except Exception:  # leaves it unknown; the error below names the tensor
                pass
        if tensor not in self.shapes:
            raise NotImplementedError("%s: the shape of tensor '%s' is unknown (ONNX shape inference "
                                      "could not give it)" % (_FN, tensor))
        return self.shapes[tensor]

    def dtype_of(self, tensor):
        """The numpy dtype ONNX gives ``tensor``, or None when it is unknown."""
        return self.dtypes.get(tensor)

    def const_value(self, tensor):
        return self.consts.get(tensor)

    def symbol(self, tensor):
        if tensor not in self.syms and tensor in self.dim_values:
            self.syms[tensor] = materialize(self, tensor)
        if tensor not in self.syms:
            if tensor not in self.consts:
                raise ValueError("%s: tensor '%s' is read before it is computed" % (_FN, tensor))
            self.params[tensor] = self.consts[tensor]
            self.syms[tensor] = S.var(tensor, shape=self.consts[tensor].shape)
        return self.syms[tensor]

    def inputs(self, node):
        return [self.symbol(n) for n in node.input if n]

    def new_param(self, name, value):
        self.consts[name] = value
        self.shapes[name] = tuple(value.shape)
        return self.symbol(name)

    def mark_aux(self, *names):
        self.aux.update(names)


def _fold(ctx, node):
    """Evaluates ``node`` now when it can (Note [Constant folding on import])."""
    ins = [n for n in node.input if n]
    if node.op_type in ("Shape", "Size"):
        try:
            shape = ctx.shape_of(node.input[0])
        except NotImplementedError:
            return False  # then "no translation for Shape" names the node
        if any(d is None for d in shape) or node.attribute:
            return False
        value = np.array(shape if node.op_type == "Shape" else int(np.prod(shape)), dtype=np.int64)
        ctx.consts[node.output[0]] = value
        ctx.shapes[node.output[0]] = value.shape
        return True
    if not ins or not all(n in ctx.consts for n in ins) or node.op_type.startswith("Random"):
        return False
    # Only outputs of bounded size are computed here, so a hostile file cannot make an
    # Expand or Range allocate without limit: outputs ONNX inferred small, or (shape
    # chains ONNX could not follow) operators that do not grow small inputs much.
    for name in filter(None, node.output):
        shape = ctx.shapes.get(name)
        if shape is not None and None not in shape:
            if np.prod(shape, dtype=np.float64) > MAX_FOLD_ELEMENTS:
                return False
        elif node.op_type in _GROWING or any(ctx.consts[n].size > 1024 for n in ins):
            return False
    try:
        outs = ReferenceEvaluator(node, opsets={"": ctx.opset}).run(None, {n: ctx.consts[n] for n in ins})
    except Exception:  # onnx.reference lacks or mishandles some operators: Weft computes it at run time
        return False
    for name, value in zip(node.output, outs):
        if name:
            ctx.consts[name] = np.asarray(value)
            ctx.shapes[name] = tuple(np.shape(value))
    return True


def _build(model):
    ctx = ImportContext(model)
    for node in model.graph.node:
        if node.domain not in ("", "ai.onnx"):
            raise NotImplementedError("%s: operator %s of domain '%s' (node '%s') is not supported"
                                      % (_FN, node.op_type, node.domain, node.name))
        if node.op_type == "Constant":
            ctx.consts[node.output[0]] = numpy_helper.to_array(helper.get_attribute_value(node.attribute[0]))
            ctx.shapes[node.output[0]] = tuple(ctx.consts[node.output[0]].shape)
            continue
        if _fold(ctx, node) or track(ctx, node):
            continue
        fn = lookup_import(node.op_type)
        if fn is None:
            raise NotImplementedError("%s: no translation for ONNX operator %s (node '%s'); "
                                      "weft.onnx.get_import_support() lists those there are"
                                      % (_FN, node.op_type, node.name or node.output[0]))
        out = fn(ctx, node)
        outs = out if isinstance(out, list) else [out]
        for name, sym in zip(node.output, outs):
            if name:
                if ctx.shapes.get(name) == ():
                    sym = S.reshape_like(sym, S.zeros(shape=()))  # Note [Scalars on import]
                ctx.syms[name] = sym
    heads = [ctx.symbol(o.name) for o in model.graph.output]
    sym = heads[0] if len(heads) == 1 else S.Group(heads)
    # Constants a translation read as attributes (shapes, axes, K) are no parameters.
    used = set(sym.list_arguments()) | set(sym.list_auxiliary_states())
    arg = {k: nd.array(v, dtype=v.dtype) for k, v in ctx.params.items() if k not in ctx.aux and k in used}
    aux = {k: nd.array(v, dtype=v.dtype) for k, v in ctx.params.items() if k in ctx.aux and k in used}
    return sym, arg, aux, ctx.data_inputs


def import_model(model_file):
    """(sym, arg_params, aux_params) of the ONNX model at ``model_file``, as
    MXNet's ``mx.contrib.onnx.import_model``."""
    require(_FN)
    sym, arg, aux, _ = _build(_load(model_file))
    return sym, arg, aux


def import_to_gluon(model_file, ctx=None):
    """A gluon SymbolBlock running the ONNX model, its parameters loaded (on ``ctx``)."""
    require("weft.onnx.import_to_gluon")
    sym, arg, aux, inputs = _build(_load(model_file))
    net = SymbolBlock(sym, [S.var(n) for n in inputs])
    params = dict(arg)
    params.update(aux)
    net.collect_params().load_dict(params, ctx=ctx)
    return net


def get_model_metadata(model_file):
    """{'input_tensor_data': [(name, shape)], 'output_tensor_data': [(name, shape)]}
    of the model's data inputs and outputs (None for a dynamic dim)."""
    require("weft.onnx.get_model_metadata")
    model = _load(model_file)
    inits = {t.name for t in model.graph.initializer}
    return {"input_tensor_data": [(i.name, _dims(i.type)) for i in model.graph.input if i.name not in inits],
            "output_tensor_data": [(o.name, _dims(o.type)) for o in model.graph.output]}
