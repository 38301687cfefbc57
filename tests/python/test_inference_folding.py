"""Convolution + BatchNorm (+ residual add) (+ ReLU) chains bound for inference
become one _fused_convolution_bn node (Note [Inference folding] in
core/op/fused/fused_conv_bn.cc). Graphs of the model zoo's ResNet-18,
MobileNet (v1 and v2) and SqueezeNet, with random weights and statistics, give
the same outputs with the fusion pass on (WEFT_FUSION=1) and off (0), bound
and hybridized; parameters changed between forwards are seen; training mode
(batch statistics) stays BatchNorm's, moving statistics included."""
import os

import numpy as np
import pytest

import weft as mx
from weft.gluon import nn
from weft.gluon.model_zoo import vision

RTOL, ATOL = 1e-5, 1e-5


@pytest.fixture(autouse=True)
def _restore_fusion():
    old = os.environ.get("WEFT_FUSION")
    yield
    if old is None:
        os.environ.pop("WEFT_FUSION", None)
    else:
        os.environ["WEFT_FUSION"] = old


def _randomise(net, seed):
    """Random BatchNorm parameters and statistics (the initialiser's are 1 and 0)."""
    rng = np.random.default_rng(seed)
    for name, p in net.collect_params().items():
        shape = p.shape
        if name.endswith("gamma") or name.endswith("running_var"):
            p.set_data(mx.nd.array(rng.uniform(0.5, 1.5, shape).astype(np.float32)))
        elif name.endswith("beta") or name.endswith("running_mean"):
            p.set_data(mx.nd.array(rng.uniform(-0.3, 0.3, shape).astype(np.float32)))


def _net(make, shape, seed=0):
    net = make()
    net.initialize(mx.init.Xavier(magnitude=2.0))
    net(mx.nd.zeros(shape))  # shapes the deferred parameters
    _randomise(net, seed)
    return net


def _bind(net, x, fusion, grad_req="null"):
    os.environ["WEFT_FUSION"] = "1" if fusion else "0"
    sym = net(mx.sym.var("data"))
    params = {p.name: p.data() for p in net.collect_params().values()}
    args = {n: (x if n == "data" else params[n]) for n in sym.list_arguments()}
    aux = {n: params[n].copy() for n in sym.list_auxiliary_states()}
    grads = None if grad_req == "null" else {n: mx.nd.zeros(a.shape) for n, a in args.items()}
    return sym.bind(mx.cpu(), args, args_grad=grads, grad_req=grad_req, aux_states=aux)


def _folded_chains(exe):
    line = [l for l in exe.debug_str().splitlines() if l.startswith("Fusion:")][0]
    return int(line.split(" convolution+batchnorm")[0].split(", ")[-1])


def _squeezenet_features():
    return vision.squeezenet1_1().features  # the classifier's 13x13 pooling needs 224x224 inputs


MODELS = {
    "resnet18_v1": (vision.resnet18_v1, (2, 3, 32, 32), 20),
    "mobilenet0_25": (vision.mobilenet0_25, (1, 3, 32, 32), 27),
    "mobilenet_v2_0_25": (vision.mobilenet_v2_0_25, (1, 3, 32, 32), 53),
    "squeezenet1_1": (_squeezenet_features, (1, 3, 48, 48), 0),
}


@pytest.mark.parametrize("model", sorted(MODELS))
def test_bound_fused_equals_unfused(model):
    make, shape, chains = MODELS[model]
    net = _net(make, shape)
    x = mx.nd.array(np.random.default_rng(1).uniform(-1, 1, shape).astype(np.float32))
    fused, plain = _bind(net, x, True), _bind(net, x, False)
    assert _folded_chains(fused) == chains
    assert _folded_chains(plain) == 0
    fused.forward(is_train=False)
    plain.forward(is_train=False)
    want = plain.outputs[0].asnumpy()
    np.testing.assert_allclose(fused.outputs[0].asnumpy(), want, rtol=RTOL, atol=ATOL * np.abs(want).max())


@pytest.mark.parametrize("model", ["resnet18_v1", "mobilenet0_25"])
def test_hybridized_equals_imperative(model):
    make, shape, _ = MODELS[model]
    net = _net(make, shape)
    x = mx.nd.array(np.random.default_rng(2).uniform(-1, 1, shape).astype(np.float32))
    want = net(x).asnumpy()  # op by op: no fusion
    os.environ["WEFT_FUSION"] = "1"
    net.hybridize()
    got = net(x).asnumpy()
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL * np.abs(want).max())


def _block(act="relu", residual=True, use_global_stats=False):
    class Block(nn.HybridBlock):
        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.conv = nn.Conv2D(8, 3, padding=1, in_channels=8)
                self.bn = nn.BatchNorm(in_channels=8, use_global_stats=use_global_stats)

        def hybrid_forward(self, F, x):
            y = self.bn(self.conv(x))
            if residual:
                y = y + x
            return F.Activation(y, act_type=act) if act else y

    return Block


def test_parameters_changed_between_forwards_are_seen():
    net = _net(_block(), (1, 8, 6, 6))
    x = mx.nd.array(np.random.default_rng(3).uniform(-1, 1, (2, 8, 6, 6)).astype(np.float32))
    fused = _bind(net, x, True)
    assert _folded_chains(fused) == 1
    fused.forward(is_train=False)
    first = fused.outputs[0].asnumpy()
    for name, arr in list(fused.arg_dict.items()) + list(fused.aux_dict.items()):
        if name != "data":
            arr[:] = arr * 1.5 + 0.1  # in place, as set_params / an optimizer step would
    fused.forward(is_train=False)
    plain = _bind(net, x, False)
    for name, arr in list(plain.arg_dict.items()) + list(plain.aux_dict.items()):
        src = fused.arg_dict.get(name, fused.aux_dict.get(name))
        arr[:] = src
    plain.forward(is_train=False)
    want = plain.outputs[0].asnumpy()
    assert not np.allclose(first, want)
    np.testing.assert_allclose(fused.outputs[0].asnumpy(), want, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("use_global_stats", [False, True])
def test_training_mode_keeps_batchnorm_semantics(use_global_stats):
    net = _net(_block(use_global_stats=use_global_stats), (1, 8, 6, 6))
    x = mx.nd.array(np.random.default_rng(4).uniform(-1, 1, (2, 8, 6, 6)).astype(np.float32))
    fused, plain = _bind(net, x, True), _bind(net, x, False)
    assert _folded_chains(fused) == 1
    for _ in range(2):  # the moving statistics are updated (or not) alike
        fused.forward(is_train=True)
        plain.forward(is_train=True)
    np.testing.assert_allclose(fused.outputs[0].asnumpy(), plain.outputs[0].asnumpy(), rtol=RTOL, atol=ATOL)
    for name, arr in plain.aux_dict.items():
        np.testing.assert_allclose(fused.aux_dict[name].asnumpy(), arr.asnumpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("act,residual", [("sigmoid", True), (None, True), (None, False), ("relu", False)])
def test_chain_shapes(act, residual):
    net = _net(_block(act=act, residual=residual), (1, 8, 6, 6))
    x = mx.nd.array(np.random.default_rng(5).uniform(-1, 1, (1, 8, 5, 7)).astype(np.float32))
    fused, plain = _bind(net, x, True), _bind(net, x, False)
    assert _folded_chains(fused) == 1
    fused.forward(is_train=False)
    plain.forward(is_train=False)
    np.testing.assert_allclose(fused.outputs[0].asnumpy(), plain.outputs[0].asnumpy(), rtol=RTOL, atol=ATOL)


def test_training_graph_is_not_folded():
    net = _net(_block(), (1, 8, 6, 6))
    x = mx.nd.array(np.random.default_rng(6).uniform(-1, 1, (2, 8, 6, 6)).astype(np.float32))
    exe = _bind(net, x, True, grad_req="write")
    assert _folded_chains(exe) == 0


@pytest.mark.parametrize("use_dnnl", ["0", "1"])
def test_portable_and_onednn_paths_agree(use_dnnl):
    """WEFT_USE_DNNL=0: the fused node computes the unfused chain with the portable kernels."""
    net = _net(_block(), (1, 8, 6, 6))
    x = mx.nd.array(np.random.default_rng(7).uniform(-1, 1, (2, 8, 6, 6)).astype(np.float32))
    fused, plain = _bind(net, x, True), _bind(net, x, False)
    old = os.environ.get("WEFT_USE_DNNL")
    os.environ["WEFT_USE_DNNL"] = use_dnnl
    try:
        fused.forward(is_train=False)
        plain.forward(is_train=False)
        got, want = fused.outputs[0].asnumpy(), plain.outputs[0].asnumpy()
    finally:
        if old is None:
            os.environ.pop("WEFT_USE_DNNL", None)
        else:
            os.environ["WEFT_USE_DNNL"] = old
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
