"""np.linalg.norm graphs MXNet 1.9.1 wrote in NumPy mode with an explicit numeric ord (_npi_norm,
flag -1) that the graph reader once refused -- axis=None, where the input's rank chooses a vector
or a matrix norm, and ords other than 1 and 2 over one axis -- load as _weft_np_norm (Note [Norms
by the input's rank] in core/op/linalg/np_norm.cc) and compute what MXNet computed: values,
shapes and dtypes forward, and the input gradient for a head of ones.
tests/python/mxnet_written/np_norm_nodes/ holds what MXNet wrote (its make_with_mxnet.py)."""
import glob
import json
import os

import numpy as onp
import pytest

import weft
from weft import npx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_norm_nodes")
CASES = sorted(os.path.basename(p)[:-len("-symbol.json")] for p in glob.glob(os.path.join(HERE, "*-symbol.json")))


@pytest.fixture(scope="module")
def arrays():
    return {k: v.asnumpy() for k, v in npx.load(os.path.join(HERE, "arrays.params")).items()}


def _of(arrays, case, kind):
    prefix = "%s:%s:" % (case, kind)
    return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}


def _load(case):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        return f.read()


def test_every_case_is_in_the_fixtures_and_is_a_flag_minus_1_norm():
    assert len(CASES) == 12  # the cases make_with_mxnet.py writes
    for case in CASES:
        nodes = [n for n in json.loads(_load(case))["nodes"] if n["op"] != "null"]
        assert [n["op"] for n in nodes] == ["_npi_norm"] and nodes[0]["attrs"]["flag"] == "-1", case


@pytest.mark.parametrize("case", CASES)
def test_forward_and_backward_equal_mxnets(case, arrays):
    sym = weft.sym.load_json(_load(case))
    assert [n["op"] for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"] == ["_weft_np_norm"]
    x = _of(arrays, case, "in")["a"]
    want, want_grad = _of(arrays, case, "out")["0"], _of(arrays, case, "grad")["a"]
    grad = weft.nd.zeros(x.shape, dtype=x.dtype)
    exe = sym.bind(weft.cpu(), {"a": weft.nd.array(x, dtype=x.dtype)}, args_grad={"a": grad})
    y = exe.forward(is_train=True)[0]
    got = y.asnumpy()
    assert got.dtype == want.dtype and got.shape == want.shape, (case, got.dtype, got.shape, want.shape)
    tol = dict(rtol=1e-5, atol=1e-6) if x.dtype == onp.float32 else dict(rtol=1e-12, atol=1e-12)
    onp.testing.assert_allclose(got, want, **tol)
    exe.backward([weft.nd.ones(y.shape, dtype=y.dtype)])
    onp.testing.assert_allclose(grad.asnumpy(), want_grad, rtol=1e-4, atol=1e-5)


def _node(attrs):
    nodes = [{"op": "null", "name": "a", "inputs": []},
             {"op": "_npi_norm", "name": "n", "attrs": attrs, "inputs": [[0, 0, 0]]}]
    return json.dumps({"nodes": nodes, "arg_nodes": [0], "heads": [[1, 0, 0]],
                       "attrs": {"mxnet_version": ["int", 10901]}})


@pytest.mark.parametrize("ord_text,ord", [("inf", onp.inf), ("-inf", -onp.inf), ("0", 0), ("-2", -2), ("0.25", 0.25)])
def test_vector_ords_mxnet_computes_in_python_equal_numpys(ord_text, ord):
    # MXNet's np.linalg.norm computes ord=+-inf of a vector in Python (max/min of abs), but a graph may
    # hold them: NumPy's formulas
    x = onp.random.RandomState(0).uniform(-2, 2, size=(3, 5))
    sym = weft.sym.load_json(_node({"ord": ord_text, "axis": "(1,)", "flag": "-1", "keepdims": "False"}))
    got = sym.bind(weft.cpu(), {"a": weft.nd.array(x, dtype="float64")}).forward()[0].asnumpy()
    onp.testing.assert_allclose(got, onp.linalg.norm(x, ord, axis=1), rtol=1e-12)


@pytest.mark.parametrize("shape,attrs,what", [
    ((2, 3, 4), {"ord": "3", "axis": "None", "flag": "-1"}, "improper number of dimensions"),
    ((3, 4), {"ord": "3", "axis": "None", "flag": "-1"}, "invalid norm order"),
    ((3, 4), {"ord": "0.5", "axis": "(0, 1)", "flag": "-1"}, "invalid norm order"),
    ((0, 4), {"ord": "inf", "axis": "(0,)", "flag": "-1"}, "zero-size array"),
])
def test_what_numpy_refuses_is_refused_when_the_graph_is_bound(shape, attrs, what):
    # Note [Norms by the input's rank]: NumPy refuses these; MXNet 1.9.1 returns numbers for the first two
    sym = weft.sym.load_json(_node(attrs))
    with pytest.raises(weft.base.MXNetError) as e:
        sym.bind(weft.cpu(), {"a": weft.nd.ones(shape)}).forward()[0].asnumpy()
    assert "_weft_np_norm" in str(e.value) and what in str(e.value)
