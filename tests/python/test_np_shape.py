"""weft.np shape manipulation (issue 37) against NumPy: values, dtypes, 0-d
and zero-size shapes, negative axes, the errors bad arguments get, and the
gradient of each function that has one (checked against NumPy: the functions
are linear, so d(sum(w * f(x)))/dx_i = sum(w * f(e_i)) exactly)."""
import numpy as onp
import pytest

import weft
from weft import np


def arr(shape, dtype="float32"):
    return onp.arange(int(onp.prod(shape)), dtype=dtype).reshape(shape) - 3


def check(x, expected):
    if isinstance(expected, (list, tuple)):
        assert isinstance(x, list) and len(x) == len(expected)
        for a, b in zip(x, expected):
            check(a, b)
        return
    assert type(x) is np.ndarray, type(x)
    assert x.shape == expected.shape, (x.shape, expected.shape)
    assert x.dtype == expected.dtype, (x.dtype, expected.dtype)
    onp.testing.assert_array_equal(x.asnumpy(), expected)


# (weft function, NumPy function, input shapes); each case also runs on int32 data
CASES = [
    ("reshape", lambda f, a: f.reshape(a, (4, -1)), [(2, 3, 4)]),
    ("reshape_0d", lambda f, a: f.reshape(a, ()), [(1, 1)]),
    ("reshape_empty", lambda f, a: f.reshape(a, (3, 0, 2)), [(0, 6)]),
    ("ravel", lambda f, a: f.ravel(a), [(2, 3, 4)]),
    ("ravel_0d", lambda f, a: f.ravel(a), [()]),
    ("expand_dims", lambda f, a: f.expand_dims(a, -1), [(2, 3)]),
    ("expand_dims_tuple", lambda f, a: f.expand_dims(a, (0, 3)), [(2, 3)]),
    ("expand_dims_0d", lambda f, a: f.expand_dims(a, 0), [()]),
    ("squeeze", lambda f, a: f.squeeze(a), [(1, 3, 1)]),
    ("squeeze_all", lambda f, a: f.squeeze(a), [(1, 1)]),
    ("squeeze_axis", lambda f, a: f.squeeze(a, -1), [(1, 3, 1)]),
    ("atleast_1d", lambda f, a: f.atleast_1d(a), [()]),
    ("atleast_2d", lambda f, a: f.atleast_2d(a), [(3,)]),
    ("atleast_3d", lambda f, a: f.atleast_3d(a), [(2, 3)]),
    ("atleast_3d_1d", lambda f, a: f.atleast_3d(a), [(3,)]),
    ("broadcast_to", lambda f, a: f.broadcast_to(a, (2, 3, 4)), [(3, 1)]),
    ("broadcast_to_0d", lambda f, a: f.broadcast_to(a, (2, 2)), [()]),
    ("broadcast_to_empty", lambda f, a: f.broadcast_to(a, (0, 4)), [(1, 4)]),
    ("resize_grow", lambda f, a: f.resize(a, (3, 5)), [(2, 3)]),
    ("resize_shrink", lambda f, a: f.resize(a, (4,)), [(2, 3)]),
    ("transpose", lambda f, a: f.transpose(a), [(2, 3, 4)]),
    ("transpose_axes", lambda f, a: f.transpose(a, (1, -1, 0)), [(2, 3, 4)]),
    ("transpose_empty", lambda f, a: f.transpose(a), [(0, 3)]),
    ("swapaxes", lambda f, a: f.swapaxes(a, 0, -1), [(2, 3, 4)]),
    ("moveaxis", lambda f, a: f.moveaxis(a, 0, -1), [(2, 3, 4)]),
    ("moveaxis_many", lambda f, a: f.moveaxis(a, (0, 1), (-1, 0)), [(2, 3, 4)]),
    ("rollaxis", lambda f, a: f.rollaxis(a, -1, 1), [(2, 3, 4)]),
    ("rollaxis_end", lambda f, a: f.rollaxis(a, 0, 3), [(2, 3, 4)]),
    ("flip", lambda f, a: f.flip(a), [(2, 3, 4)]),
    ("flip_axis", lambda f, a: f.flip(a, (0, -1)), [(2, 3, 4)]),
    ("flip_0d", lambda f, a: f.flip(a), [()]),
    ("fliplr", lambda f, a: f.fliplr(a), [(2, 3)]),
    ("flipud", lambda f, a: f.flipud(a), [(4,)]),
    ("rot90", lambda f, a: f.rot90(a), [(2, 3)]),
    ("rot90_k", lambda f, a: f.rot90(a, -1, (2, 0)), [(2, 3, 4)]),
    ("rot90_2", lambda f, a: f.rot90(a, 2), [(2, 3)]),
    ("roll", lambda f, a: f.roll(a, 5), [(2, 3)]),
    ("roll_axis", lambda f, a: f.roll(a, -1, -1), [(2, 3)]),
    ("roll_many", lambda f, a: f.roll(a, (1, 2), (0, 1)), [(2, 3)]),
    ("roll_empty", lambda f, a: f.roll(a, 1, 0), [(0, 3)]),
    ("concatenate", lambda f, a, b: f.concatenate([a, b], -1), [(2, 3), (2, 1)]),
    ("concatenate_none", lambda f, a, b: f.concatenate((a, b), axis=None), [(2, 3), (4,)]),
    ("concatenate_empty", lambda f, a, b: f.concatenate([a, b]), [(0, 3), (2, 3)]),
    ("stack", lambda f, a, b: f.stack([a, b], -1), [(2, 3), (2, 3)]),
    ("stack_0d", lambda f, a, b: f.stack([a, b]), [(), ()]),
    ("hstack", lambda f, a, b: f.hstack([a, b]), [(2, 3), (2, 2)]),
    ("hstack_1d", lambda f, a, b: f.hstack((a, b)), [(3,), (2,)]),
    ("vstack", lambda f, a, b: f.vstack([a, b]), [(3,), (3,)]),
    ("row_stack", lambda f, a, b: (f.row_stack if f is np else onp.vstack)([a, b]), [(2, 3), (1, 3)]),
    ("dstack", lambda f, a, b: f.dstack([a, b]), [(2, 3), (2, 3)]),
    ("column_stack", lambda f, a, b: f.column_stack([a, b]), [(3,), (3, 2)]),
    ("append", lambda f, a, b: f.append(a, b), [(2, 3), (2,)]),
    ("append_axis", lambda f, a, b: f.append(a, b, axis=0), [(2, 3), (1, 3)]),
    ("split", lambda f, a: f.split(a, 3, -1), [(2, 6)]),
    ("split_indices", lambda f, a: f.split(a, [1, 4, 10], 1), [(2, 6)]),
    ("array_split", lambda f, a: f.array_split(a, 4), [(6, 2)]),
    ("hsplit", lambda f, a: f.hsplit(a, 2), [(2, 4)]),
    ("vsplit", lambda f, a: f.vsplit(a, [1]), [(3, 2)]),
    ("dsplit", lambda f, a: f.dsplit(a, 2), [(1, 2, 4)]),
    ("tile", lambda f, a: f.tile(a, (2, 1, 3)), [(2, 3)]),
    ("tile_0d", lambda f, a: f.tile(a, 3), [()]),
    ("tile_zero", lambda f, a: f.tile(a, (0, 2)), [(2, 3)]),
    ("repeat", lambda f, a: f.repeat(a, 2), [(2, 3)]),
    ("repeat_axis", lambda f, a: f.repeat(a, 3, -1), [(2, 3)]),
    ("repeat_counts", lambda f, a: f.repeat(a, [2, 0, 1], axis=1), [(2, 3)]),
    ("take", lambda f, a: f.take(a, [[1, -1], [0, 0]], axis=1), [(2, 3)]),
    ("take_flat", lambda f, a: f.take(a, 4), [(2, 3)]),
    ("take_wrap", lambda f, a: f.take(a, [7, -8], axis=0, mode="wrap"), [(2, 3)]),
    ("take_clip", lambda f, a: f.take(a, [7, -8], mode="clip"), [(2, 3)]),
]


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_matches_numpy(name, fn, shapes, dtype):
    hosts = [arr(s, dtype) for s in shapes]
    got = fn(np, *[np.array(h, dtype=dtype) for h in hosts])
    want = fn(onp, *hosts)
    check(got, list(want) if isinstance(want, (list, tuple)) else want)


# the cases whose functions MXNet differentiates (all but the int-only queries)
GRAD_CASES = [c for c in CASES if not c[0].endswith(("_empty", "_zero"))]


@pytest.mark.parametrize("name,fn,shapes", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradient(name, fn, shapes):
    rng = onp.random.RandomState(0)
    hosts = [arr(s, "float64") for s in shapes]
    xs = [np.array(h, dtype="float64") for h in hosts]
    for x in xs:
        x.attach_grad()
    with weft.autograd.record():
        out = fn(np, *xs)
    outs = out if isinstance(out, list) else [out]
    ws = [rng.uniform(-1, 1, o.shape) for o in outs]
    heads = [(o, w) for o, w in zip(outs, ws) if o.size]  # an empty part carries no gradient
    weft.autograd.backward([o for o, _ in heads], [np.array(w, dtype="float64") for _, w in heads])
    for k, (x, h) in enumerate(zip(xs, hosts)):
        want = onp.zeros(h.size)
        for i in range(h.size):
            e = [onp.zeros_like(g) for g in hosts]
            e[k].reshape(-1)[i] = 1
            ys = fn(onp, *e)
            ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
            want[i] = sum((w * onp.asarray(y)).sum() for w, y in zip(ws, ys))
        assert type(x.grad) is np.ndarray
        onp.testing.assert_allclose(x.grad.asnumpy().reshape(-1), want, rtol=1e-12, atol=1e-12)


def test_views_share_memory():
    a = np.array(arr((2, 3)))
    for v in (np.reshape(a, (3, 2)), np.ravel(a), np.expand_dims(a, 0), np.atleast_3d(a), a.reshape(-1)):
        assert np.shares_memory(a, v) and np.may_share_memory(a, v)
    v = np.ravel(a)
    v[0] = 100
    assert a.asnumpy()[0, 0] == 100
    b = np.transpose(a)
    assert not np.shares_memory(a, b)
    flat = np.ravel(a)
    assert not np.shares_memory(flat[0:3], flat[3:6]) and np.may_share_memory(flat[0:3], flat[3:6])
    assert np.shares_memory(flat[0:4], flat[3:6])


def test_queries():
    a = np.zeros((2, 0, 3))
    assert np.ndim(a) == 3 and np.shape(a) == (2, 0, 3) and np.size(a) == 0 and np.size(a, -1) == 3
    assert np.ndim([[1, 2]]) == 2 and np.shape(5) == () and np.size([1, 2, 3]) == 3
    with pytest.raises(IndexError, match="size: argument axis"):
        np.size(a, 3)


ERRORS = [
    (ValueError, "reshape: cannot reshape array of size 6 into shape", lambda: np.reshape(np.zeros((2, 3)), (4, 2))),
    (ValueError, "reshape: can only specify one unknown", lambda: np.reshape(np.zeros(6), (-1, -1))),
    (TypeError, "reshape: argument newshape must be an integer", lambda: np.reshape(np.zeros(6), (2.0, 3))),
    (ValueError, "squeeze: cannot select an axis", lambda: np.squeeze(np.zeros((1, 2)), 1)),
    (IndexError, "squeeze: argument axis", lambda: np.squeeze(np.zeros((1, 2)), 2)),
    (ValueError, "expand_dims: argument axis: repeated", lambda: np.expand_dims(np.zeros(2), (0, 0))),
    (ValueError, "broadcast_to: could not broadcast", lambda: np.broadcast_to(np.zeros((2, 3)), (3, 3))),
    (ValueError, "broadcast_arrays: shape mismatch", lambda: np.broadcast_arrays(np.zeros(2), np.zeros(3))),
    (ValueError, "transpose: argument axes", lambda: np.transpose(np.zeros((2, 3)), (0,))),
    (ValueError, "transpose: argument axes: repeated", lambda: np.transpose(np.zeros((2, 3)), (0, 0))),
    (IndexError, "swapaxes: argument axis2", lambda: np.swapaxes(np.zeros((2, 3)), 0, 2)),
    (ValueError, "fliplr: argument m must be at least 2-d", lambda: np.fliplr(np.zeros(3))),
    (ValueError, "rot90: argument axes must be different", lambda: np.rot90(np.zeros((2, 2)), 1, (1, -1))),
    (ValueError, "roll: arguments shift and axis", lambda: np.roll(np.zeros((2, 2)), (1, 2, 3), (0, 1))),
    (ValueError, "concatenate: all the input array dimensions", lambda: np.concatenate([np.zeros((2, 3)),
                                                                                        np.zeros((3, 2))])),
    (ValueError, "concatenate: all the input arrays must have the same number", lambda: np.concatenate(
        [np.zeros((2, 3)), np.zeros(3)])),
    (ValueError, "concatenate: zero-dimensional", lambda: np.concatenate([np.zeros(()), np.zeros(())])),
    (ValueError, "concatenate: need at least one array", lambda: np.concatenate([])),
    (ValueError, "stack: all input arrays must have the same shape", lambda: np.stack([np.zeros(2), np.zeros(3)])),
    (ValueError, "split: array split does not result in an equal division", lambda: np.split(np.zeros(5), 2)),
    (ValueError, "split: number sections must be larger than 0", lambda: np.split(np.zeros(5), 0)),
    (ValueError, "vsplit: argument ary must have at least 2", lambda: np.vsplit(np.zeros(4), 2)),
    (ValueError, "tile: argument reps must be non-negative", lambda: np.tile(np.zeros(2), -1)),
    (ValueError, "repeat: argument repeats may not contain negative", lambda: np.repeat(np.zeros(2), -1)),
    (ValueError, "repeat: argument repeats has 3 counts", lambda: np.repeat(np.zeros(2), [1, 2, 3])),
    (IndexError, "take: index 5 is out of bounds for axis 0 with size 2", lambda: np.take(np.zeros(2), [0, 5])),
    (IndexError, "take: argument indices must be integers", lambda: np.take(np.zeros(2), [0.5])),
    (ValueError, "take: argument mode", lambda: np.take(np.zeros(2), [0], mode="bad")),
    (ValueError, "resize: argument new_shape: negative", lambda: np.resize(np.zeros(2), (-1,))),
]


@pytest.mark.parametrize("exc,msg,call", ERRORS, ids=[e[1].split(":")[0] + str(i) for i, e in enumerate(ERRORS)])
def test_errors(exc, msg, call):
    with pytest.raises(exc, match=msg):
        call()


def test_mixed_dtypes_join_in_numpys_result_type():
    a = np.array([1, 2], dtype="int32")
    b = np.array([0.5], dtype="float64")
    check(np.concatenate([a, b]), onp.concatenate([onp.array([1, 2], onp.int32), onp.array([0.5])]))


def test_out_arguments():
    out = np.zeros((2, 3))
    assert np.concatenate([np.ones((1, 3)), np.ones((1, 3))], out=out) is out
    check(out, onp.ones((2, 3), onp.float32))
    out2 = np.zeros((2, 2))
    assert np.stack([np.ones(2), np.zeros(2)], out=out2) is out2
    check(out2, onp.array([[1, 1], [0, 0]], onp.float32))
    out3 = np.zeros((2,))
    assert np.take(np.array([5.0, 6.0, 7.0]), [2, 0], out=out3) is out3
    check(out3, onp.array([7, 5], onp.float32))


def test_text_io(tmp_path):
    p = tmp_path / "data.csv"
    p.write_text("1,2,3\n4,5,6\n")
    check(np.genfromtxt(str(p), delimiter=","), onp.genfromtxt(str(p), delimiter=",").astype(onp.float32))
    check(np.genfromtxt(str(p), delimiter=",", dtype="int64"), onp.genfromtxt(str(p), delimiter=",",
                                                                                 dtype="int64"))
    saved = onp.get_printoptions()
    try:
        np.set_printoptions(precision=2)
        assert repr(np.array([1.23456])) == "array([1.23], dtype=float32)"
        with pytest.raises(NotImplementedError, match="set_printoptions: only precision and threshold"):
            np.set_printoptions(linewidth=10)
    finally:
        onp.set_printoptions(**saved)
