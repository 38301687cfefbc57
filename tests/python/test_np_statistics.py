"""weft.np's percentile/quantile (Note [Quantiles by sort and take]),
histogram and window functions against official NumPy."""
import numpy as onp
import pytest

import weft
from weft import np

R = onp.random.RandomState(5)


def arr(h, dtype=None):
    h = onp.asarray(h, dtype=dtype)
    return weft.nd.array(h, dtype=h.dtype).as_np_ndarray()


def _np_quantile(fn, h, q, axis, method, keepdims):
    # NumPy 1.22 renamed interpolation= to method=.
    try:
        return fn(h, q, axis=axis, method=method, keepdims=keepdims)
    except TypeError:
        return fn(h, q, axis=axis, interpolation=method, keepdims=keepdims)


@pytest.mark.parametrize("q", [50, [10, 90], [[0, 25], [75, 100]]])
@pytest.mark.parametrize("axis", [None, 1, (0, 2), -1])
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_percentile_matches_numpy(q, axis, method):
    h = R.rand(3, 4, 5)
    for keepdims in (False, True):
        r = np.percentile(arr(h), q, axis=axis, interpolation=method, keepdims=keepdims)
        e = _np_quantile(onp.percentile, h, q, axis, method, keepdims)
        assert r.shape == e.shape
        onp.testing.assert_allclose(r.asnumpy(), e, rtol=1e-12)


def test_quantile_dtypes_and_errors():
    h = onp.arange(10, dtype="int32")
    r = np.quantile(arr(h), 0.3)
    assert r.shape == () and r.dtype == onp.float32
    assert float(r.asnumpy()) == pytest.approx(onp.quantile(h, 0.3))
    r = np.quantile(arr(h), arr(onp.array([0.5, 1.0])), method="lower")
    onp.testing.assert_array_equal(r.asnumpy(), [4, 9])
    with pytest.raises(ValueError, match="percentile.*range"):
        np.percentile(arr(h), 101)
    with pytest.raises(ValueError, match="quantile.*range"):
        np.quantile(arr(h), [-0.1])
    with pytest.raises(ValueError, match="interpolation"):
        np.quantile(arr(h), 0.5, interpolation="cubic")
    assert onp.isnan(np.quantile(arr(onp.zeros((0,), "float32")), 0.5).asnumpy())


def test_quantile_gradient():
    h = R.rand(6)
    x = arr(h)
    x.attach_grad()
    with weft.autograd.record():
        y = np.sum(np.quantile(x, [0.3, 0.5]))
    y.backward()
    # d/dh of the interpolated order statistics: weights on the neighbours of q*(n-1).
    want = onp.zeros(6)
    order = onp.argsort(h)
    for q in (0.3, 0.5):
        pos = q * 5
        lo = int(onp.floor(pos))
        want[order[lo]] += 1 - (pos - lo)
        want[order[min(lo + 1, 5)]] += pos - lo
    onp.testing.assert_allclose(x.grad.asnumpy(), want, atol=1e-12)


def test_histogram():
    h = R.randn(200)
    for bins, rng in ((10, None), (4, (-1, 1)), (7, (-5, 5))):
        hist, edges = np.histogram(arr(h), bins=bins, range=rng)
        eh, ee = onp.histogram(h, bins=bins, range=rng)
        onp.testing.assert_array_equal(hist.asnumpy(), eh)
        onp.testing.assert_allclose(edges.asnumpy(), ee, rtol=1e-12)
    hist, _ = np.histogram(arr(h), bins=arr([-3.0, -1.0, 0.0, 0.5, 3.0]))
    onp.testing.assert_array_equal(hist.asnumpy(), onp.histogram(h, bins=[-3.0, -1.0, 0.0, 0.5, 3.0])[0])
    dens, _ = np.histogram(arr(h), bins=5, range=(-2, 2), density=True)
    onp.testing.assert_allclose(dens.asnumpy(), onp.histogram(h, bins=5, range=(-2, 2), density=True)[0])
    normed, _ = np.histogram(arr(h), bins=5, range=(-2, 2), normed=True)  # MXNet 1.9.1's old name
    onp.testing.assert_allclose(normed.asnumpy(), dens.asnumpy())
    hist, edges = np.histogram(arr(onp.ones(3)), bins=2)
    onp.testing.assert_array_equal(hist.asnumpy(), onp.histogram(onp.ones(3), bins=2)[0])
    with pytest.raises(NotImplementedError, match="weights"):
        np.histogram(arr(h), weights=arr(h))
    with pytest.raises(ValueError, match="bins"):
        np.histogram(arr(h), bins=0)
    with pytest.raises(ValueError, match="range"):
        np.histogram(arr(h), bins=3, range=(2, 1))


@pytest.mark.parametrize("name", ["blackman", "hamming", "hanning"])
def test_windows(name):
    for m in (0, 1, 2, 5, 12):
        r = getattr(np, name)(m)
        assert r.dtype == onp.float32
        onp.testing.assert_allclose(r.asnumpy(), getattr(onp, name)(m), atol=1e-6)
    r = getattr(np, name)(9, dtype="float64")
    onp.testing.assert_allclose(r.asnumpy(), getattr(onp, name)(9), atol=1e-14)
    prev = weft.util.set_np_default_dtype(True)
    try:
        assert getattr(np, name)(3).dtype == onp.float64
    finally:
        weft.util.set_np_default_dtype(prev)
    with pytest.raises(TypeError, match=name):
        getattr(np, name)(2.5)
