"""The folded convolution weights kept between inference calls (Note [Weight layout
cache] in core/op/common/weight_cache.h) are rebuilt whenever the weights or the
BatchNorm's values change, however they are changed: assignment, in-place
arithmetic, an optimizer's fused update, copyto, Gluon's set_data and
load_parameters, and writes through a DLPack view, which the engine never sees.
Every forward is compared with the unfused graph computed afresh."""
import os

import numpy as np
import pytest

import weft as mx
from weft.base import check_call, ffi, lib
from weft.gluon import nn

RTOL, ATOL = 1e-5, 1e-5


@pytest.fixture(autouse=True)
def _restore_fusion():
    old = os.environ.get("WEFT_FUSION")
    yield
    if old is None:
        os.environ.pop("WEFT_FUSION", None)
    else:
        os.environ["WEFT_FUSION"] = old


class _ConvBnRelu(nn.HybridBlock):
    def __init__(self, channels=8, stride=1):
        super().__init__()
        with self.name_scope():
            self.conv = nn.Conv2D(channels, 3, strides=stride, padding=1, in_channels=channels)
            self.bn = nn.BatchNorm(in_channels=channels)

    def hybrid_forward(self, F, x):
        return F.Activation(self.bn(self.conv(x)) + x, act_type="relu")


def _net(seed=0):
    net = _ConvBnRelu()
    net.initialize(mx.init.Xavier(magnitude=2.0))
    rng = np.random.default_rng(seed)
    for name, p in net.collect_params().items():
        if name.endswith(("gamma", "running_var")):
            p.set_data(mx.nd.array(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
        elif name.endswith(("beta", "running_mean")):
            p.set_data(mx.nd.array(rng.uniform(-0.3, 0.3, p.shape).astype(np.float32)))
    return net


def _bind(net, x, fusion):
    os.environ["WEFT_FUSION"] = "1" if fusion else "0"
    sym = net(mx.sym.var("data"))
    params = {p.name: p.data() for p in net.collect_params().values()}
    args = {n: (x if n == "data" else params[n]) for n in sym.list_arguments()}
    aux = {n: params[n] for n in sym.list_auxiliary_states()}
    return sym.bind(mx.cpu(), args, grad_req="null", aux_states=aux)


def _unfused(exe, x):
    """The unfused graph over copies of exe's current arrays."""
    sym = exe._symbol  # pylint: disable=protected-access
    os.environ["WEFT_FUSION"] = "0"
    args = {n: (x if n == "data" else a.copy()) for n, a in exe.arg_dict.items()}
    aux = {n: a.copy() for n, a in exe.aux_dict.items()}
    plain = sym.bind(mx.cpu(), args, grad_req="null", aux_states=aux)
    plain.forward(is_train=False)
    return plain.outputs[0].asnumpy()


def _stats():
    """(entries, bytes held, hits) of the weight cache."""
    out = ffi.new("int64_t[3]")
    check_call(lib.weft_weight_cache_stats(out, out + 1, out + 2))
    return int(out[0]), int(out[1]), int(out[2])


def _folded_chains(exe):
    line = [l for l in exe.debug_str().splitlines() if l.startswith("Fusion:")][0]
    return int(line.split(" convolution+batchnorm")[0].split(", ")[-1])


def _weight(exe):
    return [a for n, a in exe.arg_dict.items() if n.endswith("weight")][0]


def _x(shape=(2, 8, 6, 6), seed=1):
    return mx.nd.array(np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32))


def _assign(w):
    w[:] = w * -0.5


def _inplace(w):
    w += 0.25


def _sgd(w):
    mx.nd.sgd_update(w, mx.nd.ones(w.shape), lr=0.1, wd=0.0, out=w)


def _copyto(w):
    mx.nd.array(np.random.default_rng(9).uniform(-1, 1, w.shape).astype(np.float32)).copyto(w)


def _dlpack(w):
    view = np.from_dlpack(w)  # shares w's memory: the engine sees no write
    view *= 3.0


@pytest.mark.parametrize("change", [_assign, _inplace, _sgd, _copyto, _dlpack])
def test_weight_changes_between_forwards_are_seen(change):
    x = _x()
    exe = _bind(_net(), x, True)
    exe.forward(is_train=False)
    first = exe.outputs[0].asnumpy()
    np.testing.assert_allclose(first, _unfused(exe, x), rtol=RTOL, atol=ATOL)
    hits = _stats()[2]
    exe.forward(is_train=False)  # from the cache
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), first, rtol=0, atol=0)
    assert _stats()[2] == hits + 1
    change(_weight(exe))
    exe.forward(is_train=False)
    got, want = exe.outputs[0].asnumpy(), _unfused(exe, x)
    assert not np.allclose(first, want)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("which", ["gamma", "beta", "running_mean", "running_var", "bias"])
def test_per_channel_changes_are_seen(which):
    x = _x()
    exe = _bind(_net(), x, True)
    exe.forward(is_train=False)
    first = exe.outputs[0].asnumpy()
    arrays = dict(exe.arg_dict)
    arrays.update(exe.aux_dict)
    target = [a for n, a in arrays.items() if n.endswith(which)][0]
    target[:] = target * 0.5 + 0.2
    exe.forward(is_train=False)
    want = _unfused(exe, x)
    assert not np.allclose(first, want)
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), want, rtol=RTOL, atol=ATOL)


def test_hybridized_block_sees_set_data_and_load_parameters(tmp_path):
    os.environ["WEFT_FUSION"] = "1"
    net = _net()
    net.hybridize(static_alloc=True, static_shape=True)
    x = _x()
    first = net(x).asnumpy()
    other = _net(seed=5)
    other.conv.weight.set_data(other.conv.weight.data() * 2.0)
    path = str(tmp_path / "other.params")
    other.save_parameters(path)
    net.load_parameters(path)
    os.environ["WEFT_FUSION"] = "0"
    want = other(x).asnumpy()  # imperative: no fused node, no cache
    os.environ["WEFT_FUSION"] = "1"
    got = net(x).asnumpy()
    assert not np.allclose(first, want)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    net.conv.weight.set_data(mx.nd.zeros(net.conv.weight.shape))
    os.environ["WEFT_FUSION"] = "0"
    want = mx.nd.relu(other.bn(mx.nd.Convolution(x, mx.nd.zeros(net.conv.weight.shape), other.conv.bias.data(),
                                                 kernel=(3, 3), pad=(1, 1), num_filter=8)) + x).asnumpy()
    os.environ["WEFT_FUSION"] = "1"
    np.testing.assert_allclose(net(x).asnumpy(), want, rtol=RTOL, atol=ATOL)


def _chains_sharing_a_weight():
    data, w, b = mx.sym.var("data"), mx.sym.var("w"), mx.sym.var("b")
    heads = []
    for i, stride in enumerate((1, 2)):
        conv = mx.sym.Convolution(data, w, b, kernel=(3, 3), pad=(1, 1), stride=(stride, stride), num_filter=8)
        bn = mx.sym.BatchNorm(conv, mx.sym.var("g%d" % i), mx.sym.var("be%d" % i), mx.sym.var("m%d" % i),
                              mx.sym.var("v%d" % i), fix_gamma=False)
        heads.append(mx.sym.Activation(bn, act_type="relu"))
    return mx.sym.Group(heads)


def test_one_weight_under_two_geometries():
    """One weight array in two fused nodes of different strides, bound at two batch sizes."""
    sym = _chains_sharing_a_weight()
    rng = np.random.default_rng(4)
    arrays = {n: mx.nd.array(rng.uniform(0.5, 1.5, s).astype(np.float32))
              for n, s in zip(sym.list_arguments() + sym.list_auxiliary_states(),
                              sym.infer_shape(data=(2, 8, 6, 6))[0] + sym.infer_shape(data=(2, 8, 6, 6))[2])
              if n != "data"}

    def bind(x, fusion):
        os.environ["WEFT_FUSION"] = "1" if fusion else "0"
        args = {n: (x if n == "data" else arrays[n]) for n in sym.list_arguments()}
        aux = {n: arrays[n] for n in sym.list_auxiliary_states()}
        return sym.bind(mx.cpu(), args, grad_req="null", aux_states=aux)

    xs = [_x((2, 8, 6, 6), seed=2), _x((3, 8, 6, 6), seed=3)]
    fused = [bind(x, True) for x in xs]
    assert all(_folded_chains(e) == 2 for e in fused)
    for round_ in range(3):
        if round_ == 2:
            arrays["w"][:] = arrays["w"] * 0.5
        for exe, x in zip(fused, xs):
            exe.forward(is_train=False)
            plain = bind(x, False)
            plain.forward(is_train=False)
            for got, want in zip(exe.outputs, plain.outputs):
                np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=RTOL, atol=ATOL)


def test_cache_is_used_and_bounded_by_entries_per_weight():
    x = _x()
    exe = _bind(_net(), x, True)
    exe.forward(is_train=False)
    exe.outputs[0].wait_to_read()
    entries0, _, hits0 = _stats()
    for _ in range(3):
        exe.forward(is_train=False)
    exe.outputs[0].wait_to_read()
    entries1, held, hits1 = _stats()
    assert hits1 - hits0 == 3
    assert entries1 == entries0
    assert held >= _weight(exe).size * 4
    for _ in range(3):  # a changed weight replaces its entry instead of adding one
        _inplace(_weight(exe))
        exe.forward(is_train=False)
    exe.outputs[0].wait_to_read()
    assert _stats()[0] == entries1


def _conv_reference(x, w, b, relu):
    """3x3 convolution, pad 1, stride 1, in numpy: independent of every kernel."""
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    h, wd = x.shape[2], x.shape[3]
    patches = np.stack([xp[:, :, i:i + h, j:j + wd] for i in range(3) for j in range(3)], axis=-1)
    y = np.einsum("nchwk,fck->nfhw", patches, w.reshape(w.shape[0], w.shape[1], 9)) + b[None, :, None, None]
    return np.maximum(y, 0) if relu else y


def _conv_args(seed=3):
    rng = np.random.default_rng(seed)
    w = mx.nd.array(rng.uniform(-0.5, 0.5, (8, 8, 3, 3)).astype(np.float32))
    b = mx.nd.array(rng.uniform(-0.5, 0.5, (8,)).astype(np.float32))
    return w, b


@pytest.mark.parametrize("change", [_assign, _inplace, _sgd, _copyto, _dlpack])
def test_imperative_convolution_sees_weight_changes(change):
    """nd.Convolution outside autograd keeps its weights' layout between calls."""
    x, (w, b) = _x(), _conv_args()

    def conv():
        return mx.nd.Convolution(x, w, b, kernel=(3, 3), pad=(1, 1), num_filter=8).asnumpy()

    first = conv()
    np.testing.assert_allclose(first, _conv_reference(x.asnumpy(), w.asnumpy(), b.asnumpy(), False),
                               rtol=RTOL, atol=ATOL)
    hits = _stats()[2]
    np.testing.assert_array_equal(conv(), first)
    assert _stats()[2] == hits + 1
    change(w)
    got = conv()
    want = _conv_reference(x.asnumpy(), w.asnumpy(), b.asnumpy(), False)
    assert not np.allclose(first, want)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


def test_convolution_relu_fused_sees_weight_changes_and_training_never_uses_the_cache():
    os.environ["WEFT_FUSION"] = "1"
    x, (w, b) = _x(), _conv_args()
    data = mx.sym.var("data")
    out = mx.sym.Activation(mx.sym.Convolution(data, mx.sym.var("w"), mx.sym.var("b"), kernel=(3, 3),
                                               pad=(1, 1), num_filter=8), act_type="relu")
    exe = out.bind(mx.cpu(), {"data": x, "w": w, "b": b}, grad_req="null")
    assert "_fused_convolution_act" in exe.debug_str()
    exe.forward(is_train=False)
    exe.outputs[0].wait_to_read()
    hits = _stats()[2]
    exe.forward(is_train=False)
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), _conv_reference(x.asnumpy(), w.asnumpy(), b.asnumpy(), True),
                               rtol=RTOL, atol=ATOL)
    assert _stats()[2] == hits + 1
    for _ in range(2):  # training: the weights change at every step, nothing is looked up
        exe.forward(is_train=True)
        exe.outputs[0].wait_to_read()
    assert _stats()[2] == hits + 1
    _inplace(w)
    exe.forward(is_train=False)
    np.testing.assert_allclose(exe.outputs[0].asnumpy(), _conv_reference(x.asnumpy(), w.asnumpy(), b.asnumpy(), True),
                               rtol=RTOL, atol=ATOL)
