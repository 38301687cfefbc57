"""weft.onnx.import_model for the ONNX operators MXNet 1.9.1's importer maps
beyond the network layers (comparisons, logic, reductions, arg/top-k, array
builders, region pooling, ...): one onnx.helper graph per family, run by Weft
after import equal to ONNX Runtime (relative error <= 1e-5; integer and bool
outputs exactly). Also: every imported operator has a case here or in
test_onnx_import.py, and the translations of operators usually computed at
import time are checked with that folding turned off."""
import numpy as np
import pytest

from onnx_check import onnx, rel_err, run_onnx

import weft as mx
from weft.onnx import importer
from weft.onnx.mxnet_lists import MXNET_IMPORTED, MXNET_IMPORTED_NOT_ONNX

from onnx import TensorProto, helper, numpy_helper  # noqa: E402  (after the skip in onnx_check)
from test_onnx_import import CASES as LAYER_CASES  # noqa: E402

RS = np.random.RandomState(7)
N = helper.make_node
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def _u(*shape, lo=-1.0, hi=1.0):
    return RS.uniform(lo, hi, shape).astype(np.float32)


def _i64(*v):
    return np.array(v, dtype=np.int64)


def _f(*v):
    return np.array(v, dtype=np.float32)


def _model(case):
    """The ONNX model of a case: {'nodes', 'feeds' {name: array}, 'inits',
    'outputs' {name: elem type}, 'shapes' {output: shape} where ONNX cannot
    infer it, 'opset'}."""
    opset = case.get("opset", 13)
    graph = helper.make_graph(
        case["nodes"], "g",
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
         for n, v in case["feeds"].items()],
        [helper.make_tensor_value_info(n, t, case.get("shapes", {}).get(n))
         for n, t in case.get("outputs", {"y": F}).items()],
        initializer=[numpy_helper.from_array(np.asarray(v), n) for n, v in case.get("inits", {}).items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = helper.find_min_ir_version_for([helper.make_opsetid("", opset)])
    return onnx.shape_inference.infer_shapes(model, data_prop=True)


def _run_weft(path, feeds):
    sym, arg, aux = mx.onnx.import_model(path)
    args = {k: mx.nd.array(v, dtype=v.dtype) for k, v in feeds.items()}
    args.update(arg)
    ex = sym.bind(mx.cpu(), args, aux_states=aux, grad_req="null")
    return [o.asnumpy() for o in ex.forward(is_train=False)]


def _check(case, tmp_path):
    model = _model(case)
    onnx.checker.check_model(model)
    path = str(tmp_path / "m.onnx")
    onnx.save(model, path)
    got, want = _run_weft(path, case["feeds"]), run_onnx(path, case["feeds"])
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if w.dtype.kind in "biu":
            assert g.dtype == w.dtype and g.shape == w.shape and (g == w).all(), (g, w)
        else:
            assert rel_err(g, w) <= 1e-5


HALVES = _f(-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.3, -0.7, 1.49, -3.51, 0.0, 4.5)
X34 = {"x": _u(3, 4)}
X4D = {"x": _u(2, 4, 4, 6)}
CASES = {
    "compare_logic": dict(
        nodes=[N("Equal", ["x", "c"], ["e"]), N("Greater", ["x", "c"], ["g"]), N("Less", ["x", "c"], ["l"]),
               N("GreaterOrEqual", ["x", "c"], ["ge"]), N("LessOrEqual", ["x", "c"], ["le"]),
               N("Not", ["e"], ["ne"]), N("And", ["g", "ne"], ["a"]), N("Or", ["l", "e"], ["o"]),
               N("Xor", ["a", "o"], ["b"]), N("Where", ["b", "x", "c"], ["w"]),
               N("Cast", ["ge"], ["gef"], to=F), N("Cast", ["le"], ["lef"], to=F),
               N("Sum", ["w", "gef", "lef"], ["y"])],
        feeds={"x": _f(0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 2, 2).reshape(3, 4)}, inits={"c": _f(1, 1, 2, 2)},
        outputs={"y": F, "b": B}),
    "where_broadcast": dict(
        nodes=[N("Greater", ["x", "z"], ["g"]), N("Where", ["g", "x", "s"], ["y"])],
        feeds={"x": _u(2, 3, 4)}, inits={"z": _f(0), "s": _u(4)}),
    "variadic_broadcast": dict(
        nodes=[N("Max", ["x", "c", "d"], ["a"]), N("Min", ["x", "c", "d"], ["b"]), N("Mean", ["x", "c", "d"], ["m"]),
               N("Sum", ["x", "c"], ["s"]), N("Max", ["x"], ["one"]), N("Sum", ["a", "b", "m", "s", "one"], ["y"])],
        feeds=X34, inits={"c": _u(4), "d": _u(1, 4)}),
    "mod": dict(
        nodes=[N("Mod", ["x", "c"], ["y"], fmod=1), N("Mod", ["i", "j"], ["k"])],
        feeds={"x": _u(3, 4, lo=-5, hi=5), "i": _i64(7, -7, 7, -7, 0, 5).reshape(2, 3)},
        inits={"c": _f(1.5, -1.5, 0.7, -2.25), "j": _i64(3, 3, -3, -3, 4, 5).reshape(2, 3)},
        outputs={"y": F, "k": I64}),
    "round": dict(nodes=[N("Round", ["x"], ["y"])], feeds={"x": HALVES}),
    "reduce_opset13": dict(
        nodes=[N("ReduceL1", ["x"], ["a"], axes=[1]), N("ReduceL2", ["x"], ["b"], axes=[1]),
               N("ReduceSumSquare", ["x"], ["c"], axes=[1]), N("ReduceLogSumExp", ["x"], ["d"], axes=[1]),
               N("Abs", ["x"], ["ax"]), N("ReduceLogSum", ["ax"], ["e"], axes=[1]),
               N("ReduceLogSumExp", ["x"], ["f"], keepdims=0), N("Sum", ["a", "b", "c", "d", "e"], ["g"]),
               N("ReduceMean", ["g"], ["h"], keepdims=0), N("Add", ["h", "f"], ["y"])],
        feeds={"x": _u(2, 5, 3)}),
    "reduce_opset18": dict(
        nodes=[N("ReduceL1", ["x", "ax"], ["a"], keepdims=0), N("ReduceL2", ["x", "ax"], ["b"], keepdims=0),
               N("ReduceSumSquare", ["x", "ax"], ["c"], keepdims=0),
               N("ReduceLogSumExp", ["x", "ax"], ["d"], keepdims=0),
               N("ReduceMax", ["x", "ax"], ["m"], keepdims=0), N("ReduceMin", ["x"], ["n"], keepdims=0),
               N("Sum", ["a", "b", "c", "d", "m"], ["s"]), N("Add", ["s", "n"], ["y"])],
        feeds={"x": _u(2, 5, 3)}, inits={"ax": _i64(0, 2)}, opset=18),
    "arg_topk_hardmax": dict(
        nodes=[N("ArgMax", ["x"], ["a"], axis=1, keepdims=0), N("ArgMin", ["t"], ["b"], axis=1, select_last_index=1),
               N("ArgMax", ["t"], ["c"], axis=-1, select_last_index=1),
               N("TopK", ["x", "k"], ["v", "i"], axis=1), N("TopK", ["x", "k"], ["v2", "i2"], axis=2, largest=0),
               N("Hardmax", ["x"], ["h"], axis=1), N("Hardmax", ["x"], ["y"])],
        feeds={"x": _u(2, 5, 3), "t": _f(1, 0, 0, 2, 2, 1, 3, 3, 0, 0, 3, 1).reshape(3, 4)},
        inits={"k": _i64(2)},
        outputs={"a": I64, "b": I64, "c": I64, "v": F, "i": I64, "v2": F, "i2": I64, "h": F, "y": F}),
    "array_builders": dict(
        nodes=[N("Tile", ["x", "reps"], ["t"]), N("Expand", ["c", "shape"], ["e"]),
               N("ArgMax", ["x"], ["am"], axis=1, keepdims=0),
               N("OneHot", ["am", "depth", "vals"], ["oh"], axis=0), N("OneHot", ["neg", "depth", "vals"], ["oh2"]),
               N("GatherND", ["x", "gi"], ["gn"]), N("ScatterND", ["x", "si", "su"], ["sn"])],
        feeds={"x": _u(3, 4)},
        inits={"reps": _i64(2, 1), "c": _u(3, 1), "shape": _i64(2, 1, 5), "depth": _i64(4),
               "vals": _f(-1, 2), "neg": _i64(-1, 0, 3, -4), "gi": _i64(0, 1, 2, 3, 1, 0).reshape(3, 2),
               "si": _i64(2, 0).reshape(2, 1), "su": _u(2, 4)},
        outputs={"t": F, "e": F, "oh": F, "oh2": F, "gn": F, "sn": F}),
    "depth_space": dict(
        nodes=[N("DepthToSpace", ["x"], ["a"], blocksize=2), N("DepthToSpace", ["x"], ["b"], blocksize=2, mode="CRD"),
               N("SpaceToDepth", ["a"], ["c"], blocksize=2)],
        feeds={"x": _u(2, 8, 3, 2)}, outputs={"a": F, "b": F, "c": F}),
    "activations_norms": dict(
        nodes=[N("Selu", ["x"], ["a"]), N("Selu", ["x"], ["b"], alpha=1.2, gamma=0.8),
               N("ThresholdedRelu", ["x"], ["c"], alpha=0.25), N("LpNormalization", ["x"], ["d"], axis=1, p=1),
               N("LpNormalization", ["x"], ["e"]), N("Sum", ["a", "b", "c", "d", "e"], ["y"])],
        feeds=X4D),
    "lp_pool": dict(
        nodes=[N("LpPool", ["x"], ["a"], kernel_shape=[2, 2], strides=[2, 2], p=2),
               N("LpPool", ["x"], ["b"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], p=3),
               N("GlobalLpPool", ["x"], ["c"], p=2)],
        feeds={"x": _u(2, 3, 4, 6, lo=0.1)}, outputs={"a": F, "b": F, "c": F}),
    "roi_pool_align": dict(
        nodes=[N("MaxRoiPool", ["x", "r5"], ["a"], pooled_shape=[2, 3], spatial_scale=0.5),
               N("RoiAlign", ["x", "r4", "bi"], ["b"], output_height=2, output_width=3, sampling_ratio=2,
                 spatial_scale=0.5),
               N("RoiAlign", ["x", "r4", "bi"], ["c"], output_height=3, output_width=2, sampling_ratio=2,
                 coordinate_transformation_mode="output_half_pixel")],
        feeds=X4D, inits={"r5": _f(0, 0, 0, 7, 5, 1, 2, 2, 10, 7).reshape(2, 5),
                          "r4": _f(0, 0, 7, 5, 2, 2, 10, 7).reshape(2, 4), "bi": _i64(0, 1)},
        outputs={"a": F, "b": F, "c": F}, opset=16),
    "resize_linear": dict(
        nodes=[N("Resize", ["x", "", "sc"], ["a"], mode="linear"),
               N("Resize", ["x", "", "", "sz"], ["b"], mode="linear", coordinate_transformation_mode="align_corners"),
               N("Resize", ["x", "", "", "sz"], ["c"], mode="linear",
                 coordinate_transformation_mode="pytorch_half_pixel")],
        feeds={"x": _u(1, 2, 5, 4)}, inits={"sc": _f(1, 1, 2, 2), "sz": _i64(1, 2, 7, 9)},
        outputs={"a": F, "b": F, "c": F}),
    "resize_nearest": dict(
        nodes=[N("Resize", ["x", "", "sc"], ["a"], mode="nearest", coordinate_transformation_mode="asymmetric",
                 nearest_mode="floor"),
               N("Resize", ["x", "", "", "sz"], ["b"], mode="nearest"),
               N("Resize", ["x", "", "sc2"], ["c"], mode="nearest", coordinate_transformation_mode="half_pixel",
                 nearest_mode="round_prefer_ceil")],
        feeds={"x": _u(2, 2, 3, 4)}, inits={"sc": _f(1, 1, 2, 3), "sz": _i64(2, 2, 9, 8), "sc2": _f(1, 1, 3, 3)},
        outputs={"a": F, "b": F, "c": F}),
    "upsample_opset9": dict(nodes=[N("Upsample", ["x", "sc"], ["y"])], feeds={"x": _u(1, 2, 3, 3)},
                            inits={"sc": _f(1, 1, 2, 2)}, opset=9),
}

# Operators usually computed at import time (Note [Constant folding on import]),
# checked here with that folding off so their translations run.
UNFOLDED = {
    "builders": dict(
        nodes=[N("ConstantOfShape", ["s"], ["c"], value=numpy_helper.from_array(_f(1.5))),
               N("Range", ["r0", "r1", "r2"], ["r"]), N("Add", ["x", "c"], ["a"]), N("Add", ["a", "r"], ["y"])],
        feeds=X34, inits={"s": _i64(3, 4), "r0": np.float32(0.5), "r1": np.float32(-1.5),
                                          "r2": np.float32(-0.5)}, shapes={"y": (3, 4)}),
    "shape_size": dict(
        nodes=[N("Shape", ["x"], ["s"]), N("Shape", ["x"], ["s2"], start=1, end=-1), N("Size", ["x"], ["n"])],
        feeds={"x": _u(2, 3, 4, 5)}, outputs={"s": I64, "s2": I64, "n": I64}, opset=15),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_imported_operator_equals_onnxruntime(case, tmp_path):
    _check(CASES[case], tmp_path)


@pytest.mark.parametrize("case", sorted(UNFOLDED))
def test_unfolded_operator_equals_onnxruntime(case, tmp_path, monkeypatch):
    monkeypatch.setattr(importer, "_fold", lambda ctx, node: False)
    _check(UNFOLDED[case], tmp_path)


def test_random_generators(tmp_path):
    # Random values cannot equal ONNX Runtime's; their shape, dtype, range and
    # moments can.
    case = dict(nodes=[N("RandomUniform", [], ["u"], shape=[200, 50], low=-1.0, high=3.0),
                       N("RandomNormal", [], ["n"], shape=[200, 50], mean=2.0, scale=0.5),
                       N("RandomUniformLike", ["x"], ["ul"]), N("RandomNormalLike", ["x"], ["nl"], scale=2.0)],
                feeds={"x": _u(100, 100)}, outputs={"u": F, "n": F, "ul": F, "nl": F})
    model = _model(case)
    path = str(tmp_path / "m.onnx")
    onnx.save(model, path)
    u, n, ul, nl = _run_weft(path, case["feeds"])
    for got, want in zip((u, n, ul, nl), run_onnx(path, case["feeds"])):
        assert got.shape == want.shape and got.dtype == want.dtype
    assert -1 <= u.min() and u.max() < 3 and abs(u.mean() - 1) < 0.1
    assert abs(n.mean() - 2) < 0.05 and abs(n.std() - 0.5) < 0.05
    assert 0 <= ul.min() and ul.max() < 1 and abs(ul.mean() - 0.5) < 0.05
    assert abs(nl.mean()) < 0.1 and abs(nl.std() - 2) < 0.1


def test_every_imported_operator_has_a_case():
    cases = list(LAYER_CASES.values()) + list(CASES.values()) + list(UNFOLDED.values())
    covered = {n.op_type for c in cases for n in (c[0] if isinstance(c, tuple) else c["nodes"])}
    covered |= {"RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike"}  # test_random_generators
    missing = set(mx.onnx.get_import_support()) - covered
    assert not missing, sorted(missing)


def test_resize_modes_that_are_no_repetition_are_refused(tmp_path):
    case = dict(nodes=[N("Resize", ["x", "", "sc"], ["y"], mode="nearest", nearest_mode="floor")],
                feeds={"x": _u(1, 1, 3, 3)}, inits={"sc": _f(1, 1, 2, 2)})
    model = _model(case)
    path = str(tmp_path / "m.onnx")
    onnx.save(model, path)
    with pytest.raises(NotImplementedError, match="Resize.*half_pixel.*floor"):
        mx.onnx.import_model(path)


def test_every_operator_mxnet_imports_is_imported():
    # MXNet 1.9.1's onnx2mx map, less the two Caffe2 names no ONNX model can hold.
    assert len(MXNET_IMPORTED) == 93
    missing = MXNET_IMPORTED - MXNET_IMPORTED_NOT_ONNX - set(mx.onnx.get_import_support())
    assert not missing, sorted(missing)
