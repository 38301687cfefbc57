"""Recurrent models exported to ONNX (weft.onnx, issue 40): LSTM, GRU and
vanilla-RNN taggers (Embedding -> stacked bidirectional recurrent layer ->
Dense), run in ONNX Runtime equal to Weft, with dynamic batch and sequence
length; and the RNN operator's state outputs."""
import numpy as np
import pytest

from onnx_check import rel_err, run_onnx, weft_eval

import weft as mx
from weft.gluon import nn, rnn


def _tagger(kind, layers, bidirectional):
    net = nn.HybridSequential()
    layer = {"lstm": rnn.LSTM, "gru": rnn.GRU, "rnn_tanh": rnn.RNN, "rnn_relu": rnn.RNN}[kind]
    kwargs = {"activation": kind[4:]} if kind.startswith("rnn") else {}
    net.add(nn.Embedding(30, 8),
            layer(6, num_layers=layers, layout="NTC", bidirectional=bidirectional, input_size=8, **kwargs),
            nn.Dense(5, flatten=False))
    net.initialize(mx.init.Uniform(0.5))
    net.hybridize()
    return net


@pytest.mark.parametrize("kind,layers,bidirectional", [
    ("lstm", 2, True), ("lstm", 1, False), ("gru", 2, True), ("gru", 1, False),
    ("rnn_tanh", 2, True), ("rnn_relu", 1, False)])
def test_tagger_exports_equal(kind, layers, bidirectional, tmp_path):
    net = _tagger(kind, layers, bidirectional)
    tokens = np.random.RandomState(0).randint(0, 30, (2, 7)).astype(np.float32)
    want = net(mx.nd.array(tokens)).asnumpy()
    net.export(str(tmp_path / "tagger"))
    path = mx.onnx.export_model(str(tmp_path / "tagger-symbol.json"), str(tmp_path / "tagger-0000.params"),
                                [tokens.shape], onnx_file_path=str(tmp_path / "m.onnx"),
                                dynamic=True, dynamic_input_shapes=[(None, None)])
    assert rel_err(run_onnx(path, {"data": tokens})[0], want) <= 1e-5
    # Another batch size and sequence length through the same model.
    other = np.random.RandomState(1).randint(0, 30, (3, 4)).astype(np.float32)
    assert rel_err(run_onnx(path, {"data": other})[0], net(mx.nd.array(other)).asnumpy()) <= 1e-5


@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn_tanh"])
@pytest.mark.parametrize("opset", [12, 13])
def test_rnn_operator_state_outputs(mode, opset, tmp_path):
    hidden, layers, dirs, width = 4, 2, 2, 3
    gates = {"lstm": 4, "gru": 3, "rnn_tanh": 1}[mode]
    n_params = 0
    for layer in range(layers):
        cols = width if layer == 0 else dirs * hidden
        n_params += dirs * gates * hidden * (cols + hidden + 2)
    x, p, h, c = (mx.sym.var(n) for n in ("x", "p", "h", "c"))
    states = [h, c] if mode == "lstm" else [h]
    sym = mx.sym.RNN(x, p, *states, state_size=hidden, num_layers=layers, bidirectional=True,
                     mode=mode, state_outputs=True)
    rs = np.random.RandomState(3)
    feeds = {"x": rs.uniform(-1, 1, (5, 2, width)).astype(np.float32),
             "h": rs.uniform(-1, 1, (layers * dirs, 2, hidden)).astype(np.float32)}
    if mode == "lstm":
        feeds["c"] = rs.uniform(-1, 1, (layers * dirs, 2, hidden)).astype(np.float32)
    params = {"p": rs.uniform(-0.5, 0.5, (n_params,)).astype(np.float32)}
    want = weft_eval(sym, feeds, params)
    order = [n for n in sym.list_arguments() if n in feeds]
    path = mx.onnx.export_model(sym, {"p": mx.nd.array(params["p"])}, [feeds[n].shape for n in order],
                                onnx_file_path=str(tmp_path / "m.onnx"), opset_version=opset)
    got = run_onnx(path, feeds)
    assert len(got) == len(want) == (3 if mode == "lstm" else 2)
    for g, w in zip(got, want):
        assert rel_err(g, w) <= 1e-5


@pytest.mark.parametrize("kind,layers,bidirectional", [("lstm", 2, True), ("gru", 1, False), ("rnn_tanh", 2, True)])
def test_tagger_imports_back_equal(kind, layers, bidirectional, tmp_path):
    net = _tagger(kind, layers, bidirectional)
    tokens = np.random.RandomState(0).randint(0, 30, (2, 7)).astype(np.float32)
    want = net(mx.nd.array(tokens)).asnumpy()
    net.export(str(tmp_path / "tagger"))
    path = mx.onnx.export_model(str(tmp_path / "tagger-symbol.json"), str(tmp_path / "tagger-0000.params"),
                                [tokens.shape], onnx_file_path=str(tmp_path / "m.onnx"))
    sym, arg, aux = mx.onnx.import_model(path)
    ex = sym.bind(mx.cpu(), dict(arg, data=mx.nd.array(tokens)), aux_states=aux, grad_req="null")
    got = ex.forward(is_train=False)[0].asnumpy()
    assert rel_err(got, want) <= 1e-5
    assert rel_err(got, run_onnx(path, {"data": tokens})[0]) <= 1e-5
