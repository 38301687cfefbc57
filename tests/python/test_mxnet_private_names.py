"""The private names MXNet 1.9.1's legacy test modules import at module level, and
`from mxnet.test_utils import *` bringing what MXNet's module (which has no __all__) brings."""
import subprocess
import sys

import numpy as np

import weft as mx


def test_py_slice_is_builtin_slice():
    from weft.ndarray.ndarray import py_slice
    assert py_slice is slice
    a = mx.nd.arange(6)
    np.testing.assert_array_equal(a[py_slice(1, 4)].asnumpy(), [1, 2, 3])


def test_storage_type_tables_are_mxnets():
    from weft.ndarray.ndarray import _STORAGE_TYPE_ID_TO_STR, _STORAGE_TYPE_STR_TO_ID
    assert _STORAGE_TYPE_STR_TO_ID == {"undefined": -1, "default": 0, "row_sparse": 1, "csr": 2}
    assert _STORAGE_TYPE_ID_TO_STR == {-1: "undefined", 0: "default", 1: "row_sparse", 2: "csr"}
    assert _STORAGE_TYPE_STR_TO_ID[mx.nd.ones(2).stype] == 0


def test_dtype_and_grad_req_tables():
    from weft.ndarray.ndarray import _DTYPE_MX_TO_NP, _DTYPE_NP_TO_MX, _GRAD_REQ_MAP
    assert _GRAD_REQ_MAP == {"null": 0, "write": 1, "add": 3}
    want = {None: -1, np.float32: 0, np.float64: 1, np.float16: 2, np.uint8: 3, np.int32: 4, np.int8: 5,
            np.int64: 6, np.bool_: 7}
    for k, v in want.items():
        assert _DTYPE_NP_TO_MX[k] == v and _DTYPE_MX_TO_NP[v] is k
    assert _DTYPE_NP_TO_MX[mx.nd.ones(1, dtype="int64").dtype.type] == 6


def test_numpy_array_scope_importable():
    # MXNet's legacy tests import it at module level (weft.util has it from the npx work)
    from weft.util import _NumpyArrayScope
    with _NumpyArrayScope(True):
        assert mx.util.is_np_array()
    assert not mx.util.is_np_array()


def test_base_as_list():
    from weft.base import _as_list
    assert _as_list(3) == [3]
    t = (1, 2)
    assert _as_list(t) is t
    lst = [1]
    assert _as_list(lst) is lst


def test_mx_real_t():
    from weft.base import mx_real_t
    assert mx_real_t is np.float32
    assert mx.nd.ones(2).dtype == mx_real_t


_STAR = r"""
from weft.test_utils import *
import types
assert isinstance(mx, types.ModuleType) and mx.__name__ == "weft", mx
assert np.__name__ == "numpy" and npt.__name__ == "numpy.testing" and rnd.__name__ == "numpy.random"
for m in (os, sys, time, logging, json, gzip, struct, zipfile, bz2, errno, platform, numbers, traceback):
    assert isinstance(m, types.ModuleType)
assert NDArray is mx.nd.NDArray and Symbol is mx.sym.Symbol and Context is mx.Context
assert array is mx.nd.array and current_context is mx.current_context
assert OrderedDict.__name__ == "OrderedDict" and callable(contextmanager)
# the helpers as before
assert_almost_equal(array([1.0, 2.0]), np.array([1.0, 2.0]))
assert callable(check_numeric_gradient) and callable(default_context) and callable(rand_ndarray)
# private names stay private, as with a module without __all__
assert "_STORAGE_TYPE_STR_TO_ID" not in dir()
print("ok")
"""


def test_star_import_brings_mxnets_module_names():
    # a fresh interpreter: the star import must work as a legacy test module's first line
    out = subprocess.run([sys.executable, "-c", _STAR], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("ok")


def test_all_lists_every_public_global():
    import weft.test_utils as tu
    public = {n for n in vars(tu) if not n.startswith("_")}
    assert set(tu.__all__) == public
    assert "mx" in tu.__all__ and "np" in tu.__all__
