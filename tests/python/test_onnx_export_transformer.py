"""A transformer encoder layer and encoder-decoder attention built from
MXNet's fused attention operators (interleaved_matmul_*), exported to ONNX
(weft.onnx, issue 40) and run in ONNX Runtime equal to Weft, with dynamic
sequence length and batch."""
import numpy as np
import pytest

from onnx_check import rel_err, run_onnx, weft_eval

import weft as mx

S = mx.sym
E, HEADS, FFN = 8, 2, 16


def _encoder_layer():
    """Self-attention (fused qkv projection) + residual + LayerNorm, then a GELU
    feed-forward + residual + LayerNorm, on (seq, batch, E) as BERT's graph."""
    x = S.var("data")
    qkv = S.FullyConnected(x, S.var("qkv_weight"), S.var("qkv_bias"), num_hidden=3 * E, flatten=False)
    scores = S.contrib.interleaved_matmul_selfatt_qk(qkv, heads=HEADS)
    att = S.softmax(scores, axis=-1)
    ctx = S.contrib.interleaved_matmul_selfatt_valatt(qkv, att, heads=HEADS)
    proj = S.FullyConnected(ctx, S.var("proj_weight"), S.var("proj_bias"), num_hidden=E, flatten=False)
    h = S.LayerNorm(x + proj, S.var("ln1_gamma"), S.var("ln1_beta"))
    f = S.FullyConnected(h, S.var("ffn1_weight"), S.var("ffn1_bias"), num_hidden=FFN, flatten=False)
    f = S.LeakyReLU(f, act_type="gelu")
    f = S.FullyConnected(f, S.var("ffn2_weight"), S.var("ffn2_bias"), num_hidden=E, flatten=False)
    return S.LayerNorm(h + f, S.var("ln2_gamma"), S.var("ln2_beta"))


def _params(sym, data_shapes, seed):
    rs = np.random.RandomState(seed)
    shapes = dict(zip(sym.list_arguments(), sym.infer_shape(**data_shapes)[0]))
    return {n: rs.uniform(-0.5, 0.5, s).astype(np.float32) + (1.0 if n.endswith("gamma") else 0.0)
            for n, s in shapes.items() if n not in data_shapes}


@pytest.mark.parametrize("opset", [12, 13, 17])
def test_encoder_layer_exports_equal(opset, tmp_path):
    sym = _encoder_layer()
    x = np.random.RandomState(0).uniform(-1, 1, (5, 2, E)).astype(np.float32)
    params = _params(sym, {"data": x.shape}, 1)
    want = weft_eval(sym, {"data": x}, params)[0]
    path = mx.onnx.export_model(sym, {k: mx.nd.array(v) for k, v in params.items()}, [x.shape],
                                onnx_file_path=str(tmp_path / "enc.onnx"), opset_version=opset,
                                dynamic=True, dynamic_input_shapes=[(None, None, E)])
    assert rel_err(run_onnx(path, {"data": x})[0], want) <= 1e-5
    other = np.random.RandomState(2).uniform(-1, 1, (3, 4, E)).astype(np.float32)
    assert rel_err(run_onnx(path, {"data": other})[0], weft_eval(sym, {"data": other}, params)[0]) <= 1e-5


@pytest.mark.parametrize("opset", [13, 17])
def test_encoder_layer_imports_back_equal(opset, tmp_path):
    # Exported with static shapes, its run-time shape computations fold on import.
    sym = _encoder_layer()
    x = np.random.RandomState(0).uniform(-1, 1, (5, 2, E)).astype(np.float32)
    params = _params(sym, {"data": x.shape}, 1)
    want = weft_eval(sym, {"data": x}, params)[0]
    path = mx.onnx.export_model(sym, {k: mx.nd.array(v) for k, v in params.items()}, [x.shape],
                                onnx_file_path=str(tmp_path / "enc.onnx"), opset_version=opset)
    back, arg, aux = mx.onnx.import_model(path)
    got = weft_eval(back, {"data": x}, {k: v.asnumpy() for k, v in arg.items()})[0]
    assert rel_err(got, want) <= 1e-5


def test_encoder_decoder_attention_exports_equal(tmp_path):
    q, kv = S.var("q"), S.var("kv")
    scores = S.contrib.interleaved_matmul_encdec_qk(q, kv, heads=HEADS)
    out = S.contrib.interleaved_matmul_encdec_valatt(kv, S.softmax(scores), heads=HEADS)
    sym = S.Group([scores, out, S.contrib.div_sqrt_dim(q)])
    rs = np.random.RandomState(0)
    feeds = {"q": rs.uniform(-1, 1, (3, 2, E)).astype(np.float32),
             "kv": rs.uniform(-1, 1, (5, 2, 2 * E)).astype(np.float32)}
    want = weft_eval(sym, feeds, {})
    path = mx.onnx.export_model(sym, {}, [feeds["q"].shape, feeds["kv"].shape],
                                onnx_file_path=str(tmp_path / "att.onnx"))
    got = run_onnx(path, feeds)
    for g, w in zip(got, want):
        assert rel_err(g, w) <= 1e-5
