"""Helpers of Gluon (MXNet 1.x's ``mxnet.gluon.utils``): splitting a batch
across devices, clipping gradients by their global norm, checking and
downloading files, and small text helpers used by Block and Parameter reprs.
"""
import hashlib
import os
import ssl
import urllib.request
import uuid
import warnings
import weakref
from collections import OrderedDict

import numpy as np

from .. import ndarray
from ..base import InvalidArgumentError
from ..context import Context

__all__ = ["split_data", "split_and_load", "clip_global_norm", "check_sha1", "download", "shape_is_known",
           "HookHandle"]


def split_data(data, num_slice, batch_axis=0, even_split=True):
    """Splits ``data`` (an NDArray) into ``num_slice`` slices along ``batch_axis``.

    With ``even_split`` the axis length must be a multiple of ``num_slice``;
    otherwise the last slices may be one element shorter (MXNet's rule). One
    slice returns ``[data]``."""
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise InvalidArgumentError(
            "data with shape %s cannot be evenly split into %d slices along axis %d. "
            "Use a batch size that's multiple of %d or set even_split=False to allow "
            "uneven partitioning of data." % (str(data.shape), num_slice, batch_axis, num_slice))
    if size < num_slice:
        raise InvalidArgumentError("Too many slices for data with shape %s. Arguments are num_slice=%d and "
                                   "batch_axis=%d." % (str(data.shape), num_slice, batch_axis))
    n_each_section, extras = divmod(size, num_slice)
    section_sizes = [0] + (extras * [n_each_section + 1] + (num_slice - extras) * [n_each_section])
    div_points = np.array(section_sizes).cumsum()
    if num_slice == 1:
        return [data]
    slices = []
    for i in range(num_slice):
        st, end = int(div_points[i]), int(div_points[i + 1])
        if batch_axis == 0:
            slices.append(data[st:end])
        else:
            slices.append(ndarray.slice_axis(data, axis=batch_axis, begin=st, end=end))
    return slices


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Splits ``data`` (an NDArray or numpy array) along ``batch_axis`` and
    copies slice i to ``ctx_list[i]``; returns the list of slices."""
    if isinstance(ctx_list, Context):
        ctx_list = [ctx_list]
    if not isinstance(data, ndarray.NDArray):
        data = ndarray.array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [i.as_in_context(ctx) for i, ctx in zip(slices, ctx_list)]


def clip_global_norm(arrays, max_norm, check_isfinite=True):
    """Rescales ``arrays`` in place so that the 2-norm of their concatenation is
    at most ``max_norm``; returns that norm before clipping (a float, or an
    NDArray when ``check_isfinite`` is False)."""
    if not arrays:
        raise InvalidArgumentError("clip_global_norm: arrays is empty")
    ctx = arrays[0].context
    total = ndarray.add_n(*[ndarray.dot(x, x).as_in_context(ctx)
                            for x in (a.reshape((-1,)) for a in arrays)])
    total_norm = ndarray.sqrt(total)
    if check_isfinite:
        value = float(total_norm.asscalar())
        if not np.isfinite(value):
            warnings.warn(UserWarning("nan or inf is detected. Clipping results will be undefined."),
                          stacklevel=2)
    scale = max_norm / (total_norm + 1e-8)
    scale = ndarray.minimum(scale, ndarray.ones((1,), ctx=ctx, dtype=scale.dtype))
    for arr in arrays:
        arr *= scale.as_in_context(arr.context)
    if check_isfinite:
        return value
    return total_norm


def check_sha1(filename, sha1_hash):
    """True when the SHA-1 of the file's contents is ``sha1_hash`` (hex)."""
    sha1 = hashlib.sha1()
    with open(filename, "rb") as f:
        while True:
            data = f.read(1048576)
            if not data:
                break
            sha1.update(data)
    return sha1.hexdigest() == sha1_hash


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Downloads ``url`` to ``path`` (a file or directory; default: the URL's
    file name in the working directory) unless it is there already (and matches
    ``sha1_hash``). Returns the file name."""
    if path is None:
        fname = url.split("/")[-1]
        if not fname:
            raise InvalidArgumentError("Can't construct file-name from this URL. Please set the `path` option.")
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, url.split("/")[-1]) if os.path.isdir(path) else path
    if retries < 0:
        raise InvalidArgumentError("Number of retries should be at least 0, currently it's %d" % retries)
    if not overwrite and os.path.exists(fname) and (not sha1_hash or check_sha1(fname, sha1_hash)):
        return fname
    dirname = os.path.dirname(os.path.abspath(os.path.expanduser(fname)))
    os.makedirs(dirname, exist_ok=True)
    context = None if verify_ssl else ssl._create_unverified_context()  # pylint: disable=protected-access
    while retries + 1 > 0:
        try:
            tmp = "%s.%s" % (fname, uuid.uuid4())
            with urllib.request.urlopen(url, context=context) as r, open(tmp, "wb") as f:
                while True:
                    chunk = r.read(1 << 20)
                    if not chunk:
                        break
                    f.write(chunk)
            os.replace(tmp, fname)
            if sha1_hash and not check_sha1(fname, sha1_hash):
                raise UserWarning("File %s is downloaded but the content hash does not match. The repo may be "
                                  "outdated or download may be incomplete. If the `repo_url` is overridden, "
                                  "consider switching to the default repo." % fname)
            break
        except Exception as e:  # pylint: disable=broad-except
            retries -= 1
            if retries <= 0:
                raise e
    return fname


def shape_is_known(shape):
    """True when ``shape`` is a tuple without unknown (0) dimensions (legacy
    shape semantics of MXNet 1.x: 0 means unknown)."""
    if shape is None:
        return False
    if len(shape) == 0:
        return False
    return all(int(d) > 0 for d in shape)


def _indent(s_, num_spaces):
    """Indents every line of ``s_`` but the first by ``num_spaces``."""
    lines = s_.split("\n")
    if len(lines) == 1:
        return s_
    first = lines.pop(0)
    return "\n".join([first] + [(num_spaces * " ") + line for line in lines])


def _brief_print_list(lst, limit=7):
    """The first and last few items of ``lst`` as quoted text."""
    lst = list(lst)
    if len(lst) > limit:
        return _brief_print_list(lst[:limit // 2], limit) + ", ..., " + \
            _brief_print_list(lst[-limit // 2:], limit)
    return ", ".join(["'%s'" % str(i) for i in lst])


class HookHandle:
    """Returned by ``register_forward_hook``; ``detach()`` removes the hook
    (also usable as a with-block)."""

    _next_id = 0

    def __init__(self):
        self._hooks_dict_ref = None
        self._id = None

    def attach(self, hooks_dict, hook):
        """Adds ``hook`` to ``hooks_dict`` (an OrderedDict) under a new id."""
        if self._hooks_dict_ref is not None:
            raise InvalidArgumentError("The same handle cannot be attached twice.")
        self._id = HookHandle._next_id
        HookHandle._next_id += 1
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = weakref.ref(hooks_dict)

    def detach(self):
        """Removes the hook (a no-op when it is gone already)."""
        hooks_dict = self._hooks_dict_ref() if self._hooks_dict_ref is not None else None
        if hooks_dict is not None and self._id in hooks_dict:
            del hooks_dict[self._id]

    def __getstate__(self):
        return (self._hooks_dict_ref() if self._hooks_dict_ref is not None else None, self._id)

    def __setstate__(self, state):
        if state[0] is None:
            self._hooks_dict_ref = weakref.ref(OrderedDict())
        else:
            self._hooks_dict_ref = weakref.ref(state[0])
        self._id = state[1]

    def __enter__(self):
        return self

    def __exit__(self, ptype, value, trace):
        self.detach()


def replace_file(src, dst):
    """Moves src over dst atomically (MXNet's replace_file); on failure src is
    removed and OSError names both."""
    try:
        os.replace(src, dst)
    except OSError as err:
        try:
            os.remove(src)
        except OSError:
            pass
        raise OSError("Moving downloaded temp file - {}, to {} failed. Please retry the download.".format(src, dst)) \
            from err
