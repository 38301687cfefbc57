"""weft.onnx.export_model / get_operator_support (issue 40): the driver's
arguments as MXNet 1.9.1 reads them (objects or files, arg:/aux: prefixes,
[arg, aux] lists, HybridBlocks, dynamic batch, external data, opsets), its
errors, and a model that runs in ONNX Runtime equal to Weft. Per-operator
translations are checked in test_onnx_export_ops.py, the whole model zoo in
test_onnx_export_zoo.py."""
import os
import subprocess
import sys

import numpy as np
import pytest

from onnx_check import onnx, rel_err, randomize_block, run_onnx

import weft as mx
from weft.gluon import nn
from weft.gluon.model_zoo import vision
import weft.onnx._deps as onnx_deps


def _small_net():
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"),
            nn.MaxPool2D(2), nn.Flatten(), nn.Dense(5))
    net.initialize(mx.init.Xavier())
    net.hybridize()
    return net


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A conv net exported to MXNet-format files, its input and its output."""
    tmp = tmp_path_factory.mktemp("small")
    net = _small_net()
    x = np.random.RandomState(0).uniform(-1, 1, (2, 3, 8, 8)).astype(np.float32)
    net(mx.nd.array(x))
    randomize_block(net)
    want = net(mx.nd.array(x)).asnumpy()
    prefix = str(tmp / "small")
    net.export(prefix)
    return {"net": net, "x": x, "want": want, "prefix": prefix, "tmp": tmp}


def test_file_paths_and_objects_give_the_same_model(small, tmp_path):
    prefix, x = small["prefix"], small["x"]
    p1 = mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [x.shape],
                              np.float32, str(tmp_path / "a.onnx"))
    assert p1 == str(tmp_path / "a.onnx")
    sym = mx.sym.load(prefix + "-symbol.json")
    saved = mx.nd.load(prefix + "-0000.params")
    assert any(k.startswith("aux:") for k in saved)  # the prefixes are stripped
    p2 = mx.onnx.export_model(sym, saved, [x.shape], onnx_file_path=str(tmp_path / "b.onnx"))
    arg = {k[4:]: v for k, v in saved.items() if k.startswith("arg:")}
    aux = {k[4:]: v for k, v in saved.items() if k.startswith("aux:")}
    p3 = mx.onnx.export_model(sym, [arg, aux], [x.shape], onnx_file_path=str(tmp_path / "c.onnx"))
    # MXNet's old argument names still work.
    p4 = mx.onnx.export_model(sym, saved, input_shape=[x.shape], input_type=[np.float32],
                              onnx_file_path=str(tmp_path / "d.onnx"))
    for p in (p1, p2, p3, p4):
        onnx.checker.check_model(p)
        assert rel_err(run_onnx(p, {"data": x})[0], small["want"]) <= 1e-5


def test_hybrid_block_is_exported_first(small, tmp_path):
    p = mx.onnx.export_model(small["net"], None, [small["x"].shape],
                             onnx_file_path=str(tmp_path / "m.onnx"))
    assert rel_err(run_onnx(p, {"data": small["x"]})[0], small["want"]) <= 1e-5


def test_batchnorm_is_exported_in_inference_form(small, tmp_path):
    p = mx.onnx.export_model(small["prefix"] + "-symbol.json", small["prefix"] + "-0000.params",
                             [small["x"].shape], onnx_file_path=str(tmp_path / "m.onnx"))
    ops = [n.op_type for n in onnx.load(p).graph.node]
    assert "BatchNormalization" in ops
    bn = [n for n in onnx.load(p).graph.node if n.op_type == "BatchNormalization"][0]
    assert len(bn.output) == 1  # no training-mode running-stat outputs


def test_dynamic_batch(small, tmp_path):
    prefix = small["prefix"]
    p = mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [(1, 3, 8, 8)],
                             onnx_file_path=str(tmp_path / "m.onnx"), dynamic=True,
                             dynamic_input_shapes=[(None, 3, 8, 8)])
    model = onnx.load(p)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert not dims[0].HasField("dim_value") and dims[1].dim_value == 3
    for batch in (1, 5):
        x = np.random.RandomState(batch).uniform(-1, 1, (batch, 3, 8, 8)).astype(np.float32)
        want = small["net"](mx.nd.array(x)).asnumpy()
        assert rel_err(run_onnx(p, {"data": x})[0], want) <= 1e-5


def test_dynamic_without_shapes_makes_every_dim_dynamic(small, tmp_path):
    prefix = small["prefix"]
    p = mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [(2, 3, 8, 8)],
                             onnx_file_path=str(tmp_path / "m.onnx"), dynamic=True)
    dims = onnx.load(p).graph.input[0].type.tensor_type.shape.dim
    assert [d.HasField("dim_value") for d in dims] == [False] * 4
    x = np.random.RandomState(3).uniform(-1, 1, (3, 3, 8, 8)).astype(np.float32)
    assert rel_err(run_onnx(p, {"data": x})[0], small["net"](mx.nd.array(x)).asnumpy()) <= 1e-5


def test_large_model_writes_external_data(small, tmp_path):
    prefix = small["prefix"]
    path = str(tmp_path / "big.onnx")
    mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [small["x"].shape],
                         onnx_file_path=path, large_model=True)
    assert os.path.getsize(path + ".data") >= 5 * 64 * 4  # the dense weight (5 x 4*4*4) at least
    assert rel_err(run_onnx(path, {"data": small["x"]})[0], small["want"]) <= 1e-5


@pytest.mark.parametrize("opset", [12, 13, 17, 18])
def test_every_opset_from_12(small, tmp_path, opset):
    prefix = small["prefix"]
    p = mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [small["x"].shape],
                             onnx_file_path=str(tmp_path / "m.onnx"), opset_version=opset)
    model = onnx.load(p)
    assert [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")] == [opset]
    assert rel_err(run_onnx(p, {"data": small["x"]})[0], small["want"]) <= 1e-5


def test_default_opset_is_13(small, tmp_path):
    p = mx.onnx.export_model(small["prefix"] + "-symbol.json", small["prefix"] + "-0000.params",
                             [small["x"].shape], onnx_file_path=str(tmp_path / "m.onnx"))
    assert [o.version for o in onnx.load(p).opset_import] == [13]


def test_newest_opset_checks(small, tmp_path):
    newest = onnx.defs.onnx_opset_version()
    p = mx.onnx.export_model(small["prefix"] + "-symbol.json", small["prefix"] + "-0000.params",
                             [small["x"].shape], onnx_file_path=str(tmp_path / "m.onnx"),
                             opset_version=newest)
    onnx.checker.check_model(p, full_check=True)


def test_run_shape_inference_records_value_info(small, tmp_path):
    p = mx.onnx.export_model(small["prefix"] + "-symbol.json", small["prefix"] + "-0000.params",
                             [small["x"].shape], onnx_file_path=str(tmp_path / "m.onnx"),
                             run_shape_inference=True)
    assert len(onnx.load(p).graph.value_info) > 0


def test_softmax_output_label_is_not_an_input(tmp_path):
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    out = mx.sym.SoftmaxOutput(fc, name="softmax")  # adds the softmax_label input
    assert "softmax_label" in out.list_arguments()
    rs = np.random.RandomState(0)
    params = {"fc_weight": mx.nd.array(rs.randn(3, 4)), "fc_bias": mx.nd.array(rs.randn(3))}
    x = rs.randn(2, 4).astype(np.float32)
    p = mx.onnx.export_model(out, params, [x.shape], onnx_file_path=str(tmp_path / "m.onnx"))
    assert [i.name for i in onnx.load(p).graph.input] == ["data"]
    z = x @ params["fc_weight"].asnumpy().T + params["fc_bias"].asnumpy()
    want = np.exp(z - z.max(1, keepdims=True))
    want /= want.sum(1, keepdims=True)
    assert rel_err(run_onnx(p, {"data": x})[0], want) <= 1e-5


def test_unsupported_operator_names_op_and_node(tmp_path):
    x = mx.sym.var("data")
    y = mx.sym.relu(mx.sym.khatri_rao(x, x, name="kr_node"))
    with pytest.raises(NotImplementedError, match=r"khatri_rao.*kr_node"):
        mx.onnx.export_model(y, {}, [(2, 3)], onnx_file_path=str(tmp_path / "m.onnx"))
    assert not os.path.exists(str(tmp_path / "m.onnx"))


def test_bad_arguments_raise_naming_the_function(small, tmp_path):
    prefix = small["prefix"]
    f = str(tmp_path / "m.onnx")
    with pytest.raises(ValueError, match="export_model.*in_shapes"):
        mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", None, onnx_file_path=f)
    with pytest.raises(ValueError, match="export_model.*in_shapes has 2"):
        mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [(1, 3, 8, 8)] * 2,
                             onnx_file_path=f)
    with pytest.raises(ValueError, match="export_model.*opset_version"):
        mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [(1, 3, 8, 8)],
                             onnx_file_path=f, opset_version=11)
    with pytest.raises(ValueError, match="export_model.*does not exist"):
        mx.onnx.export_model(str(tmp_path / "nope-symbol.json"), prefix + "-0000.params",
                             [(1, 3, 8, 8)], onnx_file_path=f)
    with pytest.raises(TypeError, match="export_model.*sym"):
        mx.onnx.export_model(42, {}, [(1, 3, 8, 8)], onnx_file_path=f)
    with pytest.raises(ValueError, match="export_model.*infer"):
        mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [(1, 5, 8, 8)],
                             onnx_file_path=f)


def test_missing_onnx_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setattr(onnx_deps, "_IMPORT_ERROR", ImportError("No module named 'onnx'"))
    with pytest.raises(ImportError, match=r"export_model.*weft\[onnx\]"):
        mx.onnx.export_model(mx.sym.var("x"), {}, [(1,)], onnx_file_path=str(tmp_path / "m.onnx"))
    with pytest.raises(ImportError, match=r"get_operator_support.*weft\[onnx\]"):
        mx.onnx.get_operator_support()
    missing = onnx_deps._Missing(ImportError("gone"))
    with pytest.raises(ImportError, match=r"weft\[onnx\]"):
        missing.helper


def test_get_operator_support():
    ops13 = mx.onnx.get_operator_support(13)
    assert ops13 == sorted(ops13)
    zoo_ops = {"Convolution", "FullyConnected", "BatchNorm", "Activation", "Pooling", "Flatten",
               "Concat", "Dropout", "clip", "elemwise_add", "LeakyReLU", "Reshape", "softmax",
               "SoftmaxOutput", "transpose", "slice_axis", "batch_dot", "Embedding", "LayerNorm",
               "UpSampling", "_contrib_BilinearResize2D", "Cast"}
    assert zoo_ops <= set(ops13)
    assert mx.onnx.get_operator_support() == mx.onnx.get_operator_support(onnx.defs.onnx_opset_version())
    assert set(mx.onnx.get_operator_support(12)) <= set(mx.onnx.get_operator_support(18))
    assert mx.onnx.get_operator_support(11) == []
    with pytest.raises(TypeError, match="get_operator_support"):
        mx.onnx.get_operator_support("13")


def test_a_model_zoo_net_with_every_pooling_kind(tmp_path):
    # SqueezeNet 1.1: ceil-mode ('full') max pooling, Concat, a Dropout, global avg pooling.
    net = vision.get_model("squeezenet1.1", classes=10)
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = np.random.RandomState(0).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    net(mx.nd.array(x))
    randomize_block(net)
    want = net(mx.nd.array(x)).asnumpy()
    net.export(str(tmp_path / "sq"))
    p = mx.onnx.export_model(str(tmp_path / "sq-symbol.json"), str(tmp_path / "sq-0000.params"),
                             [x.shape], onnx_file_path=str(tmp_path / "sq.onnx"))
    assert rel_err(run_onnx(p, {"data": x})[0], want) <= 1e-5


def test_command_line_export(small, tmp_path):
    prefix, x = small["prefix"], small["x"]
    out = str(tmp_path / "cli.onnx")
    run = subprocess.run([sys.executable, "-m", "weft.tools.onnx", "export", prefix + "-symbol.json",
                          prefix + "-0000.params", "--shape", "2,3,8,8", "-o", out, "--dynamic-batch"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == out
    assert rel_err(run_onnx(out, {"data": x})[0], small["want"]) <= 1e-5
    x3 = np.concatenate([x, x[:1]])
    assert rel_err(run_onnx(out, {"data": x3})[0], small["net"](mx.nd.array(x3)).asnumpy()) <= 1e-5


def test_command_line_errors(small, tmp_path):
    prefix = small["prefix"]
    bad = subprocess.run([sys.executable, "-m", "weft.tools.onnx", "export", prefix + "-symbol.json",
                          prefix + "-0000.params", "--shape", "2,3,x", "-o", str(tmp_path / "m.onnx")],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "comma-separated" in bad.stderr
    wrong = subprocess.run([sys.executable, "-m", "weft.tools.onnx", "export", prefix + "-symbol.json",
                            prefix + "-0000.params", "--shape", "2,3,8,8", "--shape", "1,2",
                            "-o", str(tmp_path / "m.onnx")], capture_output=True, text=True, timeout=300)
    assert wrong.returncode == 1 and "in_shapes has 2" in wrong.stderr


def test_command_line_import_writes_mxnet_files(small, tmp_path):
    prefix, x = small["prefix"], small["x"]
    model = mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params", [x.shape],
                                 onnx_file_path=str(tmp_path / "m.onnx"))
    out = str(tmp_path / "back")
    run = subprocess.run([sys.executable, "-m", "weft.tools.onnx", "import", model, "-o", out],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    saved = mx.nd.load(out + "-0000.params")
    assert any(k.startswith("aux:") for k in saved) and any(k.startswith("arg:") for k in saved)
    net = mx.gluon.SymbolBlock.imports(out + "-symbol.json", ["data"], out + "-0000.params")
    assert rel_err(net(mx.nd.array(x)).asnumpy(), small["want"]) <= 1e-5
    missing = subprocess.run([sys.executable, "-m", "weft.tools.onnx", "import", str(tmp_path / "no.onnx"),
                              "-o", out], capture_output=True, text=True, timeout=300)
    assert missing.returncode == 1 and "does not exist" in missing.stderr


def test_huge_constants_are_refused(tmp_path):
    huge = mx.sym.broadcast_add(mx.sym.zeros((10 ** 6, 10 ** 6), name="big"), mx.sym.var("data"))
    with pytest.raises(ValueError, match=r"_zeros.*big.*elements"):
        mx.onnx.export_model(huge, {}, [(1, 1)], onnx_file_path=str(tmp_path / "m.onnx"))
    long = mx.sym.broadcast_add(mx.sym.arange(0, 1e12, name="long"), mx.sym.var("data"))
    with pytest.raises(ValueError, match=r"_arange.*long.*elements"):
        mx.onnx.export_model(long, {}, [(1,)], onnx_file_path=str(tmp_path / "m.onnx"))


def test_traced_size_constants_refuse_dynamic_spatial_dims(tmp_path):
    anchors = mx.sym.contrib.MultiBoxPrior(mx.sym.var("data"), sizes=(0.5,), name="anchors")
    ok = mx.onnx.export_model(anchors, {}, [(1, 3, 4, 4)], onnx_file_path=str(tmp_path / "a.onnx"),
                              dynamic=True, dynamic_input_shapes=[(None, 3, 4, 4)])
    assert run_onnx(ok, {"data": np.zeros((2, 3, 4, 4), np.float32)})[0].shape == (1, 16, 4)
    with pytest.raises(ValueError, match="MultiBoxPrior.*anchors.*batch dimension"):
        mx.onnx.export_model(anchors, {}, [(1, 3, 4, 4)], onnx_file_path=str(tmp_path / "b.onnx"),
                             dynamic=True, dynamic_input_shapes=[(None, 3, None, None)])
