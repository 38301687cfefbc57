"""GPU kernels of the elementwise family (core/op/elemwise/*.cu,
fused_elemwise.cu, init_misc.cu) against the CPU kernels, beyond the harness
cases: integer edge cases of every binary kind and dtype, deep broadcasts,
Cast between every pair of GPU dtypes (float16 and bfloat16 too) with
NaN/inf/out-of-range values, the 16-bit conversions bit for bit,
add_n with more inputs than one launch takes, where with a 1-D condition of
each dtype, fused programs longer than the register path takes, the
'valid' normalisation of MakeLoss, and kAddTo through grad_req='add'."""
import numpy as np
import pytest

import weft
import weft.nd as nd
import weft.sym as sym

GPU, CPU = weft.gpu(0), weft.cpu(0)
INT_DTYPES = [np.uint8, np.int8, np.int32, np.int64]
ALL_DTYPES = [np.float32, np.float64, np.bool_] + INT_DTYPES


def both(op, xs, **attrs):
    """op on gpu(0) and on cpu(0), as NumPy arrays."""
    f = getattr(nd, op)
    got = f(*[nd.array(x, dtype=x.dtype, ctx=GPU) for x in xs], **attrs)
    want = f(*[nd.array(x, dtype=x.dtype, ctx=CPU) for x in xs], **attrs)
    return got.asnumpy(), want.asnumpy()


def check(op, xs, exact=False, **attrs):
    got, want = both(op, xs, **attrs)
    assert got.dtype == want.dtype and got.shape == want.shape, op
    if exact or not np.issubdtype(want.dtype, np.floating):
        np.testing.assert_array_equal(got, want, err_msg=op)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=op)


def edge_ints(dtype, n=64, seed=0):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    base = [0, 1, -1, 2, -2, 3, 7, info.min, info.max, info.min + 1, info.max - 1]
    vals = np.array([v for v in base if info.min <= v <= info.max], dtype=np.int64)
    x = rng.integers(info.min, int(info.max) + 1, size=n, dtype=np.int64)
    x[: len(vals)] = vals
    return x.astype(dtype)


BINARY = ["elemwise_add", "elemwise_sub", "elemwise_mul", "elemwise_div", "_mod", "_power", "_maximum",
          "_minimum", "_equal", "_not_equal", "_greater", "_greater_equal", "_lesser", "_lesser_equal"]


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("op", BINARY)
def test_binary_integer_edges(op, dtype):
    a = edge_ints(dtype, seed=1)
    b = edge_ints(dtype, seed=2)[::-1].copy()
    b[:8] = [0, 0, 1, 1, 2, 3, 1, 2] if dtype == np.uint8 else [0, -1, 1, -1, 2, -3, -1, 2]
    if op == "_power":  # small exponents, so results stay near the integer range
        b = (np.abs(b.astype(np.int64)) % 5).astype(dtype)
    check(op, [a, b])


@pytest.mark.parametrize("op", BINARY)
def test_binary_bool_and_float_specials(op):
    a = np.array([0, 1, 0, 1], np.bool_)
    b = np.array([0, 0, 1, 1], np.bool_)
    check(op, [a, b])
    f = np.array([np.nan, 1.0, -np.inf, np.inf, -0.0, 5.5, -5.5, 3.0], np.float64)
    g = np.array([1.0, np.nan, 2.0, -np.inf, 0.0, 2.0, 2.0, -0.0], np.float64)
    check(op, [f, g])


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int8, np.bool_])
def test_broadcast_deep_patterns(dtype):
    rng = np.random.default_rng(3)
    shapes = [((2, 1, 3, 1, 4), (1, 5, 3, 2, 1)), ((4, 1, 1, 2, 1, 3, 1), (1, 3, 2, 2, 1, 1, 2)),
              ((1,), (3, 4)), ((3, 1), (1,)), ((2, 3, 4), (2, 3, 4))]
    for ls, rs in shapes:
        a = rng.integers(-4, 5, size=ls).astype(dtype)
        b = rng.integers(-4, 5, size=rs).astype(dtype)
        for op in ("broadcast_add", "broadcast_sub", "broadcast_div", "broadcast_mod", "broadcast_greater",
                   "broadcast_maximum", "broadcast_power"):
            check(op, [a, b])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_scalar_ops_convert_the_scalar_first(dtype):
    x = (edge_ints(np.int8, 32, seed=4).astype(np.float64) / 3).astype(dtype) if dtype != np.bool_ else \
        np.array([0, 1, 1, 0], np.bool_)
    for op in ("_plus_scalar", "_rminus_scalar", "_mul_scalar", "_div_scalar", "_rdiv_scalar", "_mod_scalar",
               "_rmod_scalar", "_power_scalar", "_rpower_scalar", "_maximum_scalar", "_equal_scalar",
               "_lesser_scalar"):
        for s in (0.0, -1.0, 2.5, 3.0):
            check(op, [x], scalar=s)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_unary_every_dtype(dtype):
    x = np.array([0, 1, 2, 3, 4, 9, 16, 25, 7, 100], np.float64)
    if dtype != np.uint8 and dtype != np.bool_:
        x = np.concatenate([x, -x[1:5]])
    x = x.astype(dtype)
    for op in ("abs", "negative", "square", "sign", "relu", "floor", "ceil", "round", "reciprocal", "sqrt",
               "exp", "log1p", "sigmoid", "tanh"):
        if dtype in INT_DTYPES and op in ("sqrt", "log1p") and dtype != np.uint8:
            continue  # negative integers give NaN, then 0 on both; kept to the non-negative case below
        check(op, [x])
    check("sqrt", [np.abs(x)])


BF16 = np.dtype(weft.dtypes.bfloat16)
CAST_DTYPES = ALL_DTYPES + [np.float16, BF16]


def _bits16(x):
    return np.ascontiguousarray(x).view(np.uint16)


def test_cast_every_pair():
    src = np.array([np.nan, np.inf, -np.inf, 1e20, -1e20, 300.7, -1.5, -0.0, 0.5, 127.9, -129.2, 2.0 ** 40],
                   np.float64)
    for s in CAST_DTYPES:
        if s == BF16:  # no NumPy cast to the structured bfloat16: the CPU's Cast makes it
            x = nd.Cast(nd.array(src.astype(np.float32), ctx=CPU), dtype="bfloat16").asnumpy()
        else:
            with np.errstate(invalid="ignore", over="ignore"):
                x = src.astype(s) if np.issubdtype(np.dtype(s), np.floating) else edge_ints(np.int64, 12).astype(s)
        for d in CAST_DTYPES:
            got, want = both("Cast", [x], dtype="bfloat16" if d == BF16 else np.dtype(d).name)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                          np.ascontiguousarray(want).view(np.uint8), err_msg="%s -> %s" % (s, d))


def _near_16bit_boundaries(to_f32):
    """float32 values at, between and next to every 16-bit value (to_f32 maps
    the 65536 bit patterns to float32): ties, one ulp either side, subnormals,
    overflow, NaN and infinities."""
    v = to_f32(np.arange(65536, dtype=np.uint32).astype(np.uint16))
    v = np.unique(v[np.isfinite(v)])
    mid = ((v[:-1].astype(np.float64) + v[1:]) / 2).astype(np.float32)
    u = mid.view(np.uint32)
    extra = np.array([1e-8, -1e-8, 6e-8, 3e-8, 65504.0, 65519.0, 65520.0, 1e6, 3.4e38, np.inf, -np.inf, np.nan],
                     np.float32)
    return np.concatenate([v, mid, (u + 1).view(np.float32), (u - 1).view(np.float32), extra])


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_16bit_conversions_match_the_cpu_bit_for_bit(half):
    """Cast to and from float16/bfloat16 on GPU (the device-callable
    conversions of core/op/common/half_hd.h) gives the CPU's bits (half_t /
    bf16_t, core/base/dtype.cc) for every 16-bit pattern and for float32
    values at every rounding boundary; float16 also equals NumPy's."""
    patterns = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    if half == "float16":
        src16 = patterns.view(np.float16)
        to_f32 = lambda b: b.view(np.float16).astype(np.float32)  # noqa: E731
    else:
        src16 = patterns.view(BF16)
        to_f32 = lambda b: (b.astype(np.uint32) << 16).view(np.float32)  # noqa: E731
    # every pattern to float32: the same bits (NaN payloads included)
    got, want = both("Cast", [src16], dtype="float32")
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[finite], to_f32(patterns)[finite])
    # float32 to the 16-bit type: round to nearest even, subnormals, overflow, NaN
    f = _near_16bit_boundaries(to_f32)
    got, want = both("Cast", [f], dtype=half)
    np.testing.assert_array_equal(_bits16(got), _bits16(want))
    if half == "float16":
        ok = ~np.isnan(f)
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(_bits16(got)[ok], _bits16(f.astype(np.float16))[ok])
    # through an op's arithmetic: x * 1 computed in float and stored in 16 bits is x
    got, want = both("_mul_scalar", [src16], scalar=1.0)
    np.testing.assert_array_equal(_bits16(got), _bits16(want))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8])
def test_add_n_many_inputs(dtype):
    rng = np.random.default_rng(5)
    xs = [rng.integers(-100, 100, size=(7, 5)).astype(dtype) for _ in range(37)]
    check("add_n", xs, num_args=len(xs))
    check("add_n", xs[:3], num_args=3)


@pytest.mark.parametrize("cond_dtype", ALL_DTYPES)
def test_where_conditions(cond_dtype):
    rng = np.random.default_rng(6)
    x = rng.normal(size=(4, 3, 2)).astype(np.float32)
    y = rng.normal(size=(4, 3, 2)).astype(np.float32)
    c1 = np.array([0, 1, 2, 0]).astype(cond_dtype)
    check("where", [c1, x, y])
    cf = rng.integers(0, 2, size=(4, 3, 2)).astype(cond_dtype)
    check("where", [cf, x, y])
    check("where", [cf, x.astype(np.int64), y.astype(np.int64)])


def test_clip_integer_bounds_and_nan():
    check("clip", [np.array([np.nan, -3, 0.5, 9], np.float32)], a_min=-1.0, a_max=2.0)
    check("clip", [edge_ints(np.int8, 16)], a_min=-2.7, a_max=5.9)
    check("clip", [edge_ints(np.uint8, 16)], a_min=-2.0, a_max=300.0)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_arange_eye_dtypes(dtype):
    name = np.dtype(dtype).name
    got = nd._arange(start=-3.5, stop=40.0, step=1.25, repeat=2, dtype=name, ctx=GPU).asnumpy()
    want = nd._arange(start=-3.5, stop=40.0, step=1.25, repeat=2, dtype=name, ctx=CPU).asnumpy()
    np.testing.assert_array_equal(got, want)
    for k in (-2, 0, 3):
        got = nd._eye(N=4, M=6, k=k, dtype=name, ctx=GPU).asnumpy()
        want = nd._eye(N=4, M=6, k=k, dtype=name, ctx=CPU).asnumpy()
        np.testing.assert_array_equal(got, want)


def _long_program(n_inputs, n_instr):
    """A chain touching every instruction kind; values stay bounded."""
    code, last = [], 0
    kinds = ["u:tanh:{a}", "b:add:{a}:{b}", "s:mul:{a}:0.5:0", "a:sigmoid:{a}", "g:tanh:{a}:{b}",
             "b:max:{a}:{b}", "s:sub:{a}:1.5:1", "u:sin:{a}", "a:softsign:{a}", "g:mish:{a}:{b}:{c}", "c:{a}"]
    for k in range(n_instr):
        v = n_inputs + k
        a = last if k else 0
        b = (k * 7) % v
        c = (k * 3) % v
        code.append(kinds[k % len(kinds)].format(a=a, b=b, c=c))
        last = v
    return ";".join(code)


@pytest.mark.parametrize("n_inputs,n_instr", [(2, 5), (3, 32), (4, 80), (20, 12)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_programs(n_inputs, n_instr, dtype):
    rng = np.random.default_rng(n_instr)
    xs = [rng.uniform(-2, 2, size=(5, 7)).astype(dtype) for _ in range(n_inputs)]
    check("_fused_elemwise", xs, num_args=n_inputs, program=_long_program(n_inputs, n_instr))


def test_make_loss_valid_normalization():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(9000,)).astype(np.float32)  # more than one counting chunk
    for norm in ("null", "batch", "valid"):
        check("_backward_MakeLoss", [x], grad_scale=2.0, valid_thresh=0.3, normalization=norm)


def _grads(out, ctx, args, grad_req):
    arrays = {k: nd.array(v, dtype=v.dtype, ctx=ctx) for k, v in args.items()}
    grads = {k: nd.array(np.full(v.shape, 0.25, v.dtype), dtype=v.dtype, ctx=ctx) for k, v in args.items()}
    exe = out.bind(ctx, arrays, args_grad=grads, grad_req=grad_req)
    exe.forward(is_train=True)
    exe.backward()
    exe.forward(is_train=True)
    exe.backward()
    return {k: g.asnumpy() for k, g in grads.items()}


def test_grad_req_add_matches_cpu():
    """kAddTo through the backward ops: _mul_scalar, _backward_smooth_l1, where,
    _backward_Cast, _backward_MakeLoss, elemwise_mul, _rminus_scalar."""
    rng = np.random.default_rng(9)
    a, b, c = sym.Variable("a"), sym.Variable("b"), sym.Variable("c")
    args = {"a": rng.normal(size=(3, 4)).astype(np.float32), "b": rng.normal(size=(3, 4)).astype(np.float32),
            "c": (rng.normal(size=(3, 4)) > 0).astype(np.float32)}
    nets = [a * 3.0 + sym.smooth_l1(b, scalar=2.0), sym.where(c, a, b), sym.Cast(a, dtype="float64") * 2.0,
            sym.MakeLoss(a, normalization="valid", valid_thresh=0.1), sym.tanh(a) * b, sym.clip(a, -0.5, 0.5) + b]
    for net in nets:
        names = net.list_arguments()
        sub = {k: args[k] for k in names}
        req = {k: ("add" if k != "c" else "null") for k in names}
        got = _grads(net, GPU, sub, req)
        want = _grads(net, CPU, sub, req)
        for k in names:
            if req[k] == "add":
                np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6, err_msg="%s grad %s" % (net, k))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64"])
def test_integer_power_is_exact_on_gpu(dtype):
    """Integer ** must not truncate a pow() result one below the exact value
    (CUDA's double pow is accurate to 2 ulp, glibc's exact for exact results)."""
    a = np.arange(0, 12, dtype=dtype).repeat(6)
    b = np.tile(np.arange(0, 6, dtype=dtype), 12)
    want = (a.astype(np.int64) ** b.astype(np.int64)).astype(dtype)
    got = (weft.nd.array(a, dtype=dtype, ctx=weft.gpu(0)) ** weft.nd.array(b, dtype=dtype, ctx=weft.gpu(0)))
    np.testing.assert_array_equal(got.asnumpy(), want)
