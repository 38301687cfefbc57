"""Cases of MXNet 1.9.1's NumPy functions that no legacy operator computes, under
their registered names (issue 37 point 3; core/op/elemwise/np_binary_math.cc,
np_unary_math.cc): _npi_arctan2, _npi_copysign, _npi_ldexp, _npi_lcm, their
_scalar and reversed _r*_scalar forms, _npi_around and _npi_nan_to_num. The
references compute what MXNet computes (Note [NumPy binary math as MXNet computes
it], Note [Around as MXNet rounds]), which is NumPy's except where those Notes say."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, ins, rand

I8, I32, I64, U8 = np.int8, np.int32, np.int64, np.uint8


def _dtype_scalar(a, s):
    return np.array(int(s)).astype(a.dtype) if np.issubdtype(a.dtype, np.integer) else a.dtype.type(s)


def _trunc_int(x, dtype):
    return np.trunc(np.nan_to_num(x)).astype(dtype)


def _mx(kind, a, b):
    """MXNet's value rule of kind over arrays a, b of one dtype (or float64 when mixed with a double)."""
    dt = np.result_type(a, b)
    is_int = np.issubdtype(dt, np.integer)
    comp = F64 if dt == F64 else F32
    af, bf = np.asarray(a).astype(comp), np.asarray(b).astype(comp)
    if kind == "arctan2":
        v = np.arctan2(af, bf)
    elif kind == "copysign":
        same = ((a >= 0) & (b >= 0)) | ((a < 0) & (b < 0))
        return np.where(same, a, -np.asarray(a)).astype(dt)
    elif kind == "ldexp":
        v = af * np.power(comp(2), bf)
    else:
        return np.lcm(a, b).astype(dt)
    return _trunc_int(v, dt) if is_int else v.astype(dt)


def _binary_ref(kind):
    return lambda a, b: _mx(kind, a, b)


def _scalar_ref(kind, reversed_):
    def ref(a, scalar=1.0, is_int=True):
        if not is_int and np.issubdtype(a.dtype, np.integer):
            x, s = a.astype(F64), np.float64(scalar)
        else:
            x, s = a, _dtype_scalar(a, scalar)
        s = np.full_like(x, s)
        return _mx(kind, s, x) if reversed_ else _mx(kind, x, s)
    return ref


def _float_cases(kind, rtol=1e-6):
    fn = _binary_ref(kind)
    return [
        Case(ins(rand((3, 4)), rand((3, 4))), ref=fn, rtol=rtol, atol=1e-7, name=kind + "-f32"),
        Case(ins(rand((2, 3, 4), F64, -3, 3), rand((3, 1), F64, -3, 3)), ref=fn, rtol=1e-12, atol=1e-14,
             name=kind + "-f64-broadcast"),
        Case(ins(rand((4,), F16, -2, 2), rand((4,), F16, -2, 2)), ref=fn, rtol=2e-3, atol=2e-3, name=kind + "-f16"),
        Case([np.array([1.0, -1.0, 0.0, -0.0, np.nan, np.inf], F32),
              np.array([-0.0, 0.0, -1.0, np.nan, 1.0, -np.inf], F32)], ref=fn, rtol=rtol, atol=1e-7,
             name=kind + "-specials"),
        Case([np.zeros((0, 2), F32), np.zeros((1, 2), F32)], ref=fn, name=kind + "-zero-size"),
    ]


def _int_cases(kind):
    fn = _binary_ref(kind)
    return [
        Case(ins(rand((3, 4), I32, -20, 20), rand((3, 4), I32, -4, 5)), ref=fn, rtol=0, atol=0, name=kind + "-int32"),
        Case(ins(rand((2, 1), I64, -30, 30), rand((5,), I64, -3, 4)), ref=fn, rtol=0, atol=0,
             name=kind + "-int64-outer"),
        Case(ins(rand((6,), U8, 0, 12), rand((6,), U8, 0, 4)), ref=fn, rtol=0, atol=0, name=kind + "-uint8"),
    ]


def _scalar_cases(kind, reversed_, scalar, floats=True, ints=True):
    fn = _scalar_ref(kind, reversed_)
    tag = ("r" if reversed_ else "") + kind + "_scalar"
    cases = []
    if floats:
        cases += [
            Case(ins(rand((3, 4), F32, -2, 2)), attrs={"scalar": scalar}, ref=fn, ref_takes_attrs=True, rtol=1e-6,
                 atol=1e-7, name=tag + "-f32"),
            Case(ins(rand((5,), F64, -2, 2)), attrs={"scalar": -scalar}, ref=fn, ref_takes_attrs=True, rtol=1e-12,
                 atol=1e-14, name=tag + "-f64-negative-scalar"),
        ]
    if ints:
        cases += [
            Case(ins(rand((6,), I32, -9, 9)), attrs={"scalar": scalar}, ref=fn, ref_takes_attrs=True, rtol=0, atol=0,
                 name=tag + "-int32"),
            Case(ins(rand((4,), I64, -9, 9)), attrs={"scalar": scalar + 0.5, "is_int": False}, ref=fn,
                 ref_takes_attrs=True, rtol=1e-12, atol=1e-14, name=tag + "-int64-double-scalar"),
        ]
    cases.append(Case([np.zeros((0,), F32 if floats else I32)], attrs={"scalar": scalar}, ref=fn,
                      ref_takes_attrs=True, name=tag + "-zero-size"))
    return cases


# ---- around: MXNet's around_forward, step by step in the array's dtype ----

def _around_one(x, decimals):
    t = type(x)
    if np.issubdtype(t, np.integer):
        if decimals >= 0:
            return x
        v = int(x)
        for _ in range(-decimals):
            v = int(v / 10)
        return t(v * 10 ** -decimals)
    d, temp = 0, x
    while d != decimals and np.isfinite(temp) and temp != 0:
        if decimals > 0:
            d, temp = d + 1, t(temp * t(10))
        else:
            d, temp = d - 1, t(temp / t(10))
    f = np.float64(temp)
    whole = np.floor(abs(f))
    r = t(np.copysign(whole + 1 if abs(f) - whole >= 0.5 else whole, f))  # C's round: halves away from zero
    if np.isfinite(r) and float(r) % 2 != 0:
        if float(r - temp) == 0.5:
            r = t(r - t(1))
        elif float(temp - r) == 0.5:
            r = t(r + t(1))
    while d != 0 and np.isfinite(r) and r != 0:
        if decimals > 0:
            d, r = d - 1, t(r / t(10))
        else:
            d, r = d + 1, t(r * t(10))
    return r


def _around_ref(x, decimals=0):
    with np.errstate(all="ignore"):  # overflow to inf is part of the rule
        flat = [_around_one(v, decimals) for v in x.reshape(-1)]
    return np.array(flat, dtype=x.dtype).reshape(x.shape)


def _nan_to_num_ref(x, copy=True, nan=0.0, posinf=None, neginf=None):
    if not np.issubdtype(x.dtype, np.floating):
        return x.copy()
    return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf).astype(x.dtype)


_HALVES = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.567, -2.675, 1234.5678, 0.0, -0.0, np.nan, np.inf], F32)

CASES = {
    "_npi_arctan2": _float_cases("arctan2"),
    "_npi_copysign": _float_cases("copysign", rtol=0) + _int_cases("copysign"),
    "_npi_ldexp": [c for c in _float_cases("ldexp") if c.name != "ldexp-specials"] + _int_cases("ldexp"),
    "_npi_lcm": _int_cases("lcm") + [
        Case([np.array([4, 6, 0, -4, -128], I8), np.array([6, 4, 3, 6, 1], I8)], ref=_binary_ref("lcm"), rtol=0,
             atol=0, name="lcm-int8-zero-negative"),
        Case([np.array([2 ** 40, 6], I64), np.array([3, 4], I64)], ref=_binary_ref("lcm"), rtol=0, atol=0,
             name="lcm-int64-large"),
    ],
    "_npi_arctan2_scalar": _scalar_cases("arctan2", False, 2.0),
    "_npi_rarctan2_scalar": _scalar_cases("arctan2", True, 2.0),
    "_npi_copysign_scalar": _scalar_cases("copysign", False, -1.0),
    "_npi_rcopysign_scalar": _scalar_cases("copysign", True, 3.0),
    "_npi_ldexp_scalar": _scalar_cases("ldexp", False, 3.0),
    "_npi_rldexp_scalar": _scalar_cases("ldexp", True, 3.0),
    "_npi_lcm_scalar": _scalar_cases("lcm", False, 6.0, floats=False)[:1] + [
        Case([np.array([4, -6, 0], I64)], attrs={"scalar": 4.0}, ref=_scalar_ref("lcm", False), ref_takes_attrs=True,
             rtol=0, atol=0, name="lcm_scalar-int64")],
    "_npi_around": [
        Case([_HALVES], ref=_around_ref, rtol=0, atol=0, name="around-halves-to-even"),
        Case([_HALVES], attrs={"decimals": 2}, ref=_around_ref, ref_takes_attrs=True, rtol=0, atol=0,
             name="around-2-decimals-f32"),
        Case([_HALVES.astype(F64)], attrs={"decimals": -2}, ref=_around_ref, ref_takes_attrs=True, rtol=0, atol=0,
             name="around-negative-decimals-f64"),
        Case([np.array([15, 25, 14, -15, 7], I32)], attrs={"decimals": -1}, ref=_around_ref, ref_takes_attrs=True,
             rtol=0, atol=0, name="around-int32-negative-decimals"),
        Case([np.array([15, -3], I64)], attrs={"decimals": 2}, ref=_around_ref, ref_takes_attrs=True, rtol=0, atol=0,
             name="around-int64-copied"),
        Case([np.array([1.5, 1e-30, 3e38], F32)], attrs={"decimals": 400}, ref=_around_ref, ref_takes_attrs=True,
             rtol=0, atol=0, name="around-huge-decimals-bounded"),
        Case([np.zeros((0, 3), F32)], ref=_around_ref, rtol=0, atol=0, name="around-zero-size"),
    ],
    "_npi_nan_to_num": [
        Case([np.array([1.5, np.nan, np.inf, -np.inf, -0.0], F32)], ref=_nan_to_num_ref, rtol=0, atol=0,
             name="nan_to_num-defaults-f32"),
        Case([np.array([np.nan, np.inf, -np.inf, 2.0], F64)], attrs={"nan": 1.5, "posinf": 9.0, "neginf": -9.0},
             ref=_nan_to_num_ref, ref_takes_attrs=True, rtol=0, atol=0, name="nan_to_num-values-f64"),
        Case([np.array([np.nan, np.inf, -np.inf, 0.25], F16)], ref=_nan_to_num_ref, rtol=0, atol=0,
             name="nan_to_num-f16-limits"),
        Case([np.array([1, -2, 3], I32)], ref=_nan_to_num_ref, rtol=0, atol=0, name="nan_to_num-int32-copied"),
        Case([np.zeros((2, 0), F32)], ref=_nan_to_num_ref, rtol=0, atol=0, name="nan_to_num-zero-size"),
    ],
}
