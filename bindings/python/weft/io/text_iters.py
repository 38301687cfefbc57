"""CSVIter and LibSVMIter: MXNet 1.x's iterators over CSV and LibSVM text files.

Both read the whole file when created and batch it as MXNet's BatchLoader does
(Note [round_batch] in batch_loader.py).
"""
import os

import numpy as np

from ..base import WeftIOError
from .base import ignore_unknown
from .batch_loader import BatchLoaderIter

__all__ = ["CSVIter", "LibSVMIter"]

_DTYPES = ("float32", "int32", "int64")


def _shape(shape, what):
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(int(s) for s in shape)
    if not shape or any(s <= 0 for s in shape):
        raise ValueError("%s must be a tuple of positive sizes, got %r" % (what, shape))
    return shape


def _lines(path, what):
    path = os.fspath(path)
    try:
        with open(path, "r") as f:
            return f.read().splitlines()
    except FileNotFoundError:
        raise WeftIOError("%s: no such file: %s" % (what, path)) from None


def read_csv(path, shape, dtype, what):
    """The rows of a CSV file as an array of shape (rows,) + shape; a row of the
    wrong length or a field that is not a number is an error naming the file
    and the row."""
    size = int(np.prod(shape))
    rows = []
    for lineno, line in enumerate(_lines(path, what), 1):
        if not line.strip():
            continue
        fields = line.split(",")
        if len(fields) != size:
            raise WeftIOError("%s: %s row %d has %d values, but the shape %s needs %d"
                              % (what, path, lineno, len(fields), shape, size))
        try:
            rows.append([float(x) for x in fields])
        except ValueError:
            raise WeftIOError("%s: %s row %d holds a value that is not a number: %r" % (what, path, lineno, line)) \
                from None
    arr = np.asarray(rows, dtype=np.float64).reshape((len(rows),) + shape)
    return arr.astype(dtype)


class CSVIter(BatchLoaderIter):
    """Batches of the rows of ``data_csv``, each reshaped to ``data_shape``,
    with labels from ``label_csv`` (rows reshaped to ``label_shape``) or all
    zeros when it is None / 'NULL'. ``round_batch``: see Note [round_batch].
    ``dtype``: float32, int32 or int64 (data and label). ``prefetch_buffer``
    and ``ctx`` are accepted for MXNet compatibility (the file is read at once)."""

    def __init__(self, data_csv, data_shape, label_csv="NULL", label_shape=(1,), batch_size=1, round_batch=True,
                 prefetch_buffer=4, ctx="gpu", dtype="float32", data_name="data", label_name="softmax_label",
                 **kwargs):  # pylint: disable=unused-argument
        if kwargs:
            ignore_unknown("CSVIter", kwargs)
        dtype = np.dtype(dtype).name
        if dtype not in _DTYPES:
            raise ValueError("CSVIter: dtype must be one of %s, got %s" % (_DTYPES, dtype))
        data_shape = _shape(data_shape, "data_shape")
        label_shape = _shape(label_shape, "label_shape")
        data = read_csv(data_csv, data_shape, dtype, "CSVIter data_csv")
        if label_csv is None or label_csv == "NULL":
            label = np.zeros((len(data), 1), dtype=dtype)
        else:
            label = read_csv(label_csv, label_shape, dtype, "CSVIter label_csv")
            if len(label) < len(data):
                raise WeftIOError("CSVIter: %s has %d rows but %s has only %d (a label for every data row needed)"
                                  % (data_csv, len(data), label_csv, len(label)))
            label = label[:len(data)]
        super().__init__(data, label, batch_size, round_batch, data_name, label_name, "CSVIter")


def _parse_libsvm(path, width, what):
    """(first column, dense features of ``width`` columns) of a LibSVM file
    (zero-based ``index:value`` pairs, as MXNet's LibSVMIter)."""
    firsts, rows = [], []
    for lineno, line in enumerate(_lines(path, what), 1):
        fields = line.split()
        if not fields:
            continue
        row = np.zeros(width, dtype=np.float32)
        try:
            firsts.append(float(fields[0]))
            for pair in fields[1:]:
                index, value = pair.split(":")
                index = int(index)
                if not 0 <= index < width:
                    raise WeftIOError("%s: %s line %d: feature index %d is outside data_shape (%d columns)"
                                      % (what, path, lineno, index, width))
                row[index] = float(value)
        except ValueError:
            raise WeftIOError("%s: %s line %d is not 'label index:value ...': %r" % (what, path, lineno, line)) \
                from None
        rows.append(row)
    return np.asarray(firsts, dtype=np.float32), np.asarray(rows, dtype=np.float32).reshape(-1, width)


def _part(n, num_parts, part_index):
    if num_parts <= 0 or not 0 <= part_index < num_parts:
        raise ValueError("part_index must be in [0, num_parts), got part_index=%d, num_parts=%d"
                         % (part_index, num_parts))
    return int(n / num_parts * part_index), int(n / num_parts * (part_index + 1))


class LibSVMIter(BatchLoaderIter):
    """Batches of a LibSVM file (``label index:value ...``, zero-based indices)
    of ``data_shape`` = (columns,). Labels: the first column of ``data_libsvm``,
    or, with ``label_libsvm``, the features of that file as dense rows of
    ``label_shape``. ``num_parts`` / ``part_index`` read a contiguous share of
    the rows.

    Weft has no sparse arrays yet: the data is returned as a *dense* float32
    NDArray (batch, columns) where MXNet returns a CSRNDArray; the values are
    the same."""

    def __init__(self, data_libsvm, data_shape, label_libsvm="NULL", label_shape=(1,), batch_size=1,
                 round_batch=True, num_parts=1, part_index=0, prefetch_buffer=4, data_name="data",
                 label_name="softmax_label", **kwargs):  # pylint: disable=unused-argument
        if kwargs:
            ignore_unknown("LibSVMIter", kwargs)
        data_shape = _shape(data_shape, "data_shape")
        label_shape = _shape(label_shape, "label_shape")
        if len(data_shape) != 1:
            raise ValueError("LibSVMIter: data_shape must be (columns,), got %s" % (data_shape,))
        first, data = _parse_libsvm(data_libsvm, data_shape[0], "LibSVMIter data_libsvm")
        if label_libsvm is None or label_libsvm == "NULL":
            label = first
        else:
            if len(label_shape) != 1:
                raise ValueError("LibSVMIter: label_shape must be (columns,), got %s" % (label_shape,))
            _, label = _parse_libsvm(label_libsvm, label_shape[0], "LibSVMIter label_libsvm")
            if len(label) != len(data):
                raise WeftIOError("LibSVMIter: %s has %d rows but %s has %d"
                                  % (data_libsvm, len(data), label_libsvm, len(label)))
        start, stop = _part(len(data), num_parts, part_index)
        super().__init__(data[start:stop], label[start:stop], batch_size, round_batch, data_name, label_name,
                         "LibSVMIter")
