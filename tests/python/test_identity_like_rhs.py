"""`_identity_with_attr_like_rhs` (issue 41, point 6): MXNet 1.9.1's legacy test modules import it at module level
(`from mxnet.symbol._internal import _identity_with_attr_like_rhs`). Its value is lhs; lhs, rhs and the output share
one shape and one dtype (MXNet's ElemwiseShape<2, 1> / ElemwiseType<2, 1>); the gradient of lhs is the head
gradient, that of rhs zeros (MXNet's `_backward_copy` and `zeros_like`). The harness checks the forward values
(tests/python/op_cases/elemwise_more.py)."""
import numpy as np
import pytest

import weft as mx
from weft.ndarray._internal import _identity_with_attr_like_rhs as nd_identity_like_rhs
from weft.symbol._internal import _identity_with_attr_like_rhs


def test_import_line_of_mxnet_test_modules():
    lhs, rhs = mx.sym.Variable("lhs"), mx.sym.Variable("rhs")
    out = _identity_with_attr_like_rhs(lhs, rhs, name="ident")
    assert out.list_arguments() == ["lhs", "rhs"]
    assert out.list_outputs() == ["ident_output"]
    assert mx.nd._internal._identity_with_attr_like_rhs is nd_identity_like_rhs


def test_shape_and_dtype_come_from_rhs():
    lhs, rhs = mx.sym.Variable("lhs"), mx.sym.Variable("rhs")
    out = _identity_with_attr_like_rhs(lhs, rhs)
    arg_shapes, out_shapes, _ = out.infer_shape(rhs=(2, 3))
    assert arg_shapes == [(2, 3), (2, 3)] and out_shapes == [(2, 3)]
    arg_types, out_types, _ = out.infer_type(rhs=np.float64)
    assert arg_types == [np.float64, np.float64] and out_types == [np.float64]
    with pytest.raises(mx.base.WeftError, match="_identity_with_attr_like_rhs"):
        out.infer_shape(lhs=(2, 3), rhs=(3, 2))


def test_bound_forward_and_backward():
    lhs, rhs = mx.sym.Variable("lhs"), mx.sym.Variable("rhs")
    out = _identity_with_attr_like_rhs(lhs * 2, rhs)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.full((2, 3), 7, np.float32)
    exe = out.simple_bind(mx.cpu(), lhs=(2, 3))
    exe.forward(is_train=True, lhs=x, rhs=y)
    np.testing.assert_array_equal(exe.outputs[0].asnumpy(), 2 * x)
    head = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    exe.backward(mx.nd.array(head))
    np.testing.assert_allclose(exe.grad_dict["lhs"].asnumpy(), 2 * head, rtol=1e-6)
    np.testing.assert_array_equal(exe.grad_dict["rhs"].asnumpy(), np.zeros((2, 3), np.float32))


def test_imperative_with_autograd():
    a = mx.nd.array([[1.0, -2.0], [3.0, 4.5]])
    b = mx.nd.array([[9.0, 9.0], [9.0, 9.0]])
    a.attach_grad()
    b.attach_grad()
    with mx.autograd.record():
        y = nd_identity_like_rhs(a, b)
        loss = (y * y).sum()
    loss.backward()
    np.testing.assert_array_equal(y.asnumpy(), a.asnumpy())
    np.testing.assert_allclose(a.grad.asnumpy(), 2 * a.asnumpy())
    np.testing.assert_array_equal(b.grad.asnumpy(), np.zeros((2, 2), np.float32))


def test_mismatched_shapes_are_refused_imperatively():
    with pytest.raises(mx.base.WeftError, match="_identity_with_attr_like_rhs"):
        nd_identity_like_rhs(mx.nd.ones((2, 3)), mx.nd.ones((3, 2)))
    with pytest.raises(mx.base.WeftError, match="_identity_with_attr_like_rhs"):
        nd_identity_like_rhs(mx.nd.ones((2, 3)), mx.nd.ones((2, 3), dtype="float64"))
