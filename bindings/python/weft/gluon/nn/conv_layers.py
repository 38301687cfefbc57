"""Convolution and pooling layers (MXNet 1.x's ``gluon.nn.conv_layers``).

Only channel-first layouts (NCW, NCHW, NCDHW) are supported: Weft's
Convolution, Deconvolution and Pooling operators are channel-first.
"""
# pylint: disable=arguments-differ,too-many-arguments,too-many-locals
from ...base import InvalidArgumentError
from ..block import HybridBlock
from .activations import Activation

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose",
           "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
           "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D", "GlobalAvgPool1D", "GlobalAvgPool2D",
           "GlobalAvgPool3D", "ReflectionPad2D"]

_LAYOUTS = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def _tuple(v, n, what):
    if isinstance(v, int):
        return (v,) * n
    v = tuple(int(i) for i in v)
    if len(v) != n:
        raise InvalidArgumentError("%s must be a number or a list of %d ints, got %s" % (what, n, v))
    return v


def _check_layout(layout, n):
    if layout != _LAYOUTS[n]:
        raise InvalidArgumentError("layout '%s' is not supported; Weft supports only the channel-first layout '%s' "
                                   "for %d-D convolution and pooling" % (layout, _LAYOUTS[n], n))


class _Conv(HybridBlock):
    """Convolution (``op_name='Convolution'``) or its transpose
    (``'Deconvolution'``) with parameters ``weight`` and ``bias``.

    weight shape: Convolution (channels, in_channels / groups, *kernel);
    Deconvolution (in_channels, channels / groups, *kernel). An unknown
    ``in_channels`` (0) is inferred at the first call."""

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups, layout, in_channels=0,
                 activation=None, use_bias=True, weight_initializer=None, bias_initializer="zeros",
                 op_name="Convolution", adj=None, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        n = len(kernel_size)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            strides = _tuple(strides, n, "strides")
            padding = _tuple(padding, n, "padding")
            dilation = _tuple(dilation, n, "dilation")
            self._op_name = op_name
            self._kwargs = {"kernel": kernel_size, "stride": strides, "dilate": dilation, "pad": padding,
                            "num_filter": channels, "num_group": groups, "no_bias": not use_bias,
                            "layout": layout}
            if adj is not None:
                self._kwargs["adj"] = adj
            if op_name == "Convolution":
                wshape = (channels, in_channels // groups if in_channels else 0) + tuple(kernel_size)
            else:
                wshape = (in_channels, channels // groups) + tuple(kernel_size)
            self.weight = self.params.get("weight", shape=wshape, init=weight_initializer,
                                          allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get("bias", shape=(channels,), init=bias_initializer,
                                            allow_deferred_init=True)
            else:
                self.bias = None
            if activation is not None:
                self.act = Activation(activation, prefix=activation + "_")
            else:
                self.act = None

    def hybrid_forward(self, F, x, weight, bias=None):
        op = getattr(F, self._op_name)
        if bias is None:
            act = op(x, weight, name="fwd", **self._kwargs)
        else:
            act = op(x, weight, bias, name="fwd", **self._kwargs)
        if self.act is not None:
            act = self.act(act)
        return act

    def _alias(self):
        return "conv"

    def __repr__(self):
        s = "{name}({mapping}, kernel_size={kernel}, stride={stride}"
        n = len(self._kwargs["kernel"])
        if self._kwargs["pad"] != (0,) * n:
            s += ", padding={pad}"
        if self._kwargs["dilate"] != (1,) * n:
            s += ", dilation={dilate}"
        if hasattr(self, "outpad") and self.outpad != (0,) * n:
            s += ", output_padding={}".format(self.outpad)
        if self._kwargs["num_group"] != 1:
            s += ", groups={num_group}"
        if self.bias is None:
            s += ", bias=False"
        if self.act:
            s += ", {}".format(self.act)
        s += ")"
        shape = self.weight.shape
        return s.format(name=self.__class__.__name__,
                        mapping="{0} -> {1}".format(shape[1] if shape[1] else None, shape[0]), **self._kwargs)


def _conv_class(n, transpose):
    """Conv{n}D / Conv{n}DTranspose."""
    layout_default = _LAYOUTS[n]

    if not transpose:
        class ConvND(_Conv):  # pylint: disable=missing-class-docstring
            def __init__(self, channels, kernel_size, strides=1, padding=0, dilation=1, groups=1,
                         layout=layout_default, activation=None, use_bias=True, weight_initializer=None,
                         bias_initializer="zeros", in_channels=0, **kwargs):
                _check_layout(layout, n)
                kernel_size = _tuple(kernel_size, n, "kernel_size")
                super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                                 activation, use_bias, weight_initializer, bias_initializer, **kwargs)
        ConvND.__name__ = ConvND.__qualname__ = "Conv%dD" % n
        ConvND.__doc__ = (
            "%d-D convolution over %s input (weight (channels, in_channels/groups, *kernel_size)).\n\n"
            "Parameters: channels, kernel_size, strides, padding, dilation, groups, layout, activation,\n"
            "use_bias, weight_initializer, bias_initializer, in_channels (0: inferred)." % (n, layout_default))
        return ConvND

    class ConvNDTranspose(_Conv):  # pylint: disable=missing-class-docstring
        def __init__(self, channels, kernel_size, strides=1, padding=0, output_padding=0, dilation=1, groups=1,
                     layout=layout_default, activation=None, use_bias=True, weight_initializer=None,
                     bias_initializer="zeros", in_channels=0, **kwargs):
            _check_layout(layout, n)
            kernel_size = _tuple(kernel_size, n, "kernel_size")
            output_padding = _tuple(output_padding, n, "output_padding")
            super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout, in_channels,
                             activation, use_bias, weight_initializer, bias_initializer, op_name="Deconvolution",
                             adj=output_padding, **kwargs)
            self.outpad = output_padding
    ConvNDTranspose.__name__ = ConvNDTranspose.__qualname__ = "Conv%dDTranspose" % n
    ConvNDTranspose.__doc__ = (
        "%d-D transposed convolution over %s input (weight (in_channels, channels/groups, *kernel_size)).\n\n"
        "Parameters: channels, kernel_size, strides, padding, output_padding, dilation, groups, layout,\n"
        "activation, use_bias, weight_initializer, bias_initializer, in_channels (0: inferred)."
        % (n, layout_default))
    return ConvNDTranspose


Conv1D = _conv_class(1, False)
Conv2D = _conv_class(2, False)
Conv3D = _conv_class(3, False)
Conv1DTranspose = _conv_class(1, True)
Conv2DTranspose = _conv_class(2, True)
Conv3DTranspose = _conv_class(3, True)
for _c in (Conv1D, Conv2D, Conv3D, Conv1DTranspose, Conv2DTranspose, Conv3DTranspose):
    _c.__module__ = __name__


class _Pooling(HybridBlock):
    """Pooling of ``pool_type`` ('max' or 'avg') over the spatial axes."""

    def __init__(self, pool_size, strides, padding, ceil_mode, global_pool, pool_type, layout,
                 count_include_pad=None, **kwargs):
        super().__init__(**kwargs)
        n = len(pool_size)
        if strides is None:
            strides = pool_size
        strides = _tuple(strides, n, "strides")
        padding = _tuple(padding, n, "padding")
        self._kwargs = {"kernel": pool_size, "stride": strides, "pad": padding, "global_pool": global_pool,
                        "pool_type": pool_type, "layout": layout,
                        "pooling_convention": "full" if ceil_mode else "valid"}
        if count_include_pad is not None:
            self._kwargs["count_include_pad"] = count_include_pad

    def _alias(self):
        return "pool"

    def hybrid_forward(self, F, x):
        return F.Pooling(x, name="fwd", **self._kwargs)

    def __repr__(self):
        s = "{name}(size={kernel}, stride={stride}, padding={pad}, ceil_mode={ceil_mode}"
        s += ", global_pool={global_pool}, pool_type={pool_type}, layout={layout})"
        return s.format(name=self.__class__.__name__, ceil_mode=self._kwargs["pooling_convention"] == "full",
                        **self._kwargs)


def _pool_class(n, pool_type):
    layout_default = _LAYOUTS[n]
    default_size = 2 if n == 1 else (2,) * n
    if pool_type == "max":
        class PoolND(_Pooling):  # pylint: disable=missing-class-docstring
            def __init__(self, pool_size=default_size, strides=None, padding=0, layout=layout_default,
                         ceil_mode=False, **kwargs):
                _check_layout(layout, n)
                super().__init__(_tuple(pool_size, n, "pool_size"), strides, padding, ceil_mode, False, "max",
                                 layout, **kwargs)
    else:
        class PoolND(_Pooling):  # pylint: disable=missing-class-docstring
            def __init__(self, pool_size=default_size, strides=None, padding=0, layout=layout_default,
                         ceil_mode=False, count_include_pad=True, **kwargs):
                _check_layout(layout, n)
                super().__init__(_tuple(pool_size, n, "pool_size"), strides, padding, ceil_mode, False, "avg",
                                 layout, count_include_pad, **kwargs)
    name = "%sPool%dD" % ("Max" if pool_type == "max" else "Avg", n)
    PoolND.__name__ = PoolND.__qualname__ = name
    PoolND.__module__ = __name__
    PoolND.__doc__ = ("%s pooling over %s input.\n\nParameters: pool_size, strides (default pool_size), padding, "
                      "layout, ceil_mode%s." % ("Max" if pool_type == "max" else "Average", layout_default,
                                               "" if pool_type == "max" else ", count_include_pad"))
    return PoolND


def _global_pool_class(n, pool_type):
    layout_default = _LAYOUTS[n]

    class GlobalPoolND(_Pooling):  # pylint: disable=missing-class-docstring
        def __init__(self, layout=layout_default, **kwargs):
            _check_layout(layout, n)
            super().__init__((1,) * n, None, 0, True, True, pool_type, layout, **kwargs)
    name = "Global%sPool%dD" % ("Max" if pool_type == "max" else "Avg", n)
    GlobalPoolND.__name__ = GlobalPoolND.__qualname__ = name
    GlobalPoolND.__module__ = __name__
    GlobalPoolND.__doc__ = "Global %s pooling over %s input: output spatial size 1." % (pool_type, layout_default)
    return GlobalPoolND


MaxPool1D = _pool_class(1, "max")
MaxPool2D = _pool_class(2, "max")
MaxPool3D = _pool_class(3, "max")
AvgPool1D = _pool_class(1, "avg")
AvgPool2D = _pool_class(2, "avg")
AvgPool3D = _pool_class(3, "avg")
GlobalMaxPool1D = _global_pool_class(1, "max")
GlobalMaxPool2D = _global_pool_class(2, "max")
GlobalMaxPool3D = _global_pool_class(3, "max")
GlobalAvgPool1D = _global_pool_class(1, "avg")
GlobalAvgPool2D = _global_pool_class(2, "avg")
GlobalAvgPool3D = _global_pool_class(3, "avg")


class ReflectionPad2D(HybridBlock):
    """Pads the two spatial axes of NCHW input by reflection (``padding``: an
    int or MXNet's 8-tuple pad_width)."""

    def __init__(self, padding=0, **kwargs):
        super().__init__(**kwargs)
        if isinstance(padding, int):
            padding = (0, 0, 0, 0, padding, padding, padding, padding)
        if len(padding) != 8:
            raise InvalidArgumentError("ReflectionPad2D: padding must be an int or 8 ints")
        self._padding = tuple(padding)

    def hybrid_forward(self, F, x):
        return F.pad(x, mode="reflect", pad_width=self._padding)
