"""HybridBlock.register_op_hook and Block.save / Block.load (MXNet 1.9.1's Block
API, weft/gluon/block_hooks.py)."""
import json
import os

import numpy as np
import pytest

import weft as mx
from weft import autograd, gluon
from weft.gluon import nn


def _net():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(4, activation="relu"), nn.Dense(2))
    net.initialize(mx.init.Xavier())
    return net


def test_op_hook_sees_every_operator_output_in_order():
    net = _net()
    x = mx.nd.array(np.random.RandomState(0).uniform(size=(3, 5)))
    expected = net(x).asnumpy()
    seen = []
    net.hybridize()
    net.register_op_hook(lambda name, op, arr: seen.append((name, op, arr.asnumpy())))
    out = net(x)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    names = [(n, op) for n, op, _ in seen]
    fc = [n for n, op in names if op == "FullyConnected"]
    assert len(fc) == 2 and all(n.endswith("_output") for n, _ in names)
    assert names.index((fc[0], "FullyConnected")) < names.index((fc[1], "FullyConnected"))
    assert ("hybridsequential0_dense0_relu_fwd_output", "Activation") in names or any(
        op == "Activation" for _, op in names)
    np.testing.assert_allclose(seen[-1][2], expected, rtol=1e-6)        # the last op gives the output
    w = net[0].weight.data().asnumpy()
    b = net[0].bias.data().asnumpy()
    first = dict((n, a) for n, _, a in seen)[fc[0]]
    np.testing.assert_allclose(first, x.asnumpy() @ w.T + b, rtol=1e-5)


def test_op_hook_monitor_all_reports_inputs_and_keeps_gradients():
    net = _net()
    x = mx.nd.array(np.random.RandomState(1).uniform(size=(2, 5)))
    with autograd.record():
        loss = net(x).sum()
    loss.backward()
    grad_ref = net[0].weight.grad().asnumpy().copy()
    net.hybridize()
    seen = []
    net.register_op_hook(lambda name, op, arr: seen.append(name), monitor_all=True)
    with autograd.record():
        loss = net(x).sum()
    loss.backward()
    np.testing.assert_allclose(net[0].weight.grad().asnumpy(), grad_ref, rtol=1e-5)
    fc0 = [n for n in seen if n.endswith("_output")][0][:-len("_output")]
    assert [fc0 + "_data", fc0 + "_weight", fc0 + "_bias", fc0 + "_output"] == seen[:4]
    with pytest.raises(TypeError, match="callable"):
        net.register_op_hook("not a function")


def test_save_and_load_restore_parameters_and_graph(tmp_path):
    net = _net()
    net.hybridize()
    x = mx.nd.array(np.random.RandomState(2).uniform(size=(2, 5)))
    expected = net(x).asnumpy()
    prefix = os.path.join(str(tmp_path), "m")
    net.save(prefix)
    assert sorted(os.listdir(str(tmp_path))) == ["m-model.json", "m-model.params"]
    with open(prefix + "-model.json") as f:
        model = json.load(f)
    # MXNet 1.9.1's layout: class name + depth-first index, children nested in their parent's entry
    (key, tree), = model.items()
    assert key == "hybridsequential0" and tree["orig_name"] == net.name and tree["hybridized"]
    assert "symbol" in tree and len(tree["inputs"]) == 1
    assert tree["children"] == {net[0].name: "0", net[1].name: "1"}
    # the first Dense's Activation child is block 2, inside its entry; the second Dense is block 3
    assert tree["dense1"]["orig_name"] == net[0].name and tree["dense3"]["orig_name"] == net[1].name
    assert tree["dense1"]["activation2"]["orig_name"] == net[0].act.name
    assert tree["dense1"]["hybridized"] is False  # only the top block traced its graph
    fresh = _net()
    fresh.load(prefix)
    np.testing.assert_allclose(fresh(x).asnumpy(), expected, rtol=1e-6)
    assert fresh._active  # runs the saved graph
    other = nn.HybridSequential()
    with other.name_scope():
        other.add(nn.Dense(4), nn.Dropout(0.5))
    with pytest.raises(ValueError, match="different model"):
        other.load(prefix)
    with pytest.raises(ValueError, match="does not exist"):
        fresh.load(os.path.join(str(tmp_path), "missing"))


def test_save_and_load_plain_blocks(tmp_path):
    net = nn.Sequential()
    with net.name_scope():
        net.add(nn.Dense(3), nn.Dense(1))
    net.initialize()
    x = mx.nd.ones((1, 4))
    expected = net(x).asnumpy()
    prefix = os.path.join(str(tmp_path), "plain")
    net.save(prefix)
    again = nn.Sequential()
    with again.name_scope():
        again.add(nn.Dense(3), nn.Dense(1))
    again.load(prefix)
    np.testing.assert_allclose(again(x).asnumpy(), expected, rtol=1e-6)


def test_parameter_accepts_dense_storage_types():
    p = gluon.Parameter("w", shape=(2, 2), stype="default", grad_stype="default")
    p.initialize()
    assert p.data().shape == (2, 2)


def test_load_reads_an_mxnet_style_file_with_other_names(tmp_path):
    """A file written by another process names the blocks differently (its own
    prefix counters); load maps the saved graph's parameters onto this block's."""
    net = _net()
    net.hybridize()
    x = mx.nd.array(np.random.RandomState(3).uniform(size=(2, 5)))
    expected = net(x).asnumpy()
    prefix = os.path.join(str(tmp_path), "other")
    net.save(prefix)
    with open(prefix + "-model.json") as f:
        text = f.read()
    with open(prefix + "-model.json", "w") as f:   # as if saved where this was hybridsequential7
        f.write(text.replace(net.name, "hybridsequential7"))
    fresh = _net()
    fresh.load(prefix)
    np.testing.assert_allclose(fresh(x).asnumpy(), expected, rtol=1e-6)


def test_op_hook_on_a_plain_block_reaches_its_hybrid_children():
    outer = nn.Sequential()
    inner = _net()
    outer.add(inner)
    inner.hybridize()
    seen = []
    outer.register_op_hook(lambda name, op, arr: seen.append(op))
    outer(mx.nd.ones((1, 5)))
    assert seen.count("FullyConnected") == 2
