"""weft.operator on a GPU context (issue 19 point 2): under autograd, a
CustomOp's Python callbacks get host copies of gpu(0) arrays and its output
and gradient land back on gpu(0). The op is the harness's softmax
(tests/python/op_cases/custom.py). Runs on the host emulation in CI."""
import numpy as np

import weft as mx
from op_cases.custom import _softmax  # registers the "harness_softmax" CustomOp


def test_gpu_context_runs_the_callbacks_on_host_copies():
    x = np.random.RandomState(5).randn(3, 4).astype(np.float32)
    label = np.array([0, 1, 2], dtype=np.float32)
    data = mx.nd.array(x, ctx=mx.gpu(0))
    data.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Custom(data, mx.nd.array(label, ctx=mx.gpu(0)), op_type="harness_softmax", scale=2.0)
    y.backward()
    assert y.context == mx.gpu(0) and data.grad.context == mx.gpu(0)
    p = _softmax(x, 2.0)
    np.testing.assert_allclose(y.asnumpy(), p, rtol=1e-5, atol=1e-6)
    p[np.arange(3), label.astype(int)] -= 1.0
    np.testing.assert_allclose(data.grad.asnumpy(), p * 2.0, rtol=1e-5, atol=1e-6)
