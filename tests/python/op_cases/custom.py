"""Cases of Custom and _backward_Custom (core/op/custom/custom.cc): a softmax
written as a weft.operator.CustomOp (registered here as "harness_softmax",
taking a `scale` keyword argument that arrives as a string, as MXNet passes
it) against NumPy. The backward case is the softmax-with-label gradient
(softmax(scale * x) - one_hot(label)) * scale for data, zeros for label."""
import numpy as np

import weft

from .case import Case

F32 = np.float32


def _softmax(x, scale=1.0):
    z = scale * x.astype(np.float64)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class _HarnessSoftmax(weft.operator.CustomOp):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        self.assign(out_data[0], req[0], _softmax(x, self.scale).astype(x.dtype))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        label = in_data[1].asnumpy().astype(np.int64)
        y = out_data[0].asnumpy().copy()
        y[np.arange(y.shape[0]), label] -= 1.0
        self.assign(in_grad[0], req[0], weft.nd.array(y * self.scale, dtype=y.dtype))
        self.assign(in_grad[1], req[1], weft.nd.zeros(in_data[1].shape, dtype=in_data[1].dtype))


@weft.operator.register("harness_softmax")
class _HarnessSoftmaxProp(weft.operator.CustomOpProp):
    def __init__(self, scale="1.0"):
        super().__init__(need_top_grad=False)
        self.scale = float(scale)  # keyword arguments arrive as strings

    def list_arguments(self):
        return ["data", "label"]

    def list_outputs(self):
        return ["output"]

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _HarnessSoftmax(self.scale)


def _inputs(dtype=F32):
    def make(rng):
        return [rng.standard_normal((5, 4)).astype(dtype), rng.integers(0, 4, size=(5,)).astype(dtype)]
    return make


def _backward_inputs(scale):
    def make(rng):
        x, label = _inputs()(rng)
        return [x, label, _softmax(x, scale).astype(F32)]
    return make


def _backward_ref(scale):
    def ref(x, label, y):
        g = y.astype(np.float64).copy()
        g[np.arange(g.shape[0]), label.astype(np.int64)] -= 1.0
        return (g * scale).astype(F32), np.zeros_like(label)
    return ref


CASES = {
    "Custom": [
        Case(_inputs(), {"op_type": "harness_softmax"},
             lambda x, label: _softmax(x).astype(F32), rtol=1e-5, atol=1e-6, name="softmax"),
        Case(_inputs(), {"op_type": "harness_softmax", "scale": 2.5},
             lambda x, label: _softmax(x, 2.5).astype(F32), rtol=1e-5, atol=1e-6, name="kwarg as string"),
        Case(_inputs(np.float64), {"op_type": "harness_softmax"},
             lambda x, label: _softmax(x), rtol=1e-12, atol=1e-12, name="float64"),
    ],
    "_backward_Custom": [
        Case(_backward_inputs(1.0), {"op_type": "harness_softmax"}, _backward_ref(1.0), name="softmax gradient"),
        Case(_backward_inputs(2.5), {"op_type": "harness_softmax", "scale": 2.5}, _backward_ref(2.5),
             rtol=1e-5, atol=1e-5, name="softmax gradient, scale 2.5"),
    ],
}
