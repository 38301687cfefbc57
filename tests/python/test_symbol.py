"""weft.sym: composition and automatic naming, groups and indexing, attributes and
scopes, shape/type inference, arithmetic, JSON (FORMATS.md part B) against the
MXNet 1.9.1 fixtures in ../shared/fixtures, and errors for bad input."""
import copy
import inspect
import json
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest

import weft
import weft.sym as sym
from weft.base import op_schema

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
needs_fixtures = pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"no fixtures at {FIXTURES}")


def manifest():
    return json.loads((FIXTURES / "manifest.json").read_text())["files"]


def nodes_of(s):
    return json.loads(s.tojson())["nodes"]


def node(s, name):
    return next(n for n in nodes_of(s) if n["name"] == name)


@pytest.fixture(autouse=True)
def fresh_names():
    """Each test counts automatic names from 0 (as a fresh MXNet process would)."""
    with weft.name.NameManager():
        yield


class Xavier:
    """Stands in for an initializer: Variable stores init.dumps()."""

    def dumps(self):
        return '["xavier", {"rnd_type": "uniform", "factor_type": "avg", "magnitude": 3}]'


# ---- composition and naming ------------------------------------------------------------------------
def test_fully_connected_creates_its_parameters():
    data = sym.Variable("data")
    fc = sym.FullyConnected(data=data, num_hidden=10, name="fc1")
    assert isinstance(fc, sym.Symbol)
    assert fc.name == "fc1" and repr(fc) == "<Symbol fc1>"
    assert fc.list_arguments() == ["data", "fc1_weight", "fc1_bias"]
    assert fc.list_outputs() == ["fc1_output"]
    assert fc.list_auxiliary_states() == []
    # Only the parameters the caller gave are stored (no defaults), as text.
    assert node(fc, "fc1")["attrs"] == {"num_hidden": "10"}
    fc2 = sym.FullyConnected(data, num_hidden=4, no_bias=True, name="fc2")
    assert fc2.list_arguments() == ["data", "fc2_weight"]
    assert node(fc2, "fc2")["attrs"] == {"no_bias": "True", "num_hidden": "4"}


def test_missing_inputs_become_variables_carrying_the_node_attributes():
    fc = sym.FullyConnected(num_hidden=3)
    assert fc.name == "fullyconnected0"
    assert fc.list_arguments() == ["fullyconnected0_data", "fullyconnected0_weight", "fullyconnected0_bias"]
    assert fc.attr_dict()["fullyconnected0_weight"] == {"num_hidden": "3"}  # FORMATS.md B.5 quirk


def test_batchnorm_auxiliary_states():
    data = sym.Variable("data")
    bn = sym.BatchNorm(data, fix_gamma=False, name="bn")
    assert bn.list_arguments() == ["data", "bn_gamma", "bn_beta"]
    assert bn.list_auxiliary_states() == ["bn_moving_mean", "bn_moving_var"]
    assert bn.list_inputs() == ["data", "bn_gamma", "bn_beta", "bn_moving_mean", "bn_moving_var"]
    d = bn.attr_dict()
    assert d["bn_moving_mean"] == {"__init__": '["zero", {}]', "fix_gamma": "False"}
    assert d["bn_moving_var"] == {"__init__": '["one", {}]', "fix_gamma": "False"}
    assert d["bn_gamma"] == {"fix_gamma": "False"}
    inputs = node(bn, "bn")["inputs"]
    assert [e[2] for e in inputs] == [0, 0, 0, 1, 1]  # mutated variables are versioned
    # An initialiser the user set is kept.
    mm = sym.Variable("mm", init="zeros")
    bn2 = sym.BatchNorm(data, moving_mean=mm, name="bn2")
    assert bn2.attr_dict()["mm"]["__init__"] == "zeros"
    assert "mm" in bn2.list_auxiliary_states()
    # A variable the user gives without one gets the operator's (set by the core on compose).
    mv = sym.Variable("mv")
    sym.BatchNorm(data, moving_var=mv, name="bn3")
    assert mv.attr("__init__") == '["one", {}]'
    assert sym.Variable("plain").attr("__init__") is None


def test_automatic_names_count_per_hint():
    a = sym.Variable("a")
    assert sym.FullyConnected(a, num_hidden=2).name == "fullyconnected0"
    assert sym.FullyConnected(a, num_hidden=2).name == "fullyconnected1"
    assert sym.Activation(a, act_type="relu").name == "activation0"
    assert sym.Convolution(a, kernel=(3, 3), num_filter=2).name == "convolution0"
    # The hint is the name of the function called (an alias counts on its own).
    assert sym.SliceChannel(a, num_outputs=2).name == "slicechannel0"
    assert sym.split(a, num_outputs=2).name == "split0"
    with weft.name.NameManager():
        assert sym.FullyConnected(a, num_hidden=2).name == "fullyconnected0"
    assert sym.FullyConnected(a, num_hidden=2).name == "fullyconnected2"


def test_prefix_names_nodes_and_created_variables():
    data = sym.Variable("data")
    with weft.name.Prefix("net_"):
        fc = sym.FullyConnected(data, num_hidden=2)
        named = sym.FullyConnected(data, num_hidden=2, name="out")
    assert fc.name == "net_fullyconnected0"
    assert fc.list_arguments() == ["data", "net_fullyconnected0_weight", "net_fullyconnected0_bias"]
    assert named.name == "net_out"  # MXNet prefixes given names too


def test_generated_functions_have_signatures_and_docs():
    sig = inspect.signature(sym.FullyConnected)
    names = list(sig.parameters)
    assert names[:3] == ["data", "weight", "bias"]
    assert "num_hidden" in names and "name" in names and "attr" in names
    assert sig.parameters["num_hidden"].default is sym.FullyConnected.__signature__.parameters["num_hidden"].default
    assert sig.parameters["no_bias"].default is False
    assert "num_hidden" in sym.FullyConnected.__doc__ and "Symbol" in sym.FullyConnected.__doc__
    assert sym.SliceChannel._weft_op == sym.split._weft_op
    assert weft.symbol is weft.sym
    assert sym._internal._Plus._weft_op == "elemwise_add"
    assert sym.op.FullyConnected is sym.FullyConnected
    concat = sym.Concat(sym.Variable("x"), sym.Variable("y"), dim=0)
    assert node(concat, concat.name)["attrs"] == {"dim": "0", "num_args": "2"}
    assert concat.list_arguments() == ["x", "y"]


def test_positional_and_keyword_inputs():
    x, w = sym.Variable("x"), sym.Variable("w")
    a = sym.FullyConnected(x, w, num_hidden=3, name="a")
    b = sym.FullyConnected(data=x, weight=w, num_hidden=3, name="b")
    c = sym.FullyConnected(x, num_hidden=3, name="c", weight=w)
    for s, n in ((a, "a"), (b, "b"), (c, "c")):
        assert s.list_arguments() == ["x", "w", n + "_bias"]


# ---- groups, indexing, internals -------------------------------------------------------------------------
def test_group_indexing_and_iteration():
    a, b = sym.Variable("a"), sym.Variable("b")
    c = a + b
    g = sym.Group([a, c, b])
    assert len(g) == 3 and len(c) == 1
    assert g.name is None and repr(g) == "<Symbol group [a, _plus0, b]>"
    assert g.list_outputs() == ["a", "_plus0_output", "b"]
    assert g[1].name == "_plus0" and g[-1].name == "b"
    assert g["_plus0_output"].name == "_plus0"
    assert [s.name for s in g] == ["a", "_plus0", "b"]
    assert g[0:2].list_outputs() == ["a", "_plus0_output"]
    with pytest.raises(IndexError):
        g[3]
    with pytest.raises(weft.NotFoundError):
        g["nope"]
    with pytest.raises(TypeError):
        sym.Group([a, 1])
    assert list(g) and g.list_arguments() == ["a", "b"]


def test_multi_output_op():
    x = sym.Variable("x")
    sp = sym.split(x, num_outputs=3, axis=1, name="sp")
    assert len(sp) == 3
    assert sp.list_outputs() == ["sp_output0", "sp_output1", "sp_output2"]
    assert sp[2].list_outputs() == ["sp_output2"]
    with pytest.raises(weft.InvalidArgumentError, match="outputs"):
        sym.Activation(sp, act_type="relu")  # a 3-output symbol as one input


def test_internals_and_children():
    x, y, z = sym.Variable("x"), sym.Variable("y"), sym.Variable("z")
    a = y + z
    b = x + a
    internals = b.get_internals()
    assert internals.list_outputs() == ["x", "y", "z", "_plus0_output", "_plus1_output"]
    assert internals["_plus0_output"].list_arguments() == ["y", "z"]
    ch = b.get_children()
    assert ch.list_outputs() == ["x", "_plus0_output"]
    assert ch.get_children().list_outputs() == ["y", "z"]
    assert x.get_children() is None
    fc = sym.FullyConnected(x, num_hidden=2, name="fc")
    # The internal output can be fed on to further ops (feature extraction).
    feat = fc.get_internals()["fc_output"]
    assert sym.Activation(feat, act_type="relu").list_arguments() == ["x", "fc_weight", "fc_bias"]


def test_copy_is_independent():
    x = sym.Variable("x", attr={"mood": "calm"})
    y = copy.deepcopy(x)
    y._set_attr(mood="angry")
    assert x.attr("mood") == "calm" and y.attr("mood") == "angry"
    z = copy.copy(sym.FullyConnected(x, num_hidden=2, name="fc"))
    assert z.list_arguments() == ["x", "fc_weight", "fc_bias"]


# ---- attributes -----------------------------------------------------------------------------------------
def test_variable_hidden_attributes():
    v = sym.Variable("data", shape=(0, 3, 8, 8), dtype="float32", lr_mult=0.5, wd_mult=0.0, init=Xavier(),
                     stype="default", __layout__="NCHW")
    assert v.list_attr() == {
        "__shape__": "(0, 3, 8, 8)", "__dtype__": "0", "__lr_mult__": "0.5", "lr_mult": "0.5",
        "__wd_mult__": "0.0", "wd_mult": "0.0", "__init__": Xavier().dumps(), "__storage_type__": "0",
        "__layout__": "NCHW"}
    assert v.attr("lr_mult") == "0.5" and v.attr("__lr_mult__") == "0.5"
    assert v.attr("missing") is None and v.attr("name") == "data"
    assert sym.var("h", dtype=np.float16).attr("__dtype__") == "2"
    assert sym.var("i", init="zeros").attr("__init__") == "zeros"
    with pytest.raises(weft.InvalidArgumentError, match="double underscores"):
        sym.Variable("bad", foo=1)
    with pytest.raises(TypeError):
        sym.Variable(3)


def test_attr_scope_and_attr_dict():
    with weft.AttrScope(ctx_group="dev1", __custom__="yes"):
        v = sym.Variable("v")
        with weft.AttrScope(ctx_group="dev2"):
            w = sym.Variable("w", attr={"__mood__": "so so"})
        fc = sym.FullyConnected(v, w, num_hidden=2, no_bias=True, name="fc", attr={"__x__": "1"})
    plain = sym.Variable("plain")
    assert v.list_attr() == {"__ctx_group__": "dev1", "ctx_group": "dev1", "__custom__": "yes"}
    assert w.attr("ctx_group") == "dev2" and w.attr("__mood__") == "so so" and w.attr("__custom__") == "yes"
    assert node(fc, "fc")["attrs"] == {"__ctx_group__": "dev1", "__custom__": "yes", "__x__": "1",
                                       "no_bias": "True", "num_hidden": "2"}
    assert plain.list_attr() == {}
    d = fc.attr_dict()
    assert d["fc"]["ctx_group"] == "dev1" and d["w"]["__ctx_group__"] == "dev2"
    with pytest.raises(ValueError):
        weft.AttrScope(group=4)


def test_set_attr():
    x = sym.Variable("x")
    x._set_attr(lr_mult="2", __note__="n")
    assert x.list_attr() == {"__lr_mult__": "2", "lr_mult": "2", "__note__": "n"}
    with pytest.raises(ValueError):
        x._set_attr(foo=1)
    fc = sym.FullyConnected(x, num_hidden=2, name="fc")
    fc._set_attr(num_hidden="5")
    assert fc.infer_shape(x=(1, 3))[1] == [(1, 5)]
    with pytest.raises(weft.InvalidArgumentError, match="num_hidden"):
        fc._set_attr(num_hidden="five")
    with pytest.raises(weft.InvalidArgumentError, match="deprecated"):
        sym.FullyConnected(x, num_hidden=2, weight_lr_mult="2")


# ---- inference ------------------------------------------------------------------------------------------
def test_infer_shape_forward_and_backward():
    data = sym.Variable("data")
    fc1 = sym.FullyConnected(data, num_hidden=16, name="fc1")
    act = sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = sym.FullyConnected(act, num_hidden=4, name="fc2")
    arg, out, aux = fc2.infer_shape(data=(8, 10))
    assert dict(zip(fc2.list_arguments(), arg)) == {
        "data": (8, 10), "fc1_weight": (16, 10), "fc1_bias": (16,), "fc2_weight": (4, 16), "fc2_bias": (4,)}
    assert out == [(8, 4)] and aux == []
    # Positional shapes follow list_arguments(); None leaves one unknown.
    assert fc2.infer_shape((8, 10))[1] == [(8, 4)]
    # Backward: the data shape follows from another argument and the output.
    a, b = sym.Variable("a"), sym.Variable("b")
    assert (a + b).infer_shape(b=(2, 3)) == ([(2, 3), (2, 3)], [(2, 3)], [])
    # From a variable's __shape__ attribute.
    v = sym.Variable("v", shape=(5, 7))
    assert sym.FullyConnected(v, num_hidden=2, name="f").infer_shape()[1] == [(5, 2)]


def test_infer_shape_incomplete_and_partial():
    data, prev = sym.Variable("data"), sym.Variable("prev")
    fc1 = sym.FullyConnected(data, num_hidden=8, name="fc1")
    fc2 = sym.FullyConnected(prev, num_hidden=8, name="fc2")
    out = sym.Activation(sym.elemwise_add(fc1, fc2), act_type="relu")
    with pytest.warns(UserWarning, match="prev"):
        assert out.infer_shape(data=(4, 6)) == (None, None, None)
    arg, outs, _ = out.infer_shape_partial(data=(4, 6))
    shapes = dict(zip(out.list_arguments(), arg))
    assert shapes["fc1_weight"] == (8, 6) and outs == [(4, 8)]
    assert shapes["fc2_weight"] == ()  # unknown reads () as in MXNet 1.x
    assert out.infer_shape(data=(4, 6), prev=(4, 3))[0][-2] == (8, 3)
    # A 0 dimension means "unknown" (MXNet 1.x legacy shapes).
    fc = sym.FullyConnected(data, num_hidden=4, name="fc")
    with pytest.warns(UserWarning):
        assert fc.infer_shape(data=(0, 3)) == (None, None, None)
    assert fc.infer_shape_partial(data=(0, 3)) == ([(0, 3), (4, 3), (4,)], [(0, 4)], [])


def test_infer_shape_errors_name_the_node():
    data = sym.Variable("data")
    fc = sym.FullyConnected(data, num_hidden=8, name="fc1")
    with pytest.raises(weft.ShapeError, match="fc1"):
        fc.infer_shape(data=(4, 6), fc1_weight=(3, 6))
    with pytest.raises(weft.InvalidArgumentError, match="nope"):
        fc.infer_shape(nope=(1,))
    with pytest.raises(TypeError):
        fc.infer_shape(data="4x6")


def test_infer_type():
    a, b = sym.Variable("a"), sym.Variable("b")
    c = a + b
    assert c.infer_type(a="float64") == ([np.float64, np.float64], [np.float64], [])
    assert c.infer_type(a=np.float16)[1] == [np.float16]
    assert c.infer_type() == ([np.float32, np.float32], [np.float32], [])  # float32 by default
    bn = sym.BatchNorm(a, name="bn")
    arg, out, aux = bn.infer_type(a="float32")
    assert arg == [np.float32] * 3 and aux == [np.float32] * 2
    cast = sym.Cast(sym.Variable("x"), dtype="int32", name="c")
    assert cast.infer_type(x="float32")[1] == [np.int32]
    assert node(cast, "c")["attrs"] == {"dtype": "int32"}


# ---- arithmetic --------------------------------------------------------------------------------------------
def test_arithmetic_ops_and_names_follow_mxnet():
    a, b = sym.Variable("a"), sym.Variable("b")
    cases = [
        (a + b, "elemwise_add", "_plus0", None), (a - b, "elemwise_sub", "_minus0", None),
        (a * b, "elemwise_mul", "_mul0", None), (a / b, "elemwise_div", "_div0", None),
        (a % b, "_mod", "_mod0", None), (a ** b, "_power", "_power0", None),
        (a + 1, "_plus_scalar", "_plusscalar0", "1"), (2.5 + a, "_plus_scalar", "_plusscalar1", "2.5"),
        (a - 1, "_minus_scalar", "_minusscalar0", "1"), (1 - a, "_rminus_scalar", "_rminusscalar0", "1"),
        (a * 2.0, "_mul_scalar", "_mulscalar0", "2.0"), (3 * a, "_mul_scalar", "_mulscalar1", "3"),
        (-a, "_mul_scalar", "_mulscalar2", "-1.0"),
        (a / 4, "_div_scalar", "_divscalar0", "4"), (4 / a, "_rdiv_scalar", "_rdivscalar0", "4"),
        (a % 3, "_mod_scalar", "_modscalar0", "3"), (3 % a, "_rmod_scalar", "_rmodscalar0", "3"),
        (a ** 2, "_power_scalar", "_powerscalar0", "2"), (2 ** a, "_rpower_scalar", "_rpower_scalar0", "2"),
        (a == b, "_equal", "_equal0", None), (a != 1, "_not_equal_scalar", "_not_equal_scalar0", "1"),
        (a > b, "_greater", "_greater0", None), (a >= 1, "_greater_equal_scalar", "_greater_equal_scalar0", "1"),
        (a < b, "_lesser", "_lesser0", None), (a <= 1, "_lesser_equal_scalar", "_lesser_equal_scalar0", "1"),
        (sym.pow(a, 2), "_power_scalar", "_powerscalar1", "2"), (sym.maximum(a, b), "_maximum", "_maximum0", None),
        (sym.minimum(3, a), "_minimum_scalar", "_minimumscalar0", "3"),
    ]
    for s, op, name, scalar in cases:
        n = nodes_of(s)[-1]
        assert (n["op"], n["name"]) == (op, name), (n, op, name)
        if scalar is not None:
            assert n["attrs"] == {"scalar": scalar}
    assert sym.pow(2, 3) == 8 and sym.maximum(2, 3.5) == 3.5
    with pytest.raises(TypeError):
        a + "x"
    with pytest.raises(TypeError):
        bool(a)


def test_arithmetic_evaluates_like_numpy():
    rng = np.random.RandomState(0)
    xa = rng.uniform(0.5, 2, (2, 3)).astype(np.float32)
    xb = rng.uniform(0.5, 2, (2, 3)).astype(np.float32)
    a, b = sym.Variable("a"), sym.Variable("b")
    expr = sym.Group([(a + b) * 2 - a / b, 1 - a, -b, a ** 2, 3 / a, abs(a - b)])
    outs = expr.eval(ctx=weft.cpu(), a=weft.nd.array(xa), b=weft.nd.array(xb))
    want = [(xa + xb) * 2 - xa / xb, 1 - xa, -xb, xa ** 2, 3 / xa, np.abs(xa - xb)]
    assert len(outs) == len(want)
    for o, w in zip(outs, want):
        np.testing.assert_allclose(o.asnumpy(), w, rtol=1e-5)


def test_creation_helpers():
    z = sym.zeros((2, 3))
    assert z.name == "_zeros0" and node(z, "_zeros0")["attrs"] == {"dtype": "float32", "shape": "(2, 3)"}
    o = sym.ones((2,), dtype="int32")
    f = sym.full((2, 2), 7)
    r = sym.arange(0, 6, 2)
    outs = sym.Group([z, o, f, r]).eval(ctx=weft.cpu())
    np.testing.assert_array_equal(outs[0].asnumpy(), np.zeros((2, 3)))
    assert outs[1].dtype == np.int32 and outs[1].asnumpy().tolist() == [1, 1]
    np.testing.assert_array_equal(outs[2].asnumpy(), np.full((2, 2), 7.0))
    np.testing.assert_array_equal(outs[3].asnumpy(), [0, 2, 4])


def test_random_nodes():
    u = sym.random.uniform(-1, 1, shape=(50, 4))
    assert node(u, u.name)["attrs"] == {"high": "1", "low": "-1", "shape": "(50, 4)"}
    r = sym.random.randint(0, 5, shape=(3,), dtype="int32")
    n = sym.random.normal(0, 2, shape=(2, 2))
    vals = sym.Group([u, r, n]).eval(ctx=weft.cpu())
    x = vals[0].asnumpy()
    assert x.shape == (50, 4) and x.min() >= -1 and x.max() < 1 and x.std() > 0.1
    assert vals[1].dtype == np.int32 and set(vals[1].asnumpy().tolist()) <= set(range(5))
    assert vals[2].shape == (2, 2)


def test_fluent_methods():
    x = sym.Variable("x")
    y = x.reshape((2, 3)).sum(axis=1).exp()
    assert y.infer_shape(x=(6,))[1] == [(2,)]
    assert x.astype("float64").infer_type(x="float32")[1] == [np.float64]


# ---- JSON ---------------------------------------------------------------------------------------------------
def build_misc():
    """fixtures/sym_misc.json, built the way MXNet 1.9.1 built it."""
    with weft.name.NameManager():
        data = sym.Variable("data", shape=(0, 3, 8, 8), dtype="float32", lr_mult=0.5, init=Xavier())
        w = sym.Variable("w", wd_mult=0.0)
        with weft.AttrScope(ctx_group="dev1"):
            conv = sym.Convolution(data, w, kernel=(3, 3), num_filter=8, no_bias=True, name="conv",
                                   attr={"__custom__": "yes"})
        bn = sym.BatchNorm(conv, fix_gamma=False, name="bn")
        split = sym.SliceChannel(bn, num_outputs=2, axis=1, name="split")
        add = sym.elemwise_add(split[0], split[1], name="add")
        scaled = add * 2.0
        bg = sym.BlockGrad(conv, name="bg")
        return sym.Group([scaled, split[1], bg])


def test_json_round_trip(tmp_path):
    g = build_misc()
    text = g.tojson()
    again = sym.load_json(text)
    assert again.tojson() == text
    assert again.list_arguments() == g.list_arguments()
    assert again.list_auxiliary_states() == g.list_auxiliary_states()
    f = tmp_path / "m-symbol.json"
    g.save(str(f))
    assert f.read_bytes() == text.encode()
    assert not text.endswith("\n")
    assert sym.load(str(f)).tojson() == text
    assert pickle.loads(pickle.dumps(g)).tojson() == text


@needs_fixtures
@pytest.mark.parametrize("fname", ["sym_misc.json", "cnn-symbol.json"])
def test_fixture_loads_with_manifest_lists(fname):
    m = manifest()[fname]
    s = sym.load(str(FIXTURES / fname))
    assert s.list_arguments() == m["arguments"]
    assert s.list_auxiliary_states() == m["auxiliary_states"]
    if "outputs" in m:
        assert s.list_outputs() == m["outputs"]


def _pooling_outputs():
    return json.loads(op_schema("Pooling"))["num_outputs"]


@needs_fixtures
@pytest.mark.parametrize("fname", [
    "sym_misc.json",
    pytest.param("cnn-symbol.json", marks=pytest.mark.xfail(
        _pooling_outputs() == 1, strict=True,
        reason="MXNet 1.9.1 (oneDNN) gives max Pooling 2 outputs (the second a workspace), so node_row_ptr "
               "counts 2 for it; weft's Pooling has 1 output")),
])
def test_fixture_tojson_is_byte_identical(fname):
    text = (FIXTURES / fname).read_bytes()
    assert sym.load(str(FIXTURES / fname)).tojson().encode() == text
    assert sym.load_json(text.decode()).tojson().encode() == text


@needs_fixtures
def test_fixture_infer_shape():
    m = manifest()["sym_misc.json"]["infer_shape"]
    s = sym.load(str(FIXTURES / "sym_misc.json"))
    arg, out, aux = s.infer_shape(data=tuple(m["data"]))
    assert arg == [tuple(x) for x in m["arg_shapes"]]
    assert out == [tuple(x) for x in m["out_shapes"]]
    assert aux == [(8,), (8,)]
    c = sym.load(str(FIXTURES / "cnn-symbol.json"))
    cm = manifest()["cnn-symbol.json"]
    assert c.infer_shape(**{cm["input_name"]: tuple(cm["input_shape"])})[1] is not None


def _canonical_split_name():
    return json.loads(op_schema("SliceChannel"))["name"]


@needs_fixtures
def test_hand_built_sym_misc_matches_apart_from_op_spelling():
    """Everything but the spelling of SliceChannel's op name (see the next test)."""
    text = build_misc().tojson()
    ref = (FIXTURES / "sym_misc.json").read_text()
    assert text.replace('"op": "%s"' % _canonical_split_name(), '"op": "SliceChannel"') == ref


@needs_fixtures
@pytest.mark.xfail(_canonical_split_name() != "SliceChannel", strict=True,
                   reason="the registry's canonical name of SliceChannel is 'split' (MXNet's is 'SliceChannel', "
                          "with alias 'split'), so a composed node writes \"op\": \"split\"")
def test_hand_built_sym_misc_is_byte_identical():
    assert build_misc().tojson() == (FIXTURES / "sym_misc.json").read_text()


# ---- bad input ---------------------------------------------------------------------------------------------
def test_bad_json_raises():
    with pytest.raises(weft.WeftError):
        sym.load_json("{not json")
    with pytest.raises(weft.WeftError):
        sym.load_json('{"nodes": []}')  # no heads / arg_nodes
    with pytest.raises(TypeError):
        sym.load_json(3)


def test_unknown_op_in_json_names_the_node():
    s = json.loads(build_misc().tojson())
    s["nodes"][2]["op"] = "NoSuchOp"
    with pytest.raises(weft.WeftError, match="NoSuchOp") as e:
        sym.load_json(json.dumps(s))
    assert "conv" in str(e.value)


def test_bad_attribute_in_json_names_the_node():
    s = json.loads(build_misc().tojson())
    s["nodes"][2]["attrs"]["num_filter"] = "eight"
    with pytest.raises(weft.WeftError, match="conv") as e:
        sym.load_json(json.dumps(s))
    assert "num_filter" in str(e.value)
    s["nodes"][2]["attrs"]["num_filter"] = "8"
    s["nodes"][2]["attrs"]["colour"] = "red"
    with pytest.raises(weft.WeftError, match="colour") as e:
        sym.load_json(json.dumps(s))
    assert "conv" in str(e.value)


def test_bad_attributes_at_composition_name_the_node():
    x = sym.Variable("x")
    with pytest.raises(weft.InvalidArgumentError, match="fcx") as e:
        sym.FullyConnected(x, num_hidden="many", name="fcx")
    assert "num_hidden" in str(e.value)
    with pytest.raises(weft.InvalidArgumentError, match="colour"):
        sym.FullyConnected(x, num_hidden=2, colour="red", name="fcy")
    with pytest.raises(weft.InvalidArgumentError, match="act_type"):
        sym.Activation(x, act_type="wobble", name="act")
    with pytest.raises(weft.InvalidArgumentError, match="num_hidden"):
        sym.FullyConnected(x, name="fcz")  # a required parameter missing
    with pytest.raises(TypeError, match="data"):
        sym.FullyConnected(np.zeros(3), num_hidden=2)
    with pytest.raises(weft.InvalidArgumentError, match="nothing"):
        sym.FullyConnected(x, num_hidden=2, nothing=sym.Variable("n"))  # an unknown input


def test_load_missing_file(tmp_path):
    with pytest.raises(weft.WeftIOError, match="nope.json"):
        sym.load(str(tmp_path / "nope.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    with pytest.raises(weft.WeftError, match="bad.json"):
        sym.load(str(bad))


def test_warnings_do_not_leak():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sym.FullyConnected(sym.Variable("d"), num_hidden=2).infer_shape(d=(2, 3))
