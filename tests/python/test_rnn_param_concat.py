"""Issue 41 point 5: _rnn_param_concat infers shapes as MXNet 1.9.1's
RNNParamConcatShape (Note [RNN parameter concat], core/op/shape/concat.cc),
and the graph pass fills a Reshape(-1) input's unknown dim from its output
(Note [Partial shapes], step 4), so an exported Gluon BiLSTM tagger binds in
a Module from its data shape alone."""
import os

import numpy as np
import pytest

import weft as mx
from weft import gluon
from weft.gluon import nn, rnn

sym = mx.sym

VOCAB, EMBED, HIDDEN, TAGS = 11, 5, 4, 6


def _concat3(**attrs):
    a, b, c = sym.Variable("a"), sym.Variable("b"), sym.Variable("c")
    return sym._internal._rnn_param_concat(a, b, c, num_args=3, dim=0, name="cat", **attrs)


def _infer(s, **shapes):
    arg, out, _ = s.infer_shape_partial(**shapes)
    return dict(zip(s.list_arguments(), arg)), out


def _with_output(n):
    """_rnn_param_concat of a, b, c whose output feeds an op of known shape
    (c + Variable 'o' of shape (n,)), so the output is known from there."""
    cat = _concat3()
    return cat + sym.Variable("o")


def test_forward_like_concat():
    args, out = _infer(_concat3(), a=(3,), b=(4,), c=(5,))
    assert out == [(12,)]
    y = mx.nd._internal._rnn_param_concat(mx.nd.array([1, 2]), mx.nd.array([3]), num_args=2, dim=0)
    np.testing.assert_array_equal(y.asnumpy(), [1, 2, 3])


def test_one_unknown_input_from_output():
    args, out = _infer(_with_output(12), a=(3,), b=(4,), o=(12,))
    assert args["c"] == (5,) and out == [(12,)]


def test_two_unknown_inputs_share_the_rest():
    args, out = _infer(_with_output(12), a=(4,), o=(12,))
    assert args["b"] == (4,) and args["c"] == (4,)


def test_two_unknown_inputs_dim1():
    a, b, c = sym.Variable("a"), sym.Variable("b"), sym.Variable("c")
    s = sym._internal._rnn_param_concat(a, b, c, num_args=3, dim=1) + sym.Variable("o")
    args, _ = _infer(s, b=(2, 3), o=(2, 9))
    assert args["a"] == (2, 3) and args["c"] == (2, 3)


def test_concat_still_needs_all_but_one():
    """Concat keeps MXNet's ConcatShape: two unknown inputs stay unknown."""
    a, b, c = sym.Variable("a"), sym.Variable("b"), sym.Variable("c")
    s = sym.Concat(a, b, c, num_args=3, dim=0) + sym.Variable("o")
    args, _ = _infer(s, a=(4,), o=(12,))
    assert args["b"] == () and args["c"] == ()


def test_three_unknown_inputs_is_an_error():
    s = _with_output(12)
    with pytest.raises(mx.base.ShapeError, match="_rnn_param_concat.*at most 2"):
        s.infer_shape_partial(o=(12,))


def test_uneven_share_is_an_error():
    with pytest.raises(mx.base.ShapeError, match="_rnn_param_concat.*do not split equally"):
        _with_output(12).infer_shape_partial(a=(3,), o=(12,))


def test_conflict_names_the_op():
    with pytest.raises(mx.base.ShapeError, match="_rnn_param_concat.*input 'arg1'"):
        _concat3().infer_shape_partial(a=(3, 2), b=(4, 3), c=(1, 2))
    with pytest.raises(mx.base.ShapeError, match="_rnn_param_concat: input 'arg1'"):
        mx.nd._internal._rnn_param_concat(mx.nd.zeros((2, 3)), mx.nd.zeros((3, 3)), num_args=2, dim=1)


def test_reshape_fills_partial_input_from_output():
    """Reshape(-1) of a __shape__ (16, 0) input: the 0 is the output's size / 16."""
    w = sym.Variable("w", shape=(16, 0))
    s = sym.Reshape(w, shape=(-1,)) + sym.Variable("o")
    args, out = _infer(s, o=(48,))
    assert args["w"] == (16, 3) and out == [(48,)]
    with pytest.raises(mx.base.ShapeError, match="not divisible by 16"):
        s.infer_shape_partial(o=(50,))


def test_flatten_fills_partial_input_from_output():
    x = sym.Variable("x", shape=(2, 0, 3))
    s = sym.Flatten(x) + sym.Variable("o")
    args, _ = _infer(s, o=(2, 12))
    assert args["x"] == (2, 4, 3)


class Tagger(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.embed = nn.Embedding(VOCAB, EMBED)
            self.lstm = rnn.LSTM(HIDDEN, bidirectional=True, layout="NTC")
            self.out = nn.Dense(TAGS, flatten=False)

    def hybrid_forward(self, F, x):
        return self.out(self.lstm(self.embed(x)))


def test_bilstm_tagger_export_binds_from_data_shape(tmp_path):
    mx.random.seed(7)
    net = Tagger(prefix="tagger0_")
    net.initialize(mx.init.Xavier())
    net.hybridize()
    data = mx.nd.array(np.random.default_rng(0).integers(0, VOCAB, (3, 7)))
    expected = net(data).asnumpy()
    prefix = os.path.join(str(tmp_path), "tagger")
    net.export(prefix, epoch=0)
    # The export joins the weights as MXNet 1.9.1's does.
    with open(prefix + "-symbol.json") as f:
        assert "_rnn_param_concat" in f.read()

    symbol, arg_params, aux_params = mx.model.load_checkpoint(prefix, 0)
    mod = mx.mod.Module(symbol, data_names=["data"], label_names=None, context=mx.cpu())
    mod.bind(data_shapes=[("data", (3, 7))], for_training=False)
    shapes = dict(zip(symbol.list_arguments(), symbol.infer_shape(data=(3, 7))[0]))
    assert shapes["tagger0_lstm0_l0_i2h_weight"] == (4 * HIDDEN, EMBED)
    assert shapes["tagger0_lstm0_r0_i2h_weight"] == (4 * HIDDEN, EMBED)
    assert shapes["tagger0_lstm0_l0_h2h_weight"] == (4 * HIDDEN, HIDDEN)
    mod.set_params(arg_params, aux_params)
    mod.forward(mx.io.DataBatch([data]), is_train=False)
    got = mod.get_outputs()[0].asnumpy()
    assert got.shape == (3, 7, TAGS)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
