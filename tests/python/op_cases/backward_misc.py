"""Cases of the gradient helper operators (core/op/reduce/reduce_backward.cc, core/op/index/indexing_backward.cc, core/op/shape/shape_backward.cc): the sum
back to a broadcast input's shape, the broadcasts back over reduced axes, the
dot products, the scatters behind take/pick/gather_nd/slice_axis, and the
shape-carrying gradients of Reshape, Cast, Concat and UpSampling. References
are NumPy; the dot products are checked against finite differences of the
forward reference (exact up to rounding for these linear maps)."""
import numpy as np

from .nn_ref import F32, F64, C, fd, ins, rand
from .tensor import batch_dot_ref, dot_ref


def ints(shape, lo, hi, dtype=F32):
    def make(rng):
        return rng.integers(lo, hi, size=shape).astype(dtype)
    return make


def fixed(values, dtype=F32):
    return lambda rng: np.asarray(values, dtype=dtype)


# ---- sums and broadcasts ---------------------------------------------------------------------------

def sum_to_shape_ref(g, like):
    lead = g.ndim - like.ndim
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(like.shape) if d == 1 and g.shape[lead + i] != 1)
    return np.sum(g.astype(F64), axis=axes).reshape(like.shape).astype(g.dtype)


def reduced_axes(ndim, axis=None, exclude=False):
    if axis is None or len(axis) == 0:
        return tuple(range(ndim))
    axes = tuple(a % ndim for a in axis)
    return tuple(i for i in range(ndim) if (i in axes) != exclude)


def broadcast_back_ref(mean=False, axis=None, exclude=False, **_):
    def ref(g, data):
        red = reduced_axes(data.ndim, axis, exclude)
        kept = tuple(1 if i in red else d for i, d in enumerate(data.shape))
        y = np.broadcast_to(g.astype(F64).reshape(kept), data.shape)
        if mean:
            y = y / np.prod([data.shape[i] for i in red])
        return y.astype(g.dtype)
    return ref


# ---- dot ------------------------------------------------------------------------------------------

def dot_grad_ref(forward):
    def ref(g, a, b):
        return fd(forward, [a, b], 0, g).astype(a.dtype), fd(forward, [a, b], 1, g).astype(b.dtype)
    return ref


def dot_case(lshape, rshape, oshape, ta=False, tb=False, name="", batch=False):
    fwd = (batch_dot_ref if batch else dot_ref)(ta, tb)
    return C(ins(rand(oshape, F64), rand(lshape, F64), rand(rshape, F64)), dot_grad_ref(fwd), name=name,
             rtol=1e-6, atol=1e-7, transpose_a=ta, transpose_b=tb)


# ---- scatters -------------------------------------------------------------------------------------

def fix_index(i, n, mode):
    if mode == "clip":
        return np.clip(i, 0, n - 1)
    if mode == "wrap":
        return np.mod(i, n)
    return np.where(i < 0, i + n, i)


def take_grad_ref(axis=0, mode="clip"):
    def ref(g, idx, a):
        ax = axis % a.ndim
        i = fix_index(idx.astype(np.int64).ravel(), a.shape[ax], mode)
        out = np.zeros(a.shape, F64)
        gm = np.moveaxis(g.astype(F64).reshape(a.shape[:ax] + (i.size,) + a.shape[ax + 1:]), ax, 0)
        om = np.moveaxis(out, ax, 0)
        np.add.at(om, i, gm)
        return out.astype(g.dtype)
    return ref


def pick_grad_ref(axis=-1, keepdims=False, mode="clip"):
    def ref(g, idx, data):
        ax = axis % data.ndim
        i = fix_index(idx.astype(np.int64), data.shape[ax], mode)
        kept = data.shape[:ax] + (1,) + data.shape[ax + 1:]
        out = np.zeros(data.shape, F64)
        np.put_along_axis(out, i.reshape(kept), g.astype(F64).reshape(kept), axis=ax)
        return out.astype(g.dtype)
    return ref


def gather_nd_grad_ref(g, idx, data):
    out = np.zeros(data.shape, F64)
    np.add.at(out, tuple(idx.astype(np.int64)), g.astype(F64))
    return out.astype(g.dtype)


def slice_axis_grad_ref(axis, begin, end=None):
    def ref(g, data):
        out = np.zeros(data.shape, g.dtype)
        sl = [slice(None)] * data.ndim
        stop = data.shape[axis] if end is None else end
        sl[axis] = slice(begin, stop)
        out[tuple(sl)] = g
        return out
    return ref


# ---- Concat / UpSampling --------------------------------------------------------------------------

def concat_grad_ref(dim=1, **_):
    def ref(g, *args):
        cuts = np.cumsum([a.shape[dim] for a in args])[:-1]
        return tuple(np.split(g, cuts, axis=dim))
    return ref


def upsampling_grad_ref(multi_input_mode="concat", **_):
    def ref(g, *args):
        outs, c0 = [], 0
        for a in args:
            n, c, h, w = a.shape
            s = g.shape[2] // h
            part = g[:, c0:c0 + c] if multi_input_mode == "concat" else g
            outs.append(part.astype(F64).reshape(n, c, h, s, w, s).sum(axis=(3, 5)).astype(g.dtype))
            c0 += c if multi_input_mode == "concat" else 0
        return tuple(outs)
    return ref


CASES = {
    "_broadcast_backward": [
        C(ins(rand((3, 2, 4)), rand((2, 1))), sum_to_shape_ref, name="fewer_dims"),
        C(ins(rand((3, 2, 4), F64), rand((3, 1, 4), F64)), sum_to_shape_ref, name="unit_axis_f64"),
        C(ins(rand((2, 3)), rand((2, 3))), sum_to_shape_ref, name="same_shape"),
    ],
    "_backward_sum": [
        C(ins(rand((2, 4)), rand((2, 3, 4))), broadcast_back_ref(axis=(1,)), name="axis1", axis=(1,)),
        C(ins(rand((1,), F64), rand((2, 3), F64)), broadcast_back_ref(), name="all_axes"),
        C(ins(rand((2, 1, 1)), rand((2, 3, 4))), broadcast_back_ref(axis=(0,), exclude=True), name="exclude_keepdims",
          axis=(0,), exclude=True, keepdims=True),
    ],
    "_backward_mean": [
        C(ins(rand((3,), F64), rand((2, 3, 4), F64)), broadcast_back_ref(True, axis=(0, -1)), name="axes",
          axis=(0, -1)),
        C(ins(rand((1,)), rand((4, 5))), broadcast_back_ref(True), name="all_axes"),
    ],
    "_backward_dot": [
        dot_case((2, 3), (3, 4), (2, 4), name="2d"),
        dot_case((3, 2), (4, 3), (2, 4), True, True, name="ta_tb"),
        dot_case((2, 2, 3), (3, 2, 2), (2, 2, 2, 2), name="nd"),
        dot_case((3,), (3,), (1,), name="vectors"),
        dot_case((3,), (3, 4), (4,), name="vector_matrix"),
    ],
    "_backward_batch_dot": [
        dot_case((2, 2, 3), (2, 3, 4), (2, 2, 4), name="plain", batch=True),
        dot_case((2, 3, 2), (2, 4, 3), (2, 2, 4), True, True, name="transposed", batch=True),
    ],
    "_backward_reshape": [
        C(ins(rand((4, 6)), rand((2, 3, 4))), lambda g, d: g.reshape(d.shape), name="float32"),
        C(ins(rand((6,), F64), rand((2, 3, 1), F64)), lambda g, d: g.reshape(d.shape), name="float64"),
    ],
    "_backward_Cast": [
        C(ins(rand((2, 3), F32), rand((2, 3), F64)), lambda g, d: g.astype(F64), name="to_float64"),
        C(ins(rand((4,), F64), rand((4,), F32)), lambda g, d: g.astype(F32), name="to_float32"),
        C(ins(rand((2, 1), F32), rand((2, 3), F64)), lambda g, d: g.astype(F64), name="other_shape"),
    ],
    "_backward_Concat": [
        C(ins(rand((2, 6)), rand((2, 3)), rand((2, 1)), rand((2, 2))), concat_grad_ref(1), name="dim1", num_args=3,
          dim=1),
        C(ins(rand((3, 2), F64), rand((1, 2), F64), rand((2, 2), F64)), concat_grad_ref(0), name="dim0", num_args=2,
          dim=0),
    ],
    "_backward_UpSampling_multi": [
        C(ins(rand((1, 3, 4, 4)), rand((1, 2, 2, 2)), rand((1, 1, 4, 4))), upsampling_grad_ref(), name="concat",
          num_args=2),
        C(ins(rand((2, 2, 4, 4), F64), rand((2, 2, 2, 2), F64), rand((2, 2, 1, 1), F64)),
          upsampling_grad_ref("sum"), name="sum", num_args=2, multi_input_mode="sum"),
    ],
    "_backward_slice_axis": [
        C(ins(rand((3, 2, 5)), rand((3, 4, 5))), slice_axis_grad_ref(1, 1, 3), name="middle", axis=1, begin=1, end=3),
        C(ins(rand((2, 3), F64), rand((5, 3), F64)), slice_axis_grad_ref(0, 3), name="negative_begin", axis=0,
          begin=-2),
    ],
    "_backward_take": [
        C(ins(rand((2, 2, 3)), fixed([[0, 3], [3, 1]]), rand((4, 3))), take_grad_ref(), name="repeats"),
        C(ins(rand((2, 4), F64), fixed([-1, 4, 1, 2], F64), rand((2, 3), F64)), take_grad_ref(1, "wrap"),
          name="wrap", axis=1, mode="wrap"),
        C(ins(rand((3, 2)), fixed([5, -1, 0], np.int32), rand((3, 2))), take_grad_ref(0, "clip"), name="clip_int_idx"),
    ],
    "_backward_pick": [
        C(ins(rand((3,)), fixed([0, 3, 1]), rand((3, 4))), pick_grad_ref(1), name="axis1", axis=1),
        C(ins(rand((1, 2, 2), F64), fixed([[[2, 0], [1, 5]]], F64), rand((3, 2, 2), F64)),
          pick_grad_ref(0, True, "wrap"), name="keepdims_wrap", axis=0, keepdims=True, mode="wrap"),
    ],
    "_backward_gather_nd": [
        C(ins(rand((3,)), fixed([[0, 2, 0], [3, 1, 3]]), rand((3, 4))), gather_nd_grad_ref, name="repeats"),
        C(ins(rand((2, 2), F64), fixed([[2, -3]]), rand((3, 2), F64)), gather_nd_grad_ref, name="slices"),
    ],
}
