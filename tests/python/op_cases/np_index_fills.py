"""Cases of _npi_hanning, _npi_hamming, _npi_blackman, _npi_logspace and _npi_indices
(MXNet 1.9.1's NumPy-mode arrays computed from their index, core/op/init/np_index_fills.cc)
against official NumPy."""
import numpy as np

from .case import Case

F32, F64, I32, I64 = np.float32, np.float64, np.int32, np.int64


def _c(ref, name, rtol=1e-6, atol=1e-7, **attrs):
    return Case([], attrs=attrs, ref=ref, rtol=rtol, atol=atol, name=name)


def _windows(op, f):
    return [
        _c(lambda: f(7).astype(F32), op + "-odd", M=7),
        _c(lambda: f(6), op + "-even-f64", rtol=1e-14, atol=1e-15, M=6, dtype="float64"),
        _c(lambda: f(1).astype(F32), op + "-one-point", M=1),
        _c(lambda: f(0).astype(F32), op + "-empty", M=0),
        _c(lambda: f(-3).astype(F32), op + "-negative-empty", M=-3),
    ]


CASES = {
    "_npi_hanning": _windows("hanning", np.hanning),
    "_npi_hamming": _windows("hamming", np.hamming),
    "_npi_blackman": _windows("blackman", np.blackman),
    "_npi_logspace": [
        _c(lambda: np.logspace(0, 2, 5).astype(F32), "logspace-doc", start=0, stop=2, num=5),
        _c(lambda: np.logspace(1, 3, 4, endpoint=False, base=2.0), "logspace-base2-open-f64", rtol=1e-14,
           start=1, stop=3, num=4, endpoint=False, base=2.0, dtype="float64"),
        _c(lambda: np.logspace(2, 9, 1).astype(F32), "logspace-one", start=2, stop=9, num=1),
        _c(lambda: np.logspace(0, 1, 0).astype(F32), "logspace-empty", start=0, stop=1, num=0),
    ],
    "_npi_indices": [
        _c(lambda: np.indices((2, 3)).astype(I32), "indices-doc", rtol=0, atol=0, dimensions=(2, 3)),
        _c(lambda: np.indices((3, 1, 4), dtype=I64), "indices-3d-int64", rtol=0, atol=0, dimensions=(3, 1, 4),
           dtype="int64"),
        _c(lambda: np.indices((4,)).astype(F32), "indices-1d-float32", rtol=0, atol=0, dimensions=(4,),
           dtype="float32"),
        _c(lambda: np.indices((2, 0)).astype(I32), "indices-zero-size", rtol=0, atol=0, dimensions=(2, 0)),
    ],
}
