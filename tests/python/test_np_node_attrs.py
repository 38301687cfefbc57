"""Graphs MXNet 1.9.1 wrote in NumPy mode with attribute values the graph reader once refused
(issue 37's attribute values) load in Weft and compute what MXNet computed: values, shapes and
dtypes, forward. tests/python/mxnet_written/np_node_attrs/ holds what MXNet wrote (its
make_with_mxnet.py): one <case>-symbol.json per case and arrays.params (V3 records) with each
case's inputs and MXNet's outputs. The values the reader still refuses are checked below too."""
import glob
import json
import os

import numpy as onp
import pytest

import weft
from weft import npx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_node_attrs")
CASES = sorted(os.path.basename(p)[:-len("-symbol.json")] for p in glob.glob(os.path.join(HERE, "*-symbol.json")))


@pytest.fixture(scope="module")
def arrays():
    return {k: v.asnumpy() for k, v in npx.load(os.path.join(HERE, "arrays.params")).items()}


def _of(arrays, case, kind):
    prefix = "%s:%s:" % (case, kind)
    return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}


def test_every_case_is_in_the_fixtures():
    assert len(CASES) == 36  # the cases make_with_mxnet.py writes


@pytest.mark.parametrize("case", CASES)
def test_mxnet_written_graph_loads_and_computes_mxnets_values(case, arrays):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        sym = weft.sym.load_json(f.read())
    inputs = _of(arrays, case, "in")
    outs = _of(arrays, case, "out")
    assert inputs and outs, case
    args = {k: weft.nd.array(v, dtype=v.dtype) for k, v in inputs.items()}
    got = sym.bind(weft.cpu(), args).forward()
    assert len(got) == len(outs)
    for k, y in enumerate(got):
        want = outs[str(k)]
        y = y.asnumpy()
        assert y.dtype == want.dtype, (case, k, y.dtype, want.dtype)
        assert y.shape == want.shape, (case, k, y.shape, want.shape)
        onp.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)


def _node(op, attrs, n_inputs=1):
    nodes = [{"op": "null", "name": "in%d" % i, "inputs": []} for i in range(n_inputs)]
    nodes.append({"op": op, "name": "n", "attrs": attrs, "inputs": [[i, 0, 0] for i in range(n_inputs)]})
    return json.dumps({"nodes": nodes, "arg_nodes": list(range(n_inputs)), "heads": [[n_inputs, 0, 0]],
                       "attrs": {"mxnet_version": ["int", 10901]}})


@pytest.mark.parametrize("op", ["_np_sum", "_npi_mean", "_np_max", "_np_min", "_np_prod"])
def test_a_reduction_over_no_axis_keeps_values_and_shape(op):
    # Note [NumPy sums and their dtypes]: axis=() reduces nothing, in `dtype` where the op takes one
    x = onp.arange(-3, 3, dtype=onp.float32).reshape(2, 3)
    cases = [({"axis": "()"}, onp.float32), ({"axis": "()", "keepdims": "True"}, onp.float32)]
    if op not in ("_np_max", "_np_min"):  # max and min take no dtype (MXNet 1.9.1)
        cases.append(({"axis": "()", "dtype": "float16"}, onp.float16))
    for attrs, dtype in cases:
        y = weft.sym.load_json(_node(op, attrs)).bind(weft.cpu(), {"in0": weft.nd.array(x)}).forward()[0].asnumpy()
        assert y.dtype == dtype and y.shape == (2, 3), (op, attrs)
        onp.testing.assert_array_equal(y, x.astype(dtype))


def test_a_reduction_with_a_dtype_loads_as_itself_and_is_written_back():
    # Note [NumPy sums and their dtypes]: MXNet's alias _np_product too; the node is written back
    # as the file spelled it, which MXNet loads
    x = onp.full((3, 30), 100, onp.int8)
    sym = weft.sym.load_json(_node("_np_product", {"axis": "0", "dtype": "int64"}))
    y = sym.bind(weft.cpu(), {"in0": weft.nd.array(x, dtype="int8")}).forward()[0].asnumpy()
    assert y.dtype == onp.int64 and y.shape == (30,)
    onp.testing.assert_array_equal(y, onp.full((30,), 10 ** 6, onp.int64))
    ops = [n["op"] for n in json.loads(sym.tojson())["nodes"]]
    assert ops == ["null", "_np_product"], ops
    again = weft.sym.load_json(sym.tojson()).bind(weft.cpu(), {"in0": weft.nd.array(x, dtype="int8")}).forward()[0]
    onp.testing.assert_array_equal(again.asnumpy(), y)


@pytest.mark.parametrize("op,dtype,want", [("_np_sum", "bool", onp.int64), ("_np_prod", "bool", onp.int64),
                                           ("_np_sum", "int32", onp.int32), ("_npi_mean", "int32", onp.float32),
                                           ("_npi_mean", "bool", onp.float32), ("_npi_mean", "float16", onp.float16),
                                           ("_np_max", "bool", onp.bool_), ("_np_min", "int8", onp.int8)])
def test_a_full_reduction_is_0d_in_mxnets_dtype(op, dtype, want):
    x = (onp.arange(6).reshape(2, 3) % 3).astype(dtype)
    y = weft.sym.load_json(_node(op, {})).bind(weft.cpu(), {"in0": weft.nd.array(x, dtype=dtype)}).forward()[0]
    y = y.asnumpy()
    assert y.dtype == want and y.shape == (), (op, dtype, y.dtype, y.shape)
    ref = {"_np_sum": onp.sum, "_np_prod": onp.prod, "_npi_mean": onp.mean, "_np_max": onp.max, "_np_min": onp.min}
    onp.testing.assert_allclose(y.astype(onp.float64), ref[op](x.astype(onp.float64)), rtol=1e-6)


def test_a_full_reduction_with_a_dtype():
    # Note [NumPy sums and their dtypes]: () as MXNet gives
    x = onp.arange(1, 7, dtype=onp.int32).reshape(2, 3)
    sym = weft.sym.load_json(_node("_npi_mean", {"dtype": "float64"}))
    y = sym.bind(weft.cpu(), {"in0": weft.nd.array(x, dtype="int32")}).forward()[0].asnumpy()
    assert y.dtype == onp.float64 and y.shape == ()
    assert y == 3.5


@pytest.mark.parametrize("attrs,n_inputs", [({"axis": "0", "dtype": "int64"}, 2),
                                             ({"axis": "0", "dtype": "complex7"}, 1)])
def test_a_reduction_with_a_dtype_and_bad_inputs_or_dtype_is_refused(attrs, n_inputs):
    with pytest.raises(weft.base.MXNetError) as e:
        weft.sym.load_json(_node("_np_sum", attrs, n_inputs=n_inputs))
    assert ("complex7" if n_inputs == 1 else "takes 1 input") in str(e.value)


def test_a_bool_sum_in_float16_is_refused_as_in_mxnet():
    sym = weft.sym.load_json(_node("_np_sum", {"dtype": "float16"}))
    with pytest.raises(weft.base.MXNetError) as e:
        sym.bind(weft.cpu(), {"in0": weft.nd.array(onp.ones((2, 2), bool), dtype="bool")}).forward()
    assert "_np_sum" in str(e.value) and "'dtype'" in str(e.value)


@pytest.mark.parametrize("op,attrs", [("_np_sum", {"axis": "0", "initial": "1.0"}),
                                      ("_np_max", {"axis": "()", "initial": "1.0"}),
                                      ("_np_amax", {"axis": "1", "initial": "2.0"})])
def test_initial_is_refused_as_in_mxnet(op, attrs):
    # MXNet 1.9.1 refuses to compute `initial` itself ("initial is not supported yet")
    sym = weft.sym.load_json(_node(op, attrs))
    with pytest.raises(weft.base.MXNetError) as e:
        sym.bind(weft.cpu(), {"in0": weft.nd.ones((2, 3))}).forward()
    assert "'initial'" in str(e.value) and "not supported" in str(e.value)


def test_max_of_an_empty_axis_is_refused_as_in_mxnet():
    sym = weft.sym.load_json(_node("_np_max", {"axis": "0"}))
    with pytest.raises(weft.base.MXNetError) as e:
        sym.bind(weft.cpu(), {"in0": weft.nd.zeros((0, 3))}).forward()
    assert "zero-size array" in str(e.value)


def test_reshape_skip_of_a_dimension_not_1_fails_as_in_mxnet():
    # Note [npx.reshape's -3]: the dimension -3 stands for must be 1
    sym = weft.sym.load_json(_node("_npx_reshape", {"newshape": "(-2, -3)", "reverse": "False"}))
    with pytest.raises(weft.base.MXNetError):
        sym.bind(weft.cpu(), {"in0": weft.nd.ones((2, 3))}).forward()[0].asnumpy()
    ok = sym.bind(weft.cpu(), {"in0": weft.nd.ones((2, 1))}).forward()[0]
    assert ok.shape == (2,)


def test_reshape_of_only_skips_needs_one_element_left_as_in_mxnet():
    # Note [npx.reshape's -3]: squeeze, then _np_reshape to (); (1, 2) with (-3,) fails in MXNet 1.9.1 too
    sym = weft.sym.load_json(_node("_npx_reshape", {"newshape": "(-3,)", "reverse": "False"}))
    assert [n["op"] for n in json.loads(sym.tojson())["nodes"]] == ["null", "squeeze", "_np_reshape"]
    with pytest.raises(weft.base.MXNetError):
        sym.bind(weft.cpu(), {"in0": weft.nd.ones((1, 2))}).forward()[0].asnumpy()
    ok = sym.bind(weft.cpu(), {"in0": weft.nd.array([[7.0]])}).forward()[0].asnumpy()
    assert ok.shape == () and ok == 7.0


@pytest.mark.parametrize("op,attrs,what", [
    # Note [npx.reshape's -3]: no dimension is left after -4 (MXNet 1.9.1 fails on every input too)
    ("_npx_reshape", {"newshape": "(-4, -3)"}, "code -3 after -4"),
    ("_npx_reshape", {"newshape": "(-2, -4, -3)"}, "code -3 after -4"),
])
def test_values_still_refused(op, attrs, what):
    with pytest.raises(weft.base.MXNetError) as e:
        weft.sym.load_json(_node(op, attrs))
    assert op in str(e.value) and what in str(e.value)
