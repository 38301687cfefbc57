"""weft.npx.random: MXNet 1.9.1's ``mxnet.numpy_extension.random``: seed,
bernoulli, and the batch samplers uniform_n / normal_n."""
# pylint: disable=invalid-name
import numpy as _onp

from .. import random as _legacy_random
from ..ndarray.ndarray import NDArray
from .. import dtypes as _dt
from ..numpy import random as _nprandom
from ..numpy._array import _invoke
from ..numpy._random_args import as_shape, check, ctx_of, finish, float_dtype, out_shape, param

__all__ = ["seed", "bernoulli", "uniform_n", "normal_n"]


def seed(seed, ctx="all"):  # pylint: disable=redefined-outer-name
    """Reseeds the generators (``mx.random.seed``): the same seed reproduces the
    draws of np.random, npx.random and nd.random."""
    _legacy_random.seed(seed, ctx=ctx)


def _batch(batch_shape, func):
    try:
        return as_shape(batch_shape, func) or ()
    except TypeError:
        raise TypeError("%s: batch_shape must be None, an int or a tuple of ints, got %r"
                        % (func, batch_shape)) from None


def _param_shape(*params):
    shapes = [tuple(p.shape) for p in params if isinstance(p, NDArray)]
    shapes += [_onp.shape(p) for p in params if isinstance(p, (list, tuple, _onp.ndarray))]
    return _onp.broadcast_shapes(*shapes) if shapes else ()


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """Uniform samples on [low, high) of shape batch_shape + broadcast(low, high).shape
    (``npx.random.uniform_n``)."""
    size = _batch(batch_shape, "uniform_n") + _param_shape(low, high)
    return _nprandom.uniform(low, high, size=size, dtype=dtype, ctx=ctx)


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """Normal samples of shape batch_shape + broadcast(loc, scale).shape
    (``npx.random.normal_n``)."""
    size = _batch(batch_shape, "normal_n") + _param_shape(loc, scale)
    return _nprandom.normal(loc, scale, size=size, dtype=dtype, ctx=ctx)


def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):
    """0/1 samples, 1 with probability prob (or sigmoid(logit)); exactly one of
    prob and logit is given (``npx.random.bernoulli``). dtype: any weft dtype,
    default float32 (float64 under set_np(dtype=True)), as MXNet's."""
    f = "bernoulli"
    if (prob is None) == (logit is None):
        raise ValueError("bernoulli: either prob or logit must be specified, but not both")
    try:
        odt = float_dtype(None, f) if dtype is None else _dt.name(dtype)
    except TypeError:
        raise TypeError("bernoulli: unsupported dtype %r" % (dtype,)) from None
    p = prob if prob is not None else logit
    name = "prob" if prob is not None else "logit"
    c = ctx_of((p,), ctx, f)
    p = param(p, name, f, c)
    if prob is not None:
        check(p, "prob", f, lambda v: (v >= 0) & (v <= 1), "in [0, 1]")
    elif isinstance(p, NDArray):
        p = _invoke("sigmoid", [_invoke("Cast", [p], dtype="float64")])
    else:
        p = float(1.0 / (1.0 + _onp.exp(-p)))
    u = _nprandom.uniform(size=out_shape(as_shape(size, f), (p,), f), dtype="float64", ctx=c)
    if isinstance(p, NDArray):
        hit = _invoke("broadcast_lesser", [u, _invoke("Cast", [p], dtype="float64")])
    else:
        hit = _invoke("_lesser_scalar", [u], scalar=p)
    return finish(hit, odt, out, f)
