"""``npx`` operators that select, index or enumerate: slice, pick, topk,
gather_nd, one_hot, arange_like, shape_array (legacy ops with np arrays in and
out; Note [npx operators over the legacy registry] in nn.py)."""
# pylint: disable=invalid-name,redefined-builtin
from ..ndarray.ndarray import NDArray
from ..numpy._array import _invoke, _invoke_default, ndarray

__all__ = ["slice", "pick", "topk", "gather_nd", "one_hot", "arange_like", "shape_array"]


def _need(x, name, func):
    if not isinstance(x, NDArray):
        raise TypeError("%s: %s must be an array, got %s" % (func, name, type(x).__name__))
    return x


def slice(data, begin, end, step=None, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.slice``: data[b0:e0:s0, b1:e1:s1, ...]; entries may be None; axes past
    len(begin) are kept whole."""
    attrs = {"begin": tuple(begin), "end": tuple(end)}
    if step is not None:
        attrs["step"] = tuple(step)
    return _invoke("slice", [_need(data, "data", "slice")], out=out, **attrs)


def pick(data, index, axis=-1, mode="clip", keepdims=False, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.pick``: data[..., index[...], ...] along axis (mode 'clip' or 'wrap'
    for out-of-range indices)."""
    if (axis == -1 and mode == "clip" and not keepdims and out is None and data.__class__ is ndarray
            and index.__class__ is ndarray):
        # Note [Default-parameter calls] (weft.numpy._array): the op's defaults are
        # axis=-1, mode='clip', keepdims=False; the output is data's shape without the last
        # axis when data has two or more (1-D data gives what the op says: read, not assumed).
        try:
            shape = data._shape[:-1] if len(data._shape) > 1 else None  # pylint: disable=protected-access
        except AttributeError:
            shape = None
        return _invoke_default("pick", data, index, shape=shape)
    return _invoke("pick", [_need(data, "data", "pick"), _need(index, "index", "pick")], out=out,
                   axis=axis, mode=mode, keepdims=keepdims)


def topk(data, axis=-1, k=1, ret_typ="indices", is_ascend=False, dtype="float32", out=None,
         name=None):  # pylint: disable=unused-argument
    """``npx.topk``: the k largest (is_ascend: smallest) entries along axis:
    ret_typ 'indices', 'value', 'mask', or 'both' ([values, indices])."""
    return _invoke("topk", [_need(data, "data", "topk")], out=out, axis=axis, k=k, ret_typ=ret_typ,
                   is_ascend=is_ascend, dtype=dtype)


def gather_nd(data, indices, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.gather_nd``: data at the N-d indices stacked on indices' first axis."""
    return _invoke("gather_nd", [_need(data, "data", "gather_nd"), _need(indices, "indices", "gather_nd")],
                   out=out)


def one_hot(data, depth=None, on_value=1.0, off_value=0.0, dtype="float32", out=None,
            name=None):  # pylint: disable=unused-argument
    """``npx.one_hot``: data's indices as one-hot rows of length depth."""
    if depth is None:
        raise ValueError("one_hot: depth is required")
    return _invoke("one_hot", [_need(data, "data", "one_hot")], out=out, depth=depth, on_value=on_value,
                   off_value=off_value, dtype=dtype)


def arange_like(data, start=0.0, step=1.0, repeat=1, ctx=None, axis=None, out=None,
                name=None):  # pylint: disable=unused-argument
    """``npx.arange_like``: start, start+step, ... in data's shape (or along one
    axis: a 1-D array of that axis' length), each value repeated repeat times."""
    attrs = {"start": start, "step": step, "repeat": repeat}
    if axis is not None:
        attrs["axis"] = axis
    if ctx is not None:
        attrs["ctx"] = str(ctx)
    return _invoke("_contrib_arange_like", [_need(data, "data", "arange_like")], out=out, **attrs)


def shape_array(data, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.shape_array``: data's shape as a 1-D int64 array."""
    return _invoke("shape_array", [_need(data, "data", "shape_array")], out=out)
