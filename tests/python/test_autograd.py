"""weft.autograd: recording, backward through the symbolic gradient pass,
grad_req, head gradients, autograd.grad with create_graph, retain_graph,
training mode, and the errors users hit."""
import threading

import numpy as np
import pytest

from weft import autograd, nd
from weft.base import InvalidArgumentError, ShapeError


def test_square_sum():
    x = nd.array([[1.0, 2.0], [3.0, 4.0]])
    x.attach_grad()
    with autograd.record():
        y = (x * x).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * x.asnumpy())


def test_layer_gradients_match_numpy():
    rng = np.random.default_rng(0)
    xv, wv, bv = rng.standard_normal((4, 5)), rng.standard_normal((3, 5)), rng.standard_normal(3)
    x, w, b = nd.array(xv), nd.array(wv), nd.array(bv)
    for a in (w, b):
        a.attach_grad()
    with autograd.record():
        z = nd.FullyConnected(x, w, b, num_hidden=3)
        loss = (nd.tanh(z) * nd.array(np.arange(12.0).reshape(4, 3))).sum()
    loss.backward()
    zv = xv @ wv.T + bv
    dz = (1 - np.tanh(zv) ** 2) * np.arange(12.0).reshape(4, 3)
    np.testing.assert_allclose(w.grad.asnumpy(), dz.T @ xv, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(b.grad.asnumpy(), dz.sum(0), rtol=1e-4, atol=1e-5)
    assert x.grad is None  # never attached


def test_grad_req_add_and_null():
    x = nd.array([1.0, 2.0])
    x.attach_grad(grad_req="add")
    for _ in range(3):
        with autograd.record():
            y = (x * 3).sum()
        y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [9.0, 9.0])
    z = nd.array([1.0])
    z.attach_grad(grad_req="null")
    with autograd.record():
        y = z * 2
    with pytest.raises(InvalidArgumentError, match="do not depend on any array"):
        y.backward()


def test_head_gradients_and_several_heads():
    x = nd.array([1.0, 2.0, 3.0])
    x.attach_grad()
    with autograd.record():
        a = x * 2
        b = x * x
    autograd.backward([a, b], [nd.array([1.0, 0.0, 1.0]), nd.array([1.0, 1.0, 1.0])])
    np.testing.assert_allclose(x.grad.asnumpy(), [2 + 2, 4, 2 + 6])
    with autograd.record():
        c = x * 2
    with pytest.raises(ShapeError, match="head gradient 0"):
        c.backward(nd.ones((2,)))


def test_grad_and_second_order():
    x = nd.array([1.0, 2.0, 3.0])
    x.attach_grad()
    with autograd.record():
        y = x * x * x
        g = autograd.grad(y, x, create_graph=True)
        s = g.sum()
    np.testing.assert_allclose(g.asnumpy(), 3 * x.asnumpy() ** 2)
    np.testing.assert_allclose(x.grad.asnumpy(), 0)  # grad() leaves .grad alone
    s.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 6 * x.asnumpy())


def test_retain_graph():
    x = nd.array([2.0])
    x.attach_grad(grad_req="add")
    with autograd.record():
        y = x * x
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [8.0])
    with pytest.raises(InvalidArgumentError, match="retain_graph"):
        y.backward()


def test_errors_name_the_problem():
    x = nd.array([1.0])
    with pytest.raises(InvalidArgumentError, match="not on the autograd tape"):
        (x * 2).backward()
    x.attach_grad()
    with autograd.record():
        y = x * 2
    with pytest.raises(InvalidArgumentError, match="variable 0 is not on the autograd tape"):
        autograd.grad(y, [nd.array([1.0])])
    with pytest.raises(InvalidArgumentError, match="grad_req"):
        x.attach_grad(grad_req="sometimes")


def test_flags_and_scopes():
    assert not autograd.is_recording() and not autograd.is_training()
    with autograd.record():
        assert autograd.is_recording() and autograd.is_training()
        with autograd.pause():
            assert not autograd.is_recording() and not autograd.is_training()
        with autograd.predict_mode():
            assert autograd.is_recording() and not autograd.is_training()
    with autograd.record(train_mode=False):
        assert autograd.is_recording() and not autograd.is_training()
    with autograd.train_mode():
        assert autograd.is_training() and not autograd.is_recording()
    assert not autograd.is_recording() and not autograd.is_training()
    seen = []
    with autograd.record():
        t = threading.Thread(target=lambda: seen.append(autograd.is_recording()))
        t.start()
        t.join()
    assert seen == [False]  # per thread, as in MXNet


def test_training_mode_reaches_the_operators():
    x = nd.ones((1000,))
    x.attach_grad()
    with autograd.record():
        y = nd.Dropout(x, p=0.5)
    kept = y.asnumpy()
    assert 300 < (kept == 0).sum() < 700 and set(np.unique(kept)) <= {0.0, 2.0}
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), kept)  # the same mask
    with autograd.record(train_mode=False):
        z = nd.Dropout(x, p=0.5)
    np.testing.assert_allclose(z.asnumpy(), 1.0)


def test_batchnorm_gradient_matches_finite_differences():
    rng = np.random.default_rng(1)
    xv = rng.standard_normal((4, 3, 2, 2))
    gamma_v, beta_v = rng.standard_normal(3) + 2, rng.standard_normal(3)
    weights = rng.standard_normal((4, 3, 2, 2))

    def loss_of(xa):
        x = nd.array(xa, dtype="float64")
        out = nd.BatchNorm(x, nd.array(gamma_v, dtype="float64"), nd.array(beta_v, dtype="float64"),
                           nd.zeros((3,), dtype="float64"), nd.ones((3,), dtype="float64"), fix_gamma=False)
        return out, (out * nd.array(weights, dtype="float64")).sum()

    x = nd.array(xv, dtype="float64")
    x.attach_grad()
    with autograd.record():
        out = nd.BatchNorm(x, nd.array(gamma_v, dtype="float64"), nd.array(beta_v, dtype="float64"),
                           nd.zeros((3,), dtype="float64"), nd.ones((3,), dtype="float64"), fix_gamma=False)
        loss = (out * nd.array(weights, dtype="float64")).sum()
    loss.backward()
    eps, num = 1e-6, np.zeros_like(xv)
    with autograd.train_mode():
        for idx in np.ndindex(xv.shape):
            xp, xm = xv.copy(), xv.copy()
            xp[idx] += eps
            xm[idx] -= eps
            num[idx] = (loss_of(xp)[1].asscalar() - loss_of(xm)[1].asscalar()) / (2 * eps)
    np.testing.assert_allclose(x.grad.asnumpy(), num, rtol=1e-4, atol=1e-6)


def test_pause_and_detach_stop_gradients():
    x = nd.array([1.0, 2.0])
    x.attach_grad()
    with autograd.record():
        with autograd.pause():
            c = x * 10  # not recorded
        y = (x * c.detach()).sum() + (x * x.detach()).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 10 * x.asnumpy() + x.asnumpy())
    assert not c._on_tape and x._on_tape


def test_out_argument_is_recorded():
    x = nd.array([1.0, 2.0])
    x.attach_grad()
    y = nd.zeros((2,))
    with autograd.record():
        nd.elemwise_mul(x, x, out=y)
        z = y.sum()
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * x.asnumpy())


class _Sigmoid(autograd.Function):
    def forward(self, x):  # pylint: disable=arguments-differ
        y = 1 / (1 + nd.exp(-x))
        self.save_for_backward(y)
        return y

    def backward(self, dy):  # pylint: disable=arguments-differ
        (y,) = self.saved_tensors
        return dy * y * (1 - y)


def test_custom_function():
    xv = np.array([0.0, 1.0, -2.0])
    x = nd.array(xv)
    x.attach_grad()
    with autograd.record():
        y = _Sigmoid()(x) * 2
    y.backward()
    s = 1 / (1 + np.exp(-xv))
    np.testing.assert_allclose(y.asnumpy(), 2 * s, rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * s * (1 - s), rtol=1e-5)
    # Outside recording it is a plain call.
    np.testing.assert_allclose(_Sigmoid()(x).asnumpy(), s, rtol=1e-6)


def test_custom_function_with_two_inputs_and_outputs():
    class SumDiff(autograd.Function):
        def forward(self, a, b):  # pylint: disable=arguments-differ
            return a + b, a - b

        def backward(self, ds, dd):  # pylint: disable=arguments-differ
            return ds + dd, ds - dd

    a, b = nd.array([1.0, 2.0]), nd.array([3.0, 5.0])
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        s, d = SumDiff()(a, b)
        loss = (s * 3 + d * d).sum()
    loss.backward()
    dv = (a - b).asnumpy()
    np.testing.assert_allclose(a.grad.asnumpy(), 3 + 2 * dv)
    np.testing.assert_allclose(b.grad.asnumpy(), 3 - 2 * dv)


def test_custom_function_errors():
    class Broken(autograd.Function):
        def forward(self, x):  # pylint: disable=arguments-differ
            return x * 1

        def backward(self, dy):  # pylint: disable=arguments-differ
            raise ValueError("broken backward")

    class WrongCount(autograd.Function):
        def forward(self, x):  # pylint: disable=arguments-differ
            return x * 1

        def backward(self, dy):  # pylint: disable=arguments-differ
            return dy, dy

    x = nd.array([1.0])
    x.attach_grad()
    with autograd.record():
        y = Broken()(x)
    with pytest.raises(ValueError, match="broken backward"):
        y.backward()
    with autograd.record():
        y = WrongCount()(x)
    with pytest.raises(InvalidArgumentError, match="2 gradients for 1 inputs"):
        y.backward()
    f = _Sigmoid()
    f(x)
    with pytest.raises(InvalidArgumentError, match="called once"):
        f(x)


def test_views_taken_while_recording_carry_gradients():
    """Note [Views on the tape]: reshape, flatten, expand_dims, a[i] and a[i:j]
    of an array on the tape are recorded, as in MXNet (ReshapeWithRecord)."""
    x = nd.array(np.arange(6.0).reshape(2, 3))
    x.attach_grad()
    with autograd.record():
        y = x.reshape((3, 2))
        z = ((y * y).sum() + (x[1] * 3).sum() + (x[0:1] * 5).sum() + x.flatten().sum()
             + x.expand_dims(0).sum() + (x.reshape(-1)[2:4] * 7).sum())
    assert y._on_tape
    z.backward()
    expect = 2 * np.arange(6.0).reshape(2, 3) + 2
    expect[1] += 3
    expect[0] += 5
    expect.reshape(-1)[2:4] += 7
    np.testing.assert_allclose(x.grad.asnumpy(), expect)
    # Outside recording a view is just a view.
    v = x.reshape((3, 2))
    assert not v._on_tape
    v[:] = 0
    np.testing.assert_allclose(x.asnumpy(), 0)
