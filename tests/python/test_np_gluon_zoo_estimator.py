"""Issue 39 point 2's last pieces: model_zoo.vision nets in NumPy mode (d2l's
resnet18_v2 among them) and gluon.contrib.estimator.Estimator training on np
arrays, imperatively and hybridized."""
import numpy as onp
import pytest

import weft as mx
from weft import autograd, gluon, np, npx
from weft.gluon.contrib.estimator import Estimator
from weft.gluon.contrib.estimator.event_handler import BatchEnd
from weft.gluon.model_zoo import vision


@pytest.fixture(autouse=True)
def np_mode():
    npx.set_np()
    yield
    npx.reset_np()


@pytest.mark.parametrize("name,size", [("resnet18_v2", 32), ("mobilenetv2_0.25", 32), ("mobilenet0.25", 32)])
def test_zoo_net_in_numpy_mode_imperative_equals_hybridized(name, size):
    mx.random.seed(0)
    net = vision.get_model(name, classes=7)
    net.initialize(mx.init.Xavier())
    x = np.random.uniform(size=(2, 3, size, size))
    y = net(x)
    assert isinstance(y, np.ndarray) and y.shape == (2, 7)
    net.hybridize()
    y_h = net(x)
    assert isinstance(y_h, np.ndarray)
    onp.testing.assert_allclose(y_h.asnumpy(), y.asnumpy(), rtol=1e-4, atol=1e-5)


def test_resnet18_v2_trains_in_numpy_mode():
    # d2l's fine-tuning chapters use resnet18_v2 with np arrays throughout
    mx.random.seed(1)
    net = vision.resnet18_v2(classes=4)
    net.initialize(mx.init.Xavier())
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.05})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    x = np.random.uniform(size=(4, 3, 32, 32))
    y = np.array([0, 1, 2, 3])
    losses = []
    for _ in range(6):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(4)
        losses.append(float(loss.mean()))
    for p in net.collect_params().values():
        if p.grad_req != "null":
            assert isinstance(p.grad(), np.ndarray)
    assert onp.all(onp.isfinite(losses)) and losses[-1] < losses[0], losses


class _BatchTypes(BatchEnd):
    def __init__(self):
        self.seen = set()

    def batch_end(self, estimator, *args, **kwargs):
        for key in ("pred", "label", "loss"):
            v = kwargs.get(key)
            for a in (v if isinstance(v, (list, tuple)) else [v]):
                if a is not None:
                    self.seen.add(type(a))


@pytest.mark.parametrize("hybridize", [False, True])
def test_estimator_fits_on_numpy_arrays(hybridize):
    mx.random.seed(2)
    rs = onp.random.RandomState(2)
    centers = rs.uniform(-3, 3, (3, 4))
    label = rs.randint(0, 3, 60)
    data = (centers[label] + 0.3 * rs.randn(60, 4)).astype("float32")
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(data, label.astype("float32")), batch_size=10)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(16, activation="relu"), gluon.nn.Dense(3))
    net.initialize(mx.init.Xavier())
    if hybridize:
        net.hybridize()
    acc = mx.metric.Accuracy()
    est = Estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss(), train_metrics=acc,
                    trainer=gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.05}))
    types = _BatchTypes()
    est.fit(train_data=loader, val_data=loader, epochs=8, event_handlers=[types])
    assert types.seen and all(issubclass(t, np.ndarray) for t in types.seen), types.seen
    assert acc.get()[1] > 0.9, acc.get()
