"""Cases of the layout ops that are one strided copy (core/op/shape/view_plan.h:
tile, repeat, reverse, SwapAxis, depth_to_space, space_to_depth, diag,
slice_like, Crop and their backward ops), reshape_like, _np_reshape, shape_array,
size_array, and the sort family (core/op/sort: topk, sort, argsort,
_backward_topk). References are NumPy, written from MXNet 1.9.1's documented
semantics (depth_to_space/space_to_depth in MXNet's DCR layout; topk's indices
in the `dtype` parameter, float32 by default)."""
import numpy as np

from .tensor import F32, F64, C, ins, rand

I32, I64 = np.int32, np.int64


def distinct(shape, dtype=F32):
    """A permutation of distinct values (no ties for the sort order to break)."""
    def make(rng):
        n = int(np.prod(shape))
        return (rng.permutation(n).reshape(shape) - n // 2).astype(dtype) * (0.5 if dtype in (F32, F64) else 1)
    return make


# ---- tile / repeat ----------------------------------------------------------------------------------

def tile_ref(reps):
    return lambda x: np.tile(x, reps)


def tile_grad_ref(reps):
    def ref(g, x):
        r = (1,) * (x.ndim - len(reps)) + tuple(reps)
        d = (1,) * (len(r) - x.ndim) + x.shape
        view = g.astype(F64).reshape(sum(((ri, di) for ri, di in zip(r, d)), ()))
        return view.sum(axis=tuple(range(0, 2 * len(r), 2))).reshape(x.shape).astype(g.dtype)
    return ref


def repeat_grad_ref(repeats, axis=None):
    def ref(g, x):
        if axis is None:
            return g.astype(F64).reshape(x.size, repeats).sum(axis=1).reshape(x.shape).astype(g.dtype)
        ax = axis % x.ndim
        shape = x.shape[:ax] + (x.shape[ax], repeats) + x.shape[ax + 1:]
        return g.astype(F64).reshape(shape).sum(axis=ax + 1).astype(g.dtype)
    return ref


CASES = {
    "tile": [
        C(rand((2, 3)), tile_ref((2, 2)), reps=(2, 2), name="2d"),
        C(rand((2, 3), F64), tile_ref((3,)), reps=(3,), name="short_reps"),
        C(rand((3,)), tile_ref((2, 1, 2)), reps=(2, 1, 2), name="long_reps"),
        C(rand((2, 3), I32, -50, 50), tile_ref((1, 0)), reps=(1, 0), name="zero_rep_int32"),
        C(rand((2, 1, 3), np.int8, -100, 100), tile_ref(()), reps=(), name="empty_reps_int8"),
    ],
    "_backward_tile": [
        C(ins(rand((4, 6)), rand((2, 3))), tile_grad_ref((2, 2)), reps=(2, 2), name="2d"),
        C(ins(rand((2, 1, 6), F64), rand((3,), F64)), tile_grad_ref((2, 1, 2)), reps=(2, 1, 2), name="long_reps"),
    ],
    "repeat": [
        C(rand((2, 3)), lambda x: np.repeat(x, 2, axis=1), repeats=2, axis=1, name="axis1"),
        C(rand((2, 3), F64), lambda x: np.repeat(x, 3), repeats=3, name="flat"),
        C(rand((2, 3, 2), I64, -9, 9), lambda x: np.repeat(x, 2, axis=-1), repeats=2, axis=-1, name="negative_axis"),
        C(rand((2, 3)), lambda x: np.repeat(x, 0, axis=0), repeats=0, axis=0, name="zero"),
    ],
    "_backward_repeat": [
        C(ins(rand((2, 6)), rand((2, 3))), repeat_grad_ref(2, 1), repeats=2, axis=1, name="axis1"),
        C(ins(rand((18,), F64), rand((2, 3), F64)), repeat_grad_ref(3), repeats=3, name="flat"),
    ],
    "reverse": [
        C(rand((2, 3, 4)), lambda x: x[:, :, ::-1], axis=(2,), name="last"),
        C(rand((2, 3, 4), F64), lambda x: x[::-1, :, ::-1], axis=(0, -1), name="two_axes"),
        C(rand((5,), I32, -9, 9), lambda x: x[::-1], axis=(0,), name="int32"),
    ],
    "SwapAxis": [
        C(rand((2, 3, 4)), lambda x: np.swapaxes(x, 0, 2), dim1=0, dim2=2, name="outer"),
        C(rand((2, 3, 4), F64), lambda x: np.swapaxes(x, 1, 2), dim1=1, dim2=-1, name="negative"),
        C(rand((2, 3)), lambda x: x.copy(), name="default_noop"),
        C(rand((3, 1, 2), I64, -9, 9), lambda x: np.swapaxes(x, 0, 1), dim1=0, dim2=1, name="int64"),
    ],
}


# ---- depth_to_space / space_to_depth --------------------------------------------------------------

def d2s_ref(b):
    def ref(x):
        n, c, h, w = x.shape
        y = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
        return y.reshape(n, c // (b * b), h * b, w * b)
    return ref


def s2d_ref(b):
    def ref(x):
        n, c, h, w = x.shape
        y = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
        return y.reshape(n, c * b * b, h // b, w // b)
    return ref


CASES["depth_to_space"] = [
    C(rand((2, 8, 2, 3)), d2s_ref(2), block_size=2, name="b2"),
    C(rand((1, 9, 2, 2), F64), d2s_ref(3), block_size=3, name="b3"),
    C(rand((1, 4, 1, 2), I32, -9, 9), d2s_ref(1), block_size=1, name="b1_int32"),
]
CASES["space_to_depth"] = [
    C(rand((2, 2, 4, 6)), s2d_ref(2), block_size=2, name="b2"),
    C(rand((1, 1, 3, 6), F64), s2d_ref(3), block_size=3, name="b3"),
]


# ---- diag ------------------------------------------------------------------------------------------

def diag_ref(k=0, axis1=0, axis2=1):
    def ref(x):
        if x.ndim == 1:
            return np.diag(x, k)
        return np.diagonal(x, k, axis1, axis2).copy()
    return ref


def diag_grad_ref(k=0, axis1=0, axis2=1):
    def ref(g, x):
        if x.ndim == 1:
            return np.diagonal(g, k).copy()
        a1, a2 = axis1 % x.ndim, axis2 % x.ndim
        z = np.zeros(x.shape, g.dtype)
        zt = np.moveaxis(z, (a1, a2), (-2, -1))  # a view: writes land in z
        rows = np.arange(max(0, -k), max(0, -k) + g.shape[-1])
        zt[..., rows, rows + k] = g
        return z
    return ref


CASES["diag"] = [
    C(rand((4, 4)), diag_ref(), name="square"),
    C(rand((3, 5), F64), diag_ref(2), k=2, name="upper"),
    C(rand((5, 3)), diag_ref(-1), k=-1, name="lower"),
    C(rand((2, 3, 4)), diag_ref(1, 0, 2), k=1, axis1=0, axis2=2, name="3d_axes"),
    C(rand((2, 3, 4), F64), diag_ref(0, -1, 1), axis1=-1, axis2=1, name="3d_negative_axes"),
    C(rand((3,)), diag_ref(), name="vector"),
    C(rand((3,), I32, -9, 9), diag_ref(-2), k=-2, name="vector_lower_int32"),
    C(rand((2, 3)), diag_ref(5), k=5, name="empty"),
]
CASES["_backward_diag"] = [
    C(ins(rand((3,)), rand((3, 5))), diag_grad_ref(), name="matrix"),
    C(ins(rand((3, 2), F64), rand((2, 3, 4), F64)), diag_grad_ref(1, 0, 2), k=1, axis1=0, axis2=2, name="3d"),
    C(ins(rand((4, 4)), rand((3,))), diag_grad_ref(-1), k=-1, name="vector"),
]


# ---- slice_like / Crop ------------------------------------------------------------------------------

def slice_like_ref(axes=()):
    def ref(x, like):
        sl = [slice(None)] * x.ndim
        for a in (axes or range(x.ndim)):
            sl[a % x.ndim] = slice(0, like.shape[a % x.ndim])
        return x[tuple(sl)]
    return ref


def slice_like_grad_ref(g, x):
    z = np.zeros(x.shape, g.dtype)
    z[tuple(slice(0, d) for d in g.shape)] = g
    return z


def crop_ref(top, left, h, w):
    return lambda x, *like: x[:, :, top:top + h, left:left + w]


def crop_grad_ref(top, left):
    def ref(g, x):
        z = np.zeros(x.shape, g.dtype)
        z[:, :, top:top + g.shape[2], left:left + g.shape[3]] = g
        return z
    return ref


CASES["slice_like"] = [
    C(ins(rand((4, 5, 6)), rand((2, 3, 4))), slice_like_ref(), name="all_axes"),
    C(ins(rand((4, 5, 6), F64), rand((2, 3))), slice_like_ref((0, -2)), axes=(0, -2), name="some_axes"),
    C(ins(rand((3, 4), I32, -9, 9), rand((3, 1), F64)), slice_like_ref((1,)), axes=(1,), name="int32_other_like"),
]
CASES["_backward_slice_like"] = [
    C(ins(rand((2, 3, 4)), rand((4, 5, 6))), slice_like_grad_ref, name="all_axes"),
    C(ins(rand((2, 5), F64), rand((4, 5), F64)), slice_like_grad_ref, axes=(0,), name="one_axis"),
]
CASES["Crop"] = [
    C(ins(rand((2, 3, 6, 7)), rand((1, 1, 3, 4))), crop_ref(1, 2, 3, 4), num_args=2, offset=(1, 2), name="like"),
    C(rand((1, 2, 6, 7), F64), crop_ref(0, 0, 2, 5), num_args=1, h_w=(2, 5), name="h_w"),
    C(rand((1, 2, 6, 7)), crop_ref(2, 1, 2, 5), num_args=1, h_w=(2, 5), center_crop=True, name="center"),
]
CASES["_backward_Crop"] = [
    C(ins(rand((1, 2, 3, 4)), rand((1, 2, 6, 7))), crop_grad_ref(1, 2), num_args=1, h_w=(3, 4), offset=(1, 2),
      name="offset"),
    C(ins(rand((1, 1, 2, 3), F64), rand((1, 1, 5, 6), F64)), crop_grad_ref(1, 1), num_args=1, h_w=(2, 3),
      center_crop=True, name="center"),
]


# ---- reshape_like / shape_array / size_array -------------------------------------------------------

CASES["reshape_like"] = [
    C(ins(rand((2, 6)), rand((3, 4))), lambda a, b: a.reshape(3, 4), name="whole"),
    C(ins(rand((30, 12), F64), rand((4, 2, 2, 3))), lambda a, b: a.reshape(30, 2, 2, 3), lhs_begin=1, rhs_begin=1,
      name="partial"),
    C(ins(rand((2, 3, 4), I32, -9, 9), rand((6, 5))), lambda a, b: a.reshape(6, 4), lhs_begin=0, lhs_end=-1,
      rhs_begin=0, rhs_end=1, name="negative_end_int32"),
]
# _np_reshape: NumPy's reshape (core/op/shape/np_reshape.cc): -1 once, 0 a zero-size axis, () a 0-d array.
CASES["_np_reshape"] = [
    C(rand((2, 3, 4)), lambda x: x.reshape(4, -1), newshape=(4, -1), name="infer"),
    C(rand((1,), F64), lambda x: x.reshape(()), newshape=(), name="to_0d"),
    C(rand((1, 1), I32, -9, 9), lambda x: x.reshape(()), newshape=(), name="to_0d_int32"),
    C(rand((0, 3)), lambda x: x.reshape(3, 0), newshape=(3, 0), name="zero_size"),
    C(rand((6,), I64, -9, 9), lambda x: x.reshape(-1, 2), newshape=(-1, 2), name="int64"),
]
CASES["shape_array"] = [
    C(rand((2, 3, 4)), lambda x: np.array(x.shape, I64), name="3d"),
    C(rand((5,), I32, 0, 5), lambda x: np.array(x.shape, I64), name="1d_int32"),
]
CASES["size_array"] = [
    C(rand((2, 3, 4)), lambda x: np.array([x.size], I64), name="3d"),
    C(rand((7,), F64), lambda x: np.array([x.size], I64), name="1d"),
]


# ---- topk / sort / argsort -------------------------------------------------------------------------

def _order(x, axis, ascend):
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    return (np.argsort(x, axis=axis, kind="stable") if ascend else np.argsort(-x, axis=axis, kind="stable")), x, axis


def topk_ref(axis=-1, k=1, ret_typ="indices", is_ascend=False, dtype=F32):
    def ref(x):
        order, flat, ax = _order(x, axis, is_ascend)
        kk = order.shape[ax] if k < 1 else k
        idx = np.take(order, np.arange(kk), axis=ax)
        val = np.take_along_axis(flat, idx, axis=ax)
        if ret_typ == "value":
            return val
        if ret_typ == "indices":
            return idx.astype(dtype)
        if ret_typ == "both":
            return val, idx.astype(dtype)
        mask = np.zeros(flat.shape, x.dtype)
        np.put_along_axis(mask, idx, 1, axis=ax)
        return mask.reshape(x.shape)
    return ref


def topk_grad_ref(axis=-1, k=1, is_ascend=False):
    def ref(g, idx, x):
        ax = axis % x.ndim
        z = np.zeros(x.shape, g.dtype)
        np.put_along_axis(z, idx.astype(np.int64), g, axis=ax)
        return z
    return ref


CASES["topk"] = [
    C(distinct((3, 5)), topk_ref(k=2), k=2, name="indices"),
    C(distinct((3, 5), F64), topk_ref(k=3, ret_typ="value"), k=3, ret_typ="value", name="value"),
    C(distinct((4, 3)), topk_ref(axis=0, k=2, ret_typ="both", dtype=I32), axis=0, k=2, ret_typ="both",
      dtype="int32", name="both_axis0_int32"),
    C(distinct((2, 3, 4)), topk_ref(axis=1, k=1, ret_typ="mask", is_ascend=True), axis=1, k=1, ret_typ="mask",
      is_ascend=True, name="mask_ascend"),
    C(distinct((2, 3, 4), I64), topk_ref(axis=None, k=5, ret_typ="value"), axis=None, k=5, ret_typ="value",
      name="flat_int64"),
    C(distinct((2, 6)), topk_ref(k=0, ret_typ="indices", dtype=I64), k=0, dtype="int64", name="k0_full_sort"),
]
CASES["sort"] = [
    C(distinct((3, 5)), topk_ref(k=0, ret_typ="value", is_ascend=True), name="default"),
    C(distinct((4, 3), F64), topk_ref(axis=0, k=0, ret_typ="value"), axis=0, is_ascend=False, name="descending"),
    C(distinct((2, 3, 2), I32), topk_ref(axis=None, k=0, ret_typ="value", is_ascend=True), axis=None,
      name="flat_int32"),
]
CASES["argsort"] = [
    C(distinct((3, 5)), topk_ref(k=0, is_ascend=True), name="default"),
    C(distinct((4, 3), F64), topk_ref(axis=0, k=0, dtype=I64), axis=0, is_ascend=False, dtype="int64",
      name="descending_int64"),
]


def _topk_grad_inputs(shape, axis, k, dtype=F32):
    def make(rng):
        n = shape[axis]
        kept = list(shape)
        kept[axis] = k
        idx = np.argsort(rng.random(shape), axis=axis)
        idx = np.take(idx, np.arange(k), axis=axis)
        return [rng.uniform(-1, 1, size=kept).astype(dtype), idx.astype(F32), rng.uniform(size=shape).astype(dtype)]
    make.all_inputs = True
    return make


CASES["_backward_topk"] = [
    C(_topk_grad_inputs((3, 5), 1, 2), topk_grad_ref(k=2), k=2, ret_typ="value", name="value"),
    C(_topk_grad_inputs((4, 3, 2), 0, 4, F64), topk_grad_ref(axis=0, k=0), axis=0, k=0, ret_typ="both",
      name="full_axis0"),
]


# ---- _split_v2 (weft.nd.split_v2 is MXNet's Python signature over it: tests/python/test_shape_more_errors.py) ----

def split_ref(points, axis=0, squeeze=False):
    def ref(x):
        parts = np.split(x, points[1:], axis=axis) if points else None
        parts = [p.copy() for p in parts]
        return tuple(np.squeeze(p, axis=axis) if squeeze else p for p in parts)
    return ref


def sections_ref(n, axis=0):
    return lambda x: tuple(p.copy() for p in np.split(x, n, axis=axis))


CASES["_split_v2"] = [
    C(rand((2, 6)), sections_ref(3, 1), sections=3, axis=1, name="sections"),
    C(rand((5, 2), F64), split_ref((0, 1, 3)), indices=(0, 1, 3), name="indices"),
    C(rand((2, 3), I32, -9, 9), split_ref((0, 1), 0, True), indices=(0, 1), axis=0, squeeze_axis=True,
      name="squeeze_int32"),
    C(rand((3, 4)), lambda x: (x[:, 1:3].copy(), x[:, 3:].copy()), indices=(1, 3), axis=-1, name="leading_dropped"),
]


# ---- legacy row-wise ops, _linspace, cast_storage --------------------------------------------------

def fill_ref(lhs, mhs, rhs):
    out = lhs.copy()
    cols = lhs.shape[1]
    out[np.arange(len(rhs)), np.clip(rhs.astype(np.int64), 0, cols - 1)] = mhs
    return out


def onehot_ref(idx, like):
    out = np.zeros(like.shape, like.dtype)
    for i, j in enumerate(idx.astype(np.int64)):
        if 0 <= j < like.shape[1]:
            out[i, j] = 1
    return out


def argmax_channel_ref(x):
    r = np.argmax(x, axis=-1).astype(x.dtype)
    return r.reshape(1) if r.ndim == 0 else r


def batch_take_ref(a, idx):
    flat = a.reshape(idx.size, -1)
    return flat[np.arange(idx.size), np.clip(idx.astype(np.int64).ravel(), 0, flat.shape[1] - 1)].reshape(idx.shape)


def fixed(values, dtype=F32):
    return lambda rng: np.asarray(values, dtype=dtype)


CASES["fill_element_0index"] = [
    C(ins(rand((3, 4)), rand((3,)), fixed([0, 3, 1])), fill_ref, name="float32"),
    C(ins(rand((2, 3), F64), rand((2,), F64), fixed([5, -1], I32)), fill_ref, name="clipped_int32_index"),
]
CASES["_onehot_encode"] = [
    C(ins(fixed([0, 2, 1]), rand((3, 4))), onehot_ref, name="float32"),
    C(ins(fixed([3, 7], I64), rand((2, 4), F64)), onehot_ref, name="out_of_range_float64"),
]
CASES["argmax_channel"] = [
    C(distinct((3, 5)), argmax_channel_ref, name="2d"),
    C(distinct((2, 3, 4), F64), argmax_channel_ref, name="3d"),
    C(distinct((6,), I32), argmax_channel_ref, name="1d_int32"),
]
CASES["batch_take"] = [
    C(ins(rand((3, 4)), fixed([0, 3, 1], I32)), batch_take_ref, name="2d"),
    C(ins(rand((2, 2, 3), F64), fixed([5, -2], I32)), batch_take_ref, name="3d_clipped"),
]
CASES["_linspace"] = [
    C([], lambda: np.linspace(0, 1, 5, dtype=F32), start=0, stop=1, num=5, name="endpoint"),
    C([], lambda: np.linspace(-2, 3, 4, endpoint=False).astype(F64), start=-2, stop=3, num=4, endpoint=False,
      dtype="float64", name="no_endpoint_float64"),
    C([], lambda: np.linspace(1, 10, 10).astype(I32), start=1, stop=10, num=10, dtype="int32", name="int32"),
    C([], lambda: np.array([2.5], F32), start=2.5, stop=7, num=1, name="one"),
]
CASES["cast_storage"] = [
    C(rand((2, 3)), lambda x: x.copy(), stype="default", name="dense"),
    C(rand((4,), I64, -9, 9), lambda x: x.copy(), stype="default", name="int64"),
]


def scatter_nd_ref(shape):
    def ref(data, idx):
        out = np.zeros(shape, data.dtype)
        m = idx.shape[0]
        flat_idx = idx.reshape(m, -1).astype(np.int64)
        vals = data.reshape((flat_idx.shape[1],) + tuple(shape[m:]))
        for j in range(flat_idx.shape[1]):
            out[tuple(flat_idx[:, j])] = vals[j]
        return out
    return ref


CASES["scatter_nd"] = [
    C(ins(rand((3,)), fixed([[0, 1, 2], [1, 0, 3]])), scatter_nd_ref((3, 4)), shape=(3, 4), name="elements"),
    C(ins(rand((2, 3), F64), fixed([[2, 0]], I32)), scatter_nd_ref((4, 3)), shape=(4, 3), name="rows_float64"),
    C(ins(rand((2, 1), I32, -9, 9), fixed([[[0], [1]], [[1], [0]]])), scatter_nd_ref((2, 2)), shape=(2, 2),
      name="2d_index_int32"),
]


CASES["_ravel_multi_index"] = [
    C(fixed([[3, 6, 6], [4, 5, 1]]), lambda d: np.ravel_multi_index(d.astype(np.int64), (7, 6)).astype(F32),
      shape=(7, 6), name="2d"),
    C(fixed([[1, 0], [2, 1], [3, 0]], I64), lambda d: np.ravel_multi_index(d, (2, 3, 4)).astype(I64),
      shape=(2, 3, 4), name="3d_int64"),
]
CASES["_unravel_index"] = [
    C(fixed([22, 41, 37]), lambda d: np.stack(np.unravel_index(d.astype(np.int64), (7, 6))).astype(F32),
      shape=(7, 6), name="2d"),
    C(fixed([0, 23, 5], I32), lambda d: np.stack(np.unravel_index(d, (2, 3, 4))).astype(I32), shape=(2, 3, 4),
      name="3d_int32"),
]


# ---- _contrib_index_copy and its backward op --------------------------------------------------------

def index_copy_ref(old, idx, new):
    out = old.copy()
    out[idx.astype(np.int64)] = new
    return out


def backward_index_copy_ref(g, old, idx, new):
    k = idx.astype(np.int64)
    g_old = g.copy()
    g_old[k] = 0
    return g_old, np.zeros(idx.shape, idx.dtype), g[k]


CASES["_contrib_index_copy"] = [
    C(ins(rand((5, 3)), fixed([4, 0, 2]), rand((3, 3))), index_copy_ref, name="rows"),
    C(ins(rand((4, 2, 2), F64), fixed([1], I64), rand((1, 2, 2), F64)), index_copy_ref, name="3d_int64_index"),
    C(ins(rand((3,), I32, -9, 9), fixed([2, 0], I32), rand((2,), I32, -9, 9)), index_copy_ref, name="1d_int32"),
]
CASES["_contrib_backward_index_copy"] = [
    C(ins(rand((5, 3)), rand((5, 3)), fixed([4, 0, 2]), rand((3, 3))), backward_index_copy_ref, name="rows"),
    C(ins(rand((4, 2), F64), rand((4, 2), F64), fixed([3], F64), rand((1, 2), F64)), backward_index_copy_ref,
      name="float64"),
]


# ---- float16 (CPU: moved by element size or read as float64; GPU: the same, tests/gpu) ---------------------
F16 = np.float16
CASES["tile"].append(C(rand((2, 3), F16), tile_ref((2, 1)), reps=(2, 1), name="float16"))
CASES["SwapAxis"].append(C(rand((2, 3, 2), F16), lambda x: np.swapaxes(x, 0, 2), dim1=0, dim2=2, name="float16"))
CASES["reverse"].append(C(rand((3, 2), F16), lambda x: x[::-1], axis=(0,), name="float16"))
CASES["depth_to_space"].append(C(rand((1, 4, 2, 2), F16), d2s_ref(2), block_size=2, name="float16"))
CASES["diag"].append(C(rand((3, 3), F16), diag_ref(), name="float16"))
CASES["topk"].append(C(distinct((3, 4), F16), topk_ref(k=2, ret_typ="value"), k=2, ret_typ="value",
                       name="float16"))
CASES["sort"].append(C(distinct((2, 5), F16), topk_ref(k=0, ret_typ="value", is_ascend=True), name="float16"))
