"""The math methods of weft.np.ndarray (MXNet 1.9.1's mx.np.ndarray math
names) against official NumPy's functions."""
import os

import numpy as onp
import pytest

import weft
from weft import np
from weft.numpy import _math_methods

R = onp.random.RandomState(3)


def arr(h, dtype=None):
    h = onp.asarray(h, dtype=dtype)
    return weft.nd.array(h, dtype=h.dtype).as_np_ndarray()


MATH_METHODS = ("abs all any arccos arccosh arcsin arcsinh arctan arctanh argmax argmin argsort cbrt ceil clip "
                "cos cosh cumsum degrees dot exp expm1 fix floor log log10 log1p log2 max mean min nanprod "
                "nansum norm prod radians rcbrt reciprocal rint round rsqrt sign sin sinh sort sqrt square std "
                "sum tan tanh trunc var").split()


def test_every_math_method_is_installed():
    for name in MATH_METHODS:
        fn = getattr(np.ndarray, name)
        assert fn.__module__ == _math_methods.__name__ or fn.__qualname__.startswith("ndarray."), name
    ref = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "reference",
                                        "mxnet-1.9.1-numpy.txt"))
    if os.path.exists(ref):  # outside the repository; MATH_METHODS above is the copy checked always
        with open(ref) as f:
            names = {line.split("\t")[1].strip() for line in f if line.startswith("mx.np.ndarray methods\t")}
        assert set(MATH_METHODS) <= names


@pytest.mark.parametrize("name", ["arccos", "arcsin", "arctan", "arctanh", "arcsinh", "cbrt", "ceil", "cos", "cosh",
                                  "degrees", "exp", "expm1", "fix", "floor", "log1p", "radians", "rint", "sign",
                                  "sin", "sinh", "square", "tan", "tanh", "trunc", "abs"])
def test_unary_methods(name):
    h = R.uniform(-0.9, 0.9, size=(2, 3)).astype("float32")
    r = getattr(arr(h), name)()
    assert isinstance(r, np.ndarray) and r.dtype == onp.float32
    onp.testing.assert_allclose(r.asnumpy(), getattr(np, name)(arr(h)).asnumpy(), rtol=1e-6)


def test_positive_domain_methods():
    h = R.uniform(1.1, 3, size=(2, 3))
    x = arr(h)
    for name, ref in (("sqrt", onp.sqrt), ("log", onp.log), ("log10", onp.log10), ("log2", onp.log2),
                      ("arccosh", onp.arccosh), ("reciprocal", onp.reciprocal)):
        onp.testing.assert_allclose(getattr(x, name)().asnumpy(), ref(h), rtol=1e-12, err_msg=name)
    onp.testing.assert_allclose(x.rsqrt().asnumpy(), 1 / onp.sqrt(h), rtol=1e-12)
    onp.testing.assert_allclose(x.rcbrt().asnumpy(), 1 / onp.cbrt(h), rtol=1e-12)


def test_reduction_methods():
    h = R.uniform(size=(3, 4))
    x = arr(h)
    for name in ("sum", "prod", "mean", "std", "var", "max", "min", "all", "any"):
        r = getattr(x, name)()
        assert r.shape == ()
        onp.testing.assert_allclose(r.asnumpy(), getattr(h, name)(), rtol=1e-12, err_msg=name)
        r = getattr(x, name)(axis=-1, keepdims=True)
        onp.testing.assert_allclose(r.asnumpy(), getattr(h, name)(axis=-1, keepdims=True), rtol=1e-12)
    assert x.std(ddof=1).asnumpy() == pytest.approx(h.std(ddof=1))
    onp.testing.assert_array_equal(x.argmax(axis=0).asnumpy(), h.argmax(axis=0))
    onp.testing.assert_array_equal(x.argmin().asnumpy(), h.argmin())
    onp.testing.assert_allclose(x.cumsum(axis=1).asnumpy(), h.cumsum(axis=1))
    onp.testing.assert_array_equal(x.argsort(axis=0).asnumpy(), h.argsort(axis=0, kind="stable"))
    onp.testing.assert_array_equal(x.sort(axis=None).asnumpy(), onp.sort(h, axis=None))
    onp.testing.assert_allclose(x.clip(0.2, 0.7).asnumpy(), h.clip(0.2, 0.7))
    onp.testing.assert_allclose(x.dot(arr(h.T)).asnumpy(), h.dot(h.T), rtol=1e-12)
    g = onp.array([0.5, 1.5, 2.5, -1.25])
    onp.testing.assert_array_equal(arr(g).round().asnumpy(), g.round())
    onp.testing.assert_array_equal(arr(g).round(1).asnumpy(), g.round(1))


def test_legacy_methods():
    h = onp.array([[1.0, onp.nan, 3.0], [4.0, 2.0, onp.nan]])
    x = arr(h)
    assert x.nansum().shape == () and float(x.nansum().asnumpy()) == onp.nansum(h)
    onp.testing.assert_array_equal(x.nansum(axis=0).asnumpy(), onp.nansum(h, axis=0))
    onp.testing.assert_array_equal(x.nanprod(axis=1).asnumpy(), onp.nanprod(h, axis=1))
    g = R.uniform(size=(2, 3))
    assert float(arr(g).norm().asnumpy()) == pytest.approx(onp.linalg.norm(g.ravel()))
    onp.testing.assert_allclose(arr(g).norm(ord=1, axis=1).asnumpy(), onp.abs(g).sum(axis=1))
    with pytest.raises(ValueError, match="norm"):
        arr(g).norm(ord=3)
