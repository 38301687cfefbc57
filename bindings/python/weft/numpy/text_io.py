"""Text in and out of ``weft.np``: ``genfromtxt`` and ``set_printoptions``.

As in MXNet 1.9.1, both delegate to the host NumPy: genfromtxt parses with
``numpy.genfromtxt`` and copies the result to the device; set_printoptions
sets NumPy's options, which weft.np's repr and str use (they print through
NumPy, Note [One array, two classes]).
"""
import numpy as _onp

from .creation import array

__all__ = ["genfromtxt", "set_printoptions"]


def genfromtxt(*args, **kwargs):
    """``numpy.genfromtxt(*args, **kwargs)`` as a weft.np.ndarray on ``ctx``
    (a keyword of its own). As ``array`` of NumPy data, the result is float32
    (MXNet's default, Note [Default dtype switch]) unless dtype= is given."""
    ctx = kwargs.pop("ctx", None)
    host = _onp.genfromtxt(*args, **kwargs)
    if host.dtype.names is not None:
        raise TypeError("genfromtxt: structured (named-field) results are not supported; pass dtype=float")
    return array(host, dtype=kwargs.get("dtype"), ctx=ctx)


def set_printoptions(precision=None, threshold=None, **kwarg):
    """Sets how arrays print: precision (digits) and threshold (element count
    above which arrays are summarised), as MXNet supports; other options raise
    NotImplementedError as in MXNet."""
    if kwarg:
        raise NotImplementedError("set_printoptions: only precision and threshold are supported, got %s"
                                  % ", ".join(sorted(kwarg)))
    _onp.set_printoptions(precision=precision, threshold=threshold)
