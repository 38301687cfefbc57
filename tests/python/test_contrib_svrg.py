"""weft.contrib.svrg_optimization (MXNet 1.9.1's SVRGModule / SVRGOptimizer), after MXNet's
tests/python/unittest/test_contrib_svrg_module.py and test_contrib_svrg_optimizer.py."""
import numpy as np
import pytest

import weft as mx
from weft.contrib.svrg_optimization import SVRGModule, SVRGOptimizer


def _linreg(n=64, batch_size=16, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, 3).astype(np.float32)
    y = (x @ np.array([1.5, -2.0, 0.5], np.float32) + 0.3).astype(np.float32)
    it = mx.io.NDArrayIter(x, y, batch_size=batch_size, shuffle=False, label_name="lin_reg_label")
    data = mx.sym.Variable("data")
    label = mx.sym.Variable("lin_reg_label")
    fc = mx.sym.FullyConnected(data=data, name="fc1", num_hidden=1)
    net = mx.sym.LinearRegressionOutput(data=fc, label=label, name="lro")
    return x, y, it, net


def _module(net, update_freq=2, context=None):
    return SVRGModule(symbol=net, data_names=["data"], label_names=["lin_reg_label"], update_freq=update_freq,
                      context=context or mx.cpu())


def test_update_freq_checked():
    _, _, _, net = _linreg()
    with pytest.raises(TypeError):
        _module(net, update_freq="2")
    with pytest.raises(ValueError):
        _module(net, update_freq=0)


def test_full_gradient_is_mean_batch_gradient():
    x, y, it, net = _linreg()
    mod = _module(net)
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params(initializer=mx.init.Uniform(0.5))
    mod.init_optimizer(optimizer="sgd", optimizer_params=(("learning_rate", 0.01),))
    mod.update_full_grads(it)
    arg, _ = mod.get_params()
    w, b = arg["fc1_weight"].asnumpy(), arg["fc1_bias"].asnumpy()
    # LinearRegressionOutput's gradient per sample is (pred - label); summed over each batch
    resid = (x @ w.T + b).ravel() - y
    want_w = np.mean([resid[i:i + 16] @ x[i:i + 16] for i in range(0, 64, 16)], axis=0)
    want_b = np.mean([resid[i:i + 16].sum() for i in range(0, 64, 16)])
    np.testing.assert_allclose(mod._param_dict[0]["fc1_weight"].asnumpy().ravel(), want_w, rtol=1e-4, atol=1e-5)  # pylint: disable=protected-access
    np.testing.assert_allclose(mod._param_dict[0]["fc1_bias"].asnumpy(), [want_b], rtol=1e-4, atol=1e-5)  # pylint: disable=protected-access
    # at the snapshot itself the variance-reduced gradient is the full gradient
    it.reset()
    batch = next(iter(it))
    mod.forward_backward(batch)
    mod._update_svrg_gradients()  # pylint: disable=protected-access
    g = mod._exec_group.grad_arrays[0][0].asnumpy().ravel()  # pylint: disable=protected-access
    np.testing.assert_allclose(g, want_w, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("ndev", [1, 2])
def test_fit_reduces_loss(ndev):
    # two CPU contexts: the full gradients go through the KVStore's '<param>_full' entries
    x, y, it, net = _linreg(n=128, batch_size=32)
    mod = _module(net, update_freq=2, context=[mx.cpu(i) for i in range(ndev)])
    mod.fit(it, eval_metric="mse", optimizer="sgd", optimizer_params=(("learning_rate", 0.2),), num_epoch=20,
            initializer=mx.init.Zero())
    mse = dict(mod.score(it, "mse"))["mse"]
    assert mse < 0.05 * float(np.mean(y ** 2)), mse
    arg, _ = mod.get_params()
    np.testing.assert_allclose(arg["fc1_weight"].asnumpy().ravel(), [1.5, -2.0, 0.5], atol=0.02)
    assert (mod._kvstore is not None) == (ndev > 1)  # pylint: disable=protected-access


def test_svrg_optimizer_dispatch():
    idx2name = {0: "w", 1: "w_full"}
    o = mx.optimizer.create("_svrgoptimizer", default_optimizer="sgd", learning_rate=0.5, param_idx2name=idx2name)
    assert isinstance(o, SVRGOptimizer) and isinstance(o.default_opt, mx.optimizer.SGD)
    w, g = mx.nd.array([1.0, 2.0]), mx.nd.array([10.0, 20.0])
    o.update(0, w, g, o.create_state(0, w))
    np.testing.assert_allclose(w.asnumpy(), [1 - 5, 2 - 10])
    full = mx.nd.zeros(2)
    o.update(1, full, g, o.create_state(1, full))  # the full-gradient entry is assigned
    np.testing.assert_array_equal(full.asnumpy(), [10, 20])
    o.update("w_full", full, mx.nd.array([3.0, 4.0]), None)  # a KVStore key (the name)
    np.testing.assert_array_equal(full.asnumpy(), [3, 4])
    with pytest.raises(mx.base.InvalidArgumentError, match="index"):
        o.update(7, w, g, None)
