"""Issue 17's elementwise, reduction and AMP operators: bad input is refused at
the call with the op, the argument and what was expected; plus the behaviours
a harness case cannot show (out= accumulation of all_finite, mx.nd.logical_*
dispatch, the straight-through and multiplied gradients through autograd)."""
import numpy as np
import pytest

import weft
import weft.nd as nd


def _raises(cls, fn, *words):
    with pytest.raises(cls) as info:
        fn()
        nd.waitall()
    msg = str(info.value)
    for w in words:
        assert w in msg, "%r not in %r" % (w, msg)
    return info.value


def test_cumsum_bad_axis_names_op_and_axis():
    x = nd.ones((2, 3))
    _raises(weft.InvalidArgumentError, lambda: nd.cumsum(x, axis=2), "_np_cumsum", "axis")
    _raises(weft.InvalidArgumentError, lambda: nd.cumsum(x, axis=-3), "_np_cumsum", "axis")


def test_cumsum_bad_dtype():
    _raises(weft.DTypeError, lambda: nd.cumsum(nd.ones((3,)), dtype="uint8"), "_np_cumsum", "dtype", "int64")


def test_moments_bad_and_repeated_axes():
    x = nd.ones((2, 3))
    _raises(weft.InvalidArgumentError, lambda: nd.moments(x, axes=(2,)), "moments", "axes")
    _raises(weft.InvalidArgumentError, lambda: nd.moments(x, axes=(1, -1)), "moments", "duplicates")


def test_moments_needs_floating_input():
    _raises(weft.DTypeError, lambda: nd.moments(nd.ones((2, 3), dtype="int32"), axes=(0,)), "moments", "floating")


def test_softmin_bad_axis_and_temperature():
    x = nd.ones((2, 3))
    _raises(weft.InvalidArgumentError, lambda: nd.softmin(x, axis=3), "softmin", "axis")
    _raises(weft.InvalidArgumentError, lambda: nd.softmin(x, temperature=0.0), "softmin", "temperature")


def test_binary_logical_shapes():
    a, b = nd.ones((2, 3)), nd.ones((3, 2))
    _raises(weft.ShapeError, lambda: nd._logical_and(a, b), "_logical_and", "same shape")
    _raises(weft.ShapeError, lambda: nd.broadcast_logical_or(a, b), "broadcast_logical_or", "broadcast")


def test_float_only_ops_refuse_integers():
    i = nd.ones((3,), dtype="int32")
    _raises(weft.DTypeError, lambda: nd.hard_sigmoid(i), "hard_sigmoid", "floating")
    _raises(weft.DTypeError, lambda: nd.contrib.quadratic(i, a=1), "_contrib_quadratic", "floating")
    _raises(weft.DTypeError, lambda: nd.all_finite(i), "all_finite", "floating")
    _raises(weft.DTypeError, lambda: nd.multi_sum_sq(i, num_arrays=1), "multi_sum_sq", "floating")


def test_required_and_bad_parameters():
    x = nd.ones((3,))
    _raises(weft.InvalidArgumentError, lambda: nd.amp_cast(x), "amp_cast", "dtype")
    _raises(weft.DTypeError, lambda: nd.amp_cast(x, dtype="int32"), "amp_cast", "dtype", "floating")
    _raises(weft.InvalidArgumentError, lambda: nd.amp_multicast(x, num_outputs=0), "amp_multicast", "num_outputs")
    _raises(weft.InvalidArgumentError, lambda: nd.hard_sigmoid(x, alpha="steep"), "hard_sigmoid", "alpha")


def test_all_finite_without_init_ands_into_out():
    out = nd.array([0.0])
    nd.all_finite(nd.ones((3,)), init_output=False, out=out)
    assert out.asnumpy()[0] == 0.0  # left as it was: nothing non-finite, nothing written
    out = nd.array([1.0])
    nd.multi_all_finite(nd.ones((2,)), nd.array([np.nan]), num_arrays=2, init_output=False, out=out)
    assert out.asnumpy()[0] == 0.0


def test_logical_dispatch_like_mxnet():
    a = nd.array([[0.0, 1.0, 2.0]])
    b = nd.array([[0.0], [3.0]])
    np.testing.assert_array_equal(nd.logical_and(a, b).asnumpy(), [[0, 0, 0], [0, 1, 1]])
    np.testing.assert_array_equal(nd.logical_or(a, 0).asnumpy(), [[0, 1, 1]])
    np.testing.assert_array_equal(nd.logical_xor(a, a).asnumpy(), [[0, 0, 0]])
    np.testing.assert_array_equal(nd.logical_not(a).asnumpy(), [[1, 0, 0]])
    assert nd.logical_and(1, 0) == 0.0


def test_straight_through_and_multiplied_gradients():
    x = nd.array([-1.4, 0.6, 2.5])
    x.attach_grad()
    with weft.autograd.record():
        y = nd.contrib.round_ste(x) * 2 + nd.contrib.sign_ste(x)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [3.0, 3.0, 3.0])
    with weft.autograd.record():
        z = nd.contrib.gradientmultiplier(x, scalar=-0.5)
    z.backward()
    np.testing.assert_allclose(z.asnumpy(), x.asnumpy())
    np.testing.assert_allclose(x.grad.asnumpy(), [-0.5, -0.5, -0.5])


def test_fluent_methods():
    x = nd.array([0.25, 0.5])
    for name in ("arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arctanh", "degrees", "radians",
                 "fix", "trunc", "rint", "log2", "log10", "rcbrt", "softmin"):
        assert hasattr(x, name), name
    np.testing.assert_allclose(x.arcsin().asnumpy(), np.arcsin([0.25, 0.5]), rtol=1e-6)
    np.testing.assert_allclose(x.softmin().asnumpy(), nd.softmin(x).asnumpy())
