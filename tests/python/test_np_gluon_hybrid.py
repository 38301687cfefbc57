"""hybridize() in NumPy mode (issue 39 point 2, the symbolic half): the book's
patterns -- a softmax regression written with F.np, an MLP with dropout, LeNet,
a ResNet block with batch norm and a multi-head attention layer written with
F.np / F.npx -- each trained a few steps imperatively and hybridized from the
same initial parameters: outputs and gradients agree at every step. The
hybridized model is exported (MXNet's NumPy-mode operator names, checked against
MXNet 1.9.1's np / npx name lists), re-imported with SymbolBlock.imports and
gives the same outputs."""
import json
import math
import os
import warnings

import numpy as onp
import pytest

import weft as mx
from weft import autograd, gluon, np, npx
from weft.gluon import nn
from np_reference import reference_names

# A hybridized block must trace, never fall back to running imperatively.
pytestmark = pytest.mark.filterwarnings(r"error:hybridize\(\)")



@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _mxnet_function_of(op):
    """The mx.np / mx.npx function an MXNet NumPy-mode operator name belongs to, or None
    for a legacy name (Reshape, sum ...), which MXNet also loads in NumPy mode."""
    if op.startswith("_npx_"):
        return "mx.npx", op[len("_npx_"):]
    for prefix in ("_npi_", "_np_"):
        if op.startswith(prefix):
            name = op[len(prefix):]
            if name.endswith("_scalar"):
                name = name[:-len("_scalar")]
                if name.startswith("r") and name[1:] in ("subtract", "true_divide", "mod", "power"):
                    name = name[1:]
            return "mx.np", name
    return None


class SoftmaxRegression(nn.HybridBlock):
    """d2l 3.6 (softmax regression from scratch) as a block: X.reshape, np.dot, the softmax."""

    def __init__(self, num_inputs, num_outputs, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.W = self.params.get("W", shape=(num_inputs, num_outputs), init=mx.init.Normal(0.01))
            self.b = self.params.get("b", shape=(num_outputs,), init="zeros")
        self.num_inputs = num_inputs  # the book reads W.shape[0]; a traced graph has no shapes

    def hybrid_forward(self, F, X, W, b):
        logits = F.np.dot(X.reshape((-1, self.num_inputs)), W) + b
        X_exp = F.np.exp(logits - F.np.max(logits, axis=1, keepdims=True))
        return X_exp / X_exp.sum(axis=1, keepdims=True)


class MLP(nn.HybridBlock):
    """d2l 5.6 (dropout, concise) with the activation written in hybrid_forward."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.hidden = nn.Dense(16)
            self.dropout = nn.Dropout(0.3)
            self.out = nn.Dense(4)

    def hybrid_forward(self, F, X):
        return self.out(self.dropout(F.npx.relu(self.hidden(X))))


def lenet():
    """d2l 7.6's LeNet, as the book writes it."""
    net = nn.HybridSequential()
    net.add(nn.Conv2D(channels=6, kernel_size=5, padding=2, activation="sigmoid"),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=5, activation="sigmoid"),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Dense(120, activation="sigmoid"), nn.Dense(84, activation="sigmoid"), nn.Dense(10))
    return net


class Residual(nn.HybridBlock):
    """d2l 8.6's residual block (its forward as a hybrid_forward)."""

    def __init__(self, num_channels, use_1x1conv=False, strides=1, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.conv1 = nn.Conv2D(num_channels, kernel_size=3, padding=1, strides=strides)
            self.conv2 = nn.Conv2D(num_channels, kernel_size=3, padding=1)
            self.conv3 = nn.Conv2D(num_channels, kernel_size=1, strides=strides) if use_1x1conv else None
            self.bn1 = nn.BatchNorm()
            self.bn2 = nn.BatchNorm()

    def hybrid_forward(self, F, X):
        Y = F.npx.relu(self.bn1(self.conv1(X)))
        Y = self.bn2(self.conv2(Y))
        if self.conv3:
            X = self.conv3(X)
        return F.npx.relu(Y + X)


def resnet_block():
    net = nn.HybridSequential()
    net.add(Residual(4, use_1x1conv=True, strides=2), nn.GlobalAvgPool2D(), nn.Dense(3))
    return net


class MultiHeadAttention(nn.HybridBlock):
    """d2l 11.5's multi-head attention (scaled dot product, no mask), with the head
    split written with npx.reshape's codes (a traced graph has no X.shape)."""

    def __init__(self, num_hiddens, num_heads, dropout, **kwargs):
        super().__init__(**kwargs)
        self.num_heads = num_heads
        self.scale = 1 / math.sqrt(num_hiddens // num_heads)
        with self.name_scope():
            self.W_q = nn.Dense(num_hiddens, use_bias=False, flatten=False)
            self.W_k = nn.Dense(num_hiddens, use_bias=False, flatten=False)
            self.W_v = nn.Dense(num_hiddens, use_bias=False, flatten=False)
            self.W_o = nn.Dense(num_hiddens, use_bias=False, flatten=False)
            self.dropout = nn.Dropout(dropout)

    def _split_heads(self, F, X):
        X = F.npx.reshape(X, (-2, -2, self.num_heads, -1))  # (batch, steps, heads, d)
        X = F.np.transpose(X, (0, 2, 1, 3))
        return F.npx.reshape(X, (-5, -2, -2))  # (batch * heads, steps, d)

    def hybrid_forward(self, F, queries, keys, values):
        q, k, v = (self._split_heads(F, W(X)) for W, X in ((self.W_q, queries), (self.W_k, keys),
                                                           (self.W_v, values)))
        scores = F.npx.batch_dot(q, k, transpose_b=True) * self.scale
        attn = self.dropout(F.npx.softmax(scores))
        out = F.npx.batch_dot(attn, v)  # (batch * heads, steps, d)
        out = F.npx.reshape(out, (-6, -1, self.num_heads, -2, -2))
        out = F.npx.reshape(F.np.transpose(out, (0, 2, 1, 3)), (-2, -2, -5))
        return self.W_o(out)


class AttentionModel(nn.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.attention = MultiHeadAttention(8, 2, 0.2)
            self.out = nn.Dense(3)

    def hybrid_forward(self, F, X):
        return self.out(self.attention(X, X, X))


def _softmax_regression():
    net = nn.HybridSequential()
    net.add(SoftmaxRegression(12, 3))
    return net


def _mlp():
    net = nn.HybridSequential()
    net.add(MLP())
    return net


# name: (make the model, input shape, classes, custom loss on probabilities)
MODELS = {
    "softmax_regression": (_softmax_regression, (6, 2, 6), 3, True),
    "mlp_dropout": (_mlp, (6, 10), 4, False),
    "lenet": (lenet, (4, 1, 28, 28), 10, False),
    "resnet_block": (resnet_block, (4, 3, 8, 8), 3, False),
    "attention": (AttentionModel, (4, 5, 8), 3, False),
}


def _make(name, like=None, tmp_path=None):
    """A fresh model, initialised (a forward in inference mode ends deferred
    initialisation); with like=, its parameters loaded from that model's."""
    make = MODELS[name][0]
    mx.random.seed(42)
    net = make()
    net.initialize(mx.init.Xavier())
    net(_data(name)[0])
    if like is not None:
        fname = os.path.join(str(tmp_path), "init.params")
        like.save_parameters(fname)
        net.load_parameters(fname)
    return net


def _data(name):
    _, in_shape, classes, _ = MODELS[name]
    rng = onp.random.RandomState(0)
    x = rng.normal(size=in_shape).astype("float32")
    y = rng.randint(0, classes, size=(in_shape[0],))
    return np.array(x), np.array(y)


def _cross_entropy(y_hat, y):
    """d2l 3.6's cross_entropy over probabilities (np indexing by the labels)."""
    return -np.log(y_hat[np.arange(y_hat.shape[0]), y.astype("int64")])


def _train(net, name, x, y, steps=3):
    """Outputs, parameter gradients and losses of each step of the book's loop; the
    random state is reseeded per step so dropout draws the same masks both ways."""
    probabilities = MODELS[name][3]
    loss = _cross_entropy if probabilities else gluon.loss.SoftmaxCrossEntropyLoss()
    params = list(net.collect_params().values())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "wd": 1e-3})
    record = []
    for step in range(steps):
        mx.random.seed(100 + step)
        with autograd.record():
            out = net(x)
            l = loss(out, y)
        assert isinstance(out, np.ndarray) and isinstance(l, np.ndarray)
        l.backward()
        record.append((out.asnumpy(), [p.grad().asnumpy() for p in params if p.grad_req != "null"],
                       float(l.mean())))
        trainer.step(x.shape[0])
    return record


@pytest.mark.parametrize("name", sorted(MODELS))
def test_hybridized_training_matches_imperative(name, tmp_path):
    x, y = _data(name)
    eager = _make(name)
    hybrid = _make(name, like=eager, tmp_path=tmp_path)
    eager_steps = _train(eager, name, x, y)
    hybrid.hybridize()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning: the user's F.np code traces
        hybrid_steps = _train(hybrid, name, x, y)
    for step, ((o1, g1, l1), (o2, g2, l2)) in enumerate(zip(eager_steps, hybrid_steps)):
        onp.testing.assert_allclose(o2, o1, rtol=1e-5, atol=1e-6, err_msg="%s step %d output" % (name, step))
        assert len(g1) == len(g2)
        for i, (a, b) in enumerate(zip(g1, g2)):
            onp.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6,
                                        err_msg="%s step %d gradient %d" % (name, step, i))
        assert l1 == pytest.approx(l2, rel=1e-5)
    assert eager_steps[-1][2] < eager_steps[0][2]  # it trains

    prefix = os.path.join(str(tmp_path), name)
    sym, params_file = hybrid.export(prefix)
    assert isinstance(sym, mx.sym.np._Symbol)
    with open(prefix + "-symbol.json") as f:
        doc = json.load(f)
    ops = {n["op"] for n in doc["nodes"]} - {"null"}
    reference = reference_names()
    for op in ops:
        owner = _mxnet_function_of(op)
        if owner is not None:
            assert owner[1] in reference[owner[0]], (op, owner)
    legacy_with_np_name = {"FullyConnected", "Convolution", "Pooling", "BatchNorm", "Activation", "Dropout",
                           "relu", "softmax", "batch_dot", "broadcast_add", "_plus_scalar", "_mul_scalar", "exp",
                           "transpose"}
    assert not ops & legacy_with_np_name, sorted(ops & legacy_with_np_name)
    assert doc["attrs"]["is_np_shape"] == ["int", 1]

    imported = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], params_file)
    want = hybrid(x)  # inference: dropout off, batch norm on its running statistics
    got = imported(x)
    assert isinstance(got, np.ndarray)
    onp.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)


EXPECTED_OPS = {
    "softmax_regression": {"dot", "_npi_add", "_npi_exp", "_npi_subtract", "_npi_true_divide",
                           "max", "sum", "Reshape"},
    "mlp_dropout": {"_npx_fully_connected", "_npx_relu", "_npx_dropout"},
    "lenet": {"_npx_convolution", "_npx_activation", "_npx_pooling", "_npx_fully_connected"},
    "resnet_block": {"_npx_convolution", "_npx_batch_norm", "_npx_relu", "_npi_add", "_npx_pooling",
                     "_npx_fully_connected"},
    "attention": {"_npx_fully_connected", "Reshape", "_np_transpose", "_npx_batch_dot", "_npi_multiply_scalar",
                  "_npx_softmax", "_npx_dropout"},
}


@pytest.mark.parametrize("name", sorted(EXPECTED_OPS))
def test_exported_operator_names(name, tmp_path):
    """The NumPy-mode names MXNet 1.9.1's export writes for these layers and calls."""
    x, _ = _data(name)
    net = _make(name)
    net.hybridize()
    net(x)
    sym, _ = net.export(os.path.join(str(tmp_path), name))
    ops = {n["op"] for n in json.loads(sym.tojson())["nodes"]} - {"null"}
    assert ops == EXPECTED_OPS[name]


def test_legacy_symbol_output_in_numpy_mode_is_a_type_error():
    class Legacy(nn.HybridBlock):
        def hybrid_forward(self, F, x):
            return x.as_nd_ndarray()  # a legacy Symbol out of a NumPy-mode trace

    net = Legacy()
    net.hybridize()
    with pytest.raises(TypeError, match="_Symbol"):
        net(np.ones((2, 3)))
