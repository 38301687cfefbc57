"""Random sampling: weft.nd.random.uniform / normal / randint (also weft.random).

Each call runs the registry's ``_random_*`` operator; the generators' state is
an engine variable per device, reseeded by ``weft.random.seed``.
"""
from ..base import ArgumentTypeError
from .ndarray import NDArray, _call, _ctx, _Null
from .. import dtypes as _dt

__all__ = ["uniform", "normal", "randint"]


def _sample(opname, params, shape, dtype, ctx, out, kwargs):
    for k, v in params.items():
        if isinstance(v, NDArray):
            raise ArgumentTypeError("%s: NDArray-valued '%s' is not supported; pass a number" % (opname, k))
    attrs = dict(params)
    if out is not None:
        if not isinstance(out, NDArray):
            raise ArgumentTypeError("%s: out= must be an NDArray" % opname)
        attrs.update(shape=out.shape, dtype=_dt.name(out._dtype_flag), ctx=out.context)
    else:
        if shape is not _Null:
            attrs["shape"] = (shape,) if isinstance(shape, int) else tuple(shape)
        if dtype is not _Null and dtype is not None:
            attrs["dtype"] = _dt.name(dtype)
        attrs["ctx"] = _ctx(ctx)
    attrs.update(kwargs)
    return _call(opname, [], out=out, **attrs)


def uniform(low=0, high=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from the uniform distribution on [low, high).

    Parameters
    ----------
    low, high : float
        Bounds of the interval.
    shape : int or tuple of int, optional
        Output shape.
    dtype : {'float16', 'float32', 'float64'}, optional
        Output dtype (default float32).
    ctx : Context, optional
        Device (default: the current context).
    out : NDArray, optional
        Array to fill (its shape, dtype and context are used).
    """
    return _sample("_random_uniform", {"low": low, "high": high}, shape, dtype, ctx, out, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from the normal distribution N(loc, scale**2). Parameters as uniform()."""
    return _sample("_random_normal", {"loc": loc, "scale": scale}, shape, dtype, ctx, out, kwargs)


def randint(low, high, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples integers uniformly from [low, high). Parameters as uniform(); dtype
    is 'int32' (default) or 'int64'."""
    return _sample("_random_randint", {"low": low, "high": high}, shape, dtype, ctx, out, kwargs)
