"""NDArray and Symbol methods as MXNet 1.9.1 has them, from its documented behaviour:
``inplace=`` on flatten / expand_dims / squeeze (a view sharing memory, else a
new array), reshape (always a view), slice_assign / slice_assign_scalar,
as_nd_ndarray / as_np_ndarray, to_dlpack_for_read / write; and the Symbol
methods that only NDArray implements (NotImplementedForSymbol), gradient,
get_backend_symbol, optimize_for and the shape methods."""
import logging
import pickle

import numpy as np
import pytest

import weft
from weft.base import NotImplementedForSymbol


def arange(*shape):
    return weft.nd.array(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))


@pytest.fixture(autouse=True)
def fresh_names():
    with weft.name.NameManager():
        yield


# ---- inplace= (MXNet 1.x: True returns a view, the default a new array) -------------------------
def test_flatten_inplace_is_a_view_default_is_a_copy():
    # MXNet's docstring example: x = arange(30).reshape(5,2,3).
    x = arange(5, 2, 3)
    y = x.flatten(inplace=True)
    z = x.flatten()
    assert y.shape == z.shape == (5, 6)
    np.testing.assert_array_equal(y[0].asnumpy(), [0, 1, 2, 3, 4, 5])
    assert y.shares_memory(x) and not z.shares_memory(x)
    y[:] = -1
    np.testing.assert_array_equal(x[0].asnumpy(), -np.ones((2, 3)))
    np.testing.assert_array_equal(z[0].asnumpy(), [0, 1, 2, 3, 4, 5])


def test_expand_dims_inplace_is_a_view_default_is_a_copy():
    x = arange(2, 3)
    y = x.expand_dims(1, inplace=True)
    z = x.expand_dims(1)
    assert y.shape == z.shape == (2, 1, 3)
    assert x.expand_dims(-1).shape == (2, 3, 1) and x.expand_dims(-3, inplace=True).shape == (1, 2, 3)
    y[:] = -1
    np.testing.assert_array_equal(x.asnumpy(), -np.ones((2, 3)))
    np.testing.assert_array_equal(z[0].asnumpy(), [[0, 1, 2]])
    with pytest.raises(weft.base.InvalidArgumentError, match="expand_dims"):
        x.expand_dims(3, inplace=True)
    with pytest.raises(weft.base.WeftError, match="expand_dims"):
        x.expand_dims(3)


def test_squeeze_inplace_is_a_view_default_is_a_copy():
    x = arange(1, 3, 1)
    y = x.squeeze(inplace=True)
    z = x.squeeze()
    assert y.shape == z.shape == (3,)
    assert x.squeeze(axis=0).shape == (3, 1) == x.squeeze(axis=0, inplace=True).shape
    assert x.squeeze(axis=(0, 2)).shape == (3,) == x.squeeze(axis=(0, -1), inplace=True).shape
    y[:] = 7
    np.testing.assert_array_equal(x.asnumpy().ravel(), [7, 7, 7])
    np.testing.assert_array_equal(z.asnumpy(), [0, 1, 2])
    # MXNet 1.x keeps one axis: squeeze([[[4]]]) = [4].
    one = weft.nd.array([[[4.0]]])
    assert one.squeeze().shape == (1,) == one.squeeze(inplace=True).shape
    with pytest.raises(weft.base.InvalidArgumentError, match="squeeze: axis 1 must have size 1"):
        x.squeeze(axis=1, inplace=True)
    with pytest.raises(weft.base.InvalidArgumentError, match="duplicate"):
        x.squeeze(axis=(0, 0), inplace=True)
    with pytest.raises(weft.base.WeftError, match="squeeze"):
        x.squeeze(axis=1)


def test_copies_record_gradients():
    x = arange(2, 1, 3)
    x.attach_grad()
    with weft.autograd.record():
        y = (x.squeeze() * 2).sum() + (x.flatten() * 3).sum() + (x.expand_dims(0) * 4).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), np.full((2, 1, 3), 9.0))


def test_reshape_is_always_a_view_as_in_mxnet():
    # MXNet's NDArray.reshape returns a view and takes only shape= and reverse=.
    x = arange(2, 3)
    y = x.reshape(3, 2)
    assert y.shares_memory(x)
    y[:] = -1
    np.testing.assert_array_equal(x.asnumpy(), -np.ones((2, 3)))
    assert x.reshape((-1, 0), reverse=True).shape == (2, 3)
    with pytest.raises(TypeError, match="inplace"):
        x.reshape((3, 2), inplace=True)


# ---- slice_assign / slice_assign_scalar -------------------------------------------------------------
def test_slice_assign_scalar_mxnet_example():
    x = weft.nd.ones((2, 2, 2))
    y = x.slice_assign_scalar(0, (0, 0, None), (1, 1, None), (None, None, None))
    assert y is x
    expect = np.ones((2, 2, 2))
    expect[0:1, 0:1, :] = 0
    np.testing.assert_array_equal(x.asnumpy(), expect)
    # Steps, negative indices and an integer dtype (the value is converted to it).
    a = weft.nd.zeros((4, 5), dtype="int32")
    a.slice_assign_scalar(3.9, (None, -4), (None, None), (2, 2))
    e = np.zeros((4, 5), dtype=np.int32)
    e[::2, -4::2] = 3
    np.testing.assert_array_equal(a.asnumpy(), e)
    with pytest.raises(TypeError, match="slice_assign_scalar: value must be a number"):
        x.slice_assign_scalar(weft.nd.ones((1,)), (0,), (1,), (None,))


def test_slice_assign():
    x = weft.nd.zeros((3, 4))
    rhs = weft.nd.array([[1, 2], [3, 4]])
    y = x.slice_assign(rhs, (1, 0), (3, 4), (None, 2))
    assert y is x
    e = np.zeros((3, 4))
    e[1:3, 0:4:2] = [[1, 2], [3, 4]]
    np.testing.assert_array_equal(x.asnumpy(), e)
    # rhs must have the region's shape (MXNet: "The shape of rhs should be the same as the cropped shape").
    with pytest.raises(weft.base.ShapeError, match="_slice_assign: input 'rhs' has shape"):
        x.slice_assign(weft.nd.ones((3, 3)), (0, 0), (2, 2), (None, None))


# ---- conversions ---------------------------------------------------------------------------------------
def test_as_nd_ndarray_and_as_np_ndarray():
    x = weft.nd.ones((2,))
    assert x.as_nd_ndarray() is x
    y = x.as_np_ndarray()  # a weft.np.ndarray over the same memory (no copy)
    assert isinstance(y, weft.np.ndarray) and type(x) is weft.nd.NDArray
    y[:] = 3
    np.testing.assert_array_equal(x.asnumpy(), [3, 3])
    assert y.as_nd_ndarray().__class__ is weft.nd.NDArray
    s = weft.sym.var("s")
    assert s.as_nd_ndarray() is s
    t = s.as_np_ndarray()  # a weft.sym.np._Symbol over the same graph (no node copied)
    assert isinstance(t, weft.sym.np._Symbol) and t.name == "s" and t.as_nd_ndarray().__class__ is weft.sym.Symbol


def test_to_dlpack_methods_mxnet_examples():
    x = weft.nd.ones((2, 3))
    y = x.to_dlpack_for_read()
    assert type(y).__name__ == "PyCapsule"
    z = weft.nd.from_dlpack(y)
    np.testing.assert_array_equal(z.asnumpy(), np.ones((2, 3)))
    w = x.to_dlpack_for_write()
    u = weft.nd.from_dlpack(w)
    u += 1
    u.wait_to_read()  # u is a second array over x's memory: its write is ordered on its own var
    np.testing.assert_array_equal(x.asnumpy(), np.full((2, 3), 2.0))
    # The same as the module functions.
    np.testing.assert_array_equal(weft.nd.from_dlpack(weft.nd.to_dlpack_for_read(x)).asnumpy(), x.asnumpy())


# ---- Symbol: the NDArray-only methods and the graph methods ----------------------------------------------
@pytest.mark.parametrize("method", ["asnumpy", "asscalar", "as_in_context", "detach", "backward", "wait_to_read"])
def test_ndarray_only_methods_raise_not_implemented_for_symbol(method):
    s = weft.sym.var("a") + 1
    with pytest.raises(NotImplementedForSymbol) as info:
        getattr(s, method)()
    assert str(info.value) == ("Function %s is not implemented for Symbol and only available in NDArray."
                               % method)
    assert isinstance(info.value, weft.base.MXNetError) and isinstance(info.value, NotImplementedError)
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is NotImplementedForSymbol and str(again) == str(info.value)
    # A device as argument (NDArray's signature) gets the same answer.
    if method == "as_in_context":
        with pytest.raises(NotImplementedForSymbol):
            s.as_in_context(weft.cpu())


def test_not_implemented_for_symbol_message_with_alias_and_args():
    err = NotImplementedForSymbol(test_not_implemented_for_symbol_message_with_alias_and_args, "+=", 1)
    assert str(err) == ('Function test_not_implemented_for_symbol_message_with_alias_and_args (namely operator '
                        '"+=") with arguments (<class \'int\'>) is not implemented for Symbol and only '
                        'available in NDArray.')


def test_symbol_gradient_is_not_implemented_as_in_mxnet():
    s = weft.sym.FullyConnected(weft.sym.var("data"), num_hidden=2)
    with pytest.raises(weft.base.MXNetError, match="not implemented"):
        s.gradient(["data"])
    with pytest.raises(TypeError, match="wrt must be a list"):
        s.gradient("data")


def test_get_backend_symbol_unknown_backend():
    s = weft.sym.var("a") * 2
    with pytest.raises(weft.base.NotFoundError, match="SubgraphProperty 'MKLDNN' is not found"):
        s.get_backend_symbol("MKLDNN")
    with pytest.raises(TypeError, match="backend must be a str"):
        s.get_backend_symbol(1)


def test_optimize_for_unknown_backend_logs_and_returns_the_graph(caplog):
    data = weft.sym.var("data")
    net = weft.sym.FullyConnected(data, num_hidden=3, name="fc")
    args = {"data": weft.nd.ones((2, 4)), "fc_weight": weft.nd.ones((3, 4)), "fc_bias": weft.nd.zeros((3,))}
    with caplog.at_level(logging.ERROR, logger="weft"):
        out = net.optimize_for("myBackend", args, ctx=weft.cpu())
    assert "Error optimizing for backend 'myBackend' cannot be found" in caplog.text
    assert out is not net and out.tojson() == net.tojson()
    assert sorted(args) == ["data", "fc_bias", "fc_weight"]
    np.testing.assert_allclose(out.eval(weft.cpu(), **args)[0].asnumpy(), np.full((2, 3), 4.0))
    with pytest.raises(TypeError, match="backend must be a str"):
        net.optimize_for(None)
    # A list in list_arguments() order is accepted too (None for an array not given).
    assert net.optimize_for("x", [args["data"], None, args["fc_bias"]]).tojson() == net.tojson()
    with pytest.raises(ValueError, match="args has 1 arrays, the symbol has 3"):
        net.optimize_for("x", [weft.nd.ones((2, 4))])
    with pytest.raises(TypeError, match="args must be a dict"):
        net.optimize_for("x", weft.nd.ones((2, 4)))
    with pytest.raises(TypeError, match=r"args\['data'\] must be an NDArray"):
        net.optimize_for("x", {"data": np.ones((2, 4))})
    with pytest.raises(TypeError, match="ctx must be a weft.Context"):
        net.optimize_for("x", ctx="cpu")


def test_symbol_shape_methods():
    a = weft.sym.var("a")
    x = arange(2, 1, 3)
    for sym_out, expect in ((a.expand_dims(axis=0), x.asnumpy()[None]),
                            (a.flatten(), x.asnumpy().reshape(2, 3)),
                            (a.squeeze(), x.asnumpy().reshape(2, 3)),
                            (a.squeeze(axis=1), x.asnumpy().reshape(2, 3)),
                            (a.zeros_like(), np.zeros((2, 1, 3))),
                            (a.ones_like(), np.ones((2, 1, 3)))):
        np.testing.assert_array_equal(sym_out.eval(weft.cpu(), a=x)[0].asnumpy(), expect)
    assert a.expand_dims(axis=1).infer_shape(a=(2, 3))[1] == [(2, 1, 3)]


# ---- module functions of mx.nd written in Python in MXNet --------------------------------------------------
def test_broadcast_to_and_like_methods_mxnet_examples():
    x = weft.nd.arange(0, 3).reshape((1, 3, 1))
    y = x.broadcast_to((2, 3, 3))
    np.testing.assert_array_equal(y.asnumpy(), np.broadcast_to(np.arange(3.0).reshape(1, 3, 1), (2, 3, 3)))
    np.testing.assert_array_equal(x.broadcast_like(weft.nd.ones((2, 3, 3))).asnumpy(), y.asnumpy())
    # Missing leading axes count as length 1 (the NDArray method, not the operator).
    v = weft.nd.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(v.broadcast_to((2, 3)).asnumpy(), [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_array_equal(v.broadcast_like(weft.nd.zeros((2, 2, 3))).asnumpy(), np.ones((2, 2, 1)) * [1, 2, 3])
    # Never a view, even for the same shape.
    same = v.broadcast_to((3,))
    assert not same.shares_memory(v)
    with pytest.raises(ValueError, match=r"remapped shapes \[original->remapped\]: \(3,\) and requested shape \(2, 2\)"):
        v.broadcast_to((2, 2))
    with pytest.raises(ValueError, match="requested shape"):
        weft.nd.ones((2, 3)).broadcast_to((3,))
