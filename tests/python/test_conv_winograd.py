"""Winograd convolutions at inference (Note [Winograd at inference] in
core/op/conv/convolution_dnnl.cc): 3x3 stride-1 convolutions of at least 64
channels whose weights are kept between calls run oneDNN's Winograd kernels
where the CPU has them. Their results stay within rounding of an exact
(float64) convolution, follow every change of the weights and the folded
BatchNorm, and WEFT_CONV_WINOGRAD=0 gives the direct kernels back; which
kernel ran is read from oneDNN's own verbose log in a fresh process."""
import os
import subprocess
import sys

import numpy as np
import pytest

import weft as mx
from weft.gluon import nn

# Direct kernels round like a float32 dot product; Winograd adds the rounding
# of its transforms (measured up to 3e-6 of the largest output, Note
# [Winograd at inference]). Both bounds are relative to the largest output.
DIRECT_TOL, WINOGRAD_TOL = 1e-5, 1e-4


@pytest.fixture(autouse=True)
def _restore_knob():
    old = os.environ.get("WEFT_CONV_WINOGRAD")
    yield
    if old is None:
        os.environ.pop("WEFT_CONV_WINOGRAD", None)
    else:
        os.environ["WEFT_CONV_WINOGRAD"] = old


def _conv_ref(x, w, pad):
    """Exact 2-D cross-correlation, stride 1, in float64: (n, c, h, w) x (o, c, k, k)."""
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    k = w.shape[2]
    n, _, hp, wp = x.shape
    ho, wo = hp - k + 1, wp - k + 1
    out = np.zeros((n, w.shape[0], ho, wo))
    for i in range(k):
        for j in range(k):
            out += np.einsum("nchw,oc->nohw", x[:, :, i:i + ho, j:j + wo], w[:, :, i, j].astype(np.float64))
    return out


def _block(channels, fold):
    """Conv 3x3 (+ BatchNorm + ReLU when fold: the chain the fusion pass folds)."""
    net = nn.HybridSequential()
    net.add(nn.Conv2D(channels, 3, padding=1, in_channels=channels, use_bias=not fold))
    if fold:
        net.add(nn.BatchNorm(in_channels=channels), nn.Activation("relu"))
    net.initialize(mx.init.Xavier(magnitude=2.0))
    return net


def _bn_ref(net, conv):
    bn = net[1]
    g, b = bn.gamma.data().asnumpy(), bn.beta.data().asnumpy()
    m, v = bn.running_mean.data().asnumpy(), bn.running_var.data().asnumpy()
    scale = g / np.sqrt(v.astype(np.float64) + 1e-5)
    return np.maximum(conv * scale[:, None, None] + (b - m * scale)[:, None, None], 0)


def _check(got, want, tol):
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("hybridize", [False, True])
@pytest.mark.parametrize("winograd", ["1", "0"])
@pytest.mark.parametrize("channels,size,batch", [(64, 14, 1), (128, 9, 2)])
def test_conv_matches_exact(channels, size, batch, winograd, hybridize):
    os.environ["WEFT_CONV_WINOGRAD"] = winograd
    net = _block(channels, fold=False)
    if hybridize:
        net.hybridize(static_alloc=True, static_shape=True)
    x = np.random.default_rng(0).standard_normal((batch, channels, size, size)).astype(np.float32)
    want = _conv_ref(x, net[0].weight.data().asnumpy(), 1) + net[0].bias.data().asnumpy()[:, None, None]
    tol = WINOGRAD_TOL if winograd == "1" else DIRECT_TOL
    for _ in range(2):  # the second call runs on the weights kept from the first
        _check(net(mx.nd.array(x)).asnumpy(), want, tol)


@pytest.mark.parametrize("hybridize", [False, True])
def test_folded_block_follows_changes(hybridize):
    """Weights and BatchNorm statistics set between forwards are seen (the kept
    Winograd weights are remade), imperatively and hybridized."""
    channels = 64
    net = _block(channels, fold=True)
    if hybridize:
        net.hybridize(static_alloc=True, static_shape=True)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, channels, 10, 10)).astype(np.float32)
    xs = mx.nd.array(x)
    for step in range(3):
        if step:  # new weights, then new statistics
            conv_w = net[0].weight
            conv_w.set_data(mx.nd.array(rng.standard_normal(conv_w.shape).astype(np.float32) * 0.05))
            bn = net[1]
            bn.running_mean.set_data(mx.nd.array(rng.uniform(-0.3, 0.3, channels).astype(np.float32)))
            bn.running_var.set_data(mx.nd.array(rng.uniform(0.5, 1.5, channels).astype(np.float32)))
        want = _bn_ref(net, _conv_ref(x, net[0].weight.data().asnumpy(), 1))
        _check(net(xs).asnumpy(), want, WINOGRAD_TOL)


def test_in_place_weight_update_is_seen():
    net = _block(64, fold=False)
    net.hybridize(static_alloc=True, static_shape=True)
    x = np.random.default_rng(2).standard_normal((1, 64, 8, 8)).astype(np.float32)
    xs = mx.nd.array(x)
    net(xs).wait_to_read()
    w = net[0].weight.data()
    w *= 0.5  # an in-place write renews the weight's write stamp
    want = _conv_ref(x, w.asnumpy(), 1) + net[0].bias.data().asnumpy()[:, None, None]
    _check(net(xs).asnumpy(), want, WINOGRAD_TOL)


_PROBE = """
import numpy as np, weft as mx
from weft.gluon import nn
net = nn.HybridSequential()
net.add(nn.Conv2D(64, 3, padding=1, in_channels=64), nn.BatchNorm(in_channels=64), nn.Activation("relu"))
net.initialize()
net.hybridize(static_alloc=True, static_shape=True)
x = mx.nd.array(np.ones((1, 64, 14, 14), np.float32))
for _ in range(2):
    net(x).wait_to_read()
"""


def _kernels(knob):
    """oneDNN's ISA line and the convolution kernels a fresh process ran."""
    env = dict(os.environ, ONEDNN_VERBOSE="1", DNNL_VERBOSE="1")
    env.pop("WEFT_CONV_WINOGRAD", None)
    if knob is not None:
        env["WEFT_CONV_WINOGRAD"] = knob
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=300,
                         check=True).stdout
    isa = [l for l in out.splitlines() if ",info,cpu,isa:" in l]
    convs = {l.split(",")[4] for l in out.splitlines() if ",exec,cpu,convolution," in l}
    return isa, convs


def test_which_kernel_runs():
    """On a CPU with AVX-512 (where oneDNN 2.x has Winograd kernels) the folded
    3x3 convolution runs one by default and never with WEFT_CONV_WINOGRAD=0;
    elsewhere it runs the direct kernel either way."""
    isa, convs = _kernels(None)
    _, convs_off = _kernels("0")
    if not mx.runtime.Features().is_enabled("MKLDNN"):
        assert not convs and not convs_off  # no oneDNN, no oneDNN kernel
        return
    assert convs and convs_off, "oneDNN ran no convolution (verbose log empty)"
    assert not any("wino" in c for c in convs_off), convs_off
    if isa and "AVX-512" in isa[0]:
        assert any("wino" in c for c in convs), convs
    else:
        assert not any("wino" in c for c in convs), (isa, convs)
