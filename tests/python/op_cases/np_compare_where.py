"""Cases of MXNet 1.9.1's NumPy comparisons, predicates and where under their
registered names (issue 37 point 3; core/op/elemwise/np_compare.cc, np_where.cc):
_npi_equal ... _npi_less_equal and their _scalar forms, _npi_logical_not,
_npi_isnan/isinf/isfinite/isposinf/isneginf (bool outputs), _npi_where,
_npi_where_lscalar/_rscalar/_scalar2 (three operands broadcast) and
_npi_boolean_mask_assign_scalar (a where with the mask laid from start_axis), and
_npx_constraint_check (core/op/reduce/np_constraint_check.cc), against NumPy."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, ins, rand

I32, I64, BOOL = np.int32, np.int64, np.bool_


def _steps(shape, dtype=F32):
    """Small integers as dtype, so equal pairs (ties) occur."""
    return lambda rng: rng.integers(-2, 3, size=shape).astype(dtype)


def _specials(dtype=F32):
    return np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.0, 3e38 if dtype == F32 else 6e4], dtype)


def _compare_cases(name, fn):
    return [
        Case(ins(_steps((3, 4)), _steps((3, 4))), ref=fn, rtol=0, atol=0, name=name + "-f32-ties"),
        Case(ins(_steps((2, 3, 4), F64), _steps((3, 1), F64)), ref=fn, rtol=0, atol=0, name=name + "-f64-broadcast"),
        Case(ins(_steps((4, 1), I32), _steps((5,), I32)), ref=fn, rtol=0, atol=0, name=name + "-int32-outer"),
        Case(ins(_steps((6,), I64), _steps((1,), I64)), ref=fn, rtol=0, atol=0, name=name + "-int64"),
        Case(ins(_steps((3, 2), F16), _steps((3, 2), F16)), ref=fn, rtol=0, atol=0, name=name + "-f16"),
        Case(ins(rand((2, 5), BOOL), rand((2, 5), BOOL)), ref=fn, rtol=0, atol=0, name=name + "-bool"),
        Case([_specials(), _specials()[::-1].copy()], ref=fn, rtol=0, atol=0, name=name + "-nan-inf"),
        Case([np.zeros((0, 3), F32), np.zeros((1, 3), F32)], ref=fn, rtol=0, atol=0, name=name + "-zero-size"),
        Case([np.array(1.0, F32), np.array([0.0, 1.0, 2.0], F32)], ref=fn, rtol=0, atol=0, name=name + "-0d"),
    ]


def _dtype_scalar(a, scalar):
    """MXNet's DType(scalar) (Note [NumPy comparisons give bool]): truncated and wrapped for integers."""
    if a.dtype == BOOL:
        return np.bool_(scalar != 0)
    if np.issubdtype(a.dtype, np.integer):
        return np.array(int(scalar)).astype(a.dtype)
    return a.dtype.type(scalar)


def _compare_scalar_cases(name, fn):
    def ref(a, scalar, is_int=True):
        if not is_int and not np.issubdtype(a.dtype, np.floating):
            return fn(a.astype(F64), np.float64(scalar))
        return fn(a, _dtype_scalar(a, scalar))
    return [
        Case(ins(_steps((3, 4))), attrs={"scalar": 1.0}, ref=ref, ref_takes_attrs=True, rtol=0, atol=0,
             name=name + "-f32"),
        Case([np.array([0.1, 0.2, 1.5], F32)], attrs={"scalar": 0.1}, ref=ref, ref_takes_attrs=True, rtol=0, atol=0,
             name=name + "-f32-scalar-rounded-to-float"),
        Case([np.array([1, 2, 3], I32)], attrs={"scalar": 2.5}, ref=ref, ref_takes_attrs=True, rtol=0, atol=0,
             name=name + "-int32-truncated-scalar"),
        Case([np.array([1, 2, 3], I32)], attrs={"scalar": 2.5, "is_int": False}, ref=ref, ref_takes_attrs=True,
             rtol=0, atol=0, name=name + "-int32-double-scalar"),
        Case([np.array([2, 3, -126], np.int8)], attrs={"scalar": 258.0}, ref=ref, ref_takes_attrs=True, rtol=0,
             atol=0, name=name + "-int8-wrapped-scalar"),
        Case(ins(rand((5,), BOOL)), attrs={"scalar": 1.0}, ref=ref, ref_takes_attrs=True, rtol=0, atol=0,
             name=name + "-bool"),
        Case([_specials(F64)], attrs={"scalar": 1.5}, ref=ref, ref_takes_attrs=True, rtol=0, atol=0,
             name=name + "-nan-inf"),
        Case([np.zeros((2, 0), F16)], attrs={"scalar": 0.0}, ref=ref, ref_takes_attrs=True, rtol=0, atol=0,
             name=name + "-zero-size"),
    ]


def _predicate_cases(name, fn):
    return [
        Case([_specials()], ref=fn, rtol=0, atol=0, name=name + "-f32-specials"),
        Case([_specials(F64).reshape(2, 4)], ref=fn, rtol=0, atol=0, name=name + "-f64-specials"),
        Case([_specials(F16)], ref=fn, rtol=0, atol=0, name=name + "-f16-specials"),
        Case(ins(_steps((3, 2), I32)), ref=fn, rtol=0, atol=0, name=name + "-int32"),
        Case([np.array([0, 255, 7], np.uint8)], ref=fn, rtol=0, atol=0, name=name + "-uint8"),
        Case(ins(rand((4,), BOOL)), ref=fn, rtol=0, atol=0, name=name + "-bool"),
        Case([np.array(np.nan, F32)], ref=fn, rtol=0, atol=0, name=name + "-0d"),
        Case([np.zeros((0, 2), F32)], ref=fn, rtol=0, atol=0, name=name + "-zero-size"),
    ]


# ---- where ------------------------------------------------------------------------

def _cond(shape, dtype=BOOL):
    """A condition with zeros among nonzeros (and -0.0 / NaN for floats)."""
    def make(rng):
        c = np.where(rng.random(shape) < 0.5, 0, rng.integers(1, 4, size=shape)).astype(dtype)
        if np.issubdtype(np.dtype(dtype), np.floating) and c.size >= 2:
            c.flat[0], c.flat[-1] = -0.0, np.nan
        return c
    return make


def _where_ref(c, x, y):
    return np.where(c != 0, x, y)


def _where_lscalar_ref(c, x, scalar=0.0):
    return np.where(c != 0, _dtype_scalar(x, scalar), x).astype(x.dtype)


def _where_rscalar_ref(c, y, scalar=0.0):
    return np.where(c != 0, y, _dtype_scalar(y, scalar)).astype(y.dtype)


def _mask_assign_ref(data, mask, value=0.0, start_axis=0):
    out = data.copy()
    out[(slice(None),) * start_axis + (mask != 0,)] = _dtype_scalar(data, value)
    return out


def _where_scalar2_ref(c, x=0.0, y=0.0):
    return np.where(c != 0, F32(x), F32(y)).astype(F32)


CASES = {
    "_npi_equal": _compare_cases("equal", np.equal),
    "_npi_not_equal": _compare_cases("not_equal", np.not_equal),
    "_npi_greater": _compare_cases("greater", np.greater),
    "_npi_greater_equal": _compare_cases("greater_equal", np.greater_equal),
    "_npi_less": _compare_cases("less", np.less),
    "_npi_less_equal": _compare_cases("less_equal", np.less_equal),
    "_npi_equal_scalar": _compare_scalar_cases("equal_scalar", np.equal),
    "_npi_not_equal_scalar": _compare_scalar_cases("not_equal_scalar", np.not_equal),
    "_npi_greater_scalar": _compare_scalar_cases("greater_scalar", np.greater),
    "_npi_greater_equal_scalar": _compare_scalar_cases("greater_equal_scalar", np.greater_equal),
    "_npi_less_scalar": _compare_scalar_cases("less_scalar", np.less),
    "_npi_less_equal_scalar": _compare_scalar_cases("less_equal_scalar", np.less_equal),
    "_npi_isnan": _predicate_cases("isnan", np.isnan),
    "_npi_isinf": _predicate_cases("isinf", np.isinf),
    "_npi_isfinite": _predicate_cases("isfinite", np.isfinite),
    "_npi_isposinf": _predicate_cases("isposinf", lambda x: np.isposinf(x) if x.dtype != BOOL else np.zeros_like(x)),
    "_npi_isneginf": _predicate_cases("isneginf", lambda x: np.isneginf(x) if x.dtype != BOOL else np.zeros_like(x)),
    "_npi_logical_not": _predicate_cases("logical_not", np.logical_not),
    "_npi_where": [
        Case(ins(_cond((3, 4)), rand((3, 4)), rand((3, 4))), ref=_where_ref, rtol=0, atol=0, name="where-same-shape"),
        Case(ins(_cond((2, 1, 4), F32), rand((3, 1), F64), rand((1, 3, 4), F64)), ref=_where_ref, rtol=0, atol=0,
             name="where-three-way-broadcast-float-cond"),
        Case(ins(_cond((5,), I32), rand((5,), I64, -9, 9), rand((1,), I64, -9, 9)), ref=_where_ref, rtol=0, atol=0,
             name="where-int64-int-cond"),
        Case(ins(_cond((4,), F16), rand((4,), F16), rand((4,), F16)), ref=_where_ref, rtol=0, atol=0,
             name="where-f16"),
        Case(ins(_cond((3, 2), np.uint8), rand((3, 2), BOOL), rand((3, 2), BOOL)), ref=_where_ref, rtol=0, atol=0,
             name="where-bool-values"),
        Case([np.array(True), np.array([1.0, 2.0], F32), np.array([[3.0], [4.0]], F32)], ref=_where_ref, rtol=0,
             atol=0, name="where-0d-cond"),
        Case([np.zeros((0, 3), BOOL), np.zeros((1, 3), F32), np.zeros((3,), F32)], ref=_where_ref, rtol=0, atol=0,
             name="where-zero-size"),
    ],
    "_npi_where_lscalar": [
        Case(ins(_cond((3, 4)), rand((3, 4))), attrs={"scalar": 9.5}, ref=_where_lscalar_ref, ref_takes_attrs=True,
             rtol=0, atol=0, name="where_lscalar-f32"),
        Case(ins(_cond((2, 1), F64), rand((3,), I32, -9, 9)), attrs={"scalar": 3.7}, ref=_where_lscalar_ref,
             ref_takes_attrs=True, rtol=0, atol=0, name="where_lscalar-int32-broadcast"),
        Case([np.zeros((0,), BOOL), np.zeros((0,), F32)], ref=_where_lscalar_ref, rtol=0, atol=0,
             name="where_lscalar-zero-size"),
    ],
    "_npi_where_rscalar": [
        Case(ins(_cond((3, 4)), rand((3, 4))), attrs={"scalar": -1.25}, ref=_where_rscalar_ref, ref_takes_attrs=True,
             rtol=0, atol=0, name="where_rscalar-f32"),
        Case(ins(_cond((4,), I64), rand((2, 1), F16)), attrs={"scalar": 2.0}, ref=_where_rscalar_ref,
             ref_takes_attrs=True, rtol=0, atol=0, name="where_rscalar-f16-broadcast"),
        Case([np.zeros((2, 0), BOOL), np.zeros((1, 0), I32)], ref=_where_rscalar_ref, rtol=0, atol=0,
             name="where_rscalar-zero-size"),
    ],
    "_npi_where_scalar2": [
        Case(ins(_cond((3, 4))), attrs={"x": 1.5, "y": -2.0}, ref=_where_scalar2_ref, ref_takes_attrs=True, rtol=0,
             atol=0, name="where_scalar2"),
        Case(ins(_cond((5,), F64)), attrs={"x": 1.0}, ref=_where_scalar2_ref, ref_takes_attrs=True, rtol=0, atol=0,
             name="where_scalar2-float-cond"),
        Case([np.zeros((0,), BOOL)], ref=_where_scalar2_ref, rtol=0, atol=0, name="where_scalar2-zero-size"),
    ],
    "_npi_boolean_mask_assign_scalar": [
        Case(ins(rand((2, 3)), lambda rng: np.array([True, False, True])), attrs={"value": 7.5, "start_axis": 1},
             ref=_mask_assign_ref, ref_takes_attrs=True, rtol=0, atol=0, name="boolean_mask_assign_scalar-axis1"),
        Case(ins(rand((2, 3, 4), I32, -9, 9), _cond((2, 3))), attrs={"value": 3.7}, ref=_mask_assign_ref,
             ref_takes_attrs=True, rtol=0, atol=0, name="boolean_mask_assign_scalar-int32-2d-mask"),
        Case(ins(rand((3, 2), F16), _cond((2,), F32)), attrs={"value": -1.0, "start_axis": 1}, ref=_mask_assign_ref,
             ref_takes_attrs=True, rtol=0, atol=0, name="boolean_mask_assign_scalar-f16-float-mask"),
        Case([np.zeros((0, 3), F32), np.zeros((0,), BOOL)], attrs={"value": 1.0}, ref=_mask_assign_ref,
             ref_takes_attrs=True, rtol=0, atol=0, name="boolean_mask_assign_scalar-zero-size"),
    ],
    "_npx_constraint_check": [
        Case([np.ones((2, 3), BOOL)], attrs={"msg": "not all true"}, ref=lambda x: np.array(x.all()), rtol=0, atol=0,
             name="constraint_check-all-true"),
        Case([np.zeros((0,), BOOL)], ref=lambda x: np.array(True), rtol=0, atol=0, name="constraint_check-empty"),
    ],
}
