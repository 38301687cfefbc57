"""gluon.loss.CTCLoss and gluon.loss.SDMLLoss against NumPy references of MXNet 1.9.1's formulas."""
import numpy as np
import pytest

import weft as mx
from weft import gluon


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _ctc_reference(logits, labels, blank):
    """-log p(labels | logits) by Graves' forward algorithm over one (T, C) sequence."""
    logp = _log_softmax(logits.astype(np.float64), axis=1)
    ext = [blank]
    for l in labels:
        ext += [int(l), blank]
    T, S = logp.shape[0], len(ext)
    alpha = np.full((T, S), -np.inf)
    alpha[0, 0] = logp[0, ext[0]]
    if S > 1:
        alpha[0, 1] = logp[0, ext[1]]
    for t in range(1, T):
        for s in range(S):
            terms = [alpha[t - 1, s]]
            if s >= 1:
                terms.append(alpha[t - 1, s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                terms.append(alpha[t - 1, s - 2])
            alpha[t, s] = np.logaddexp.reduce(terms) + logp[t, ext[s]]
    return -np.logaddexp(alpha[T - 1, S - 1], alpha[T - 1, S - 2] if S > 1 else -np.inf)


def test_ctc_hand_computed_case():
    # T=2, C=2 (class 0, blank 1), label [0]; uniform probabilities 1/2 each step.
    # Paths giving "0": (0,0), (0,b), (b,0) -> p = 3/4.
    pred = mx.nd.zeros((1, 2, 2))
    loss = gluon.loss.CTCLoss()(pred, mx.nd.array([[0]]))
    assert loss.shape == (1,)
    np.testing.assert_allclose(loss.asnumpy(), [-np.log(0.75)], rtol=1e-5)


@pytest.mark.parametrize("layout,label_layout", [("NTC", "NT"), ("TNC", "TN")])
def test_ctc_matches_forward_algorithm(layout, label_layout):
    rng = np.random.RandomState(0)
    N, T, C = 3, 6, 5
    logits = rng.randn(N, T, C).astype(np.float32)
    labels = np.array([[0, 1, 2], [3, 3, -1], [2, -1, -1]], dtype=np.float32)  # -1 pads
    expected = [_ctc_reference(logits[i], [l for l in labels[i] if l >= 0], C - 1) for i in range(N)]
    pred = logits if layout == "NTC" else logits.transpose(1, 0, 2)
    lab = labels if label_layout == "NT" else labels.T
    loss = gluon.loss.CTCLoss(layout=layout, label_layout=label_layout)(mx.nd.array(pred), mx.nd.array(lab))
    np.testing.assert_allclose(loss.asnumpy(), expected, rtol=1e-4)


def test_ctc_lengths_and_weight():
    rng = np.random.RandomState(1)
    N, T, C = 2, 5, 4
    logits = rng.randn(N, T, C).astype(np.float32)
    labels = np.array([[0, 1], [2, 0]], dtype=np.float32)
    pred_len, lab_len = [4, 5], [1, 2]
    expected = [_ctc_reference(logits[i, :pred_len[i]], labels[i, :lab_len[i]], C - 1) for i in range(N)]
    loss = gluon.loss.CTCLoss(weight=2.0)(mx.nd.array(logits), mx.nd.array(labels),
                                          mx.nd.array(pred_len), mx.nd.array(lab_len))
    np.testing.assert_allclose(loss.asnumpy(), 2.0 * np.array(expected), rtol=1e-4)


def test_ctc_gradient_flows():
    pred = mx.nd.array(np.random.RandomState(2).randn(2, 4, 3))
    pred.attach_grad()
    with mx.autograd.record():
        loss = gluon.loss.CTCLoss()(pred, mx.nd.array([[0, 1], [1, -1]]))
    loss.backward()
    g = pred.grad.asnumpy()
    assert np.all(np.isfinite(g)) and np.abs(g).sum() > 0


def test_ctc_bad_layout():
    with pytest.raises(mx.base.InvalidArgumentError, match="layout"):
        gluon.loss.CTCLoss(layout="NCT")
    with pytest.raises(mx.base.InvalidArgumentError, match="label_layout"):
        gluon.loss.CTCLoss(label_layout="XY")


def _sdml_reference(x1, x2, s):
    B = x1.shape[0]
    d = ((x1[:, None, :] - x2[None, :, :]) ** 2).sum(axis=2)
    logp = _log_softmax(-d, axis=1)
    gold = np.eye(B)
    lab = gold * (1 - s) + (1 - gold) * s / (B - 1)
    return B * (lab * (np.log(lab + 1e-12) - logp)).mean(axis=1)


@pytest.mark.parametrize("s", [0.3, 0.1])
def test_sdml_matches_numpy(s):
    rng = np.random.RandomState(3)
    x1 = rng.randn(4, 6).astype(np.float32)
    x2 = (x1 + 0.1 * rng.randn(4, 6)).astype(np.float32)
    loss = gluon.loss.SDMLLoss(smoothing_parameter=s)(mx.nd.array(x1), mx.nd.array(x2))
    assert loss.shape == (4,)
    np.testing.assert_allclose(loss.asnumpy(), _sdml_reference(x1, x2, s), rtol=1e-4, atol=1e-5)


def test_sdml_trains_pairs_closer():
    # MXNet's own test idea: minimising SDML pulls matching pairs together.
    rng = np.random.RandomState(4)
    x1 = mx.nd.array(rng.randn(8, 5))
    x2 = mx.nd.array(rng.randn(8, 5))
    x2.attach_grad()
    loss_fn = gluon.loss.SDMLLoss()
    first = None
    for _ in range(30):
        with mx.autograd.record():
            loss = loss_fn(x1, x2).mean()
        loss.backward()
        first = loss.asscalar() if first is None else first
        x2 -= 0.5 * x2.grad
    assert loss.asscalar() < first * 0.7


def test_sdml_bad_shapes():
    with pytest.raises(mx.base.InvalidArgumentError, match="SDMLLoss"):
        gluon.loss.SDMLLoss()(mx.nd.ones((3, 2)), mx.nd.ones((2, 2)))
    with pytest.raises(mx.base.InvalidArgumentError, match="at least 2"):
        gluon.loss.SDMLLoss()(mx.nd.ones((1, 2)), mx.nd.ones((1, 2)))


def test_hybridized():
    ctc = gluon.loss.CTCLoss()
    ctc.hybridize()
    np.testing.assert_allclose(ctc(mx.nd.zeros((1, 2, 2)), mx.nd.array([[0]])).asnumpy(), [-np.log(0.75)],
                               rtol=1e-5)
    sdml = gluon.loss.SDMLLoss()
    sdml.hybridize()  # like MXNet's, it needs the batch size, so hybridizing is refused clearly
    with pytest.raises(mx.base.InvalidArgumentError, match="imperatively"):
        sdml(mx.nd.ones((3, 2)), mx.nd.ones((3, 2)))
