"""Fluent methods (x.sum(axis=1) == weft.nd.sum(x, axis=1)): the operators declare
them (OpDef::add_method, "methods" in the schema) and weft._fluent installs the
same list on NDArray and Symbol, so both sides offer the same operators."""
import numpy as np

import weft
from weft import _fluent


def test_one_method_list_for_ndarray_and_symbol():
    nd_ops = _fluent.method_ops(weft.nd._FUNCS)
    assert nd_ops == _fluent.method_ops(weft.sym._FUNCS)
    assert len(nd_ops) > 30 and "sum" in nd_ops and "cast" in nd_ops and "flatten" in nd_ops
    for name in nd_ops:
        assert callable(getattr(weft.nd.NDArray, name, None)), "NDArray.%s" % name
        assert callable(getattr(weft.sym.Symbol, name, None)), "Symbol.%s" % name
    # Names the registry lacks are not installed as methods that would fail later.
    assert _fluent.method_ops({"sum": None, "no_such_op": None}) == ["sum"]


def test_class_methods_are_kept():
    # NDArray.reshape / flatten are views written in the class, not the operators.
    assert weft.nd.NDArray.reshape.__qualname__ == "NDArray.reshape"
    assert weft.nd.NDArray.flatten.__qualname__ == "NDArray.flatten"
    assert weft.nd.NDArray.sum.__qualname__ == "NDArray.sum"
    assert weft.nd.NDArray.sum.__doc__.startswith("Same as weft.nd.sum(self, ...)")
    assert weft.sym.Symbol.sum.__doc__.startswith("Same as weft.sym.sum(self, ...)")


def test_methods_that_were_on_one_side_only_work_on_both():
    x = weft.nd.array([[1.5, -2.0], [3.0, 0.5]])
    np.testing.assert_array_equal(x.cast(dtype="int32").asnumpy(), [[1, -2], [3, 0]])
    np.testing.assert_array_equal((x > 0).where(x, x * 0).asnumpy(), [[1.5, 0.0], [3.0, 0.5]])
    np.testing.assert_array_equal(x.zeros_like().asnumpy(), np.zeros((2, 2)))

    a = weft.sym.var("a")
    exe = a.cast(dtype="int32").bind(weft.cpu(), {"a": x})
    np.testing.assert_array_equal(exe.forward()[0].asnumpy(), [[1, -2], [3, 0]])
    c, y = weft.sym.var("c"), weft.sym.var("y")
    exe = c.where(a, y).bind(weft.cpu(), {"c": x > 0, "a": x, "y": x * 0})
    np.testing.assert_array_equal(exe.forward()[0].asnumpy(), [[1.5, 0.0], [3.0, 0.5]])
    exe = a.flatten().bind(weft.cpu(), {"a": weft.nd.ones((2, 1, 3))})
    assert exe.forward()[0].shape == (2, 3)


def test_methods_are_declared_by_the_operators():
    import json
    # Each op's schema says under which of its names it is a method.
    assert json.loads(weft.base.op_schema("Cast"))["methods"] == ["cast"]
    assert json.loads(weft.base.op_schema("SliceChannel"))["methods"] == ["split"]
    assert json.loads(weft.base.op_schema("elemwise_add"))["methods"] == []
    methods = _fluent.registry_methods()
    assert "negative" not in methods  # MXNet's NDArray has -x, not x.negative()
    assert "cbrt" in methods and callable(weft.nd.NDArray.cbrt) and callable(weft.sym.Symbol.cbrt)
    np.testing.assert_allclose(weft.nd.array([8.0, -27.0]).cbrt().asnumpy(), [2.0, -3.0], rtol=1e-6)
