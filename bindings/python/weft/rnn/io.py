"""mx.rnn.io: sentence encoding and the bucketing sentence iterator (MXNet 1.9.1).

Note [Empty buckets]
    MXNet's BucketSentenceIter fails in reset() when a bucket given explicitly holds
    no sentence (the empty bucket becomes a 1-d array). Here an empty bucket is a
    (0, bucket_length) array that simply yields no batch.
"""
import bisect
import logging
import random

import numpy as np

from .. import ndarray
from ..base import InvalidArgumentError
from ..io import DataBatch, DataDesc, DataIter

__all__ = ["encode_sentences", "BucketSentenceIter"]


def encode_sentences(sentences, vocab=None, invalid_label=-1, invalid_key="\n", start_label=0,
                     unknown_token=None):
    """Encodes sentences (lists of tokens) as lists of integer ids.

    Parameters
    ----------
    sentences : list of list of str
    vocab : dict or None
        token -> id; None builds a new one (with invalid_key -> invalid_label).
    invalid_label : int, default -1
        The id never given to a token (padding).
    invalid_key : str, default '\\n'
    start_label : int, default 0
        The first id given to a new token.
    unknown_token : str or None
        With a given vocab, tokens not in it map to this token's id (added if new).
        MXNet 1.9.1 gives the unknown token a fresh id at every unknown word (so
        earlier sentences keep stale ids); here it gets one id, the first time.

    Returns
    -------
    (list of list of int, dict)
    """
    idx = start_label
    if vocab is None:
        vocab = {invalid_key: invalid_label}
        new_vocab = True
    else:
        new_vocab = False
    res = []
    for sent in sentences:
        coded = []
        for word in sent:
            if word not in vocab:
                if not (new_vocab or unknown_token):
                    raise InvalidArgumentError("encode_sentences: unknown token %r (not in vocab and no "
                                               "unknown_token given)" % (word,))
                if idx == invalid_label:
                    idx += 1
                if unknown_token:
                    word = unknown_token
                if word not in vocab:
                    vocab[word] = idx
                    idx += 1
            coded.append(vocab[word])
        res.append(coded)
    return res, vocab


class BucketSentenceIter(DataIter):
    """Batches of encoded sentences, each batch from one bucket (all sentences padded
    with invalid_label to the bucket's length); the label is the data shifted left
    by one (next-token prediction). ``batch.bucket_key`` is the bucket length.

    Parameters
    ----------
    sentences : list of list of int
    batch_size : int
    buckets : list of int or None
        Bucket lengths; None makes one bucket per sentence length with at least
        batch_size sentences. Longer sentences are discarded (with a warning).
    invalid_label : int, default -1
    data_name : str, default 'data'
    label_name : str, default 'softmax_label'
    dtype : str, default 'float32'
    layout : {'NT', 'TN'}, default 'NT'
    """

    def __init__(self, sentences, batch_size, buckets=None, invalid_label=-1, data_name="data",
                 label_name="softmax_label", dtype="float32", layout="NT"):
        super().__init__()
        if layout not in ("NT", "TN"):
            raise InvalidArgumentError("BucketSentenceIter: invalid layout %r: must be NT (batch major) or "
                                       "TN (time major)" % (layout,))
        if int(batch_size) <= 0:
            raise InvalidArgumentError("BucketSentenceIter: batch_size must be positive, got %r" % (batch_size,))
        if not buckets:
            buckets = [i for i, j in enumerate(np.bincount([len(s) for s in sentences])) if j >= batch_size]
        buckets = sorted(buckets)
        if not buckets:
            raise InvalidArgumentError("BucketSentenceIter: no bucket (no sentence length occurs batch_size=%d "
                                       "times; pass buckets=)" % batch_size)
        ndiscard = 0
        data = [[] for _ in buckets]
        for sent in sentences:
            buck = bisect.bisect_left(buckets, len(sent))
            if buck == len(buckets):
                ndiscard += 1
                continue
            buff = np.full((buckets[buck],), invalid_label, dtype=dtype)
            buff[:len(sent)] = sent
            data[buck].append(buff)
        # Note [Empty buckets]
        self.data = [np.asarray(d, dtype=dtype).reshape((len(d), n)) for d, n in zip(data, buckets)]
        if ndiscard:
            logging.warning("BucketSentenceIter: discarded %d sentences longer than the largest bucket.", ndiscard)

        self.batch_size = batch_size
        self.buckets = buckets
        self.data_name = data_name
        self.label_name = label_name
        self.dtype = dtype
        self.invalid_label = invalid_label
        self.nddata = []
        self.ndlabel = []
        self.major_axis = layout.find("N")
        self.layout = layout
        self.default_bucket_key = max(buckets)
        shape = ((batch_size, self.default_bucket_key) if self.major_axis == 0
                 else (self.default_bucket_key, batch_size))
        self.provide_data = [DataDesc(name=self.data_name, shape=shape, layout=self.layout)]
        self.provide_label = [DataDesc(name=self.label_name, shape=shape, layout=self.layout)]

        self.idx = []
        for i, buck in enumerate(self.data):
            self.idx.extend([(i, j) for j in range(0, len(buck) - batch_size + 1, batch_size)])
        self.curr_idx = 0
        self.reset()

    def reset(self):
        """Reshuffles the batch order and each bucket's sentences (with Python's
        ``random`` and NumPy's global generators, as MXNet)."""
        self.curr_idx = 0
        random.shuffle(self.idx)
        for buck in self.data:
            np.random.shuffle(buck)
        self.nddata = []
        self.ndlabel = []
        for buck in self.data:
            label = np.empty_like(buck)
            label[:, :-1] = buck[:, 1:]
            label[:, -1] = self.invalid_label
            self.nddata.append(ndarray.array(buck, dtype=self.dtype))
            self.ndlabel.append(ndarray.array(label, dtype=self.dtype))

    def next(self):
        """The next batch; StopIteration at the end of the epoch."""
        if self.curr_idx == len(self.idx):
            raise StopIteration
        i, j = self.idx[self.curr_idx]
        self.curr_idx += 1
        data = self.nddata[i][j:j + self.batch_size]
        label = self.ndlabel[i][j:j + self.batch_size]
        if self.major_axis == 1:
            data, label = data.T, label.T
        return DataBatch([data], [label], pad=0, bucket_key=self.buckets[i],
                         provide_data=[DataDesc(name=self.data_name, shape=data.shape, layout=self.layout)],
                         provide_label=[DataDesc(name=self.label_name, shape=label.shape, layout=self.layout)])
