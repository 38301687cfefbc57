"""weft.contrib.autograd (MXNet 1.9.1's mx.contrib.autograd), after MXNet's tests/python/unittest/test_contrib_autograd.py."""
import numpy as np
import pytest

import weft as mx
from weft.contrib import autograd as cag


def test_sections_set_and_restore_state():
    assert not mx.autograd.is_recording() and not mx.autograd.is_training()
    with cag.train_section():
        assert mx.autograd.is_recording() and mx.autograd.is_training()
        with cag.test_section():
            assert not mx.autograd.is_recording() and not mx.autograd.is_training()
        assert mx.autograd.is_recording() and mx.autograd.is_training()
    assert not mx.autograd.is_recording() and not mx.autograd.is_training()
    assert cag.set_is_training(True) is False
    assert cag.set_is_training(False) is True


def test_grad_and_loss_unary_binary():
    x = mx.nd.array([[1.0, -2.0], [3.0, 0.5]])
    y = mx.nd.array([[2.0, 1.0], [-1.0, 4.0]])
    grads, out = cag.grad_and_loss(lambda a: mx.nd.exp(a))(x)
    np.testing.assert_allclose(out.asnumpy(), np.exp(x.asnumpy()), rtol=1e-6)
    np.testing.assert_allclose(grads[0].asnumpy(), np.exp(x.asnumpy()), rtol=1e-6)
    g = cag.grad(lambda a, b: a * b)(x, y)
    np.testing.assert_allclose(g[0].asnumpy(), y.asnumpy())
    np.testing.assert_allclose(g[1].asnumpy(), x.asnumpy())
    g = cag.grad(lambda a, b: a * b + a, argnum=[1])(x, y)
    assert len(g) == 1
    np.testing.assert_allclose(g[0].asnumpy(), x.asnumpy())
    g = cag.grad(lambda a, b: a * b, argnum=0)(x, y)
    np.testing.assert_allclose(g[0].asnumpy(), y.asnumpy())


def test_mark_variables_backward_and_add():
    x = mx.nd.array([1.0, 2.0, 3.0])
    gx = mx.nd.zeros(3)
    cag.mark_variables([x], [gx], grad_reqs="add")
    for _ in range(2):
        with cag.train_section():
            z = x * x
        cag.backward([z])
    np.testing.assert_allclose(gx.asnumpy(), 2 * 2 * x.asnumpy())
    gx2 = mx.nd.zeros(3)
    cag.mark_variables([x], [gx2])
    with cag.train_section():
        z = mx.nd.sum(x * 3)
    cag.compute_gradient([z])
    np.testing.assert_allclose(gx2.asnumpy(), [3, 3, 3])
    # out_grads scale the head gradient
    gx3 = mx.nd.zeros(3)
    cag.mark_variables([x], [gx3])
    with cag.train_section():
        z = x * 2
    cag.backward([z], [mx.nd.array([1.0, 10.0, 100.0])])
    np.testing.assert_allclose(gx3.asnumpy(), [2, 20, 200])


def test_training_mode_reaches_dropout():
    x = mx.nd.ones((100, 100))
    with cag.train_section():
        y = mx.nd.Dropout(x, p=0.5)
    assert (y.asnumpy() == 0).any()
    with cag.test_section():
        y = mx.nd.Dropout(x, p=0.5)
    np.testing.assert_array_equal(y.asnumpy(), 1)


def test_bad_input():
    with pytest.raises(mx.base.ArgumentTypeError, match="NDArray"):
        cag.grad(lambda a: a)(np.ones(2))
