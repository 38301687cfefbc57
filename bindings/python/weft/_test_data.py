"""The data and statistics helpers of weft.test_utils (MXNet's names): MNIST from local
files (nothing is downloaded), DummyIter, and the mean / variance checks of samplers."""
import bz2
import gzip
import logging
import os
import zipfile

import numpy as np

from .base import InvalidArgumentError, WeftIOError
from .io import DataIter, MNISTIter
from .io.idx_format import read_idx

__all__ = ["get_mnist", "get_mnist_ubyte", "get_mnist_iterator", "DummyIter", "gen_buckets_probs_with_ppf",
           "mean_check", "var_check", "download", "get_bz2_data", "get_zip_data", "EnvManager", "is_cd_run",
           "has_tvm_ops", "is_op_runnable"]


_MNIST_FILES = {"train_label": "train-labels-idx1-ubyte", "train_data": "train-images-idx3-ubyte",
                "test_label": "t10k-labels-idx1-ubyte", "test_data": "t10k-images-idx3-ubyte"}


def _read_idx(path_base):
    """An MNIST file from ``path_base`` or ``path_base.gz`` (weft.io's idx reader)."""
    for fname in (path_base + ".gz", path_base):
        if os.path.exists(fname):
            return read_idx(fname)
    raise WeftIOError("get_mnist: %s(.gz) not found; weft downloads nothing: put MNIST's four files "
                      "(train/t10k images and labels, .gz or not) in that folder" % path_base)


def get_mnist(path="data"):
    """MNIST from the files in path: {'train_data': float32 (60000, 1, 28, 28) in [0, 1],
    'train_label': int8, 'test_data', 'test_label'} (MXNet's layout)."""
    out = {}
    for key, name in _MNIST_FILES.items():
        arr = _read_idx(os.path.join(path, name))
        if key.endswith("label"):
            out[key] = arr.astype(np.int8)
        else:
            out[key] = arr.reshape(arr.shape[0], 1, arr.shape[1], arr.shape[2]).astype(np.float32) / 255
    return out


def get_mnist_ubyte(path="data"):
    """Makes the uncompressed ``*-ubyte`` files in path from the ``.gz`` ones there."""
    for name in _MNIST_FILES.values():
        target = os.path.join(path, name)
        if os.path.exists(target):
            continue
        if not os.path.exists(target + ".gz"):
            raise WeftIOError("get_mnist_ubyte: neither %s nor %s.gz exists (weft downloads nothing)"
                              % (target, target))
        with gzip.open(target + ".gz", "rb") as zf, open(target, "wb") as out:
            out.write(zf.read())


def get_mnist_iterator(batch_size, input_shape, num_parts=1, part_index=0, path="data"):
    """(train, validation) mx.io.MNISTIter over the files in path (flat unless input_shape is 3-d)."""
    get_mnist_ubyte(path)
    flat = len(input_shape) != 3
    train = MNISTIter(image=os.path.join(path, "train-images-idx3-ubyte"),
                      label=os.path.join(path, "train-labels-idx1-ubyte"), batch_size=batch_size, shuffle=True,
                      flat=flat, num_parts=num_parts, part_index=part_index)
    val = MNISTIter(image=os.path.join(path, "t10k-images-idx3-ubyte"),
                    label=os.path.join(path, "t10k-labels-idx1-ubyte"), batch_size=batch_size, flat=flat,
                    num_parts=num_parts, part_index=part_index)
    return train, val


def DummyIter(real_iter):  # pylint: disable=invalid-name
    """An iterator that returns real_iter's first batch forever (for speed tests)."""

    class _DummyIter(DataIter):
        def __init__(self):
            super().__init__(real_iter.batch_size)
            self.real_iter = real_iter
            self.provide_data = real_iter.provide_data
            self.provide_label = real_iter.provide_label
            self.the_batch = next(real_iter)

        def next(self):
            return self.the_batch
    return _DummyIter()


def gen_buckets_probs_with_ppf(ppf, nbuckets):
    """nbuckets equal-probability buckets from a quantile function."""
    if nbuckets <= 0:
        raise InvalidArgumentError("gen_buckets_probs_with_ppf: nbuckets must be positive")
    probs = [1.0 / nbuckets for _ in range(nbuckets)]
    buckets = [(ppf(i / float(nbuckets)), ppf((i + 1) / float(nbuckets))) for i in range(nbuckets)]
    return buckets, probs


def mean_check(generator, mu, sigma, nsamples=1000000):
    """True when the sample mean of generator(nsamples) lies within mu +- 3 sigma / sqrt(n)."""
    samples = np.array(generator(nsamples))
    sample_mean = samples.mean()
    return bool(mu - 3 * sigma / np.sqrt(nsamples) < sample_mean < mu + 3 * sigma / np.sqrt(nsamples))


def var_check(generator, sigma, nsamples=1000000):
    """True when the sample variance lies within sigma^2 +- 3 sqrt(2 sigma^4 / (n - 1))."""
    samples = np.array(generator(nsamples))
    sample_var = samples.var(ddof=1)
    bound = 3 * np.sqrt(2 * sigma ** 4 / (nsamples - 1))
    return bool(sigma ** 2 - bound < sample_var < sigma ** 2 + bound)


def download(url, fname=None, dirname=None, overwrite=False, retries=5):  # pylint: disable=unused-argument
    """MXNet's download, without a network: the file is the local one MXNet would skip
    downloading (``fname``, default the URL's last part, in ``dirname``); when it does
    not exist (or ``overwrite``), WeftIOError names the file to put there."""
    if fname is None:
        fname = url.split("/")[-1]
    if dirname is not None:
        fname = os.path.join(dirname, fname)
    if not overwrite and os.path.exists(fname):
        logging.info("%s exists, skipping download", fname)
        return fname
    raise WeftIOError("download: weft downloads nothing; fetch %s yourself and save it as %s" % (url, fname))


def get_bz2_data(data_dir, data_name, url, data_origin_name):
    """Extracts ``data_dir/data_origin_name`` (a .bz2 file) to ``data_dir/data_name`` unless it exists."""
    data_name = os.path.join(data_dir, data_name)
    if os.path.exists(data_name):
        return
    origin = download(url, fname=data_origin_name, dirname=data_dir)
    with bz2.BZ2File(origin, "rb") as bz_file, open(data_name, "wb") as fout:
        for line in bz_file:
            fout.write(line)
    os.remove(origin)


def get_zip_data(data_dir, url, data_origin_name):
    """Extracts ``data_dir/data_origin_name`` (a .zip file) into data_dir."""
    origin = download(url, fname=data_origin_name, dirname=data_dir)
    with zipfile.ZipFile(origin, "r") as zf:
        zf.extractall(data_dir)


class EnvManager:
    """``with EnvManager(key, value):`` sets an environment variable and restores it after."""

    def __init__(self, key, val):
        self._key = key
        self._next_val = val
        self._prev_val = None

    def __enter__(self):
        self._prev_val = os.environ.get(self._key)
        os.environ[self._key] = self._next_val

    def __exit__(self, ptype, value, trace):
        if self._prev_val is None:
            os.environ.pop(self._key, None)
        else:
            os.environ[self._key] = self._prev_val


def is_cd_run():
    """True in MXNet's continuous-delivery jobs (CD_JOB=1)."""
    return os.environ.get("CD_JOB", "0") == "1"


def has_tvm_ops():
    """False: weft has no TVM-generated operators."""
    return False


def is_op_runnable():
    """True: without TVM operators every operator runs on every device weft has."""
    return True
