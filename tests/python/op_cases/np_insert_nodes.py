"""Cases of the NumPy-mode operators declared for issue 37's "npinsert" group under MXNet 1.9.1's
registered names (core/op/reduce/np_average.cc: _npi_average, _backward_np_average;
core/op/reduce/np_ediff1d.cc: _npi_ediff1d, _npi_backward_ediff1d; core/op/reduce/np_percentile.cc:
_npi_percentile; core/op/index/np_insert.cc: _npi_insert_scalar/_slice/_tensor;
core/op/index/np_delete.cc: _npi_delete; core/op/index/np_mask_assign_tensor.cc:
_npi_boolean_mask_assign_tensor and its value gradient), against official NumPy where MXNet follows it and
against MXNet's own rule where it does not (integer averages truncate, percentile's 'nearest'
rounds halves away from zero and gives float32 for non-float64 input, delete reads its obj array
as integers and skips those outside [0, n))."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, ins, rand

I32, I64 = np.int32, np.int64


def _axes(axis, ndim):
    return tuple(range(ndim)) if axis is None else tuple(a % ndim for a in np.atleast_1d(axis))


def _avg(axis=None, returned=False):
    def ref(a, w=None):
        ax = _axes(axis, a.ndim)
        if w is None:
            num, den = a.astype(F64).sum(axis=ax), np.float64(np.prod([a.shape[i] for i in ax]))
            sum_w = np.array(den)
        else:
            wb = w if w.shape == a.shape else w.reshape([-1 if i == ax[0] else 1 for i in range(a.ndim)])
            num = (a.astype(F64) * wb).sum(axis=ax)
            den = np.broadcast_to(wb, a.shape).astype(F64).sum(axis=ax)
            sum_w = den if w.shape == a.shape else np.array(w.astype(F64).sum())
        avg = num / den
        avg = np.trunc(avg) if a.dtype.kind in "iu" else avg
        outs = (np.asarray(avg).astype(a.dtype), np.asarray(sum_w).astype(a.dtype))
        return outs if returned else outs[0]
    return ref


def _avg_grad(axis=None):
    def ref(g, a, w=None):
        ax = _axes(axis, a.ndim)
        keep = [1 if i in ax else a.shape[i] for i in range(a.ndim)]
        gk = g.reshape(keep)
        if w is None:
            return (np.broadcast_to(gk, a.shape) / np.prod([a.shape[i] for i in ax])).astype(a.dtype)
        wb = w if w.shape == a.shape else w.reshape([-1 if i == ax[0] else 1 for i in range(a.ndim)])
        den = np.broadcast_to(wb, a.shape).sum(axis=ax).reshape(keep)
        avg = (a * wb).sum(axis=ax).reshape(keep) / den
        ga = np.broadcast_to(gk * wb / den, a.shape)
        gw = gk * (a - avg) / den
        gw = gw if w.shape == a.shape else gw.sum(axis=tuple(i for i in range(a.ndim) if i != ax[0]))
        return ga.astype(a.dtype), gw.astype(a.dtype)
    return ref


def _ediff(begin=None, end=None):
    def ref(a, *arrays):
        arrays = list(arrays)
        b = arrays.pop(0) if begin == "array" else begin
        e = arrays.pop(0) if end == "array" else end
        return np.ediff1d(a, to_begin=b, to_end=e).astype(a.dtype)
    return ref


def _ediff_grad(nb, ne):
    """(out_grad, a, *array ends) -> grads of a and of the array ends (nb, ne: the ends' lengths, 0
    for an end that is not an array)."""
    def ref(g, a, *ends):
        mid = g[nb:g.size - ne]
        ga = np.zeros(a.size, g.dtype)
        ga[1:] += mid
        ga[:-1] -= mid
        out = [ga.reshape(a.shape)]
        if nb:
            out.append(g[:nb].reshape(ends[0].shape))
        if ne:
            out.append(g[g.size - ne:].reshape(ends[-1].shape))
        return tuple(out) if len(out) > 1 else out[0]
    return ref


def _pct(q=None, axis=None, method="linear", keepdims=False):
    def ref(a, qa=None):
        qq = q if qa is None else qa.astype(F64)
        x = a.astype(F64)
        if method == "nearest":  # MXNet rounds halves away from zero (a flat input, a scalar q here)
            v = np.sort(x.reshape(-1))
            r = v[int(np.floor(qq / 100.0 * (v.size - 1) + 0.5))]
        else:
            r = np.percentile(x, qq, axis=axis, method=method, keepdims=keepdims)
        return np.asarray(r).astype(F64 if a.dtype == F64 else F32)
    return ref


def _ins_ref(obj, axis=None, val=None):
    """obj: an int, a slice or "tensor" (the last input); val: the number inserted (no values input)."""
    def ref(arr, *rest):
        values, rest = (val, rest) if val is not None else (rest[0], rest[1:])
        return np.insert(arr, rest[0] if obj == "tensor" else obj, values, axis=axis)
    return ref


def _del_ref(obj, axis=None):
    def ref(arr, objarr=None):
        if objarr is None:
            return np.delete(arr, obj, axis=axis)
        a = arr.reshape(-1) if axis is None else arr
        n = a.shape[0 if axis is None else axis]
        idx = objarr.astype(I64).reshape(-1)
        idx = idx[(idx >= 0) & (idx < n)]  # MXNet skips the others, negative ones included
        return np.delete(a, np.unique(idx), axis=0 if axis is None else axis)
    return ref


def _mask_assign(start_axis):
    def ref(d, m, v):
        out = d.copy()
        out[(slice(None),) * start_axis + (m.astype(bool),)] = v.astype(d.dtype)
        return out
    return ref


def _mask_assign_value_grad(start_axis):
    def ref(g, m, v):
        sel = g[(slice(None),) * start_axis + (m.astype(bool),)]
        lead = sel.ndim - v.ndim  # summed over the dims value lacks, then over its stretched 1s
        s = sel.sum(axis=tuple(range(lead))) if lead else sel
        return s.sum(axis=tuple(i for i in range(v.ndim) if v.shape[i] == 1 and s.shape[i] != 1),
                     keepdims=True).reshape(v.shape).astype(v.dtype)
    return ref


_M23 = np.array([[True, False, True], [False, False, True]])
_W1 = np.array([0.5, 1.5, 1.0], F32)

CASES = {
    "_npi_average": [
        Case(ins(rand((3, 4), F32)), attrs={"weighted": False}, ref=_avg(), name="flat-0d"),
        Case(ins(rand((2, 3, 4), F64)), attrs={"axis": (0, 2), "weighted": False}, ref=_avg((0, 2)), rtol=1e-12,
             atol=1e-12, name="axes-f64"),
        Case(ins(rand((2, 3, 4), F32), rand((2, 3, 4), F32, 0.5, 1.5)), attrs={"axis": 1}, ref=_avg(1),
             name="weights"),
        Case(ins(rand((3, 4), F32), _W1), attrs={"axis": 0, "returned": True}, ref=_avg(0, True), name="weights-1d"),
        Case(ins(rand((3, 4), F64), rand((3, 4), F64, 0.5, 1.5)), attrs={"axis": -1, "returned": True},
             ref=_avg(-1, True), rtol=1e-12, atol=1e-12, name="returned-per-output"),
        Case(ins(rand((2, 3), F32)), attrs={"returned": True, "weighted": False}, ref=_avg(None, True),
             name="returned-count"),
        Case([np.array([[1, 2, 3], [4, 5, 7]], I32), np.array([1, 2, 3], I32)], attrs={"axis": 1},
             ref=_avg(1), rtol=0, atol=0, name="int-truncates"),
        Case(ins(rand((0, 3), F32)), attrs={"axis": 1, "weighted": False}, ref=_avg(1), name="zero-size"),
    ],
    "_backward_np_average": [
        Case(ins(rand((2, 4), F64), rand((2, 3, 4), F64), rand((2, 3, 4), F64, 0.5, 1.5)), attrs={"axis": 1},
             ref=_avg_grad(1), rtol=1e-12, atol=1e-12, name="weights"),
        Case(ins(rand((4,), F64), rand((3, 4), F64), np.array([0.5, 1.5, 1.0], F64)), attrs={"axis": 0},
             ref=_avg_grad(0), rtol=1e-12, atol=1e-12, name="weights-1d"),
        Case(ins(rand((), F32), rand((2, 3), F32)), attrs={"weighted": False}, ref=_avg_grad(), name="unweighted"),
    ],
    "_npi_ediff1d": [
        Case(ins(rand((3, 4), F32)), ref=_ediff(), name="flattened"),
        Case(ins(rand((5,), F64)), attrs={"to_begin_scalar": -1.5, "to_end_scalar": 2.0}, ref=_ediff(-1.5, 2.0),
             rtol=1e-12, atol=1e-12, name="scalars"),
        Case(ins(rand((2, 3), F32), rand((2,), F32), rand((1, 3), F32)),
             attrs={"to_begin_arr_given": True, "to_end_arr_given": True}, ref=_ediff("array", "array"),
             name="arrays"),
        Case(ins(rand((4,), F32), rand((2,), F32)), attrs={"to_begin_scalar": 3.0, "to_end_arr_given": True},
             ref=_ediff(3.0, "array"), name="end-array"),
        Case([np.array([1, 4, 9, 16], I32)], attrs={"to_end_scalar": 7}, ref=_ediff(None, 7), rtol=0, atol=0,
             name="int"),
        Case([np.array([2.5], F16)], attrs={"to_begin_scalar": 1}, ref=_ediff(1), rtol=0, atol=0, name="one-element"),
        Case([np.zeros((0,), F32)], ref=_ediff(), name="empty"),
    ],
    "_npi_backward_ediff1d": [
        Case(ins(rand((11,), F64), rand((3, 4), F64)), ref=_ediff_grad(0, 0), rtol=1e-12, atol=1e-12, name="plain"),
        Case(ins(rand((9,), F64), rand((2, 3), F64), rand((2,), F64), rand((1, 2), F64)),
             attrs={"to_begin_arr_given": True, "to_end_arr_given": True}, ref=_ediff_grad(2, 2), rtol=1e-12,
             atol=1e-12, name="arrays"),
    ],
    "_npi_percentile": [
        Case(ins(rand((3, 5), F32)), attrs={"q_scalar": 50}, ref=_pct(50), name="median-0d"),
        Case(ins(rand((3, 5), F32), np.array([10.0, 90.0], F32)), attrs={"axis": 1}, ref=_pct(axis=1),
             name="q-array-axis1"),
        Case(ins(rand((3, 5, 2), F64)), attrs={"q_scalar": 30, "axis": (0, 2), "interpolation": "lower",
                                                "keepdims": True}, ref=_pct(30, (0, 2), "lower", True),
             rtol=1e-12, atol=1e-12, name="lower-keepdims"),
        Case(ins(rand((4, 3), F32)), attrs={"q_scalar": 33, "axis": 0, "interpolation": "higher"},
             ref=_pct(33, 0, "higher"), name="higher"),
        Case(ins(rand((7,), F32)), attrs={"q_scalar": 40, "interpolation": "midpoint"}, ref=_pct(40, None, "midpoint"),
             name="midpoint"),
        Case([np.arange(15, dtype=F32)], attrs={"q_scalar": 75, "interpolation": "nearest"},
             ref=_pct(75, None, "nearest"), rtol=0, atol=0, name="nearest-half-away"),
        Case([np.array([[1, 5, 2, 8]], I32)], attrs={"q_scalar": 40}, ref=_pct(40), name="int-gives-float32"),
        Case(ins(rand((2, 6), F16)), attrs={"q_scalar": 25, "axis": -1}, ref=_pct(25, -1), rtol=1e-3, atol=1e-3,
             name="f16-gives-float32"),
    ],
    "_npi_insert_scalar": [
        Case(ins(rand((3, 4), F32), rand((3,), F32)), attrs={"int_ind": 1, "axis": 1}, ref=_ins_ref(1, 1),
             rtol=0, atol=0, name="column"),
        Case(ins(rand((3, 4), F32), rand((2, 3), F32)), attrs={"int_ind": -1, "axis": 1}, ref=_ins_ref(-1, 1),
             rtol=0, atol=0, name="moved-values"),
        Case(ins(rand((3, 4), F32), rand((2, 4), F32)), attrs={"int_ind": 3, "axis": 0}, ref=_ins_ref(3, 0),
             rtol=0, atol=0, name="rows-at-end"),
        Case(ins(rand((2, 3), I32, -5, 5)), attrs={"int_ind": 2, "val": 7.9, "axis": 1},
             ref=_ins_ref(2, 1, 7.9), rtol=0, atol=0, name="val-int"),
        Case(ins(rand((2, 3), F64)), attrs={"int_ind": 0, "val": 2.5}, ref=_ins_ref(0, None, 2.5), rtol=0, atol=0,
             name="val-flattened"),
    ],
    "_npi_insert_slice": [
        Case(ins(rand((3, 4), F32), rand((3,), F32)), attrs={"start": 0, "stop": 3, "step": 1, "axis": 1},
             ref=_ins_ref(slice(0, 3), 1), rtol=0, atol=0, name="one-per-index"),
        Case(ins(rand((3, 4), F32), rand((3, 1), F32)), attrs={"step": 2, "axis": 1},
             ref=_ins_ref(slice(None, None, 2), 1), rtol=0, atol=0, name="step-broadcast"),
        Case(ins(rand((5,), F64), rand((2,), F64)), attrs={"start": -1, "step": -3},
             ref=_ins_ref(slice(-1, None, -3)), rtol=0, atol=0, name="negative-step"),
        Case(ins(rand((2, 3), F32), rand((2, 2), F32)), attrs={"start": 1, "stop": 2, "axis": 1},
             ref=_ins_ref(slice(1, 2), 1), rtol=0, atol=0, name="one-index-block"),
    ],
    "_npi_insert_tensor": [
        Case(ins(rand((3, 4), F32), rand((3,), F32), np.array([3, 1, 1], I64)), attrs={"axis": 1},
             ref=_ins_ref("tensor", 1), rtol=0, atol=0, name="sorted-stably"),
        Case(ins(rand((3, 4), F32), rand((3, 1), F32), np.array([1], I64)), attrs={"axis": 1},
             ref=_ins_ref("tensor", 1), rtol=0, atol=0, name="one-index"),
        Case(ins(rand((2, 3), F32), np.array(2, I64)), attrs={"axis": 1, "val": 5.0},
             ref=_ins_ref("tensor", 1, 5.0), rtol=0, atol=0, name="0d-obj-val"),
        Case(ins(rand((6,), I32, -9, 9), rand((2,), I32, -9, 9), np.array([-1, 0], I64)),
             ref=_ins_ref("tensor"), rtol=0, atol=0, name="int"),
    ],
    "_npi_delete": [
        Case(ins(rand((3, 4), F32)), attrs={"int_ind": 1, "axis": 0}, ref=_del_ref(1, 0), rtol=0, atol=0,
             name="int"),
        Case(ins(rand((3, 4), F32)), attrs={"int_ind": -4, "axis": 1}, ref=_del_ref(-4, 1), rtol=0, atol=0,
             name="int-negative"),
        Case(ins(rand((3, 4), F64)), attrs={"start": 0, "step": 2, "axis": 1}, ref=_del_ref(slice(0, None, 2), 1),
             rtol=0, atol=0, name="slice"),
        Case(ins(rand((2, 3), I32, -9, 9)), attrs={"start": -1}, ref=_del_ref(slice(-1, None)), rtol=0, atol=0,
             name="slice-flattened"),
        Case(ins(rand((3, 4), F32), np.array([0, 2, 2, -1, 9], I64)), attrs={"axis": 1},
             ref=_del_ref(None, 1), rtol=0, atol=0, name="array-skips-negative-and-out-of-range"),
        Case(ins(rand((12,), F32), np.array([[1, 2], [3, 1]], I64)), ref=_del_ref(None), rtol=0, atol=0,
             name="array-2d-obj"),
    ],
    "_npi_boolean_mask_assign_tensor": [
        Case(ins(rand((2, 3, 4), F32), _M23, rand((4,), F32)), attrs={"start_axis": 0}, ref=_mask_assign(0),
             rtol=0, atol=0, name="broadcast-rows"),
        Case(ins(rand((4, 3), F64), np.array([False, True, True, False]), rand((2, 3), F64)),
             attrs={"start_axis": 0}, ref=_mask_assign(0), rtol=0, atol=0, name="one-per-selected"),
        Case(ins(rand((2, 4, 3), I32, -9, 9), np.array([1, 0, 1, 1], I32), rand((2, 1, 3), F32)),
             attrs={"start_axis": 1}, ref=_mask_assign(1), rtol=0, atol=0, name="start-axis1-int-mask-cast"),
        Case(ins(rand((3, 2), F32), np.zeros((3,), np.bool_), rand((1,), F32)), attrs={"start_axis": 0},
             ref=_mask_assign(0), rtol=0, atol=0, name="nothing-selected"),
    ],
    "_backward_npi_boolean_mask_assign_tensor": [
        Case(ins(rand((2, 3, 4), F64), _M23, rand((4,), F64)), attrs={"start_axis": 0},
             ref=_mask_assign_value_grad(0), rtol=1e-12, atol=1e-12, name="broadcast-rows"),
        Case(ins(rand((2, 4, 3), F64), np.array([True, False, True, True]), rand((2, 1, 3), F64)),
             attrs={"start_axis": 1}, ref=_mask_assign_value_grad(1), rtol=1e-12, atol=1e-12, name="stretched-1"),
    ],
}
