"""weft.cached_op.CachedOp: a symbol called like an operator — the same
results as binding it, outputs that stay valid across calls, gradients under
autograd, in-place running statistics, and clear errors."""
import numpy as np
import pytest

import weft
from weft import autograd, nd, sym
from weft.base import ArgumentTypeError, InvalidArgumentError, ShapeError
from weft.cached_op import CachedOp


def _net():
    net = sym.FullyConnected(sym.var("data"), num_hidden=4, name="fc")
    net = sym.BatchNorm(net, name="bn", fix_gamma=False)
    return sym.Activation(net, act_type="tanh", name="act")


def _inputs(seed=0, batch=3):
    rng = np.random.default_rng(seed)
    vals = {"data": rng.standard_normal((batch, 5)), "fc_weight": rng.standard_normal((4, 5)),
            "fc_bias": rng.standard_normal(4), "bn_gamma": rng.standard_normal(4) + 2,
            "bn_beta": rng.standard_normal(4), "bn_moving_mean": np.zeros(4), "bn_moving_var": np.ones(4)}
    return {k: nd.array(v.astype(np.float32)) for k, v in vals.items()}


def test_matches_a_bound_executor_and_outputs_stay_valid():
    net = _net()
    op = CachedOp(net, {"static_alloc": True})
    ins = _inputs()
    args = [ins[n] for n in net.list_inputs()]
    first = op(*args)
    exe = net.bind(weft.cpu(), {n: ins[n] for n in net.list_arguments()}, grad_req="null",
                   aux_states={n: ins[n] for n in net.list_auxiliary_states()})
    np.testing.assert_allclose(first.asnumpy(), exe.forward()[0].asnumpy(), rtol=1e-6)
    kept = first.asnumpy()
    other = _inputs(seed=1)
    second = op(*[other[n] for n in net.list_inputs()])
    np.testing.assert_allclose(first.asnumpy(), kept)  # not overwritten by the next call
    assert not np.allclose(second.asnumpy(), kept)
    third = op(*[_inputs(batch=7)[n] for n in net.list_inputs()])  # a new signature binds again
    assert third.shape == (7, 4)


def test_gradients_and_running_statistics_under_autograd():
    net = _net()
    op = CachedOp(net)
    ins = _inputs()
    for n in ("fc_weight", "fc_bias", "bn_gamma"):
        ins[n].attach_grad()
    with autograd.record():
        loss = (op(*[ins[n] for n in net.list_inputs()]) ** 2).sum()
    loss.backward()
    # The same computation imperatively.
    ref = _inputs()
    for n in ("fc_weight", "fc_bias", "bn_gamma"):
        ref[n].attach_grad()
    with autograd.record():
        h = nd.FullyConnected(ref["data"], ref["fc_weight"], ref["fc_bias"], num_hidden=4)
        h = nd.BatchNorm(h, ref["bn_gamma"], ref["bn_beta"], ref["bn_moving_mean"], ref["bn_moving_var"],
                         fix_gamma=False)
        ref_loss = (nd.tanh(h) ** 2).sum()
    ref_loss.backward()
    np.testing.assert_allclose(loss.asnumpy(), ref_loss.asnumpy(), rtol=1e-5)
    for n in ("fc_weight", "fc_bias", "bn_gamma"):
        np.testing.assert_allclose(ins[n].grad.asnumpy(), ref[n].grad.asnumpy(), rtol=1e-4, atol=1e-6)
    # Training mode updated the running mean in place, as BatchNorm does.
    assert not np.allclose(ins["bn_moving_mean"].asnumpy(), 0)
    np.testing.assert_allclose(ins["bn_moving_mean"].asnumpy(), ref["bn_moving_mean"].asnumpy(), rtol=1e-5)


def test_training_mode_outside_recording():
    net = sym.Dropout(sym.var("data"), p=0.5)
    op = CachedOp(net)
    x = nd.ones((1000,))
    np.testing.assert_allclose(op(x).asnumpy(), 1.0)  # predict mode: identity
    with autograd.train_mode():
        dropped = op(x).asnumpy()
    assert 300 < (dropped == 0).sum() < 700


def test_errors():
    net = _net()
    op = CachedOp(net)
    ins = _inputs()
    with pytest.raises(InvalidArgumentError, match="7 inputs"):
        op(ins["data"])
    with pytest.raises(ArgumentTypeError):
        op(*([np.zeros(3)] * 7))
    bad = [ins[n] for n in net.list_inputs()]
    bad[1] = nd.zeros((4, 6))  # fc_weight
    with pytest.raises(ShapeError, match="fc_weight"):
        op(*bad)
    with pytest.raises(InvalidArgumentError, match="unknown flag 'fast'"):
        CachedOp(net, {"fast": 1})
    with pytest.raises(ArgumentTypeError):
        CachedOp("not a symbol")
