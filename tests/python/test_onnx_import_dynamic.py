"""weft.onnx for models with dynamic dimensions (issue 40 point 2): a batch
given as a dim_param ('N') or as -1 is reported None by get_model_metadata,
and the imported symbol binds with whatever shape the user gives at bind
time, equal to ONNX Runtime at each."""
import numpy as np
import pytest

from onnx_check import onnx, rel_err, run_onnx

import weft as mx

from onnx import TensorProto, helper, numpy_helper  # noqa: E402  (after the skip in onnx_check)

RS = np.random.RandomState(3)
N = helper.make_node


def _u(*shape):
    return RS.uniform(-1, 1, shape).astype(np.float32)


def _cnn(batch_dim, path):
    """Conv -> BatchNorm -> Relu -> MaxPool -> Flatten -> Gemm -> Softmax, plus
    a Reshape with 0/-1 and broadcasting against lower-rank constants, its
    batch ``batch_dim`` (a dim_param string or -1)."""
    inits = {"w": _u(4, 3, 3, 3), "b": _u(4), "s": _u(4), "bb": _u(4), "m": _u(4),
             "v": RS.uniform(0.5, 2, 4).astype(np.float32), "fw": _u(5, 36), "fb": _u(5), "k": _u(5),
             "shape": np.array([0, -1, 1], np.int64)}
    nodes = [N("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             N("BatchNormalization", ["c", "s", "bb", "m", "v"], ["n"]), N("Relu", ["n"], ["r"]),
             N("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]), N("Flatten", ["p"], ["f"]),
             N("Gemm", ["f", "fw", "fb"], ["g"], transB=1), N("Mul", ["g", "k"], ["gk"]),
             N("Softmax", ["gk"], ["sm"]), N("Reshape", ["sm", "shape"], ["y"])]
    dims = [batch_dim, 3, 6, 6]
    graph = helper.make_graph(nodes, "dyn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch_dim, 5, 1])],
                              initializer=[numpy_helper.from_array(v, n) for n, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    if batch_dim == -1:
        onnx.checker.check_model(model)
        onnx.save(model, path)  # no shape inference: it would not keep a -1
    else:
        onnx.save(onnx.shape_inference.infer_shapes(model), path)
    return path


@pytest.mark.parametrize("batch_dim", ["N", -1])
def test_dynamic_batch_binds_at_bind_time(batch_dim, tmp_path):
    path = _cnn(batch_dim, str(tmp_path / "m.onnx"))
    meta = mx.onnx.get_model_metadata(path)
    assert meta["input_tensor_data"] == [("x", (None, 3, 6, 6))]
    assert meta["output_tensor_data"] == [("y", (None, 5, 1))]
    sym, arg, aux = mx.onnx.import_model(path)
    for batch in (2, 5):
        x = _u(batch, 3, 6, 6)
        ex = sym.bind(mx.cpu(), dict(arg, x=mx.nd.array(x)), aux_states=aux, grad_req="null")
        got = ex.forward(is_train=False)[0].asnumpy()
        assert rel_err(got, run_onnx(path, {"x": x})[0]) <= 1e-5
    # The same model as a gluon block, called at two batch sizes.
    net = mx.onnx.import_to_gluon(path, mx.cpu())
    for batch in (1, 3):
        x = _u(batch, 3, 6, 6)
        assert rel_err(net(mx.nd.array(x)).asnumpy(), run_onnx(path, {"x": x})[0]) <= 1e-5


def test_dynamic_dim_that_a_translation_needs_is_named(tmp_path):
    # Slicing a dynamic axis needs its size at import time: the error names it.
    nodes = [N("Slice", ["x", "st", "en", "ax"], ["y"])]
    graph = helper.make_graph(nodes, "dyn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=[numpy_helper.from_array(np.array([v], np.int64), n)
                                           for n, v in (("st", 1), ("en", 3), ("ax", 0))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    path = str(tmp_path / "m.onnx")
    onnx.save(onnx.shape_inference.infer_shapes(model), path)
    with pytest.raises(NotImplementedError, match="Slice.*dynamic axis"):
        mx.onnx.import_model(path)


def _dyn_model(nodes, out_shape, path, inits=None):
    graph = helper.make_graph(nodes, "dyn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
                              initializer=[numpy_helper.from_array(v, n) for n, v in (inits or {}).items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    model = onnx.shape_inference.infer_shapes(model)
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return path


def _bind_twice(path):
    sym, arg, aux = mx.onnx.import_model(path)
    for batch in (2, 5):
        x = _u(batch, 3, 4)
        got = sym.bind(mx.cpu(), dict(arg, x=mx.nd.array(x)), aux_states=aux, grad_req="null").forward()[0]
        assert rel_err(got.asnumpy(), run_onnx(path, {"x": x})[0]) <= 1e-5


def test_reshape_to_shapes_computed_from_dynamic_dims(tmp_path):
    # torch's x.view(x.size(0), -1), and a reshape of another tensor to
    # [x.size(0), 12, 1] (the same dim_param 'N'): Note [Dynamic dims on import].
    i64 = lambda *v: np.array(v, np.int64)  # noqa: E731
    nodes = [N("Shape", ["x"], ["s"]), N("Gather", ["s", "zero"], ["n"]), N("Unsqueeze", ["n", "ax0"], ["n1"]),
             N("Concat", ["n1", "m1"], ["t"], axis=0), N("Reshape", ["x", "t"], ["flat"]),
             N("Relu", ["flat"], ["r"]), N("Concat", ["n1", "twelve", "one"], ["t2"], axis=0),
             N("Reshape", ["r", "t2"], ["y"])]
    inits = {"zero": np.array(0, np.int64), "ax0": i64(0), "m1": i64(-1), "twelve": i64(12), "one": i64(1)}
    _bind_twice(_dyn_model(nodes, ["N", 12, 1], str(tmp_path / "m.onnx"), inits))


def test_dynamic_dim_used_as_a_value(tmp_path):
    # The batch size itself, cast to float and multiplied in: computed at run time.
    nodes = [N("Shape", ["x"], ["s"]), N("Gather", ["s", "zero"], ["n"]), N("Cast", ["n"], ["nf"], to=1),
             N("Mul", ["x", "nf"], ["y"])]
    _bind_twice(_dyn_model(nodes, ["N", 3, 4], str(tmp_path / "m.onnx"), {"zero": np.array(0, np.int64)}))
