"""The metrics MXNet 1.9.1 registers beyond the basic ones (MCC, PCC, F1 micro /
macro, PearsonCorrelation micro, Torch, Caffe), the registry names of all of
them, and the local / global statistics, against values computed from the
metrics' definitions."""
import math

import numpy as np
import pytest

import weft as mx


def _binary_counts(label, pred_label):
    tp = int(((pred_label == 1) & (label == 1)).sum())
    fp = int(((pred_label == 1) & (label == 0)).sum())
    fn = int(((pred_label == 0) & (label == 1)).sum())
    tn = int(((pred_label == 0) & (label == 0)).sum())
    return tp, fp, fn, tn


def _mcc(tp, fp, fn, tn):
    return (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))


def _f1(tp, fp, fn, tn):
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return 2 * precision * recall / (precision + recall)


def _batches(seed, n=3, size=40):
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(n):
        label = rng.randint(0, 2, size)
        scores = rng.uniform(0, 1, (size, 2)).astype(np.float32)
        scores[np.arange(size), label] += 0.3  # better than chance, not perfect
        out.append((label, scores))
    return out


@pytest.mark.parametrize("klass,score", [(mx.metric.MCC, _mcc), (mx.metric.F1, _f1)])
def test_binary_scores_macro_and_micro(klass, score):
    batches = _batches(1)
    macro, micro = klass(average="macro"), klass(average="micro")
    for label, scores in batches:
        for m in (macro, micro):
            m.update([mx.nd.array(label)], [mx.nd.array(scores)])
    per_batch = [score(*_binary_counts(lbl, s.argmax(axis=1))) for lbl, s in batches]
    assert macro.get()[1] == pytest.approx(np.mean(per_batch), rel=1e-9)
    all_label = np.concatenate([b[0] for b in batches])
    all_pred = np.concatenate([b[1].argmax(axis=1) for b in batches])
    assert micro.get()[1] == pytest.approx(score(*_binary_counts(all_label, all_pred)), rel=1e-9)
    assert macro.get()[0] == klass().name


def test_mcc_global_survives_reset_local():
    batches = _batches(2)
    m = mx.metric.create("mcc", average="micro")
    m.update([mx.nd.array(batches[0][0])], [mx.nd.array(batches[0][1])])
    m.reset_local()
    m.update([mx.nd.array(batches[1][0])], [mx.nd.array(batches[1][1])])
    local = _mcc(*_binary_counts(batches[1][0], batches[1][1].argmax(axis=1)))
    both = _mcc(*_binary_counts(np.concatenate([batches[0][0], batches[1][0]]),
                                np.concatenate([batches[0][1].argmax(1), batches[1][1].argmax(1)])))
    assert m.get()[1] == pytest.approx(local)
    assert m.get_global()[1] == pytest.approx(both)
    assert m.get_global_name_value() == [("mcc", m.get_global()[1])]


def _multiclass_mcc(label, pred, k):
    """Gorodkin's K-class MCC: (c s - sum p_k t_k) / sqrt((s^2 - sum p_k^2)(s^2 - sum t_k^2))."""
    s = len(label)
    c = int((label == pred).sum())
    p = np.bincount(pred, minlength=k)
    t = np.bincount(label, minlength=k)
    return (c * s - (p * t).sum()) / math.sqrt((s * s - (p * p).sum()) * (s * s - (t * t).sum()))


def test_pcc_is_the_multiclass_matthews_correlation():
    rng = np.random.RandomState(3)
    label = rng.randint(0, 4, 60)
    scores = rng.uniform(0, 1, (60, 4)).astype(np.float32)
    scores[np.arange(60), label] += 0.4
    m = mx.metric.create("pcc")
    m.update([mx.nd.array(label[:30])], [mx.nd.array(scores[:30])])
    m.update([mx.nd.array(label[30:])], [mx.nd.array(scores[30:])])
    assert m.k == 4  # grew from 2 classes
    assert m.get()[1] == pytest.approx(_multiclass_mcc(label, scores.argmax(1), 4), rel=1e-9)
    # binary PCC equals MCC over all the counts
    b = _batches(4, n=1)[0]
    pcc, mcc = mx.metric.PCC(), mx.metric.MCC(average="micro")
    for metric in (pcc, mcc):
        metric.update([mx.nd.array(b[0])], [mx.nd.array(b[1])])
    assert pcc.get()[1] == pytest.approx(mcc.get()[1])
    pcc.reset_local()
    assert math.isnan(pcc.get()[1]) and not math.isnan(pcc.get_global()[1])
    pcc.reset()
    assert math.isnan(pcc.get_global()[1])


def test_pearson_correlation_macro_and_micro():
    rng = np.random.RandomState(5)
    label = rng.uniform(-1, 1, 50)
    pred = label + rng.normal(0, 0.5, 50)
    micro = mx.metric.PearsonCorrelation(average="micro")
    micro.update([mx.nd.array(label)], [mx.nd.array(pred)])
    assert micro.get()[1] == pytest.approx(np.corrcoef(pred, label)[0, 1], rel=1e-5)
    macro = mx.metric.create("pearsonr")
    macro.update([mx.nd.array(label[:25])], [mx.nd.array(pred[:25])])
    macro.update([mx.nd.array(label[25:])], [mx.nd.array(pred[25:])])
    expect = (np.corrcoef(pred[:25], label[:25])[0, 1] + np.corrcoef(pred[25:], label[25:])[0, 1]) / 2
    assert macro.get()[1] == pytest.approx(expect, rel=1e-5)


def test_torch_and_caffe_are_loss_means():
    for name in ("torch", "caffe"):
        m = mx.metric.create(name)
        assert isinstance(m, mx.metric.Loss) and m.name == name
        m.update(None, [mx.nd.array([1.0, 2.0]), mx.nd.array([6.0])])
        assert m.get() == (name, pytest.approx(3.0))


MXNET_191_NAMES = {
    "acc": mx.metric.Accuracy, "accuracy": mx.metric.Accuracy, "top_k_accuracy": mx.metric.TopKAccuracy,
    "top_k_acc": mx.metric.TopKAccuracy, "topkaccuracy": mx.metric.TopKAccuracy, "f1": mx.metric.F1,
    "mcc": mx.metric.MCC, "pcc": mx.metric.PCC, "mae": mx.metric.MAE, "mse": mx.metric.MSE, "rmse": mx.metric.RMSE,
    "ce": mx.metric.CrossEntropy, "crossentropy": mx.metric.CrossEntropy,
    "nll_loss": mx.metric.NegativeLogLikelihood, "negativeloglikelihood": mx.metric.NegativeLogLikelihood,
    "ppl": mx.metric.Perplexity, "perplexity": mx.metric.Perplexity, "pearsonr": mx.metric.PearsonCorrelation,
    "pearsoncorrelation": mx.metric.PearsonCorrelation, "loss": mx.metric.Loss, "torch": mx.metric.Torch,
    "caffe": mx.metric.Caffe, "composite": mx.metric.CompositeEvalMetric,
    "compositeevalmetric": mx.metric.CompositeEvalMetric,
}
NEEDS_ARGS = {"top_k_accuracy": {"top_k": 3}, "top_k_acc": {"top_k": 3}, "topkaccuracy": {"top_k": 3},
              "ppl": {"ignore_label": None}, "perplexity": {"ignore_label": None}}


@pytest.mark.parametrize("name", sorted(MXNET_191_NAMES))
def test_create_by_mxnet_name(name):
    m = mx.metric.create(name, **NEEDS_ARGS.get(name, {}))
    assert type(m) is MXNET_191_NAMES[name]


def test_create_custom_and_np_and_composite():
    def mean_abs(label, pred):
        return float(np.abs(label - pred.argmax(axis=1)).mean())
    custom = mx.metric.create(mean_abs)
    assert isinstance(custom, mx.metric.CustomMetric) and custom.name == "mean_abs"
    wrapped = mx.metric.np(mean_abs)
    composite = mx.metric.create(["acc", "mcc", wrapped])
    label, scores = _batches(6, n=1)[0]
    composite.update([mx.nd.array(label)], [mx.nd.array(scores)])
    names, values = composite.get()
    assert names == ["accuracy", "mcc", "mean_abs"]
    assert values[0] == pytest.approx((scores.argmax(1) == label).mean())
    composite.reset_local()
    assert all(math.isnan(v) for v in composite.get()[1])
    assert not math.isnan(composite.get_global()[1][0])


def test_bad_average_is_rejected():
    with pytest.raises(mx.base.InvalidArgumentError, match="average"):
        mx.metric.MCC(average="weighted")
    with pytest.raises(mx.base.InvalidArgumentError, match="binary"):
        mx.metric.MCC().update([mx.nd.array([0, 1, 2])], [mx.nd.array([[1, 0], [0, 1], [1, 0]])])
