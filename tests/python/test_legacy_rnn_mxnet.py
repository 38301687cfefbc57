"""MXNet 1.9.1's own legacy mx.rnn unit tests (tests/python/unittest/test_rnn.py), ported with
only the import changed: node names, parameter names, inferred shapes, the forget bias."""
import numpy as np

import weft as mx


def _inputs(n, prefix="rnn_"):
    return [mx.sym.Variable("%st%d_data" % (prefix, i)) for i in range(n)]


def _shapes(n, shape=(10, 50), prefix="rnn_"):
    return {"%st%d_data" % (prefix, i): shape for i in range(n)}


def test_rnn():
    cell = mx.rnn.RNNCell(100, prefix="rnn_")
    outputs, _ = cell.unroll(3, _inputs(3))
    outputs = mx.sym.Group(outputs)
    assert sorted(cell.params._params.keys()) == ["rnn_h2h_bias", "rnn_h2h_weight", "rnn_i2h_bias",  # pylint: disable=protected-access
                                                  "rnn_i2h_weight"]
    assert outputs.list_outputs() == ["rnn_t0_out_output", "rnn_t1_out_output", "rnn_t2_out_output"]
    _, outs, _ = outputs.infer_shape(**_shapes(3))
    assert outs == [(10, 100), (10, 100), (10, 100)]


def test_lstm_and_gru():
    for cell in (mx.rnn.LSTMCell(100, prefix="rnn_", forget_bias=1.0), mx.rnn.GRUCell(100, prefix="rnn_")):
        outputs, _ = cell.unroll(3, _inputs(3))
        outputs = mx.sym.Group(outputs)
        assert sorted(cell.params._params.keys()) == ["rnn_h2h_bias", "rnn_h2h_weight", "rnn_i2h_bias",  # pylint: disable=protected-access
                                                      "rnn_i2h_weight"]
        assert outputs.list_outputs() == ["rnn_t0_out_output", "rnn_t1_out_output", "rnn_t2_out_output"]
        _, outs, _ = outputs.infer_shape(**_shapes(3))
        assert outs == [(10, 100), (10, 100), (10, 100)]


def test_lstm_forget_bias():
    forget_bias = 2.0
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(100, forget_bias=forget_bias, prefix="l0_"))
    stack.add(mx.rnn.LSTMCell(100, forget_bias=forget_bias, prefix="l1_"))
    sym, _ = stack.unroll(1, mx.sym.Variable("data"), merge_outputs=True)
    mod = mx.mod.Module(sym, label_names=None, context=mx.cpu(0))
    mod.bind(data_shapes=[("data", (32, 1, 200))], label_shapes=None)
    mod.init_params()
    bias_argument = next(x for x in sym.list_arguments() if x.endswith("i2h_bias"))
    expected_bias = np.hstack([np.zeros((100,)), forget_bias * np.ones(100, ), np.zeros((2 * 100,))])
    np.testing.assert_allclose(mod.get_params()[0][bias_argument].asnumpy(), expected_bias)


def test_residual():
    cell = mx.rnn.ResidualCell(mx.rnn.GRUCell(50, prefix="rnn_"))
    outputs, _ = cell.unroll(2, _inputs(2))
    outputs = mx.sym.Group(outputs)
    assert sorted(cell.params._params.keys()) == ["rnn_h2h_bias", "rnn_h2h_weight", "rnn_i2h_bias",  # pylint: disable=protected-access
                                                  "rnn_i2h_weight"]
    _, outs, _ = outputs.infer_shape(**_shapes(2))
    assert outs == [(10, 50), (10, 50)]
    outputs = outputs.eval(rnn_t0_data=mx.nd.ones((10, 50)), rnn_t1_data=mx.nd.ones((10, 50)),
                           rnn_i2h_weight=mx.nd.zeros((150, 50)), rnn_i2h_bias=mx.nd.zeros((150,)),
                           rnn_h2h_weight=mx.nd.zeros((150, 50)), rnn_h2h_bias=mx.nd.zeros((150,)))
    np.testing.assert_array_equal(outputs[0].asnumpy(), np.ones((10, 50)))
    np.testing.assert_array_equal(outputs[1].asnumpy(), np.ones((10, 50)))


def test_residual_bidirectional():
    cell = mx.rnn.ResidualCell(mx.rnn.BidirectionalCell(mx.rnn.GRUCell(25, prefix="rnn_l_"),
                                                        mx.rnn.GRUCell(25, prefix="rnn_r_")))
    outputs, _ = cell.unroll(2, _inputs(2), merge_outputs=False)
    outputs = mx.sym.Group(outputs)
    assert sorted(cell.params._params.keys()) == [  # pylint: disable=protected-access
        "rnn_l_h2h_bias", "rnn_l_h2h_weight", "rnn_l_i2h_bias", "rnn_l_i2h_weight",
        "rnn_r_h2h_bias", "rnn_r_h2h_weight", "rnn_r_i2h_bias", "rnn_r_i2h_weight"]
    _, outs, _ = outputs.infer_shape(**_shapes(2))
    assert outs == [(10, 50), (10, 50)]
    outputs = outputs.eval(rnn_t0_data=mx.nd.ones((10, 50)) + 5, rnn_t1_data=mx.nd.ones((10, 50)) + 5,
                           rnn_l_i2h_weight=mx.nd.zeros((75, 50)), rnn_l_i2h_bias=mx.nd.zeros((75,)),
                           rnn_l_h2h_weight=mx.nd.zeros((75, 25)), rnn_l_h2h_bias=mx.nd.zeros((75,)),
                           rnn_r_i2h_weight=mx.nd.zeros((75, 50)), rnn_r_i2h_bias=mx.nd.zeros((75,)),
                           rnn_r_h2h_weight=mx.nd.zeros((75, 25)), rnn_r_h2h_bias=mx.nd.zeros((75,)))
    np.testing.assert_array_equal(outputs[0].asnumpy(), np.ones((10, 50)) + 5)
    np.testing.assert_array_equal(outputs[1].asnumpy(), np.ones((10, 50)) + 5)


def test_stack():
    cell = mx.rnn.SequentialRNNCell()
    for i in range(5):
        if i == 1:
            cell.add(mx.rnn.ResidualCell(mx.rnn.LSTMCell(100, prefix="rnn_stack%d_" % i)))
        else:
            cell.add(mx.rnn.LSTMCell(100, prefix="rnn_stack%d_" % i))
    outputs, _ = cell.unroll(3, _inputs(3))
    outputs = mx.sym.Group(outputs)
    keys = sorted(cell.params._params.keys())  # pylint: disable=protected-access
    for i in range(5):
        for k in ("h2h_weight", "h2h_bias", "i2h_weight", "i2h_bias"):
            assert "rnn_stack%d_%s" % (i, k) in keys
    assert outputs.list_outputs() == ["rnn_stack4_t0_out_output", "rnn_stack4_t1_out_output",
                                      "rnn_stack4_t2_out_output"]
    _, outs, _ = outputs.infer_shape(**_shapes(3))
    assert outs == [(10, 100), (10, 100), (10, 100)]


def test_bidirectional():
    cell = mx.rnn.BidirectionalCell(mx.rnn.LSTMCell(100, prefix="rnn_l0_"), mx.rnn.LSTMCell(100, prefix="rnn_r0_"),
                                    output_prefix="rnn_bi_")
    outputs, _ = cell.unroll(3, _inputs(3))
    outputs = mx.sym.Group(outputs)
    assert outputs.list_outputs() == ["rnn_bi_t0_output", "rnn_bi_t1_output", "rnn_bi_t2_output"]
    _, outs, _ = outputs.infer_shape(**_shapes(3))
    assert outs == [(10, 200), (10, 200), (10, 200)]


def test_zoneout():
    cell = mx.rnn.ZoneoutCell(mx.rnn.RNNCell(100, prefix="rnn_"), zoneout_outputs=0.5, zoneout_states=0.5)
    outputs, _ = cell.unroll(3, _inputs(3))
    outputs = mx.sym.Group(outputs)
    _, outs, _ = outputs.infer_shape(**_shapes(3))
    assert outs == [(10, 100), (10, 100), (10, 100)]


def test_unfuse():
    for mode in ("rnn_tanh", "rnn_relu", "lstm", "gru"):
        fused = mx.rnn.FusedRNNCell(100, num_layers=2, mode=mode, prefix="test_%s" % mode, bidirectional=True,
                                    dropout=0.5)
        stack = fused.unfuse()
        outputs, _ = stack.unroll(3, _inputs(3))
        outputs = mx.sym.Group(outputs)
        assert outputs.list_outputs() == ["test_%sbi_l1_t%d_output" % (mode, i) for i in range(3)]
        _, outs, _ = outputs.infer_shape(**_shapes(3))
        assert outs == [(10, 200), (10, 200), (10, 200)]


def test_encode_sentences_start_label():
    sentences = [["a", "b"], ["b", "c"]]
    coded, vocab = mx.rnn.encode_sentences(sentences, invalid_label=-1, start_label=0)
    assert coded == [[0, 1], [1, 2]] and vocab["\n"] == -1
