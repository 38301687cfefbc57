"""Autograd on weft.np arrays (issue 37 point 4): attach_grad, record, backward and
autograd.grad give np arrays; gradients flow through indexing (basic, advanced,
boolean) and through in-place updates (``+=``, ``a[key] = v``: Note [Assignment under
autograd] in weft/numpy/indexing.py), checked against analytic values and central
finite differences computed with host NumPy."""
import numpy as onp
import pytest

import weft
from weft import autograd, np, npx


def numeric_grad(f, x0, eps=1e-3):
    """Central differences of the scalar host function f at x0 (float64)."""
    x0 = onp.asarray(x0, dtype=onp.float64)
    g = onp.zeros_like(x0)
    for i in onp.ndindex(*x0.shape):
        xp, xm = x0.copy(), x0.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (f(xp) - f(xm)) / (2 * eps)
    return g


def grad_of(fn, x0, dtype="float64"):
    """d sum(fn(x)) / dx through weft.np autograd, as host NumPy."""
    x = np.array(x0, dtype=dtype)
    x.attach_grad()
    with autograd.record():
        y = fn(x).sum()
    y.backward()
    assert isinstance(x.grad, np.ndarray)
    return x.grad.asnumpy()


def check_fd(fn, x0, rtol=1e-4, atol=1e-5):
    """fn's weft.np gradient against finite differences of the same fn run on host copies."""
    host = lambda xh: float(fn(np.array(xh, dtype="float64")).sum().item())
    onp.testing.assert_allclose(grad_of(fn, x0), numeric_grad(host, x0), rtol=rtol, atol=atol)


X0 = onp.array([[0.5, -1.25, 2.0, 0.75], [1.5, 0.25, -0.5, 3.0], [-2.0, 1.0, 0.125, -0.75]])


# ---- the basics: types of x.grad, autograd.grad, head gradients, grad_req ---------------------------------------
def test_grad_is_np_array_with_analytic_value():
    x = np.array([1.0, 2.0, 3.0])
    x.attach_grad()
    assert isinstance(x.grad, np.ndarray) and x.grad.shape == (3,)
    with autograd.record():
        y = (x * x * x).sum()
    y.backward()
    assert isinstance(x.grad, np.ndarray)
    onp.testing.assert_allclose(x.grad.asnumpy(), 3 * onp.array([1.0, 4.0, 9.0]))


def test_autograd_grad_returns_np_arrays_for_np_variables():
    x = np.array([1.0, 2.0, 3.0])
    z = np.array([0.5, 0.25, 2.0])
    x.attach_grad()
    z.attach_grad()
    with autograd.record():
        y = (x * x * z).sum()
    gx, gz = autograd.grad(y, [x, z], retain_graph=True)
    assert isinstance(gx, np.ndarray) and isinstance(gz, np.ndarray)
    onp.testing.assert_allclose(gx.asnumpy(), 2 * x.asnumpy() * z.asnumpy())
    onp.testing.assert_allclose(gz.asnumpy(), x.asnumpy() ** 2)
    single = autograd.grad(y, x)
    assert isinstance(single, np.ndarray)
    onp.testing.assert_allclose(single.asnumpy(), gx.asnumpy())
    # .grad is untouched by autograd.grad
    onp.testing.assert_array_equal(x.grad.asnumpy(), onp.zeros(3))


def test_autograd_grad_keeps_classic_arrays_classic():
    x = weft.nd.array([1.0, 2.0])
    x.attach_grad()
    with autograd.record():
        y = (x * x).sum()
    g = autograd.grad(y, [x])[0]
    assert type(g) is weft.nd.NDArray  # pylint: disable=unidiomatic-typecheck
    onp.testing.assert_allclose(g.asnumpy(), [2.0, 4.0])


def test_head_gradient_and_grad_req_add():
    x = np.array([1.0, -2.0])
    x.attach_grad(grad_req="add")
    for _ in range(2):
        with autograd.record():
            y = x * 3
        y.backward(np.array([1.0, 10.0]))
    assert isinstance(x.grad, np.ndarray)
    onp.testing.assert_allclose(x.grad.asnumpy(), [6.0, 60.0])


def test_pause_and_detach_stop_gradients():
    x = np.array([2.0, 3.0])
    x.attach_grad()
    with autograd.record():
        with autograd.pause():
            c = x * x  # a constant for the tape
        y = (c * x + x.detach() * x).sum()
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), x.asnumpy() ** 2 + x.asnumpy())


def test_npx_ops_and_np_functions_against_finite_differences():
    check_fd(lambda x: np.sin(x) * x ** 2 + np.exp(-x) / (1 + x * x), X0)
    check_fd(lambda x: npx.relu(x) * np.tanh(x) + npx.sigmoid(x), X0)
    check_fd(lambda x: npx.log_softmax(x) * np.arange(4.0), X0)
    check_fd(lambda x: np.dot(x, x.T) + x.mean(axis=0, keepdims=True).sum(), X0)


def test_mlp_step_gradients_match_finite_differences():
    rng = onp.random.default_rng(0)
    data = np.array(rng.standard_normal((5, 3)))
    label = np.array([0.0, 2.0, 1.0, 1.0, 0.0])
    w2 = np.array(rng.standard_normal((4, 3)))

    def loss(w1):
        h = npx.relu(np.dot(data, w1))
        return -npx.pick(npx.log_softmax(np.dot(h, w2)), label).mean()
    check_fd(loss, rng.standard_normal((3, 4)))


# ---- through indexing --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", [
    1, -1, (1, 2), slice(1, None), (slice(None), slice(None, None, 2)), (Ellipsis, slice(3, 0, -1)),
    (None, 0), onp.array([2, 0, 0]), (slice(None), onp.array([3, 1, 3, 3])), X0 > 0.6,
    (onp.array([0, 2]), onp.array([1, 3])),
], ids=["int", "neg", "pair", "slice", "step", "reverse", "newaxis", "take_dup", "axis1_dup", "mask", "pairs"])
def test_gradient_through_getitem(key):
    weights = onp.arange(1.0, 1.0 + X0[key].size).reshape(X0[key].shape)
    got = grad_of(lambda x: x[key] * np.array(weights), X0)
    want = onp.zeros_like(X0)
    onp.add.at(want, key, weights)  # repeated indices accumulate
    onp.testing.assert_allclose(got, want)


# ---- through in-place updates (Note [Assignment under autograd]) ---------------------------------------------------
def test_inplace_operators_on_recorded_arrays():
    def f(x):
        z = x * 2
        z += x * x
        z *= x
        z -= 1
        z /= 2
        return z
    check_fd(f, X0)


def test_inplace_add_into_a_fresh_array():
    def f(x):
        b = np.zeros(x.shape)
        b += x * x
        return b
    onp.testing.assert_allclose(grad_of(f, X0), 2 * X0)


@pytest.mark.parametrize("key", [
    slice(1, 3), 1, (0, 2), (slice(None), slice(None, None, 2)), (slice(None), -1), (Ellipsis, slice(None)),
    onp.array([2, 0]), (onp.array([0, 2]), onp.array([3, 1])), X0 > 0.6, slice(None, None, -1),
], ids=["rows", "row", "element", "step", "last_col", "all", "take", "pairs", "mask", "reverse"])
def test_setitem_of_a_recorded_value_into_a_recorded_array(key):
    """z = x * 2; z[key] = sin(x)[key]; sum(z * x): z's old value gets no gradient inside the region."""
    def f(x):
        z = x * 2
        z[key] = np.sin(x)[key] * 3
        return z * x
    check_fd(f, X0)


def test_setitem_broadcasts_the_value_and_sums_its_gradient():
    def f(x):
        z = np.zeros((3, 4))
        z[1:, 1:3] = x[0, :2]  # (2,) broadcast to (2, 2)
        return z * z
    got = grad_of(f, X0)
    want = onp.zeros_like(X0)
    want[0, :2] = 2 * 2 * X0[0, :2]
    onp.testing.assert_allclose(got, want)


def test_setitem_repeated_index_keeps_the_last_write_as_numpy():
    def f(x):
        z = np.zeros(3)
        z[onp.array([0, 0, 1])] = x[0, :3] * np.array([1.0, 2.0, 3.0])
        return z
    got = grad_of(f, X0)
    want = onp.zeros_like(X0)
    want[0, 1:3] = [2.0, 3.0]  # z[0] is the second write (x[0,1] * 2), z[1] the third
    onp.testing.assert_allclose(got, want)
    z = np.zeros(3)
    z[onp.array([0, 0, 1])] = np.array([1.0, 2.0, 3.0])
    onp.testing.assert_array_equal(z.asnumpy(), [2.0, 3.0, 0.0])


def test_setitem_scalar_into_recorded_array_cuts_the_gradient_there():
    def f(x):
        z = x * 2
        z[1] = 7.0
        return z * z
    want = 8 * X0
    want[1] = 0
    onp.testing.assert_allclose(grad_of(f, X0), want)


def test_whole_assignment_as_mxnet():
    def f(x):
        b = np.zeros(x.shape)
        b[:] = x
        return b * b
    onp.testing.assert_allclose(grad_of(f, X0), 2 * X0)


def test_setitem_values_and_dtype_unchanged_by_recording():
    with autograd.record():
        z = np.array(X0, dtype="float32") * 2
        x = np.array([1, 2], dtype="int32")
        z[0, :2] = x  # cast to z's dtype, as outside record
    assert z.dtype == onp.float32
    want = (X0 * 2).astype(onp.float32)
    want[0, :2] = [1, 2]
    onp.testing.assert_array_equal(z.asnumpy(), want)


def test_setitem_outside_record_is_not_on_the_tape():
    z = np.zeros(3)
    z[1:] = np.array([1.0, 2.0])
    assert not z._on_tape  # pylint: disable=protected-access
    onp.testing.assert_array_equal(z.asnumpy(), [0.0, 1.0, 2.0])
