"""Vision datasets, as ``mxnet.gluon.data.vision.datasets`` in MXNet 1.x.

MNIST / FashionMNIST read MXNet's idx files (``train-images-idx3-ubyte.gz``
...; the same names without ``.gz`` are read too) and CIFAR10 / CIFAR100 the
binary versions (``data_batch_1.bin`` ... ``test_batch.bin``; ``train.bin`` /
``test.bin``) from ``root``, or from the folder the official archive unpacks
to under it. Nothing is downloaded unless ``download=True`` (then from MXNet's
dataset repository, ``$MXNET_GLUON_REPO`` or its default, with the SHA-1
checked); a missing file is an error that names it.
"""
import hashlib
import os
import shutil
import tarfile
import urllib.request
import warnings

import numpy as np

from .... import image
from .... import ndarray as nd
from .... import recordio
from ....base import WeftIOError
from ....util import is_np_array
from ....io.idx_format import read_idx
from ..dataset import Dataset
from ..record_dataset import RecordFileDataset

__all__ = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageRecordDataset", "ImageFolderDataset",
           "ImageListDataset"]

_DEFAULT_REPO = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/"


def _array_in_mode(data):
    """The images as a device array: a weft.np.ndarray when NumPy mode is on at
    construction, as MXNet 1.9.1's datasets make them (``_mx_np.array``)."""
    arr = nd.array(data, dtype=data.dtype)
    return arr.as_np_ndarray() if is_np_array() else arr


def data_dir():
    """Where datasets live by default: $MXNET_HOME, else ~/.mxnet (as MXNet)."""
    return os.environ.get("MXNET_HOME", os.path.join(os.path.expanduser("~"), ".mxnet"))


def _sha1(path):
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def download_file(namespace, filename, root, sha1_hash):
    """Fetches ``filename`` of ``namespace`` from MXNet's dataset repository
    into ``root`` and checks its SHA-1; an error names the URL on failure."""
    repo = os.environ.get("MXNET_GLUON_REPO", _DEFAULT_REPO)
    if not repo.endswith("/"):
        repo += "/"
    url = "%sgluon/dataset/%s/%s" % (repo, namespace, filename)
    path = os.path.join(root, filename)
    tmp = path + ".part"
    try:
        with urllib.request.urlopen(url, timeout=60) as src, open(tmp, "wb") as dst:
            shutil.copyfileobj(src, dst)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise WeftIOError("cannot download %s (%s)" % (url, e)) from None
    if sha1_hash and _sha1(tmp) != sha1_hash:
        os.remove(tmp)
        raise WeftIOError("downloaded %s has the wrong SHA-1 (expected %s); not kept" % (url, sha1_hash))
    os.replace(tmp, path)
    return path


class _DownloadedDataset(Dataset):
    """A dataset held in memory: ``_data`` (NDArray) and ``_label`` (numpy)."""

    def __init__(self, root, transform, download):
        super().__init__()
        self._transform = transform
        self._download = download
        self._data = None
        self._label = None
        self._root = os.path.expanduser(root)
        if not os.path.isdir(self._root):
            os.makedirs(self._root)
        self._get_data()

    def __getitem__(self, idx):
        if self._transform is not None:
            return self._transform(self._data[idx], self._label[idx])
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)

    def _get_data(self):
        raise NotImplementedError

    def _missing(self, names):
        return WeftIOError("%s: file not found: %s (put the dataset files under root=%s, or pass download=True "
                           "to fetch them)" % (type(self).__name__, " ".join(names), self._root))


class MNIST(_DownloadedDataset):
    """The MNIST digits: samples (image (28, 28, 1) uint8 NDArray, label int32)."""

    _namespace = "mnist"
    _files = {True: (("train-images-idx3-ubyte.gz", "6c95f4b05d2bf285e1bfb0e7960c31bd3b3f8a7d"),
                     ("train-labels-idx1-ubyte.gz", "2a80914081dc54586dbdf242f9805a6b8d2a15fc")),
              False: (("t10k-images-idx3-ubyte.gz", "c3a25af1f52dad7f726cce8cacb138654b760d48"),
                      ("t10k-labels-idx1-ubyte.gz", "763e7fa3757d93b0cdec073cef058b2004252c17"))}

    def __init__(self, root=os.path.join(data_dir(), "datasets", "mnist"), train=True, transform=None,
                 download=False):
        self._train = train
        super().__init__(root, transform, download)

    def _find(self, name, sha1):
        for candidate in (name, name[:-3]):
            path = os.path.join(self._root, candidate)
            if os.path.isfile(path):
                return path
        if not self._download:
            raise self._missing([os.path.join(self._root, name)])
        return download_file(self._namespace, name, self._root, sha1)

    def _get_data(self):
        (data_name, data_sha1), (label_name, label_sha1) = self._files[bool(self._train)]
        data_file = self._find(data_name, data_sha1)
        label_file = self._find(label_name, label_sha1)
        label = read_idx(label_file)
        data = read_idx(data_file)
        if data.ndim != 3 or label.ndim != 1:
            raise WeftIOError("%s: %s must hold (count, rows, cols) images and %s (count,) labels"
                              % (type(self).__name__, data_file, label_file))
        if len(data) != len(label):
            raise WeftIOError("%s: %s has %d images but %s has %d labels"
                              % (type(self).__name__, data_file, len(data), label_file, len(label)))
        data = data.astype(np.uint8).reshape(len(label), data.shape[1], data.shape[2], 1)
        self._data = _array_in_mode(data)
        self._label = label.astype(np.int32)


class FashionMNIST(MNIST):
    """Fashion-MNIST (Zalando's article images), in MNIST's file format and names."""

    _namespace = "fashion-mnist"
    _files = {True: (("train-images-idx3-ubyte.gz", "0cf37b0d40ed5169c6b3aba31069a9770ac9043d"),
                     ("train-labels-idx1-ubyte.gz", "236021d52f1e40852b06a4c3008d8de8aef1e40b")),
              False: (("t10k-images-idx3-ubyte.gz", "626ed6a7c06dd17c0eec72fa3be1740f146a2863"),
                      ("t10k-labels-idx1-ubyte.gz", "17f9ab60e7257a1620f4ad76bbbaf857c3920701"))}

    # MXNet's default folder is its own (~/.mxnet/datasets/fashion-mnist), not MNIST's.
    def __init__(self, root=os.path.join(data_dir(), "datasets", "fashion-mnist"), train=True, transform=None,
                 download=False):
        super().__init__(root, train, transform, download)


class CIFAR10(_DownloadedDataset):
    """CIFAR-10: samples (image (32, 32, 3) uint8 NDArray, label int32), from
    the binary batches (rows of 1 label byte + 3072 pixel bytes, CHW)."""

    _namespace = "cifar10"
    _archive = ("cifar-10-binary.tar.gz", "fab780a1e191a7eda0f345501ccd62d20f7ed891")
    _subdir = "cifar-10-batches-bin"
    _train_files = ["data_batch_%d.bin" % i for i in range(1, 6)]
    _test_files = ["test_batch.bin"]
    _label_bytes = 1

    def __init__(self, root=os.path.join(data_dir(), "datasets", "cifar10"), train=True, transform=None,
                 download=False):
        self._train = train
        super().__init__(root, transform, download)

    def _label_column(self):
        return 0

    def _read_batch(self, filename):
        row = 3072 + self._label_bytes
        with open(filename, "rb") as fin:
            raw = np.frombuffer(fin.read(), dtype=np.uint8)
        if raw.size % row:
            raise WeftIOError("%s: %s is %d bytes, not a whole number of %d-byte records (truncated?)"
                              % (type(self).__name__, filename, raw.size, row))
        raw = raw.reshape(-1, row)
        data = raw[:, self._label_bytes:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        return data, raw[:, self._label_column()].astype(np.int32)

    def _locate(self, names):
        for folder in (self._root, os.path.join(self._root, self._subdir)):
            paths = [os.path.join(folder, n) for n in names]
            if all(os.path.isfile(p) for p in paths):
                return paths
        return None

    def _get_data(self):
        names = self._train_files if self._train else self._test_files
        paths = self._locate(names)
        if paths is None:
            if not self._download:
                raise self._missing([os.path.join(self._root, n) for n in names
                                     if not os.path.isfile(os.path.join(self._root, n))])
            archive = download_file(self._namespace, self._archive[0], self._root, self._archive[1])
            with tarfile.open(archive) as tar:
                if hasattr(tarfile, "data_filter"):
                    tar.extractall(self._root, filter="data")
                else:
                    tar.extractall(self._root)  # the SHA-1 was checked
            paths = self._locate(names)
            if paths is None:
                raise self._missing(names)
        data, label = zip(*(self._read_batch(p) for p in paths))
        data = np.ascontiguousarray(np.concatenate(data))
        self._data = _array_in_mode(data)
        self._label = np.concatenate(label)


class CIFAR100(CIFAR10):
    """CIFAR-100: rows of coarse label, fine label, 3072 pixels; ``fine_label``
    picks the 100 fine classes instead of the 20 coarse ones."""

    _namespace = "cifar100"
    _archive = ("cifar-100-binary.tar.gz", "a0bb982c76b83111308126cc779a992fa506b90b")
    _subdir = "cifar-100-binary"
    _train_files = ["train.bin"]
    _test_files = ["test.bin"]
    _label_bytes = 2

    def __init__(self, root=os.path.join(data_dir(), "datasets", "cifar100"), fine_label=False, train=True,
                 transform=None, download=False):
        self._fine_label = fine_label
        super().__init__(root, train, transform, download)

    def _label_column(self):
        return 1 if self._fine_label else 0


class ImageRecordDataset(RecordFileDataset):
    """The images of a RecordIO file (``filename``, with its ``.idx`` beside
    it): samples (decoded HWC uint8 NDArray, the header's label). ``flag`` 1
    colour, 0 gray."""

    def __init__(self, filename, flag=1, transform=None):
        super().__init__(filename)
        self._flag = flag
        self._transform = transform

    def __getitem__(self, idx):
        record = super().__getitem__(idx)
        try:
            header, img = recordio.unpack(record)
            img = image.imdecode(img, self._flag)
        except WeftIOError as e:
            raise WeftIOError("%s record %d (key %s): %s" % (self.filename, idx, self._record.keys[idx], e)) \
                from None
        if self._transform is not None:
            return self._transform(img, header.label)
        return img, header.label


class ImageFolderDataset(Dataset):
    """Images in class folders: ``root/<class>/<image>``. ``synsets`` lists the
    class names (sorted), ``items`` the (path, label) pairs; files that are
    not .jpg / .jpeg / .png are skipped with a warning."""

    def __init__(self, root, flag=1, transform=None):
        self._root = os.path.expanduser(root)
        self._flag = flag
        self._transform = transform
        self._exts = [".jpg", ".jpeg", ".png"]
        self._list_images(self._root)

    def _list_images(self, root):
        if not os.path.isdir(root):
            raise WeftIOError("ImageFolderDataset: no such folder: %s" % root)
        self.synsets = []
        self.items = []
        for folder in sorted(os.listdir(root)):
            path = os.path.join(root, folder)
            if not os.path.isdir(path):
                warnings.warn("Ignoring %s, which is not a directory." % path, stacklevel=3)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for filename in sorted(os.listdir(path)):
                filename = os.path.join(path, filename)
                ext = os.path.splitext(filename)[1]
                if ext.lower() not in self._exts:
                    warnings.warn("Ignoring %s of type %s. Only support %s" % (filename, ext, ", ".join(self._exts)))
                    continue
                self.items.append((filename, label))

    def __getitem__(self, idx):
        img = image.imread(self.items[idx][0], self._flag)
        label = self.items[idx][1]
        if self._transform is not None:
            return self._transform(img, label)
        return img, label

    def __len__(self):
        return len(self.items)


class ImageListDataset(Dataset):
    """Images listed in ``imglist``: a ``.lst`` file under ``root`` (lines
    ``index\\tlabel...\\tpath``) or a list of [label..., path]. Samples:
    (image, label as a float32 NDArray)."""

    def __init__(self, root=".", imglist=None, flag=1):
        self._root = root
        self._flag = flag
        self._imglist = {}
        self._imgkeys = []
        if isinstance(imglist, str):
            fname = os.path.join(self._root, imglist)
            try:
                fin = open(fname, "rt")
            except FileNotFoundError:
                raise WeftIOError("ImageListDataset: no such image list: %s" % fname) from None
            with fin:
                for lineno, line in enumerate(iter(fin.readline, ""), 1):
                    fields = line.strip().split("\t")
                    if len(fields) < 3:
                        raise WeftIOError("%s: line %d is not 'index<TAB>label...<TAB>path': %r"
                                          % (fname, lineno, line))
                    label = nd.array([float(x) for x in fields[1:-1]])
                    key = int(fields[0])
                    self._imglist[key] = (label, os.path.join(self._root, fields[-1]))
                    self._imgkeys.append(key)
        elif isinstance(imglist, list):
            for index, img in enumerate(imglist, 1):
                key = str(index)
                if len(img) > 2:
                    label = nd.array(img[:-1])
                elif isinstance(img[0], (int, float, np.number)):
                    label = nd.array([img[0]])
                else:
                    label = nd.array(img[0])
                if not isinstance(img[-1], str):
                    raise ValueError("ImageListDataset: the last item of each entry must be a path, got %r" % img)
                self._imglist[key] = (label, os.path.join(self._root, img[-1]))
                self._imgkeys.append(key)
        else:
            raise ValueError("imglist must be the name of a .lst file or a list, got %r" % type(imglist))

    def __getitem__(self, idx):
        key = self._imgkeys[idx]
        img = image.imread(self._imglist[key][1], self._flag)
        return img, self._imglist[key][0]

    def __len__(self):
        return len(self._imgkeys)
