"""Containers and basic layers (MXNet 1.x's ``gluon.nn.basic_layers``)."""
# pylint: disable=arguments-differ,too-many-arguments
import warnings

import numpy as np

from ... import ndarray as _nd
from ... import symbol as _sym
from ...base import InvalidArgumentError
from ..block import Block, HybridBlock
from ..utils import _indent
from .activations import Activation

__all__ = ["Sequential", "HybridSequential", "Dense", "Dropout", "Embedding", "BatchNorm", "InstanceNorm",
           "LayerNorm", "Flatten", "Lambda", "HybridLambda"]


def _children_repr(block):
    modstr = "\n".join("  ({key}): {block}".format(key=key, block=_indent(repr(child), 2))
                       for key, child in block._children.items())  # pylint: disable=protected-access
    return "{name}(\n{modstr}\n)".format(name=block.__class__.__name__, modstr=modstr)


def _run_in_order(children, x, args):
    for block in children:
        x = block(x, *args)
        args = []
        if isinstance(x, (tuple, list)):
            args = x[1:]
            x = x[0]
    if args:
        x = tuple([x] + list(args))
    return x


class Sequential(Block):
    """Runs its children one after another (each one's output is the next one's
    input; a tuple output becomes several inputs)."""

    _summary_skips = True

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._layers = []

    def add(self, *blocks):
        """Appends blocks (children named '0', '1', ...)."""
        for block in blocks:
            self._layers.append(block)
            self.register_child(block)

    def forward(self, x, *args):
        return _run_in_order(self._children.values(), x, args)

    def __repr__(self):
        return _children_repr(self)

    def __getitem__(self, key):
        layers = list(self._children.values())[key]
        if isinstance(layers, list):
            net = type(self)(prefix=self._prefix)
            with net.name_scope():
                net.add(*layers)
            return net
        return layers

    def __len__(self):
        return len(self._children)

    def hybridize(self, active=True, **kwargs):
        if self._children and all(isinstance(c, HybridBlock) for c in self._children.values()):
            warnings.warn("All children of this Sequential layer '%s' are HybridBlocks. Consider using "
                          "HybridSequential for the best performance." % self.prefix, stacklevel=2)
        super().hybridize(active, **kwargs)


class HybridSequential(HybridBlock):
    """Sequential whose children are all HybridBlocks, so it can be hybridized."""

    _summary_skips = True

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._layers = []

    def add(self, *blocks):
        """Appends blocks (children named '0', '1', ...)."""
        for block in blocks:
            self._layers.append(block)
            self.register_child(block)

    def hybrid_forward(self, F, x, *args):
        return _run_in_order(self._children.values(), x, args)

    def __repr__(self):
        return _children_repr(self)

    def __getitem__(self, key):
        layers = list(self._children.values())[key]
        if isinstance(layers, list):
            net = type(self)(prefix=self._prefix)
            with net.name_scope():
                net.add(*layers)
            return net
        return layers

    def __len__(self):
        return len(self._children)


class Dense(HybridBlock):
    """Fully connected layer: ``activation(dot(x, weight.T) + bias)``.

    Parameters
    ----------
    units : int
        Output size.
    activation : str, optional
        An ``Activation`` applied to the result.
    use_bias : bool
    flatten : bool
        Whether to flatten all but the first input axis (else only the last
        axis is contracted).
    dtype : str or numpy dtype
    weight_initializer, bias_initializer : Initializer or str
    in_units : int
        Input size; 0 infers it at the first call.

    Parameters ``weight`` (units, in_units) and ``bias`` (units,).
    """

    def __init__(self, units, activation=None, use_bias=True, flatten=True, dtype="float32",
                 weight_initializer=None, bias_initializer="zeros", in_units=0, **kwargs):
        super().__init__(**kwargs)
        self._flatten = flatten
        with self.name_scope():
            self._units = units
            self._in_units = in_units
            self.weight = self.params.get("weight", shape=(units, in_units), init=weight_initializer,
                                          dtype=dtype, allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get("bias", shape=(units,), init=bias_initializer, dtype=dtype,
                                            allow_deferred_init=True)
            else:
                self.bias = None
            if activation is not None:
                self.act = Activation(activation, prefix=activation + "_")
            else:
                self.act = None

    def hybrid_forward(self, F, x, weight, bias=None):
        act = F.FullyConnected(x, weight, bias, no_bias=bias is None, num_hidden=self._units,
                               flatten=self._flatten, name="fwd")
        if self.act is not None:
            act = self.act(act)
        return act

    def __repr__(self):
        shape = self.weight.shape
        return "{name}({layout}, {act})".format(
            name=self.__class__.__name__, act=self.act if self.act else "linear",
            layout="{0} -> {1}".format(shape[1] if shape[1] else None, shape[0]))


class Dropout(HybridBlock):
    """Zeroes inputs with probability ``rate`` in training (``autograd.record()``)
    and scales the rest by 1 / (1 - rate); identity in inference. ``axes``
    share the mask along those axes."""

    def __init__(self, rate, axes=(), **kwargs):
        super().__init__(**kwargs)
        self._rate = rate
        self._axes = axes

    def hybrid_forward(self, F, x):
        if self._rate > 0:
            return F.Dropout(x, p=self._rate, axes=self._axes, name="fwd", cudnn_off=False)
        return F.identity(x)

    def __repr__(self):
        return "{name}(p = {rate}, axes={axes})".format(name=self.__class__.__name__, rate=self._rate,
                                                       axes=self._axes)


class BatchNorm(HybridBlock):
    """Batch normalization over all axes but ``axis``.

    In training mode (``autograd.record()``) it normalizes with the batch
    statistics and updates ``running_mean`` / ``running_var`` (auxiliary states:
    ``running = momentum * running + (1 - momentum) * batch``); in inference it
    uses the running statistics (always, with ``use_global_stats``).

    Parameters
    ----------
    axis : int
        The channel axis.
    momentum, epsilon : float
    center, scale : bool
        Whether to learn ``beta`` / ``gamma`` (otherwise they are fixed: a
        gamma that is not learned is treated as 1, as in MXNet).
    use_global_stats : bool
    beta_initializer, gamma_initializer, running_mean_initializer, running_variance_initializer
    in_channels : int
        Number of channels; 0 infers it at the first call.
    """

    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=True, use_global_stats=False,
                 beta_initializer="zeros", gamma_initializer="ones", running_mean_initializer="zeros",
                 running_variance_initializer="ones", in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"axis": axis, "eps": epsilon, "momentum": momentum, "fix_gamma": not scale,
                        "use_global_stats": use_global_stats}
        self._axis = axis
        if in_channels != 0:
            self.in_channels = in_channels
        self.gamma = self.params.get("gamma", grad_req="write" if scale else "null", shape=(in_channels,),
                                     init=gamma_initializer, allow_deferred_init=True, differentiable=scale)
        self.beta = self.params.get("beta", grad_req="write" if center else "null", shape=(in_channels,),
                                    init=beta_initializer, allow_deferred_init=True, differentiable=center)
        self.running_mean = self.params.get("running_mean", grad_req="null", shape=(in_channels,),
                                            init=running_mean_initializer, allow_deferred_init=True,
                                            differentiable=False)
        self.running_var = self.params.get("running_var", grad_req="null", shape=(in_channels,),
                                           init=running_variance_initializer, allow_deferred_init=True,
                                           differentiable=False)

    def cast(self, dtype):
        if np.dtype(dtype).name == "float16":
            dtype = "float32"
        super().cast(dtype)

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.BatchNorm(x, gamma, beta, running_mean, running_var, name="fwd", **self._kwargs)

    def __repr__(self):
        in_channels = self.gamma.shape[0]
        content = ", ".join("=".join([k, repr(v)]) for k, v in self._kwargs.items())
        return "{name}({content}, in_channels={ch})".format(name=self.__class__.__name__, content=content,
                                                            ch=in_channels if in_channels else None)


class Embedding(HybridBlock):
    """Maps integer indices to rows of ``weight`` (input_dim, output_dim)."""

    def __init__(self, input_dim, output_dim, dtype="float32", weight_initializer=None, sparse_grad=False,
                 **kwargs):
        super().__init__(**kwargs)
        if sparse_grad:
            raise InvalidArgumentError("Embedding: sparse_grad=True is not supported (dense gradients only)")
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype,
                        "sparse_grad": sparse_grad}
        self.weight = self.params.get("weight", shape=(input_dim, output_dim), init=weight_initializer,
                                      dtype=dtype, allow_deferred_init=True)

    def hybrid_forward(self, F, x, weight):
        return F.Embedding(x, weight, name="fwd", **self._kwargs)

    def __repr__(self):
        return "{block_name}({input_dim} -> {output_dim}, {dtype})".format(block_name=self.__class__.__name__,
                                                                         **self._kwargs)


class Flatten(HybridBlock):
    """Reshapes (N, d1, d2, ...) to (N, d1*d2*...)."""

    def hybrid_forward(self, F, x):
        return F.Flatten(x)

    def __repr__(self):
        return self.__class__.__name__


class InstanceNorm(HybridBlock):
    """Normalizes each sample and channel over the remaining axes, then applies
    ``gamma`` / ``beta`` per channel (``axis`` is the channel axis)."""

    def __init__(self, axis=1, epsilon=1e-5, center=True, scale=False, beta_initializer="zeros",
                 gamma_initializer="ones", in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        self.gamma = self.params.get("gamma", grad_req="write" if scale else "null", shape=(in_channels,),
                                     init=gamma_initializer, allow_deferred_init=True)
        self.beta = self.params.get("beta", grad_req="write" if center else "null", shape=(in_channels,),
                                    init=beta_initializer, allow_deferred_init=True)

    def hybrid_forward(self, F, x, gamma, beta):
        if self._axis == 1:
            return F.InstanceNorm(x, gamma, beta, name="fwd", eps=self._epsilon)
        x = x.swapaxes(1, self._axis)
        return F.InstanceNorm(x, gamma, beta, name="fwd", eps=self._epsilon).swapaxes(1, self._axis)

    def __repr__(self):
        content = ", ".join("=".join([k, repr(v)]) for k, v in self._kwargs.items())
        return "{name}({content}, in_channels={ch})".format(name=self.__class__.__name__, content=content,
                                                            ch=self.gamma.shape[0])


class LayerNorm(HybridBlock):
    """Normalizes over ``axis`` (default the last), then applies ``gamma`` /
    ``beta`` of shape (in_channels,)."""

    def __init__(self, axis=-1, epsilon=1e-5, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", in_channels=0, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        self._center = center
        self._scale = scale
        self.gamma = self.params.get("gamma", grad_req="write" if scale else "null", shape=(in_channels,),
                                     init=gamma_initializer, allow_deferred_init=True)
        self.beta = self.params.get("beta", grad_req="write" if center else "null", shape=(in_channels,),
                                    init=beta_initializer, allow_deferred_init=True)

    def hybrid_forward(self, F, data, gamma, beta):
        return F.LayerNorm(data, gamma=gamma, beta=beta, axis=self._axis, eps=self._epsilon)

    def __repr__(self):
        content = ", ".join("=".join([k, repr(v)]) for k, v in self._kwargs.items())
        return "{name}({content}, in_channels={ch})".format(name=self.__class__.__name__, content=content,
                                                            ch=self.gamma.shape[0])


def _func_name(fn):
    return getattr(fn, "__name__", type(fn).__name__)


class Lambda(Block):
    """Wraps a function (or the name of a weft.nd operator) as a Block:
    ``Lambda('tanh')``, ``Lambda(lambda x: nd.LeakyReLU(x, slope=0.1))``."""

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        if isinstance(function, str):
            if not hasattr(_nd, function):
                raise InvalidArgumentError("Function name %s is not found in ndarray." % function)
            self._func_impl = getattr(_nd, function)
        elif callable(function):
            self._func_impl = function
        else:
            raise InvalidArgumentError("Unrecognized function in lambda: {} of type {}"
                                       .format(function, type(function)))

    def forward(self, *args):
        return self._func_impl(*args)

    def __repr__(self):
        return "{name}({function})".format(name=self.__class__.__name__, function=_func_name(self._func_impl))


class HybridLambda(HybridBlock):
    """Wraps ``function(F, x, *args)`` (or the name of an operator present in
    both weft.nd and weft.sym) as a HybridBlock."""

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        if isinstance(function, str):
            if not (hasattr(_nd, function) and hasattr(_sym, function)):
                raise InvalidArgumentError("Function name %s is not found in symbol/ndarray." % function)
            func_dict = {_sym: getattr(_sym, function), _nd: getattr(_nd, function)}
            self._func = lambda F, *args: func_dict[F](*args)
            self._func_name = function
        elif callable(function):
            self._func = function
            self._func_name = _func_name(function)
        else:
            raise InvalidArgumentError("Unrecognized function in lambda: {} of type {}"
                                       .format(function, type(function)))

    def hybrid_forward(self, F, x, *args):
        return self._func(F, x, *args)

    def __repr__(self):
        return "{name}({function})".format(name=self.__class__.__name__, function=self._func_name)
