"""nn.GroupNorm as MXNet 1.9.1 computes it (per-group gamma/beta of shape
(num_groups,), population variance), against a NumPy reference and MXNet's
documented example, imperative, hybridized and through autograd."""
import numpy as np
import pytest

import weft as mx
from weft import autograd
from weft.gluon import nn


def _reference(x, groups, gamma, beta, eps=1e-5):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1).astype(np.float64)
    normed = (g - g.mean(axis=2, keepdims=True)) / np.sqrt(g.var(axis=2, keepdims=True) + eps)
    normed = normed * gamma.reshape(1, -1, 1) + beta.reshape(1, -1, 1)
    return normed.reshape(x.shape)


def test_mxnet_documented_example():
    x = mx.nd.arange(24).reshape((2, 3, 4))
    layer = nn.GroupNorm()
    layer.initialize()
    row = [-1.5932543, -1.3035717, -1.0138891, -0.7242065]
    out = layer(x).asnumpy()
    np.testing.assert_allclose(out[0, 0], row, rtol=1e-5)
    np.testing.assert_allclose(out[1, 2], [0.7242065, 1.0138891, 1.3035717, 1.5932543], rtol=1e-5)


@pytest.mark.parametrize("shape,groups", [((2, 6), 3), ((2, 4, 5), 2), ((1, 6, 3, 2), 3), ((2, 4, 2, 2, 3), 4)])
def test_matches_reference_and_hybridizes(shape, groups):
    rng = np.random.RandomState(len(shape))
    x = rng.normal(size=shape).astype(np.float32)
    layer = nn.GroupNorm(num_groups=groups, gamma_initializer=mx.init.Uniform(1.0),
                         beta_initializer=mx.init.Uniform(1.0))
    layer.initialize()
    gamma, beta = layer.gamma.data().asnumpy(), layer.beta.data().asnumpy()
    assert gamma.shape == (groups,) and layer.prefix.startswith("groupnorm")
    ref = _reference(x, groups, gamma, beta)
    np.testing.assert_allclose(layer(mx.nd.array(x)).asnumpy(), ref, rtol=1e-4, atol=1e-5)
    layer.hybridize()
    np.testing.assert_allclose(layer(mx.nd.array(x)).asnumpy(), ref, rtol=1e-4, atol=1e-5)


def test_gradients_match_finite_differences():
    rng = np.random.RandomState(9)
    x = rng.normal(size=(2, 4, 3)).astype(np.float64)
    layer = nn.GroupNorm(num_groups=2, gamma_initializer=mx.init.Constant(1.5), beta_initializer="zeros")
    layer.initialize()
    weights = rng.normal(size=x.shape)
    xa = mx.nd.array(x)
    xa.attach_grad()
    with autograd.record():
        loss = (layer(xa) * mx.nd.array(weights)).sum()
    loss.backward()
    gamma = layer.gamma.data().asnumpy()

    def f(v):
        return float((_reference(v, 2, gamma, np.zeros(2)) * weights).sum())
    numeric = np.zeros_like(x)
    h = 1e-4
    for idx in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += h
        down[idx] -= h
        numeric[idx] = (f(up) - f(down)) / (2 * h)
    np.testing.assert_allclose(xa.grad.asnumpy(), numeric, rtol=2e-3, atol=2e-3)
    assert layer.gamma.grad().shape == (2,) and np.abs(layer.beta.grad().asnumpy()).sum() > 0


def test_bad_channel_count():
    layer = nn.GroupNorm(num_groups=3)
    layer.initialize()
    with pytest.raises(ValueError, match="multiple of num_groups"):
        layer(mx.nd.ones((1, 4, 2)))
