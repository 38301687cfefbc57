"""weft.np.nonzero / flatnonzero and weft.npx.nonzero (issue 37 point 3; op
_npx_nonzero in core/op/index/nonzero.cc, an output sized after its input is
ready) against official NumPy: dtypes, nan and -0.0, zero-size inputs, bad
input, hybridized blocks and autograd recording around it."""
import numpy as onp
import pytest

import weft
from weft import np, npx


def _np(x, dtype=None):
    x = onp.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype).as_np_ndarray()


def _sparse(shape, dtype, seed=0):
    rng = onp.random.default_rng(seed)
    x = onp.where(rng.random(shape) < 0.5, 0, rng.integers(1, 9, size=shape)).astype(dtype)
    if dtype.startswith("float") and x.size >= 3:
        x.flat[0], x.flat[1], x.flat[2] = onp.nan, -0.0, onp.inf
    return x


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int8", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4), (0,), (2, 0, 3), (1, 1, 1, 1, 5)])
def test_nonzero_matches_numpy(dtype, shape):
    x = _sparse(shape, dtype)
    got = np.nonzero(_np(x))
    want = onp.nonzero(x)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert type(g) is np.ndarray and g.dtype == onp.int64
        onp.testing.assert_array_equal(g.asnumpy(), w)
    f = np.flatnonzero(_np(x))
    assert f.dtype == onp.int64
    onp.testing.assert_array_equal(f.asnumpy(), onp.flatnonzero(x))
    a = npx.nonzero(_np(x))
    assert a.dtype == onp.int64 and a.shape == (int(onp.count_nonzero(x)), x.ndim)
    onp.testing.assert_array_equal(a.asnumpy(), onp.argwhere(x))


def test_nonzero_all_zero_and_all_set():
    z = onp.zeros((3, 2), onp.float32)
    assert [g.shape for g in np.nonzero(_np(z))] == [(0,), (0,)]
    o = onp.ones((2, 2), onp.int32)
    onp.testing.assert_array_equal(npx.nonzero(_np(o)).asnumpy(), onp.argwhere(o))


def test_flatnonzero_of_0d():
    onp.testing.assert_array_equal(np.flatnonzero(_np(onp.float32(2.0))).asnumpy(), [0])
    assert np.flatnonzero(_np(onp.float32(0.0))).shape == (0,)


def test_nonzero_of_0d_counts_one_element():
    # as in MXNet 1.9.1 and NumPy 1.x (NumPy 2 raises)
    for v, want in ((1.0, [0]), (0.0, [])):
        got = np.nonzero(_np(onp.float32(v)))
        assert len(got) == 1 and got[0].dtype == onp.int64
        onp.testing.assert_array_equal(got[0].asnumpy(), want)
        onp.testing.assert_array_equal(_np(onp.float32(v)).nonzero()[0].asnumpy(), want)


def test_npx_nonzero_of_0d_reads_it_as_1d():
    # MXNet 1.9.1 (checked there): npx.nonzero(np.array(3.0)) is [[0]] (1, 1) and
    # npx.nonzero(np.array(0.0)) has shape (0, 1); NumPy 2's argwhere gives (N, 0)
    for v, shape in ((3.0, (1, 1)), (0.0, (0, 1))):
        got = npx.nonzero(_np(onp.float32(v)))
        assert got.shape == shape and got.dtype == onp.int64
        assert got.asnumpy().tolist() == ([[0]] if v else [])
    onp.testing.assert_array_equal(npx.nonzero(_np(onp.array(True))).asnumpy(), [[0]])


def test_nonzero_bad_input():
    with pytest.raises(TypeError, match="nonzero: argument 'a' must be a weft.np.ndarray, got list"):
        np.nonzero([1, 0])
    with pytest.raises(TypeError, match="flatnonzero: argument 'a' must be a weft.np.ndarray, got int"):
        np.flatnonzero(3)
    with pytest.raises(TypeError, match="nonzero: argument 'x' must be a weft.np.ndarray"):
        npx.nonzero(onp.ones(3))


def test_nonzero_after_pending_writes_and_under_record():
    # the output is sized from x's value after earlier writes to it complete
    x = _np(onp.zeros((4,), onp.float32))
    x[1:3] = 5
    onp.testing.assert_array_equal(np.flatnonzero(x).asnumpy(), [1, 2])
    y = _np(onp.array([0.0, 2.0, 0.0, 3.0], onp.float32))
    y.attach_grad()
    with weft.autograd.record():
        idx = npx.nonzero(y)
        z = (y * 2).sum()
    z.backward()
    onp.testing.assert_array_equal(idx.asnumpy(), [[1], [3]])
    onp.testing.assert_array_equal(y.grad.asnumpy(), [2, 2, 2, 2])


def test_nonzero_symbol_leaves_the_shape_open_and_bind_refuses_it():
    # a graph MXNet wrote in NumPy mode names the op _npx_nonzero; it loads, and
    # a bound executor refuses it as MXNet does (Note [Data-dependent output shapes])
    s = weft.sym._internal._npx_nonzero(weft.sym.var("x"), name="nz")
    again = weft.sym.load_json(s.tojson())
    assert "_npx_nonzero" in again.tojson()
    with pytest.raises(weft.ShapeError, match=r"node 'nz' \(_npx_nonzero\).*depends on the values"):
        s.bind(weft.cpu(), {"x": weft.nd.ones((3, 2))})
