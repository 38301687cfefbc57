"""Cases of the NumPy-interface kernels declared under MXNet 1.9.1's `_npi_*`
names for weft.np (issue 37 point 3): _npi_diff, _npi_polyval and their
backward ops, _npi_interp, _npx_nonzero, _npi_bincount and _npi_unique (data-dependent
output shapes), against official NumPy."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, rand

I32, I64, BOOL = np.int32, np.int64, np.bool_


def _ins(*makers):
    return lambda rng: [m(rng) if callable(m) else np.asarray(m) for m in makers]


# ---- _npi_diff --------------------------------------------------------------------

def _diff_ref(n=1, axis=-1):
    return lambda a: np.diff(a, n=n, axis=axis)


def _diff_grad_ref(n=1, axis=-1):
    """The adjoint of the n-th difference: M^T g along axis, M = diff(eye) (m x len)."""
    def ref(g, a):
        length = a.shape[axis]
        m = np.diff(np.eye(length), n=n, axis=0)  # (max(length - n, 0), length)
        gm = np.moveaxis(g.astype(F64), axis, -1)
        return np.moveaxis(gm @ m, -1, axis).astype(a.dtype)
    return ref


# ---- _npi_polyval ------------------------------------------------------------------

def _polyval_ref(p, x):
    return np.polyval(p, x).astype(x.dtype)


def _polyval_grad_ref(g, p, x):
    n = p.shape[0]
    g64, x64 = g.astype(F64), x.astype(F64)
    gp = np.array([(g64 * x64 ** (n - 1 - k)).sum() for k in range(n)])
    gx = g64 * np.polyval(np.polyder(p.astype(F64)), x64) if n > 1 else np.zeros_like(x64)
    return gp.astype(p.dtype), gx.astype(x.dtype)


# ---- _npx_nonzero ------------------------------------------------------------------

def _nonzero_ref(x):
    # a 0-d x counts as the 1-d (1,), as MXNet 1.9.1 gives ([[0]] / shape (0, 1))
    return np.argwhere(np.atleast_1d(x)).astype(I64)


def _sparse(shape, dtype=F32):
    """About half the elements zero (nan and -0.0 among them for floats)."""
    def make(rng):
        x = np.where(rng.random(shape) < 0.5, 0, rng.integers(1, 9, size=shape)).astype(dtype)
        if np.issubdtype(np.dtype(dtype), np.floating) and x.size >= 2:
            x.flat[0], x.flat[-1] = np.nan, -0.0
        return x
    return make


# ---- _npi_bitwise_* ----------------------------------------------------------------

def _ints(shape, dtype, lo=-100, hi=100):
    return lambda rng: rng.integers(lo, hi, size=shape).astype(dtype)


def _bitwise_cases(name, fn):
    return [
        Case(_ins(_ints((3, 4), I32), _ints((3, 4), I32)), ref=fn, rtol=0, atol=0, name=name + "-int32"),
        Case(_ins(_ints((2, 3, 4), I64, -2**62, 2**62), _ints((3, 1), I64, -2**62, 2**62)), ref=fn, rtol=0, atol=0,
             name=name + "-int64-broadcast"),
        Case(_ins(_ints((5,), np.uint8, 0, 256), _ints((1,), np.uint8, 0, 256)), ref=fn, rtol=0, atol=0,
             name=name + "-uint8"),
        Case(_ins(_ints((4, 1), np.int8, -128, 128), _ints((3,), np.int8, -128, 128)), ref=fn, rtol=0, atol=0,
             name=name + "-int8-outer"),
        Case(_ins(rand((2, 5), BOOL), rand((2, 5), BOOL)), ref=fn, rtol=0, atol=0, name=name + "-bool"),
        Case([np.zeros((0, 3), I32), np.zeros((1, 3), I32)], ref=fn, rtol=0, atol=0, name=name + "-zero-size"),
    ]


def _bitwise_scalar_cases(name, fn):
    return [
        Case(_ins(_ints((3, 4), I32)), attrs={"scalar": 6.0}, ref=lambda a, scalar, is_int=True: fn(a, a.dtype.type(
            scalar)), ref_takes_attrs=True, rtol=0, atol=0, name=name + "-int32"),
        Case(_ins(_ints((7,), I64, -2**40, 2**40)), attrs={"scalar": -3.0}, ref=lambda a, scalar: fn(a, np.int64(
            scalar)), ref_takes_attrs=True, rtol=0, atol=0, name=name + "-int64-negative"),
        Case(_ins(rand((6,), BOOL)), attrs={"scalar": 1.0}, ref=lambda a, scalar: fn(a, True), ref_takes_attrs=True,
             rtol=0, atol=0, name=name + "-bool"),
    ]


# ---- _npi_bincount -----------------------------------------------------------------

def _bincount_ref(minlength=0):
    return lambda x: np.bincount(x, minlength=minlength).astype(I64)


def _bincount_weighted_ref(minlength=0):
    return lambda x, w: np.bincount(x, weights=w.astype(F64), minlength=minlength).astype(w.dtype)


# ---- _npi_unique -------------------------------------------------------------------

def _unique_ref(return_index=False, return_inverse=False, return_counts=False, axis=None):
    def ref(x):
        res = np.unique(x, return_index=return_index, return_inverse=return_inverse, return_counts=return_counts,
                        axis=axis)
        if not isinstance(res, tuple):
            return res
        # MXNet's (and NumPy 1.x's) inverse is 1-D; the index outputs are int64
        return tuple(r if i == 0 else r.reshape(-1).astype(I64) for i, r in enumerate(res))
    return ref


def _repeats(shape, dtype=F32, hi=4):
    return lambda rng: rng.integers(0, hi, size=shape).astype(dtype)


# ---- _npi_interp -------------------------------------------------------------------

def _interp_ref(left=None, right=None, period=None):
    def ref(xp, fp, x):
        return np.interp(x.astype(F64), xp.astype(F64), fp.astype(F64), left=left, right=right,
                         period=period).astype(x.dtype)
    return ref


def _increasing(n, dtype=F64):
    return lambda rng: np.sort(rng.uniform(-2, 2, size=n)).astype(dtype)


# ---- _npi_pad ----------------------------------------------------------------------

def _pad_ref(width, mode, value=0.0):
    kw = {"constant_values": value} if mode == "constant" else {}
    return lambda x: np.pad(x, width, mode=mode, **kw)


def _pad_grad_ref(width, mode):
    """The adjoint of np.pad: each input element's gradient sums og where its value landed."""
    def ref(g, x):
        out = np.zeros(x.shape, F64)
        for i in np.ndindex(*x.shape):
            e = np.zeros(x.shape)
            e[i] = 1.0
            out[i] = (np.pad(e, width, mode=mode) * g).sum()
        return out.astype(x.dtype)
    return ref


def _pad_case(shape, width, mode, dtype=F32, value=0.0):
    text = "(" + ", ".join("(%d, %d)" % wa for wa in width) + ")"
    return Case(_ins(rand(shape, dtype, -9, 9)), attrs={"pad_width": text, "mode": mode,
                                                         "constant_values": value},
                ref=_pad_ref(width, mode, value), rtol=0, atol=0, name="pad-%s-%s" % (mode, np.dtype(dtype).name))


def _pad_grad_case(shape, width, mode):
    text = "(" + ", ".join("(%d, %d)" % wa for wa in width) + ")"
    out = tuple(s + b + a for s, (b, a) in zip(shape, width))
    return Case(_ins(rand(out, F64), rand(shape, F64)), attrs={"pad_width": text, "mode": mode},
                ref=_pad_grad_ref(width, mode), rtol=1e-12, atol=1e-12, name="backward_pad-%s" % mode)


CASES = {
    "_npi_diff": [
        Case([np.array([1, 2, 4, 7, 0], F32)], ref=_diff_ref(), rtol=0, atol=0, name="diff-doc"),
        Case([np.array([1, 2, 4, 7, 0], F32)], attrs={"n": 2}, ref=_diff_ref(2), rtol=0, atol=0, name="diff-doc-n2"),
        Case(_ins(rand((3, 5, 4), F32)), attrs={"axis": 1, "n": 3}, ref=_diff_ref(3, 1), name="diff-axis1-n3"),
        Case(_ins(rand((4, 6), F64)), attrs={"axis": -2}, ref=_diff_ref(1, -2), rtol=1e-12, atol=1e-12,
             name="diff-negative-axis-f64"),
        Case(_ins(rand((2, 3), F32)), attrs={"n": 0}, ref=_diff_ref(0), rtol=0, atol=0, name="diff-n0-copy"),
        Case(_ins(rand((2, 3), F32)), attrs={"n": 5}, ref=_diff_ref(5), name="diff-n-past-length-empty"),
        Case(_ins(rand((0, 4), F32)), attrs={"axis": 1}, ref=_diff_ref(1, 1), name="diff-zero-size"),
        Case(_ins(rand((3, 7), I32, -100, 100)), attrs={"n": 4}, ref=_diff_ref(4), rtol=0, atol=0, name="diff-int32"),
        Case([np.array([-128, 127, -128, 5], np.int8)], ref=_diff_ref(), rtol=0, atol=0, name="diff-int8-wraps"),
        Case(_ins(rand((2, 6), BOOL)), attrs={"n": 2}, ref=_diff_ref(2), rtol=0, atol=0, name="diff-bool-xor"),
        Case(_ins(rand((3, 5), F16)), attrs={"n": 2}, ref=_diff_ref(2), rtol=0, atol=0, name="diff-f16-each-step"),
    ],
    "_backward_npi_diff": [
        Case(_ins(rand((3, 2, 4), F64), rand((3, 5, 4), F64)), attrs={"axis": 1, "n": 3}, ref=_diff_grad_ref(3, 1),
             rtol=1e-12, atol=1e-12, name="backward_diff-axis1-n3"),
        Case(_ins(rand((4, 5), F32), rand((4, 6), F32)), ref=_diff_grad_ref(), name="backward_diff-last"),
        Case(_ins(rand((2, 0), F32), rand((2, 3), F32)), attrs={"n": 4}, ref=_diff_grad_ref(4),
             name="backward_diff-empty-output-gives-zeros"),
    ],
    "_npi_polyval": [
        Case([np.array([3, 0, 1], F32), np.array([5, 1], F32)], ref=_polyval_ref, rtol=0, atol=0, name="polyval-doc"),
        Case(_ins(rand((4,), F64), rand((3, 5), F64, -2, 2)), ref=_polyval_ref, rtol=1e-12, atol=1e-12,
             name="polyval-f64-2d"),
        Case(_ins(rand((5,), F32), rand((2, 3, 2), F32, -1.5, 1.5)), ref=_polyval_ref, name="polyval-f32-3d"),
        Case(_ins(rand((3,), I32, -5, 5), rand((6,), I32, -9, 9)), ref=_polyval_ref, rtol=0, atol=0,
             name="polyval-int32"),
        Case([np.array([2.0, -1.0], F32), np.array(1.5, F32)], ref=_polyval_ref, rtol=0, atol=0, name="polyval-0d-x"),
        Case(_ins(rand((0,), F32), rand((3,), F32)), ref=_polyval_ref, rtol=0, atol=0, name="polyval-empty-p-zeros"),
        Case(_ins(rand((3,), F32), rand((0, 2), F32)), ref=_polyval_ref, name="polyval-zero-size-x"),
    ],
    "_backward_npi_polyval": [
        Case(_ins(rand((3, 4), F64), rand((4,), F64), rand((3, 4), F64, -2, 2)), ref=_polyval_grad_ref, rtol=1e-10,
             atol=1e-12, name="backward_polyval-f64"),
        Case(_ins(rand((5,), F32), rand((1,), F32), rand((5,), F32)), ref=_polyval_grad_ref, rtol=1e-5, atol=1e-6,
             name="backward_polyval-constant"),
    ],
    "_npx_nonzero": [
        Case([np.array([[1, 0], [0, 2]], F32)], ref=_nonzero_ref, rtol=0, atol=0, name="nonzero-doc"),
        Case(_ins(_sparse((3, 4, 5))), ref=_nonzero_ref, rtol=0, atol=0, name="nonzero-3d-nan-negzero"),
        Case(_ins(_sparse((7,), I32)), ref=_nonzero_ref, rtol=0, atol=0, name="nonzero-1d-int32"),
        Case(_ins(rand((2, 6), BOOL)), ref=_nonzero_ref, rtol=0, atol=0, name="nonzero-bool"),
        Case([np.zeros((3, 2), F64)], ref=_nonzero_ref, rtol=0, atol=0, name="nonzero-none"),
        Case([np.zeros((0, 3), F32)], ref=_nonzero_ref, rtol=0, atol=0, name="nonzero-zero-size"),
        Case([np.array(3.0, F32)], ref=_nonzero_ref, rtol=0, atol=0, name="nonzero-0d-set"),
        Case([np.array(0, I32)], ref=_nonzero_ref, rtol=0, atol=0, name="nonzero-0d-zero"),
    ],
    "_npi_bitwise_and": _bitwise_cases("bitwise_and", np.bitwise_and),
    "_npi_bitwise_or": _bitwise_cases("bitwise_or", np.bitwise_or),
    "_npi_bitwise_xor": _bitwise_cases("bitwise_xor", np.bitwise_xor),
    "_npi_bitwise_and_scalar": _bitwise_scalar_cases("bitwise_and_scalar", np.bitwise_and),
    "_npi_bitwise_or_scalar": _bitwise_scalar_cases("bitwise_or_scalar", np.bitwise_or),
    "_npi_bitwise_xor_scalar": _bitwise_scalar_cases("bitwise_xor_scalar", np.bitwise_xor),
    "_npi_bitwise_not": [
        Case([np.array([0, 13, -14], I32)], ref=np.invert, rtol=0, atol=0, name="bitwise_not-doc"),
        Case(_ins(_ints((3, 4), I64, -2**62, 2**62)), ref=np.invert, rtol=0, atol=0, name="bitwise_not-int64"),
        Case(_ins(_ints((9,), np.uint8, 0, 256)), ref=np.invert, rtol=0, atol=0, name="bitwise_not-uint8"),
        Case(_ins(_ints((9,), np.int8, -128, 128)), ref=np.invert, rtol=0, atol=0, name="bitwise_not-int8"),
        Case(_ins(rand((2, 3), BOOL)), ref=np.invert, rtol=0, atol=0, name="bitwise_not-bool"),
        Case([np.zeros((0,), I32)], ref=np.invert, rtol=0, atol=0, name="bitwise_not-zero-size"),
    ],
    "_npi_bincount": [
        Case([np.array([0, 1, 1, 3, 2, 1, 7], I64)], ref=_bincount_ref(), rtol=0, atol=0, name="bincount-doc"),
        Case(_ins(rand((40,), I32, 0, 9)), ref=_bincount_ref(), rtol=0, atol=0, name="bincount-int32"),
        Case(_ins(rand((10,), np.uint8, 0, 4)), attrs={"minlength": 9}, ref=_bincount_ref(9), rtol=0, atol=0,
             name="bincount-minlength-longer"),
        Case([np.zeros((0,), I64)], attrs={"minlength": 3}, ref=_bincount_ref(3), rtol=0, atol=0,
             name="bincount-empty-minlength"),
        Case([np.zeros((0,), I64)], ref=_bincount_ref(), rtol=0, atol=0, name="bincount-empty"),
        Case(_ins(rand((30,), I64, 0, 6), rand((30,), F64)), attrs={"has_weights": True},
             ref=_bincount_weighted_ref(), rtol=1e-12, atol=1e-12, name="bincount-weights-f64"),
        Case(_ins(rand((25,), I32, 0, 5), rand((25,), F32)), attrs={"has_weights": True, "minlength": 8},
             ref=_bincount_weighted_ref(8), name="bincount-weights-f32-minlength"),
    ],
    "_npi_unique": [
        Case([np.array([1, 1, 2, 2, 3, 3], F32)], ref=_unique_ref(), rtol=0, atol=0, name="unique-doc"),
        Case(_ins(_repeats((4, 5))), attrs={"return_index": True, "return_inverse": True, "return_counts": True},
             ref=_unique_ref(True, True, True), rtol=0, atol=0, name="unique-all-outputs"),
        Case(_ins(_repeats((6, 3), I32, 2)), attrs={"axis": 0, "return_counts": True},
             ref=_unique_ref(return_counts=True, axis=0), rtol=0, atol=0, name="unique-rows-int32"),
        Case(_ins(_repeats((2, 7), I64, 2)), attrs={"axis": -1, "return_inverse": True},
             ref=_unique_ref(return_inverse=True, axis=-1), rtol=0, atol=0, name="unique-columns-negative-axis"),
        Case([np.array([np.nan, 1.0, np.nan, -0.0, 0.0], F64)], attrs={"return_counts": True},
             ref=_unique_ref(return_counts=True), rtol=0, atol=0, name="unique-nan-collapses"),
        Case([np.zeros((0,), F32)], attrs={"return_index": True}, ref=_unique_ref(True), rtol=0, atol=0,
             name="unique-empty"),
    ],
    "_npi_interp": [
        Case([np.array([1, 2, 3], F64), np.array([3, 2, 0], F64), np.array([2.5], F64)], ref=_interp_ref(),
             rtol=0, atol=0, name="interp-doc"),
        Case(_ins(_increasing(6), rand((6,), F64), rand((3, 4), F64, -3, 3)), ref=_interp_ref(), rtol=1e-15,
             atol=1e-15, name="interp-f64-outside-range"),
        Case(_ins(_increasing(5, F32), rand((5,), F32), rand((7,), F32, -3, 3)), attrs={"left": -9.0, "right": 9.0},
             ref=_interp_ref(-9.0, 9.0), name="interp-f32-left-right"),
        Case(_ins(rand((6,), F64, 0, 10), rand((6,), F64), rand((8,), F64, -20, 20)), attrs={"period": 10.0},
             ref=_interp_ref(period=10.0), rtol=1e-12, atol=1e-12, name="interp-period"),
        Case([np.array([1.0], F64), np.array([5.0], F64), np.array([0.0, 1.0, 2.0], F64)], ref=_interp_ref(),
             rtol=0, atol=0, name="interp-one-point"),
        Case(_ins(_increasing(4), rand((4,), F64), rand((0,), F64)), ref=_interp_ref(), name="interp-zero-size-x"),
        Case([np.array([1, 2, 3], F64), np.array([3, 2, 0], F64)], attrs={"x_scalar": 2.5, "x_is_scalar": True},
             ref=lambda xp, fp: np.asarray(np.interp(2.5, xp, fp)), rtol=0, atol=0, name="interp-x-is-scalar"),
    ],
    "_npi_pad": [
        _pad_case((3, 4), ((1, 2), (2, 0)), "constant", value=2.5),
        _pad_case((3, 4), ((2, 3), (5, 1)), "edge", F64),
        _pad_case((3, 4), ((4, 5), (6, 1)), "reflect"),
        _pad_case((2, 3, 2), ((1, 1), (4, 2), (0, 3)), "symmetric", I32),
        _pad_case((3, 4), ((1, 2), (2, 1)), "maximum"),
        _pad_case((4,), ((3, 2),), "minimum", I64),
    ],
    "_backward_npi_pad": [
        _pad_grad_case((3, 4), ((1, 2), (2, 0)), "constant"),
        _pad_grad_case((3, 2), ((2, 1), (3, 4)), "reflect"),
        _pad_grad_case((2, 3), ((1, 3), (2, 2)), "symmetric"),
        _pad_grad_case((2, 3), ((2, 0), (1, 1)), "edge"),
    ],
}
