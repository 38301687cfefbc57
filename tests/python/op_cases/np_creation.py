"""Cases of _npi_full_like (MXNet 1.9.1's np.full_like, core/op/init/np_full_like.cc)
against official NumPy: the input's shape, its dtype unless `dtype` is given, the
value converted to the output's dtype."""
import numpy as np

from .case import Case
from .tensor import F16, F32, F64, rand


def _full_like_ref(value, dtype=None):
    return lambda a: np.full_like(a, value, dtype=dtype)


CASES = {
    "_npi_full_like": [
        Case(lambda rng: [rand((2, 3), F32)(rng)], attrs={"fill_value": 2.5}, ref=_full_like_ref(2.5),
             rtol=0, atol=0, name="full_like-f32"),
        Case(lambda rng: [rand((3, 1, 2), F64)(rng)], attrs={"fill_value": -1.25, "dtype": "float16"},
             ref=_full_like_ref(-1.25, F16), rtol=0, atol=0, name="full_like-dtype-f16"),
        Case([np.arange(4, dtype=np.int32)], attrs={"fill_value": 3.5}, ref=_full_like_ref(3.5), rtol=0, atol=0,
             name="full_like-int32-truncates"),
        Case([np.zeros((2, 2), np.int64)], attrs={"fill_value": 7, "dtype": "bool"}, ref=_full_like_ref(7, np.bool_),
             rtol=0, atol=0, name="full_like-bool"),
        Case([np.array(1.0, F32)], attrs={"fill_value": 9}, ref=_full_like_ref(9), rtol=0, atol=0,
             name="full_like-0d"),
        Case([np.zeros((0, 3), F32)], attrs={"fill_value": 1}, ref=_full_like_ref(1), rtol=0, atol=0,
             name="full_like-zero-size"),
    ],
}
