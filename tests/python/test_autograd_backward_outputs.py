"""Backward's output savings (Note [Backward outputs] in core/autograd/autograd.cc):
gradients written straight into grad arrays and outputs nobody reads computed
with kNull must give the same gradients as before in the cases where they
could go wrong: a gradient shared by two variables, a grad array the forward
pass read, grad_req add, an unread data gradient, and repeated steps."""
import numpy as np

from weft import autograd, nd


def _fc_case(rng):
    xv, wv, bv = rng.standard_normal((4, 5)), rng.standard_normal((3, 5)), rng.standard_normal(3)
    return nd.array(xv), nd.array(wv), nd.array(bv), xv, wv, bv


def test_unread_data_gradient_and_direct_write_match_numpy():
    rng = np.random.default_rng(1)
    x, w, b, xv, wv, bv = _fc_case(rng)  # x has no grad: FullyConnected's data gradient is unread
    for a in (w, b):
        a.attach_grad()
    c = np.arange(12.0).reshape(4, 3)
    for _ in range(3):  # the same grad arrays are written again each step
        with autograd.record():
            loss = (nd.FullyConnected(x, w, b, num_hidden=3) * nd.array(c)).sum()
        loss.backward()
        np.testing.assert_allclose(w.grad.asnumpy(), c.T @ xv, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(b.grad.asnumpy(), c.sum(0), rtol=1e-5, atol=1e-5)


def test_one_gradient_shared_by_two_variables():
    x, y = nd.array([1.0, 2.0, 3.0]), nd.array([4.0, 5.0, 6.0])
    x.attach_grad()
    y.attach_grad()
    with autograd.record():
        z = ((x + y) * nd.array([1.0, 2.0, 3.0])).sum()
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(y.grad.asnumpy(), [1.0, 2.0, 3.0])


def test_grad_array_read_by_the_forward_pass_keeps_its_old_value_there():
    w = nd.array([1.0, 2.0])
    w.attach_grad()
    w.grad[:] = 10.0
    with autograd.record():
        # The tape saves w.grad's old value (a constant input) and w*w needs w.
        loss = (w * w * w.grad).sum()
    loss.backward()
    np.testing.assert_allclose(w.grad.asnumpy(), 2 * np.array([1.0, 2.0]) * 10.0)


def test_grad_req_add_accumulates():
    rng = np.random.default_rng(2)
    x, w, b, xv, _, _ = _fc_case(rng)
    w.attach_grad(grad_req="add")
    b.attach_grad(grad_req="add")
    for _ in range(2):
        with autograd.record():
            loss = nd.FullyConnected(x, w, b, num_hidden=3).sum()
        loss.backward()
    np.testing.assert_allclose(w.grad.asnumpy(), 2 * np.ones((4, 3)).T @ xv, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(b.grad.asnumpy(), 2 * np.full(3, 4.0), rtol=1e-5)


def test_data_gradient_still_computed_when_asked():
    rng = np.random.default_rng(3)
    x, w, b, _, wv, _ = _fc_case(rng)
    x.attach_grad()
    w.attach_grad()
    with autograd.record():
        loss = nd.FullyConnected(x, w, b, num_hidden=3).sum()
    loss.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), np.ones((4, 3)) @ wv, rtol=1e-5, atol=1e-5)


def test_autograd_grad_of_one_variable():
    rng = np.random.default_rng(4)
    x, w, b, xv, _, _ = _fc_case(rng)
    x.attach_grad()
    w.attach_grad()
    with autograd.record():
        loss = nd.FullyConnected(x, w, b, num_hidden=3).sum()
    gw, = autograd.grad(loss, [w])  # the data gradient is not asked for: unread
    np.testing.assert_allclose(gw.asnumpy(), np.ones((4, 3)).T @ xv, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(w.grad.asnumpy(), 0.0)  # autograd.grad leaves grad arrays alone
