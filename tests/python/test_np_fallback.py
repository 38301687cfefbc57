"""weft.np.fallback (Note [Host NumPy fallback]): MXNet 1.9.1's list of
functions run by host NumPy, arrays converted both ways, and the names NumPy
removed (Note [Fallback names NumPy removed]) working under any NumPy."""
import os
import warnings

import numpy as onp
import pytest

import weft
from weft import np
from weft.numpy import fallback

REF = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "reference", "mxnet-1.9.1-numpy.txt")


def arr(h, dtype=None):
    h = onp.asarray(h, dtype=dtype)
    return weft.nd.array(h, dtype=h.dtype).as_np_ndarray()


def _mx_np_names():
    # The name list lives outside the repository (/work/shared/reference); the
    # names FALLBACK must be drawn from are checked against it where present and
    # against the copy below (MXNet 1.9.1's fallback.py __all__ minus pmt) always.
    path = os.path.normpath(REF)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return {line.split("\t")[1].strip() for line in f if line.startswith("mx.np\t")}


def test_fallback_list_is_mxnets():
    assert len(fallback.FALLBACK) == len(set(fallback.FALLBACK)) == 81
    assert "pmt" not in fallback.FALLBACK  # in MXNet's fallback.py but not exposed by mx.np
    names = _mx_np_names()
    if names is not None:
        assert set(fallback.FALLBACK) <= names
    for name in fallback.FALLBACK:
        fn = getattr(fallback, name)
        assert fn.is_fallback and "Fallback to official NumPy" in fn.__doc__, name
        if name in fallback.ENGINE_OVERRIDES:
            assert getattr(np, name) is not fn and not getattr(getattr(np, name), "is_fallback", False)
        else:
            assert getattr(np, name) is fn, name


def test_arrays_go_to_host_and_come_back():
    h = onp.array([[1.0, onp.nan, 3.0], [0.0, 5.0, -1.0]])
    x = arr(h)
    r = np.nanmax(x, axis=0)
    assert isinstance(r, np.ndarray) and r.dtype == onp.float64
    onp.testing.assert_array_equal(r.asnumpy(), onp.nanmax(h, axis=0))
    assert np.nanmax(x) == 5.0  # a NumPy scalar stays a scalar (as MXNet)
    assert np.count_nonzero(x) == onp.count_nonzero(h)
    q, m = np.divmod(arr(onp.array([7, -8], "int32")), 3)
    assert isinstance(q, np.ndarray) and q.dtype == onp.int32
    onp.testing.assert_array_equal(q.asnumpy(), [2, -3])
    onp.testing.assert_array_equal(m.asnumpy(), [1, 1])
    s = np.searchsorted(arr([1.0, 3.0, 5.0]), arr([2.0, 6.0]))
    onp.testing.assert_array_equal(s.asnumpy(), [1, 3])
    sel = np.select([arr(h) > 2, arr(h) < 0], [arr(h), arr(h) * 10], default=0)
    onp.testing.assert_array_equal(sel.asnumpy(), onp.select([h > 2, h < 0], [h, h * 10], default=0))
    roots = np.roots([1, 0, 1])  # complex: the engine has no such type, so NumPy's array comes back
    assert isinstance(roots, onp.ndarray) and roots.dtype.kind == "c"
    assert np.allclose(arr([1.0, 2.0]), arr([1.0, 2.0 + 1e-9]))
    assert np.ptp(arr([[1, 9], [3, 4]], "int32")) == 8


def test_names_numpy_removed_work_on_any_numpy():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        h = onp.array([[3.0, 1.0], [2.0, 5.0]])
        onp.testing.assert_array_equal(np.msort(arr(h)).asnumpy(), onp.sort(h, axis=0))
        assert not np.alltrue(arr(h) > 2) and np.alltrue(arr(h) > 0)
        onp.testing.assert_array_equal(np.in1d(arr(h), [1.0, 5.0]).asnumpy(), [False, True, False, True])
        assert np.trapz(arr([1.0, 2.0, 3.0])) == 4.0
        # NumPy 1.17's documented examples of its financial functions.
        assert np.npv(0.281, [-100, 39, 59, 55, 20]) == pytest.approx(-0.0084785916384548798, rel=1e-9)
        assert np.pv(0.05 / 12, 10 * 12, -100, 15692.93) == pytest.approx(-100.00067131625819, rel=1e-9)
        assert np.rate(10, 0, -3500, 10000) == pytest.approx(0.1106908537142689, rel=1e-9)
        assert np.mirr([-4500, -800, 800, 800, 600, 600, 800, 800, 700, 3000], 0.08, 0.055) == \
            pytest.approx(0.0666, abs=1e-4)
        per = onp.arange(1, 13)
        pp = np.ppmt(0.0824 / 12, per, 12, 2500)
        onp.testing.assert_allclose(pp.asnumpy() if hasattr(pp, "asnumpy") else pp,
                                    [-200.58, -201.96, -203.35, -204.74, -206.15, -207.56, -208.99, -210.42,
                                     -211.87, -213.32, -214.79, -216.26], atol=0.005)
        assert onp.isnan(np.mirr([100, 200], 0.1, 0.1))


def test_engine_overrides_are_differentiable():
    x = arr(onp.array([0.5, 1.5]))
    x.attach_grad()
    with weft.autograd.record():
        y = np.sum(np.float_power(x, 2.0) + np.positive(x) + np.heaviside(x, 0.5))
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), 2 * onp.array([0.5, 1.5]) + 1)
    onp.testing.assert_array_equal(fallback.heaviside(arr([-1.0, 0.0, 2.0]), 0.5).asnumpy(), [0, 0.5, 1])
