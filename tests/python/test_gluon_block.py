"""weft.gluon Parameter, ParameterDict, Block, HybridBlock and SymbolBlock:
parameter life cycle and its errors, deferred initialization, MXNet's
automatic names, collect_params, save/load (structural and full names),
hybridize against imperative runs, export/imports (byte-identical to the
MXNet 1.9.1 fixture) and hooks."""
import hashlib
import json
import os
import warnings

import numpy as np
import pytest

import weft as mx
from weft import autograd, gluon, nd
from weft.base import InvalidArgumentError, ShapeError, WeftError
from weft.gluon import nn
from weft.gluon.parameter import DeferredInitializationError

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, os.pardir, "shared",
                        "fixtures")
if not os.path.isdir(FIXTURES):
    FIXTURES = "/work/shared/fixtures"


@pytest.fixture(autouse=True)
def fresh_names():
    """Each test counts block names from 0 (dense0_, conv0_ ...)."""
    with mx.name.NameManager():
        yield


def _rand(*shape, seed=0):
    return nd.array(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _mlp(prefix=None):
    net = nn.HybridSequential(prefix=prefix)
    with net.name_scope():
        net.add(nn.Dense(8, activation="relu"), nn.Dense(4, activation="tanh"), nn.Dense(3))
    return net


def _cnn(prefix=None):
    net = nn.HybridSequential(prefix=prefix)
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(),
                nn.Conv2D(3, 3, strides=1, padding=1, activation="relu"), nn.AvgPool2D(), nn.Flatten(),
                nn.Dense(5))
    return net


# -- Parameter ------------------------------------------------------------------------------------------------
def test_parameter_uninitialized_access_names_the_parameter():
    p = gluon.Parameter("fc_weight", shape=(2, 3))
    for access in (p.data, p.list_data, p.grad, p.list_ctx):
        with pytest.raises(RuntimeError, match=r"'fc_weight'.*initialize\(\)|'fc_weight' has not been initialized"):
            access()


def test_parameter_initialize_data_grad_and_ctx():
    p = gluon.Parameter("w", shape=(2, 3), init=mx.init.One())
    p.initialize()
    np.testing.assert_array_equal(p.data().asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(p.grad().asnumpy(), np.zeros((2, 3)))
    assert p.list_ctx() == [mx.cpu()]
    assert p.data(mx.cpu()) is p.data()
    assert len(p.list_data()) == 1 and len(p.list_grad()) == 1
    with pytest.warns(UserWarning, match="already initialized"):
        p.initialize()
    p.initialize(init=mx.init.Zero(), force_reinit=True)
    np.testing.assert_array_equal(p.data().asnumpy(), np.zeros((2, 3)))
    # the parameter's own init wins over the default; init= wins over both
    q = gluon.Parameter("q", shape=(2,), init="ones")
    q.initialize(default_init=mx.init.Zero())
    np.testing.assert_array_equal(q.data().asnumpy(), [1, 1])
    q.initialize(init=mx.init.Constant(3), force_reinit=True)
    np.testing.assert_array_equal(q.data().asnumpy(), [3, 3])


def test_parameter_gradient_reaches_grad_and_grad_req():
    p = gluon.Parameter("w", shape=(3,), init=mx.init.One())
    p.initialize()
    with autograd.record():
        y = (p.data() * nd.array([1.0, 2.0, 3.0])).sum()
    y.backward()
    np.testing.assert_allclose(p.grad().asnumpy(), [1, 2, 3])
    p.zero_grad()
    np.testing.assert_array_equal(p.grad().asnumpy(), [0, 0, 0])
    p.grad_req = "add"
    for _ in range(2):
        with autograd.record():
            y = (p.data() * 2).sum()
        y.backward()
    np.testing.assert_allclose(p.grad().asnumpy(), [4, 4, 4])
    p.grad_req = "null"
    with pytest.raises(WeftError, match="grad_req='null'"):
        p.grad()
    with pytest.raises(InvalidArgumentError, match="grad_req"):
        p.grad_req = "sometimes"
    frozen = gluon.Parameter("s", shape=(1,), differentiable=False)
    assert frozen.grad_req == "null"


def test_parameter_unknown_shape_and_deferred_init():
    p = gluon.Parameter("w", shape=(2, 0))
    with pytest.raises(ShapeError, match="'w'.*invalid shape"):
        p.initialize()
    p = gluon.Parameter("w", shape=(2, 0), allow_deferred_init=True, init=mx.init.One())
    p.initialize()
    assert p.list_ctx() == [mx.cpu()]
    with pytest.raises(DeferredInitializationError, match="'w'.*deferred"):
        p.data()
    with pytest.raises(ShapeError, match="'w'.*incompatible"):
        p.shape = (3, 5)
    p.shape = (2, 5)
    p._finish_deferred_init()
    np.testing.assert_array_equal(p.data().asnumpy(), np.ones((2, 5)))
    with pytest.raises(ShapeError, match="'w'"):
        p.shape = (2, 6)


def test_parameter_set_data_cast_reset_ctx_and_var():
    p = gluon.Parameter("w", shape=(2, 0), allow_deferred_init=True, lr_mult=2.0, init="zeros")
    p.initialize()
    p.set_data(nd.ones((2, 3)) * 5)  # before the deferred init finishes
    assert p.shape == (2, 3)
    p._finish_deferred_init()
    np.testing.assert_array_equal(p.data().asnumpy(), np.full((2, 3), 5))
    p.set_data(nd.ones((2, 3)))
    np.testing.assert_array_equal(p.data().asnumpy(), np.ones((2, 3)))
    p.cast("float64")
    assert p.data().dtype == np.float64 and p.grad().dtype == np.float64
    with autograd.record():
        y = (p.data() * 3).sum()
    y.backward()
    np.testing.assert_allclose(p.grad().asnumpy(), np.full((2, 3), 3.0))
    p.reset_ctx(mx.cpu(0))
    assert p.list_ctx() == [mx.cpu(0)]
    v = gluon.Parameter("v", shape=(4, 0), lr_mult=2.0, wd_mult=0.5, init="zeros").var()
    assert v.name == "v"
    assert v.attr("__shape__") == "(4, 0)" and v.attr("__lr_mult__") == "2.0"
    assert v.attr("__wd_mult__") == "0.5" and v.attr("__init__") == "zeros" and v.attr("__dtype__") == "0"


def test_constant():
    c = gluon.Constant("c", [[1.0, 2.0], [3.0, 4.0]])
    assert c.grad_req == "null" and c.shape == (2, 2)
    with pytest.warns(UserWarning, match="does not support grad_req"):
        c.grad_req = "write"
    assert c.grad_req == "null"
    c.initialize(default_init=mx.init.Zero())
    np.testing.assert_array_equal(c.data().asnumpy(), [[1, 2], [3, 4]])
    assert "Constant c" in repr(c)


# -- ParameterDict --------------------------------------------------------------------------------------------
def test_parameter_dict_get_update_and_conflicts():
    pd = gluon.ParameterDict("net_")
    w = pd.get("weight", shape=(3, 0), allow_deferred_init=True)
    assert w.name == "net_weight" and list(pd.keys()) == ["net_weight"]
    assert pd.get("weight", shape=(3, 4)) is w and w.shape == (3, 4)  # unknown dims filled
    assert pd.get("weight", dtype="float32") is w
    with pytest.raises(InvalidArgumentError, match="'net_weight'.*'shape'"):
        pd.get("weight", shape=(5, 4))
    with pytest.raises(InvalidArgumentError, match="'lr_mult'"):
        pd.get("weight", lr_mult=3.0)
    shared = gluon.ParameterDict("net_", shared=pd)
    assert shared.get("weight") is w
    other = gluon.ParameterDict("net_")
    other.get("weight")
    with pytest.raises(InvalidArgumentError, match="same name 'net_weight'"):
        pd.update(other)
    c = pd.get_constant("const", nd.array([1.0, 2.0]))
    assert pd.get_constant("const") is c
    with pytest.raises(LookupError, match="No constant named 'net_missing'"):
        pd.get_constant("missing")
    assert "net_ (" in repr(pd) and "Parameter net_weight" in repr(pd)
    pd.setattr("lr_mult", 0.5)
    assert w.lr_mult == 0.5


def test_parameter_dict_save_load(tmp_path):
    pd = gluon.ParameterDict("net_")
    pd.get("w", shape=(2, 3))
    pd.get("b", shape=(3,), init="zeros")  # without it Xavier would be applied to a vector, as in MXNet
    pd.initialize(mx.init.Xavier())
    f = str(tmp_path / "pd.params")
    pd.save(f, strip_prefix="net_")
    assert sorted(nd.load(f)) == ["b", "w"]
    with pytest.raises(InvalidArgumentError, match="does not start with"):
        pd.save(f, strip_prefix="other_")
    pd2 = gluon.ParameterDict("net_")
    pd2.get("w", shape=(2, 0), allow_deferred_init=True)
    pd2.get("b", shape=(3,))
    pd2.load(f, restore_prefix="net_")
    for k in ("net_w", "net_b"):
        np.testing.assert_array_equal(pd2[k].data().asnumpy(), pd[k].data().asnumpy())
    assert pd2["net_w"].shape == (2, 3)
    pd3 = gluon.ParameterDict("net_")
    pd3.get("w", shape=(2, 3))
    pd3.get("extra", shape=(1,))
    with pytest.raises(InvalidArgumentError, match="'extra' is missing"):
        pd3.load(f, restore_prefix="net_")
    with pytest.raises(InvalidArgumentError, match="'b'.*not present"):
        pd3.load(f, restore_prefix="net_", allow_missing=True)
    pd3.load(f, restore_prefix="net_", allow_missing=True, ignore_extra=True)
    np.testing.assert_array_equal(pd3["net_w"].data().asnumpy(), pd["net_w"].data().asnumpy())


# -- Block naming, registration, collect_params ---------------------------------------------------------------
def test_automatic_names_and_name_scope():
    assert nn.Dense(2).prefix == "dense0_"
    assert nn.Dense(2).name == "dense1"
    assert nn.Conv2D(2, 3).prefix == "conv0_"
    assert nn.Conv2DTranspose(2, 3).prefix == "conv1_"
    assert nn.MaxPool2D().prefix == "pool0_"
    assert nn.BatchNorm().prefix == "batchnorm0_"
    assert nn.Activation("relu").prefix == "relu0_"
    net = _mlp()
    assert net.prefix == "hybridsequential0_"
    assert list(net.collect_params().keys()) == [
        "hybridsequential0_dense0_weight", "hybridsequential0_dense0_bias", "hybridsequential0_dense1_weight",
        "hybridsequential0_dense1_bias", "hybridsequential0_dense2_weight", "hybridsequential0_dense2_bias"]
    assert net[0].act.prefix == "hybridsequential0_dense0_relu_"
    assert nn.Dense(2, prefix="fc_").prefix == "fc_"
    bn = nn.BatchNorm(prefix="bn_")
    assert list(bn.params.keys()) == ["bn_gamma", "bn_beta", "bn_running_mean", "bn_running_var"]


def test_collect_params_select_and_sharing():
    net = _cnn()
    names = list(net.collect_params(".*weight").keys())
    assert names == ["hybridsequential0_conv0_weight", "hybridsequential0_conv1_weight",
                     "hybridsequential0_dense0_weight"]
    assert list(net.collect_params("hybridsequential0_batchnorm0_running_.*").keys()) == [
        "hybridsequential0_batchnorm0_running_mean", "hybridsequential0_batchnorm0_running_var"]
    a = nn.Dense(3, in_units=2, prefix="a_")
    b = nn.Dense(3, in_units=2, params=a.params)
    assert b.weight is a.weight and b.prefix == "dense0_"
    a.initialize()
    x = _rand(1, 2)
    np.testing.assert_array_equal(a(x).asnumpy(), b(x).asnumpy())


class _TwoHeads(gluon.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential()
            self.features.add(nn.Dense(4, activation="relu"), nn.Dense(4))
            self.head = nn.Dense(2)
            self.scale = self.params.get("scale", shape=(1,), init="ones")

    def forward(self, x):
        return self.head(self.features(x)) * self.scale.data()


def test_block_registration_rules():
    net = _TwoHeads()
    assert list(net._children) == ["features", "head"]
    assert list(net._collect_params_with_prefix()) == [
        "scale", "features.0.weight", "features.0.bias", "features.1.weight", "features.1.bias", "head.weight",
        "head.bias"]
    with pytest.raises(TypeError, match="Changing attribute type for head"):
        net.head = 3
    with pytest.raises(InvalidArgumentError, match="Overriding Parameter attribute scale"):
        net.scale = gluon.Parameter("other")
    with pytest.raises(InvalidArgumentError, match="Children of HybridBlock must also be HybridBlock"):
        nn.HybridSequential().add(_TwoHeads())
    assert "(features): HybridSequential(" in repr(net) and "(head): Dense(None -> 2, linear)" in repr(net)
    hidden = gluon.Block()
    hidden.layers = [nn.Dense(1)]
    with pytest.warns(UserWarning, match="unregistered container"):
        hidden.collect_params()
    seen = []
    net.apply(lambda b: seen.append(type(b).__name__))
    assert seen == ["Activation", "Dense", "Dense", "HybridSequential", "Dense", "_TwoHeads"]


def test_uninitialized_forward_error_names_parameter():
    net = nn.Dense(3, in_units=2)
    with pytest.raises(WeftError, match="'dense0_weight' has not been initialized.*initialize"):
        net(_rand(1, 2))


def test_deferred_init_by_first_forward():
    net = _TwoHeads()
    net.initialize(mx.init.Xavier())
    with pytest.raises(DeferredInitializationError):
        net.head.weight.data()
    y = net(_rand(5, 7))
    assert y.shape == (5, 2)
    assert net.features[0].weight.shape == (4, 7) and net.head.weight.shape == (2, 4)
    assert repr(net.features[0]) == "Dense(7 -> 4, Activation(relu))"


def test_sequential_indexing_slicing_and_plain_sequential():
    net = nn.Sequential()
    with net.name_scope():
        net.add(nn.Dense(4), nn.Dense(3), nn.Dense(2))
    assert len(net) == 3 and isinstance(net[1], nn.Dense)
    sub = net[1:]
    assert isinstance(sub, nn.Sequential) and len(sub) == 2 and sub[0] is net[1]
    net.initialize()
    x = _rand(2, 5)
    y = net(x)
    np.testing.assert_allclose(sub(net[0](x)).asnumpy(), y.asnumpy(), rtol=1e-6)
    with pytest.warns(UserWarning, match="Consider using HybridSequential"):
        net.hybridize()
    assert "(2): Dense(3 -> 2, linear)" in repr(net)


# -- save / load parameters ------------------------------------------------------------------------------------
def test_save_load_parameters_structural_names(tmp_path):
    net = _TwoHeads()
    net.initialize(mx.init.Xavier())
    x = _rand(3, 6)
    y = net(x)
    f = str(tmp_path / "net.params")
    net.save_parameters(f)
    assert list(nd.load(f)) == ["scale", "features.0.weight", "features.0.bias", "features.1.weight",
                                "features.1.bias", "head.weight", "head.bias"]
    net2 = _TwoHeads()  # other automatic names, same structure; shapes come from the file
    assert net2.prefix != net.prefix
    net2.load_parameters(f)
    np.testing.assert_allclose(net2(x).asnumpy(), y.asnumpy(), rtol=1e-6)


def test_load_parameters_errors_and_options(tmp_path):
    net = _mlp()
    net.initialize()
    net(_rand(2, 5))
    f = str(tmp_path / "mlp.params")
    net.save_parameters(f)
    bigger = nn.HybridSequential()
    with bigger.name_scope():
        bigger.add(nn.Dense(8, activation="relu"), nn.Dense(4, activation="tanh"), nn.Dense(3), nn.Dense(1))
    with pytest.raises(InvalidArgumentError, match="'3.weight' is missing"):
        bigger.load_parameters(f)
    bigger.load_parameters(f, allow_missing=True)
    np.testing.assert_array_equal(bigger[2].weight.data().asnumpy(), net[2].weight.data().asnumpy())
    smaller = nn.HybridSequential()
    with smaller.name_scope():
        smaller.add(nn.Dense(8, activation="relu"), nn.Dense(4, activation="tanh"))
    with pytest.raises(InvalidArgumentError, match="'2.weight'.*not present"):
        smaller.load_parameters(f)
    smaller.load_parameters(f, ignore_extra=True)
    wrong = _mlp()
    wrong.cast("float64")
    with pytest.raises(InvalidArgumentError, match="dtype incompatible.*cast_dtype"):
        wrong.load_parameters(f)
    wrong.load_parameters(f, cast_dtype=True)
    assert wrong[0].weight.data().dtype == np.float64
    bad = nn.HybridSequential()
    with bad.name_scope():
        bad.add(nn.Dense(9), nn.Dense(4), nn.Dense(3))
    with pytest.raises(ShapeError, match="Failed loading Parameter .*dense0_weight.*shape incompatible"):
        bad.load_parameters(f)


def test_save_parameters_deduplicate_and_legacy_files(tmp_path):
    net = nn.HybridSequential()
    with net.name_scope():
        first = nn.Dense(3, in_units=3)
        net.add(first, nn.Dense(3, in_units=3, params=first.params))
    net.initialize()
    f = str(tmp_path / "shared.params")
    net.save_parameters(f)
    assert list(nd.load(f)) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    net.save_parameters(f, deduplicate=True)
    assert list(nd.load(f)) == ["0.weight", "0.bias"]
    net.load_parameters(f)  # shared parameters found under either name
    legacy = str(tmp_path / "legacy.params")
    single = nn.Dense(2, in_units=2)
    single.initialize()
    single.collect_params().save(legacy, strip_prefix=single.prefix)
    assert sorted(nd.load(legacy)) == ["bias", "weight"]
    other = nn.Dense(2)
    other.load_parameters(legacy)  # keys without '.': full names = prefix + key
    np.testing.assert_array_equal(other.weight.data().asnumpy(), single.weight.data().asnumpy())


# -- hybridize ---------------------------------------------------------------------------------------------------
def _params_and_grads(net):
    return {k: (p.data().asnumpy(), None if p.grad_req == "null" else p.grad().asnumpy())
            for k, p in net._collect_params_with_prefix().items()}


@pytest.mark.parametrize("make,shape", [(_mlp, (4, 5)), (_cnn, (2, 3, 8, 8))], ids=["mlp", "cnn"])
@pytest.mark.parametrize("flags", [{}, {"static_alloc": True, "static_shape": True}], ids=["plain", "static"])
def test_hybridize_matches_imperative(tmp_path, make, shape, flags):
    pytest.importorskip("weft.cached_op")
    x = _rand(*shape, seed=1)
    imp = make()
    imp.initialize(mx.init.Xavier())
    y_imp = imp(x).asnumpy()
    f = str(tmp_path / "p.params")
    imp.save_parameters(f)
    hyb = make()
    hyb.load_parameters(f)
    hyb.hybridize(**flags)
    np.testing.assert_allclose(hyb(x).asnumpy(), y_imp, rtol=1e-5, atol=1e-6)
    assert hyb._cached_op is not None
    head = nd.array(np.random.default_rng(2).standard_normal(y_imp.shape).astype(np.float32))
    for net in (imp, hyb):
        with autograd.record():
            out = net(x)
        out.backward(head)
    a, b = _params_and_grads(imp), _params_and_grads(hyb)
    for k in a:  # training-mode step: gradients and BatchNorm running statistics agree
        np.testing.assert_allclose(b[k][0], a[k][0], rtol=1e-5, atol=1e-6, err_msg=k)
        if a[k][1] is not None:
            np.testing.assert_allclose(b[k][1], a[k][1], rtol=1e-4, atol=1e-5, err_msg=k)
    np.testing.assert_allclose(hyb(x).asnumpy(), imp(x).asnumpy(), rtol=1e-5, atol=1e-6)
    hyb.hybridize(active=False)
    assert not hyb._active
    np.testing.assert_allclose(hyb(x).asnumpy(), imp(x).asnumpy(), rtol=1e-5, atol=1e-6)


class _Multi(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.a = nn.Dense(3, flatten=False)
            self.b = nn.Dense(3, flatten=False)

    def hybrid_forward(self, F, x, y):
        s = self.a(x) + self.b(y)
        return s, F.relu(s) * 2


def test_hybridize_several_inputs_and_outputs():
    pytest.importorskip("weft.cached_op")
    net = _Multi()
    net.initialize()
    x, y = _rand(2, 4, seed=1), _rand(2, 5, seed=2)
    ref = [o.asnumpy() for o in net(x, y)]
    net.hybridize()
    out = net(x, y)
    assert isinstance(out, list) and len(out) == 2
    for o, r in zip(out, ref):
        np.testing.assert_allclose(o.asnumpy(), r, rtol=1e-6)
    inputs, sym = net._cached_graph
    assert [i.name for i in inputs] == ["data0", "data1"]
    assert len(sym.list_outputs()) == 2
    with pytest.raises(InvalidArgumentError, match="argument structure"):
        net(x, [y])


def test_traced_node_names_follow_blocks():
    net = _mlp()
    net.initialize()
    net.hybridize()
    net(_rand(2, 5))
    nodes = [n["name"] for n in json.loads(net._cached_graph[1].tojson())["nodes"] if n["op"] != "null"]
    assert nodes == ["hybridsequential0_dense0_fwd", "hybridsequential0_dense0_relu_fwd",
                     "hybridsequential0_dense1_fwd", "hybridsequential0_dense1_tanh_fwd",
                     "hybridsequential0_dense2_fwd"]
    sym = net(mx.sym.var("data"))  # symbols compose without hybridizing
    assert sym.list_arguments()[:2] == ["data", "hybridsequential0_dense0_weight"]


# -- export / SymbolBlock -------------------------------------------------------------------------------------------
def test_export_imports_round_trip(tmp_path):
    pytest.importorskip("weft.cached_op")
    net = _cnn()
    net.initialize(mx.init.Xavier())
    with pytest.raises(WeftError, match="hybridize"):
        net.export(str(tmp_path / "early"))
    x = _rand(2, 3, 8, 8)
    with autograd.record():  # move the running statistics away from 0 / 1
        net(x)
    net.hybridize()
    y = net(x).asnumpy()
    sym, pfile = net.export(str(tmp_path / "cnn"), epoch=7)
    assert pfile.endswith("cnn-0007.params") and os.path.exists(str(tmp_path / "cnn-symbol.json"))
    keys = list(nd.load(pfile))
    assert "aux:hybridsequential0_batchnorm0_running_mean" in keys
    assert "arg:hybridsequential0_conv0_weight" in keys and len(keys) == len(net.collect_params())
    assert sym.list_auxiliary_states() == ["hybridsequential0_batchnorm0_running_mean",
                                           "hybridsequential0_batchnorm0_running_var"]
    back = gluon.SymbolBlock.imports(str(tmp_path / "cnn-symbol.json"), ["data"], pfile)
    np.testing.assert_allclose(back(x).asnumpy(), y, rtol=1e-5, atol=1e-6)
    assert back.collect_params()["hybridsequential0_batchnorm0_running_var"].grad_req == "null"
    assert "SymbolBlock(" in repr(back)


def test_symbol_block_from_symbols_deferred_and_trainable():
    pytest.importorskip("weft.cached_op")
    data = mx.sym.var("data")
    out = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    out = mx.sym.Activation(out, act_type="tanh", name="act")
    blk = gluon.SymbolBlock(out, data)
    assert sorted(blk.collect_params().keys()) == ["fc_bias", "fc_weight"]
    blk.initialize()
    x = _rand(4, 6)
    with autograd.record():
        y = blk(x)
    y.backward()
    w = blk.collect_params()["fc_weight"]
    b = blk.collect_params()["fc_bias"]
    assert w.shape == (3, 6)
    ref = np.tanh(x.asnumpy() @ w.data().asnumpy().T + b.data().asnumpy())
    np.testing.assert_allclose(y.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b.grad().asnumpy(), (1 - ref ** 2).sum(0), rtol=1e-4, atol=1e-5)
    composed = blk(mx.sym.var("other"))
    assert composed.list_arguments()[0] == "other"
    # a SymbolBlock inside a hybridized network
    net = nn.HybridSequential()
    net.add(blk, nn.Dense(2, in_units=3))
    net[1].initialize()
    ref2 = net(x).asnumpy()
    net.hybridize()
    np.testing.assert_allclose(net(x).asnumpy(), ref2, rtol=1e-5, atol=1e-6)


def test_mxnet_exported_fixture_loads_and_matches():
    pytest.importorskip("weft.cached_op")
    sym_file = os.path.join(FIXTURES, "cnn-symbol.json")
    if not os.path.exists(sym_file):
        pytest.skip("MXNet fixtures not found at %s" % FIXTURES)
    io = np.load(os.path.join(FIXTURES, "cnn-io.npz"))
    blk = gluon.SymbolBlock.imports(sym_file, ["data"], os.path.join(FIXTURES, "cnn-0000.params"), ctx=mx.cpu())
    np.testing.assert_allclose(blk(nd.array(io["data"])).asnumpy(), io["output"], rtol=1e-4, atol=1e-4)


def test_gluon_net_exports_byte_identical_to_mxnet(tmp_path):
    """The fixture is MXNet 1.9.1's export of this network (loaded with its parameters):
    Weft's export reproduces both files byte for byte."""
    pytest.importorskip("weft.cached_op")
    if not os.path.exists(os.path.join(FIXTURES, "cnn-symbol.json")):
        pytest.skip("MXNet fixtures not found at %s" % FIXTURES)
    net = nn.HybridSequential(prefix="cnn_")
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(), nn.Flatten(),
                nn.Dense(16, activation="relu"), nn.Dropout(0.5), nn.Dense(5))
    net.initialize()
    net.hybridize()
    io = np.load(os.path.join(FIXTURES, "cnn-io.npz"))
    net(nd.array(io["data"]))  # traced before the shapes are known, as MXNet's was: __shape__ "(4, 0, 3, 3)"
    net.collect_params().load(os.path.join(FIXTURES, "cnn-0000.params"))
    np.testing.assert_allclose(net(nd.array(io["data"])).asnumpy(), io["output"], rtol=1e-4, atol=1e-4)
    net.export(str(tmp_path / "cnn"))
    for name in ("cnn-symbol.json", "cnn-0000.params"):
        with open(str(tmp_path / name), "rb") as a, open(os.path.join(FIXTURES, name), "rb") as b:
            assert a.read() == b.read(), name


# -- hooks, summary, cast ------------------------------------------------------------------------------------------
def test_forward_hooks_and_summary(capsys):
    net = _mlp()
    net.initialize()
    calls = []
    pre = net.register_forward_pre_hook(lambda blk, args: calls.append(("pre", len(args))))
    post = net[0].register_forward_hook(lambda blk, args, out: calls.append(("post", out.shape)))
    x = _rand(2, 5)
    net(x)
    assert calls == [("pre", 1), ("post", (2, 8))]
    pre.detach()
    post.detach()
    net(x)
    assert len(calls) == 2
    net.summary(x)
    text = capsys.readouterr().out
    assert "Activation-1" in text and "Dense-2" in text and "Dense-5" in text and "(2, 8)" in text
    assert "Symbol" not in text
    assert "Total params: %d" % (5 * 8 + 8 + 8 * 4 + 4 + 4 * 3 + 3) in text
    net.hybridize()
    with pytest.raises(WeftError, match="must not be hybridized"):
        net.summary(x)


def test_cast_to_float64():
    net = _mlp()
    net.initialize()
    x = _rand(2, 5)
    y = net(x).asnumpy()
    net.cast("float64")
    y64 = net(x.astype("float64"))
    assert y64.dtype == np.float64
    np.testing.assert_allclose(y64.asnumpy(), y, rtol=1e-5, atol=1e-6)
    pytest.importorskip("weft.cached_op")
    net.hybridize()
    np.testing.assert_allclose(net(x.astype("float64")).asnumpy(), y, rtol=1e-5, atol=1e-6)


def test_mixed_inputs_rejected():
    net = nn.Dense(2, in_units=2)
    net.initialize()
    with pytest.raises(InvalidArgumentError, match="mixed NDArrays and Symbols"):
        net(_rand(1, 2), mx.sym.var("y"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net(_rand(1, 2))


# -- gluon.utils -----------------------------------------------------------------------------------------------------
def test_utils_split_and_clip(tmp_path):
    x = nd.array(np.arange(20, dtype=np.float32).reshape(5, 4))
    parts = gluon.utils.split_data(x, 2, even_split=False)
    assert [p.shape for p in parts] == [(3, 4), (2, 4)]
    with pytest.raises(InvalidArgumentError, match="evenly split"):
        gluon.utils.split_data(x, 2)
    cols = gluon.utils.split_data(x, 2, batch_axis=1)
    np.testing.assert_array_equal(cols[1].asnumpy(), x.asnumpy()[:, 2:])
    loaded = gluon.utils.split_and_load(np.ones((4, 2), np.float32), [mx.cpu(0), mx.cpu(0)])
    assert len(loaded) == 2 and loaded[0].shape == (2, 2)
    a, b = nd.array([3.0, 0.0]), nd.array([[4.0]])
    norm = gluon.utils.clip_global_norm([a, b], 1.0)
    assert abs(norm - 5.0) < 1e-5
    np.testing.assert_allclose(a.asnumpy(), [0.6, 0.0], rtol=1e-5)
    np.testing.assert_allclose(b.asnumpy(), [[0.8]], rtol=1e-5)
    f = tmp_path / "blob"
    f.write_bytes(b"weft")
    assert gluon.utils.check_sha1(str(f), "1ae2e9e2b9c5ec9b8f2a8a2ea1e8e0f1a47b4e9a") is False
    assert gluon.utils.check_sha1(str(f), hashlib.sha1(b"weft").hexdigest())
