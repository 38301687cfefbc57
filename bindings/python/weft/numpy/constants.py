"""The dtypes and numeric constants of ``weft.np`` (MXNet's
``mxnet/numpy/utils.py``): ``float32``, ``bool_``, ``pi``, ``newaxis``, ...

They are NumPy's own objects, as in MXNet, so ``weft.np.float32 is
numpy.float32`` and a dtype from either module works in both. NumPy 2 removed
the aliases ``NAN``, ``NINF``, ``PINF``, ``NZERO``, ``PZERO`` and ``NaN``;
MXNet 1.9.1 still exports them, so they are spelt out by value here.
"""
import numpy as _onp

__all__ = ["NAN", "NINF", "NZERO", "NaN", "PINF", "PZERO", "e", "inf", "nan", "pi", "newaxis",
           "bool", "bool_", "float16", "float32", "float64", "int8", "int32", "int64", "uint8", "finfo"]

# pylint: disable=redefined-builtin,invalid-name
bool = _onp.bool_  # MXNet's np.bool is NumPy's bool_ (not Python's bool)
bool_ = _onp.bool_
float16 = _onp.float16
float32 = _onp.float32
float64 = _onp.float64
int8 = _onp.int8
int32 = _onp.int32
int64 = _onp.int64
uint8 = _onp.uint8

e = _onp.e
pi = _onp.pi
inf = _onp.inf
nan = _onp.nan
NAN = float("nan")
NaN = NAN
NINF = float("-inf")
PINF = float("inf")
NZERO = -0.0
PZERO = 0.0
newaxis = None

finfo = _onp.finfo
