"""gluon.contrib.data: IntervalSampler where MXNet has it, and WikiText2 /
WikiText103 from local token files (vocabulary order, <eos>, seq_len rows)."""
import numpy as np
import pytest

import weft as mx
from weft.gluon.contrib import data as cdata

TEXT = " = Title = \n\n the cat sat on the mat \n the dog \n"


def test_interval_sampler():
    assert list(cdata.IntervalSampler(7, 3)) == [0, 3, 6, 1, 4, 2, 5]
    assert list(cdata.IntervalSampler(7, 3, rollover=False)) == [0, 3, 6]
    assert cdata.IntervalSampler is mx.gluon.data.IntervalSampler


def test_wikitext2_vocabulary_and_rows(tmp_path):
    (tmp_path / "wiki.train.tokens").write_text(TEXT, encoding="utf8")
    ds = cdata.WikiText2(root=str(tmp_path), seq_len=4)
    vocab = ds.vocabulary
    # <unk>, <eos>, then by count: the (3), = (2), then the count-1 tokens alphabetically
    assert vocab.idx_to_token == ["<unk>", "<eos>", "the", "=", "Title", "cat", "dog", "mat", "on", "sat"]
    assert ds.frequencies["the"] == 3
    tokens = "= Title = <eos> the cat sat on the mat <eos> the dog <eos>".split()
    ids = vocab.to_indices(tokens)
    assert len(ds) == 3  # 13 (data, label) pairs -> 3 rows of 4, the last pair dropped
    data, label = ds[1]
    assert data.asnumpy().tolist() == ids[4:8] and label.asnumpy().tolist() == ids[5:9]
    assert data.dtype == np.int32
    # a given vocabulary is used as it is (unknown tokens -> 0)
    (tmp_path / "wiki.valid.tokens").write_text(" the zebra \n", encoding="utf8")
    val = cdata.WikiText2(root=str(tmp_path), segment="validation", vocab=vocab, seq_len=2)
    assert val[0][0].asnumpy().tolist() == [vocab.to_indices("the"), 0]


def test_wikitext_missing_and_bad_arguments(tmp_path):
    with pytest.raises(mx.WeftIOError, match=r"WikiText103: file not found: .*wiki\.test\.tokens"):
        cdata.WikiText103(root=str(tmp_path), segment="test")
    with pytest.raises(ValueError, match="segment"):
        cdata.WikiText2(root=str(tmp_path), segment="dev")
    (tmp_path / "wiki.train.tokens").write_text("a b\n", encoding="utf8")
    with pytest.raises(mx.WeftIOError, match="fewer than seq_len=35"):
        cdata.WikiText2(root=str(tmp_path))
