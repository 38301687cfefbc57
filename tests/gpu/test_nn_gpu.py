"""GPU kernels of the neural-network ops (core/op/act/activation.cu,
softmax_loss.cu, norm.cu, random_dropout.cu, optimizer_update.cu) on paths
the registry harness does not reach: it runs forward ops one by one with
is_train=False. Here: training mode (BatchNorm's batch statistics and
in-place moving statistics, Dropout and rrelu draws), backward operators
reached through autograd, the optimizer states updated in place, and the GPU
samplers' seeding. Only ops with kernels in those files run on gpu(0)."""
import numpy as np
import pytest

import weft
from weft import autograd, nd

G0 = weft.gpu(0)
CPU = weft.cpu(0)


def _arr(x, ctx):
    return nd.array(x, dtype=x.dtype, ctx=ctx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axis,fix_gamma", [(1, False), (-1, False), (1, True)])
def test_batchnorm_training_matches_cpu(dtype, axis, fix_gamma):
    rng = np.random.default_rng(0)
    shape = (4, 3, 5) if axis == 1 else (6, 4)
    c = shape[axis]
    xs = rng.uniform(-2, 2, size=shape).astype(dtype)
    ws = rng.uniform(-1, 1, size=shape).astype(dtype)
    params = [rng.uniform(0.5, 1.5, c), rng.uniform(-1, 1, c), rng.uniform(-0.5, 0.5, c), rng.uniform(0.5, 2, c)]
    params = [p.astype(dtype) for p in params]
    results = []
    for ctx in (CPU, G0):
        x = _arr(xs, ctx)
        gamma, beta, mm, mv = [_arr(p, ctx) for p in params]
        for a in (x, gamma, beta):
            a.attach_grad()
        with autograd.record():
            y, mean, invstd = nd.BatchNorm(x, gamma, beta, mm, mv, axis=axis, fix_gamma=fix_gamma, momentum=0.8,
                                           eps=1e-4, output_mean_var=True)
        y.backward(_arr(ws, ctx))
        results.append([a.asnumpy() for a in (y, mean, invstd, mm, mv, x.grad, gamma.grad, beta.grad)])
    names = ["output", "mean", "invstd", "moving_mean", "moving_var", "data grad", "gamma grad", "beta grad"]
    tol = 1e-4 if dtype == np.float32 else 1e-9
    for name, g, w in zip(names, results[1], results[0]):
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=name)
    # The moving statistics really moved (training folds the batch in).
    assert not np.allclose(results[1][3], params[2])


def _grads(ctx, fn, xs, head):
    """The output and the inputs' gradients for head gradient `head`."""
    xs_nd = [_arr(x, ctx) for x in xs]
    for x in xs_nd:
        x.attach_grad()
    with autograd.record():
        out = fn(*xs_nd)
    out.backward(_arr(head, ctx))
    return [out.asnumpy()] + [x.grad.asnumpy() for x in xs_nd]


FNS = {
    "LayerNorm": (lambda x, g, b: nd.LayerNorm(x, g, b, axis=1), [(2, 4, 3), (4,), (4,)]),
    "InstanceNorm": (lambda x, g, b: nd.InstanceNorm(x, g, b), [(2, 3, 5), (3,), (3,)]),
    "softmax": (lambda x: nd.softmax(x, axis=1, temperature=1.5), [(3, 4, 2)]),
    "log_softmax": (lambda x: nd.log_softmax(x, axis=-1), [(3, 5)]),
    "SoftmaxActivation": (lambda x: nd.SoftmaxActivation(x, mode="channel"), [(2, 3, 4)]),
    "prelu": (lambda x, g: nd.LeakyReLU(x, g, act_type="prelu"), [(2, 3, 4), (3,)]),
    "gelu": (lambda x: nd.LeakyReLU(x, act_type="gelu"), [(3, 4)]),
    "elu": (lambda x: nd.LeakyReLU(x, act_type="elu", slope=0.3), [(3, 4)]),
    "mish": (lambda x: nd.Activation(x, act_type="mish"), [(3, 4)]),
    "softrelu": (lambda x: nd.Activation(x, act_type="softrelu"), [(3, 4)]),
    "log_sigmoid": (lambda x: nd.Activation(x, act_type="log_sigmoid"), [(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(FNS))
def test_gradients_through_autograd_like_cpu(name):
    fn, shapes = FNS[name]
    rng = np.random.default_rng(len(name))
    xs = [rng.uniform(-2, 2, size=s).astype(np.float64) for s in shapes]
    head = rng.uniform(-1, 1, size=shapes[0])
    want = _grads(CPU, fn, xs, head)
    got = _grads(G0, fn, xs, head)
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12, err_msg="%s result %d" % (name, k))


def test_losses_backward_like_cpu():
    rng = np.random.default_rng(4)
    xs = rng.uniform(-2, 2, size=(6, 5))
    labels = rng.integers(0, 5, size=6).astype(np.float64)
    labels[::3] = 2
    got, want = [], []
    for ctx, res in ((CPU, want), (G0, got)):
        x = _arr(xs, ctx)
        x.attach_grad()
        lab = _arr(labels, ctx)
        with autograd.record():
            y = nd.SoftmaxOutput(x, lab, use_ignore=True, ignore_label=2, normalization="valid", smooth_alpha=0.1)
        y.backward()
        res.append(y.asnumpy())
        res.append(x.grad.asnumpy())
        x2 = _arr(xs, ctx)
        x2.attach_grad()
        with autograd.record():
            loss = nd.softmax_cross_entropy(x2, _arr(labels.astype(np.int32), ctx))
        loss.backward()
        res.extend([loss.asnumpy(), x2.grad.asnumpy()])
        x3 = _arr(xs, ctx)
        x3.attach_grad()
        with autograd.record():
            out = nd.MAERegressionOutput(x3, _arr(xs * 0.5, ctx), grad_scale=3.0)
        out.backward()
        res.append(x3.grad.asnumpy())
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12, err_msg="result %d" % k)


@pytest.mark.parametrize("axes", [(), (1,)])
def test_dropout_training_mask_and_gradient(axes):
    p = 0.3
    xs = np.random.default_rng(5).uniform(1, 2, size=(20, 30, 4)).astype(np.float32)
    x = _arr(xs, G0)
    x.attach_grad()
    weft.random.seed(11)
    with autograd.record():
        y = nd.Dropout(x, p=p, axes=axes)
    y.backward()
    yn, gn = y.asnumpy(), x.grad.asnumpy()
    kept = yn != 0
    np.testing.assert_allclose(yn[kept], xs[kept] / (1 - p), rtol=1e-6)
    assert abs(kept.mean() - (1 - p)) < 0.05, kept.mean()
    # The gradient is the mask: 1/(1-p) where kept, 0 where dropped.
    np.testing.assert_allclose(gn, np.where(kept, 1 / (1 - p), 0), rtol=1e-6)
    for a in axes:
        assert np.all(kept == np.take(kept, [0], axis=a))
    weft.random.seed(11)
    with autograd.record():
        again = nd.Dropout(x, p=p, axes=axes)
    np.testing.assert_array_equal(again.asnumpy(), yn)
    with autograd.record():
        other = nd.Dropout(x, p=p, axes=axes)
    assert not np.array_equal(other.asnumpy(), yn), "consecutive masks must differ"
    # Inference (mode='training'): the identity.
    np.testing.assert_array_equal(nd.Dropout(x, p=p).asnumpy(), xs)


def test_rrelu_training_draws_slopes():
    lo, hi = 0.2, 0.4
    xs = np.random.default_rng(6).uniform(-2, 2, size=(50, 40)).astype(np.float32)
    xs[xs == 0] = 1
    x = _arr(xs, G0)
    x.attach_grad()
    weft.random.seed(3)
    with autograd.record():
        y = nd.LeakyReLU(x, act_type="rrelu", lower_bound=lo, upper_bound=hi)
    y.backward()
    yn, gn = y.asnumpy(), x.grad.asnumpy()
    neg = xs < 0
    np.testing.assert_array_equal(yn[~neg], xs[~neg])
    np.testing.assert_array_equal(gn[~neg], 1)
    slopes = gn[neg]
    assert slopes.min() >= lo and slopes.max() < hi
    assert abs(slopes.mean() - (lo + hi) / 2) < 0.01
    np.testing.assert_allclose(yn[neg], xs[neg] * slopes, rtol=1e-6)
    weft.random.seed(3)
    with autograd.record():
        again = nd.LeakyReLU(x, act_type="rrelu", lower_bound=lo, upper_bound=hi)
    np.testing.assert_array_equal(again.asnumpy(), yn)


OPTIMIZERS = [
    ("sgd_mom_update", 1, dict(lr=0.1, momentum=0.9, wd=0.01, clip_gradient=0.5)),
    ("nag_mom_update", 1, dict(lr=0.1, momentum=0.9, wd=0.01)),
    ("adam_update", 2, dict(lr=0.01, wd=0.01, rescale_grad=0.5)),
    ("rmsprop_update", 1, dict(lr=0.01, clip_weights=0.8)),
    ("ftrl_update", 2, dict(lr=0.1, lamda1=0.01)),
    ("signum_update", 1, dict(lr=0.01, momentum=0.9, wd_lh=0.1)),
]


@pytest.mark.parametrize("op,n_states,attrs", OPTIMIZERS, ids=[o[0] for o in OPTIMIZERS])
def test_optimizer_states_update_in_place(op, n_states, attrs):
    rng = np.random.default_rng(7)
    arrays = [rng.uniform(-1, 1, size=(5, 7)) for _ in range(2)] + [rng.uniform(0, 1, size=(5, 7))
                                                                     for _ in range(n_states)]
    results = []
    for ctx in (CPU, G0):
        nds = [_arr(a, ctx) for a in arrays]
        for _ in range(3):  # out=weight, as the frontends call them
            getattr(nd, op)(*nds, out=nds[0], **attrs)
        results.append([a.asnumpy() for a in nds])
    for k, (g, w) in enumerate(zip(results[1], results[0])):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14, err_msg="%s array %d" % (op, k))


@pytest.mark.parametrize("op,attrs", [
    ("_random_uniform", dict(low=-1.0, high=3.0)),
    ("_random_normal", dict(loc=1.0, scale=2.0)),
    ("_random_randint", dict(low=-3, high=4)),
])
def test_gpu_samplers_follow_the_seed(op, attrs):
    attrs = dict(attrs, shape=(200, 101), ctx=str(G0))
    weft.random.seed(21)
    a1, b1 = getattr(nd, op)(**attrs).asnumpy(), getattr(nd, op)(**attrs).asnumpy()
    weft.random.seed(21)
    a2 = getattr(nd, op)(**attrs).asnumpy()
    np.testing.assert_array_equal(a1, a2)
    assert not np.array_equal(a1, b1), "consecutive draws must differ"
    x = a1.astype(np.float64)
    if op == "_random_normal":
        assert abs(x.mean() - 1.0) < 0.05 and abs(x.std() - 2.0) < 0.05
        assert abs(np.corrcoef(x.ravel()[0::2], x.ravel()[1::2])[0, 1]) < 0.03  # Box-Muller pairs
    else:
        lo, hi = attrs["low"], attrs["high"]
        assert x.min() >= lo and x.max() < hi
        width = hi - lo if op == "_random_uniform" else hi - lo - 1
        assert abs(x.mean() - (lo + hi - (0 if op == "_random_uniform" else 1)) / 2) < 0.02 * width
