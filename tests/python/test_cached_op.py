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


def test_recorded_calls_reuse_one_training_executor_and_match_imperative():
    net = _net()
    op = CachedOp(net)
    ins = _inputs()
    ref = _inputs()
    for d in (ins, ref):
        for n in ("fc_weight", "fc_bias"):
            d[n].attach_grad()
    for step in range(3):
        with autograd.record():
            y = (op(*[ins[n] for n in net.list_inputs()]) * (step + 1)).sum()
        y.backward()
        with autograd.record():
            h = nd.FullyConnected(ref["data"], ref["fc_weight"], ref["fc_bias"], num_hidden=4)
            h = nd.BatchNorm(h, ref["bn_gamma"], ref["bn_beta"], ref["bn_moving_mean"], ref["bn_moving_var"],
                             fix_gamma=False)
            r = (nd.tanh(h) * (step + 1)).sum()
        r.backward()
        for n in ("fc_weight", "fc_bias"):
            np.testing.assert_allclose(ins[n].grad.asnumpy(), ref[n].grad.asnumpy(), rtol=1e-4, atol=1e-6)
    assert len(op._symbol.list_inputs()) == 7


def test_backward_after_the_executor_ran_again_is_an_error():
    net = _net()
    op = CachedOp(net)
    ins = _inputs()
    ins["fc_weight"].attach_grad()
    args = [ins[n] for n in net.list_inputs()]
    with autograd.record():
        y1 = op(*args).sum()
    y1.backward(retain_graph=True)
    with autograd.record():
        y2 = op(*args).sum()  # the executor is free again and runs a new forward
    y2.backward()
    with pytest.raises(InvalidArgumentError, match="another forward"):
        y1.backward()


def test_two_pending_forwards_use_two_executors():
    net = _net()
    op = CachedOp(net)
    ins = _inputs()
    ins["fc_weight"].attach_grad(grad_req="add")
    args = [ins[n] for n in net.list_inputs()]
    with autograd.record():
        a = op(*args).sum()
        b = (op(*args) * 2).sum()
    a.backward()
    b.backward()
    single = _inputs()
    single["fc_weight"].attach_grad()
    with autograd.record():
        c = (op(*[single[n] for n in net.list_inputs()]) * 3).sum()
    c.backward()
    np.testing.assert_allclose(ins["fc_weight"].grad.asnumpy(), single["fc_weight"].grad.asnumpy(), rtol=1e-4,
                               atol=1e-6)


def test_inline_recording_allows_second_order():
    x = sym.var("x")
    op = CachedOp(x * x * x, {"inline_recording": True})
    v = nd.array([1.0, 2.0])
    v.attach_grad()
    with autograd.record():
        y = op(v)
        g = autograd.grad(y, v, create_graph=True)
        s = g.sum()
    s.backward()
    np.testing.assert_allclose(v.grad.asnumpy(), 6 * v.asnumpy())


def test_a_recorded_call_is_differentiated_once():
    """Its forward results are planned to be freed by the first backward."""
    net = _net()
    op = CachedOp(net)
    ins = _inputs()
    ins["fc_weight"].attach_grad()
    with autograd.record():
        y = op(*[ins[n] for n in net.list_inputs()]).sum()
    y.backward(retain_graph=True)
    with pytest.raises(InvalidArgumentError, match="once per forward"):
        y.backward()


def _imperative_loss(d, scale=1.0):
    h = nd.FullyConnected(d["data"], d["fc_weight"], d["fc_bias"], num_hidden=4)
    h = nd.BatchNorm(h, d["bn_gamma"], d["bn_beta"], d["bn_moving_mean"], d["bn_moving_var"], fix_gamma=False)
    return (nd.tanh(h) * scale).sum()


def test_parameter_gradients_written_in_place_and_summed_when_shared():
    """A parameter's gradient goes straight into its .grad when the block is its
    only source; with a second source (used twice, or also outside) it is summed."""
    net = _net()
    op = CachedOp(net)
    for case in ("single", "twice", "also_outside"):
        ins, ref = _inputs(), _inputs()
        for d in (ins, ref):
            d["fc_weight"].attach_grad()
        args = [ins[n] for n in net.list_inputs()]
        with autograd.record():
            loss = op(*args).sum()
            if case == "twice":
                loss = loss + (op(*args) * 2).sum()
            if case == "also_outside":
                loss = loss + (ins["fc_weight"] * ins["fc_weight"]).sum()
        loss.backward()
        with autograd.record():
            r = _imperative_loss(ref)
            if case == "twice":
                r = r + _imperative_loss(ref, 2.0)
            if case == "also_outside":
                r = r + (ref["fc_weight"] * ref["fc_weight"]).sum()
        r.backward()
        np.testing.assert_allclose(ins["fc_weight"].grad.asnumpy(), ref["fc_weight"].grad.asnumpy(), rtol=1e-4,
                                   atol=1e-5, err_msg=case)


def test_autograd_grad_through_a_cached_op_leaves_dot_grad_alone():
    net = _net()
    op = CachedOp(net)
    ins = _inputs()
    w = ins["fc_weight"]
    w.attach_grad()
    with autograd.record():
        loss = op(*[ins[n] for n in net.list_inputs()]).sum()
    g = autograd.grad(loss, [w])[0]
    np.testing.assert_allclose(w.grad.asnumpy(), 0)
    ref = _inputs()
    ref["fc_weight"].attach_grad()
    with autograd.record():
        r = _imperative_loss(ref)
    r.backward()
    np.testing.assert_allclose(g.asnumpy(), ref["fc_weight"].grad.asnumpy(), rtol=1e-4, atol=1e-5)
