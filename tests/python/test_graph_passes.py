"""The bind-time graph passes as a user sees them: in-graph optimizer updates,
fusion, dead outputs, memory planning (every bind runs the plan checker),
re-composition with sym(...), and bind errors that name the argument."""
import os
import sys

import numpy as np
import pytest

import weft
from weft import nd, sym
from weft.base import InvalidArgumentError, NotFoundError, ShapeError
from weft.executor import plan_memory

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks"))
import nets  # noqa: E402  pylint: disable=wrong-import-position,wrong-import-order


@pytest.fixture
def fusion_env():
    """Restores WEFT_FUSION after a test that sets it."""
    old = os.environ.get("WEFT_FUSION")
    yield
    if old is None:
        os.environ.pop("WEFT_FUSION", None)
    else:
        os.environ["WEFT_FUSION"] = old


def _mlp():
    data = sym.var("data")
    net = sym.FullyConnected(data, num_hidden=16, name="fc1")
    net = sym.Activation(net, act_type="relu", name="relu1")
    net = sym.FullyConnected(net, num_hidden=4, name="fc2")
    return sym.SoftmaxOutput(net, sym.var("softmax_label"), name="softmax")


def _bind_mlp(update=None, grad_req="write", seed=0):
    net = _mlp()
    rng = np.random.default_rng(seed)
    params = [n for n in net.list_arguments() if n not in ("data", "softmax_label")]
    exe = net.simple_bind(weft.cpu(), grad_req={n: grad_req for n in params}, data=(8, 10), update=update)
    for n in params:
        exe.arg_dict[n][:] = (rng.standard_normal(exe.arg_dict[n].shape) * 0.3).astype(np.float32)
    exe.arg_dict["data"][:] = rng.standard_normal((8, 10)).astype(np.float32)
    exe.arg_dict["softmax_label"][:] = rng.integers(0, 4, 8).astype(np.float32)
    return exe, params


# ---- a training step as one graph ------------------------------------------------------------------------
def test_in_graph_sgd_matches_the_mixed_loop():
    mixed, params = _bind_mlp()
    graph, _ = _bind_mlp(update=("sgd_update", {"lr": 0.1, "wd": 0.01}))
    for _ in range(4):
        mixed.forward(is_train=True)
        mixed.backward()
        for n in params:  # sgd_update's rule: w = (1 - lr*wd) w - lr g
            w, g = mixed.arg_dict[n], mixed.grad_dict[n]
            w[:] = w * (1 - 0.1 * 0.01) - 0.1 * g
        graph.forward(is_train=True)
        graph.backward()
    for n in params:
        np.testing.assert_allclose(graph.arg_dict[n].asnumpy(), mixed.arg_dict[n].asnumpy(), rtol=1e-5, atol=1e-6)
        # The gradients are still there for the user to read.
        np.testing.assert_allclose(graph.grad_dict[n].asnumpy(), mixed.grad_dict[n].asnumpy(), rtol=1e-5, atol=1e-6)


def test_in_graph_momentum_matches_numpy():
    ref, params = _bind_mlp()
    graph, _ = _bind_mlp(update=("sgd_mom_update", {"lr": 0.05, "momentum": 0.9}))
    mom = {n: np.zeros(ref.arg_dict[n].shape, np.float32) for n in params}
    for _ in range(3):
        ref.forward(is_train=True)
        ref.backward()
        for n in params:
            w, g = ref.arg_dict[n].asnumpy(), ref.grad_dict[n].asnumpy()
            mom[n] = 0.9 * mom[n] - 0.05 * g
            ref.arg_dict[n][:] = w + mom[n]
        graph.forward(is_train=True)
        graph.backward()
    for n in params:
        np.testing.assert_allclose(graph.arg_dict[n].asnumpy(), ref.arg_dict[n].asnumpy(), rtol=1e-5, atol=1e-6)
    assert "sgd_mom_update 'fc1_weight_update'" in graph.debug_str()


def test_in_graph_update_errors():
    with pytest.raises(InvalidArgumentError, match="grad_req 'add'"):
        _bind_mlp(update="sgd_update", grad_req="add")
    with pytest.raises(InvalidArgumentError, match="not an optimizer update"):
        _bind_mlp(update="relu")
    with pytest.raises(NotFoundError, match="no_such_update"):
        _bind_mlp(update="no_such_update")
    with pytest.raises(InvalidArgumentError, match="lr"):
        _bind_mlp(update=("sgd_update", {}))  # lr is required
    with pytest.raises(TypeError):
        _bind_mlp(update=("sgd_update", 0.1))


def test_reshape_keeps_the_in_graph_update():
    exe, params = _bind_mlp(update=("sgd_update", {"lr": 0.1}))
    small = exe.reshape(data=(4, 10), softmax_label=(4,))
    before = small.arg_dict["fc2_bias"].asnumpy()
    small.forward(is_train=True)
    small.backward()
    assert not np.allclose(small.arg_dict["fc2_bias"].asnumpy(), before)
    assert "sgd_update" in small.debug_str() and params


# ---- fusion ------------------------------------------------------------------------------------------------
def _run_elementwise(fusion):
    os.environ["WEFT_FUSION"] = "1" if fusion else "0"
    a, b = sym.var("a"), sym.var("b")
    out = sym.exp(a * b + 1) - b
    rng = np.random.default_rng(3)
    av, bv = rng.standard_normal((64, 33)).astype(np.float32), rng.standard_normal((64, 33)).astype(np.float32)
    exe = out.bind(weft.cpu(), {"a": nd.array(av), "b": nd.array(bv)},
                   args_grad={"a": nd.zeros((64, 33)), "b": nd.zeros((64, 33))})
    exe.forward(is_train=True)
    exe.backward(nd.ones((64, 33)))
    return exe, av, bv


def test_elementwise_chain_runs_as_one_step(fusion_env):  # pylint: disable=unused-argument,redefined-outer-name
    fused, av, bv = _run_elementwise(True)
    plain, _, _ = _run_elementwise(False)
    # Training: exp's output is read by its gradient, so it stays visible and
    # the chain splits there (a*b+1 -> exp as one node, then the subtraction).
    forward = fused.debug_str().split("Forward (")[1]
    assert forward.startswith("2 steps") and "_fused_elemwise" in forward
    assert plain.debug_str().split("Forward (")[1].startswith("4 steps")
    ref = np.exp(av * bv + 1) - bv
    np.testing.assert_allclose(fused.outputs[0].asnumpy(), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(plain.outputs[0].asnumpy(), ref, rtol=1e-5, atol=1e-6)
    for n in ("a", "b"):
        np.testing.assert_allclose(fused.grad_dict[n].asnumpy(), plain.grad_dict[n].asnumpy(), rtol=1e-5, atol=1e-6)
    # Prediction: the whole expression is one pass over memory.
    os.environ["WEFT_FUSION"] = "1"
    a, b = sym.var("a"), sym.var("b")
    exe = (sym.exp(a * b + 1) - b).bind(weft.cpu(), {"a": nd.array(av), "b": nd.array(bv)}, grad_req="null")
    assert exe.debug_str().split("Forward (")[1].startswith("1 steps")
    np.testing.assert_allclose(exe.forward()[0].asnumpy(), ref, rtol=1e-5, atol=1e-6)


def test_fully_connected_and_activation_fuse(fusion_env):  # pylint: disable=unused-argument,redefined-outer-name
    os.environ["WEFT_FUSION"] = "1"
    exe, _ = _bind_mlp()
    assert "_fused_fully_connected_act 'relu1'" in exe.debug_str()
    os.environ["WEFT_FUSION"] = "0"
    ref, _ = _bind_mlp()
    for e in (exe, ref):
        e.forward(is_train=True)
        e.backward()
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), ref.outputs[0].asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(exe.grad_dict["fc1_weight"].asnumpy(), ref.grad_dict["fc1_weight"].asnumpy(),
                               rtol=1e-4, atol=1e-6)


# ---- dead-code elimination ------------------------------------------------------------------------------------
def test_unread_gradients_are_not_computed():
    net = nets.small_cnn()
    exe = net.simple_bind(weft.cpu(), grad_req={n: "write" for n in net.list_arguments()
                                                if n not in ("data", "softmax_label")}, data=(2, 1, 28, 28))
    text = exe.debug_str()
    # The first convolution's data gradient and the label gradient are dead outputs.
    first_conv_backward = [l for l in text.splitlines() if "_backward_Convolution" in l][-1]
    assert "(dead)" in first_conv_backward
    full = net.simple_bind(weft.cpu(), grad_req="write", data=(2, 1, 28, 28))
    rng = np.random.default_rng(0)
    for e in (exe, full):
        for n, a in e.arg_dict.items():
            a[:] = np.random.default_rng(abs(hash(n)) % 1000).standard_normal(a.shape).astype(np.float32) * 0.1
        e.arg_dict["data"][:] = rng.standard_normal((2, 1, 28, 28)).astype(np.float32) if e is exe else \
            exe.arg_dict["data"]
        e.arg_dict["softmax_label"][:] = np.array([1, 3], np.float32)
        e.forward(is_train=True)
        e.backward()
    for n, g in exe.grad_dict.items():
        np.testing.assert_allclose(g.asnumpy(), full.grad_dict[n].asnumpy(), rtol=1e-5, atol=1e-6)


def test_prediction_bind_of_an_internal_output_runs_only_what_it_needs():
    net = nets.small_cnn()
    internals = net.get_internals()
    first = [o for o in internals.list_outputs() if o.endswith("_output")][0]
    exe = internals[first].simple_bind(weft.cpu(), grad_req="null", data=(2, 1, 28, 28))
    text = exe.debug_str()
    assert "Forward (1 steps)" in text and "Backward (0 steps)" in text


# ---- memory planning ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(nets.NETS))
@pytest.mark.parametrize("training", [False, True])
def test_plans_of_the_benchmark_nets(name, training):
    """Every plan passes the checker (plan_memory runs it); the strategies are
    ordered as docs/DESIGN.md says and never beat the lower bound."""
    s = nets.NETS[name]()
    r = {k: plan_memory(s, k, training, data=(2, 3, 224, 224), softmax_label=(2,))
         for k in ("naive", "inplace", "coshare", "both")}
    naive = r["naive"]["planned_bytes"]
    assert naive == r["both"]["naive_bytes"]
    assert r["both"]["planned_bytes"] <= min(r["coshare"]["planned_bytes"], r["inplace"]["planned_bytes"])
    assert r["inplace"]["planned_bytes"] <= naive
    for v in r.values():
        assert v["planned_bytes"] >= v["lower_bound_bytes"] > 0
    assert r["both"]["planned_bytes"] <= 1.15 * r["both"]["lower_bound_bytes"]


def test_plan_memory_matches_what_a_bind_allocates():
    net = _mlp()
    plan = plan_memory(net, "both", True, data=(8, 10), softmax_label=(8,))
    exe = net.simple_bind(weft.cpu(), grad_req={n: "write" for n in net.list_arguments()
                                                if n not in ("data", "softmax_label")}, data=(8, 10))
    assert "%d shared buffers" % plan["buffers"] in exe.debug_str()
    assert exe.internal_bytes() >= plan["planned_bytes"]


def test_plan_memory_errors():
    with pytest.raises(InvalidArgumentError, match="strategy"):
        plan_memory(_mlp(), "fast", data=(8, 10))
    with pytest.raises(ShapeError):
        plan_memory(_mlp(), "both")  # data's shape is unknown


def test_memory_plan_environment_variable(monkeypatch):
    sizes = {}
    for strategy in ("naive", "both"):
        monkeypatch.setenv("WEFT_MEMORY_PLAN", strategy)
        exe, _ = _bind_mlp()
        assert "Memory plan: %s" % strategy in exe.debug_str()
        sizes[strategy] = exe.internal_bytes()
    assert sizes["both"] < sizes["naive"]
    monkeypatch.setenv("WEFT_MEMORY_PLAN", "fastest")
    with pytest.raises(InvalidArgumentError, match="fastest"):
        _bind_mlp()


def test_debug_str_shows_the_plan():
    exe, _ = _bind_mlp()
    text = exe.debug_str()
    for piece in ("Op:FullyConnected, Name=fc1", "Forward (", "Backward (", "Memory plan: both",
                  "lower bound", "Total ", " MB allocated"):
        assert piece in text, piece


# ---- re-composition and bind errors --------------------------------------------------------------------------
def test_call_recomposes_a_graph():
    head = sym.Activation(sym.FullyConnected(sym.var("data"), num_hidden=4, name="fc"), act_type="tanh", name="t")
    feat = sym.FullyConnected(sym.var("x"), num_hidden=3, name="pre")
    net = head(data=feat)
    assert net.list_arguments() == ["x", "pre_weight", "pre_bias", "fc_weight", "fc_bias"]
    assert head.list_arguments() == ["data", "fc_weight", "fc_bias"]  # the original is unchanged
    assert net.infer_shape(x=(2, 5))[0][3] == (4, 3)
    positional = head(feat)
    assert positional.tojson() == net.tojson()
    rng = np.random.default_rng(0)
    vals = {n: rng.standard_normal(s).astype(np.float32) for n, s in zip(net.list_arguments(),
                                                                        net.infer_shape(x=(2, 5))[0])}
    out = net.eval(**{k: nd.array(v) for k, v in vals.items()})[0].asnumpy()
    pre = vals["x"] @ vals["pre_weight"].T + vals["pre_bias"]
    np.testing.assert_allclose(out, np.tanh(pre @ vals["fc_weight"].T + vals["fc_bias"]), rtol=1e-5, atol=1e-6)
    with pytest.raises(InvalidArgumentError, match="'nope' is not an argument"):
        head(nope=feat)
    with pytest.raises(InvalidArgumentError, match="given twice"):
        head(feat, data=feat)
    with pytest.raises(InvalidArgumentError, match="outputs"):
        head(data=sym.Group([feat, feat]))


def test_bind_names_the_conflicting_argument_and_both_shapes():
    net = _mlp()
    arg_shapes, _, _ = net.infer_shape(data=(8, 10))
    args = {n: nd.zeros(s) for n, s in zip(net.list_arguments(), arg_shapes)}
    args["fc2_weight"] = nd.zeros((4, 15))
    with pytest.raises(ShapeError) as e:
        net.bind(weft.cpu(), args)
    msg = str(e.value)
    assert "fc2_weight" in msg and "(4,15)" in msg.replace(" ", "") and "(4,16)" in msg.replace(" ", "")
    args["fc2_weight"] = nd.zeros((4, 16))
    grads = {"fc1_weight": nd.zeros((16, 9))}
    with pytest.raises(ShapeError, match="gradient array of 'fc1_weight'"):
        net.bind(weft.cpu(), args, args_grad=grads)
