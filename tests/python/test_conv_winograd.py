"""Winograd convolutions (Note [Winograd convolutions] in
core/op/layer/convolution_dnnl.cc): 3x3 stride-1 convolutions of at least 64
channels run oneDNN's Winograd kernels where the CPU has them, at inference
(weights kept between calls) and in training from 512 output positions on.
Their results and gradients stay within rounding of an exact (float64)
convolution, follow every change of the weights and the folded BatchNorm,
and WEFT_CONV_WINOGRAD=0 gives the direct kernels back; which kernel ran is
read from oneDNN's own verbose log in a fresh process."""
import os
import subprocess
import sys

import numpy as np
import pytest

import weft as mx
from weft.base import check_call, ffi, lib
from weft.gluon import nn

# Direct kernels round like a float32 dot product; Winograd adds the rounding
# of its transforms (measured up to 3e-6 of the largest output, Note
# [Winograd convolutions]). Both bounds are relative to the largest output.
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
    for _ in range(4):  # kept weights: direct layout for two calls, then Winograd (Note [Winograd from the third use])
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
        for _ in range(4):  # direct layout, then Winograd from the third call on these contents
            _check(net(xs).asnumpy(), want, WINOGRAD_TOL)


def test_in_place_weight_update_is_seen():
    net = _block(64, fold=False)
    net.hybridize(static_alloc=True, static_shape=True)
    x = np.random.default_rng(2).standard_normal((1, 64, 8, 8)).astype(np.float32)
    xs = mx.nd.array(x)
    for _ in range(3):  # the third call keeps Winograd weights
        net(xs).wait_to_read()
    w = net[0].weight.data()
    w *= 0.5  # an in-place write renews the weight's write stamp
    want = _conv_ref(x, w.asnumpy(), 1) + net[0].bias.data().asnumpy()[:, None, None]
    _check(net(xs).asnumpy(), want, WINOGRAD_TOL)


@pytest.mark.parametrize("winograd", ["1", "0"])
def test_training_gradients_match_exact(winograd):
    """Forward, data gradient and weight gradient of a training step at 512
    output positions (Winograd in training) against float64."""
    os.environ["WEFT_CONV_WINOGRAD"] = winograd
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 64, 16, 16)).astype(np.float32)
    w = (rng.standard_normal((64, 64, 3, 3)) * 0.05).astype(np.float32)
    dy = rng.standard_normal((2, 64, 16, 16)).astype(np.float32)
    xs, ws = mx.nd.array(x), mx.nd.array(w)
    xs.attach_grad()
    ws.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(xs, ws, kernel=(3, 3), pad=(1, 1), num_filter=64, no_bias=True)
    y.backward(mx.nd.array(dy))
    tol = WINOGRAD_TOL if winograd == "1" else DIRECT_TOL
    _check(y.asnumpy(), _conv_ref(x, w, 1), tol)
    # dx: dy correlated with the flipped, transposed filters; dw: dy against the padded input.
    _check(xs.grad.asnumpy(), _conv_ref(dy, w.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1], 1), tol)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    dw = np.zeros((64, 64, 3, 3))
    for i in range(3):
        for j in range(3):
            dw[:, :, i, j] = np.einsum("nohw,nchw->oc", dy, xp[:, :, i:i + 16, j:j + 16])
    _check(ws.grad.asnumpy(), dw, tol)


def _cache():
    """(entries, bytes) the weight cache holds."""
    out = ffi.new("int64_t[3]")
    check_call(lib.weft_weight_cache_stats(out, out + 1, out + 2))
    return int(out[0]), int(out[1])


def _is_avx512():
    isa, _, _ = _kernels(None)
    return bool(isa) and "AVX-512" in isa[0]


def test_cache_counts_winograd_weights_at_their_size():
    """A kept Winograd weight takes more bytes than the filters (16/9 or 4x as
    many floats); the cache's budget counts what it really holds."""
    net = _block(64, fold=False)
    x = mx.nd.ones((1, 64, 8, 8))
    # Deltas from the first call on: an entry of an earlier test's freed weight
    # at the same address may be replaced by that call (entries are keyed by address).
    net(x).wait_to_read()
    entries1, bytes1 = _cache()
    for _ in range(3):
        net(x).wait_to_read()
    entries2, bytes2 = _cache()
    plain = (64 * 64 * 9 + 64) * 4
    assert entries2 == entries1, "the Winograd entry replaces the direct one, not both held"
    if mx.runtime.Features().is_enabled("MKLDNN") and _is_avx512():
        # Winograd weights (at least 16/9 of the filters) replaced the direct ones (the filters' size)
        assert bytes2 - bytes1 > 0.5 * plain, (bytes1, bytes2, plain)
    else:
        assert bytes2 == bytes1


_TRAIN_PROBE = """
import sys, numpy as np, weft as mx
n, size = int(sys.argv[1]), int(sys.argv[2])
x = mx.nd.ones((n, 64, size, size))
w = mx.nd.ones((64, 64, 3, 3)) * 0.01
x.attach_grad()
w.attach_grad()
with mx.autograd.record():
    y = mx.nd.Convolution(x, w, kernel=(3, 3), pad=(1, 1), num_filter=64, no_bias=True)
y.backward()
mx.nd.waitall()
"""

_PROBE = """
import os, numpy as np, weft as mx
from weft.gluon import nn
net = nn.HybridSequential()
net.add(nn.Conv2D(64, 3, padding=1, in_channels=64), nn.BatchNorm(in_channels=64), nn.Activation("relu"))
net.initialize()
net.hybridize(static_alloc=True, static_shape=True)
x = mx.nd.array(np.ones((1, 64, 14, 14), np.float32))
for i in range(4):
    net(x).wait_to_read()
    os.write(1, b"call %d done\\n" % i)  # past oneDNN's lines of that call: it flushes each one
"""


def _kernels(knob, probe=_PROBE, args=()):
    """oneDNN's ISA line and the convolution kernels a fresh process ran."""
    env = dict(os.environ, ONEDNN_VERBOSE="1", DNNL_VERBOSE="1")
    env.pop("WEFT_CONV_WINOGRAD", None)
    if knob is not None:
        env["WEFT_CONV_WINOGRAD"] = knob
    out = subprocess.run([sys.executable, "-c", probe] + list(args), env=env, capture_output=True, text=True,
                         timeout=300, check=True).stdout
    isa = [l for l in out.splitlines() if ",info,cpu,isa:" in l]
    convs = {l.split(",")[4] for l in out.splitlines() if ",exec,cpu,convolution," in l}
    return isa, convs, out


def _calls(out):
    """The convolution kernels of each forward of _PROBE, in order."""
    calls, cur = [], []
    for line in out.splitlines():
        if ",exec,cpu,convolution," in line:
            cur.append(line.split(",")[4])
        elif line.startswith("call ") and line.endswith(" done"):
            calls.append(cur)
            cur = []
    return calls


def test_which_kernel_runs():
    """On a CPU with AVX-512 (where oneDNN 2.x has Winograd kernels) the folded
    3x3 convolution runs one by default and never with WEFT_CONV_WINOGRAD=0;
    elsewhere it runs the direct kernel either way."""
    isa, convs, out = _kernels(None)
    _, convs_off, _ = _kernels("0")
    if not mx.runtime.Features().is_enabled("MKLDNN"):
        assert not convs and not convs_off  # no oneDNN, no oneDNN kernel
        return
    assert convs and convs_off, "oneDNN ran no convolution (verbose log empty)"
    assert not any("wino" in c for c in convs_off), convs_off
    calls = _calls(out)
    assert len(calls) == 4 and all(len(c) == 1 for c in calls), calls
    # Note [Winograd from the third use]: the first two calls keep the direct layout.
    assert not any("wino" in c[0] for c in calls[:2]), calls
    if isa and "AVX-512" in isa[0]:
        assert all("wino" in c[0] for c in calls[2:]), calls
    else:
        assert not any("wino" in c for c in convs), (isa, convs)


def test_which_kernel_trains():
    """Training at 512 output positions (2 x 16 x 16) runs Winograd forward and
    backward on an AVX-512 CPU; at 64 (1 x 8 x 8) the per-call transform of the
    weights would not pay, and the direct kernels run."""
    isa, big, _ = _kernels(None, _TRAIN_PROBE, ("2", "16"))
    _, small, _ = _kernels(None, _TRAIN_PROBE, ("1", "8"))
    if not mx.runtime.Features().is_enabled("MKLDNN"):
        assert not big and not small
        return
    assert big and small, "oneDNN ran no convolution (verbose log empty)"
    assert not any("wino" in c for c in small), small
    if isa and "AVX-512" in isa[0]:
        assert all("wino" in c for c in big), big
    else:
        assert not any("wino" in c for c in big), (isa, big)


def _deconv_step(x, w, dy):
    xs, ws = mx.nd.array(x), mx.nd.array(w)
    xs.attach_grad()
    ws.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Deconvolution(xs, ws, kernel=(3, 3), pad=(1, 1), num_filter=w.shape[1], no_bias=True)
    y.backward(mx.nd.array(dy))
    return y.asnumpy(), xs.grad.asnumpy(), ws.grad.asnumpy()


def test_deconvolution_training_agrees_with_direct():
    """Deconvolution runs the convolution's backward-data kernel forward and its
    forward kernel backward: with Winograd (512 positions) it agrees with the
    direct kernels within Winograd's rounding."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 64, 16, 16)).astype(np.float32)
    w = (rng.standard_normal((64, 64, 3, 3)) * 0.05).astype(np.float32)
    dy = rng.standard_normal((2, 64, 16, 16)).astype(np.float32)
    os.environ["WEFT_CONV_WINOGRAD"] = "0"
    want = _deconv_step(x, w, dy)
    os.environ["WEFT_CONV_WINOGRAD"] = "1"
    got = _deconv_step(x, w, dy)
    for g, d in zip(got, want):
        _check(g, d, WINOGRAD_TOL)
