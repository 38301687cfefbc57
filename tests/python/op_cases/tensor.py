"""Cases of the tensor operator families: reductions, dot, layout (transpose,
Reshape, Flatten, expand_dims, squeeze, _copyto), Concat/stack/split, slicing
and indexing. Init and random ops: init_random.py.

References are NumPy with MXNet 1.x legacy semantics where they differ from
NumPy: a full reduction gives shape (1,), argmax returns indices in the input
dtype, integer sums wrap to the input width.
"""
import numpy as np

from .case import Case

F32, F64, F16 = np.float32, np.float64, np.float16


def rand(shape, dtype=F32, lo=-1.0, hi=1.0):
    """Uniform values in [lo, hi) (integers for integer dtypes)."""
    def make(rng):
        if np.issubdtype(dtype, np.integer):
            return rng.integers(int(lo), int(hi), size=shape).astype(dtype)
        if dtype == np.bool_:
            return rng.random(shape) < 0.5
        return rng.uniform(lo, hi, size=shape).astype(dtype)
    return make


def to_bf16(x):
    """float32 values as weft's bfloat16 NumPy dtype (rounded to nearest even)."""
    import weft  # pylint: disable=import-outside-toplevel
    t = weft.dtypes.bfloat16
    x = np.ascontiguousarray(x, F32)
    if not t.names:
        return x.astype(t)
    u = x.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16).view(t)


def from_bf16(x):
    """bfloat16 values (either representation) as float32."""
    if x.dtype.names:
        return (np.ascontiguousarray(x).view(np.uint16).astype(np.uint32) << 16).view(F32)
    return x.astype(F32)


def rand_bf16(shape):
    return lambda rng: to_bf16(rng.uniform(-1, 1, size=shape))


def bf16_ref(fn):
    """A reference computed in float32 on the decoded inputs, rounded to bfloat16."""
    return lambda *xs: to_bf16(fn(*[from_bf16(x) for x in xs]))


def ins(*makers):
    """Inputs from several makers (each a callable(rng) or a fixed array)."""
    def make(rng):
        return [m(rng) if callable(m) else np.asarray(m) for m in makers]
    make.all_inputs = True
    return make


def C(inputs, ref, name="", rtol=1e-5, atol=1e-6, **attrs):
    """A case; `inputs` is one maker from rand(), ins(...) or a list of arrays."""
    if callable(inputs) and not getattr(inputs, "all_inputs", False):
        inputs = ins(inputs)
    return Case(inputs=inputs, attrs=attrs, ref=ref, rtol=rtol, atol=atol, name=name)


# ---- reductions ----------------------------------------------------------------------------------

def _axes(x, axis, exclude):
    if axis is None or axis == ():
        return tuple(range(x.ndim))
    axis = (axis,) if isinstance(axis, int) else tuple(axis)
    axis = tuple(a % x.ndim for a in axis)
    if exclude:
        axis = tuple(i for i in range(x.ndim) if i not in axis)
    return axis


def reduce_ref(fn, acc=None, axis=None, keepdims=False, exclude=False):
    """Reference of an axis reduction in legacy mode (all reduced -> (1,))."""
    def ref(x):
        ax = _axes(x, axis, exclude)
        y = fn(x.astype(acc) if acc else x, axis=ax, keepdims=keepdims)
        y = np.asarray(y).astype(x.dtype)
        return y.reshape(1) if y.ndim == 0 else y
    return ref


def reduce_cases(fn, extra=()):
    cases = [
        C(rand((2, 3, 4)), reduce_ref(fn), name="all"),
        C(rand((2, 3, 4)), reduce_ref(fn, axis=1), axis=1, name="axis1"),
        C(rand((2, 3, 4)), reduce_ref(fn, axis=(0, 2)), axis=(0, 2), name="axes02"),
        C(rand((2, 3, 4)), reduce_ref(fn, axis=-1, keepdims=True), axis=-1, keepdims=True, name="keepdims"),
        C(rand((2, 3, 4)), reduce_ref(fn, axis=(1,), exclude=True), axis=(1,), exclude=True, name="exclude"),
        C(rand((2, 3, 4)), reduce_ref(fn, axis=(0, 1), exclude=True, keepdims=True), axis=(0, 1),
          exclude=True, keepdims=True, name="exclude_keepdims"),
        C(rand((3, 5), F64), reduce_ref(fn, axis=0), axis=0, name="float64"),
        C(rand((4, 6), F16), reduce_ref(fn, acc=F32, axis=1), axis=1, rtol=1e-2, atol=1e-2, name="float16"),
        C(rand((7,)), reduce_ref(fn, keepdims=True), keepdims=True, name="1d_keepdims"),
    ]
    return cases + list(extra)


def _nan_input(rng):
    x = rng.uniform(0.5, 1.5, size=(3, 4)).astype(F32)
    x[1, 2] = np.nan
    return [x]


CASES = {
    "sum": reduce_cases(np.sum, [
        C(rand((3, 4), np.int32, -100, 100), reduce_ref(np.sum, acc=np.int64, axis=1), axis=1, name="int32"),
        C(rand((50, 3), np.uint8, 0, 255), reduce_ref(np.sum, acc=np.int64, axis=0), axis=0, name="uint8_wraps"),
        C(rand((2, 3), np.int64, -5, 5), reduce_ref(np.sum), name="int64_all"),
        C(rand_bf16((4, 6)), bf16_ref(lambda x: np.sum(x, axis=1)), axis=1, rtol=2e-2, atol=2e-2,
          name="bfloat16"),
    ]),
    "mean": reduce_cases(np.mean),
    "max": reduce_cases(np.max, [
        C(rand((3, 4), np.int8, -100, 100), reduce_ref(np.max, axis=1), axis=1, name="int8"),
        C(_nan_input, reduce_ref(np.max, axis=1), axis=1, name="nan_propagates"),
        C(rand_bf16((3, 5)), bf16_ref(lambda x: np.max(x, axis=0)), axis=0, name="bfloat16"),
    ]),
    "min": reduce_cases(np.min, [
        C(rand((3, 4), np.int32, -100, 100), reduce_ref(np.min, axis=0), axis=0, name="int32"),
    ]),
    "prod": reduce_cases(np.prod, [
        C(rand((3, 4), np.int32, 1, 5), reduce_ref(np.prod, acc=np.int64, axis=1), axis=1, name="int32"),
    ]),
    "nansum": [
        C(_nan_input, reduce_ref(np.nansum, axis=1), axis=1, name="nan_row"),
        C(_nan_input, reduce_ref(np.nansum), name="all"),
    ],
    "nanprod": [
        C(_nan_input, reduce_ref(np.nanprod, axis=0), axis=0, name="nan_col"),
        C(_nan_input, reduce_ref(np.nanprod), rtol=1e-4, name="all"),
    ],
    "norm": [
        C(rand((3, 4)), lambda x: np.sqrt(np.sum(x * x)).reshape(1).astype(F32), name="l2_all"),
        C(rand((3, 4)), lambda x: np.sum(np.abs(x), axis=1).astype(F32), ord=1, axis=1, name="l1_axis1"),
        C(rand((2, 3, 4)), lambda x: np.sqrt(np.sum(x * x, axis=(1, 2), keepdims=True)).astype(F32),
          axis=(1, 2), keepdims=True, name="l2_keepdims"),
        C(rand((2, 5), F64), lambda x: np.linalg.norm(x, axis=-1), axis=-1, name="float64"),
        C(rand((2, 5), F16), lambda x: np.linalg.norm(x.astype(F32), axis=0).astype(F16), axis=0,
          rtol=1e-2, atol=1e-2, name="float16"),
    ],
    "argmax": [
        C(rand((3, 5)), lambda x: np.argmax(x, axis=1).astype(F32), axis=1, name="axis1"),
        C(rand((3, 5)), lambda x: np.argmax(x).reshape(1).astype(F32), name="flat"),
        C(rand((2, 3, 4)), lambda x: np.argmax(x, axis=0)[None].astype(F32), axis=0, keepdims=True,
          name="keepdims"),
        C(rand((4, 6), F64), lambda x: np.argmax(x, axis=-1).astype(F64), axis=-1, name="float64"),
        C(rand((4, 6), np.int32, -50, 50), lambda x: np.argmax(x, axis=0).astype(np.int32), axis=0,
          name="int32"),
        C([np.array([[1, 3, 3], [2, 2, 0]], F32)], lambda x: np.array([1, 0], F32), axis=1, name="ties_first"),
    ],
    "argmin": [
        C(rand((3, 5)), lambda x: np.argmin(x, axis=1).astype(F32), axis=1, name="axis1"),
        C(rand((3, 5)), lambda x: np.argmin(x).reshape(1).astype(F32), name="flat"),
        C(rand((4, 6), F16), lambda x: np.argmin(x, axis=0).astype(F16), axis=0, name="float16"),
    ],
}


# ---- dot / batch_dot ----------------------------------------------------------------------------

def dot_ref(ta=False, tb=False):
    def ref(a, b):
        acc = F64 if a.dtype.kind == "f" else np.int64
        if a.ndim == 1 and b.ndim == 1:
            return np.array([np.dot(a.astype(acc), b.astype(acc))]).astype(a.dtype)
        la = np.moveaxis(a, 0, -1) if ta else a  # contracted axis last
        lb = np.moveaxis(b, -1, 0) if tb else b  # contracted axis first
        return np.tensordot(la.astype(acc), lb.astype(acc), axes=([-1], [0])).astype(a.dtype)
    return ref


def batch_dot_ref(ta=False, tb=False):
    def ref(a, b):
        la = np.swapaxes(a, -1, -2) if ta else a
        lb = np.swapaxes(b, -1, -2) if tb else b
        return np.matmul(la.astype(F64), lb.astype(F64)).astype(a.dtype)
    return ref


CASES["dot"] = [
    C(ins(rand((4, 5)), rand((5, 3))), dot_ref(), rtol=1e-4, atol=1e-5, name="2d"),
    C(ins(rand((5, 4)), rand((5, 3))), dot_ref(ta=True), transpose_a=True, rtol=1e-4, atol=1e-5, name="ta"),
    C(ins(rand((4, 5)), rand((3, 5))), dot_ref(tb=True), transpose_b=True, rtol=1e-4, atol=1e-5, name="tb"),
    C(ins(rand((5, 4)), rand((3, 5))), dot_ref(True, True), transpose_a=True, transpose_b=True,
      rtol=1e-4, atol=1e-5, name="ta_tb"),
    C(ins(rand((2, 3, 4)), rand((4, 5))), dot_ref(), rtol=1e-4, atol=1e-5, name="3d_x_2d"),
    C(ins(rand((2, 3, 4)), rand((4, 2, 5))), dot_ref(), rtol=1e-4, atol=1e-5, name="3d_x_3d"),
    C(ins(rand((4, 2, 3)), rand((5, 4))), dot_ref(True, True), transpose_a=True, transpose_b=True,
      rtol=1e-4, atol=1e-5, name="nd_transposed"),
    C(ins(rand((6,)), rand((6,))), dot_ref(), rtol=1e-4, atol=1e-5, name="1d_x_1d"),
    C(ins(rand((6,)), rand((6, 2))), dot_ref(), rtol=1e-4, atol=1e-5, name="1d_x_2d"),
    C(ins(rand((3, 6)), rand((6,))), dot_ref(), rtol=1e-4, atol=1e-5, name="2d_x_1d"),
    C(ins(rand((4, 5), F64), rand((5, 3), F64)), dot_ref(), rtol=1e-10, atol=1e-12, name="float64"),
    C(ins(rand((4, 5), F16), rand((5, 3), F16)), dot_ref(), rtol=1e-2, atol=1e-2, name="float16"),
    C(ins(rand((4, 5), np.int32, -9, 9), rand((5, 3), np.int32, -9, 9)), dot_ref(), name="int32"),
    C(ins(rand_bf16((3, 4)), rand_bf16((4, 2))), bf16_ref(np.dot), rtol=2e-2, atol=2e-2, name="bfloat16"),
]
CASES["batch_dot"] = [
    C(ins(rand((3, 2, 4)), rand((3, 4, 5))), batch_dot_ref(), rtol=1e-4, atol=1e-5, name="plain"),
    C(ins(rand((3, 4, 2)), rand((3, 5, 4))), batch_dot_ref(True, True), transpose_a=True, transpose_b=True,
      rtol=1e-4, atol=1e-5, name="ta_tb"),
    C(ins(rand((2, 3, 2, 4), F64), rand((2, 3, 4, 2), F64)), batch_dot_ref(), rtol=1e-10, atol=1e-12,
      name="4d_float64"),
    C(ins(rand((2, 3, 4), np.int64, -5, 5), rand((2, 3, 4), np.int64, -5, 5)), batch_dot_ref(tb=True),
      transpose_b=True, name="int64"),
]


# ---- layout ----------------------------------------------------------------------------------------

def reshape_case(in_shape, shape, out_shape, reverse=False, dtype=F32):
    attrs = {"shape": shape}
    if reverse:
        attrs["reverse"] = True
    return C(rand(in_shape, dtype, 0, 100), lambda x: x.reshape(out_shape),
             name="%s->%s%s" % (shape, out_shape, "_rev" if reverse else ""), **attrs)


CASES["transpose"] = [
    C(rand((3, 4)), lambda x: x.T.copy(), name="2d_default"),
    C(rand((2, 3, 4)), lambda x: x.transpose(), name="3d_default"),
    C(rand((2, 3, 4, 5)), lambda x: x.transpose(0, 2, 1, 3), axes=(0, 2, 1, 3), name="middle"),
    C(rand((2, 3, 4)), lambda x: x.transpose(1, 2, 0), axes=(1, -1, 0), name="negative_axis"),
    C(rand((64, 33), F16), lambda x: x.T.copy(), name="float16"),
    C(rand((3, 4, 5), np.int8, -100, 100), lambda x: x.transpose(2, 0, 1), axes=(2, 0, 1), name="int8"),
    C(rand((3, 4), np.bool_), lambda x: x.T.copy(), name="bool"),
    C(rand_bf16((3, 4)), bf16_ref(lambda x: x.T), name="bfloat16"),
    C(rand((2, 1, 3), F64), lambda x: x.transpose(1, 0, 2), axes=(1, 0, 2), name="unit_dim"),
]
CASES["Reshape"] = [
    reshape_case((2, 3, 4), (4, 0, 2), (4, 3, 2)),
    reshape_case((2, 3, 4), (6, 1, -1), (6, 1, 4)),
    reshape_case((2, 3, 4), (-1,), (24,)),
    reshape_case((2, 3, 4), (0, -1), (2, 12)),
    reshape_case((2, 3, 4), (-2,), (2, 3, 4)),
    reshape_case((2, 3, 4), (2, -2), (2, 3, 4)),
    reshape_case((2, 3, 4), (-2, 1, 1), (2, 3, 4, 1, 1)),
    reshape_case((2, 3, 4), (-3, 4), (6, 4)),
    reshape_case((2, 3, 4, 5), (-3, -3), (6, 20)),
    reshape_case((2, 3, 4), (0, -3), (2, 12)),
    reshape_case((2, 3, 4), (-3, -2), (6, 4)),
    reshape_case((2, 3, 4), (-4, 1, 2, -2), (1, 2, 3, 4)),
    reshape_case((2, 3, 4), (2, -4, -1, 3, -2), (2, 1, 3, 4)),
    reshape_case((2, 3, 4), (-4, 2, -1, 0, 0), (2, 1, 3, 4)),
    reshape_case((10, 5, 4), (-1, 0), (50, 4), reverse=True),
    reshape_case((10, 5, 4), (-1, 0), (40, 5)),
    reshape_case((2, 3, 4), (0, 0, -1), (2, 3, 4), reverse=True, dtype=np.int32),
    reshape_case((6,), (3, 2), (3, 2), dtype=F16),
    reshape_case((2, 2), (4,), (4,), dtype=np.bool_),
]
CASES["Flatten"] = [
    C(rand((2, 3, 4)), lambda x: x.reshape(2, 12), name="3d"),
    C(rand((5,)), lambda x: x.reshape(5, 1), name="1d"),
    C(rand((2, 3), np.int64, -5, 5), lambda x: x.copy(), name="2d_int64"),
]
CASES["expand_dims"] = [
    C(rand((2, 3)), lambda x: np.expand_dims(x, 0), axis=0, name="front"),
    C(rand((2, 3)), lambda x: np.expand_dims(x, 2), axis=2, name="end"),
    C(rand((2, 3)), lambda x: np.expand_dims(x, -1), axis=-1, name="negative"),
    C(rand((2, 3), np.uint8, 0, 200), lambda x: np.expand_dims(x, 1), axis=1, name="uint8"),
]
CASES["squeeze"] = [
    C(rand((1, 3, 1, 2)), lambda x: x.reshape(3, 2), name="all"),
    C(rand((1, 3, 1, 2)), lambda x: x.reshape(1, 3, 2), axis=2, name="axis"),
    C(rand((1, 3, 1, 2)), lambda x: x.reshape(3, 2), axis=(0, -2), name="axes"),
    C(rand((1, 1)), lambda x: x.reshape(1), name="to_1d"),
    C(rand((2, 1), np.int32, 0, 9), lambda x: x.reshape(2), name="int32"),
]
CASES["_copyto"] = [
    C(rand((3, 4)), lambda x: x.copy(), name="float32"),
    C(rand((5,), np.int64, -9, 9), lambda x: x.copy(), name="int64"),
    C(rand((2, 2), F16), lambda x: x.copy(), name="float16"),
]


# ---- Concat / stack / split ------------------------------------------------------------------------

CASES["Concat"] = [
    C(ins(rand((2, 3)), rand((2, 4)), rand((2, 1))), lambda *x: np.concatenate(x, axis=1), name="dim1"),
    C(ins(rand((2, 3)), rand((3, 3))), lambda *x: np.concatenate(x, axis=0), dim=0, name="dim0"),
    C(ins(rand((2, 3, 2), np.int32, 0, 9), rand((2, 3, 5), np.int32, 0, 9)),
      lambda *x: np.concatenate(x, axis=-1), dim=-1, name="last_int32"),
    C(ins(rand((4, 2), F16)), lambda x: x.copy(), name="single"),
    C(ins(rand_bf16((2, 3)), rand_bf16((2, 2))), bf16_ref(lambda *x: np.concatenate(x, axis=1)), name="bfloat16"),
]
# Concat's kernels; its own part is shape inference (tests/python/test_rnn_param_concat.py).
CASES["_rnn_param_concat"] = [
    C(ins(rand((12,)), rand((8,)), rand((4,))), lambda *x: np.concatenate(x, axis=0), dim=0, name="flat_weights"),
    C(ins(rand((2, 3)), rand((2, 4))), lambda *x: np.concatenate(x, axis=1), name="default_dim1"),
]
CASES["stack"] = [
    C(ins(rand((2, 3)), rand((2, 3))), lambda *x: np.stack(x, axis=0), name="axis0"),
    C(ins(rand((2, 3)), rand((2, 3)), rand((2, 3))), lambda *x: np.stack(x, axis=2), axis=2, name="axis_end"),
    C(ins(rand((2, 3), np.int8, -9, 9), rand((2, 3), np.int8, -9, 9)), lambda *x: np.stack(x, axis=-2),
      axis=-2, name="negative_int8"),
]
CASES["SliceChannel"] = [
    C(rand((2, 6)), lambda x: tuple(np.split(x, 3, axis=1)), num_outputs=3, name="axis1"),
    C(rand((4, 3)), lambda x: tuple(np.split(x, 2, axis=0)), num_outputs=2, axis=0, name="axis0"),
    C(rand((2, 3, 4)), lambda x: tuple(p.squeeze(1) for p in np.split(x, 3, axis=1)), num_outputs=3,
      squeeze_axis=True, name="squeeze"),
    C(rand((2, 4), np.int32, 0, 9), lambda x: tuple(np.split(x, 2, axis=-1)), num_outputs=2, axis=-1,
      name="int32"),
    C(rand((3, 2)), lambda x: (x.copy(),), num_outputs=1, name="one_output"),
]


# ---- slicing --------------------------------------------------------------------------------------

def _py_slices(begin, end, step=None):
    step = step or (None,) * len(begin)
    return tuple(slice(b, e, s) for b, e, s in zip(begin, end, step))


def slice_case(shape, begin, end, step=None, dtype=F32, name=""):
    attrs = {"begin": begin, "end": end}
    if step is not None:
        attrs["step"] = step
    sl = _py_slices(begin, end, step)
    return C(rand(shape, dtype, 0, 100), lambda x: x[sl], name=name or str(attrs), **attrs)


def slice_assign_case(shape, begin, end, step=None, dtype=F32, name=""):
    sl = _py_slices(begin, end, step)
    region = np.empty(shape)[sl].shape
    attrs = {"begin": begin, "end": end}
    if step is not None:
        attrs["step"] = step

    def ref(lhs, rhs):
        y = lhs.copy()
        y[sl] = rhs
        return y
    return C(ins(rand(shape, dtype, 0, 100), rand(region, dtype, 0, 100)), ref, name=name or str(attrs), **attrs)


def slice_scalar_case(shape, scalar, begin, end, step=None, dtype=F32, name=""):
    sl = _py_slices(begin, end, step)
    attrs = {"scalar": scalar, "begin": begin, "end": end}
    if step is not None:
        attrs["step"] = step

    def ref(x):
        y = x.copy()
        y[sl] = scalar
        return y
    return C(rand(shape, dtype, 0, 100), ref, name=name or str(attrs), **attrs)


CASES["slice"] = [
    slice_case((4, 5), (1, 0), (3, 5)),
    slice_case((4, 5), (1,), (3,), name="prefix_axes"),
    slice_case((4, 5), (None, 1), (None, None), name="none_entries"),
    slice_case((4, 5, 6), (0, None, 1), (4, None, 6), (2, None, 2), name="steps"),
    slice_case((4, 5), (None, None), (None, None), (-1, -2), name="negative_steps"),
    slice_case((4, 5), (-3, -4), (-1, 100), name="negative_and_clamped"),
    slice_case((6,), (5,), (1,), (-2,), name="backward"),
    slice_case((4, 5), (3,), (1,), name="empty"),
    slice_case((3, 4), (0, 1), (2, 3), dtype=np.int64, name="int64"),
    slice_case((3, 4), (1, None), (None, None), (1, 3), dtype=F16, name="float16"),
]
CASES["slice_axis"] = [
    C(rand((4, 5)), lambda x: x[:, 1:3], axis=1, begin=1, end=3, name="axis1"),
    C(rand((4, 5)), lambda x: x[-3:], axis=0, begin=-3, end=None, name="end_none"),
    C(rand((2, 3, 4)), lambda x: x[..., 1:-1], axis=-1, begin=1, end=-1, name="negative"),
    C(rand((2, 3), np.int32, 0, 9), lambda x: x[:, 0:0], axis=1, begin=0, end=0, name="empty_int32"),
]
CASES["_slice_assign"] = [
    slice_assign_case((4, 5), (1, 1), (3, 4)),
    slice_assign_case((4, 5), (None, None), (None, None), (2, -1), name="steps"),
    slice_assign_case((3, 4, 2), (1,), (2,), name="prefix"),
    slice_assign_case((4, 4), (0, 0), (4, 4), (1, 3), dtype=np.int32, name="int32"),
]
CASES["_slice_assign_scalar"] = [
    slice_scalar_case((4, 5), 7.5, (1, 1), (3, 4)),
    slice_scalar_case((4, 5), -1.0, (None,), (None,), (-2,), name="backward_rows"),
    slice_scalar_case((3, 4), 3.0, (0, 1), (3, None), (1, 2), dtype=np.uint8, name="uint8"),
]


# ---- indexing --------------------------------------------------------------------------------------

def take_ref(axis=0, mode="clip"):
    def ref(a, idx):
        return np.take(a, idx.astype(np.int64), axis=axis, mode=mode)
    return ref


def pick_ref(axis=-1, keepdims=False, mode="clip"):
    def ref(x, idx):
        n = x.shape[axis]
        i = idx.astype(np.int64)
        i = np.clip(i, 0, n - 1) if mode == "clip" else np.mod(i, n)
        i = i if keepdims else np.expand_dims(i, axis)
        y = np.take_along_axis(x, i, axis=axis)
        return y if keepdims else np.squeeze(y, axis)
    return ref


def one_hot_ref(depth, on=1.0, off=0.0, dtype=F32):
    def ref(idx):
        hot = idx.astype(np.int64)[..., None] == np.arange(depth)
        return np.where(hot, on, off).astype(dtype)
    return ref


def _gather_ref(data, idx):
    return data[tuple(idx.astype(np.int64))]


def _scatter_ref(lhs, rhs, idx):
    y = lhs.copy()
    y[tuple(idx.astype(np.int64))] = rhs
    return y


CASES["take"] = [
    C(ins(rand((5, 3)), np.array([0, 4, 2, 2], F32)), take_ref(), name="axis0"),
    C(ins(rand((3, 5)), np.array([[0, 1], [4, 3]], np.int32)), take_ref(axis=1), axis=1, name="axis1_2d_idx"),
    C(ins(rand((4, 3)), np.array([-1, 5, 2], F32)), take_ref(), name="clip"),
    C(ins(rand((4, 3)), np.array([-1, 5, 9, -6], np.int64)), take_ref(mode="wrap"), mode="wrap", name="wrap"),
    C(ins(rand((4, 3)), np.array([-1, 3, 0], np.int32)), take_ref(mode="raise"), mode="raise", name="raise_ok"),
    C(ins(rand((2, 3, 4), np.int8, -9, 9), np.array([3, 0], F32)), take_ref(axis=-1), axis=-1, name="int8"),
    C(ins(rand((5,), F64), np.array(2.0, F32)), take_ref(), name="scalar_index"),
]
CASES["pick"] = [
    C(ins(rand((3, 4)), np.array([0, 3, 1], F32)), pick_ref(), name="last_axis"),
    C(ins(rand((3, 4)), np.array([2, 0, 1, 2], F32)), pick_ref(axis=0), axis=0, name="axis0"),
    C(ins(rand((3, 4)), np.array([[1], [2], [3]], F32)), pick_ref(keepdims=True), keepdims=True, name="keepdims"),
    C(ins(rand((2, 3, 4)), np.array([[-1, 5, 2, 0], [1, 1, 9, 2]], np.int32)), pick_ref(axis=1), axis=1,
      name="clip"),
    C(ins(rand((2, 5)), np.array([-1, 7], F32)), pick_ref(mode="wrap"), mode="wrap", name="wrap"),
    C(ins(rand((3, 4), np.int32, 0, 50), np.array([1, 1, 1], F32)), pick_ref(), name="int32"),
]
CASES["one_hot"] = [
    C([np.array([1, 0, 2, 3], F32)], one_hot_ref(4), depth=4, name="basic"),
    C([np.array([[1, 5], [-1, 0]], np.int32)], one_hot_ref(3), depth=3, name="out_of_range_2d"),
    C([np.array([0, 2], F32)], one_hot_ref(3, 5.0, -1.0, np.int32), depth=3, on_value=5.0, off_value=-1.0,
      dtype="int32", name="values_int32"),
    C([np.array([1, 0], np.int64)], one_hot_ref(2, dtype=F16), depth=2, dtype="float16", name="float16"),
]
CASES["gather_nd"] = [
    C(ins(rand((3, 4)), np.array([[0, 2, 1], [3, 0, 1]], F32)), _gather_ref, name="full_index"),
    C(ins(rand((3, 4, 2)), np.array([[2, 0]], np.int32)), _gather_ref, name="partial_index"),
    C(ins(rand((3, 4)), np.array([[-1], [-4]], np.int64)), _gather_ref, name="negative"),
    C(ins(rand((2, 3), np.int32, 0, 9), np.array([[[0, 1], [1, 0]], [[2, 2], [0, 1]]], F32)), _gather_ref,
      name="2d_positions_int32"),
]
CASES["_scatter_set_nd"] = [
    C(ins(rand((3, 4)), rand((3,)), np.array([[0, 2, 1], [3, 0, 1]], F32)), _scatter_ref, shape=(3, 4),
      name="elements"),
    C(ins(rand((3, 4)), rand((2, 4)), np.array([[2, 0]], np.int32)), _scatter_ref, shape=(3, 4), name="rows"),
    C(ins(rand((2, 3), np.int64, 0, 9), rand((2,), np.int64, 0, 9), np.array([[1, 0], [2, 0]], np.int32)),
      _scatter_ref, name="int64_no_shape"),
]
