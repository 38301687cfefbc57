"""Element types: MXNet's dtype flags <-> NumPy dtypes.

bfloat16 has no NumPy type. When ``ml_dtypes`` is importable its
``bfloat16`` is used (real arithmetic on the host); otherwise, like MXNet 1.x,
a 2-byte structured dtype ``numpy.dtype([('bfloat16', '<u2')])`` holding the
raw bits (use ``NDArray.astype('float32')`` to look at the values).
"""
import numpy as np

from .base import DTypeError

try:  # optional
    import ml_dtypes as _ml_dtypes  # pylint: disable=import-error

    bfloat16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - depends on the environment
    _ml_dtypes = None
    bfloat16 = np.dtype([("bfloat16", "<u2")])

# flag -> numpy dtype (c_api.h: 0 float32, 1 float64, 2 float16, 3 uint8,
# 4 int32, 5 int8, 6 int64, 7 bool, 12 bfloat16)
FLAG_TO_NP = {
    0: np.dtype(np.float32),
    1: np.dtype(np.float64),
    2: np.dtype(np.float16),
    3: np.dtype(np.uint8),
    4: np.dtype(np.int32),
    5: np.dtype(np.int8),
    6: np.dtype(np.int64),
    7: np.dtype(np.bool_),
    12: bfloat16,
}
FLAG_TO_NAME = {0: "float32", 1: "float64", 2: "float16", 3: "uint8", 4: "int32", 5: "int8",
                6: "int64", 7: "bool", 12: "bfloat16"}
NAME_TO_FLAG = {v: k for k, v in FLAG_TO_NAME.items()}
NP_TO_FLAG = {v: k for k, v in FLAG_TO_NP.items()}

DEFAULT_FLAG = 0  # float32, MXNet's mx_real_t

_CACHE = {}


def flag(dtype):
    """The dtype flag of a name, numpy dtype, numpy/python type or flag number."""
    try:
        return _CACHE[dtype]
    except (KeyError, TypeError):
        pass
    f = _flag_uncached(dtype)
    try:
        _CACHE[dtype] = f
    except TypeError:
        pass
    return f


def _flag_uncached(dtype):
    if isinstance(dtype, (int, np.integer)) and not isinstance(dtype, bool):
        if int(dtype) in FLAG_TO_NAME:
            return int(dtype)
        raise DTypeError("unknown dtype flag %d" % dtype)
    if isinstance(dtype, str):
        name = dtype.strip().lower()
        if name in NAME_TO_FLAG:
            return NAME_TO_FLAG[name]
        if name in ("bool_", "bool8"):
            return 7
    try:
        d = np.dtype(dtype)
    except TypeError:
        raise DTypeError("unsupported dtype %r (supported: %s)" % (dtype, ", ".join(NAME_TO_FLAG))) from None
    if d in NP_TO_FLAG:
        return NP_TO_FLAG[d]
    if d.names == ("bfloat16",):
        return 12
    raise DTypeError("unsupported dtype %r (supported: %s)" % (dtype, ", ".join(NAME_TO_FLAG)))


def to_numpy(dtype):
    """The numpy dtype weft uses for dtype (anything flag() accepts)."""
    return FLAG_TO_NP[flag(dtype)]


def name(dtype):
    """The weft/MXNet dtype name, e.g. 'float32', 'bfloat16'."""
    return FLAG_TO_NAME[flag(dtype)]


def is_native_numpy(f):
    """True when numpy can compute with the dtype of flag f (bfloat16 only with ml_dtypes)."""
    return f != 12 or _ml_dtypes is not None
