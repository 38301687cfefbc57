"""weft.np's element-wise functions and ndarray operators against official
NumPy: values over dtypes, broadcasting, 0-d and zero-size shapes, NumPy's
exception types, and finite-difference gradients of each differentiable family."""
import numpy as onp
import pytest

import weft
from weft import np

R = onp.random.RandomState(7)


def arr(h, dtype=None):
    h = onp.asarray(h, dtype=dtype)
    return weft.nd.array(h, dtype=h.dtype).as_np_ndarray()


def close(r, e, rtol=1e-5, atol=1e-6):
    assert isinstance(r, np.ndarray), type(r)
    assert r.shape == onp.shape(e), (r.shape, onp.shape(e))
    onp.testing.assert_allclose(r.asnumpy(), e, rtol=rtol, atol=atol, equal_nan=True)


# name -> (host reference, domain low, domain high)
FLOAT_UNARY = {
    "sqrt": (onp.sqrt, 0.1, 4), "cbrt": (onp.cbrt, -4, 4), "exp": (onp.exp, -2, 2), "expm1": (onp.expm1, -2, 2),
    "log": (onp.log, 0.1, 4), "log10": (onp.log10, 0.1, 4), "log1p": (onp.log1p, -0.5, 4),
    "log2": (onp.log2, 0.1, 4), "sin": (onp.sin, -3, 3), "cos": (onp.cos, -3, 3), "tan": (onp.tan, -1, 1),
    "arcsin": (onp.arcsin, -0.9, 0.9), "arccos": (onp.arccos, -0.9, 0.9), "arctan": (onp.arctan, -3, 3),
    "sinh": (onp.sinh, -2, 2), "cosh": (onp.cosh, -2, 2), "tanh": (onp.tanh, -2, 2),
    "arcsinh": (onp.arcsinh, -2, 2), "arccosh": (onp.arccosh, 1.1, 4), "arctanh": (onp.arctanh, -0.9, 0.9),
    "deg2rad": (onp.deg2rad, -180, 180), "rad2deg": (onp.rad2deg, -3, 3), "degrees": (onp.degrees, -3, 3),
    "radians": (onp.radians, -180, 180), "fabs": (onp.fabs, -3, 3),
}
SAME_UNARY = {
    "abs": onp.abs, "absolute": onp.absolute, "negative": onp.negative, "square": onp.square,
    "sign": onp.sign, "ceil": onp.ceil, "floor": onp.floor, "trunc": onp.trunc, "fix": onp.fix,
    "positive": onp.positive,
}


@pytest.mark.parametrize("name", sorted(FLOAT_UNARY))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_unary_values(name, dtype):
    ref, lo, hi = FLOAT_UNARY[name]
    h = R.uniform(lo, hi, size=(3, 4)).astype(dtype)
    r = getattr(np, name)(arr(h))
    assert r.dtype == onp.dtype(dtype)
    close(r, ref(h), rtol=1e-4 if dtype == "float32" else 1e-10)


@pytest.mark.parametrize("name", ["sqrt", "exp", "sin", "log1p", "degrees"])
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "bool"])
def test_float_unary_of_integers_gives_default_float(name, dtype):
    h = onp.array([0, 1, 2, 3], dtype=dtype) if dtype != "bool" else onp.array([True, False])
    r = getattr(np, name)(arr(h))
    assert r.dtype == onp.float32
    close(r, FLOAT_UNARY[name][0](h.astype("float64")), rtol=1e-5)


@pytest.mark.parametrize("name", sorted(SAME_UNARY))
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_same_dtype_unary(name, dtype):
    h = onp.array([[-2.5, -1.0, 0.0], [0.5, 1.5, 3.0]]).astype(dtype)
    r = getattr(np, name)(arr(h))
    assert r.dtype == onp.dtype(dtype)
    close(r, SAME_UNARY[name](h).astype(dtype))


def test_unary_shapes_zero_d_and_empty():
    close(np.exp(arr(onp.float32(0.5))), onp.exp(onp.float32(0.5)))
    close(np.sqrt(arr(onp.zeros((0, 3), "float32"))), onp.zeros((0, 3)))
    close(np.negative(2.0), -2.0)  # a Python scalar gives a 0-d array


def test_rounding():
    h = onp.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49, 2.51, -0.51], dtype="float32")
    close(np.around(arr(h)), onp.around(h))
    close(np.round(arr(h)), onp.round(h))
    close(np.round_(arr(h)), onp.around(h))
    d = onp.array([1.25, 1.35, -1.45, 12.5, 127.0], dtype="float64")
    close(np.around(arr(d), 1), onp.around(d, 1))
    close(np.around(arr(d), -1), onp.around(d, -1))
    close(np.around(x=arr(d), decimals=1), onp.around(d, 1))  # MXNet's parameter names
    i = onp.array([15, 25, -35], dtype="int32")
    assert np.around(arr(i)).dtype == onp.int32
    close(np.around(arr(i), -1), onp.around(i, -1))
    # MXNet's rint rounds halves down (its kernel), unlike NumPy.
    close(np.rint(arr(onp.array([0.4, 0.5, 1.5, 2.6], "float32"))), [0, 0, 1, 3])


def test_clip_and_nan_to_num():
    h = onp.array([[-3, 0.5, 7], [2, onp.nan, 1]], dtype="float32")
    close(np.clip(arr(h), 0, 2), onp.clip(h, 0, 2))
    close(np.clip(arr(h), None, 2), onp.clip(h, None, 2))
    with pytest.raises(ValueError, match="clip"):
        np.clip(arr(h), None, None)
    g = onp.array([onp.nan, onp.inf, -onp.inf, 1.5], dtype="float64")
    close(np.nan_to_num(arr(g)), onp.nan_to_num(g), rtol=0, atol=0)
    close(np.nan_to_num(arr(g), nan=-1, posinf=9, neginf=-9), onp.nan_to_num(g, nan=-1, posinf=9, neginf=-9))
    x = arr(g)
    np.nan_to_num(x, copy=False)
    close(x, onp.nan_to_num(g))


def test_predicates():
    h = onp.array([onp.nan, onp.inf, -onp.inf, 0.0, -2.0], dtype="float32")
    for name in ("isnan", "isinf", "isfinite", "isposinf", "isneginf"):
        r = getattr(np, name)(arr(h))
        assert r.dtype == onp.bool_
        onp.testing.assert_array_equal(r.asnumpy(), getattr(onp, name)(h), err_msg=name)
    i = onp.array([1, 2], dtype="int32")
    onp.testing.assert_array_equal(np.isfinite(arr(i)).asnumpy(), [True, True])
    onp.testing.assert_array_equal(np.isnan(arr(i)).asnumpy(), [False, False])


BINARY = {
    "add": onp.add, "subtract": onp.subtract, "multiply": onp.multiply, "divide": onp.divide,
    "true_divide": onp.true_divide, "mod": onp.mod, "remainder": onp.remainder, "power": onp.power,
    "maximum": onp.maximum, "minimum": onp.minimum, "hypot": onp.hypot, "arctan2": onp.arctan2,
    "copysign": onp.copysign, "float_power": onp.float_power, "heaviside": onp.heaviside,
}
SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((4, 1), (1, 5)), ((), (3,)), ((0, 3), (1, 3)), ((2, 1, 3), (4, 1))]


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("sa,sb", SHAPES)
def test_binary_float_broadcasting(name, sa, sb):
    ha = R.uniform(-3, 3, size=sa)
    hb = R.uniform(0.5, 3, size=sb) * R.choice([-1, 1], size=sb)
    if name in ("power", "float_power"):
        ha = onp.abs(ha) + 0.1
    if name == "heaviside" and ha.size:
        ha.flat[0] = 0
    r = getattr(np, name)(arr(ha), arr(hb))
    close(r, BINARY[name](ha, hb), rtol=1e-9, atol=1e-9)
    assert r.dtype == onp.float64


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "mod", "maximum", "minimum", "power"])
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8"])
def test_binary_integers(name, dtype):
    ha = onp.array([[7, 2, 9], [4, 5, 6]], dtype=dtype)
    hb = onp.array([2, 3, 1], dtype=dtype)
    r = getattr(np, name)(arr(ha), arr(hb))
    assert r.dtype == onp.dtype(dtype)
    close(r, BINARY[name](ha, hb))


def test_signed_mod_and_floor_divide_follow_numpy():
    ha = onp.array([-7, 7, -7, 7, 0], dtype="int32")
    hb = onp.array([2, -2, -2, 2, 3], dtype="int32")
    close(np.mod(arr(ha), arr(hb)), onp.mod(ha, hb))
    close(arr(ha) // arr(hb), onp.floor_divide(ha, hb))  # no mx.np.floor_divide in MXNet 1.9.1
    close(arr(ha) // 2, ha // 2)
    f = onp.array([-7.5, 7.5], "float32")
    close(arr(f) // arr(onp.array([2, -2], "float32")), f // onp.array([2, -2], "float32"))
    close(7 % arr(hb[:4]), 7 % hb[:4])
    zero = onp.array([0, 2, 0], "int32")
    with onp.errstate(divide="ignore"):
        close(arr(ha[:3]) // arr(zero), ha[:3] // zero)  # NumPy: integer division by zero gives 0
        close(arr(ha[:3]) // 0, ha[:3] // 0)
    with pytest.raises(ValueError, match="power"):
        arr(ha) ** -1
    close(np.around(arr(onp.array([1.5, 2.5])), 400), [onp.nan, onp.nan])  # as NumPy: the scale overflows


def test_scalar_operands_both_sides():
    h = onp.array([[1.0, 2.0], [3.0, 4.0]], "float32")
    x = arr(h)
    for op in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__mod__", "__floordiv__"):
        close(getattr(x, op)(2.0), getattr(h, op)(onp.float32(2.0)), rtol=1e-6)
        rop = op.replace("__", "__r", 1)
        close(getattr(x, rop)(2.0), getattr(h, rop)(onp.float32(2.0)), rtol=1e-6)
    close(-x, -h)
    close(abs(-x), h)
    close(np.add(2, 3), 5)
    assert np.add(2, 3).dtype == onp.int64


def test_comparisons():
    ha = R.randint(0, 3, size=(3, 4)).astype("float32")
    hb = R.randint(0, 3, size=(4,)).astype("float32")
    for name in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal"):
        r = getattr(np, name)(arr(ha), arr(hb))
        assert r.dtype == onp.bool_
        onp.testing.assert_array_equal(r.asnumpy(), getattr(onp, name)(ha, hb), err_msg=name)
    x, y = arr(ha), arr(hb)
    for op in ("__eq__", "__ne__", "__gt__", "__ge__", "__lt__", "__le__"):
        onp.testing.assert_array_equal(getattr(x, op)(y).asnumpy(), getattr(ha, op)(hb), err_msg=op)
        onp.testing.assert_array_equal(getattr(x, op)(1).asnumpy(), getattr(ha, op)(1), err_msg=op)


def test_inplace_operators_keep_the_array():
    x = arr(onp.array([1, 2, 3], "int32"))
    y = x
    x += 2
    x *= 3
    assert x is y and x.dtype == onp.int32
    onp.testing.assert_array_equal(x.asnumpy(), [9, 12, 15])
    f = arr(onp.array([1.0, 2.0], "float32"))
    f /= 4
    f **= 2
    close(f, [0.0625, 0.25])
    with pytest.raises(TypeError, match="same_kind"):
        x += 1.5  # NumPy: a float result cannot go into an int32 array in place
    with pytest.raises(TypeError, match="same_kind"):
        x /= 2
    onp.testing.assert_array_equal(x.asnumpy(), [9, 12, 15])
    out = arr(onp.zeros(3, "float64"))
    assert np.add(arr(onp.array([1, 2, 3], "int32")), 1, out=out) is out
    onp.testing.assert_array_equal(out.asnumpy(), [2, 3, 4])
    with pytest.raises(ValueError, match="__iadd__"):
        g = arr(onp.zeros((3,), "float32"))
        g += arr(onp.zeros((2, 3), "float32"))


def test_where():
    c = onp.array([[True, False, True]])
    ha = onp.arange(6, dtype="float32").reshape(2, 3)
    hb = onp.array([10, 20, 30], dtype="int32")
    r = np.where(arr(c), arr(ha), arr(hb))
    assert r.dtype == onp.float32
    close(r, onp.where(c, ha, hb))
    close(np.where(arr(ha) > 2, arr(ha), -1.0), onp.where(ha > 2, ha, -1.0))
    with pytest.raises(ValueError, match="where"):
        np.where(arr(c), arr(ha), None)
    with pytest.raises(ValueError, match=r"where.*\(2, 3\).*\(4,\)"):
        np.where(arr(ha) > 2, arr(ha), arr(onp.zeros(4, "float32")))


def test_logical_and_bitwise():
    b1 = onp.array([True, False, True, False])
    b2 = onp.array([True, True, False, False])
    onp.testing.assert_array_equal(np.logical_not(arr(b1)).asnumpy(), ~b1)
    i1 = onp.array([12, 5, -3, 0], dtype="int32")
    i2 = onp.array([10, 3, 6, 7], dtype="int32")
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        onp.testing.assert_array_equal(getattr(np, name)(arr(b1), arr(b2)).asnumpy(), getattr(onp, name)(b1, b2))
        r = getattr(np, name)(arr(i1), arr(i2))
        assert r.dtype == onp.int32
        onp.testing.assert_array_equal(r.asnumpy(), getattr(onp, name)(i1, i2))
    onp.testing.assert_array_equal((arr(i1) & 6).asnumpy(), i1 & 6)
    onp.testing.assert_array_equal(np.invert(arr(i1)).asnumpy(), ~i1)
    onp.testing.assert_array_equal((~arr(b1)).asnumpy(), ~b1)
    u = onp.array([0, 1, 200], dtype="uint8")
    onp.testing.assert_array_equal(np.bitwise_not(arr(u)).asnumpy(), ~u)
    with pytest.raises(TypeError, match="bitwise_and"):
        np.bitwise_and(arr(onp.ones(2, "float32")), 1)


def test_bitwise_on_the_engine_broadcasting_and_promoting():
    # MXNet's _npi_bitwise_* kernels (no host round trip): broadcasting, mixed
    # integer dtypes promoted first, scalars on either side, out=, zero-size.
    rng = onp.random.default_rng(7)
    a = rng.integers(-2**40, 2**40, size=(2, 3, 4)).astype("int64")
    b = rng.integers(-100, 100, size=(3, 1)).astype("int32")
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        r = getattr(np, name)(arr(a), arr(b))
        want = getattr(onp, name)(a, b)
        assert r.dtype == want.dtype and r.shape == want.shape
        onp.testing.assert_array_equal(r.asnumpy(), want)
        onp.testing.assert_array_equal(getattr(np, name)(5, arr(b)).asnumpy(), getattr(onp, name)(5, b))
        z = getattr(np, name)(arr(onp.zeros((0, 4), "int32")), arr(onp.ones((1, 4), "int32")))
        assert z.shape == (0, 4)
    u = onp.array([0, 7, 255], dtype="uint8")
    out = np.zeros(3, dtype="uint8")
    np.bitwise_xor(arr(u), arr(onp.array([255, 1, 15], "uint8")), out=out)
    onp.testing.assert_array_equal(out.asnumpy(), u ^ onp.array([255, 1, 15], "uint8"))
    onp.testing.assert_array_equal((~arr(onp.array([-128, 0, 127], "int8"))).asnumpy(),
                                   ~onp.array([-128, 0, 127], "int8"))
    with pytest.raises(ValueError, match="bitwise_or"):
        np.bitwise_or(arr(onp.ones((2, 3), "int32")), arr(onp.ones((4,), "int32")))
    with pytest.raises(TypeError, match="bitwise_not"):
        np.bitwise_not(arr(onp.ones(2, "float64")))
    with pytest.raises(TypeError, match="bitwise_xor"):
        np.bitwise_xor(arr(onp.ones(2, "int32")), 1.5)


def test_bitwise_ops_have_zero_gradients_under_autograd():
    # An integer path inside a float loss (cast -> bit op -> cast) back-propagates
    # zeros through the bit ops, as MXNet's MakeZeroGradNodes; the C++ gradient
    # check cannot take integer-only ops (no finite differences).
    x = np.array(onp.array([1.5, 2.5, 3.5, 7.0], "float32"))
    x.attach_grad()
    with weft.autograd.record():
        i = x.astype("int32")
        j = (i & 6) | np.bitwise_xor(i, i) | (~i ^ 3)
        loss = (j.astype("float32") * x).sum()
    loss.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), j.asnumpy().astype("float32"))


def test_lcm_and_ldexp():
    a = onp.array([4, 6, 0, -12, 21], dtype="int64")
    b = onp.array([6, 4, 5, 18, 6], dtype="int64")
    close(np.lcm(arr(a), arr(b)), onp.lcm(a, b))
    close(np.lcm(arr(a), 10), onp.lcm(a, 10))
    with pytest.raises(TypeError, match="lcm"):
        np.lcm(arr(onp.ones(2, "float32")), 2)
    m = onp.array([0.5, 1.5, -3.0], "float32")
    e = onp.array([1, 3, -2], "int32")
    close(np.ldexp(arr(m), arr(e)), onp.ldexp(m, e))


def test_errors_name_function_and_shapes():
    x = arr(onp.zeros((2, 3), "float32"))
    y = arr(onp.zeros((4,), "float32"))
    for fn in (np.add, np.multiply, np.greater, np.arctan2, np.power):
        with pytest.raises(ValueError, match=r"%s.*\(2, 3\).*\(4,\)" % fn.__name__):
            fn(x, y)
    with pytest.raises(ValueError, match="add"):
        x + y
    with pytest.raises(TypeError, match="add.*list"):
        np.add(x, [1, 2, 3])
    with pytest.raises(TypeError, match="sqrt"):
        np.sqrt("a")
    with pytest.raises(TypeError, match="negative"):
        np.negative(arr(onp.array([True])))
    with pytest.raises(TypeError, match="where"):
        np.exp(x, where=False)
    with pytest.raises(TypeError):
        x + "a"


def _numeric_grad(f, h, eps=1e-6):
    g = onp.zeros_like(h)
    for i in range(h.size):
        d = onp.zeros_like(h)
        d.flat[i] = eps
        g.flat[i] = (float(np.sum(f(arr(h + d))).asnumpy()) - float(np.sum(f(arr(h - d))).asnumpy())) / (2 * eps)
    return g


GRAD_CASES = {
    "unary": (lambda x: np.tanh(np.sqrt(x)) * np.log1p(x) + np.cbrt(x) + np.arcsinh(x), (0.5, 2.0)),
    "trig": (lambda x: np.sin(x) * np.cos(x) + np.arctan(x) + np.degrees(x) + np.arccos(x / 3), (-0.9, 0.9)),
    "arith": (lambda x: (x * x + 3 - x) / (x + 4) - 2 ** x + x ** 3 + np.maximum(x, 0.1), (-0.8, 0.8)),
    "binary": (lambda x: np.hypot(x, 2.0) + np.arctan2(x, 1.5 - x) + np.copysign(x, -1.0)
               + np.float_power(x + 2, 1.5), (-0.8, 0.8)),
    "select": (lambda x: np.where(x > 0, x * x, -x) + np.clip(x, -0.5, 0.5) + np.abs(x), (-0.9, 0.9)),
    "explog": (lambda x: np.exp(x) + np.expm1(x) + np.log2(x + 2) + np.log10(x + 2) + np.log(x + 2)
               + np.reciprocal(x + 2) + np.square(x), (-0.9, 0.9)),
    "hyperbolic": (lambda x: np.sinh(x) + np.cosh(x) + np.tan(x) + np.arctanh(x) + np.arcsin(x)
                   + np.arccosh(x + 2) + np.radians(x) + np.deg2rad(x) + np.rad2deg(x), (-0.9, 0.9)),
    "misc": (lambda x: np.ldexp(x, 3) + np.nan_to_num(x) * 2 + np.negative(x) + np.fabs(x) + np.mod(x + 5, 7.0),
             (-0.9, 0.9)),
}


@pytest.mark.parametrize("case", sorted(GRAD_CASES))
def test_gradients_match_finite_differences(case):
    f, (lo, hi) = GRAD_CASES[case]
    h = R.uniform(lo, hi, size=(2, 3))
    h[onp.abs(h) < 0.05] = 0.3  # away from kinks
    x = arr(h)
    x.attach_grad()
    with weft.autograd.record():
        y = np.sum(f(x))
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), _numeric_grad(f, h), rtol=1e-5, atol=1e-6)


def test_numpy_ufunc_protocol_runs_on_the_engine():
    # Note [Why ndarray speaks the ufunc protocol]
    h = onp.array([1.0, 2.0, 4.0], "float32")
    x = arr(h)
    for r, e in ((onp.float64(2) * x, 2 * h), (x / onp.float32(4), h / 4), (onp.add(x, x), h + h),
                 (onp.sqrt(x), onp.sqrt(h)), (onp.float32(2) > x, 2 > h), (onp.maximum(x, 1.5), onp.maximum(h, 1.5))):
        assert isinstance(r, np.ndarray), type(r)
        onp.testing.assert_allclose(r.asnumpy(), e)
    assert (onp.float64(2) * x).dtype == onp.float32  # weft.np's promotion: a scalar does not upcast
    x.attach_grad()
    with weft.autograd.record():
        y = np.sum(onp.float32(3) * x)
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), [3, 3, 3])
    # Ufuncs weft.np lacks, and non-call methods, run on the host and come back as weft.np arrays.
    r = onp.logaddexp(x, x)
    assert isinstance(r, np.ndarray)
    onp.testing.assert_allclose(r.asnumpy(), onp.logaddexp(h, h), rtol=1e-6)
    r = onp.add.accumulate(x)
    assert isinstance(r, np.ndarray)
    onp.testing.assert_allclose(r.asnumpy(), onp.add.accumulate(h))


def test_arctan2_special_values_and_axis_gradients():
    v = [0.0, 1.0, -1.0, 2.5, -3.0, onp.inf, -onp.inf, onp.nan]
    hy, hx = (g.ravel() for g in onp.meshgrid(v, v))
    close(np.arctan2(arr(hy), arr(hx)), onp.arctan2(hy, hx), rtol=1e-12, atol=1e-12)
    # Exact gradients on the axes, where atan(y/x) would give NaN.
    y = arr(onp.array([1.0, -2.0, 0.5, 3.0]))
    x = arr(onp.array([0.0, 0.0, -2.0, 1.0]))
    y.attach_grad()
    x.attach_grad()
    with weft.autograd.record():
        s = np.sum(np.arctan2(y, x))
    s.backward()
    yy, xx = y.asnumpy(), x.asnumpy()
    onp.testing.assert_allclose(y.grad.asnumpy(), xx / (xx ** 2 + yy ** 2), atol=1e-12)
    onp.testing.assert_allclose(x.grad.asnumpy(), -yy / (xx ** 2 + yy ** 2), atol=1e-12)
