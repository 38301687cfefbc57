"""Cases of the NumPy-mode operators declared for issue 37's "npshape" group under MXNet
1.9.1's registered names (core/op/reduce/np_reduce.cc: _npi_argmax, _npi_argmin, _np_all,
_np_any, _npi_std, _npi_var; core/op/shape/np_layout.cc: _np_moveaxis, _np_roll, _npi_tril,
_npi_broadcast_to, _np_diagflat, _npi_rot90, _np_atleast_1d/2d/3d;
core/op/index/np_diag_indices.cc: _npi_diag_indices_from;
core/op/shape/np_stack.cc: _npi_vstack, _npi_hstack, _npi_dstack, _npi_column_stack and their
backward ops),
against official NumPy: values, shapes (0-d for a full reduction) and dtypes (int64 indices,
bool tests, std/var in the input's dtype or `dtype`)."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, ins, rand

I32, I64, BOOL = np.int32, np.int64, np.bool_


def _arg(fn, axis=None, keepdims=False):
    def ref(a):
        r = fn(a, axis=axis)
        if keepdims:
            r = np.expand_dims(r, tuple(range(a.ndim)) if axis is None else axis)
        return np.asarray(r, dtype=I64)
    return ref


def _logic(fn, axis=None, keepdims=False):
    return lambda a: np.asarray(fn(a, axis=axis, keepdims=keepdims))


def _moment(fn, axis=None, ddof=0, keepdims=False, dtype=None):
    def ref(a):
        r = np.asarray(fn(a.astype(F64), axis=axis, ddof=ddof, keepdims=keepdims))
        return r.astype(dtype or a.dtype)
    return ref


def _with_nan(shape, where):
    def make(rng):
        a = rng.uniform(-1, 1, size=shape).astype(F32)
        a[where] = np.nan
        return a
    return make


CASES = {
    "_npi_argmax": [
        Case(ins(rand((3, 4, 5))), ref=_arg(np.argmax), rtol=0, atol=0, name="flat-0d"),
        Case(ins(rand((3, 4, 5), F64)), attrs={"axis": 1}, ref=_arg(np.argmax, 1), rtol=0, atol=0, name="axis1"),
        Case(ins(rand((3, 4), I32, -5, 5)), attrs={"axis": -1, "keepdims": True}, ref=_arg(np.argmax, -1, True),
             rtol=0, atol=0, name="int-ties-keepdims"),
        Case(ins(_with_nan((2, 5), (1, 3))), attrs={"axis": 1}, ref=_arg(np.argmax, 1), rtol=0, atol=0,
             name="nan-wins"),
        Case(ins(rand((2, 3), F16)), attrs={"keepdims": True}, ref=_arg(np.argmax, None, True), rtol=0, atol=0,
             name="f16-flat-keepdims"),
    ],
    "_npi_argmin": [
        Case(ins(rand((4, 3), F32)), attrs={"axis": 0}, ref=_arg(np.argmin, 0), rtol=0, atol=0, name="axis0"),
        Case(ins(rand((2, 3, 2), BOOL)), ref=_arg(np.argmin), rtol=0, atol=0, name="bool-flat"),
        Case([np.array(2.5, F32)], ref=_arg(np.argmin), rtol=0, atol=0, name="0d"),
    ],
    "_np_all": [
        Case(ins(rand((3, 4), I32, 0, 3)), ref=_logic(np.all), rtol=0, atol=0, name="flat-0d"),
        Case(ins(rand((3, 4, 2), I32, 0, 2)), attrs={"axis": (0, 2)}, ref=_logic(np.all, (0, 2)), rtol=0, atol=0,
             name="axes"),
        Case(ins(rand((3, 4), BOOL)), attrs={"axis": 1, "keepdims": True}, ref=_logic(np.all, 1, True), rtol=0,
             atol=0, name="bool-keepdims"),
        Case([np.zeros((0, 3), F32)], attrs={"axis": 0}, ref=_logic(np.all, 0), rtol=0, atol=0, name="empty-true"),
        Case([np.array([[np.nan, 1.0], [0.0, 2.0]], F64)], attrs={"axis": 1}, ref=_logic(np.all, 1), rtol=0,
             atol=0, name="nan-nonzero"),
        Case(ins(rand((2, 3), I32, 0, 2)), attrs={"axis": ()}, ref=_logic(np.all, ()), rtol=0, atol=0,
             name="no-axis"),
    ],
    "_np_any": [
        Case(ins(rand((3, 4), I32, 0, 2)), attrs={"axis": 0}, ref=_logic(np.any, 0), rtol=0, atol=0, name="axis0"),
        Case([np.zeros((2, 3), F32)], ref=_logic(np.any), rtol=0, atol=0, name="zeros-0d"),
        Case([np.zeros((2, 0), F32)], attrs={"axis": 1, "keepdims": True}, ref=_logic(np.any, 1, True), rtol=0,
             atol=0, name="empty-false"),
    ],
    "_npi_std": [
        Case(ins(rand((3, 4, 5))), attrs={"axis": 1}, ref=_moment(np.std, 1), name="axis1"),
        Case(ins(rand((3, 4), F64)), ref=_moment(np.std), rtol=1e-12, atol=1e-12, name="flat-0d"),
        Case(ins(rand((4, 3), F64)), attrs={"axis": (0,), "ddof": 1, "keepdims": True},
             ref=_moment(np.std, (0,), 1, True), rtol=1e-12, atol=1e-12, name="ddof-keepdims"),
        Case(ins(rand((3, 4), I32, -9, 9)), attrs={"axis": 0}, ref=_moment(np.std, 0), rtol=0, atol=0,
             name="int-truncated"),
        Case(ins(rand((3, 4), F32)), attrs={"axis": 1, "dtype": "float64"}, ref=_moment(np.std, 1, dtype=F64),
             rtol=1e-6, atol=1e-7, name="dtype-f64"),
    ],
    "_npi_var": [
        Case(ins(rand((2, 3, 4))), attrs={"axis": (0, 2)}, ref=_moment(np.var, (0, 2)), name="axes"),
        Case(ins(rand((5,), F64)), attrs={"ddof": 2}, ref=_moment(np.var, None, 2), rtol=1e-12, atol=1e-12,
             name="ddof2-0d"),
        Case(ins(rand((3, 4), F16)), attrs={"axis": 1}, ref=_moment(np.var, 1), rtol=1e-3, atol=1e-3, name="f16"),
    ],
}


def _moveaxis(source, destination):
    return lambda a: np.moveaxis(a, source, destination)


def _roll(shift, axis=None):
    return lambda a: np.roll(a, shift, axis=axis)


def _tril(k=0):
    return lambda a: np.tril(a, k)


CASES.update({
    "_np_moveaxis": [
        Case(ins(rand((2, 3, 4))), attrs={"source": (0,), "destination": (-1,)}, ref=_moveaxis(0, -1), rtol=0,
             atol=0, name="first-to-last"),
        Case(ins(rand((2, 3, 4, 5), I32, -9, 9)), attrs={"source": (0, 1), "destination": (2, 0)},
             ref=_moveaxis([0, 1], [2, 0]), rtol=0, atol=0, name="two-axes-int"),
        Case(ins(rand((3, 0, 2))), attrs={"source": (1,), "destination": (0,)}, ref=_moveaxis(1, 0), rtol=0,
             atol=0, name="zero-size"),
    ],
    "_np_roll": [
        Case(ins(rand((3, 4))), attrs={"shift": (5,)}, ref=_roll(5), rtol=0, atol=0, name="flat"),
        Case(ins(rand((3, 4, 2), F64)), attrs={"shift": (1, -2), "axis": (0, 1)}, ref=_roll((1, -2), (0, 1)),
             rtol=0, atol=0, name="two-axes"),
        Case(ins(rand((2, 3), I64, -9, 9)), attrs={"shift": (-1,), "axis": (0, 1)}, ref=_roll(-1, (0, 1)),
             rtol=0, atol=0, name="one-shift-two-axes"),
        Case(ins(rand((4,), BOOL)), attrs={"shift": (9,), "axis": (0,)}, ref=_roll(9, 0), rtol=0, atol=0,
             name="bool-wraps"),
        Case([np.zeros((0, 3), F32)], attrs={"shift": (2,)}, ref=_roll(2), rtol=0, atol=0, name="empty"),
    ],
    "_npi_tril": [
        Case(ins(rand((4, 5))), ref=_tril(), rtol=0, atol=0, name="2d"),
        Case(ins(rand((2, 3, 4), F64)), attrs={"k": 1}, ref=_tril(1), rtol=0, atol=0, name="batched-k1"),
        Case(ins(rand((5, 3), I32, -9, 9)), attrs={"k": -2}, ref=_tril(-2), rtol=0, atol=0, name="int-k-2"),
        Case(ins(rand((4,))), attrs={"k": 0}, ref=_tril(0), rtol=0, atol=0, name="1d-square"),
        Case(ins(rand((3, 3), F16)), attrs={"k": -1}, ref=_tril(-1), rtol=0, atol=0, name="f16"),
    ],
})


def _stack(fn):
    return lambda *xs: fn(list(xs))


def _stack_grad(fn):
    """The backward ops: out_grad's part of each input, split as NumPy stacked them."""
    def ref(g, *xs):
        parts, start = [], 0
        stacked = fn([np.zeros(x.shape, x.dtype) for x in xs])
        assert stacked.shape == g.shape
        for i, x in enumerate(xs):
            marks = [np.zeros(y.shape, F64) + (1.0 if j == i else 0.0) for j, y in enumerate(xs)]
            mask = fn(marks) == 1.0
            parts.append(g[mask].reshape(x.shape))
        return tuple(parts)
    return ref


_STACKS = {"_npi_vstack": np.vstack, "_npi_hstack": np.hstack, "_npi_dstack": np.dstack,
           "_npi_column_stack": np.column_stack}
_STACK_INPUTS = [
    ("1d", [(3,), (3,)]),
    ("2d", [(2, 3), (2, 3)]),
    ("0d", [(), ()]),
    ("3d", [(2, 3, 2), (2, 3, 2)]),
]


def _stack_cases(op, fn):
    cases = []
    for name, shapes in _STACK_INPUTS:
        cases.append(Case(ins(*[rand(s) for s in shapes]), attrs={"num_args": len(shapes)}, ref=_stack(fn), rtol=0,
                          atol=0, name=name))
    return cases


CASES.update({op: _stack_cases(op, fn) for op, fn in _STACKS.items()})
CASES["_npi_vstack"].append(Case(ins(rand((1, 4), I32, -9, 9), rand((3, 4), I32, -9, 9), rand((4,), I32, -9, 9)),
                                 attrs={"num_args": 3}, ref=_stack(np.vstack), rtol=0, atol=0, name="mixed-int"))
CASES["_npi_hstack"].append(Case(ins(rand((2, 1)), rand((2, 3)), rand((2, 0))), attrs={"num_args": 3},
                                 ref=_stack(np.hstack), rtol=0, atol=0, name="uneven-with-empty"))
CASES["_npi_column_stack"].append(Case(ins(rand((3,), F64), rand((3, 2), F64)), attrs={"num_args": 2},
                                       ref=_stack(np.column_stack), rtol=0, atol=0, name="1d-and-2d"))
CASES["_npi_dstack"].append(Case(ins(rand((2, 3)), rand((2, 3, 4))), attrs={"num_args": 2},
                                 ref=_stack(np.dstack), rtol=0, atol=0, name="2d-and-3d"))
for _op, _fn in _STACKS.items():
    CASES["_backward" + _op] = [
        Case(lambda rng, fn=_fn: [rng.uniform(-1, 1, size=fn([np.zeros((2, 3)), np.zeros((2, 3))]).shape)
                                  .astype(F32), np.zeros((2, 3), F32), np.zeros((2, 3), F32)],
             attrs={"num_args": 2}, ref=_stack_grad(_fn), rtol=0, atol=0, name="2d"),
        Case(lambda rng, fn=_fn: [rng.uniform(-1, 1, size=fn([np.zeros((4,)), np.zeros((4,))]).shape)
                                  .astype(F64), np.zeros((4,), F64), np.zeros((4,), F64)],
             attrs={"num_args": 2}, ref=_stack_grad(_fn), rtol=0, atol=0, name="1d"),
    ]


def _atleast(fn):
    return lambda *xs: tuple(fn(x) for x in xs)


CASES.update({
    "_npi_broadcast_to": [
        Case(ins(rand((3, 1))), attrs={"shape": (2, 3, 4)}, ref=lambda a: np.broadcast_to(a, (2, 3, 4)), rtol=0,
             atol=0, name="more-axes"),
        Case(ins(rand((4,), I32, -9, 9)), attrs={"shape": (3, 4)}, ref=lambda a: np.broadcast_to(a, (3, 4)), rtol=0,
             atol=0, name="int-rows"),
        Case([np.array(1.5, F64)], attrs={"shape": (2, 2)}, ref=lambda a: np.broadcast_to(a, (2, 2)), rtol=0, atol=0,
             name="0d"),
        Case(ins(rand((1, 2))), attrs={"shape": (0, 2)}, ref=lambda a: np.broadcast_to(a, (0, 2)), rtol=0, atol=0,
             name="to-zero-size"),
    ],
    "_np_diagflat": [
        Case(ins(rand((2, 2))), ref=lambda a: np.diagflat(a), rtol=0, atol=0, name="matrix"),
        Case(ins(rand((3,), F64)), attrs={"k": 2}, ref=lambda a: np.diagflat(a, 2), rtol=0, atol=0, name="k2"),
        Case(ins(rand((3,), I32, -9, 9)), attrs={"k": -1}, ref=lambda a: np.diagflat(a, -1), rtol=0, atol=0,
             name="int-k-1"),
    ],
    "_npi_rot90": [
        Case(ins(rand((2, 3))), ref=lambda a: np.rot90(a), rtol=0, atol=0, name="k1"),
        Case(ins(rand((2, 3, 4), F64)), attrs={"k": 2, "axes": (0, 2)}, ref=lambda a: np.rot90(a, 2, (0, 2)), rtol=0,
             atol=0, name="k2-axes"),
        Case(ins(rand((2, 3, 4))), attrs={"k": 3, "axes": (2, 1)}, ref=lambda a: np.rot90(a, 3, (2, 1)), rtol=0,
             atol=0, name="k3-reversed-axes"),
        Case(ins(rand((3, 2), I32, -9, 9)), attrs={"k": -1}, ref=lambda a: np.rot90(a, -1), rtol=0, atol=0,
             name="k-1-int"),
        Case(ins(rand((2, 2))), attrs={"k": 4}, ref=lambda a: np.rot90(a, 4), rtol=0, atol=0, name="k4"),
    ],
    "_np_atleast_1d": [
        Case([np.array(2.0, F32), np.arange(3, dtype=I32)], attrs={"num_args": 2}, ref=_atleast(np.atleast_1d),
             rtol=0, atol=0, name="0d-and-1d"),
    ],
    "_np_atleast_2d": [
        Case([np.array(2.0, F32), np.arange(3, dtype=F64), np.ones((2, 3, 1), F32)], attrs={"num_args": 3},
             ref=_atleast(np.atleast_2d), rtol=0, atol=0, name="0d-1d-3d"),
    ],
    "_np_atleast_3d": [
        Case([np.array(2.0, F32), np.arange(3, dtype=F32), np.ones((2, 3), I32)], attrs={"num_args": 3},
             ref=_atleast(np.atleast_3d), rtol=0, atol=0, name="0d-1d-2d"),
    ],
})

CASES["_npi_diag_indices_from"] = [
    Case(ins(rand((3, 3))), ref=lambda a: np.stack(np.diag_indices_from(a)).astype(I64), rtol=0, atol=0, name="2d"),
    Case(ins(rand((2, 2, 2), I32, 0, 5)), ref=lambda a: np.stack(np.diag_indices_from(a)).astype(I64), rtol=0, atol=0,
         name="3d-int"),
    Case([np.zeros((0, 0), F32)], ref=lambda a: np.zeros((2, 0), I64), rtol=0, atol=0, name="empty"),
]
