"""Issue 17 "Done when": an MXNet 1.9.1 export using SwapAxis and a
bidirectional LSTM loads and predicts equal to MXNet.

The symbol JSON is written by hand in the layout MXNet 1.9.1 writes
(../shared/FORMATS.md; nodes / arg_nodes / node_row_ptr / heads / attrs with
mxnet_version 10901), as Gluon 1.9.1 exports a tagger made of rnn.LSTM(H,
bidirectional=True, layout='NTC') and Dense(K, flatten=False): the NTC input
swapped to TNC (SwapAxis), each weight flattened (Reshape(-1)) and joined by
_rnn_param_concat in MXNet's packed order (all weights, then all biases; per
direction l then r; i2h then h2h), the begin states as _zeros with an unknown
(0) batch, the fused RNN op with state_outputs, the output swapped back, then
FullyConnected. The reference is NumPy, written from MXNet's LSTM formula
(gates i, f, g, o)."""
import json

import numpy as np
import pytest

import weft as mx

N, T, C, H, K = 2, 5, 3, 4, 6
PREFIX = "tagger0_"


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def lstm_direction(x, wi, wh, bi, bh, reverse):
    """x (T, N, C) -> (T, N, H) for one direction, zero begin states."""
    h = np.zeros((x.shape[1], wh.shape[1]))
    c = np.zeros_like(h)
    ys = [None] * len(x)
    for t in (reversed(range(len(x))) if reverse else range(len(x))):
        i, f, g, o = np.split(x[t] @ wi.T + bi + h @ wh.T + bh, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        ys[t] = h
    return np.stack(ys)


def reference(data, p):
    x = np.swapaxes(data.astype(np.float64), 0, 1)  # SwapAxis(dim1=0, dim2=1): NTC -> TNC
    fwd = lstm_direction(x, p["l0_i2h_weight"], p["l0_h2h_weight"], p["l0_i2h_bias"], p["l0_h2h_bias"], False)
    bwd = lstm_direction(x, p["r0_i2h_weight"], p["r0_h2h_weight"], p["r0_i2h_bias"], p["r0_h2h_bias"], True)
    y = np.swapaxes(np.concatenate([fwd, bwd], axis=2), 0, 1)  # back to NTC
    return y @ p["dense0_weight"].T + p["dense0_bias"]


# The parameters in _rnn_param_concat's order (Gluon 1.9.1's _RNNLayer._forward_kernel).
RNN_PARAMS = ["l0_i2h_weight", "l0_h2h_weight", "r0_i2h_weight", "r0_h2h_weight",
              "l0_i2h_bias", "l0_h2h_bias", "r0_i2h_bias", "r0_h2h_bias"]


def export_json():
    """The -symbol.json MXNet 1.9.1 writes for the tagger, node by node."""
    nodes = []

    def add(op, name, attrs=None, inputs=()):
        node = {"op": op, "name": name, "inputs": [[i, 0, 0] for i in inputs]}
        if attrs is not None:
            node["attrs"] = attrs
        nodes.append(node)
        return len(nodes) - 1

    def var(name, shape, init=None):
        attrs = {"__dtype__": "0", "__lr_mult__": "1.0", "__shape__": shape, "__storage_type__": "0",
                 "__wd_mult__": "1.0"}
        if init:
            attrs["__init__"] = init
        return add("null", PREFIX + name, attrs)

    data = add("null", "data")
    swapped = add("SwapAxis", PREFIX + "lstm0_swapaxes0", {"dim1": "0", "dim2": "1"}, [data])
    flat = []
    for name in RNN_PARAMS:
        shape = {"i2h_weight": "(%d, 0)" % (4 * H), "h2h_weight": "(%d, %d)" % (4 * H, H),
                 "i2h_bias": "(%d,)" % (4 * H), "h2h_bias": "(%d,)" % (4 * H)}[name[3:]]
        v = var("lstm0_" + name, shape, "zeros" if name.endswith("bias") else None)
        flat.append(add("Reshape", PREFIX + "lstm0_reshape%d" % len(flat), {"shape": "(-1,)"}, [v]))
    params = add("_rnn_param_concat", PREFIX + "lstm0_rnn_param_concat0", {"dim": "0", "num_args": "8"}, flat)
    h0 = add("_zeros", PREFIX + "lstm0_h0", {"__layout__": "LNC", "dtype": "float32", "shape": "(2, 0, %d)" % H})
    c0 = add("_zeros", PREFIX + "lstm0_h1", {"__layout__": "LNC", "dtype": "float32", "shape": "(2, 0, %d)" % H})
    rnn = add("RNN", PREFIX + "lstm0_rnn0", {
        "bidirectional": "True", "lstm_state_clip_max": "None", "lstm_state_clip_min": "None",
        "lstm_state_clip_nan": "False", "mode": "lstm", "num_layers": "1", "p": "0.0",
        "projection_size": "None", "state_outputs": "True", "state_size": str(H), "use_sequence_length": "False"},
        [swapped, params, h0, c0])
    back = add("SwapAxis", PREFIX + "lstm0_swapaxes1", {"dim1": "0", "dim2": "1"}, [rnn])
    w = var("dense0_weight", "(%d, 0)" % K)
    b = var("dense0_bias", "(%d,)" % K, "zeros")
    out = add("FullyConnected", PREFIX + "dense0_fwd", {"flatten": "False", "no_bias": "False",
                                                         "num_hidden": str(K)}, [back, w, b])
    row_ptr = [0]
    for node in nodes:
        row_ptr.append(row_ptr[-1] + (3 if node["op"] == "RNN" else 1))
    return json.dumps({
        "nodes": nodes,
        "arg_nodes": [i for i, n in enumerate(nodes) if n["op"] == "null"],
        "node_row_ptr": row_ptr,
        "heads": [[out, 0, 0]],
        "attrs": {"mxnet_version": ["int", 10901]},
    }, indent=2)


def make_params(rng):
    shapes = {"l0_i2h_weight": (4 * H, C), "l0_h2h_weight": (4 * H, H), "l0_i2h_bias": (4 * H,),
              "l0_h2h_bias": (4 * H,), "dense0_weight": (K, 2 * H), "dense0_bias": (K,)}
    p = {}
    for name, shape in shapes.items():
        p[name] = rng.uniform(-0.5, 0.5, size=shape).astype(np.float32)
        if name.startswith("l0"):
            p["r" + name[1:]] = rng.uniform(-0.5, 0.5, size=shape).astype(np.float32)
    return p


@pytest.fixture()
def export(tmp_path):
    rng = np.random.default_rng(17)
    p = make_params(rng)
    sym_file = tmp_path / "tagger-symbol.json"
    sym_file.write_text(export_json())
    params_file = tmp_path / "tagger-0000.params"
    prefixed = {PREFIX + ("dense0_" + k[len("dense0_"):] if k.startswith("dense0") else "lstm0_" + k): v
                for k, v in p.items()}
    mx.nd.save(str(params_file), {"arg:" + k: mx.nd.array(v) for k, v in prefixed.items()})
    data = rng.uniform(-1, 1, size=(N, T, C)).astype(np.float32)
    return sym_file, params_file, p, data


def test_export_json_is_mxnet_layout():
    doc = json.loads(export_json())
    assert set(doc) == {"nodes", "arg_nodes", "node_row_ptr", "heads", "attrs"}
    assert doc["attrs"]["mxnet_version"] == ["int", 10901]
    assert [n["op"] for n in doc["nodes"]].count("SwapAxis") == 2
    assert len(doc["node_row_ptr"]) == len(doc["nodes"]) + 1


def test_symbol_load_and_bind_predicts_like_mxnet(export):
    sym_file, params_file, p, data = export
    net = mx.sym.load(str(sym_file))
    assert net.list_arguments()[0] == "data"
    loaded = mx.nd.load(str(params_file))
    args = {k[4:]: v for k, v in loaded.items()}
    args["data"] = mx.nd.array(data)
    exe = net.bind(mx.cpu(), args=args, grad_req="null")
    got = exe.forward(is_train=False)[0].asnumpy()
    assert got.shape == (N, T, K)
    np.testing.assert_allclose(got, reference(data, p), rtol=1e-4, atol=1e-5)


def test_predictor_predicts_like_mxnet(export):
    sym_file, params_file, p, data = export
    pred = mx.predictor.Predictor(str(sym_file), str(params_file), {"data": (N, T, C)})
    pred.forward(data=data)
    got = pred.get_output(0)
    got = got.asnumpy() if hasattr(got, "asnumpy") else np.asarray(got)
    np.testing.assert_allclose(got, reference(data, p), rtol=1e-4, atol=1e-5)
