"""Note [Default-parameter calls] (weft/numpy/_array.py): npx.relu, npx.sigmoid,
npx.softmax, npx.log_softmax, npx.pick, unary minus and the full mean, called with
their defaults on weft.np arrays, go straight to the op. They must give what the
general path (_invoke with every attribute spelled out) gives: values, dtype,
shape (the caches they fill must agree with the engine's), errors, gradients."""
import numpy as onp
import pytest

import weft
from weft import np, npx
from weft.base import h_dtype
from weft.numpy._array import _invoke


def _engine_view(x):
    """(shape, dtype flag) read from the engine, not from x's caches."""
    return x.as_nd_ndarray().shape, h_dtype(x.handle)


def _check_same(got, want):
    assert type(got) is np.ndarray
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    assert _engine_view(got) == (got.shape, got._dtype_flag)  # pylint: disable=protected-access
    onp.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


def _arr(shape, dtype, seed=0):
    h = onp.random.default_rng(seed).uniform(-2, 2, shape).astype(dtype)
    return np.array(h, dtype=dtype)


UNARY = {
    "relu": (lambda x: npx.relu(x), lambda x: _invoke("relu", [x])),
    "sigmoid": (lambda x: npx.sigmoid(x), lambda x: _invoke("sigmoid", [x])),
    "softmax": (lambda x: npx.softmax(x), lambda x: _invoke("softmax", [x], axis=-1)),
    "log_softmax": (lambda x: npx.log_softmax(x), lambda x: _invoke("log_softmax", [x], axis=-1)),
    "negative": (lambda x: -x, lambda x: _invoke("negative", [x])),
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (2, 0)])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_defaults_match_the_general_path(name, shape, dtype):
    fast, general = UNARY[name]
    x = _arr(shape, dtype)
    _check_same(fast(x), general(x))
    x2 = _arr(shape, dtype)  # a fresh array whose shape was never read
    _check_same(fast(x2), general(x2))


def test_unary_values_against_numpy():
    h = onp.random.default_rng(3).uniform(-3, 3, (4, 6)).astype("float64")
    x = np.array(h, dtype="float64")
    e = onp.exp(h - h.max(axis=-1, keepdims=True))
    onp.testing.assert_allclose(npx.relu(x).asnumpy(), onp.maximum(h, 0))
    onp.testing.assert_allclose(npx.sigmoid(x).asnumpy(), 1 / (1 + onp.exp(-h)), rtol=1e-12)
    onp.testing.assert_allclose(npx.softmax(x).asnumpy(), e / e.sum(axis=-1, keepdims=True), rtol=1e-12)
    onp.testing.assert_allclose(npx.log_softmax(x).asnumpy(), onp.log(e / e.sum(axis=-1, keepdims=True)),
                                rtol=1e-12)
    onp.testing.assert_array_equal((-x).asnumpy(), -h)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "bool"])
def test_negative_of_other_dtypes_keeps_the_general_rules(dtype):
    h = onp.array([[0, 1, 2], [3, 1, 0]]).astype(dtype)
    x = np.array(h, dtype=dtype)
    if dtype == "bool":
        with pytest.raises(TypeError, match="negative"):
            -x  # pylint: disable=pointless-statement
        return
    r = -x
    assert r.dtype == onp.dtype(dtype)
    onp.testing.assert_array_equal(r.asnumpy(), -h)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 3, 5)])
def test_pick_defaults_match_the_general_path_and_numpy(shape, dtype):
    x = _arr(shape, "float64", seed=1).astype(dtype)
    rng = onp.random.default_rng(2)
    idx_h = rng.integers(0, shape[-1], shape[:-1] or (1,)).astype("float32")
    idx = np.array(idx_h, dtype="float32")
    got = npx.pick(x, idx)  # x's shape not read yet: the output's is read from the engine
    want = _invoke("pick", [x, idx], axis=-1, mode="clip", keepdims=False)
    _check_same(got, want)
    assert x.shape == shape  # now cached: the fast call sets the output's shape from it
    _check_same(npx.pick(x, idx), want)
    h = x.asnumpy()
    expect = onp.take_along_axis(h.reshape((-1, shape[-1])), idx_h.astype("int64").reshape(-1, 1), axis=-1)
    onp.testing.assert_array_equal(got.asnumpy().ravel(), expect.ravel())


def test_pick_clips_out_of_range_indices():
    x = np.array(onp.arange(12, dtype="float32").reshape(3, 4))
    got = npx.pick(x, np.array(onp.array([-5, 9, 2], "float32")))
    onp.testing.assert_array_equal(got.asnumpy(), [0, 7, 10])
    assert got.shape == (3,)


def test_pick_errors_are_the_general_paths():
    x = np.array(onp.ones((3, 4), "float32"))
    bad = np.array(onp.zeros((5,), "float32"))
    with pytest.raises(weft.base.WeftError) as fast:
        npx.pick(x, bad)
    with pytest.raises(weft.base.WeftError) as general:
        _invoke("pick", [x, bad], axis=-1, mode="clip", keepdims=False)
    assert type(fast.value) is type(general.value) and str(fast.value) == str(general.value)
    assert "pick" in str(fast.value)


def test_mean_is_a_0d_view_with_the_engines_shape():
    h = onp.random.default_rng(4).uniform(-1, 1, (3, 5))
    for dtype in ("float16", "float32", "float64"):
        x = np.array(h.astype(dtype), dtype=dtype)
        m = x.mean()
        assert type(m) is np.ndarray and m.shape == () and m.dtype == onp.dtype(dtype)
        assert _engine_view(m) == ((), m._dtype_flag)  # pylint: disable=protected-access
        onp.testing.assert_allclose(float(m), h.astype(dtype).mean(dtype="float64"), rtol=2e-3)


def test_gradients_through_the_default_calls():
    rng = onp.random.default_rng(5)
    h = rng.uniform(-1, 1, (4, 3))
    lab = onp.array([0, 2, 1, 2], "float64")
    x = np.array(h, dtype="float64")
    x.attach_grad()
    with weft.autograd.record():
        y = -npx.pick(npx.log_softmax(npx.relu(x) + npx.sigmoid(x)), np.array(lab, dtype="float64")).mean()
    y.backward()

    def f(v):
        z = onp.maximum(v, 0) + 1 / (1 + onp.exp(-v))
        z = z - z.max(axis=-1, keepdims=True)
        ls = z - onp.log(onp.exp(z).sum(axis=-1, keepdims=True))
        return -ls[onp.arange(4), lab.astype(int)].mean()
    num = onp.zeros_like(h)
    eps = 1e-6
    for i in range(h.size):
        d = onp.zeros_like(h)
        d.flat[i] = eps
        num.flat[i] = (f(h + d) - f(h - d)) / (2 * eps)
    onp.testing.assert_allclose(x.grad.asnumpy(), num, rtol=1e-5, atol=1e-8)
