"""weft.gluon.loss against NumPy formulas of MXNet 1.x's losses: per-sample
values, sample_weight, the scalar weight, batch_axis, hybridized runs and
gradients."""
import numpy as np
import pytest

import weft as mx
from weft import autograd
from weft.gluon import loss as gloss

RNG = np.random.RandomState(7)
N, K = 6, 5


def _softplus(x):
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)


def _log_softmax(x, axis=-1):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _per_sample(loss, batch_axis=0):
    axes = tuple(a for a in range(loss.ndim) if a != batch_axis % loss.ndim)
    return loss.mean(axis=axes) if axes else loss


def _run(loss_fn, *arrays, hybridize=False):
    if hybridize:
        loss_fn.hybridize()
    return loss_fn(*[mx.nd.array(a) for a in arrays]).asnumpy()


# -- element-wise losses: (constructor, numpy element loss(pred, label), label maker) -------------
def _bce_logits(p, z):
    return np.maximum(p, 0) - p * z + np.log1p(np.exp(-np.abs(p)))


def _bce_prob(p, z):
    return -(np.log(p + 1e-12) * z + np.log(1 - p + 1e-12) * (1 - z))


def _huber(rho):
    def f(p, z):
        d = np.abs(z - p)
        return np.where(d > rho, d - 0.5 * rho, 0.5 / rho * d * d)
    return f


def _signed(*shape):
    return np.where(RNG.rand(*shape) > 0.5, 1.0, -1.0)


ELEMENTWISE = [
    ("L2Loss", lambda: gloss.L2Loss(), lambda p, z: 0.5 * (z - p) ** 2, RNG.randn),
    ("L2Loss_w3", lambda: gloss.L2Loss(weight=3.0), lambda p, z: 1.5 * (z - p) ** 2, RNG.randn),
    ("L1Loss", lambda: gloss.L1Loss(), lambda p, z: np.abs(z - p), RNG.randn),
    ("L1Loss_w", lambda: gloss.L1Loss(weight=0.5), lambda p, z: 0.5 * np.abs(z - p), RNG.randn),
    ("SigmoidBCE_logits", lambda: gloss.SigmoidBinaryCrossEntropyLoss(), _bce_logits,
     lambda *s: (RNG.rand(*s) > 0.5).astype(np.float64)),
    ("HuberLoss", lambda: gloss.HuberLoss(), _huber(1.0), RNG.randn),
    ("HuberLoss_rho", lambda: gloss.HuberLoss(rho=0.5), _huber(0.5), RNG.randn),
    ("HingeLoss", lambda: gloss.HingeLoss(), lambda p, z: np.maximum(0, 1 - p * z), _signed),
    ("HingeLoss_margin", lambda: gloss.HingeLoss(margin=2), lambda p, z: np.maximum(0, 2 - p * z), _signed),
    ("SquaredHingeLoss", lambda: gloss.SquaredHingeLoss(), lambda p, z: np.maximum(0, 1 - p * z) ** 2, _signed),
    ("LogisticLoss", lambda: gloss.LogisticLoss(), lambda p, z: np.log1p(np.exp(-p * z)), _signed),
    ("LogisticLoss_binary", lambda: gloss.LogisticLoss(label_format="binary"),
     lambda p, z: np.log1p(np.exp(-p * (2 * z - 1))), lambda *s: (RNG.rand(*s) > 0.5).astype(np.float64)),
]


@pytest.mark.parametrize("name,make,ref,label_fn", ELEMENTWISE, ids=[c[0] for c in ELEMENTWISE])
@pytest.mark.parametrize("hybridize", [False, True])
def test_elementwise_losses(name, make, ref, label_fn, hybridize):
    pred = RNG.randn(N, K)
    label = label_fn(N, K)
    got = _run(make(), pred, label, hybridize=hybridize)
    np.testing.assert_allclose(got, ref(pred, label).mean(axis=1), rtol=1e-5, atol=1e-6)
    assert got.shape == (N,)


@pytest.mark.parametrize("name,make,ref,label_fn", ELEMENTWISE[:6], ids=[c[0] for c in ELEMENTWISE[:6]])
@pytest.mark.parametrize("hybridize", [False, True])
def test_sample_weight(name, make, ref, label_fn, hybridize):
    pred = RNG.randn(N, K)
    label = label_fn(N, K)
    sw = RNG.rand(N, 1)
    got = _run(make(), pred, label, sw, hybridize=hybridize)
    np.testing.assert_allclose(got, (ref(pred, label) * sw).mean(axis=1), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("batch_axis", [0, 1, 2])
def test_batch_axis(batch_axis):
    pred = RNG.randn(3, 4, 5)
    label = RNG.randn(3, 4, 5)
    got = _run(gloss.L1Loss(batch_axis=batch_axis), pred, label)
    np.testing.assert_allclose(got, _per_sample(np.abs(label - pred), batch_axis), rtol=1e-5)
    assert got.shape == (pred.shape[batch_axis],)


def test_label_reshaped_to_prediction():
    pred = RNG.randn(N, 1)
    label = RNG.randn(N)
    got = _run(gloss.L2Loss(), pred, label)
    np.testing.assert_allclose(got, 0.5 * (label - pred[:, 0]) ** 2, rtol=1e-5)


def test_sigmoid_bce_from_sigmoid_and_pos_weight():
    logits = RNG.randn(N, K)
    prob = 1 / (1 + np.exp(-logits))
    label = (RNG.rand(N, K) > 0.5).astype(np.float64)
    pos_weight = RNG.rand(1, K) + 0.5
    got = _run(gloss.SigmoidBCELoss(from_sigmoid=True), prob, label)
    np.testing.assert_allclose(got, _bce_prob(prob, label).mean(axis=1), rtol=1e-4)
    # the two input forms agree
    np.testing.assert_allclose(got, _run(gloss.SigmoidBCELoss(), logits, label), rtol=1e-4)
    # pos_weight: -(p * z * log(sigmoid(x)) + (1 - z) * log(1 - sigmoid(x)))
    ref = -(pos_weight * label * np.log(prob) + (1 - label) * np.log(1 - prob))
    for from_sigmoid, x, hybridize in ((False, logits, False), (True, prob, False), (False, logits, True)):
        f = gloss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=from_sigmoid)
        if hybridize:
            f.hybridize()
        out = f(mx.nd.array(x), mx.nd.array(label), None, mx.nd.array(pos_weight)).asnumpy()
        np.testing.assert_allclose(out, ref.mean(axis=1), rtol=1e-4)


@pytest.mark.parametrize("hybridize", [False, True])
def test_softmax_ce_sparse(hybridize):
    pred = RNG.randn(N, K)
    label = RNG.randint(0, K, size=N).astype(np.float64)
    got = _run(gloss.SoftmaxCrossEntropyLoss(), pred, label, hybridize=hybridize)
    np.testing.assert_allclose(got, -_log_softmax(pred)[np.arange(N), label.astype(int)], rtol=1e-5)


def test_softmax_ce_dense_axis_from_logits_and_weights():
    pred = RNG.randn(N, K, 3)
    dist = np.exp(_log_softmax(RNG.randn(N, K, 3), axis=1))
    ref = -(_log_softmax(pred, axis=1) * dist).sum(axis=1)           # (N, 3)
    sw = RNG.rand(N, 1, 1)
    got = _run(gloss.SoftmaxCELoss(axis=1, sparse_label=False, weight=2.0), pred, dist, sw)
    np.testing.assert_allclose(got, (2.0 * ref * sw[:, 0]).mean(axis=1), rtol=1e-5)
    logp = _log_softmax(pred, axis=1)
    got = _run(gloss.SoftmaxCELoss(axis=1, sparse_label=False, from_logits=True), logp, dist)
    np.testing.assert_allclose(got, ref.mean(axis=1), rtol=1e-5)


def test_kldiv():
    logp = _log_softmax(RNG.randn(N, K))
    target = np.exp(_log_softmax(RNG.randn(N, K)))
    ref = (target * (np.log(target + 1e-12) - logp)).mean(axis=1)
    np.testing.assert_allclose(_run(gloss.KLDivLoss(), logp, target), ref, rtol=1e-5)
    scores = RNG.randn(N, K)
    ref = (target * (np.log(target + 1e-12) - _log_softmax(scores))).mean(axis=1)
    np.testing.assert_allclose(_run(gloss.KLDivLoss(from_logits=False), scores, target), ref, rtol=1e-5)


@pytest.mark.parametrize("margin", [0.0, 0.3])
@pytest.mark.parametrize("hybridize", [False, True])
def test_cosine_embedding(margin, hybridize):
    a, b = RNG.randn(N, K), RNG.randn(N, K)
    label = np.array([1, -1, 1, -1, -1, 1], dtype=np.float64)
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    ref = np.where(label == 1, 1 - cos, np.maximum(0, cos - margin)).reshape(-1, 1)
    got = _run(gloss.CosineEmbeddingLoss(margin=margin), a, b, label, hybridize=hybridize)
    assert got.shape == (N, 1)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    sw = RNG.rand(N, 1)
    np.testing.assert_allclose(_run(gloss.CosineEmbeddingLoss(margin=margin), a, b, label, sw), ref * sw,
                               rtol=1e-5, atol=1e-6)


def test_triplet_and_poisson():
    pred, pos, neg = RNG.randn(N, K), RNG.randn(N, K), RNG.randn(N, K)
    ref = np.maximum(0, ((pos - pred) ** 2 - (neg - pred) ** 2).sum(1) + 1)
    np.testing.assert_allclose(_run(gloss.TripletLoss(), pred, pos, neg), ref, rtol=1e-5, atol=1e-6)
    target = RNG.poisson(2.0, size=(N, K)).astype(np.float64)
    logr = RNG.randn(N, K) * 0.3
    np.testing.assert_allclose(_run(gloss.PoissonNLLLoss(), logr, target),
                               [(np.exp(logr) - target * logr).mean()], rtol=1e-5)
    rate = np.exp(logr)
    np.testing.assert_allclose(_run(gloss.PoissonNLLLoss(from_logits=False), rate, target),
                               [(rate - target * np.log(rate + 1e-8)).mean()], rtol=1e-5)


def test_gradient_of_softmax_ce():
    pred = RNG.randn(N, K)
    label = RNG.randint(0, K, size=N)
    x = mx.nd.array(pred)
    x.attach_grad()
    with autograd.record():
        loss = gloss.SoftmaxCrossEntropyLoss()(x, mx.nd.array(label))
    loss.backward()
    p = np.exp(_log_softmax(pred))
    p[np.arange(N), label] -= 1
    np.testing.assert_allclose(x.grad.asnumpy(), p, rtol=1e-4, atol=1e-6)


def test_weight_must_be_a_number_and_repr():
    with pytest.raises(ValueError):
        gloss.L1Loss(weight="2")(mx.nd.ones((2, 2)), mx.nd.ones((2, 2)))
    assert repr(gloss.L2Loss()) == "L2Loss(batch_axis=0, w=1.0)"
    with pytest.raises(ValueError):
        gloss.LogisticLoss(label_format="other")


@pytest.mark.parametrize("make", [
    lambda: gloss.CosineEmbeddingLoss(margin=0.1),  # reshapes its inputs' norms (views while recording)
    lambda: gloss.L2Loss(),
    lambda: gloss.SigmoidBinaryCrossEntropyLoss(),
])
def test_imperative_gradients_equal_hybridized(make):
    """Imperative losses that reshape arrays on the tape (NDArray.reshape is a
    view) still carry gradients: Note [Views on the tape]."""
    a, b = RNG.randn(4, 5), RNG.randn(4, 5)
    label = np.array([1.0, -1.0, 1.0, -1.0])

    def grad(hybridize):
        fn = make()
        if hybridize:
            fn.hybridize()
        x = mx.nd.array(a)
        x.attach_grad()
        with autograd.record():
            if isinstance(fn, gloss.CosineEmbeddingLoss):
                loss = fn(x, mx.nd.array(b), mx.nd.array(label))
            else:
                loss = fn(x, mx.nd.array((b > 0).astype(np.float64)))
        loss.backward()
        return x.grad.asnumpy()

    imperative, hybrid = grad(False), grad(True)
    np.testing.assert_allclose(imperative, hybrid, rtol=1e-5, atol=1e-7)
    assert np.abs(imperative).max() > 0
