"""weft.executor: bind / simple_bind, forward against NumPy, BatchNorm in training,
backward gradients, grad_req 'add', a training loop against a NumPy reference,
reshape, parameter copies, monitoring, and errors at bind."""
import json

import numpy as np
import pytest

import weft
import weft.nd as nd
import weft.sym as sym
from weft.base import op_schema

CPU = weft.cpu()


def has_gradient(*ops):
    return all(json.loads(op_schema(o)).get("has_gradient") for o in ops)


def needs_gradient(*ops):
    missing = [o for o in ops if not has_gradient(o)]
    return pytest.mark.skipif(bool(missing), reason="no gradient rule yet for %s" % ", ".join(missing))


@pytest.fixture(autouse=True)
def fresh_names():
    with weft.name.NameManager():
        yield


def mlp(head="softmax"):
    data = sym.Variable("data")
    fc1 = sym.FullyConnected(data, num_hidden=8, name="fc1")
    act = sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = sym.FullyConnected(act, num_hidden=3, name="fc2")
    if head == "softmax":
        return sym.SoftmaxOutput(fc2, name="softmax")
    return sym.LinearRegressionOutput(fc2, name="lro")


def np_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def fill(exe, rng, scale=0.5):
    vals = {}
    for name, arr in exe.arg_dict.items():
        if name.endswith("label"):
            continue
        vals[name] = rng.uniform(-scale, scale, arr.shape).astype(np.float32)
        arr[:] = vals[name]
    return vals


# ---- forward ----------------------------------------------------------------------------------------------
def test_simple_bind_mlp_forward_matches_numpy():
    net = mlp()
    exe = net.simple_bind(CPU, grad_req="null", data=(4, 5))
    assert [a.shape for a in exe.arg_arrays] == [(4, 5), (8, 5), (8,), (3, 8), (3,), (4,)]
    assert all(g is None for g in exe.grad_arrays) and exe.grad_dict == {}
    assert all((a.asnumpy() == 0).all() for a in exe.arg_arrays)  # simple_bind zero-fills
    rng = np.random.RandomState(0)
    v = fill(exe, rng)
    outs = exe.forward()
    assert outs is exe.outputs and len(outs) == 1
    h = np.maximum(v["data"] @ v["fc1_weight"].T + v["fc1_bias"], 0)
    want = np_softmax(h @ v["fc2_weight"].T + v["fc2_bias"])
    np.testing.assert_allclose(outs[0].asnumpy(), want, rtol=1e-5, atol=1e-6)
    assert list(exe.output_dict) == ["softmax_output"]
    # New data through forward(**kwargs) (numpy or NDArray).
    x2 = rng.uniform(-1, 1, (4, 5)).astype(np.float32)
    exe.forward(data=x2)
    h = np.maximum(x2 @ v["fc1_weight"].T + v["fc1_bias"], 0)
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), np_softmax(h @ v["fc2_weight"].T + v["fc2_bias"]),
                               rtol=1e-5, atol=1e-6)
    with pytest.raises(weft.ShapeError, match="data"):
        exe.forward(data=np.zeros((3, 5), np.float32))
    with pytest.raises(weft.InvalidArgumentError, match="nope"):
        exe.forward(nope=np.zeros(2))


def test_bind_with_lists_and_dicts():
    a, b = sym.Variable("a"), sym.Variable("b")
    c = a * b + 1
    xa, xb = np.arange(6, dtype=np.float32).reshape(2, 3), np.full((2, 3), 2, np.float32)
    exe = c.bind(CPU, [nd.array(xa), nd.array(xb)])
    np.testing.assert_array_equal(exe.forward()[0].asnumpy(), xa * xb + 1)
    exe = c.bind(CPU, {"b": nd.array(xb), "a": nd.array(xa)})
    np.testing.assert_array_equal(exe.forward()[0].asnumpy(), xa * xb + 1)
    assert list(exe.arg_dict) == ["a", "b"]
    # The executor reads its arrays when it runs: updating them feeds new values.
    exe.arg_dict["a"][:] = 1
    np.testing.assert_array_equal(exe.forward()[0].asnumpy(), xb + 1)
    np.testing.assert_array_equal(c.eval(ctx=CPU, a=nd.array(xa), b=nd.array(xb))[0].asnumpy(), xa * xb + 1)


def test_bind_errors():
    a, b = sym.Variable("a"), sym.Variable("b")
    c = sym.FullyConnected(a, num_hidden=4, name="fc") + b
    good = {"a": nd.zeros((2, 3)), "fc_weight": nd.zeros((4, 3)), "fc_bias": nd.zeros(4), "b": nd.zeros((2, 4))}
    c.bind(CPU, good)
    with pytest.raises(weft.ShapeError, match="fc_weight"):
        c.bind(CPU, dict(good, fc_weight=nd.zeros((4, 5))))
    with pytest.raises(weft.ShapeError, match="fc_bias"):
        c.bind(CPU, dict(good, fc_bias=nd.zeros(5)))
    with pytest.raises(weft.InvalidArgumentError, match="fc_bias"):
        c.bind(CPU, {k: v for k, v in good.items() if k != "fc_bias"})
    with pytest.raises(weft.InvalidArgumentError):
        c.bind(CPU, list(good.values())[:2])
    with pytest.raises(TypeError):
        c.bind(CPU, dict(good, b=np.zeros((2, 4))))
    with pytest.raises(TypeError):
        c.bind("cpu", good)
    with pytest.raises(weft.InvalidArgumentError, match="grad_req"):
        c.bind(CPU, good, grad_req="sometimes")
    bn = sym.BatchNorm(a, name="bn")
    with pytest.raises(weft.InvalidArgumentError, match="aux"):
        bn.bind(CPU, {"a": nd.zeros((2, 3)), "bn_gamma": nd.ones(3), "bn_beta": nd.zeros(3)})
    with pytest.raises(weft.ShapeError, match="unknown|infer"):
        c.simple_bind(CPU, b=(2, 4))  # a's shape cannot be inferred


# ---- BatchNorm ------------------------------------------------------------------------------------------------
def test_batchnorm_training_updates_aux_states():
    data = sym.Variable("data")
    bn = sym.BatchNorm(data, fix_gamma=False, momentum=0.9, eps=1e-3, name="bn")
    exe = bn.simple_bind(CPU, grad_req="null", data=(4, 3, 2, 2))
    assert list(exe.aux_dict) == ["bn_moving_mean", "bn_moving_var"]
    rng = np.random.RandomState(1)
    x = rng.normal(2.0, 3.0, (4, 3, 2, 2)).astype(np.float32)
    gamma = np.array([1.0, 0.5, 2.0], np.float32)
    beta = np.array([0.0, 1.0, -1.0], np.float32)
    exe.arg_dict["bn_gamma"][:] = gamma
    exe.arg_dict["bn_beta"][:] = beta
    exe.aux_dict["bn_moving_var"][:] = 1
    exe.forward(is_train=True, data=x)
    mean = x.mean(axis=(0, 2, 3))
    var = x.var(axis=(0, 2, 3))
    c = (slice(None), None, None)
    want = (x - mean[c]) / np.sqrt(var[c] + 1e-3) * gamma[c] + beta[c]
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), want, rtol=1e-4, atol=1e-4)
    mm = 0.1 * mean
    mv = 0.9 + 0.1 * var
    np.testing.assert_allclose(exe.aux_dict["bn_moving_mean"].asnumpy(), mm, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(exe.aux_dict["bn_moving_var"].asnumpy(), mv, rtol=1e-4, atol=1e-5)
    # Inference uses (and keeps) the moving statistics.
    exe.forward(is_train=False)
    want = (x - mm[c]) / np.sqrt(mv[c] + 1e-3) * gamma[c] + beta[c]
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(exe.aux_dict["bn_moving_mean"].asnumpy(), mm, rtol=1e-4, atol=1e-5)


# ---- backward -------------------------------------------------------------------------------------------------
@needs_gradient("elemwise_mul", "elemwise_add", "_mul_scalar", "exp", "sum")
def test_backward_small_graph_matches_numpy():
    a, b = sym.Variable("a"), sym.Variable("b")
    out = sym.exp(a * b) + a * 3.0
    rng = np.random.RandomState(2)
    xa = rng.uniform(-1, 1, (2, 3)).astype(np.float32)
    xb = rng.uniform(-1, 1, (2, 3)).astype(np.float32)
    ga, gb = nd.zeros((2, 3)), nd.zeros((2, 3))
    exe = out.bind(CPU, {"a": nd.array(xa), "b": nd.array(xb)}, args_grad={"a": ga, "b": gb})
    exe.forward(is_train=True)
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), np.exp(xa * xb) + 3 * xa, rtol=1e-5)
    exe.backward()  # head gradient: ones
    np.testing.assert_allclose(ga.asnumpy(), np.exp(xa * xb) * xb + 3, rtol=1e-5)
    np.testing.assert_allclose(gb.asnumpy(), np.exp(xa * xb) * xa, rtol=1e-5)
    assert exe.grad_dict["a"] is ga
    # Given head gradients scale the result.
    og = rng.uniform(-1, 1, (2, 3)).astype(np.float32)
    exe.backward(out_grads=nd.array(og))
    np.testing.assert_allclose(gb.asnumpy(), og * np.exp(xa * xb) * xa, rtol=1e-5)
    exe.backward(out_grads={"_plus0_output": nd.array(og)})
    np.testing.assert_allclose(ga.asnumpy(), og * (np.exp(xa * xb) * xb + 3), rtol=1e-5)


@needs_gradient("elemwise_mul")
def test_grad_req_add_accumulates_and_null_skips():
    a, b = sym.Variable("a"), sym.Variable("b")
    out = a * b
    xa, xb = np.full((3,), 2.0, np.float32), np.array([1.0, 2.0, 3.0], np.float32)
    ga, gb = nd.ones((3,)), nd.ones((3,))
    exe = out.bind(CPU, [nd.array(xa), nd.array(xb)], args_grad=[ga, gb], grad_req={"a": "add", "b": "null"})
    assert exe.grad_arrays[1] is None
    for _ in range(3):
        exe.forward(is_train=True)
        exe.backward()
    np.testing.assert_allclose(ga.asnumpy(), 1 + 3 * xb)
    np.testing.assert_allclose(gb.asnumpy(), np.ones(3))  # untouched
    exe = out.bind(CPU, [nd.array(xa), nd.array(xb)], args_grad=[ga, gb], grad_req=["write", "add"])
    exe.forward(is_train=True)
    exe.backward()
    np.testing.assert_allclose(ga.asnumpy(), xb)
    np.testing.assert_allclose(gb.asnumpy(), 1 + xa)


@needs_gradient("FullyConnected", "Activation", "SoftmaxOutput")
def test_mlp_backward_matches_numpy():
    net = mlp()
    exe = net.simple_bind(CPU, data=(4, 5))
    assert exe.grad_dict.keys() == set(net.list_arguments())
    rng = np.random.RandomState(3)
    v = fill(exe, rng)
    label = np.array([0, 2, 1, 2], np.float32)
    exe.arg_dict["softmax_label"][:] = label
    exe.forward(is_train=True)
    exe.backward()
    z1 = v["data"] @ v["fc1_weight"].T + v["fc1_bias"]
    h = np.maximum(z1, 0)
    p = np_softmax(h @ v["fc2_weight"].T + v["fc2_bias"])
    dz2 = p - np.eye(3, dtype=np.float32)[label.astype(int)]
    dh = dz2 @ v["fc2_weight"]
    dz1 = dh * (z1 > 0)
    want = {"fc2_weight": dz2.T @ h, "fc2_bias": dz2.sum(0), "fc1_weight": dz1.T @ v["data"],
            "fc1_bias": dz1.sum(0), "data": dz1 @ v["fc1_weight"]}
    for k, w in want.items():
        np.testing.assert_allclose(exe.grad_dict[k].asnumpy(), w, rtol=1e-4, atol=1e-5, err_msg=k)


@needs_gradient("FullyConnected", "Activation", "LinearRegressionOutput")
def test_training_loop_matches_numpy_reference():
    """exe.forward(is_train=True); exe.backward(); w -= lr * g, several steps, no waits."""
    net = mlp("regression")
    batch, lr, steps = 6, 0.1, 5
    exe = net.simple_bind(CPU, data=(batch, 5), grad_req={"fc1_weight": "write", "fc1_bias": "write",
                                                          "fc2_weight": "write", "fc2_bias": "write"})
    assert exe.grad_dict.keys() == {"fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"}
    rng = np.random.RandomState(4)
    v = fill(exe, rng)
    y = rng.uniform(-1, 1, (batch, 3)).astype(np.float32)
    exe.arg_dict["lro_label"][:] = y
    params = ["fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"]
    for _ in range(steps):
        exe.forward(is_train=True)
        exe.backward()
        for name in params:
            w = exe.arg_dict[name]
            w -= lr * exe.grad_dict[name]
    # NumPy: LinearRegressionOutput's gradient is (out - label) / (outputs per example).
    w = {k: v[k].copy() for k in params}
    x = v["data"]
    for _ in range(steps):
        z1 = x @ w["fc1_weight"].T + w["fc1_bias"]
        h = np.maximum(z1, 0)
        out = h @ w["fc2_weight"].T + w["fc2_bias"]
        dz2 = (out - y) / 3.0
        dz1 = (dz2 @ w["fc2_weight"]) * (z1 > 0)
        grads = {"fc2_weight": dz2.T @ h, "fc2_bias": dz2.sum(0), "fc1_weight": dz1.T @ x, "fc1_bias": dz1.sum(0)}
        for k in params:
            w[k] -= lr * grads[k]
    for k in params:
        np.testing.assert_allclose(exe.arg_dict[k].asnumpy(), w[k], rtol=1e-4, atol=1e-5, err_msg=k)
    final = np.maximum(x @ w["fc1_weight"].T + w["fc1_bias"], 0) @ w["fc2_weight"].T + w["fc2_bias"]
    exe.forward(is_train=False)
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), final, rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(has_gradient("sgd_update"), reason="sgd_update has a gradient rule")
def test_ops_without_gradient_rules_are_named_at_bind():
    # An optimizer update has no gradient (none in MXNet either).
    x, g = sym.Variable("x"), sym.Variable("g")
    out = sym.sgd_update(x, g, lr=0.1, name="step") * 2.0
    with pytest.raises(weft.NotFoundError, match="sgd_update"):
        out.simple_bind(CPU, x=(2, 3), g=(2, 3))
    exe = out.simple_bind(CPU, grad_req="null", x=(2, 3), g=(2, 3))  # forward-only binds fine
    exe.arg_dict["x"][:] = 1
    exe.arg_dict["g"][:] = 2
    np.testing.assert_allclose(exe.forward()[0].asnumpy(), np.full((2, 3), 2 * (1 - 0.1 * 2)), rtol=1e-6)


# ---- reshape, parameters, monitoring --------------------------------------------------------------------------
def test_reshape_shares_parameters():
    net = mlp()
    exe = net.simple_bind(CPU, grad_req="null", data=(4, 5))
    rng = np.random.RandomState(5)
    v = fill(exe, rng)
    small = exe.reshape(data=(2, 5), softmax_label=(2,))
    assert small.arg_dict["data"].shape == (2, 5)
    assert small.arg_dict["fc1_weight"] is exe.arg_dict["fc1_weight"]
    assert small.arg_dict["data"].shares_memory(exe.arg_dict["data"])
    exe.arg_dict["fc2_bias"][:] = 1.0  # visible to both
    small.forward(data=v["data"][:2])
    exe.forward()
    np.testing.assert_allclose(small.outputs[0].asnumpy(), exe.outputs[0].asnumpy()[:2], rtol=1e-5, atol=1e-6)
    with pytest.raises(weft.ShapeError, match="allow_up_sizing"):
        exe.reshape(data=(8, 5), softmax_label=(8,))
    big = exe.reshape(allow_up_sizing=True, data=(8, 5), softmax_label=(8,))
    assert big.outputs[0].shape == (8, 3)
    with pytest.raises(weft.ShapeError, match="partial_shaping"):
        exe.reshape(data=(2, 5))  # the label's shape would change silently


def test_copy_params_from():
    net = mlp()
    exe = net.simple_bind(CPU, grad_req="null", data=(2, 5))
    w = np.ones((8, 5), np.float64)
    exe.copy_params_from({"fc1_weight": nd.array(w, dtype="float64"), "fc1_bias": nd.full((8,), 2)})
    np.testing.assert_array_equal(exe.arg_dict["fc1_weight"].asnumpy(), w)
    assert exe.arg_dict["fc1_weight"].dtype == np.float32
    np.testing.assert_array_equal(exe.arg_dict["fc1_bias"].asnumpy(), np.full(8, 2))
    with pytest.raises(weft.InvalidArgumentError, match="extra"):
        exe.copy_params_from({"extra": nd.zeros(1)})
    exe.copy_params_from({"extra": nd.zeros(1)}, allow_extra_params=True)
    bn = sym.BatchNorm(sym.Variable("d"), name="bn")
    e2 = bn.simple_bind(CPU, grad_req="null", d=(2, 3))
    e2.copy_params_from({}, {"bn_moving_var": nd.full((3,), 4)})
    np.testing.assert_array_equal(e2.aux_dict["bn_moving_var"].asnumpy(), np.full(3, 4))
    with pytest.raises(weft.InvalidArgumentError, match="nope"):
        e2.copy_params_from({}, {"nope": nd.zeros(3)})


def test_monitor_callback_and_debug_str():
    a = sym.Variable("a")
    out = sym.Group([sym.Activation(a, act_type="relu", name="r"), a * 2.0])
    exe = out.simple_bind(CPU, grad_req="null", a=(2, 2))
    seen = []
    exe.set_monitor_callback(lambda name, arr: seen.append((name, arr.shape)))
    exe.forward()
    assert seen == [("r_output", (2, 2)), ("_mulscalar0_output", (2, 2))]
    seen.clear()
    exe.set_monitor_callback(lambda name, arr: seen.append(name), monitor_all=True)
    exe.forward()
    assert seen == ["a", "r_output", "_mulscalar0_output"]
    exe.set_monitor_callback(None)
    exe.forward()
    assert len(seen) == 3
    text = exe.debug_str()
    assert "Op:Activation, Name=r" in text and "Variable:a" in text
    assert "Total %d MB allocated" % (exe.internal_bytes() >> 20) in text
    assert exe.internal_bytes() >= 2 * 2 * 4 * 2


def test_shared_buffer_and_group2ctx():
    net = mlp()
    buf = {}
    e1 = net.simple_bind(CPU, grad_req="null", shared_buffer=buf, data=(4, 5))
    assert buf["fc1_weight"] is e1.arg_dict["fc1_weight"]
    e2 = net.simple_bind(CPU, grad_req="null", shared_buffer=buf, data=(4, 5))
    assert e2.arg_dict["fc1_weight"] is e1.arg_dict["fc1_weight"]
    e3 = net.simple_bind(CPU, grad_req="null", shared_exec=e1, shared_arg_names=["fc2_weight"], data=(4, 5))
    assert e3.arg_dict["fc2_weight"] is e1.arg_dict["fc2_weight"]
    assert e3.arg_dict["fc1_weight"] is not e1.arg_dict["fc1_weight"]
    net.simple_bind(CPU, grad_req="null", group2ctx={"dev1": CPU}, data=(4, 5))
    # A group with no nodes places nothing (MXNet); an edge between a CPU array and a GPU group is refused
    # (copies join CPU contexts only; tests/python/test_group2ctx.py covers CPU groups).
    net.simple_bind(CPU, grad_req="null", group2ctx={"dev1": weft.gpu(0)}, data=(4, 5))
    with weft.AttrScope(ctx_group="dev1"):
        on_gpu = sym.Variable("x") * 2
    with pytest.raises(weft.InvalidArgumentError, match="group2ctx.*CPU contexts only"):
        on_gpu.bind(CPU, {"x": weft.nd.ones((2, 2))}, group2ctx={"dev1": weft.gpu(0)})


def test_type_dict():
    a, b = sym.Variable("a"), sym.Variable("b")
    exe = (a + b).simple_bind(CPU, grad_req="null", type_dict={"a": "float64"}, a=(2,), b=(2,))
    assert exe.arg_dict["a"].dtype == np.float64 and exe.arg_dict["b"].dtype == np.float64
    assert exe.forward()[0].dtype == np.float64
