"""MXNet 1.9.1's hybridize / CachedOp flags: accepted, checked, results unchanged."""
import numpy as np
import pytest

import weft as mx
from weft import gluon, nd
from weft.base import InvalidArgumentError


def _net():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(4, activation="relu"), gluon.nn.Dense(2))
    net.initialize(mx.init.Constant(0.1))
    return net


def test_hybridize_takes_mxnet_flags_and_gives_the_same_result():
    x = nd.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    net = _net()
    want = net(x).asnumpy()
    net.hybridize(static_alloc=True, static_shape=True, inline_limit=5, forward_bulk_size=15, backward_bulk_size=15)
    np.testing.assert_allclose(net(x).asnumpy(), want, rtol=1e-6)
    assert ("inline_limit", 5) in net._flags and ("forward_bulk_size", 15) in net._flags


def test_hybridize_rejects_unknown_flags_naming_them():
    net = _net()
    with pytest.raises(InvalidArgumentError, match="'fast_mode'"):
        net.hybridize(fast_mode=True)
    with pytest.raises(InvalidArgumentError, match="inline_limit"):
        net.hybridize(inline_limit=-1)
    with pytest.raises(InvalidArgumentError, match="backend"):
        net.hybridize(backend="MKLDNN")


def test_cached_op_takes_mxnet_flags():
    data = mx.sym.Variable("data")
    op = mx.nd.CachedOp(data * 2, [("static_alloc", True), ("inline_limit", 2), ("forward_bulk_size", 8),
                                   ("backward_bulk_size", 8), ("is_dynamic", False)])
    np.testing.assert_allclose(op(nd.ones((2,))).asnumpy(), [2, 2])
    with pytest.raises(InvalidArgumentError, match="'forward_bulk_size'"):
        mx.nd.CachedOp(data * 2, [("forward_bulk_size", "lots")])
    with pytest.raises(InvalidArgumentError, match="unknown flag 'speed'"):
        mx.nd.CachedOp(data * 2, [("speed", 1)])
