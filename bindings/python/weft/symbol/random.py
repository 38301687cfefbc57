"""Random sampling nodes: weft.sym.random.uniform / normal / randint (MXNet's mx.sym.random).

Each builds a ``_random_*`` node; its values are drawn when an executor runs it
(from the device's generator, reseeded by ``weft.random.seed``).
"""
from ..base import ArgumentTypeError
from ..ndarray.ndarray import _Null
from . import _internal
from .symbol import Symbol

__all__ = ["uniform", "normal", "randint"]


def _sample(fn, what, params, shape, dtype, kwargs):
    for k, v in params.items():
        if isinstance(v, Symbol):
            raise ArgumentTypeError("%s: Symbol-valued '%s' is not supported; pass a number" % (what, k))
    return fn(**params, shape=shape, dtype=dtype, **kwargs)


def uniform(low=0, high=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling the uniform distribution on [low, high) (``_random_uniform``)."""
    return _sample(_internal._random_uniform, "uniform", {"low": low, "high": high}, shape, dtype, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling N(loc, scale**2) (``_random_normal``)."""
    return _sample(_internal._random_normal, "normal", {"loc": loc, "scale": scale}, shape, dtype, kwargs)


def randint(low, high, shape=_Null, dtype=_Null, **kwargs):
    """A node sampling integers uniformly from [low, high) (``_random_randint``)."""
    return _sample(_internal._random_randint, "randint", {"low": low, "high": high}, shape, dtype, kwargs)
