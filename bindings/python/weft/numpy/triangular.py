"""Triangles of matrices: ``weft.np.tril`` (MXNet 1.9.1's ``mx.np.tril``; its
1.9.1 has no ``triu``, only the host ``tril_indices_from``/``triu_indices_from``
in fallback.py).

The lower triangle is ``where(tri(M, N, k), m, 0)``: the mask comes from the
host (``numpy.tri``, the size of one matrix) and broadcasts over the leading
axes; ``where`` rather than a multiply by the mask, so that an inf or NaN above
the diagonal gives 0 as NumPy and MXNet's ``_npi_tril`` do, and so that the
gradient is the mask (zero above the diagonal).
"""
import numpy as onp

from . import _args
from ._array import _invoke
from ._elementwise import where
from ._ufunc_core import check_array, expand_to, from_host, name_of, zeros_of

__all__ = ["tril"]


def tril(m, k=0):
    """Lower triangle of m: a copy with the elements above the k-th diagonal
    zeroed (k = 0 the main diagonal, k < 0 below it, k > 0 above), in m's
    dtype. m of more than two dimensions is a stack of matrices (its last two
    axes); a 1-d m of length N gives the (N, N) lower triangle of N copies of
    it as rows (both as NumPy and MXNet 1.9.1). A 0-d m is a ValueError, a k
    that is not an integer a TypeError."""
    m = check_array("tril", "m", m)
    k = _args.index(k, "tril", "k")
    if m.ndim == 0:
        raise ValueError("tril: argument m must be at least 1-d, got a 0-d array")
    if m.ndim == 1:
        n = m.shape[0]
        m = expand_to(_invoke("Reshape", [m], shape=(1, n)), (n, n)) if n else zeros_of((0, 0), name_of(m),
                                                                                      m.context)
    if m.size == 0:
        return zeros_of(m.shape, name_of(m), m.context)
    rows, cols = m.shape[-2:]
    zero = zeros_of((), name_of(m), m.context)  # an array of m's dtype: a scalar would take where's scalar dtypes
    return where(from_host(onp.tri(rows, cols, k, dtype=bool), m), m, zero)
