"""The book's RNN language model (d2l chapter 9.6) in NumPy mode, hybridized
(issue 39's done-when list: "an RNN language model on a short text ... trained a
few steps imperatively and hybridized, exported, re-imported and compared").

d2l's own RNNModel is an nn.Block (test_np_gluon_layers.py trains it as written);
here the same model -- one-hot input, a recurrent layer, a dense output layer -- is
a HybridBlock written with F.npx, so that hybridize() traces it: both copies start
from the same parameters and agree at every step, and the export loads back
through SymbolBlock.imports with the same outputs."""
import json
import os

import numpy as onp
import pytest

from weft import autograd, gluon, init, np
from weft.gluon import nn, rnn
from np_mode_helpers import np_mode  # pylint: disable=unused-import (np_mode: a fixture)

pytestmark = [pytest.mark.usefixtures("np_mode"), pytest.mark.filterwarnings(r"error:hybridize\(\)")]

TEXT = "the time machine by h g wells " * 4
VOCAB = sorted(set(TEXT))
NUM_STEPS, BATCH = 6, 4


class RNNLM(nn.HybridBlock):
    def __init__(self, layer, vocab_size, **kwargs):
        super().__init__(**kwargs)
        self.vocab_size = vocab_size
        self.rnn = layer
        self.dense = nn.Dense(vocab_size, flatten=False)

    def hybrid_forward(self, F, inputs):
        X = F.npx.one_hot(inputs.T, self.vocab_size)  # (time, batch, vocab), as d2l's
        return self.dense(self.rnn(X))  # the recurrent layer starts from zero state


def _batches():
    corpus = onp.array([VOCAB.index(c) for c in TEXT])
    starts = onp.arange(0, len(corpus) - NUM_STEPS - 1, NUM_STEPS)[:BATCH * 3]
    for b in range(0, len(starts), BATCH):
        idx = starts[b:b + BATCH]
        X = onp.stack([corpus[i:i + NUM_STEPS] for i in idx])
        Y = onp.stack([corpus[i + 1:i + 1 + NUM_STEPS] for i in idx])
        yield np.array(X, dtype="float32"), np.array(Y.T, dtype="float32")


def _train(net):
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 1.0})
    params = [p for p in net.collect_params().values() if p.grad_req != "null"]
    record = []
    for X, Y in _batches():
        with autograd.record():
            out = net(X)
            l = loss(out, Y).mean()
        l.backward()
        assert isinstance(out, np.ndarray)
        record.append((out.asnumpy(), [p.grad().asnumpy() for p in params], float(l)))
        trainer.step(1)
    return record


@pytest.mark.parametrize("cell", ["rnn", "lstm", "gru"])
def test_rnn_language_model_hybridized_matches_imperative_and_reimports(cell, tmp_path):
    make = {"rnn": lambda: rnn.RNN(16), "lstm": lambda: rnn.LSTM(16), "gru": lambda: rnn.GRU(16)}[cell]
    eager = RNNLM(make(), len(VOCAB))
    eager.initialize(init.Normal(0.1))
    X0, _ = next(_batches())
    eager(X0)  # deferred shapes known
    saved = os.path.join(str(tmp_path), "init.params")
    eager.save_parameters(saved)
    hybrid = RNNLM(make(), len(VOCAB))
    hybrid.load_parameters(saved)
    hybrid.hybridize()

    eager_steps, hybrid_steps = _train(eager), _train(hybrid)
    assert len(eager_steps) == 3
    for step, ((o1, g1, l1), (o2, g2, l2)) in enumerate(zip(eager_steps, hybrid_steps)):
        onp.testing.assert_allclose(o2, o1, rtol=1e-4, atol=1e-5, err_msg="step %d output" % step)
        for i, (a, b) in enumerate(zip(g1, g2)):
            onp.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5, err_msg="step %d gradient %d" % (step, i))
        assert l1 == pytest.approx(l2, rel=1e-4)
    assert eager_steps[-1][2] < eager_steps[0][2]  # it learns

    prefix = os.path.join(str(tmp_path), "rnnlm")
    hybrid.export(prefix)
    with open(prefix + "-symbol.json") as f:
        assert json.load(f)["attrs"]["is_np_shape"] == ["int", 1]
    imported = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], prefix + "-0000.params")
    got = imported(X0)
    assert isinstance(got, np.ndarray)
    onp.testing.assert_allclose(got.asnumpy(), hybrid(X0).asnumpy(), rtol=1e-5, atol=1e-6)
