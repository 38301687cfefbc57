"""weft.onnx.import_model / import_to_gluon / get_model_metadata (issue 40
point 2): ONNX graphs built with onnx.helper, one per imported operator, run by
Weft after import equal to ONNX Runtime; errors name the operator and node.
(Exported model-zoo nets imported back: test_onnx_export_zoo.py.)"""
import json

import numpy as np
import pytest

from onnx_check import onnx, rel_err, run_onnx

import weft as mx

from onnx import TensorProto, helper, numpy_helper  # noqa: E402  (after the skip in onnx_check)

RS = np.random.RandomState(0)


def _u(*shape, lo=-1.0, hi=1.0):
    return RS.uniform(lo, hi, shape).astype(np.float32)


def _model(nodes, inputs, outputs, inits=None, opset=13, out_shape=None):
    """A model of ``nodes``; ``inputs`` is {name: shape}, ``outputs`` names (float32;
    their shapes inferred by ONNX unless ``out_shape`` is given)."""
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, out_shape) for n in outputs],
        initializer=[numpy_helper.from_array(v, n) for n, v in (inits or {}).items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = helper.find_min_ir_version_for([helper.make_opsetid("", opset)])
    return onnx.shape_inference.infer_shapes(model, data_prop=True)  # output shapes, which the checker wants


def _i64(*v):
    return np.array(v, dtype=np.int64)


N = helper.make_node
X4 = {"x": (2, 3, 6, 6)}
X2 = {"x": (3, 4)}
CASES = {
    "conv": ([N("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1], strides=[2, 2])], X4, {"w": _u(4, 3, 3, 3), "b": _u(4)}),
    "conv_group_dilate": ([N("Conv", ["x", "w"], ["y"], group=3, dilations=[2, 2])], X4, {"w": _u(6, 1, 3, 3)}),
    "conv_transpose": ([N("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1],
                          output_padding=[1, 1])], X4, {"w": _u(3, 2, 3, 3)}),
    "gemm_fc": ([N("Gemm", ["x", "w", "b"], ["y"], transB=1)], X2, {"w": _u(5, 4), "b": _u(5)}),
    "gemm_general": ([N("Gemm", ["x", "w", "c"], ["y"], alpha=0.5, beta=2.0)], X2, {"w": _u(4, 5), "c": _u(3, 5)}),
    "maxpool_ceil": ([N("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)],
                     {"x": (1, 2, 8, 8)}, {}),
    "avgpool": ([N("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1)],
                X4, {}),
    "avgpool_exclude": ([N("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], pads=[1, 1, 1, 1], strides=[2, 2])],
                        X4, {}),
    "global_pools": ([N("GlobalAveragePool", ["x"], ["a"]), N("GlobalMaxPool", ["x"], ["m"]),
                      N("Add", ["a", "m"], ["y"])], X4, {}),
    "batchnorm": ([N("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], epsilon=1e-3)], X4,
                  {"s": _u(3), "b": _u(3), "m": _u(3), "v": _u(3, lo=0.5, hi=2)}),
    "instancenorm": ([N("InstanceNormalization", ["x", "s", "b"], ["y"])], X4, {"s": _u(3), "b": _u(3)}),
    "layernorm": ([N("LayerNormalization", ["x", "s", "b"], ["y"])], X2, {"s": _u(4), "b": _u(4)}, 17),
    "lrn": ([N("LRN", ["x"], ["y"], size=3, alpha=0.01, beta=0.7, bias=1.5)], X4, {}),
    "activations": ([N("Relu", ["x"], ["a"]), N("Sigmoid", ["a"], ["b"]), N("Tanh", ["x"], ["c"]),
                     N("Softplus", ["c"], ["d"]), N("Softsign", ["d"], ["e"]), N("LeakyRelu", ["x"], ["f"], alpha=0.2),
                     N("Elu", ["f"], ["g"], alpha=0.5), N("HardSigmoid", ["g"], ["h"]),
                     N("Sum", ["b", "e", "h"], ["y"])], X2, {}),
    "prelu": ([N("PRelu", ["x", "s"], ["y"])], X4, {"s": _u(3, 1, 1)}),
    "hardswish": ([N("Mul", ["x", "k"], ["a"]), N("HardSwish", ["a"], ["y"])], X2, {"k": _u(1, lo=4, hi=4.5)}, 14),
    "softmax": ([N("Softmax", ["x"], ["a"], axis=1), N("LogSoftmax", ["x"], ["b"]), N("Add", ["a", "b"], ["y"])],
                {"x": (2, 3, 4)}, {}),
    "unary": ([N(op, ["x"], [op]) for op in ("Exp", "Abs", "Neg", "Floor", "Ceil", "Sin", "Cos", "Atan",
                                              "Sinh", "Erf", "Sign", "Identity", "Dropout", "Tan", "Asinh",
                                              "Cosh")] +
              [N("Sum", ["Exp", "Abs", "Neg", "Floor", "Ceil", "Sin", "Cos", "Atan", "Sinh", "Erf", "Sign",
                         "Identity", "Dropout", "Tan", "Asinh", "Cosh"], ["y"])], X2, {}),
    "unary_positive": ([N(op, ["x"], [op]) for op in ("Log", "Sqrt", "Reciprocal", "Acosh")] +
                       [N(op, ["Reciprocal"], [op]) for op in ("Asin", "Acos", "Atanh")] +  # 1/x in (0.3, 0.9)
                       [N("Sum", ["Log", "Sqrt", "Reciprocal", "Acosh", "Asin", "Acos", "Atanh"], ["y"])],
                       {"x": (3, 4)}, {}),
    "binary_broadcast": ([N("Add", ["x", "c"], ["a"]), N("Sub", ["a", "c"], ["b"]), N("Mul", ["b", "c"], ["d"]),
                          N("Div", ["d", "c"], ["e"]), N("Max", ["e", "c"], ["f"]), N("Min", ["f", "x"], ["g"]),
                          N("Abs", ["g"], ["h"]), N("Pow", ["h", "c"], ["y"])], X4, {"c": _u(6, lo=0.5, hi=1.5)}),
    "matmul": ([N("MatMul", ["x", "w"], ["a"]), N("MatMul", ["x3", "x3t"], ["b"]), N("Flatten", ["b"], ["c"]),
                N("Concat", ["a", "c"], ["y"], axis=1)], {"x": (3, 4), "x3": (3, 2, 2), "x3t": (3, 2, 2)},
               {"w": _u(4, 5)}),
    "shape_ops": ([N("Reshape", ["x", "s"], ["a"]), N("Transpose", ["a"], ["b"], perm=[2, 0, 1]),
                   N("Unsqueeze", ["b", "ax"], ["c"]), N("Squeeze", ["c", "ax"], ["d"]),
                   N("Flatten", ["d"], ["e"], axis=2), N("Flatten", ["e"], ["y"], axis=0)],
                  {"x": (2, 3, 4)}, {"s": _i64(0, 4, -1), "ax": _i64(1)}),
    "reduce": ([N("ReduceSum", ["x", "ax"], ["a"], keepdims=0), N("ReduceMean", ["x"], ["b"], axes=[0, 2]),
                N("ReduceMax", ["x"], ["c"], axes=[0, 2]), N("ReduceMin", ["x"], ["d"], axes=[0, 2]),
                N("ReduceProd", ["x"], ["e"], axes=[0, 2]), N("Sum", ["b", "c", "d", "e"], ["f"]),
                N("Reshape", ["f", "s"], ["g"]), N("Add", ["g", "a"], ["y"])],
               {"x": (2, 3, 4)}, {"ax": _i64(0, 2), "s": _i64(-1)}),
    "cast_clip_gather": ([N("Clip", ["x", "lo", "hi"], ["a"]), N("Cast", ["a"], ["b"], to=TensorProto.FLOAT),
                          N("Gather", ["b", "i"], ["c"], axis=1), N("Gather", ["c", "k"], ["y"], axis=0)],
                         X2, {"lo": np.array(-0.3, np.float32), "hi": np.array(0.5, np.float32),
                              "i": _i64(3, 0, 2), "k": np.array(1, np.int64)}),
    "pad_resize_slice_split": ([N("Pad", ["x", "p", "v"], ["a"]), N("Resize", ["a", "", "sc"], ["b"], mode="nearest"),
                                N("Slice", ["b", "st", "en", "axs"], ["c"]),
                                N("Split", ["c"], ["d", "e"], axis=0), N("Sub", ["d", "e"], ["y"])], X4,
                               {"p": _i64(0, 0, 1, 2, 0, 0, 2, 1), "v": np.array(0.5, np.float32),
                                "sc": np.array([1, 1, 2, 2], np.float32), "st": _i64(1, 2), "en": _i64(15, 100),
                                "axs": _i64(2, 3)}),
    "lstm_bidirectional": ([N("LSTM", ["x", "w", "r", "b", "", "h0", "c0"], ["y", "yh", "yc"], hidden_size=3,
                              direction="bidirectional")], {"x": (5, 2, 4)},
                           {"w": _u(2, 12, 4), "r": _u(2, 12, 3), "b": _u(2, 24), "h0": _u(2, 2, 3), "c0": _u(2, 2, 3)}),
    "gru": ([N("GRU", ["x", "w", "r", "b"], ["y"], hidden_size=3, linear_before_reset=1)], {"x": (5, 2, 4)},
            {"w": _u(1, 9, 4), "r": _u(1, 9, 3), "b": _u(1, 18)}),
    "rnn_relu": ([N("RNN", ["x", "w", "r"], ["y"], hidden_size=3, activations=["Relu"])], {"x": (5, 2, 4)},
                 {"w": _u(1, 3, 4), "r": _u(1, 3, 3)}),
    "folded_shapes": ([N("Shape", ["x"], ["s"]), N("Slice", ["s", "z", "two", "z"], ["s2"]),
                       N("Concat", ["s2", "m1"], ["t"], axis=0), N("Reshape", ["x", "t"], ["y"])],
                      {"x": (2, 3, 4)}, {"z": _i64(0), "two": _i64(2), "m1": _i64(-1)}, 13, (2, 3, 4)),
    "constant_node": ([N("Constant", [], ["k"], value=numpy_helper.from_array(_u(3, 4))),
                       N("Mul", ["x", "k"], ["y"])], X2, {}),
}


def _run_weft(model, feeds, tmp_path):
    path = str(tmp_path / "m.onnx")
    onnx.save(model, path)
    sym, arg, aux = mx.onnx.import_model(path)
    args = {k: mx.nd.array(v) for k, v in feeds.items()}
    args.update(arg)
    ex = sym.bind(mx.cpu(), args, aux_states=aux, grad_req="null")
    return [o.asnumpy() for o in ex.forward(is_train=False)], path


@pytest.mark.parametrize("case", sorted(CASES))
def test_imported_operator_equals_onnxruntime(case, tmp_path):
    nodes, inputs, inits = CASES[case][:3]
    opset, out_shape = (tuple(CASES[case][3:]) + (13, None)[len(CASES[case]) - 3:])[:2]
    model = _model(nodes, inputs, ["y"], inits, opset, out_shape)
    onnx.checker.check_model(model)
    feeds = {n: _u(*s, lo=0.1 if case == "unary_positive" else -1.0, hi=2.0 if case == "unary_positive" else 1.0)
             + (1.0 if case == "unary_positive" else 0.0) for n, s in inputs.items()}
    got, path = _run_weft(model, feeds, tmp_path)
    want = run_onnx(path, feeds)[0]
    assert rel_err(got[0], want) <= 1e-5


def test_import_to_gluon_and_metadata(tmp_path):
    model = _model([N("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                    N("BatchNormalization", ["c", "s", "bb", "m", "v"], ["y"])],
                   {"x": ("batch", 3, 6, 6)}, ["y"],
                   {"w": _u(4, 3, 3, 3), "b": _u(4), "s": _u(4), "bb": _u(4), "m": _u(4), "v": _u(4, lo=0.5, hi=2)})
    path = str(tmp_path / "m.onnx")
    onnx.save(model, path)
    meta = mx.onnx.get_model_metadata(path)
    assert meta == {"input_tensor_data": [("x", (None, 3, 6, 6))], "output_tensor_data": [("y", ())]} or \
        meta["input_tensor_data"] == [("x", (None, 3, 6, 6))]
    sym, arg, aux = mx.onnx.import_model(path)
    assert sorted(aux) == ["m", "v"] and sorted(arg) == ["b", "bb", "s", "w"]
    net = mx.onnx.import_to_gluon(path, mx.cpu())
    x = _u(2, 3, 6, 6)
    assert rel_err(net(mx.nd.array(x)).asnumpy(), run_onnx(path, {"x": x})[0]) <= 1e-5


def test_unsupported_operator_names_op_and_node(tmp_path):
    model = _model([N("Det", ["x"], ["y"], name="det_node")], {"x": (3, 3)}, ["y"])
    path = str(tmp_path / "m.onnx")
    onnx.save(model, path)
    with pytest.raises(NotImplementedError, match="Det.*det_node"):
        mx.onnx.import_model(path)


def test_bad_paths_raise(tmp_path):
    with pytest.raises(ValueError, match="import_model.*does not exist"):
        mx.onnx.import_model(str(tmp_path / "nope.onnx"))
    with pytest.raises(TypeError, match="import_model"):
        mx.onnx.import_model(42)


def test_no_unbounded_folding(tmp_path):
    # Expand of a constant to 10^5 x 10^5 is not computed at import: it stays an
    # operator (Weft's broadcast_to), and no parameter holds its 10^10 values.
    model = _model([N("Expand", ["k", "s"], ["e"]), N("Add", ["x", "e"], ["y"])], {"x": (100000, 100000)},
                   ["y"], {"k": _u(1, 1), "s": _i64(100000, 100000)})
    path = str(tmp_path / "m.onnx")
    onnx.save(model, path)
    sym, arg, aux = mx.onnx.import_model(path)
    assert max(v.size for v in arg.values()) == 1 and not aux
    assert any(n["op"] == "broadcast_to" for n in json.loads(sym.tojson())["nodes"])
