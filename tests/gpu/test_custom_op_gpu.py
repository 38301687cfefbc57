"""weft.operator on a GPU context (issue 19 point 2): a CustomOp's Python
callbacks get host copies of gpu(0) arrays, and its outputs land back on
gpu(0). Runs on the host emulation in CI (tests/gpu/conftest.py)."""
import numpy as np

import weft as mx


def softmax_np(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class Softmax(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        self.assign(out_data[0], req[0], mx.nd.array(softmax_np(x)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        label = in_data[1].asnumpy().ravel().astype(int)
        y = out_data[0].asnumpy()
        y[np.arange(label.shape[0]), label] -= 1.0
        self.assign(in_grad[0], req[0], mx.nd.array(y))
        self.assign(in_grad[1], req[1], mx.nd.zeros_like(in_data[1]))


@mx.operator.register("test_gpu_softmax")
class SoftmaxProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)

    def list_arguments(self):
        return ["data", "label"]

    def list_outputs(self):
        return ["output"]

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return Softmax()


def test_gpu_context_runs_the_callbacks_on_host_copies():
    x = np.random.RandomState(5).randn(3, 4).astype(np.float32)
    label = np.array([0, 1, 2], dtype=np.float32)
    data = mx.nd.array(x, ctx=mx.gpu(0))
    data.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Custom(data, mx.nd.array(label, ctx=mx.gpu(0)), op_type="test_gpu_softmax")
    y.backward()
    assert y.context == mx.gpu(0) and data.grad.context == mx.gpu(0)
    p = softmax_np(x)
    np.testing.assert_allclose(y.asnumpy(), p, rtol=1e-5, atol=1e-6)
    p[np.arange(3), label.astype(int)] -= 1.0
    np.testing.assert_allclose(data.grad.asnumpy(), p, rtol=1e-5, atol=1e-6)
