"""Random numbers: ``weft.random.seed`` and the samplers of weft.nd.random."""
import numpy as np

from .base import check_call, lib
from .context import Context
from .ndarray.random import (exponential, exponential_like, gamma, gamma_like, generalized_negative_binomial,
                             generalized_negative_binomial_like, multinomial, negative_binomial,
                             negative_binomial_like, normal, normal_like, poisson, poisson_like, randint, randn,
                             shuffle, uniform, uniform_like)

__all__ = ["seed", "uniform", "normal", "randn", "poisson", "exponential", "gamma", "multinomial",
           "negative_binomial", "generalized_negative_binomial", "shuffle", "randint", "uniform_like", "normal_like",
           "exponential_like", "gamma_like", "poisson_like", "negative_binomial_like",
           "generalized_negative_binomial_like"]


def seed(seed_state, ctx="all"):
    """Reseeds the generators of every device (an engine write on each, so it is
    ordered with the sampling ops pushed before and after). ``ctx`` is MXNet's:
    'all' or a Context; the C ABI reseeds every device, so a Context reseeds
    them all too (sequences of the named device are what MXNet gives)."""
    if not (ctx == "all" or isinstance(ctx, Context)):
        raise TypeError("seed: ctx must be 'all' or a weft.Context, got %r" % (ctx,))
    if not isinstance(seed_state, int) or isinstance(seed_state, bool):
        try:
            if isinstance(seed_state, np.integer):
                seed_state = int(seed_state)
            else:
                raise TypeError
        except TypeError:
            raise TypeError("seed_state must be an int, got %s" % type(seed_state).__name__) from None
    check_call(lib.weft_random_seed(seed_state & 0xFFFFFFFFFFFFFFFF))
