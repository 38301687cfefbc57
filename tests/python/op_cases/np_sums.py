"""Cases of MXNet 1.9.1's NumPy-mode reductions _np_sum, _npi_mean, _np_prod, _np_max and
_np_min (core/op/reduce/np_reduce.cc, Note [NumPy sums and their dtypes]) against official
NumPy: values, shapes (0-d for a full reduction, the input's for axis=()) and MXNet's output
dtypes (bool sums and products int64, integer and bool means float32, `dtype` where given, the
input converted to it first)."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, ins, rand

I8, I32, I64, BOOL = np.int8, np.int32, np.int64, np.bool_


def _sum_dtype(a, dtype):
    return np.dtype(dtype) if dtype else (np.dtype(I64) if a.dtype == BOOL else a.dtype)


def _mean_dtype(a, dtype):
    return np.dtype(dtype) if dtype else (a.dtype if np.issubdtype(a.dtype, np.floating) else np.dtype(F32))


def _red(fn, out_dtype, axis=None, keepdims=False, dtype=None):
    """fn over axis of the input converted to the output dtype, in float64 for floats."""
    def ref(a):
        od = out_dtype(a, dtype)
        x = a.astype(od)
        if np.issubdtype(od, np.floating):
            x = x.astype(F64)
        return np.asarray(fn(x, axis=axis, keepdims=keepdims)).astype(od)
    return ref


def _same(a, dtype):
    return a.dtype


def _with_nan(shape, where):
    def make(rng):
        a = rng.uniform(-1, 1, size=shape)
        a[where] = np.nan
        return a
    return make


CASES = {
    "_np_sum": [
        Case(ins(rand((3, 4, 5))), ref=_red(np.sum, _sum_dtype), name="flat-0d"),
        Case(ins(rand((3, 4, 2), I32, -9, 9)), attrs={"axis": (0, 2), "keepdims": True},
             ref=_red(np.sum, _sum_dtype, (0, 2), True), rtol=0, atol=0, name="int-axes-keepdims"),
        Case(ins(rand((4, 5), BOOL)), attrs={"axis": 1}, ref=_red(np.sum, _sum_dtype, 1), rtol=0, atol=0,
             name="bool-int64"),
        Case([np.full((2, 40), 100, I8)], attrs={"axis": 1, "dtype": "int64"},
             ref=_red(np.sum, _sum_dtype, 1, dtype="int64"), rtol=0, atol=0, name="int8-as-int64"),
        Case([np.full((40,), 100, I8)], ref=_red(np.sum, _sum_dtype), rtol=0, atol=0, name="int8-wraps"),
        Case(ins(rand((2, 3))), attrs={"axis": ()}, ref=_red(np.sum, _sum_dtype, ()), name="no-axis"),
        Case(ins(rand((3, 6), F16)), attrs={"axis": -1}, ref=_red(np.sum, _sum_dtype, -1), rtol=2e-3, atol=2e-3,
             name="f16"),
        Case(ins(rand((3, 4))), attrs={"dtype": "float64"}, ref=_red(np.sum, _sum_dtype, dtype="float64"),
             rtol=1e-12, atol=1e-12, name="dtype-f64-0d"),
        Case([np.zeros((0, 3), F32)], attrs={"axis": 0}, ref=_red(np.sum, _sum_dtype, 0), name="empty"),
    ],
    "_npi_mean": [
        Case(ins(rand((3, 4), I32, -9, 9)), ref=_red(np.mean, _mean_dtype), name="int-float32-0d"),
        Case(ins(rand((3, 5), F64)), attrs={"axis": 1}, ref=_red(np.mean, _mean_dtype, 1), rtol=1e-12,
             atol=1e-12, name="f64"),
        Case(ins(rand((4, 3), BOOL)), attrs={"axis": 0}, ref=_red(np.mean, _mean_dtype, 0), name="bool-float32"),
        Case(ins(rand((2, 3, 4))), attrs={"axis": (0, 2), "keepdims": True, "dtype": "float64"},
             ref=_red(np.mean, _mean_dtype, (0, 2), True, "float64"), rtol=1e-12, atol=1e-12,
             name="dtype-f64-keepdims"),
        Case(ins(rand((2, 3), I32, -9, 9)), attrs={"axis": 1, "dtype": "int64"},
             ref=lambda a: np.trunc(a.astype(F64).mean(axis=1)).astype(I64), rtol=0, atol=0,
             name="dtype-int64-truncates"),
    ],
    "_np_prod": [
        Case(ins(rand((4, 3), BOOL)), attrs={"axis": 0}, ref=_red(np.prod, _sum_dtype, 0), rtol=0, atol=0,
             name="bool-int64"),
        Case(ins(rand((3, 4), F64, 0.5, 1.5)), attrs={"axis": 1}, ref=_red(np.prod, _sum_dtype, 1), rtol=1e-12,
             atol=1e-12, name="f64"),
        Case(ins(rand((3, 4), I32, -5, 6)), attrs={"axis": 0, "dtype": "int64", "keepdims": True},
             ref=_red(np.prod, _sum_dtype, 0, True, "int64"), rtol=0, atol=0, name="int-as-int64-keepdims"),
        Case(ins(rand((2, 3), F32, 0.5, 1.5)), ref=_red(np.prod, _sum_dtype), name="flat-0d"),
        Case([np.zeros((2, 0), F32)], attrs={"axis": 1}, ref=_red(np.prod, _sum_dtype, 1), name="empty-one"),
    ],
    "_np_max": [
        Case(ins(rand((3, 4, 5))), attrs={"axis": 1}, ref=_red(np.max, _same, 1), rtol=0, atol=0, name="axis1"),
        Case(ins(rand((3, 4), I32, -50, 50)), ref=_red(np.max, _same), rtol=0, atol=0, name="int-0d"),
        Case(ins(rand((3, 4), BOOL)), attrs={"axis": 0}, ref=_red(np.max, _same, 0), rtol=0, atol=0, name="bool"),
        Case(ins(_with_nan((2, 5), (1, 3))), attrs={"axis": 1}, ref=_red(np.max, _same, 1), rtol=0, atol=0,
             name="nan-propagates"),
        Case(ins(rand((2, 3))), attrs={"axis": ()}, ref=_red(np.max, _same, ()), rtol=0, atol=0, name="no-axis"),
    ],
    "_np_min": [
        Case(ins(rand((3, 4), F16)), attrs={"axis": -1, "keepdims": True}, ref=_red(np.min, _same, -1, True),
             rtol=0, atol=0, name="f16-keepdims"),
        Case(ins(rand((2, 3, 4), I8, -100, 100)), attrs={"axis": (0, 2)}, ref=_red(np.min, _same, (0, 2)), rtol=0,
             atol=0, name="int8-axes"),
        Case(ins(rand((5,), F64)), ref=_red(np.min, _same), rtol=0, atol=0, name="0d"),
    ],
}
