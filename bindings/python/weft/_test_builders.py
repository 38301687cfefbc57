"""The rest of MXNet 1.9.1's mx.test_utils names: the sparse builders (Weft's
arrays are dense, so they refuse csr / row_sparse, saying so), the matrix
generators, the model/data fetchers over weft's local-file ``download``, and
check_gluon_hybridize_consistency. Kept apart from test_utils.py for file size."""
import os
import platform
import zipfile

import numpy as np

from . import autograd, initializer
from . import ndarray as nd
from ._test_compare import assert_almost_equal
from ._test_data import download
from .base import InvalidArgumentError

__all__ = ["rand_sparse_ndarray", "create_sparse_array", "create_sparse_array_zd", "shuffle_csr_column_indices",
           "get_identity_mat", "get_identity_mat_batch", "is_aarch64_run", "new_orthonormal_matrix_2d",
           "new_matrix_with_real_eigvals_2d", "new_matrix_with_real_eigvals_nd", "new_sym_matrix_with_real_eigvals_2d",
           "new_sym_matrix_with_real_eigvals_nd", "download_model", "get_cifar10", "get_im2rec_path",
           "check_gluon_hybridize_consistency"]


def _dense_only(fn, stype):
    raise InvalidArgumentError("%s: weft arrays are dense: storage type %r is not available (only 'default')"
                               % (fn, stype))


def rand_sparse_ndarray(shape, stype, density=None, dtype=None, distribution=None,  # pylint: disable=unused-argument
                        data_init=None, rsp_indices=None, modifier_func=None, shuffle_csr_indices=False, ctx=None):
    """MXNet builds a random csr / row_sparse array; weft has dense arrays only."""
    _dense_only("rand_sparse_ndarray", stype)


def create_sparse_array(shape, stype, data_init=None, rsp_indices=None,  # pylint: disable=unused-argument
                        dtype=None, modifier_func=None, density=0.5, shuffle_csr_indices=False):
    """MXNet builds a csr / row_sparse array; weft has dense arrays only."""
    _dense_only("create_sparse_array", stype)


def create_sparse_array_zd(shape, stype, density, data_init=None, rsp_indices=None,  # pylint: disable=unused-argument
                           dtype=None, modifier_func=None, shuffle_csr_indices=False):
    """MXNet builds a csr / row_sparse array; weft has dense arrays only."""
    _dense_only("create_sparse_array_zd", stype)


def shuffle_csr_column_indices(csr):  # pylint: disable=unused-argument
    """MXNet shuffles a csr array's column indices; weft has no csr arrays."""
    _dense_only("shuffle_csr_column_indices", "csr")


def get_identity_mat(size):
    """The (size, size) identity as an NDArray."""
    return nd.array(np.eye(size, dtype=np.float32))


def get_identity_mat_batch(size):
    """Two stacked identities, shape (2, size, size)."""
    eye = np.eye(size, dtype=np.float32)
    return nd.array(np.stack([eye, eye]))


def is_aarch64_run():
    """True on an aarch64 machine."""
    return platform.machine() == "aarch64"


def new_orthonormal_matrix_2d(n):
    """A random (n, n) orthonormal matrix (Q of the QR of a random Gram matrix)."""
    x = np.random.randn(n, n)
    return np.linalg.qr(x.T @ x)[0]


def new_matrix_with_real_eigvals_2d(n):
    """A well-conditioned (n, n) matrix with real eigenvalues in [-10, 10]:
    q^-1 D q for a Householder-times-diagonal q of condition number < 3."""
    while True:
        d = np.diag(np.random.uniform(-1.0, 1.0, n))
        v = np.random.uniform(-1.0, 1.0, (n, 1))
        v /= np.linalg.norm(v)
        q = (np.eye(n) - 2 * v @ v.T) @ d
        if np.linalg.cond(q, 2) < 3:
            break
    eig = np.diag(np.random.uniform(-10.0, 10.0, n))
    return np.linalg.inv(q) @ eig @ q


def new_matrix_with_real_eigvals_nd(shape):
    """A batch of new_matrix_with_real_eigvals_2d(shape[-1]) of the given shape."""
    count = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_matrix_with_real_eigvals_2d(shape[-1]) for _ in range(count)]).reshape(shape)


def new_sym_matrix_with_real_eigvals_2d(n):
    """A random symmetric (n, n) matrix with eigenvalues in [-10, 10]."""
    q = new_orthonormal_matrix_2d(n)
    return q.T @ np.diag(np.random.uniform(-10.0, 10.0, n)) @ q


def new_sym_matrix_with_real_eigvals_nd(shape):
    """A batch of new_sym_matrix_with_real_eigvals_2d(shape[-1]) of the given shape."""
    count = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_sym_matrix_with_real_eigvals_2d(shape[-1]) for _ in range(count)]).reshape(shape)


_MODEL_URL = "http://data.mxnet.io/models/"
_MODELS = {
    "imagenet1k-inception-bn": ("imagenet/inception-bn/Inception-BN-symbol.json",
                                "imagenet/inception-bn/Inception-BN-0126.params"),
    "imagenet1k-resnet-18": ("imagenet/resnet/18-layers/resnet-18-symbol.json",
                             "imagenet/resnet/18-layers/resnet-18-0000.params"),
    "imagenet1k-resnet-34": ("imagenet/resnet/34-layers/resnet-34-symbol.json",
                             "imagenet/resnet/34-layers/resnet-34-0000.params"),
    "imagenet1k-resnet-50": ("imagenet/resnet/50-layers/resnet-50-symbol.json",
                             "imagenet/resnet/50-layers/resnet-50-0000.params"),
    "imagenet1k-resnet-101": ("imagenet/resnet/101-layers/resnet-101-symbol.json",
                              "imagenet/resnet/101-layers/resnet-101-0000.params"),
    "imagenet1k-resnet-152": ("imagenet/resnet/152-layers/resnet-152-symbol.json",
                              "imagenet/resnet/152-layers/resnet-152-0000.params"),
}


def download_model(model_name, dst_dir="./", meta_info=None):
    """MXNet's download_model over weft's ``download`` (local files only: it
    names the file to fetch when missing). Returns (path prefix, epoch 0), or
    (None, 0) for a model it does not know, as MXNet."""
    if meta_info is None:
        meta_info = {k: {"symbol": _MODEL_URL + s, "params": _MODEL_URL + p} for k, (s, p) in _MODELS.items()}
    meta_info = dict(meta_info)
    if model_name not in meta_info:
        return (None, 0)
    meta = dict(meta_info[model_name])
    if "symbol" not in meta or "params" not in meta:
        raise InvalidArgumentError("download_model: meta_info[%r] needs 'symbol' and 'params' URLs" % (model_name,))
    if not os.path.isdir(dst_dir):
        os.mkdir(dst_dir)
    prefix = os.path.join(dst_dir, model_name)
    download(meta["symbol"], prefix + "-symbol.json")
    download(meta["params"], prefix + "-0000.params")
    return (prefix, 0)


def get_cifar10():
    """MXNet's CIFAR-10 RecordIO files in data/cifar (train.rec, test.rec, train.lst,
    test.lst): extracted from data/cifar10.zip, which must be there (weft downloads nothing)."""
    os.makedirs("data", exist_ok=True)
    want = ["data/cifar/%s" % f for f in ("train.rec", "test.rec", "train.lst", "test.lst")]
    if not all(os.path.exists(f) for f in want):
        path = download("http://data.mxnet.io/mxnet/data/cifar10.zip", dirname="data")
        with zipfile.ZipFile(path) as zf:
            for member in zf.namelist():  # refuse paths that would leave data/
                target = os.path.realpath(os.path.join("data", member))
                if not target.startswith(os.path.realpath("data") + os.sep):
                    raise InvalidArgumentError("get_cifar10: %s holds an unsafe path %r" % (path, member))
            zf.extractall("data")


def get_im2rec_path(home_env="MXNET_HOME"):  # pylint: disable=unused-argument
    """The path of the im2rec tool (weft ships it as weft/tools/im2rec.py)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools", "im2rec.py")
    if not os.path.isfile(path):
        raise IOError("im2rec.py is not in %s" % os.path.dirname(path))
    return path


def check_gluon_hybridize_consistency(net_builder, data_l, numpy_func=None, test_grad=True, rtol=1E-4, atol=1E-4):
    """Checks that net_builder(prefix='net_')'s output (and, with test_grad, the
    inputs' gradients of out.backward(out)) agree imperative vs hybridized, all
    runs starting from the first run's parameters; and, given numpy_func, that
    the output matches it. The network must draw no random numbers."""

    class _FromNumpy(initializer.Initializer):
        def __init__(self, values):
            super().__init__()
            self._values = values

        def _init_weight(self, name, arr):
            arr[:] = self._values[str(name)]

        # Every parameter kind takes the first run's value, not only weights.
        _init_bias = _init_gamma = _init_beta = _init_default = _init_weight

    saved_out, saved_grads, init = None, None, None
    for hybridize in (False, True):
        for use_autograd in ((False, True) if test_grad else (False,)):
            net = net_builder(prefix="net_")
            if init is None:
                net.initialize()
            else:
                net.initialize(init)
            if hybridize:
                net.hybridize()
            inputs = [x.copy() for x in data_l]
            if use_autograd:
                for x in inputs:
                    x.attach_grad()
                with autograd.record():
                    out = net(*inputs)
                out.backward(out)
            else:
                out = net(*inputs)
            if init is None:
                init = _FromNumpy({k: v.data().asnumpy() for k, v in net.collect_params().items()})
            if saved_out is None:
                saved_out = out.asnumpy()
            else:
                assert_almost_equal(out.asnumpy(), saved_out, rtol=rtol, atol=atol)
            if use_autograd:
                grads = [x.grad.asnumpy() for x in inputs]
                if saved_grads is None:
                    saved_grads = grads
                else:
                    for g, want in zip(grads, saved_grads):
                        assert_almost_equal(g, want, rtol=rtol, atol=atol)
    if numpy_func is not None:
        assert_almost_equal(saved_out, numpy_func(*[x.asnumpy() for x in data_l]), rtol=rtol, atol=atol)
