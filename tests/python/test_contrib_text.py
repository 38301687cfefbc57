"""weft.contrib.text (MXNet 1.9.1's mx.contrib.text): count_tokens_from_str, Vocabulary and the
token embeddings, after MXNet's tests/python/unittest/test_contrib_text.py."""
import collections
import os

import numpy as np
import pytest

import weft as mx
from weft.contrib import text


def test_count_tokens_from_str():
    s = " Life is great ! \n life is good . \n"
    c = text.utils.count_tokens_from_str(s, " ", "\n", True)
    assert c == collections.Counter({"is": 2, "life": 2, "great": 1, "!": 1, "good": 1, ".": 1})
    c = text.utils.count_tokens_from_str(s, " ", "\n", False)
    assert c["Life"] == 1 and c["life"] == 1
    c2 = text.utils.count_tokens_from_str("a b", counter_to_update=collections.Counter({"a": 5}))
    assert c2 == collections.Counter({"a": 6, "b": 1})
    # delimiters are regular expressions, as in MXNet
    assert text.utils.count_tokens_from_str("a,b;c", ",", ";") == collections.Counter("abc")


def test_vocabulary_indexing():
    counter = collections.Counter(["a", "b", "b", "c", "c", "c", "some_word$"])
    v = text.vocab.Vocabulary(counter, most_freq_count=None, min_freq=1, unknown_token="<unk>",
                              reserved_tokens=None)
    assert len(v) == 5
    assert v.idx_to_token == ["<unk>", "c", "b", "a", "some_word$"]
    assert v.token_to_idx == {"<unk>": 0, "c": 1, "b": 2, "a": 3, "some_word$": 4}
    v = text.vocab.Vocabulary(counter, most_freq_count=2, min_freq=1, reserved_tokens=["<pad>"])
    assert v.idx_to_token == ["<unk>", "<pad>", "c", "b"] and v.reserved_tokens == ["<pad>"]
    v = text.vocab.Vocabulary(counter, min_freq=2)
    assert v.idx_to_token == ["<unk>", "c", "b"]
    assert v.to_indices("c") == 1 and v.to_indices(["b", "zzz"]) == [2, 0]
    assert v.to_tokens(1) == "c" and v.to_tokens([2, 0]) == ["b", "<unk>"]
    with pytest.raises(ValueError, match="invalid"):
        v.to_tokens(3)
    with pytest.raises(ValueError):
        text.vocab.Vocabulary(counter, reserved_tokens=["<unk>"])
    with pytest.raises(ValueError):
        text.vocab.Vocabulary(counter, reserved_tokens=["x", "x"])
    with pytest.raises(ValueError):
        text.vocab.Vocabulary(counter, min_freq=0)


def _write(path, lines):
    with open(path, "w", encoding="utf8") as f:
        f.write("\n".join(lines) + "\n")
    return str(path)


def test_custom_embedding(tmp_path):
    path = _write(tmp_path / "emb.txt", ["a 0.1 0.2 0.3", "b 0.4 0.5 0.6", "<unk> 1 1 1", "a 9 9 9"])
    with pytest.warns(UserWarning, match="duplicate"):
        emb = text.embedding.CustomEmbedding(path, elem_delim=" ")
    assert emb.vec_len == 3 and len(emb) == 3
    assert emb.idx_to_token == ["<unk>", "a", "b"]
    np.testing.assert_allclose(emb.idx_to_vec.asnumpy(), [[1, 1, 1], [0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], rtol=1e-6)
    np.testing.assert_allclose(emb.get_vecs_by_tokens("b").asnumpy(), [0.4, 0.5, 0.6], rtol=1e-6)
    np.testing.assert_allclose(emb.get_vecs_by_tokens(["A", "zz"], lower_case_backup=True).asnumpy(),
                               [[0.1, 0.2, 0.3], [1, 1, 1]], rtol=1e-6)
    emb.update_token_vectors("a", mx.nd.array([7, 8, 9]))
    np.testing.assert_allclose(emb.get_vecs_by_tokens("a").asnumpy(), [7, 8, 9])
    emb.update_token_vectors(["a", "b"], mx.nd.array([[1, 2, 3], [4, 5, 6]]))
    np.testing.assert_allclose(emb.idx_to_vec.asnumpy()[1:], [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError, match="unknown"):
        emb.update_token_vectors("zz", mx.nd.array([1, 2, 3]))
    with pytest.raises(ValueError, match="length"):
        emb.update_token_vectors(["a", "b"], mx.nd.ones((2, 4)))


def test_custom_embedding_with_vocabulary_and_composite(tmp_path):
    p1 = _write(tmp_path / "e1.txt", ["a\t1\t2", "b\t3\t4"])
    p2 = _write(tmp_path / "e2.txt", ["b 5", "c 6", "a 7"])  # 1-d lines are headers in MXNet's rule ...
    v = text.vocab.Vocabulary(collections.Counter(["c", "b", "b"]))
    emb = text.embedding.CustomEmbedding(p1, elem_delim="\t", init_unknown_vec=mx.nd.ones, vocabulary=v)
    assert emb.idx_to_token == ["<unk>", "b", "c"]
    np.testing.assert_allclose(emb.idx_to_vec.asnumpy(), [[1, 1], [3, 4], [1, 1]])
    with pytest.warns(UserWarning, match="header"):
        with pytest.raises(ValueError, match="no vector"):
            text.embedding.CustomEmbedding(p2)  # ... so this file holds none
    p3 = _write(tmp_path / "e3.txt", ["b 5 50", "c 6 60"])
    e3 = text.embedding.CustomEmbedding(p3)
    comp = text.embedding.CompositeEmbedding(v, [emb, e3])
    assert comp.vec_len == 4 and comp.idx_to_token == v.idx_to_token
    np.testing.assert_allclose(comp.idx_to_vec.asnumpy(), [[1, 1, 0, 0], [3, 4, 5, 50], [1, 1, 6, 60]])


def test_bad_embedding_files(tmp_path):
    with pytest.raises(ValueError, match="valid path"):
        text.embedding.CustomEmbedding(str(tmp_path / "missing.txt"))
    bad = _write(tmp_path / "bad.txt", ["a 1 2", "b 1 2 3"])
    with pytest.raises(ValueError, match="dimension"):
        text.embedding.CustomEmbedding(bad)
    nan = _write(tmp_path / "nan.txt", ["a 1 x"])
    with pytest.raises(ValueError, match="not a number"):
        text.embedding.CustomEmbedding(nan)


def test_registry_and_pretrained_files(tmp_path):
    names = text.embedding.get_pretrained_file_names()
    assert set(names) >= {"glove", "fasttext"}
    assert "glove.6B.50d.txt" in text.embedding.get_pretrained_file_names("glove")
    assert "wiki.simple.vec" in names["fasttext"]
    with pytest.raises(KeyError):
        text.embedding.get_pretrained_file_names("word2vecx")
    with pytest.raises(KeyError, match="glove.6B.51d.txt"):
        text.embedding.create("glove", pretrained_file_name="glove.6B.51d.txt", embedding_root=str(tmp_path))
    # not present locally: an error naming where to place it (nothing is downloaded)
    with pytest.raises(mx.base.WeftIOError) as err:
        text.embedding.create("glove", pretrained_file_name="glove.6B.50d.txt", embedding_root=str(tmp_path))
    assert os.path.join(str(tmp_path), "glove", "glove.6B.50d.txt") in str(err.value)
    # present in MXNet's cache layout: read
    os.makedirs(tmp_path / "fasttext")
    _write(tmp_path / "fasttext" / "wiki.simple.vec", ["2 3", "x 1 2 3", "y 4 5 6"])  # fastText's header line
    with pytest.warns(UserWarning, match="header"):
        ft = text.embedding.create("fasttext", pretrained_file_name="wiki.simple.vec", embedding_root=str(tmp_path))
    assert ft.idx_to_token == ["<unk>", "x", "y"]
    np.testing.assert_allclose(ft.get_vecs_by_tokens("y").asnumpy(), [4, 5, 6])

    @text.embedding.register
    class MyEmbed(text.embedding.TokenEmbedding):  # pylint: disable=unused-variable
        pretrained_file_name_sha1 = {"mine.txt": None}

        def __init__(self, path):
            super().__init__()
            self._load_embedding(path, " ", mx.nd.zeros)

    mine = text.embedding.create("myembed", path=_write(tmp_path / "m.txt", ["q 1 2"]))
    assert mine.vec_len == 2
    assert text.embedding.get_pretrained_file_names("myembed") == ["mine.txt"]
