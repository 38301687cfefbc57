"""Weight initializers (MXNet 1.x's mx.initializer, also ``weft.init``).

An initializer is called as ``init(desc, arr)`` and fills ``arr`` in place.
``desc`` is an ``InitDesc`` (a parameter name carrying the variable's attributes)
or a plain name; which fill applies is chosen by the name's suffix
(Note [Initializer dispatch]). Random fills sample with weft.random into ``arr``
on its own device, so ``weft.random.seed`` makes them reproducible.

Note [Initializer dispatch]
    With an InitDesc whose attrs have ``__init__`` (set by ``sym.var(init=...)``
    or by BatchNorm on its moving statistics), that initializer fills the array.
    Otherwise the suffix decides: ``weight`` -> ``_init_weight`` (the
    initializer's own rule), ``bias`` / ``beta`` -> 0, ``gamma`` -> 1,
    ``moving_mean`` / ``moving_inv_var`` / ``moving_avg`` / ``min`` -> 0,
    ``moving_var`` / ``max`` -> 1, and anything else is an error. A plain str
    (MXNet's deprecated form) also dispatches ``upsampling*`` to a bilinear kernel
    and ``stn_loc*`` to the identity transform. MXNet leaves the moving_*
    suffixes to the InitDesc attributes; taking them here too makes a bare
    InitDesc('bn_moving_var') work and changes nothing else.
"""
import json
import logging
import re
import warnings

import numpy as np

from .base import ArgumentTypeError, InvalidArgumentError
from .ndarray import NDArray, load
from .ndarray import random as _random
from . import registry

__all__ = ["InitDesc", "Initializer", "register", "alias", "create", "Zero", "One", "Constant", "Uniform",
           "Normal", "Orthogonal", "Xavier", "MSRAPrelu", "Bilinear", "LSTMBias", "Mixed", "Load"]


class InitDesc(str):
    """A parameter name with the variable's attributes (``attrs``, e.g.
    ``{'__init__': '["zero", {}]'}``) and the initializer that is filling the
    whole model (``global_init``)."""

    def __new__(cls, name, attrs=None, global_init=None):
        ret = super().__new__(cls, name)
        ret.attrs = attrs or {}
        ret.global_init = global_init
        return ret


class Initializer:
    """Base class: subclasses implement ``_init_weight(name, arr)``; the other
    suffixes have fixed fills (Note [Initializer dispatch]).

    ``kwargs`` are what ``dumps()`` records to re-create the initializer."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._verbose = False
        self._print_func = None

    def set_verbosity(self, verbose=False, print_func=None):
        """Logs each initialized array's name and (with print_func) a summary."""
        self._verbose = verbose
        if print_func is None:
            def asum_stat(x):
                """Mean absolute value, as a string."""
                return str((np.abs(x.asnumpy())).mean())
            print_func = asum_stat
        self._print_func = print_func
        return self

    def _verbose_print(self, desc, init, arr):
        if self._verbose and self._print_func:
            logging.info("Initialized %s as %s: %s", desc, init, self._print_func(arr))

    def dumps(self):
        """``'["<registered name>", {kwargs}]'``, which ``create`` (and
        ``sym.var(init=...)``) turn back into this initializer."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, desc, arr):
        if not isinstance(arr, NDArray):
            raise ArgumentTypeError("initializer: arr must be an NDArray, got %s" % type(arr).__name__)
        if not isinstance(desc, InitDesc):
            self._legacy_init(desc, arr)
            return
        if desc.global_init is None:
            desc.global_init = self
        init = desc.attrs.get("__init__", "")
        if init:
            create(init)._init_weight(desc, arr)  # pylint: disable=protected-access
            self._verbose_print(desc, init, arr)
            return
        self._dispatch(desc, arr)

    def _dispatch(self, name, arr):
        for suffix, fill in self._SUFFIX_FILLS:
            if name.endswith(suffix):
                getattr(self, fill)(name, arr)
                self._verbose_print(name, suffix, arr)
                return
        self._init_default(name, arr)

    _SUFFIX_FILLS = (("weight", "_init_weight"), ("bias", "_init_bias"), ("gamma", "_init_gamma"),
                     ("beta", "_init_beta"), ("moving_mean", "_init_zero"), ("moving_var", "_init_one"),
                     ("moving_inv_var", "_init_zero"), ("moving_avg", "_init_zero"), ("min", "_init_zero"),
                     ("max", "_init_one"))

    def _legacy_init(self, name, arr):
        warnings.warn("Calling initializer with init(str, NDArray) has been deprecated. "
                      "please use init(mx.init.InitDesc(...), NDArray) instead.", DeprecationWarning, stacklevel=3)
        if not isinstance(name, str):
            raise TypeError("name must be string")
        if name.startswith("upsampling"):
            self._init_bilinear(name, arr)
        elif name.startswith("stn_loc") and name.endswith("weight"):
            self._init_zero(name, arr)
        elif name.startswith("stn_loc") and name.endswith("bias"):
            self._init_loc_bias(name, arr)
        else:
            self._dispatch(name, arr)

    def _init_bilinear(self, _, arr):
        arr[:] = _bilinear_kernel(arr.shape)

    def _init_loc_bias(self, _, arr):
        if arr.shape[0] != 6:
            raise InvalidArgumentError("stn_loc bias must have 6 elements, got shape %s" % (arr.shape,))
        arr[:] = np.array([1.0, 0, 0, 0, 1.0, 0])

    def _init_zero(self, _, arr):
        arr[:] = 0.0

    def _init_one(self, _, arr):
        arr[:] = 1.0

    def _init_bias(self, _, arr):
        arr[:] = 0.0

    def _init_gamma(self, _, arr):
        arr[:] = 1.0

    def _init_beta(self, _, arr):
        arr[:] = 0.0

    def _init_weight(self, name, arr):
        raise NotImplementedError("Must override it")

    def _init_default(self, name, _):
        raise InvalidArgumentError(
            "Unknown initialization pattern for %s. Default initialization is now limited to \"weight\", "
            "\"bias\", \"gamma\" (1.0), \"beta\" (0.0) and the moving statistics. Please use "
            "mx.sym.Variable(init=mx.init.*) to set initialization pattern" % name)

    def __repr__(self):
        return self.dumps()


register = registry.get_register_func(Initializer, "initializer")
alias = registry.get_alias_func(Initializer, "initializer")
create = registry.get_create_func(Initializer, "initializer")


def _bilinear_kernel(shape):
    """MXNet's bilinear upsampling kernel over the last two axes."""
    size = int(np.prod(shape))
    f = np.ceil(shape[3] / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    i = np.arange(size)
    x = i % shape[3]
    y = (i // shape[3]) % shape[2]
    weight = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
    return weight.astype("float32").reshape(shape)


@register
@alias("zeros")
class Zero(Initializer):
    """Fills with 0."""

    def _init_weight(self, _, arr):
        arr[:] = 0


@register
@alias("ones")
class One(Initializer):
    """Fills with 1."""

    def _init_weight(self, _, arr):
        arr[:] = 1


@register
class Constant(Initializer):
    """Fills with value (a number, or an array broadcast to the shape)."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _init_weight(self, _, arr):
        value = self.value
        if isinstance(value, NDArray):
            value = value.asnumpy()
        if isinstance(value, (list, tuple, np.ndarray)):
            value = np.broadcast_to(np.asarray(value, dtype=np.float64), arr.shape)
        arr[:] = value

    def dumps(self):
        val = self._kwargs["value"]
        if not np.isscalar(val):
            val = val.asnumpy().tolist() if isinstance(val, NDArray) else np.asarray(val).tolist()
        return json.dumps([self.__class__.__name__.lower(), dict(self._kwargs, value=val)])


@register
class Uniform(Initializer):
    """Samples from U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, _, arr):
        _random.uniform(-self.scale, self.scale, out=arr)


@register
class Normal(Initializer):
    """Samples from N(0, sigma**2)."""

    def __init__(self, sigma=0.01):
        super().__init__(sigma=sigma)
        self.sigma = sigma

    def _init_weight(self, _, arr):
        _random.normal(0, self.sigma, out=arr)


@register
class Orthogonal(Initializer):
    """A scaled (semi-)orthogonal matrix (Saxe et al., 2013): the first axis is
    the output, the others flattened are the input. The rows (when there are no
    more rows than columns) or the columns are orthonormal, times ``scale``.

    Parameters
    ----------
    scale : float
        Multiplier of the orthonormal matrix.
    rand_type : {'uniform', 'normal'}
        The distribution of the random matrix that is orthogonalised.
    """

    def __init__(self, scale=1.414, rand_type="uniform"):
        super().__init__(scale=scale, rand_type=rand_type)
        self.scale = scale
        self.rand_type = rand_type

    def _init_weight(self, _, arr):
        nout = arr.shape[0]
        nin = int(np.prod(arr.shape[1:]))
        if self.rand_type == "uniform":
            tmp = _random.uniform(-1.0, 1.0, shape=(nout, nin), ctx=arr.context).asnumpy()
        elif self.rand_type == "normal":
            tmp = _random.normal(0.0, 1.0, shape=(nout, nin), ctx=arr.context).asnumpy()
        else:
            raise InvalidArgumentError("Orthogonal: rand_type must be 'uniform' or 'normal', got %r"
                                       % (self.rand_type,))
        u, _, v = np.linalg.svd(tmp.astype(np.float64), full_matrices=False)
        res = u if u.shape == tmp.shape else v
        arr[:] = (self.scale * res).reshape(arr.shape)


@register
class Xavier(Initializer):
    """Xavier/Glorot initialisation: scale = sqrt(magnitude / factor) with factor
    fan_in, fan_out or their mean; samples U(-scale, scale) ('uniform') or
    N(0, scale**2) ('gaussian'). For shape (out, in, k...), fan_in = in * prod(k)
    and fan_out = out * prod(k).

    Parameters
    ----------
    rnd_type : {'uniform', 'gaussian'}
    factor_type : {'avg', 'in', 'out'}
    magnitude : float
    """

    def __init__(self, rnd_type="uniform", factor_type="avg", magnitude=3):
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _scale(self, name, shape):
        if len(shape) < 2:
            raise InvalidArgumentError("Xavier initializer cannot be applied to vector %s. It requires at least 2D."
                                       % name)
        hw_scale = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
        fan_in, fan_out = shape[1] * hw_scale, shape[0] * hw_scale
        if self.factor_type == "avg":
            factor = (fan_in + fan_out) / 2.0
        elif self.factor_type == "in":
            factor = fan_in
        elif self.factor_type == "out":
            factor = fan_out
        else:
            raise InvalidArgumentError("Incorrect factor type %r (expected 'avg', 'in' or 'out')"
                                       % (self.factor_type,))
        return float(np.sqrt(self.magnitude / factor))

    def _init_weight(self, name, arr):
        scale = self._scale(name, arr.shape)
        if self.rnd_type == "uniform":
            _random.uniform(-scale, scale, out=arr)
        elif self.rnd_type == "gaussian":
            _random.normal(0, scale, out=arr)
        else:
            raise InvalidArgumentError("Unknown random type %r (expected 'uniform' or 'gaussian')"
                                       % (self.rnd_type,))


@register
class MSRAPrelu(Xavier):
    """He/MSRA initialisation for PReLU nets: Xavier 'gaussian' with magnitude
    2 / (1 + slope**2).

    Parameters
    ----------
    factor_type : {'avg', 'in', 'out'}
    slope : float
        The negative slope of the PReLU (0 for ReLU).
    """

    def __init__(self, factor_type="avg", slope=0.25):
        magnitude = 2.0 / (1 + slope ** 2)
        super().__init__("gaussian", factor_type, magnitude)
        self._kwargs = {"factor_type": factor_type, "slope": slope}


@register
class Bilinear(Initializer):
    """The bilinear upsampling kernel (for a Deconvolution weight)."""

    def _init_weight(self, _, arr):
        arr[:] = _bilinear_kernel(arr.shape)


@register
class LSTMBias(Initializer):
    """Zero, except forget_bias on the forget gate (the second quarter of the
    axis-0 rows of an LSTM bias laid out i, f, c, o)."""

    def __init__(self, forget_bias=1.0):
        super().__init__(forget_bias=forget_bias)
        self.forget_bias = forget_bias

    def _init_weight(self, name, arr):
        arr[:] = 0.0
        num_hidden = int(arr.shape[0] / 4)
        arr[num_hidden:2 * num_hidden] = self.forget_bias


class Load:
    """Fills from saved arrays (a dict name -> NDArray / numpy array, or a
    .params file name), with default_init for names not in it. Names may carry
    MXNet's ``arg:`` / ``aux:`` prefixes."""

    def __init__(self, param, default_init=None, verbose=False):
        if isinstance(param, str):
            param = load(param)
        if not isinstance(param, dict):
            raise InvalidArgumentError("Load: param must be a dict or a .params file with names")
        self.param = {}
        for name, arr in param.items():
            if name.startswith("arg:") or name.startswith("aux:"):
                name = name[4:]
            self.param[name] = arr
        self.default_init = default_init
        self.verbose = verbose

    def __call__(self, name, arr):
        if name in self.param:
            src = self.param[name]
            if tuple(arr.shape) != tuple(src.shape):
                raise InvalidArgumentError("Parameter %s cannot be initialized from loading. Shape mismatch, "
                                           "target %s vs loaded %s" % (name, arr.shape, src.shape))
            arr[:] = src.asnumpy() if isinstance(src, NDArray) else np.asarray(src)
        else:
            if self.default_init is None:
                raise InvalidArgumentError("Cannot Initialize %s. Not found in loaded param and no default "
                                           "Initializer is provided." % name)
            self.default_init(name, arr)


class Mixed:
    """Chooses an initializer per name: the first regular expression in patterns
    that matches the start of the name (``re.match``) picks the initializer at
    the same position. End with a '.*' pattern for a default."""

    def __init__(self, patterns, initializers):
        if len(patterns) != len(initializers):
            raise InvalidArgumentError("Mixed: %d patterns but %d initializers" % (len(patterns), len(initializers)))
        self.map = list(zip([re.compile(p) for p in patterns], [create(i) for i in initializers]))

    def __call__(self, name, arr):
        for prog, init in self.map:
            if prog.match(name):
                init(name, arr)
                return
        raise InvalidArgumentError("Parameter name %s did not match any pattern. Consider add a \".*\" pattern "
                                   "at the and with default Initializer." % name)
