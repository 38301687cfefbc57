"""weft.predictor.Predictor (the predict API through cffi): a model exported by
HybridBlock.export predicts what Gluon computed; the CNN written by MXNet 1.9.1
gives MXNet's recorded output; partial outputs, reshape (parameters shared),
concurrent predictors, and errors that name what was wrong."""
import os
import threading

import numpy as np
import pytest

import weft as mx
from weft import autograd, gluon, nd
from weft.base import (InvalidArgumentError, NotFoundError, ShapeError, WeftError, WeftIOError, ffi, lib,
                       check_call)
from weft.gluon import nn
from weft.predictor import Predictor

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, os.pardir, "shared",
                        "fixtures")
if not os.path.isdir(FIXTURES):
    FIXTURES = "/work/shared/fixtures"
CNN_SYMBOL = os.path.join(FIXTURES, "cnn-symbol.json")
CNN_PARAMS = os.path.join(FIXTURES, "cnn-0000.params")
CNN_IO = os.path.join(FIXTURES, "cnn-io.npz")


@pytest.fixture(autouse=True)
def fresh_names():
    with mx.name.NameManager():
        yield


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _exported_cnn(tmp_path):
    """A small hybridized CNN (BatchNorm statistics moved off 0/1), exported;
    returns (prefix, input, Gluon's output)."""
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(),
                nn.Conv2D(3, 3, padding=1, activation="relu"), nn.Flatten(), nn.Dense(6, activation="tanh"),
                nn.Dropout(0.5), nn.Dense(5))
    net.initialize(mx.init.Xavier())
    with autograd.record():
        net(nd.array(_rand(4, 3, 8, 8, seed=1)))
    net.hybridize()
    x = _rand(2, 3, 8, 8)
    y = net(nd.array(x)).asnumpy()
    prefix = str(tmp_path / "net")
    net.export(prefix)
    return prefix, x, y


def test_exported_model_predicts_what_gluon_computed(tmp_path):
    prefix, x, y = _exported_cnn(tmp_path)
    pred = Predictor(prefix + "-symbol.json", prefix + "-0000.params", {"data": x.shape})
    assert pred.input_names == ["data"] and pred.input_shapes == {"data": (2, 3, 8, 8)}
    assert pred.input_dtypes == {"data": np.dtype(np.float32)}
    assert pred.num_outputs == 1 and pred.output_shapes == [(2, 5)]
    (out,) = pred.forward(data=x)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, y, rtol=1e-5, atol=1e-6)
    # JSON text and parameter bytes work as well as paths; so does an NDArray input.
    with open(prefix + "-symbol.json", encoding="utf-8") as f:
        text = f.read()
    with open(prefix + "-0000.params", "rb") as f:
        blob = f.read()
    pred2 = Predictor(text, blob, {"data": x.shape}, ctx="cpu(0)")
    np.testing.assert_allclose(pred2.forward(data=nd.array(x))[0], y, rtol=1e-5, atol=1e-6)
    # get_output repeats the last forward's result.
    np.testing.assert_array_equal(pred2.get_output(0), pred2.get_output(-1))


def test_predictor_matches_the_symbol_executor(tmp_path):
    prefix, x, _ = _exported_cnn(tmp_path)
    sym = mx.sym.load(prefix + "-symbol.json")
    loaded = nd.load(prefix + "-0000.params")
    args = {k[4:]: v for k, v in loaded.items() if k.startswith("arg:")}
    aux = {k[4:]: v for k, v in loaded.items() if k.startswith("aux:")}
    args["data"] = nd.array(x)
    exe = sym.bind(mx.cpu(), args, grad_req="null", aux_states=aux)
    want = exe.forward(is_train=False)[0].asnumpy()
    pred = Predictor(sym, prefix + "-0000.params", {"data": x.shape})
    np.testing.assert_allclose(pred.forward(data=x)[0], want, rtol=1e-6, atol=1e-7)


def test_mxnet_fixture_gives_mxnets_output():
    io = np.load(CNN_IO)
    pred = Predictor(CNN_SYMBOL, CNN_PARAMS, {"data": io["data"].shape})
    assert pred.output_names == ["cnn_dense1_fwd_output"]
    np.testing.assert_allclose(pred.forward(data=io["data"])[0], io["output"], rtol=1e-4, atol=1e-4)


def test_partial_outputs_extract_features():
    io = np.load(CNN_IO)
    params = nd.load(CNN_PARAMS)
    w = params["arg:cnn_dense1_weight"].asnumpy()
    b = params["arg:cnn_dense1_bias"].asnumpy()
    feats = Predictor(CNN_SYMBOL, CNN_PARAMS, {"data": (2, 3, 8, 8)},
                      output_names=["cnn_dropout0_fwd_output", "cnn_flatten0_flatten0"])
    assert feats.output_names == ["cnn_dropout0_fwd_output", "cnn_flatten0_flatten0_output"]
    assert feats.output_shapes == [(2, 16), (2, 64)]
    hidden, flat = feats.forward(data=io["data"])
    assert (hidden >= 0).all() and (flat >= 0).all()  # after relu (dropout is identity in inference)
    # The last layer applied here to the extracted features gives MXNet's output.
    np.testing.assert_allclose(hidden @ w.T + b, io["output"], rtol=1e-4, atol=1e-4)


def _bytes_in_use():
    stats = ffi.new("weft_storage_stats*")
    check_call(lib.weft_storage_stats_get(1, 0, stats))
    return stats.bytes_in_use


def test_reshape_changes_batch_and_shares_parameters(tmp_path):
    io = np.load(CNN_IO)
    pred = Predictor(CNN_SYMBOL, CNN_PARAMS, {"data": (2, 3, 8, 8)})
    assert pred.reshape({"data": (1, 3, 8, 8)}) is pred
    assert pred.input_shapes == {"data": (1, 3, 8, 8)} and pred.output_shapes == [(1, 5)]
    np.testing.assert_allclose(pred.forward(data=io["data"][1:])[0], io["output"][1:], rtol=1e-4, atol=1e-4)
    pred.reshape({"data": (4, 3, 8, 8)})
    x4 = np.concatenate([io["data"], io["data"]])
    np.testing.assert_allclose(pred.forward(data=x4)[0], np.concatenate([io["output"]] * 2), rtol=1e-4, atol=1e-4)

    # A model whose weight (16 MB) dwarfs its activations: reshaping allocates
    # the activations only, never a second copy of the weight.
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=2048, name="fc")
    w = _rand(2048, 2048, seed=3)
    path = str(tmp_path / "big.params")
    nd.save(path, {"arg:fc_weight": nd.array(w), "arg:fc_bias": nd.zeros((2048,))})
    big = Predictor(net, path, {"data": (1, 2048)})
    x = _rand(3, 2048, seed=4)
    mx.waitall()
    before = _bytes_in_use()
    big.reshape({"data": (3, 2048)})
    grown = _bytes_in_use() - before
    assert grown < w.nbytes // 4, "reshape allocated %d bytes" % grown
    np.testing.assert_allclose(big.forward(data=x)[0], x @ w.T, rtol=1e-4, atol=1e-3)


def test_distinct_predictors_run_concurrently():
    io = np.load(CNN_IO)
    results, errors = {}, []

    def run(k):
        try:
            p = Predictor(CNN_SYMBOL, CNN_PARAMS, {"data": (2, 3, 8, 8)})
            for _ in range(20):
                results[k] = p.forward(data=io["data"])[0]
        except Exception as e:  # pylint: disable=broad-except
            errors.append(e)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(4):
        np.testing.assert_allclose(results[k], io["output"], rtol=1e-4, atol=1e-4)


def test_errors_name_what_was_wrong_and_leave_the_library_working(tmp_path):
    io = np.load(CNN_IO)
    with open(CNN_SYMBOL, encoding="utf-8") as f:
        text = f.read()
    with pytest.raises(WeftError, match="symbol"):
        Predictor("{\"nodes\": [", CNN_PARAMS, {"data": (2, 3, 8, 8)})
    with pytest.raises(WeftIOError, match="parameter"):
        Predictor(text, open(CNN_PARAMS, "rb").read()[:100], {"data": (2, 3, 8, 8)})
    # A parameter missing from the file.
    params = nd.load(CNN_PARAMS)
    partial = {k: v for k, v in params.items() if k != "arg:cnn_dense1_bias"}
    nd.save(str(tmp_path / "missing.params"), partial)
    with pytest.raises(NotFoundError, match="cnn_dense1_bias"):
        Predictor(text, str(tmp_path / "missing.params"), {"data": (2, 3, 8, 8)})
    # A parameter of the wrong shape: the message names it and both shapes.
    wrong = dict(params)
    wrong["arg:cnn_dense1_weight"] = nd.zeros((5, 17))
    nd.save(str(tmp_path / "wrong.params"), wrong)
    with pytest.raises(ShapeError, match=r"cnn_dense1_weight.*\(5, 17\).*\(5, 16\)"):
        Predictor(text, str(tmp_path / "wrong.params"), {"data": (2, 3, 8, 8)})
    # Inputs: an unknown name, a parameter named as input, a wrong input shape.
    with pytest.raises(NotFoundError, match="images"):
        Predictor(text, CNN_PARAMS, {"images": (2, 3, 8, 8)})
    with pytest.raises(InvalidArgumentError, match="cnn_dense1_bias"):
        Predictor(text, CNN_PARAMS, {"data": (2, 3, 8, 8), "cnn_dense1_bias": (5,)})
    with pytest.raises(WeftError, match="cnn_conv0_fwd|data"):
        Predictor(text, CNN_PARAMS, {"data": (2, 8, 8)})
    with pytest.raises(NotFoundError, match="fc9_output"):
        Predictor(text, CNN_PARAMS, {"data": (2, 3, 8, 8)}, output_names=["fc9_output"])

    pred = Predictor(text, CNN_PARAMS, {"data": (2, 3, 8, 8)})
    with pytest.raises(ShapeError, match=r"data.*\(1, 3, 8, 8\).*\(2, 3, 8, 8\)"):
        pred.forward(data=io["data"][:1])
    with pytest.raises(NotFoundError, match="images"):
        pred.forward(images=io["data"])
    with pytest.raises(InvalidArgumentError, match="out of range"):
        pred.get_output(1)
    with pytest.raises(NotFoundError, match="images"):
        pred.reshape({"images": (1, 3, 8, 8)})
    with pytest.raises(InvalidArgumentError):
        Predictor(text, CNN_PARAMS, {"data": (2, 3, 8, 8)}, ctx="tpu(0)")
    with pytest.raises(TypeError):
        Predictor(text, 42, {"data": (2, 3, 8, 8)})
    # Still works, and the failed reshape left the shapes as they were.
    assert pred.input_shapes == {"data": (2, 3, 8, 8)}
    np.testing.assert_allclose(pred.forward(data=io["data"])[0], io["output"], rtol=1e-4, atol=1e-4)


def test_model_zoo_symbol_block_round_trip(tmp_path):
    """A model exported from Gluon and reloaded with SymbolBlock agrees with the
    predictor (both paths read the same files)."""
    prefix, x, y = _exported_cnn(tmp_path)
    back = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], prefix + "-0000.params")
    pred = Predictor(prefix + "-symbol.json", prefix + "-0000.params", {"data": x.shape})
    np.testing.assert_allclose(pred.forward(data=x)[0], back(nd.array(x)).asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pred.get_output(0), y, rtol=1e-5, atol=1e-6)
