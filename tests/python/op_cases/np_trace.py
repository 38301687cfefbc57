"""Cases of _np_trace (MXNet 1.9.1's np.trace, core/op/reduce/np_trace.cc) and its
backward op against official NumPy: offsets above, below and past the edge, axes in
either order and negative, integer dtypes summed in their own dtype (as MXNet)."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, rand


def _ins(*makers):
    return lambda rng: [m(rng) if callable(m) else np.asarray(m) for m in makers]


def _trace_ref(offset=0, axis1=0, axis2=1):
    return lambda a: np.asarray(np.trace(a, offset=offset, axis1=axis1, axis2=axis2)).astype(a.dtype)


def _trace_grad_ref(offset=0, axis1=0, axis2=1):
    """The adjoint: out_grad broadcast onto the diagonal (the trace's ones), zeros elsewhere."""
    def ref(g, a):
        ones = np.zeros(a.shape)
        d = np.moveaxis(ones, (axis1, axis2), (-2, -1))  # a view: writes land in `ones`
        n1, n2 = d.shape[-2:]
        for j in range(max(0, min(n1 - max(0, -offset), n2 - max(0, offset)))):
            d[..., j + max(0, -offset), j + max(0, offset)] = 1
        gb = np.moveaxis(np.zeros(a.shape), (axis1, axis2), (-2, -1)) + np.asarray(g, F64)[..., None, None]
        return (np.moveaxis(gb, (-2, -1), (axis1, axis2)) * ones).astype(a.dtype)
    return ref


def _case(shape, dtype, name, offset=0, axis1=0, axis2=1, tol=1e-5):
    return Case(_ins(rand(shape, dtype, -3, 3)), attrs={"offset": offset, "axis1": axis1, "axis2": axis2},
                ref=_trace_ref(offset, axis1, axis2), rtol=tol, atol=tol, name=name)


def _grad_case(shape, name, offset=0, axis1=0, axis2=1):
    out = np.trace(np.zeros(shape), offset=offset, axis1=axis1, axis2=axis2).shape
    return Case(_ins(rand(out, F64), rand(shape, F64)), attrs={"offset": offset, "axis1": axis1, "axis2": axis2},
                ref=_trace_grad_ref(offset, axis1, axis2), rtol=1e-12, atol=1e-12, name=name)


CASES = {
    "_np_trace": [
        _case((3, 3), F32, "trace-square-0d"),
        _case((3, 5), F64, "trace-offset-above", offset=2, tol=1e-12),
        _case((4, 3), F32, "trace-offset-below", offset=-1),
        _case((2, 3, 4, 5), F64, "trace-axes-reversed", axis1=3, axis2=1, tol=1e-12),
        _case((2, 3, 4), F32, "trace-negative-axes-offset", offset=1, axis1=-1, axis2=-3),
        _case((3, 3), np.int32, "trace-int32", tol=0),
        _case((2, 4, 4), F16, "trace-f16", tol=1e-2),
        _case((3, 4), F32, "trace-offset-past-edge-zero", offset=7),
        _case((0, 3, 2), F32, "trace-zero-size-batch", axis1=1, axis2=2),
    ],
    "_backward_np_trace": [
        _grad_case((3, 4), "backward_trace-offset", offset=1),
        _grad_case((2, 3, 4), "backward_trace-axes", offset=-1, axis1=2, axis2=0),
    ],
}
