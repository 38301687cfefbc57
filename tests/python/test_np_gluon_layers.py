"""Every gluon.nn and gluon.rnn layer in NumPy mode (issue 39 point 2): np arrays
in, np arrays out, imperatively and hybridized, with gradients reaching the
np input; and d2l's recurrent and attention code (chapters 9 and 11), verbatim
but for the data: an RNN language model on a short text trained a few steps
with gradient clipping, and masked dot-product / additive attention."""
import math

import numpy as onp
import pytest

from weft import autograd, gluon, init, np, npx
from weft.gluon import nn, rnn

pytestmark = pytest.mark.filterwarnings(r"error:hybridize\(\)")


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


# (layer factory, input shape, output shape)
NN_LAYERS = [
    (lambda: nn.Dense(3), (2, 5), (2, 3)),
    (lambda: nn.Dense(3, flatten=False), (2, 4, 5), (2, 4, 3)),
    (lambda: nn.Activation("tanh"), (2, 3), (2, 3)),
    (lambda: nn.Dropout(0.5), (2, 3), (2, 3)),
    (lambda: nn.BatchNorm(), (2, 3, 4, 4), (2, 3, 4, 4)),
    (lambda: nn.InstanceNorm(), (2, 3, 4), (2, 3, 4)),
    (lambda: nn.LayerNorm(), (2, 3, 4), (2, 3, 4)),
    (lambda: nn.GroupNorm(num_groups=2), (2, 4, 3), (2, 4, 3)),
    (lambda: nn.Flatten(), (2, 3, 4), (2, 12)),
    (lambda: nn.Conv1D(4, kernel_size=3), (2, 3, 8), (2, 4, 6)),
    (lambda: nn.Conv2D(4, kernel_size=3, padding=1), (2, 3, 5, 5), (2, 4, 5, 5)),
    (lambda: nn.Conv3D(2, kernel_size=2), (1, 2, 3, 3, 3), (1, 2, 2, 2, 2)),
    (lambda: nn.Conv1DTranspose(2, kernel_size=3), (2, 3, 4), (2, 2, 6)),
    (lambda: nn.Conv2DTranspose(2, kernel_size=2, strides=2), (1, 3, 3, 3), (1, 2, 6, 6)),
    (lambda: nn.Conv3DTranspose(2, kernel_size=2), (1, 2, 2, 2, 2), (1, 2, 3, 3, 3)),
    (lambda: nn.MaxPool1D(2), (2, 3, 8), (2, 3, 4)),
    (lambda: nn.MaxPool2D(pool_size=2, strides=2), (2, 3, 4, 4), (2, 3, 2, 2)),
    (lambda: nn.MaxPool3D(2), (1, 2, 4, 4, 4), (1, 2, 2, 2, 2)),
    (lambda: nn.AvgPool1D(2), (2, 3, 8), (2, 3, 4)),
    (lambda: nn.AvgPool2D(pool_size=3, strides=1, padding=1), (2, 3, 4, 4), (2, 3, 4, 4)),
    (lambda: nn.AvgPool3D(2), (1, 2, 4, 4, 4), (1, 2, 2, 2, 2)),
    (lambda: nn.GlobalAvgPool1D(), (2, 3, 5), (2, 3, 1)),
    (lambda: nn.GlobalAvgPool2D(), (2, 3, 4, 4), (2, 3, 1, 1)),
    (lambda: nn.GlobalAvgPool3D(), (1, 2, 3, 3, 3), (1, 2, 1, 1, 1)),
    (lambda: nn.GlobalMaxPool1D(), (2, 3, 5), (2, 3, 1)),
    (lambda: nn.GlobalMaxPool2D(), (2, 3, 4, 4), (2, 3, 1, 1)),
    (lambda: nn.GlobalMaxPool3D(), (1, 2, 3, 3, 3), (1, 2, 1, 1, 1)),
    (lambda: nn.ReflectionPad2D(1), (1, 2, 3, 3), (1, 2, 5, 5)),
    (lambda: nn.LeakyReLU(0.1), (2, 3), (2, 3)),
    (lambda: nn.PReLU(), (2, 3), (2, 3)),
    (lambda: nn.ELU(), (2, 3), (2, 3)),
    (lambda: nn.SELU(), (2, 3), (2, 3)),
    (lambda: nn.GELU(), (2, 3), (2, 3)),
    (lambda: nn.SiLU(), (2, 3), (2, 3)),
    (lambda: nn.Swish(), (2, 3), (2, 3)),
    (lambda: nn.HybridLambda("tanh"), (2, 3), (2, 3)),
    (lambda: nn.HybridLambda(lambda F, x: F.np.tanh(x) * 2), (2, 3), (2, 3)),
    (lambda: nn.Lambda(lambda x: np.tanh(x) * 2), (2, 3), (2, 3)),
]


def _ids(table):
    return ["%d-%s" % (i, type(f()).__name__) for i, (f, _, _) in enumerate(table)]


@pytest.mark.parametrize("factory,in_shape,out_shape", NN_LAYERS, ids=_ids(NN_LAYERS))
@pytest.mark.parametrize("hybridize", [False, True])
def test_nn_layer_in_numpy_mode(factory, in_shape, out_shape, hybridize):
    layer = factory()
    layer.initialize(init.Xavier())
    if hybridize and isinstance(layer, nn.HybridBlock):
        layer.hybridize()
    x = np.random.uniform(0.1, 1.0, size=in_shape)
    x.attach_grad()
    # a HybridLambda over the user's F.np code traces with weft.sym.np (no fallback warning: the
    # module's filter makes one an error)
    with autograd.record():
        y = layer(x)
    assert isinstance(y, np.ndarray) and y.shape == out_shape
    y.backward()
    assert isinstance(x.grad, np.ndarray) and x.grad.shape == in_shape
    if not isinstance(layer, (nn.BatchNorm, nn.InstanceNorm, nn.LayerNorm, nn.GroupNorm)):
        assert float(np.abs(x.grad).sum()) > 0  # (normalising layers' grads of sum(y) vanish)
    for p in layer.collect_params().values():
        assert isinstance(p.data(), np.ndarray)


def test_embedding_in_numpy_mode():
    layer = nn.Embedding(10, 4)
    layer.initialize()
    y = layer(np.array([[1, 2], [3, 9]]))
    assert isinstance(y, np.ndarray) and y.shape == (2, 2, 4)
    onp.testing.assert_array_equal(y[1, 1].asnumpy(), layer.weight.data()[9].asnumpy())


@pytest.mark.parametrize("make", [lambda: rnn.RNN(6, num_layers=2), lambda: rnn.LSTM(6, bidirectional=True),
                                  lambda: rnn.GRU(6, layout="NTC")], ids=["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("hybridize", [False, True])
def test_rnn_layers_in_numpy_mode(make, hybridize):
    layer = make()
    layer.initialize()
    if hybridize:
        layer.hybridize()
    x = np.random.uniform(size=(5, 2, 3))
    out = layer(x)
    assert isinstance(out, np.ndarray)
    state = layer.begin_state(batch_size=x.shape[1 if layer._layout == "TNC" else 0])
    assert all(isinstance(s, np.ndarray) for s in state)
    out2, new_state = layer(x, state)
    assert isinstance(out2, np.ndarray) and all(isinstance(s, np.ndarray) for s in new_state)
    onp.testing.assert_allclose(out.asnumpy(), out2.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", [
    lambda: rnn.RNNCell(4), lambda: rnn.LSTMCell(4), lambda: rnn.GRUCell(4),
    lambda: rnn.ResidualCell(rnn.GRUCell(3)), lambda: rnn.ZoneoutCell(rnn.LSTMCell(4), 0.5, 0.5),
    lambda: _stack(rnn.SequentialRNNCell(), rnn.LSTMCell(4), rnn.DropoutCell(0.5), rnn.LSTMCell(4)),
], ids=["RNNCell", "LSTMCell", "GRUCell", "ResidualCell", "ZoneoutCell", "SequentialRNNCell"])
def test_rnn_cells_in_numpy_mode(make):
    cell = make()
    cell.initialize()
    x = np.random.uniform(size=(2, 3))
    states = cell.begin_state(batch_size=2)
    assert all(isinstance(s, np.ndarray) for s in states)
    out, states = cell(x, states)
    assert isinstance(out, np.ndarray) and all(isinstance(s, np.ndarray) for s in states)
    outs, states = cell.unroll(4, np.random.uniform(size=(2, 4, 3)), merge_outputs=True)
    assert isinstance(outs, np.ndarray) and outs.shape[:2] == (2, 4)


def _stack(seq, *cells):
    for c in cells:
        seq.add(c)
    return seq


def test_bidirectional_cell_unroll():
    cell = rnn.BidirectionalCell(rnn.LSTMCell(3), rnn.LSTMCell(3))
    cell.initialize()
    outs, states = cell.unroll(4, np.random.uniform(size=(2, 4, 5)), merge_outputs=True)
    assert isinstance(outs, np.ndarray) and outs.shape == (2, 4, 6)
    assert all(isinstance(s, np.ndarray) for s in states)


class RNNModel(nn.Block):  # d2l chapter 9.6 (MXNet), verbatim
    """The RNN model."""

    def __init__(self, rnn_layer, vocab_size, **kwargs):
        super(RNNModel, self).__init__(**kwargs)
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.dense = nn.Dense(vocab_size)

    def forward(self, inputs, state):
        X = npx.one_hot(inputs.T, self.vocab_size)
        Y, state = self.rnn(X, state)
        output = self.dense(Y.reshape(-1, Y.shape[-1]))
        return output, state

    def begin_state(self, *args, **kwargs):
        return self.rnn.begin_state(*args, **kwargs)


def grad_clipping(net, theta):  # d2l chapter 9.5 (MXNet), for a Gluon model
    params = [p.data() for p in net.collect_params().values()]
    norm = math.sqrt(sum((p.grad ** 2).sum() for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


@pytest.mark.parametrize("cell", ["rnn", "gru"])
def test_rnn_language_model_trains(cell):
    text = "the time machine by h g wells " * 8
    vocab = sorted(set(text))
    corpus = onp.array([vocab.index(c) for c in text])
    num_steps, batch_size = 8, 4
    starts = onp.arange(0, len(corpus) - num_steps - 1, num_steps)[:batch_size * 4]
    layer = rnn.RNN(32) if cell == "rnn" else rnn.GRU(32)
    net = RNNModel(layer, len(vocab))
    net.initialize(init.Normal(0.01))
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 1})
    perplexities = []
    for _ in range(25):
        total, count = 0.0, 0
        for b in range(0, len(starts), batch_size):
            idx = starts[b:b + batch_size]
            X = np.array(onp.stack([corpus[i:i + num_steps] for i in idx]))
            Y = np.array(onp.stack([corpus[i + 1:i + 1 + num_steps] for i in idx]))
            state = net.begin_state(batch_size=X.shape[0])
            with autograd.record():
                y_hat, state = net(X, state)
                y = Y.T.reshape(-1)
                l = loss(y_hat, y).mean()
            l.backward()
            grad_clipping(net, 1)
            trainer.step(batch_size=1)
            total += float(l) * y.size
            count += y.size
        perplexities.append(math.exp(total / count))
    assert perplexities[-1] < 0.5 * perplexities[0], perplexities


def masked_softmax(X, valid_lens):  # d2l chapter 11.3 (MXNet), verbatim
    """Perform softmax operation by masking elements on the last axis."""
    if valid_lens is None:
        return npx.softmax(X)
    shape = X.shape
    if valid_lens.ndim == 1:
        valid_lens = valid_lens.repeat(shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = npx.sequence_mask(X.reshape(-1, shape[-1]), valid_lens, True, value=-1e6, axis=1)
    return npx.softmax(X).reshape(shape)


class DotProductAttention(nn.Block):  # d2l chapter 11.3 (MXNet), verbatim
    """Scaled dot product attention."""

    def __init__(self, dropout, **kwargs):
        super().__init__(**kwargs)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = npx.batch_dot(queries, keys, transpose_b=True) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return npx.batch_dot(self.dropout(self.attention_weights), values)


class AdditiveAttention(nn.Block):  # d2l chapter 11.3 (MXNet), verbatim
    """Additive attention."""

    def __init__(self, num_hiddens, dropout, **kwargs):
        super(AdditiveAttention, self).__init__(**kwargs)
        self.W_k = nn.Dense(num_hiddens, use_bias=False, flatten=False)
        self.W_q = nn.Dense(num_hiddens, use_bias=False, flatten=False)
        self.w_v = nn.Dense(1, use_bias=False, flatten=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        features = np.expand_dims(queries, axis=2) + np.expand_dims(keys, axis=1)
        features = np.tanh(features)
        scores = np.squeeze(self.w_v(features), axis=-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return npx.batch_dot(self.dropout(self.attention_weights), values)


def test_d2l_attention():
    queries, keys = np.random.normal(0, 1, (2, 1, 20)), np.ones((2, 10, 2))
    values = np.arange(40).reshape(1, 10, 4).repeat(2, axis=0)
    valid_lens = np.array([2, 6])
    attention = AdditiveAttention(num_hiddens=8, dropout=0.1)
    attention.initialize()
    out = attention(queries, keys, values, valid_lens)
    assert isinstance(out, np.ndarray) and out.shape == (2, 1, 4)
    w = attention.attention_weights.asnumpy()
    onp.testing.assert_allclose(w.sum(axis=-1), 1, rtol=1e-5)
    assert (w[0, 0, 2:] < 1e-6).all() and (w[1, 0, 6:] < 1e-6).all()
    # equal keys: the weights are uniform over the valid ones, the output their mean of values
    onp.testing.assert_allclose(out.asnumpy()[0, 0], values.asnumpy()[0, :2].mean(axis=0), rtol=1e-5)
    queries = np.random.normal(0, 1, (2, 1, 2))
    attention = DotProductAttention(dropout=0.5)
    attention.initialize()
    out = attention(queries, keys, values, valid_lens)
    assert isinstance(out, np.ndarray) and out.shape == (2, 1, 4)
    onp.testing.assert_allclose(out.asnumpy()[1, 0], values.asnumpy()[1, :6].mean(axis=0), rtol=1e-5)
