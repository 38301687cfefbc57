"""Bad input to the layout and sort ops of issue 17 (tile, repeat, reverse,
SwapAxis, depth_to_space, space_to_depth, diag, slice_like, Crop, reshape_like,
topk, _split_v2) is refused at the call with a message naming the op, the
argument and what was expected; and the Python helpers next to them
(split_v2's MXNet signature, from_numpy, the indexing helpers) behave as
MXNet 1.9.1's."""
import numpy as np
import pytest

import weft as mx
from weft.base import InvalidArgumentError, ShapeError


def x(*shape):
    return mx.nd.array(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))


@pytest.mark.parametrize("call, err, pattern", [
    (lambda: mx.nd.tile(x(2, 3), reps=(2, -1)), InvalidArgumentError, r"tile: reps \(2, -1\) must be non-negative"),
    (lambda: mx.nd.repeat(x(2, 3), repeats=-1), InvalidArgumentError, r"repeat: repeats must be non-negative"),
    (lambda: mx.nd.repeat(x(2, 3), repeats=2, axis=2), InvalidArgumentError, r"repeat: axis 2 .*'data'"),
    (lambda: mx.nd.reverse(x(2, 3), axis=(3,)), InvalidArgumentError, r"reverse: axis 3 .*'data'"),
    (lambda: mx.nd.flip(x(2, 3), axis=(1, -1)), InvalidArgumentError, r"reverse: axis \(1, -1\) names axis 1 twice"),
    (lambda: mx.nd.swapaxes(x(2, 3), dim1=0, dim2=5), InvalidArgumentError, r"SwapAxis: .*dim2|SwapAxis: .*5"),
    (lambda: mx.nd.depth_to_space(x(2, 3, 4), block_size=2), ShapeError, r"depth_to_space: input 'data' must be 4-D"),
    (lambda: mx.nd.depth_to_space(x(1, 6, 2, 2), block_size=2), ShapeError,
     r"depth_to_space: the channels of input 'data' .* multiple of block_size\^2 = 4"),
    (lambda: mx.nd.space_to_depth(x(1, 1, 3, 4), block_size=2), ShapeError,
     r"space_to_depth: the height and width of input 'data' .* multiples of block_size 2"),
    (lambda: mx.nd.depth_to_space(x(1, 4, 2, 2), block_size=0), InvalidArgumentError,
     r"depth_to_space: block_size must be positive"),
    (lambda: mx.nd.diag(x(3, 3), axis1=1, axis2=-1), InvalidArgumentError,
     r"diag: axis1 and axis2 must name different axes"),
    (lambda: mx.nd.slice_like(x(2, 3), x(3, 3)), ShapeError, r"slice_like: input 'shape_like' .* larger than 'data'"),
    (lambda: mx.nd.slice_like(x(2, 3), x(2, 3, 1)), ShapeError, r"slice_like: with axes=\(\) input 'shape_like'"),
    (lambda: mx.nd.Crop(x(1, 1, 4, 4), num_args=1, h_w=(2, 2), offset=(3, 0)), ShapeError,
     r"Crop: offset \(3, 0\) .* outside input 'data'"),
    (lambda: mx.nd.Crop(x(1, 1, 4, 4), num_args=1), ShapeError, r"Crop: the crop size \(0, 0\) must be positive"),
    (lambda: mx.nd.reshape_like(x(2, 3), x(4, 2)), ShapeError, r"reshape_like: cannot reshape input 'lhs'"),
    (lambda: mx.nd.reshape_like(x(2, 3), x(3, 2), lhs_begin=3), InvalidArgumentError,
     r"reshape_like: lhs_begin 3 is out of range .* 'lhs'"),
    (lambda: mx.nd.topk(x(2, 3), k=4), InvalidArgumentError, r"topk: k 4 exceeds the 3 elements"),
    (lambda: mx.nd.topk(x(2, 3), ret_typ="values"), InvalidArgumentError, r"topk: .*ret_typ"),
    (lambda: mx.nd.sort(x(2, 3), axis=2), InvalidArgumentError, r"sort: axis 2 .*'data'"),
    (lambda: mx.nd._split_v2(x(2, 6), sections=4, axis=1), ShapeError, r"_split_v2: sections 4 do not divide axis 1"),
    (lambda: mx.nd._split_v2(x(5, 2), indices=(0, 3, 2)), InvalidArgumentError,
     r"_split_v2: indices \(0, 3, 2\) must be increasing"),
    (lambda: mx.nd._split_v2(x(4, 2), indices=(0, 2), squeeze_axis=True), ShapeError,
     r"_split_v2: squeeze_axis needs parts of size 1"),
    (lambda: mx.nd.cast_storage(x(2, 3), stype="csr"), InvalidArgumentError,
     r"cast_storage: stype 'csr' is a sparse storage type, which weft does not support"),
    (lambda: mx.nd.cast_storage(x(2, 3), stype="row_sparse"), InvalidArgumentError, r"cast_storage: stype 'row_sparse'"),
    (lambda: mx.nd.linspace(0, 1, -2), InvalidArgumentError, r"_linspace: num must be non-negative"),
    (lambda: mx.nd.fill_element_0index(x(2, 3), x(3), x(2)), ShapeError,
     r"fill_element_0index: input 'mhs' \(one value per row of 'lhs'\)"),
    (lambda: mx.nd.fill_element_0index(x(6), x(6), x(6)), ShapeError, r"fill_element_0index: input 'lhs' must be 2-D"),
    (lambda: mx.nd.batch_take(x(2, 3), x(4)), ShapeError, r"batch_take: input 'a' of shape \(2, 3\) must hold a whole row"),
    (lambda: mx.nd.argmax_channel(x(3, 0)), ShapeError, r"argmax_channel: the last axis of input 'data'"),
    (lambda: mx.nd.ravel_multi_index(x(3, 2), shape=(4, 5)), ShapeError,
     r"_ravel_multi_index: input 'data' must have shape \(2, N\)"),
    (lambda: mx.nd.unravel_index(x(3), shape=(4, 0)), InvalidArgumentError,
     r"_unravel_index: parameter 'shape' \(4, 0\) must have positive dimensions"),
    (lambda: mx.nd.scatter_nd(x(3), x(3, 3), shape=(2, 2)), ShapeError,
     r"scatter_nd: input 'indices' of shape \(3, 3\) must have a first dimension M in \[1, 2\]"),
    (lambda: mx.nd.scatter_nd(x(4), x(2, 3), shape=(3, 4)), ShapeError, r"scatter_nd: input 'data'"),
    (lambda: mx.nd.contrib.index_copy(x(4, 3), mx.nd.array([0, 1]), x(3, 3)), ShapeError,
     r"_contrib_index_copy: input 'new_tensor' .*\(2, 3\)"),
    (lambda: mx.nd.contrib.index_copy(x(4, 3), x(2, 1), x(2, 3)), ShapeError,
     r"_contrib_index_copy: input 'index_vector' must be 1-D"),
])
def test_bad_input_is_refused(call, err, pattern):
    with pytest.raises(err, match=pattern):
        call().wait_to_read()


def test_symbolic_shape_inference_reports_the_op():
    d = mx.sym.var("data")
    with pytest.raises(ShapeError, match=r"depth_to_space: the channels"):
        mx.sym.depth_to_space(d, block_size=3).infer_shape(data=(1, 4, 2, 2))


def test_partial_shapes_are_inferred_backward():
    # SwapAxis, reverse, depth_to_space: the output's shape gives the input's.
    d = mx.sym.var("data")
    net = mx.sym.FullyConnected(mx.sym.Flatten(mx.sym.SwapAxis(d, dim1=0, dim2=1)), num_hidden=3, name="fc")
    args, outs, _ = net.infer_shape(data=(4, 2, 5))
    assert dict(zip(net.list_arguments(), args))["fc_weight"] == (3, 20)
    y = mx.sym.var("y", shape=(2, 3))
    s = mx.sym.elemwise_add(mx.sym.reverse(d, axis=(0,)), y)
    args, outs, _ = s.infer_shape()
    assert args[0] == (2, 3) and outs[0] == (2, 3)


def test_split_v2_has_mxnets_signature():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    parts = mx.nd.split_v2(mx.nd.array(a), 3, axis=1)
    for got, want in zip(parts, np.split(a, 3, axis=1)):
        np.testing.assert_array_equal(got.asnumpy(), want)
    parts = mx.nd.array(a).split_v2((1, 3))
    for got, want in zip(parts, np.split(a, (1, 3))):
        np.testing.assert_array_equal(got.asnumpy(), want)
    squeezed = mx.nd.split_v2(mx.nd.array(a), 4, axis=0, squeeze_axis=True)
    assert [p.shape for p in squeezed] == [(6,)] * 4
    s = mx.sym.split_v2(mx.sym.var("d"), (2,), axis=1)
    assert len(s.list_outputs()) == 2
    assert mx.sym.var("d").split_v2(2).infer_shape(d=(4, 6))[1] == [(2, 6), (2, 6)]
    with pytest.raises(ValueError, match="indices_or_sections"):
        mx.nd.split_v2(mx.nd.array(a), 1.5)


def test_from_numpy_shares_memory_and_freezes_the_source():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    b = mx.nd.from_numpy(a)
    assert b.dtype == np.float64 and b.shape == (2, 3)
    np.testing.assert_array_equal(b.asnumpy(), a)
    assert not a.flags.writeable
    c = np.ones((2, 2), np.int32)
    d = mx.nd.from_numpy(c, zero_copy=False)
    c[0, 0] = 7
    assert c.flags.writeable and d.asnumpy()[0, 0] == 1
    with pytest.raises(ValueError, match="C-contiguous"):
        mx.nd.from_numpy(np.ones((3, 4), np.float32)[:, ::2])


def test_indexing_helpers_match_mxnet():
    assert mx.nd.get_indexing_dispatch_code((0, slice(None), None)) == 0
    assert mx.nd.get_indexing_dispatch_code((0, [1, 2])) == 1
    assert mx.nd.get_indexing_dispatch_code((mx.nd.array([1]),)) == 1
    assert mx.nd.get_indexing_dispatch_code(((),)) == 2
    with pytest.raises(ValueError, match="does not support slicing"):
        mx.nd.get_indexing_dispatch_code((1.5,))
    assert mx.nd.get_oshape_of_gather_nd_op((3, 4, 5), (2, 7)) == (7, 5)
    assert mx.nd.get_oshape_of_gather_nd_op((3, 4), (2, 6, 1)) == (6, 1)
    shape = (3, 4, 5)
    full = slice(None)
    assert mx.nd.indexing_key_expand_implicit_axes(np.s_[2, 1, 1], shape) == ((2, 1, 1), -1)
    assert mx.nd.indexing_key_expand_implicit_axes(np.s_[0], shape) == ((0, full, full), -1)
    assert mx.nd.indexing_key_expand_implicit_axes(np.s_[0, ...], shape) == ((0, full, full), -1)
    assert mx.nd.indexing_key_expand_implicit_axes(np.s_[:2, None, 0, ...], shape) == (
        (slice(None, 2), None, 0, full), -1)
    assert mx.nd.indexing_key_expand_implicit_axes(np.s_[..., 1], shape) == ((full, full, 1), -1)
    with pytest.raises(IndexError, match="more than one ellipsis"):
        mx.nd.indexing_key_expand_implicit_axes(np.s_[..., 0, ...], shape)


def test_legacy_helpers():
    np.testing.assert_allclose(mx.nd.linspace(0, 1, 5).asnumpy(), np.linspace(0, 1, 5, dtype=np.float32))
    assert mx.nd.linspace(0, 1, 4, endpoint=False, dtype="float64").dtype == np.float64
    s = mx.sym.linspace(0, 2, 3)
    assert s.infer_shape()[1] == [(3,)]
    out = mx.nd.zeros((3, 4))
    mx.nd.onehot_encode(mx.nd.array([1, 0, 3]), out)
    np.testing.assert_array_equal(out.asnumpy(), np.eye(4, dtype=np.float32)[[1, 0, 3]])
    got = mx.nd.choose_element_0index(x(2, 3), mx.nd.array([2, 0]))
    np.testing.assert_array_equal(got.asnumpy(), [2, 3])
    assert mx.nd.cast_storage(x(2, 3), stype="default").shape == (2, 3)
