"""WikiText-2 and WikiText-103, as ``mxnet.gluon.contrib.data.text`` in MXNet 1.x.

The token files (``wiki.train.tokens``, ``wiki.valid.tokens``,
``wiki.test.tokens``) are read from ``root``. Each line's tokens are followed
by ``<eos>``; the vocabulary (built from the segment read, unless ``vocab`` is
given) puts ``<unk>`` at 0, ``<eos>`` at 1, then the tokens by falling count
(ties alphabetical), as MXNet's ``contrib.text.Vocabulary``. Samples are
(data, label) rows of ``seq_len`` token indices, label = data shifted by one;
tokens that do not fill a last row are dropped.
"""
import collections
import os
import re
import shutil
import zipfile

import numpy as np

from .... import ndarray as nd
from ....base import WeftIOError
from ...data.dataset import Dataset
from ...data.vision.datasets import data_dir, download_file

__all__ = ["Vocabulary", "WikiText2", "WikiText103"]

EOS_TOKEN = "<eos>"
UNKNOWN_TOKEN = "<unk>"


def count_tokens_from_str(source_str, token_delim=" ", seq_delim="\n"):
    """A Counter of the tokens of ``source_str`` split at token and sequence delimiters."""
    tokens = filter(None, re.split(re.escape(token_delim) + "|" + re.escape(seq_delim), source_str))
    return collections.Counter(tokens)


class Vocabulary:
    """Token <-> index maps: ``<unk>`` first, then ``reserved_tokens``, then
    the counted tokens by falling frequency (ties in alphabetical order)."""

    def __init__(self, counter=None, most_freq_count=None, min_freq=1, unknown_token=UNKNOWN_TOKEN,
                 reserved_tokens=None):
        self.unknown_token = unknown_token
        self.reserved_tokens = list(reserved_tokens) if reserved_tokens else None
        self.idx_to_token = [unknown_token] + (self.reserved_tokens or [])
        self.token_to_idx = {t: i for i, t in enumerate(self.idx_to_token)}
        if counter:
            freqs = sorted(counter.items(), key=lambda x: x[0])
            freqs.sort(key=lambda x: x[1], reverse=True)
            limit = len(self.idx_to_token) + (most_freq_count if most_freq_count is not None else len(freqs))
            for token, freq in freqs:
                if freq < min_freq or len(self.idx_to_token) >= limit:
                    break
                if token not in self.token_to_idx:
                    self.token_to_idx[token] = len(self.idx_to_token)
                    self.idx_to_token.append(token)

    def __len__(self):
        return len(self.idx_to_token)

    def to_indices(self, tokens):
        """The index of each token (0, ``<unk>``, for tokens not in the vocabulary)."""
        if isinstance(tokens, str):
            return self.token_to_idx.get(tokens, 0)
        return [self.token_to_idx.get(t, 0) for t in tokens]

    def to_tokens(self, indices):
        """The token of each index."""
        if isinstance(indices, int):
            return self.idx_to_token[indices]
        return [self.idx_to_token[i] for i in indices]


class _WikiText(Dataset):
    _namespace = None
    _archive_file = None
    _data_file = None

    def __init__(self, root, segment, vocab, seq_len, download):
        if segment not in self._data_file:
            raise ValueError("segment must be one of %s, got %r" % (sorted(self._data_file), segment))
        self._root = os.path.expanduser(root)
        self._segment = segment
        self._vocab = vocab
        self._counter = None
        self._seq_len = int(seq_len)
        self._download = download
        self._get_data()

    @property
    def vocabulary(self):
        """The Vocabulary mapping tokens to the indices in the samples."""
        return self._vocab

    @property
    def frequencies(self):
        """The Counter of the tokens of the segment read."""
        return self._counter

    def _read_batch(self, filename):
        with open(filename, "r", encoding="utf8") as fin:
            content = fin.read()
        self._counter = count_tokens_from_str(content)
        if not self._vocab:
            self._vocab = Vocabulary(counter=self._counter, reserved_tokens=[EOS_TOKEN])
        lines = [line for line in (x.strip().split() for x in content.splitlines()) if line]
        tokens = [t for line in lines for t in line + [EOS_TOKEN]]
        indices = self._vocab.to_indices(tokens)
        return np.array(indices[:-1], dtype=np.int32), np.array(indices[1:], dtype=np.int32)

    def _get_data(self):
        name, _ = self._data_file[self._segment]
        path = os.path.join(self._root, name)
        if not os.path.isfile(path):
            if not self._download:
                raise WeftIOError("%s: file not found: %s (put the WikiText token files under root=%s, or pass "
                                  "download=True to fetch them)" % (type(self).__name__, path, self._root))
            self._fetch()
        data, label = self._read_batch(path)
        rows = len(data) // self._seq_len
        if rows == 0:
            raise WeftIOError("%s: %s holds %d tokens, fewer than seq_len=%d"
                              % (type(self).__name__, path, len(data) + 1, self._seq_len))
        keep = rows * self._seq_len
        self._data = nd.array(data[:keep], dtype=np.int32).reshape((-1, self._seq_len))
        self._label = nd.array(label[:keep], dtype=np.int32).reshape((-1, self._seq_len))

    def _fetch(self):
        os.makedirs(self._root, exist_ok=True)
        archive = download_file(self._namespace, self._archive_file[0], self._root, self._archive_file[1])
        with zipfile.ZipFile(archive, "r") as zf:
            for member in zf.namelist():
                filename = os.path.basename(member)
                if filename:
                    with zf.open(member) as source, open(os.path.join(self._root, filename), "wb") as target:
                        shutil.copyfileobj(source, target)

    def __getitem__(self, idx):
        return self._data[idx], self._label[idx]

    def __len__(self):
        return self._label.shape[0]


class WikiText2(_WikiText):
    """WikiText-2; ``segment`` 'train', 'validation' or 'test'."""

    _namespace = "wikitext-2"
    _archive_file = ("wikitext-2-v1.zip", "3c914d17d80b1459be871a5039ac23e752a53cbe")
    _data_file = {"train": ("wiki.train.tokens", "863f29c46ef9d167fff4940ec821195882fe29d1"),
                  "validation": ("wiki.valid.tokens", "0418625c8b4da6e4b5c7a0b9e78d4ae8f7ee5422"),
                  "test": ("wiki.test.tokens", "c7b8ce0aa086fb34dab808c5c49224211eb2b172")}

    def __init__(self, root=os.path.join(data_dir(), "datasets", "wikitext-2"), segment="train", vocab=None,
                 seq_len=35, download=False):
        super().__init__(root, segment, vocab, seq_len, download)


class WikiText103(_WikiText):
    """WikiText-103; ``segment`` 'train', 'validation' or 'test'."""

    _namespace = "wikitext-103"
    _archive_file = ("wikitext-103-v1.zip", "0aec09a7537b58d4bb65362fee27650eeaba625a")
    _data_file = {"train": ("wiki.train.tokens", "b7497e2dfe77e72cfef5e3dbc61b7b53712ac211"),
                  "validation": ("wiki.valid.tokens", "c326ac59dc587676d58c422eb8a03e119582f92b"),
                  "test": ("wiki.test.tokens", "8a5befc548865cec54ed4273cf87dbbad60d1e47")}

    def __init__(self, root=os.path.join(data_dir(), "datasets", "wikitext-103"), segment="train", vocab=None,
                 seq_len=35, download=False):
        super().__init__(root, segment, vocab, seq_len, download)
