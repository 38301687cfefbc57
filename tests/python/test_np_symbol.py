"""NumPy-semantics symbols (issue 39 point 2): MXNet 1.9.1's NumPy-mode operator
names in the registry, weft.sym.np / weft.sym.npx composing them over _Symbols,
and graphs written and read under those names (MXNet's np-mode JSON)."""
import json

import numpy as onp
import pytest

import weft as mx
from np_reference import reference_names
from weft.symbol.numpy import _Symbol


# MXNet 1.9.1's NumPy-mode name -> the Weft operator it is an alias of
# (Note [NumPy-mode op names] in core/opdef/np_op_names.cc).
NPX = {"activation": "Activation", "arange_like": "_contrib_arange_like", "batch_dot": "batch_dot",
       "batch_flatten": "Flatten", "batch_norm": "BatchNorm", "cast": "Cast", "convolution": "Convolution",
       "deconvolution": "Deconvolution", "dropout": "Dropout", "embedding": "Embedding", "erf": "erf",
       "erfinv": "erfinv", "fully_connected": "FullyConnected", "gamma": "gamma", "gammaln": "gammaln",
       "gather_nd": "gather_nd", "layer_norm": "LayerNorm", "leaky_relu": "LeakyReLU",
       "log_softmax": "log_softmax", "multibox_detection": "_contrib_MultiBoxDetection",
       "multibox_prior": "_contrib_MultiBoxPrior", "multibox_target": "_contrib_MultiBoxTarget",
       "one_hot": "one_hot", "pick": "pick", "pooling": "Pooling", "relu": "relu", "reshape_like": "reshape_like",
       "rnn": "RNN", "roi_pooling": "ROIPooling", "sequence_mask": "SequenceMask", "shape_array": "shape_array",
       "sigmoid": "sigmoid", "slice": "slice", "smooth_l1": "smooth_l1", "softmax": "softmax", "topk": "topk"}
NPI_BINARY = {"add": "broadcast_add", "subtract": "broadcast_sub", "multiply": "broadcast_mul",
              "true_divide": "broadcast_div", "mod": "broadcast_mod", "power": "broadcast_power",
              "maximum": "broadcast_maximum", "minimum": "broadcast_minimum", "hypot": "broadcast_hypot"}
NPI_SCALAR = {"add": "_plus_scalar", "subtract": "_minus_scalar", "rsubtract": "_rminus_scalar",
              "multiply": "_mul_scalar", "true_divide": "_div_scalar", "rtrue_divide": "_rdiv_scalar",
              "mod": "_mod_scalar", "rmod": "_rmod_scalar", "power": "_power_scalar", "rpower": "_rpower_scalar",
              "maximum": "_maximum_scalar", "minimum": "_minimum_scalar"}
NPI_UNARY = {"negative": "negative", "absolute": "abs"}
NPI_UNARY.update({n: n for n in (
    "exp log log2 log10 log1p expm1 sqrt cbrt square reciprocal sin cos tan arcsin arccos arctan sinh cosh tanh "
    "arcsinh arccosh arctanh sign rint ceil floor trunc fix degrees radians").split()})
OTHER = {"_np_transpose": "transpose", "_npi_stack": "stack", "_npi_split": "_split_v2", "_np_copy": "_copyto",
         "_np_squeeze": "squeeze", "_npi_expand_dims": "expand_dims", "_np_broadcast_to": "broadcast_to",
         "_npi_tile": "tile", "_npi_swapaxes": "SwapAxis", "_npi_clip": "clip", "_npi_zeros": "_zeros",
         "_npi_ones": "_ones", "_npi_full": "_full", "_npi_arange": "_arange", "_npi_eye": "_eye",
         "_np_zeros_like": "zeros_like", "_np_ones_like": "ones_like"}
ALIASES = dict(OTHER)
ALIASES.update({"_npx_" + k: v for k, v in NPX.items()})
ALIASES.update({"_npi_" + k: v for k, v in NPI_BINARY.items()})
ALIASES.update({"_npi_%s_scalar" % k: v for k, v in NPI_SCALAR.items()})
ALIASES.update({"_npi_" + k: v for k, v in NPI_UNARY.items()})


@pytest.fixture(autouse=True)
def _np_mode():
    mx.npx.set_np()
    yield
    mx.npx.reset_np()


def _eval(sym, **inputs):
    ex = sym.bind(mx.cpu(), {k: mx.nd.array(v) for k, v in inputs.items()})
    return [o.asnumpy() for o in ex.forward()]


def _ops(sym):
    return [n["op"] for n in json.loads(sym.tojson())["nodes"] if n["op"] != "null"]


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_numpy_mode_name_is_an_alias_of_the_weft_op(alias):
    schema = json.loads(mx.base.op_schema(alias))
    assert schema["name"] == ALIASES[alias]
    assert alias in schema["aliases"]


def test_npx_names_are_mxnet_npx_functions():
    """Each _npx_ operator is a function of MXNet 1.9.1's mx.npx (the reference list)."""
    npx_names = reference_names()["mx.npx"]
    assert set(NPX) <= npx_names, sorted(set(NPX) - npx_names)
    for name in NPX:
        assert callable(getattr(mx.sym.npx, name))


def test_symbol_namespaces():
    assert mx.sym.np is mx.symbol.numpy and mx.sym.npx is mx.symbol.numpy_extension
    x = mx.sym.var("x").as_np_ndarray()
    assert isinstance(x, _Symbol) and x.as_np_ndarray() is x
    assert type(x.as_nd_ndarray()) is mx.sym.Symbol and x.as_nd_ndarray().name == "x"


def test_operators_compose_broadcasting_numpy_ops():
    a, b = mx.sym.var("a").as_np_ndarray(), mx.sym.var("b").as_np_ndarray()
    cases = [(a + b, "_npi_add", onp.add), (a - b, "_npi_subtract", onp.subtract),
             (a * b, "_npi_multiply", onp.multiply), (a / b, "_npi_true_divide", onp.true_divide),
             (a ** b, "_npi_power", onp.power), (mx.sym.np.maximum(a, b), "_npi_maximum", onp.maximum)]
    x = onp.random.uniform(1, 2, size=(2, 3)).astype("float32")
    y = onp.random.uniform(1, 2, size=(3,)).astype("float32")  # broadcast, as MXNet's _npi_* do
    for sym, op, ref in cases:
        assert isinstance(sym, _Symbol) and _ops(sym) == [op]
        onp.testing.assert_allclose(_eval(sym, a=x, b=y)[0], ref(x, y), rtol=1e-6)


def test_scalar_operators_write_mxnet_scalar_ops():
    a = mx.sym.var("a").as_np_ndarray()
    x = onp.random.uniform(1, 2, size=(2, 3)).astype("float32")
    cases = [(a + 2, "_npi_add_scalar", x + 2), (2 - a, "_npi_rsubtract_scalar", 2 - x),
             (a * 0.5, "_npi_multiply_scalar", x * 0.5), (1 / a, "_npi_rtrue_divide_scalar", 1 / x),
             (a ** 2, "_npi_power_scalar", x ** 2), (2 ** a, "_npi_rpower_scalar", 2 ** x),
             (-a, "_npi_negative", -x), (abs(a), "_npi_absolute", abs(x))]
    for sym, op, want in cases:
        assert _ops(sym) == [op]
        onp.testing.assert_allclose(_eval(sym, a=x)[0], want, rtol=1e-5)
    node = [n for n in json.loads((a + 2).tojson())["nodes"] if n["op"] != "null"][0]
    assert node["attrs"] == {"scalar": "2", "is_int": "True"}  # MXNet's NumpyBinaryScalarParam
    node = [n for n in json.loads((a * 0.5).tojson())["nodes"] if n["op"] != "null"][0]
    assert node["attrs"] == {"scalar": "0.5", "is_int": "False"}


def test_functions_and_methods():
    np_, npx = mx.sym.np, mx.sym.npx
    a = mx.sym.var("a").as_np_ndarray()
    x = onp.random.uniform(-1, 1, size=(2, 3, 4)).astype("float32")
    cases = [
        (np_.exp(a), onp.exp(x)), (np_.tanh(a), onp.tanh(x)), (a.reshape(6, -1), x.reshape(6, -1)),
        (np_.reshape(a, (4, -1)), x.reshape(4, -1)), (a.T, x.T), (np_.transpose(a, (1, 0, 2)), x.transpose(1, 0, 2)),
        (a.sum(axis=1), x.sum(axis=1)), (np_.mean(a, axis=(0, 2), keepdims=True), x.mean(axis=(0, 2), keepdims=True)),
        (np_.max(a, axis=-1), x.max(axis=-1)), (a[1], x[1]), (a[:, 1:3], x[:, 1:3]), (a[0, ::2], x[0, ::2]),
        (np_.concatenate([a, a], axis=1), onp.concatenate([x, x], axis=1)),
        (np_.stack([a, a], axis=0), onp.stack([x, x])), (np_.expand_dims(a, 1), onp.expand_dims(x, 1)),
        (np_.swapaxes(a, 0, 2), onp.swapaxes(x, 0, 2)), (np_.clip(a, -0.5, 0.5), onp.clip(x, -0.5, 0.5)),
        (np_.broadcast_to(np_.expand_dims(a, 0), (2, 2, 3, 4)), onp.broadcast_to(x, (2, 2, 3, 4))),
        (np_.zeros_like(a) + np_.ones((4,)), onp.zeros_like(x) + 1), (np_.dot(a, np_.ones((4, 5))), x @ onp.ones((4, 5))),
        (npx.relu(a), onp.maximum(x, 0)), (npx.sigmoid(a), 1 / (1 + onp.exp(-x))),
        (npx.softmax(a), onp.exp(x) / onp.exp(x).sum(-1, keepdims=True)),
        (npx.batch_flatten(a), x.reshape(2, -1)), (npx.reshape(a, (-2, -5)), x.reshape(2, 12)),
        (npx.reshape(a, (-6, 1, -1, -4)), x.reshape(1, 2, 3, 4)), ((a > 0).astype("float32"), (x > 0) * 1.0),
    ]
    for sym, want in cases:
        assert isinstance(sym, _Symbol)
        got = _eval(sym, a=x)[0]
        assert got.shape == want.shape, (sym.tojson(), got.shape, want.shape)
        onp.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    parts = np_.split(a, 3, axis=1)
    assert len(parts) == 3 and all(isinstance(p, _Symbol) for p in parts)
    onp.testing.assert_allclose(_eval(parts[2], a=x)[0], x[:, 2:3])
    assert _ops(a > 0) == ["_greater_scalar", "_npx_cast"]
    assert (a > 0).infer_type(a="float32")[1] == [onp.dtype("bool")]


def test_bad_input_raises_naming_the_function():
    a = mx.sym.var("a").as_np_ndarray()
    with pytest.raises(TypeError, match="__add__"):
        a + "x"  # pylint: disable=pointless-statement
    with pytest.raises(TypeError, match="add: operands"):
        mx.sym.np.add(1, 2)
    with pytest.raises(ValueError, match="one unknown dimension"):
        a.reshape(-1, -1)
    with pytest.raises(ValueError, match="reshape"):
        a.reshape(0, 3)
    with pytest.raises(NotImplementedError, match="-3"):
        mx.sym.npx.reshape(a, (-3, -1))
    with pytest.raises(ValueError, match="duplicate"):
        a.sum(axis=(1, 1))
    with pytest.raises(TypeError, match="axis"):
        mx.sym.np.sum(a, axis=1.5)
    with pytest.raises(IndexError, match="__getitem__"):
        a[[0, 1]]  # pylint: disable=pointless-statement
    with pytest.raises(TypeError, match="concatenate"):
        mx.sym.np.concatenate(a)
    with pytest.raises(ValueError, match="sections"):
        mx.sym.np.split(a, 0)


def test_saved_json_uses_numpy_mode_names_and_loads_back(tmp_path):
    data = mx.sym.var("data").as_np_ndarray()
    w, b = mx.sym.var("w"), mx.sym.var("b")
    h = mx.sym.npx.fully_connected(data, w, b, num_hidden=3)
    out = mx.sym.npx.relu(h) * 2 + mx.sym.np.exp(data).sum(axis=1, keepdims=True)
    doc = json.loads(out.tojson())
    assert {n["op"] for n in doc["nodes"]} == {"null", "_npx_fully_connected", "_npx_relu", "_npi_multiply_scalar",
                                                "_npi_exp", "sum", "_npi_add"}
    assert doc["attrs"]["is_np_shape"] == ["int", 1] and doc["attrs"]["mxnet_version"][0] == "int"
    fname = str(tmp_path / "g-symbol.json")
    out.save(fname)
    back = mx.sym.load(fname)
    # the spelling of every node is kept by the loader (a legacy Symbol writes it as read)
    assert [n["op"] for n in json.loads(back.tojson())["nodes"]] == [n["op"] for n in doc["nodes"]]
    assert back.as_np_ndarray().tojson() == out.tojson()
    x = onp.random.uniform(size=(2, 4)).astype("float32")
    wv = onp.random.uniform(size=(3, 4)).astype("float32")
    bv = onp.random.uniform(size=(3,)).astype("float32")
    want = onp.maximum(x @ wv.T + bv, 0) * 2 + onp.exp(x).sum(axis=1, keepdims=True)
    onp.testing.assert_allclose(_eval(back, data=x, w=wv, b=bv)[0], want, rtol=1e-5)


# A graph as MXNet 1.9.1 writes it in NumPy mode (Dense(3, activation="relu") then `x * 0.5 + 1`):
# its NumPy-mode names, the scalar ops' is_int, the is_np_shape graph attribute.
MXNET_NP_JSON = """{
  "nodes": [
    {"op": "null", "name": "data", "inputs": []},
    {"op": "null", "name": "dense0_weight", "attrs": {"__dtype__": "0", "__lr_mult__": "1.0",
     "__shape__": "(3, 4)", "__storage_type__": "0", "__wd_mult__": "1.0"}, "inputs": []},
    {"op": "null", "name": "dense0_bias", "attrs": {"__dtype__": "0", "__init__": "zeros",
     "__lr_mult__": "1.0", "__shape__": "(3,)", "__storage_type__": "0", "__wd_mult__": "1.0"}, "inputs": []},
    {"op": "_npx_fully_connected", "name": "dense0_fwd", "attrs": {"flatten": "True", "no_bias": "False",
     "num_hidden": "3"}, "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},
    {"op": "_npx_activation", "name": "dense0_relu_fwd", "attrs": {"act_type": "relu"}, "inputs": [[3, 0, 0]]},
    {"op": "_npi_multiply_scalar", "name": "_npi_multiply_scalar0", "attrs": {"is_int": "False",
     "scalar": "0.5"}, "inputs": [[4, 0, 0]]},
    {"op": "_npi_add_scalar", "name": "_npi_add_scalar0", "attrs": {"is_int": "True", "scalar": "1"},
     "inputs": [[5, 0, 0]]}
  ],
  "arg_nodes": [0, 1, 2],
  "node_row_ptr": [0, 1, 2, 3, 4, 5, 6, 7],
  "heads": [[6, 0, 0]],
  "attrs": {"is_np_shape": ["int", 1], "mxnet_version": ["int", 10901]}
}"""


def test_symbolblock_imports_an_mxnet_numpy_mode_graph(tmp_path):
    prefix = str(tmp_path / "mx")
    with open(prefix + "-symbol.json", "w") as f:
        f.write(MXNET_NP_JSON)
    wv = onp.random.uniform(-1, 1, size=(3, 4)).astype("float32")
    bv = onp.random.uniform(-1, 1, size=(3,)).astype("float32")
    mx.npx.save(prefix + "-0000.params", {"arg:dense0_weight": mx.np.array(wv), "arg:dense0_bias": mx.np.array(bv)})
    net = mx.gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], prefix + "-0000.params")
    x = onp.random.uniform(-1, 1, size=(5, 4)).astype("float32")
    out = net(mx.np.array(x))
    assert isinstance(out, mx.np.ndarray)
    onp.testing.assert_allclose(out.asnumpy(), onp.maximum(x @ wv.T + bv, 0) * 0.5 + 1, rtol=1e-5, atol=1e-6)


def test_graph_operations_keep_the_numpy_class():
    a = mx.sym.var("a").as_np_ndarray()
    out = mx.sym.npx.relu(a + 1)
    assert isinstance(out.__copy__(), _Symbol) and isinstance(out.get_internals(), _Symbol)
    assert isinstance(out.get_children(), _Symbol)
    b = mx.sym.var("b")
    swapped = out(a=b)
    assert isinstance(swapped, _Symbol) and swapped.list_arguments() == ["b"]
    with pytest.raises(AttributeError, match="npx.reshape"):
        a.shape  # pylint: disable=pointless-statement


def test_comparison_functions_give_bool():
    a, b = mx.sym.var("a").as_np_ndarray(), mx.sym.var("b").as_np_ndarray()
    x = onp.array([[1, 2, 3], [3, 2, 1]], dtype="float32")
    y = onp.array([2, 2, 2], dtype="float32")
    for fn, ref in ((mx.sym.np.equal, onp.equal), (mx.sym.np.not_equal, onp.not_equal),
                    (mx.sym.np.greater, onp.greater), (mx.sym.np.greater_equal, onp.greater_equal),
                    (mx.sym.np.less, onp.less), (mx.sym.np.less_equal, onp.less_equal)):
        got = _eval(fn(a, b), a=x, b=y)[0]
        assert got.dtype == onp.bool_
        onp.testing.assert_array_equal(got, ref(x, y))
        onp.testing.assert_array_equal(_eval(fn(a, 2), a=x)[0], ref(x, 2))
    with pytest.raises(TypeError, match="less: x1"):
        mx.sym.np.less(2, a)


def _mxnet_graph(nodes, heads):
    """A symbol file as MXNet 1.9.1 writes it in NumPy mode, over one input 'data'."""
    return json.dumps({"nodes": [{"op": "null", "name": "data", "inputs": []}] + nodes, "arg_nodes": [0],
                       "node_row_ptr": list(range(len(nodes) + 2)), "heads": heads,
                       "attrs": {"is_np_shape": ["int", 1], "mxnet_version": ["int", 10901]}})


def test_numpy_nodes_without_a_weft_operator_load_as_legacy_ones():
    """Note [NumPy-mode nodes read as legacy ones]: _npi_concatenate and _npx_reshape as MXNet
    writes them (None for unset parameters); _np_reshape and the reductions (Note [NumPy sums
    and their dtypes]) are Weft operators and load as themselves."""
    x = onp.random.uniform(size=(2, 3, 4)).astype("float32")
    cases = [
        ({"op": "_npi_concatenate", "name": "c", "attrs": {"num_args": "2", "axis": "1"},
          "inputs": [[0, 0, 0], [0, 0, 0]]}, "Concat", onp.concatenate([x, x], axis=1)),
        ({"op": "_np_sum", "name": "s", "attrs": {"axis": "(0, 2)", "dtype": "None", "keepdims": "False",
                                                  "initial": "None"}, "inputs": [[0, 0, 0]]}, "_np_sum", x.sum((0, 2))),
        ({"op": "_npi_mean", "name": "m", "attrs": {"axis": "-1", "dtype": "None", "keepdims": "True",
                                                    "initial": "None"}, "inputs": [[0, 0, 0]]},
         "_npi_mean", x.mean(-1, keepdims=True)),
        ({"op": "_np_max", "name": "mx", "attrs": {"axis": "1", "keepdims": "False", "initial": "None"},
          "inputs": [[0, 0, 0]]}, "_np_max", x.max(1)),
        ({"op": "_np_reshape", "name": "r", "attrs": {"newshape": "(4, -1)", "order": "C"},
          "inputs": [[0, 0, 0]]}, "_np_reshape", x.reshape(4, -1)),
        ({"op": "_npx_reshape", "name": "rx", "attrs": {"newshape": "(-2, -5)", "reverse": "False", "order": "C"},
          "inputs": [[0, 0, 0]]}, "Reshape", x.reshape(2, 12)),
        ({"op": "_npx_reshape", "name": "ry", "attrs": {"newshape": "(-6, 1, -1, -4)", "reverse": "False",
                                                        "order": "C"}, "inputs": [[0, 0, 0]]},
         "Reshape", x.reshape(1, 2, 3, 4)),
    ]
    for node, legacy, want in cases:
        sym = mx.sym.load_json(_mxnet_graph([node], [[1, 0, 0]]))
        assert _ops(sym) == [legacy]
        got = _eval(sym, data=x)[0]
        assert got.shape == want.shape, node["op"]
        onp.testing.assert_allclose(got, want, rtol=1e-6)
    # concatenate's axis=None, a reduction's dtype and axis=() and reshape's -3 load now (test_np_node_attrs.py)
    # the reductions are operators of their own (Note [NumPy sums and their dtypes]), loaded as themselves
    refused = [({"op": "_npx_reshape", "name": "r", "attrs": {"newshape": "(-4, -3)"}}, "code -3"),
               ({"op": "_npx_reshape", "name": "r", "attrs": {"newshape": "(a, 1)"}}, "newshape")]
    for node, what in refused:
        node["inputs"] = [[0, 0, 0]]
        with pytest.raises(mx.base.WeftError, match=r"%s.*%s" % (node["op"], what)):
            mx.sym.load_json(_mxnet_graph([node], [[1, 0, 0]]))


def test_no_node_is_named_for_an_operator_mxnet_lacks():
    # MXNet 1.9.1 has no _np_broadcast_to/_np_zeros_like/_np_ones_like (checked against its
    # operator list by hand): weft.sym.np writes the legacy operators it loads instead.
    a = mx.sym.var("a").as_np_ndarray()
    g = mx.sym.np.broadcast_to(a, (2, 3)) + mx.sym.np.zeros_like(a) + mx.sym.np.ones_like(a)
    ops = {n["op"] for n in json.loads(g.tojson())["nodes"]}
    assert {"broadcast_to", "zeros_like", "ones_like"} <= ops
    assert not ops & {"_np_broadcast_to", "_np_zeros_like", "_np_ones_like"}
