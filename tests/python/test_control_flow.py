"""weft.nd.contrib.foreach, while_loop and cond (MXNet 1.9.1's imperative control
flow): MXNet's documented examples, nested data/state lists, the padding of
while_loop's outputs, gradients through the loops under autograd (against
closed forms and central finite differences), MXNet's errors for bad
arguments, and a HybridBlock calling F.contrib.foreach run imperatively. The
symbolic twins (weft.sym.contrib, and so hybridize()) are tested in
test_control_flow_symbolic.py."""
import numpy as np
import pytest

import weft as mx
from weft import autograd, gluon, nd
from weft.base import InvalidArgumentError

contrib = nd.contrib


def _f64(a):
    return nd.array(np.asarray(a, dtype=np.float64), dtype="float64")


def _numeric_grad(fn, x0, eps=1e-6):
    """Central differences of the scalar fn(numpy array) at x0 (float64)."""
    x0 = np.asarray(x0, dtype=np.float64)
    g = np.zeros_like(x0)
    for idx in np.ndindex(*x0.shape):
        xp, xm = x0.copy(), x0.copy()
        xp[idx] += eps
        xm[idx] -= eps
        g[idx] = (fn(xp) - fn(xm)) / (2 * eps)
    return g


def test_namespace_has_them_and_keeps_its_own():
    for name in ("foreach", "while_loop", "cond"):
        fn = getattr(contrib, name)
        assert fn.__module__ == "weft.ndarray.control_flow"
        assert name in contrib.__all__
    assert mx.ndarray.contrib.foreach is contrib.foreach


# ---------------------------------------------------------------- foreach

def test_foreach_cumulative_sum():
    # out_i = x_i + s, s <- out_i: the running sum, the last state the total.
    step = lambda x, states: (x + states[0], [x + states[0]])  # noqa: E731
    data = nd.array([[1, 2], [3, 4], [5, 6]])
    outs, states = contrib.foreach(step, data, [nd.zeros((2,))])
    np.testing.assert_allclose(outs.asnumpy(), np.cumsum(data.asnumpy(), axis=0))
    assert isinstance(states, list) and len(states) == 1
    np.testing.assert_allclose(states[0].asnumpy(), [9, 12])


def test_foreach_mxnet_docstring_example():
    step = lambda data, states: (data + states[0], [states[0] * 2])  # noqa: E731
    rng = np.random.default_rng(1)
    d, s0 = rng.random((2, 10)).astype(np.float32), rng.random(10).astype(np.float32)
    outs, states = contrib.foreach(step, nd.array(d), [nd.array(s0)])
    assert outs.shape == (2, 10)
    np.testing.assert_allclose(outs.asnumpy(), np.stack([d[0] + s0, d[1] + 2 * s0]), rtol=1e-6)
    np.testing.assert_allclose(states[0].asnumpy(), 4 * s0, rtol=1e-6)


def test_foreach_list_data_nested_states_and_outputs():
    a = nd.arange(12).reshape((4, 3))
    b = nd.arange(4) * 10

    def body(xs, states):
        xa, xb = xs  # the i-th slices of both arrays (of a 1-D array: shape (1,), as MXNet 1.x)
        assert xa.shape == (3,) and xb.shape == (1,)
        (total,), (count, last) = states
        new_total = total + xa.sum() + xb
        return [xa * 2, [xb, new_total]], [[new_total], (count + 1, xa)]

    outs, states = contrib.foreach(body, [a, b], [[nd.zeros(())], (nd.zeros(()), nd.zeros((3,)))])
    assert isinstance(outs, list) and len(outs) == 2 and isinstance(outs[1], list)
    np.testing.assert_allclose(outs[0].asnumpy(), 2 * a.asnumpy())
    np.testing.assert_allclose(outs[1][0].asnumpy(), b.asnumpy()[:, None])
    per_step = a.asnumpy().sum(axis=1) + b.asnumpy()
    np.testing.assert_allclose(outs[1][1].asnumpy(), np.cumsum(per_step)[:, None])
    # states: exactly what the last step returned
    assert isinstance(states, list) and isinstance(states[1], tuple)
    np.testing.assert_allclose(states[0][0].asnumpy(), per_step.sum())
    assert states[1][0].asscalar() == 4
    np.testing.assert_allclose(states[1][1].asnumpy(), a.asnumpy()[3])


def test_foreach_single_array_state():
    outs, state = contrib.foreach(lambda x, s: (x * s, s + 1), nd.array([1, 1, 1]), nd.array([1]))
    np.testing.assert_allclose(outs.asnumpy(), [[1], [2], [3]])
    assert isinstance(state, nd.NDArray) and state.asscalar() == 4


def test_foreach_gradient_rnn_like_against_finite_differences():
    # h_t = tanh(w * x_t + h_{t-1}); loss = sum of all h_t + 2 * h_T.
    rng = np.random.default_rng(2)
    x0, w0, h0 = rng.standard_normal((5, 3)), rng.standard_normal(3), rng.standard_normal(3)

    def run(x, w, h):
        def body(xt, states):
            h_new = nd.tanh(w * xt + states[0])
            return h_new, [h_new]
        outs, states = contrib.foreach(body, x, [h])
        return outs.sum() + 2 * states[0].sum()

    x, w, h = _f64(x0), _f64(w0), _f64(h0)
    for v in (x, w, h):
        v.attach_grad()
    with autograd.record():
        loss = run(x, w, h)
    loss.backward()
    val = lambda xx, ww, hh: run(_f64(xx), _f64(ww), _f64(hh)).asscalar()  # noqa: E731
    np.testing.assert_allclose(x.grad.asnumpy(), _numeric_grad(lambda v: val(v, w0, h0), x0), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(w.grad.asnumpy(), _numeric_grad(lambda v: val(x0, v, h0), w0), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(h.grad.asnumpy(), _numeric_grad(lambda v: val(x0, w0, v), h0), rtol=1e-5, atol=1e-7)


def test_foreach_gradient_cumsum_closed_form():
    # sum over t of (running sum up to t) * c_t: d/dx_i = sum_{t >= i} c_t.
    x = nd.array([1.0, 2.0, 3.0, 4.0])
    c = np.array([1.0, 10.0, 100.0, 1000.0], dtype=np.float32)
    x.attach_grad()
    with autograd.record():
        outs, _ = contrib.foreach(lambda xt, s: (xt + s[0], [xt + s[0]]), x, [nd.zeros(())])
        assert outs.shape == (4, 1)  # slices of a 1-D array have shape (1,)
        loss = (outs * nd.array(c.reshape(4, 1))).sum()
    loss.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), np.cumsum(c[::-1])[::-1])


def test_foreach_bad_arguments():
    ok = lambda x, s: (x, s)  # noqa: E731
    with pytest.raises(InvalidArgumentError, match=r"foreach input must be \(nested\) list of NDArray, but got 3"):
        contrib.foreach(ok, 3, [nd.zeros((1,))])
    with pytest.raises(InvalidArgumentError, match=r"foreach input must be \(nested\) list of NDArray"):
        contrib.foreach(ok, [nd.ones((2,)), np.ones(2)], [nd.zeros((1,))])
    with pytest.raises(InvalidArgumentError, match=r"foreach states must be \(nested\) list of NDArray"):
        contrib.foreach(ok, nd.ones((2,)), [nd.zeros((1,)), "s"])
    with pytest.raises(InvalidArgumentError, match=r"foreach output must be \(nested\) list of NDArray"):
        contrib.foreach(lambda x, s: (1.0, s), nd.ones((2,)), [nd.zeros((1,))])
    with pytest.raises(InvalidArgumentError, match="same length on axis 0"):
        contrib.foreach(ok, [nd.ones((2,)), nd.ones((3,))], [nd.zeros((1,))])
    with pytest.raises(InvalidArgumentError, match="no element on axis 0"):
        contrib.foreach(ok, nd.ones((0, 2)), [nd.zeros((1,))])
    with pytest.raises(InvalidArgumentError, match="must return a pair"):
        contrib.foreach(lambda x, s: x, nd.ones((2,)), [nd.zeros((1,))])
    with pytest.raises(InvalidArgumentError, match="not nested lists"):
        contrib.foreach(ok, [[nd.ones((2,))]], [nd.zeros((1,))])
    # per-step outputs of different shapes cannot be stacked
    with pytest.raises(ValueError, match="stack"):
        contrib.foreach(lambda x, s: (nd.ones((int(x.asscalar()),)), s), nd.array([1, 2]), [nd.zeros((1,))])


# ---------------------------------------------------------------- while_loop

def test_while_loop_mxnet_docstring_example_padding():
    cond = lambda i, s: i <= 5  # noqa: E731
    func = lambda i, s: ([i + s], [i + 1, s + i])  # noqa: E731
    loop_vars = (nd.array([0], dtype="int64"), nd.array([1], dtype="int64"))
    outputs, states = contrib.while_loop(cond, func, loop_vars, max_iterations=10)
    assert isinstance(outputs, list) and len(outputs) == 1
    out = outputs[0]
    assert out.shape == (10, 1) and out.dtype == np.int64  # padded to max_iterations
    np.testing.assert_array_equal(out.asnumpy()[:6, 0], [1, 2, 4, 7, 11, 16])
    np.testing.assert_array_equal(out.asnumpy()[6:], 0)  # the padding (undefined in MXNet) is zeros
    assert isinstance(states, list) and len(states) == 2
    assert states[0].asscalar() == 6 and states[1].asscalar() == 16


def test_while_loop_counting_stops_at_max_iterations():
    # cond always true: max_iterations steps, no padding.
    outs, i = contrib.while_loop(lambda i: i < 100, lambda i: (i * 2, i + 1), nd.array([0]), max_iterations=4)
    assert isinstance(i, nd.NDArray) and i.asscalar() == 4  # one NDArray in, one NDArray out
    assert isinstance(outs, nd.NDArray)  # one NDArray step output -> one stacked NDArray
    np.testing.assert_allclose(outs.asnumpy(), [[0], [2], [4], [6]])


def test_while_loop_no_step_and_no_output():
    outs, states = contrib.while_loop(lambda i: i < 0, lambda i: (i, i + 1), [nd.array([5])], max_iterations=3)
    assert outs == []  # no step ran: the outputs' structure is unknown (MXNet: empty)
    assert states[0].asscalar() == 5
    # func returning no step output (None): only loop variables
    outs, states = contrib.while_loop(lambda a, b: a < 3, lambda a, b: (None, (a + 1, b * 2)),
                                      [nd.array([0]), nd.array([1])], max_iterations=nd.array([10]))
    assert outs == []
    assert states[0].asscalar() == 3 and states[1].asscalar() == 8


def test_while_loop_nested_outputs_and_vars():
    def func(i, pair):
        x, y = pair
        return [i * 1, [x + y, x * y]], [i + 1, [x + 1, y]]

    outs, (i, (x, y)) = contrib.while_loop(lambda i, pair: i < 3, func,
                                          [nd.array([0]), [nd.array([1.0, 2.0]), nd.array([3.0, 3.0])]],
                                          max_iterations=5)
    assert outs[0].shape == (5, 1) and outs[1][0].shape == (5, 2) and outs[1][1].shape == (5, 2)
    np.testing.assert_allclose(outs[1][0].asnumpy()[:3], [[4, 5], [5, 6], [6, 7]])
    np.testing.assert_allclose(outs[1][1].asnumpy()[:3], [[3, 6], [6, 9], [9, 12]])
    assert i.asscalar() == 3
    np.testing.assert_allclose(x.asnumpy(), [4, 5])


def test_while_loop_gradient_closed_form():
    # x <- x * w while the step count is below 3: final x = x0 * w^3; outputs x0*w, x0*w^2, x0*w^3.
    x = _f64([1.5])
    w = _f64([0.7])
    x.attach_grad()
    w.attach_grad()
    with autograd.record():
        outs, (n, xf) = contrib.while_loop(lambda n, v: n < 3, lambda n, v: (v * w, [n + 1, v * w]),
                                           [_f64([0]), x], max_iterations=6)
        loss = xf.sum() + outs.sum()  # the zero padding adds nothing
    loss.backward()
    x0, w0 = 1.5, 0.7
    np.testing.assert_allclose(xf.asscalar(), x0 * w0 ** 3)
    np.testing.assert_allclose(x.grad.asnumpy(), [2 * w0 ** 3 + w0 + w0 ** 2])
    np.testing.assert_allclose(w.grad.asnumpy(), [x0 * (1 + 2 * w0 + 6 * w0 ** 2)])


def test_while_loop_gradient_data_dependent_stop_finite_differences():
    # v <- sin(v) + a until sum(v) exceeds 4 (the count of steps depends on v; locally constant).
    a0, v0 = np.array([0.9, 0.4]), np.array([0.1, 0.2])

    def run(a, v):
        outs, (vf,) = contrib.while_loop(lambda v: v.sum() < 4, lambda v: (v * v, [nd.sin(v) + a]), [v],
                                         max_iterations=20)
        return (outs.sum() + (vf * vf).sum())

    a, v = _f64(a0), _f64(v0)
    a.attach_grad()
    v.attach_grad()
    with autograd.record():
        loss = run(a, v)
    loss.backward()
    val = lambda aa, vv: run(_f64(aa), _f64(vv)).asscalar()  # noqa: E731
    np.testing.assert_allclose(a.grad.asnumpy(), _numeric_grad(lambda t: val(t, v0), a0), rtol=1e-5)
    np.testing.assert_allclose(v.grad.asnumpy(), _numeric_grad(lambda t: val(a0, t), v0), rtol=1e-5)


def test_while_loop_bad_arguments():
    c = lambda i: i < 3  # noqa: E731
    f = lambda i: (i, i + 1)  # noqa: E731
    with pytest.raises(InvalidArgumentError, match="^max_iterations should be specified$"):
        contrib.while_loop(c, f, [nd.array([0])])
    with pytest.raises(InvalidArgumentError, match="^Cannot convert max_iteration to python int$"):
        contrib.while_loop(c, f, [nd.array([0])], max_iterations="many")
    with pytest.raises(InvalidArgumentError, match="^loop_vars should contain at least one element$"):
        contrib.while_loop(c, f, [], max_iterations=3)
    with pytest.raises(InvalidArgumentError, match="^The length of loop_vars should be consistent during the loop$"):
        contrib.while_loop(c, lambda i: (i, [i + 1, i]), [nd.array([0])], max_iterations=3)
    with pytest.raises(InvalidArgumentError, match="^Cannot convert Return value of cond to python bool$"):
        contrib.while_loop(lambda i: np.array([1, 2]), f, [nd.array([0])], max_iterations=3)
    with pytest.raises(ValueError, match="not a scalar"):  # cond must give one element
        contrib.while_loop(lambda i: i < 3, f, [nd.array([0, 1])], max_iterations=3)
    with pytest.raises(InvalidArgumentError, match="^Number of elements in step_output should be the same"):
        contrib.while_loop(c, lambda i: ([i] * int(i.asscalar() + 1), i + 1), [nd.array([0])], max_iterations=3)
    with pytest.raises(InvalidArgumentError, match=r"while output must be \(nested\) list of NDArray"):
        contrib.while_loop(c, lambda i: (7, i + 1), [nd.array([0])], max_iterations=3)
    bad_shapes = r"(?s)^Shapes of 1-th elements in step_outputs are inconsistent.*Step 1, shape is \(1, 2\)"
    with pytest.raises(InvalidArgumentError, match=bad_shapes):
        contrib.while_loop(c, lambda i: (nd.ones((int(i.asscalar()) + 1,)), i + 1), [nd.array([0])],
                           max_iterations=3)
    with pytest.raises(InvalidArgumentError, match="must return a pair"):
        contrib.while_loop(c, lambda i: i + 1, [nd.array([0])], max_iterations=3)
    with pytest.raises(InvalidArgumentError, match=r"loop_vars must be an NDArray or \(nested\) list"):
        contrib.while_loop(c, f, 3, max_iterations=3)


# ---------------------------------------------------------------- cond

def test_cond_mxnet_docstring_example():
    a, b = nd.array([1]), nd.array([2])
    pred = a * b < 5
    out = contrib.cond(pred, lambda: (a + 5) * (b + 5), lambda: (a - 5) * (b - 5))
    np.testing.assert_allclose(out.asnumpy(), [42.0])
    out = contrib.cond(a * b > 5, lambda: (a + 5) * (b + 5), lambda: (a - 5) * (b - 5))
    np.testing.assert_allclose(out.asnumpy(), [12.0])


def test_cond_runs_one_branch_and_returns_its_structure():
    ran = []

    def then_f():
        ran.append("then")
        return [nd.ones((2,)), [nd.zeros((1,))]]

    def else_f():
        ran.append("else")
        return nd.ones((3,))

    out = contrib.cond(nd.array([3.0]), then_f, else_f)  # nonzero: true
    assert ran == ["then"] and isinstance(out, list) and isinstance(out[1], list)
    out = contrib.cond(nd.zeros(()), then_f, else_f)  # a 0-d scalar, zero: false
    assert ran == ["then", "else"] and out.shape == (3,)
    assert contrib.cond(True, lambda: 1, lambda: 2) == 1  # a Python value is read as bool too


def test_cond_gradient_through_the_branch_taken():
    x = nd.array([2.0, -1.0])
    x.attach_grad()
    for positive, expected in ((True, [4.0, -2.0]), (False, [3.0, 3.0])):
        with autograd.record():
            y = contrib.cond(x.sum() > 0 if positive else x.sum() > 5, lambda: (x * x).sum(), lambda: (3 * x).sum())
        y.backward()
        np.testing.assert_allclose(x.grad.asnumpy(), expected)


def test_cond_bad_pred():
    with pytest.raises(ValueError, match="not a scalar"):
        contrib.cond(nd.ones((2,)), lambda: 1, lambda: 2)
    with pytest.raises(InvalidArgumentError, match="^Cannot convert pred to python bool$"):
        contrib.cond(object.__new__(type("NoBool", (), {"__bool__": lambda self: 1 / 0})), lambda: 1, lambda: 2)


# ---------------------------------------------------------------- symbols and Gluon

class _CumSum(gluon.HybridBlock):
    def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
        outs, _ = F.contrib.foreach(lambda xt, s: (xt + s[0], [xt + s[0]]), x, [F.zeros_like(x[0])])
        return outs


def test_hybrid_block_with_foreach_runs_imperatively():
    net = _CumSum()
    x = nd.array([[1, 2], [3, 4], [5, 6]])
    x.attach_grad()
    with autograd.record():
        y = net(x)
    y.backward(nd.array([[1, 1], [0, 1], [0, 1]]))
    np.testing.assert_allclose(y.asnumpy(), [[1, 2], [4, 6], [9, 12]])
    np.testing.assert_allclose(x.grad.asnumpy(), [[1, 3], [0, 2], [0, 1]])
