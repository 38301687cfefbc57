"""weft.onnx.export_model: a Weft/MXNet symbol and its parameters -> an ONNX file.

The driver: it loads the symbol and parameters (objects or MXNet-format files),
infers every node's shapes and dtypes with Weft, walks the symbol JSON's nodes
in their (topological) order, hands each operator node to its translation
(registry.py, translations/), and checks and saves the model with the ``onnx``
package.
"""
import json
import logging
import os
import tempfile
import warnings

import numpy as np

from .. import ndarray as nd
from .. import symbol as sym_mod
from ..gluon.block import HybridBlock
from . import translations  # noqa: F401  (registers every translation)
from ._deps import checker, helper, onnx, require, newest_opset, shape_inference
from .graph_builder import GraphBuilder
from .mx_node import MXNode
from .registry import DEFAULT_OPSET, MIN_OPSET, lookup

__all__ = ["export_model"]

_FN = "weft.onnx.export_model"

# Loss heads whose second input is a training label: the label is no graph input
# of the exported (inference) model, as in MXNet's exporter.
_LABEL_CONSUMERS = {"SoftmaxOutput", "LinearRegressionOutput", "LogisticRegressionOutput",
                    "MAERegressionOutput", "SVMOutput"}
_TWO_GB = 2 ** 31


def _load(sym, params):
    """(Symbol, {name: numpy array}) from objects or file paths (Note [Export inputs])."""
    if isinstance(sym, HybridBlock):
        # Note [Export inputs]: a Gluon block goes through its own export, exactly what
        # a user would do by hand (block.export then export_model on the two files).
        with tempfile.TemporaryDirectory() as tmp:
            prefix = os.path.join(tmp, "model")
            try:
                sym.export(prefix)
            except Exception as err:
                raise ValueError("%s: sym is a Gluon HybridBlock that cannot be exported (%s); "
                                 "hybridize it and run it forward once first" % (_FN, err)) from err
            return _load(prefix + "-symbol.json", prefix + "-0000.params")
    if isinstance(sym, (str, os.PathLike)):
        if not os.path.isfile(sym):
            raise ValueError("%s: sym file %r does not exist" % (_FN, str(sym)))
        sym = sym_mod.load(str(sym))
    if not isinstance(sym, sym_mod.Symbol):
        raise TypeError("%s: sym must be a Symbol, a HybridBlock or the path of a -symbol.json "
                        "file, not %s" % (_FN, type(sym).__name__))
    if isinstance(params, (str, os.PathLike)):
        if not os.path.isfile(params):
            raise ValueError("%s: params file %r does not exist" % (_FN, str(params)))
        params = nd.load(str(params))
    if isinstance(params, (list, tuple)):
        if len(params) != 2 or not all(isinstance(p, dict) for p in params):
            raise TypeError("%s: params given as a list must be [arg_params, aux_params]" % _FN)
        merged = dict(params[0])
        merged.update(params[1])
        params = merged
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise TypeError("%s: params must be a dict, [arg_params, aux_params] or the path of a "
                        ".params file, not %s" % (_FN, type(params).__name__))
    out = {}
    for name, value in params.items():
        if name.startswith(("arg:", "aux:")):
            name = name[4:]
        out[name] = value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)
    return sym, out


def _label_inputs(nodes):
    labels = set()
    for node in nodes:
        if node["op"] in _LABEL_CONSUMERS:
            for nid, _, _ in node["inputs"][1:]:
                labels.add(nid)
    # A label also fed to something else is a real input.
    for node in nodes:
        if node["op"] not in _LABEL_CONSUMERS:
            for nid, _, _ in node["inputs"]:
                labels.discard(nid)
    return labels


def _normalize_inputs(in_shapes, in_types, n_inputs, input_names):
    if in_shapes is None:
        raise ValueError("%s: in_shapes is required: one shape per data input %s"
                         % (_FN, input_names))
    if isinstance(in_shapes, tuple) and all(isinstance(d, (int, np.integer)) for d in in_shapes):
        in_shapes = [in_shapes]
    in_shapes = [tuple(int(d) for d in s) for s in in_shapes]
    if not isinstance(in_types, (list, tuple)):
        in_types = [in_types] * len(in_shapes)
    if len(in_types) != len(in_shapes):
        raise ValueError("%s: in_types has %d entries but in_shapes has %d"
                         % (_FN, len(in_types), len(in_shapes)))
    if len(in_shapes) != n_inputs:
        raise ValueError("%s: in_shapes has %d shapes but the model has %d data inputs %s"
                         % (_FN, len(in_shapes), n_inputs, input_names))
    try:
        in_types = [np.dtype(t) for t in in_types]
    except TypeError as err:
        raise TypeError("%s: in_types: %s" % (_FN, err)) from err
    return in_shapes, in_types


def _opset(opset_version):
    newest = newest_opset()
    if opset_version is None:
        return DEFAULT_OPSET
    if not isinstance(opset_version, (int, np.integer)) or not MIN_OPSET <= opset_version <= newest:
        raise ValueError("%s: opset_version must be an int in [%d, %d] (the newest the installed "
                         "onnx package knows), not %r" % (_FN, MIN_OPSET, newest, opset_version))
    return int(opset_version)


def _ir_version(opset):
    """The oldest IR version that carries ``opset``, so older runtimes load the model."""
    return helper.find_min_ir_version_for([helper.make_opsetid("", opset)])


def _value_info(name, np_dtype, shape):
    return helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(np.dtype(np_dtype)),
                                         shape)


def _build_graph(sym, params, in_shapes, in_types, opset, dynamic, dynamic_input_shapes):
    graph = json.loads(sym.tojson())
    nodes, row_ptr, heads = graph["nodes"], graph["node_row_ptr"], graph["heads"]
    labels = _label_inputs(nodes)
    # Variables of one name are one input (MXNet's list_arguments has it once).
    data_ids, seen = [], set()
    for i, n in enumerate(nodes):
        if n["op"] == "null" and n["name"] not in params and i not in labels and n["name"] not in seen:
            seen.add(n["name"])
            data_ids.append(i)
    data_names = [nodes[i]["name"] for i in data_ids]
    in_shapes, in_types = _normalize_inputs(in_shapes, in_types, len(data_ids), data_names)

    internals = sym.get_internals()
    given = dict(zip(data_names, in_shapes))
    given.update({n: v.shape for n, v in params.items()})
    try:
        _, shapes, _ = internals.infer_shape_partial(**given)
        types = {n: v.dtype for n, v in params.items()}
        types.update(zip(data_names, in_types))
        _, dtypes, _ = internals.infer_type(**types)
        if shapes is None or dtypes is None or any(d is None for d in dtypes):
            raise ValueError("some shapes or dtypes stay unknown")
    except Exception as err:
        raise ValueError("%s: Weft cannot infer the model's shapes for in_shapes=%s: %s"
                         % (_FN, in_shapes, err)) from err

    b = GraphBuilder(opset, dynamic_spatial=bool(dynamic) and any(
        d is None or isinstance(d, str) for shape in (dynamic_input_shapes or [[None, None]]) for d in shape[1:]))
    used = {(nid, idx) for n in nodes for nid, idx, _ in n["inputs"]}
    used |= {(nid, idx) for nid, idx, _ in heads}
    names = {}  # (nid, idx) -> ONNX tensor name
    graph_inputs = []
    if dynamic:
        if dynamic_input_shapes is None:
            dynamic_input_shapes = [[None] * len(s) for s in in_shapes]
        if len(dynamic_input_shapes) != len(in_shapes):
            raise ValueError("%s: dynamic_input_shapes has %d shapes but there are %d inputs"
                             % (_FN, len(dynamic_input_shapes), len(in_shapes)))
    for i, node in enumerate(nodes):
        if node["op"] == "null":
            names[(i, 0)] = node["name"]
            b.reserve(node["name"])
        else:
            nout = row_ptr[i + 1] - row_ptr[i]
            names.update({(i, k): b.reserve(node["name"] if k == 0 else "%s_output%d" % (node["name"], k))
                          for k in range(nout)})
    for k, (nid, shape, dt) in enumerate(zip(data_ids, in_shapes, in_types)):
        dims = list(dynamic_input_shapes[k]) if dynamic else list(shape)
        if len(dims) != len(shape):
            raise ValueError("%s: dynamic_input_shapes[%d]=%s has another rank than in_shapes[%d]=%s"
                             % (_FN, k, dims, k, shape))
        graph_inputs.append(_value_info(nodes[nid]["name"], dt, dims))

    for i, node in enumerate(nodes):
        if node["op"] == "null":
            # Two variables may share a name (and so one value): one initializer.
            if node["name"] in params and (i, 0) in used and node["name"] not in b.params:
                b.add_param(node["name"], params[node["name"]])
            continue
        fn = lookup(node["op"], opset)
        if fn is None:
            raise NotImplementedError(
                "%s: no ONNX translation for operator '%s' (node '%s') at opset %d; "
                "weft.onnx.get_operator_support(%d) lists the operators that have one"
                % (_FN, node["op"], node["name"], opset, opset))
        nout = row_ptr[i + 1] - row_ptr[i]
        ins = node["inputs"]
        mx_node = MXNode(
            name=node["name"], op=node["op"], attrs=node.get("attrs", {}),
            inputs=[names[(nid, idx)] for nid, idx, _ in ins],
            outputs=[names[(i, k)] for k in range(nout)],
            in_shapes=[tuple(shapes[row_ptr[nid] + idx]) for nid, idx, _ in ins],
            out_shapes=[tuple(shapes[row_ptr[i] + k]) for k in range(nout)],
            in_dtypes=[np.dtype(dtypes[row_ptr[nid] + idx]) for nid, idx, _ in ins],
            out_dtypes=[np.dtype(dtypes[row_ptr[i] + k]) for k in range(nout)],
            input_names=[nodes[nid]["name"] for nid, _, _ in ins])
        fn(b, mx_node)

    graph_outputs = []
    for nid, idx, _ in heads:
        k = row_ptr[nid] + idx
        shape = [None] * len(shapes[k]) if dynamic else list(shapes[k])
        graph_outputs.append(_value_info(names[(nid, idx)], dtypes[k], shape))
    # fix_gamma BatchNorms (and the like) leave parameters no node reads.
    read = {name for n in b.nodes for name in n.input}
    inits = [t for t in b.initializers if t.name in read]
    return helper.make_graph(b.nodes, "weft_model", graph_inputs, graph_outputs, initializer=inits)


def export_model(sym, params, in_shapes=None, in_types=np.float32, onnx_file_path="model.onnx",
                 verbose=False, dynamic=False, dynamic_input_shapes=None, run_shape_inference=False,
                 input_type=None, input_shape=None, large_model=False, opset_version=None):
    """Exports a Weft (or MXNet 1.x) model to ONNX, as MXNet 1.9.1's
    ``mx.onnx.export_model``; returns ``onnx_file_path``.

    sym : Symbol, path of a ``NAME-symbol.json`` file, or a hybridized Gluon
        HybridBlock that has run forward once (then ``params`` is ignored).
    params : dict of name -> NDArray (arg and aux together; ``arg:``/``aux:``
        prefixes are dropped), ``[arg_params, aux_params]``, or the path of a
        ``NAME-0000.params`` file.
    in_shapes : one shape per data input (the symbol's arguments that are not
        parameters, in symbol order; labels of loss heads such as SoftmaxOutput
        are left out).
    in_types : one numpy dtype for all inputs, or one per input.
    onnx_file_path : where the model is written.
    verbose : log the ONNX graph.
    dynamic : make input (and output) dimensions dynamic; ``dynamic_input_shapes``
        gives each input's shape with None for a dynamic dimension (default: all
        dimensions dynamic). The model is still traced with ``in_shapes``.
    run_shape_inference : run ``onnx.shape_inference`` and store its results.
    input_type, input_shape : MXNet's old names of in_types and in_shapes.
    large_model : save the tensors as external data beside the file
        (``<file>.data``), needed above protobuf's 2 GB limit.
    opset_version : Weft extension (MXNet 1.9.1 always uses its newest): the
        ONNX opset, from 12 to the newest the installed onnx package knows;
        default 13.

    An operator without a translation raises NotImplementedError naming the
    operator and its node.
    """
    require(_FN)
    if input_type is not None:
        in_types = input_type
    if input_shape is not None:
        in_shapes = input_shape
    opset = _opset(opset_version)
    sym, params = _load(sym, params)
    graph = _build_graph(sym, params, in_shapes, in_types, opset, dynamic, dynamic_input_shapes)
    model = helper.make_model(graph, producer_name="weft", opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = _ir_version(opset)
    tensor_bytes = sum(v.nbytes for v in params.values())
    if not large_model and tensor_bytes >= _TWO_GB:
        raise ValueError("%s: the model is over 2 GB, protobuf's limit; pass large_model=True to "
                         "store its tensors as external data" % _FN)
    if verbose:
        logging.info("%s", helper.printable_graph(model.graph))
    if run_shape_inference:
        try:
            model = shape_inference.infer_shapes(model)
        except Exception as err:  # MXNet keeps the model when ONNX's inference fails
            warnings.warn("%s: onnx shape inference failed, the model is kept without it: %s"
                          % (_FN, err))
    onnx_file_path = os.fspath(onnx_file_path)
    if large_model:
        location = os.path.basename(onnx_file_path) + ".data"
        onnx.save_model(model, onnx_file_path, save_as_external_data=True,
                        all_tensors_to_one_file=True, location=location, size_threshold=1024)
        checker.check_model(onnx_file_path)
    else:
        data = model.SerializeToString()  # once: the checker reads the same bytes
        checker.check_model(data)
        with open(onnx_file_path, "wb") as f:
            f.write(data)
    logging.info("%s: input shapes %s; wrote %s", _FN, in_shapes, onnx_file_path)
    return onnx_file_path
