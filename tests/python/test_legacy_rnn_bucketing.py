"""weft.rnn's encode_sentences and BucketSentenceIter, and MXNet's bucketing LSTM example
(example/rnn/bucketing/lstm_bucketing.py) trained with BucketingModule on a small
synthetic corpus."""
import random

import numpy as np
import pytest

import weft as mx


def test_encode_sentences():
    sents = [["a", "b", "c"], ["b", "a"]]
    coded, vocab = mx.rnn.encode_sentences(sents, invalid_label=0, start_label=0)
    # id 0 is the invalid label, so new ids start at 1
    assert vocab == {"\n": 0, "a": 1, "b": 2, "c": 3}
    assert coded == [[1, 2, 3], [2, 1]]
    coded, vocab2 = mx.rnn.encode_sentences([["a", "zz"]], vocab=dict(vocab), unknown_token="<unk>", start_label=4)
    assert coded == [[1, 4]] and vocab2["<unk>"] == 4
    with pytest.raises(mx.base.InvalidArgumentError, match="zz"):
        mx.rnn.encode_sentences([["zz"]], vocab=dict(vocab))


@pytest.mark.parametrize("layout", ["NT", "TN"])
def test_bucket_sentence_iter(layout):
    rng = np.random.RandomState(0)
    sents = [list(rng.randint(1, 9, size=n)) for n in [2, 3, 3, 4, 5, 5, 5, 5, 9]]
    it = mx.rnn.BucketSentenceIter(sents, 2, buckets=[3, 5, 7], invalid_label=0, layout=layout)
    assert it.default_bucket_key == 7
    want = (2, 7) if layout == "NT" else (7, 2)
    assert it.provide_data[0].shape == want and it.provide_label[0].name == "softmax_label"
    seen = []
    for batch in it:
        d, l = batch.data[0].asnumpy(), batch.label[0].asnumpy()
        if layout == "TN":
            d, l = d.T, l.T
        assert d.shape == (2, batch.bucket_key)
        np.testing.assert_array_equal(l[:, :-1], d[:, 1:])  # next-token labels
        np.testing.assert_array_equal(l[:, -1], 0)
        seen.append(batch.bucket_key)
    # buckets 3 (3 sentences -> 1 batch), 5 (5 -> 2 batches), 7 (none); the 9-token one is discarded
    assert sorted(seen) == [3, 5, 5]
    it.reset()
    assert len(list(it)) == 3
    with pytest.raises(mx.base.InvalidArgumentError, match="layout"):
        mx.rnn.BucketSentenceIter(sents, 2, buckets=[3], layout="NTC")


def _corpus(rng, vocab_size, count):
    """Sentences that count up modulo the vocabulary from a random start: the next
    token is predictable from the current one, so a model can learn it."""
    sents = []
    for _ in range(count):
        n = rng.choice([4, 6, 8])
        start = rng.randint(1, vocab_size)
        sents.append([1 + (start + k) % (vocab_size - 1) for k in range(n)])
    return sents


def test_lstm_bucketing_example_trains():
    np.random.seed(0)
    mx.random.seed(0)
    random.seed(0)  # BucketSentenceIter shuffles with Python's random, as MXNet's
    vocab_size, num_embed, num_hidden, num_layers, batch_size = 12, 8, 16, 2, 8
    invalid_label = 0
    rng = np.random.RandomState(1)
    data_train = mx.rnn.BucketSentenceIter(_corpus(rng, vocab_size, 160), batch_size, buckets=[4, 6, 8],
                                           invalid_label=invalid_label)
    stack = mx.rnn.SequentialRNNCell()
    for i in range(num_layers):
        stack.add(mx.rnn.LSTMCell(num_hidden=num_hidden, prefix="lstm_l%d_" % i))

    def sym_gen(seq_len):
        data = mx.sym.Variable("data")
        label = mx.sym.Variable("softmax_label")
        embed = mx.sym.Embedding(data=data, input_dim=vocab_size, output_dim=num_embed, name="embed")
        stack.reset()
        outputs, _ = stack.unroll(seq_len, inputs=embed, merge_outputs=True)
        pred = mx.sym.Reshape(outputs, shape=(-1, num_hidden))
        pred = mx.sym.FullyConnected(data=pred, num_hidden=vocab_size, name="pred")
        label = mx.sym.Reshape(label, shape=(-1,))
        pred = mx.sym.SoftmaxOutput(data=pred, label=label, name="softmax")
        return pred, ("data",), ("softmax_label",)

    model = mx.mod.BucketingModule(sym_gen=sym_gen, default_bucket_key=data_train.default_bucket_key,
                                   context=mx.cpu())
    model.bind(data_shapes=data_train.provide_data, label_shapes=data_train.provide_label)
    model.init_params(initializer=mx.init.Xavier(factor_type="in", magnitude=2.34))
    before = dict(model.score(data_train, mx.metric.Perplexity(invalid_label)))["perplexity"]
    data_train.reset()  # score left it at its end; fit, as MXNet's, resets only after each epoch
    model.fit(train_data=data_train, eval_metric=mx.metric.Perplexity(invalid_label), optimizer="sgd",
              optimizer_params={"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-5}, num_epoch=4)
    after = dict(model.score(data_train, mx.metric.Perplexity(invalid_label)))["perplexity"]
    assert before > 0.8 * vocab_size  # close to uniform guessing at the start
    assert after < 0.5 * before, (before, after)
    # every bucket got its own executor sharing the default bucket's weights
    assert set(model._buckets) == {4, 6, 8}  # pylint: disable=protected-access
