"""weft.metric against hand and NumPy computations."""
import math

import numpy as np
import pytest

import weft as mx
from weft import metric


def nd(x, **kw):
    return mx.nd.array(np.asarray(x), **kw)


PRED = np.array([[0.3, 0.7], [0.6, 0.4], [0.2, 0.8], [0.9, 0.1]], dtype=np.float32)
LABEL = np.array([1, 1, 0, 0], dtype=np.float32)


def test_accuracy_nd_numpy_and_lists():
    m = metric.create("acc")
    assert isinstance(m, metric.Accuracy) and math.isnan(m.get()[1])
    m.update(nd(LABEL), nd(PRED))  # single arrays
    assert m.get() == ("accuracy", 0.5) and m.num_inst == 4 and m.sum_metric == 2
    m.update([LABEL], [np.array([1, 1, 0, 1])])  # numpy; same shape: no argmax
    assert m.get()[1] == pytest.approx(5 / 8)
    m.reset_local()
    assert math.isnan(m.get()[1]) and m.get_global()[1] == pytest.approx(5 / 8)
    m.reset()
    assert math.isnan(m.get_global()[1])
    with pytest.raises(ValueError):
        m.update([nd(LABEL), nd(LABEL)], [nd(PRED)])


def test_accuracy_axis():
    pred = np.zeros((2, 3, 4), np.float32)  # (batch, classes, time)
    pred[0, 2, :] = 1
    pred[1, 0, :] = 1
    label = np.array([[2, 2, 2, 0], [0, 0, 1, 0]])
    m = metric.Accuracy(axis=1)
    m.update([nd(label)], [nd(pred)])
    assert m.get()[1] == pytest.approx(6 / 8)


def test_top_k_accuracy():
    pred = np.array([[0.1, 0.5, 0.25, 0.15], [0.4, 0.3, 0.2, 0.1], [0.05, 0.05, 0.3, 0.6]], np.float32)
    label = np.array([2, 3, 3])
    m = metric.create("top_k_accuracy", top_k=2)
    m.update([nd(label)], [nd(pred)])
    top2 = np.argsort(-pred, axis=1)[:, :2]
    want = np.mean([label[i] in top2[i] for i in range(3)])
    assert m.get() == ("top_k_accuracy_2", pytest.approx(want))
    with pytest.raises(ValueError):
        metric.TopKAccuracy(top_k=1)


def _f1(label, pred):
    p = pred.argmax(axis=1)
    tp = np.sum((p == 1) & (label == 1))
    fp = np.sum((p == 1) & (label == 0))
    fn = np.sum((p == 0) & (label == 1))
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return 2 * prec * rec / (prec + rec) if prec + rec else 0.0


def test_f1_macro_and_micro():
    pred2 = np.array([[0.2, 0.8], [0.7, 0.3], [0.1, 0.9]], np.float32)
    label2 = np.array([1, 1, 1])
    macro = metric.F1()
    micro = metric.F1(average="micro")
    for m in (macro, micro):
        m.update([nd(LABEL)], [nd(PRED)])
        m.update([nd(label2)], [nd(pred2)])
    assert macro.get()[1] == pytest.approx((_f1(LABEL, PRED) + _f1(label2, pred2)) / 2)
    all_label = np.concatenate([LABEL, label2])
    all_pred = np.concatenate([PRED, pred2])
    assert micro.get()[1] == pytest.approx(_f1(all_label, all_pred))
    with pytest.raises(ValueError, match="binary"):
        metric.F1().update([nd([0, 1, 2])], [nd(np.eye(3))])


def test_regression_metrics():
    label = np.array([1.0, 2.0, 3.0, 4.0])
    pred = np.array([[1.5], [2.0], [2.0], [5.0]])
    label2, pred2 = np.array([0.0, 1.0]), np.array([1.0, 3.0])
    d1, d2 = label.reshape(-1, 1) - pred, label2 - pred2
    for name, fn in [("mae", lambda d: np.abs(d).mean()), ("mse", lambda d: (d ** 2).mean()),
                     ("rmse", lambda d: np.sqrt((d ** 2).mean()))]:
        m = metric.create(name)
        m.update([nd(label)], [nd(pred)])
        m.update(label2, pred2)
        assert m.get() == (name, pytest.approx((fn(d1) + fn(d2)) / 2)), name


def test_cross_entropy_and_nll():
    prob = np.array([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]], np.float32)
    label = np.array([1, 2])
    want = -(math.log(0.5 + 1e-12) + math.log(0.8 + 1e-12)) / 2
    for name in ("ce", "nll_loss"):
        m = metric.create(name)
        m.update([nd(label)], [nd(prob)])
        assert m.get()[1] == pytest.approx(want, rel=1e-6)
        assert m.num_inst == 2


def test_perplexity_ignore_label():
    prob = np.array([[[0.2, 0.8], [0.6, 0.4]], [[0.5, 0.5], [0.9, 0.1]]], np.float32)  # (2, 2, classes)
    label = np.array([[1, 0], [1, 0]])
    m = metric.create("perplexity", ignore_label=None)
    m.update([nd(label)], [nd(prob)])
    logs = np.log([0.8, 0.6, 0.5, 0.9])
    assert m.get()[1] == pytest.approx(math.exp(-logs.mean()), rel=1e-6)
    m = metric.Perplexity(ignore_label=0)
    m.update([nd(label)], [nd(prob)])
    assert m.get()[1] == pytest.approx(math.exp(-np.log([0.8, 0.5]).mean()), rel=1e-6)
    assert m.num_inst == 2


def test_composite_and_create_list():
    m = metric.create(["acc", "mse"])
    assert isinstance(m, metric.CompositeEvalMetric)
    label = np.array([1, 0])
    pred = np.array([[0.1, 0.9], [0.2, 0.8]])
    m.update([nd(label)], [nd(pred)])
    names, values = m.get()
    assert names == ["accuracy", "mse"] and values[0] == 0.5
    mse = ((label.reshape(-1, 1) - pred) ** 2).mean()
    assert values[1] == pytest.approx(mse)
    assert dict(m.get_name_value()) == {"accuracy": 0.5, "mse": pytest.approx(mse)}
    m.reset()
    assert all(math.isnan(v) for v in m.get()[1])
    assert m.get_metric(0).name == "accuracy"
    assert [c["metric"] for c in m.get_config()["metrics"]] == ["Accuracy", "MSE"]


def test_custom_metric_and_np():
    def my_err(label, pred):
        return float(np.abs(label - pred).sum()), label.size

    m = metric.create(my_err)
    assert isinstance(m, metric.CustomMetric) and m.name == "my_err"
    m.update([nd([1, 2, 3])], [nd([1, 2, 5])])
    assert m.get()[1] == pytest.approx(2 / 3)
    m2 = metric.np(lambda label, pred: float((label == pred).mean()))
    m2.update([nd([1, 2])], [nd([1, 3])])
    assert m2.get()[1] == 0.5 and m2.name.startswith("custom(")


def test_loss_pearson_update_dict_and_errors():
    loss = metric.Loss()
    loss.update(None, [nd([1.0, 2.0, 3.0])])
    assert loss.get() == ("loss", 2.0)
    pr = metric.create("pearsonr")
    a, b = np.array([1.0, 2.0, 4.0, 3.0]), np.array([1.5, 2.5, 3.0, 3.5])
    pr.update([nd(a)], [nd(b)])
    assert pr.get()[1] == pytest.approx(np.corrcoef(a, b)[0, 1], rel=1e-5)
    acc = metric.Accuracy(output_names=["out"], label_names=["lab"])
    acc.update_dict({"lab": nd(LABEL), "x": nd(LABEL)}, {"out": nd(PRED)})
    assert acc.get()[1] == 0.5
    with pytest.raises(ValueError, match="nosuchmetric"):
        metric.create("nosuchmetric")
    assert str(metric.MSE()) == "EvalMetric: {'mse': nan}"
