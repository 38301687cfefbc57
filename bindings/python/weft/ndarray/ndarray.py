"""weft.ndarray.ndarray: MXNet's module path for the NDArray class and the helpers around it.

The class lives in ndarray_class.py and the helpers in the modules built on it (Note [NDArray
leaf]); this module only re-exports them, under the names callers have always imported from
here: NDArray, _wrap, _new_obj, invoke, _call, array, zeros, save, load, ... Nothing in
weft.ndarray imports this module, so it may import all of them.
"""
# pylint: disable=unused-import
from .ndarray_class import (NDArray, _NULL, _bf16_bits_to_float32, _new_obj, _unpack, _wrap,  # noqa: F401
                            install_methods, waitall)
from .attr_text import (_Null, _NullType, _SCALAR_TEXT, _is_scalar, _item_str, _scalar_attr,  # noqa: F401
                        attr_str, dtype_attr_str, shape_attr_str)
from .op_call import _OPS, _PARAM_NAMES, _call, _fail, _op, _param_names, _scalar_call, has_op, invoke  # noqa: F401
from .arithmetic import (_PY_OPS, _UFUNCS, _floor_divide, _helper, _install_operators, _make_fast,  # noqa: F401
                         _rufunc, _same_op, _ufunc, add, divide, equal, greater, greater_equal, lesser,
                         lesser_equal, maximum, minimum, modulo, multiply, negative, not_equal, power,
                         subtract, true_divide, logical_and, logical_or, logical_xor)
from .stats import histogram  # noqa: F401
from .creation import (_ctx, _ctx_dtype_attrs, _host_as, _shape_tuple, arange, array, empty, eye,  # noqa: F401
                       full, ones, ones_like, zeros, zeros_like)
from .reshaping import _broadcast_to_nd, concatenate, infer_reshape, moveaxis  # noqa: F401
from .serialization import (_arrays_and_keys, _c_lists, _published, _save_bytes, _unpickle, load,  # noqa: F401
                            load_frombuffer, save)

__all__ = [
    "NDArray", "array", "empty", "zeros", "ones", "full", "arange", "eye", "zeros_like", "ones_like",
    "waitall", "add", "subtract", "multiply", "divide", "true_divide", "power", "maximum", "minimum",
    "modulo", "equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal", "negative",
    "moveaxis", "concatenate", "logical_and", "logical_or", "logical_xor", "histogram",
]

from .. import dtypes as _dt  # noqa: E402  (only the tables below need it)

# MXNet 1.9.1's module-level names that its own tests import from mxnet.ndarray.ndarray:
# py_slice (the builtin slice, kept under a second name because MXNet's module defines its own
# `slice` op) and the storage-type tables. Weft stores dense arrays only, but the ids are
# MXNet's so that code translating between names and ids reads the same numbers.
py_slice = slice
_STORAGE_TYPE_UNDEFINED = -1
_STORAGE_TYPE_DEFAULT = 0
_STORAGE_TYPE_ROW_SPARSE = 1
_STORAGE_TYPE_CSR = 2
_STORAGE_TYPE_STR_TO_ID = {
    "undefined": _STORAGE_TYPE_UNDEFINED,
    "default": _STORAGE_TYPE_DEFAULT,
    "row_sparse": _STORAGE_TYPE_ROW_SPARSE,
    "csr": _STORAGE_TYPE_CSR,
}
_STORAGE_TYPE_ID_TO_STR = {v: k for k, v in _STORAGE_TYPE_STR_TO_ID.items()}
_GRAD_REQ_MAP = {"null": 0, "write": 1, "add": 3}
# MXNet's dtype tables (NumPy scalar type <-> type id; None <-> -1) over the dtypes Weft stores:
# Weft's type flags are MXNet's ids, so the numbers are MXNet's; int16/uint16/uint32/uint64
# (MXNet ids 8-11) are absent because Weft has no arrays of those types.
_DTYPE_NP_TO_MX = dict([(None, -1)] + [(_dt.FLAG_TO_NP[f].type, f) for f in sorted(_dt.FLAG_TO_NP)])
_DTYPE_MX_TO_NP = dict([(-1, None)] + [(f, _dt.FLAG_TO_NP[f].type) for f in sorted(_dt.FLAG_TO_NP)])
