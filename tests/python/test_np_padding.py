"""weft.np.pad (issue 37 point 3; op _npi_pad in core/op/shape/np_pad.cc,
Note [Pad axis by axis, as NumPy]) against official NumPy: every mode, pads
wider than the axis (repeated reflections), corners, dtypes, 0-d and
zero-size inputs, bad input, and the gradient against finite differences."""
import numpy as onp
import pytest

import weft
from weft import np

MODES = ["constant", "edge", "reflect", "symmetric", "maximum", "minimum"]


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape,width", [((5,), 2), ((5,), (3, 7)), ((3, 4), ((1, 2), (2, 0))), ((3, 4), 6),
                                         ((2, 3, 2), ((0, 1), (2, 2), (1, 3))), ((1, 3), ((2, 2), (1, 1))),
                                         ((4,), 0)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8"])
def test_pad_matches_numpy(mode, shape, width, dtype):
    rng = onp.random.default_rng(12)
    x = rng.integers(0, 50, size=shape).astype(dtype)
    kw = {"constant_values": 7} if mode == "constant" else {}
    got = np.pad(_np(x), width, mode=mode, **kw)
    want = onp.pad(x, width, mode=mode, **kw)
    assert type(got) is np.ndarray and got.shape == want.shape and got.dtype == want.dtype
    onp.testing.assert_array_equal(got.asnumpy(), want)


def test_pad_zero_size_and_0d():
    z = onp.zeros((0, 3), onp.float32)
    onp.testing.assert_array_equal(np.pad(_np(z), 1).asnumpy(), onp.pad(z, 1))
    onp.testing.assert_array_equal(np.pad(_np(z), ((0, 0), (1, 1)), mode="edge").asnumpy(),
                                   onp.pad(z, ((0, 0), (1, 1)), mode="edge"))
    s = onp.float32(3.0)
    assert np.pad(_np(s), 2).shape == onp.pad(s, 2).shape


def test_pad_bad_input():
    x = _np(onp.ones((2, 3), onp.float32))
    with pytest.raises(NotImplementedError, match="pad: mode 'wrap' is not supported"):
        np.pad(x, 1, mode="wrap")
    with pytest.raises(ValueError, match="pad: argument 'pad_width' must be non-negative"):
        np.pad(x, -1)
    with pytest.raises(ValueError, match=r"pad: argument 'pad_width' of shape \(3, 2\) cannot be broadcast"):
        np.pad(x, ((1, 1), (1, 1), (1, 1)))
    with pytest.raises(TypeError, match="pad: argument 'pad_width' must hold integers"):
        np.pad(x, 1.5)
    with pytest.raises(TypeError, match="pad: argument 'x' must be a weft.np.ndarray, got list"):
        np.pad([1, 2], 1)
    with pytest.raises(ValueError, match=r"_npi_pad: can't extend empty axis 0 using modes other than 'constant'"):
        np.pad(_np(onp.zeros((0, 2), onp.float32)), 1, mode="edge")
    with pytest.raises(ValueError, match=r"_npi_pad: parameter 'pad_width' entry \d+ is too large"):
        np.pad(x, 2 ** 50)
    with pytest.raises(NotImplementedError, match="pad: argument 'stat_length'"):
        np.pad(x, 1, mode="maximum", stat_length=2)


def _numeric_grad(f, x, eps=1e-6):
    g = onp.zeros_like(x)
    for i in onp.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (f(xp) - f(xm)) / (2 * eps)
    return g


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_pad_gradient_matches_finite_differences(mode):
    rng = onp.random.default_rng(13)
    x0 = rng.uniform(-1, 1, size=(3, 4))
    width = ((2, 5), (1, 3))
    w = rng.uniform(-1, 1, size=onp.pad(x0, width, mode=mode).shape)
    x = _np(x0)
    x.attach_grad()
    with weft.autograd.record():
        y = np.pad(x, width, mode=mode)
    y.backward(_np(w))
    num = _numeric_grad(lambda v: float((onp.pad(v, width, mode=mode) * w).sum()), x0)
    onp.testing.assert_allclose(x.grad.asnumpy(), num, rtol=1e-6, atol=1e-8)


def test_pad_gradient_of_maximum_is_refused():
    x = _np(onp.ones((2, 2)))
    x.attach_grad()
    with weft.autograd.record():
        y = np.pad(x, 1, mode="maximum")
    with pytest.raises(ValueError, match="_backward_npi_pad: the gradient of modes maximum and minimum"):
        y.backward()
        x.grad.asnumpy()
