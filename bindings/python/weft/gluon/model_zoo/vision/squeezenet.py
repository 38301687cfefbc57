"""SqueezeNet 1.0 and 1.1 (Iandola et al., "SqueezeNet: AlexNet-level accuracy
with 50x fewer parameters and <0.5MB model size"), as MXNet 1.x's Gluon model
zoo builds them.

A fire module squeezes with a 1x1 convolution, then expands with a 1x1 and a
3x3 convolution side by side whose outputs are concatenated along channels
(MXNet builds that with contrib's HybridConcurrent; ``Fire`` does the same in
one block and creates its convolutions in the same order, so the parameter
names agree). The classifier ends in a 13x13 average pooling, so the network
expects 224x224 inputs (anything from 224 to 239 pixels gives 13x13 features).
"""
from .._pretrained import _reject_pretrained
from ... import nn
from ...block import HybridBlock

__all__ = ["SqueezeNet", "Fire", "squeezenet1_0", "squeezenet1_1", "get_squeezenet"]


def _conv_relu(channels, kernel_size, padding=0):
    out = nn.HybridSequential(prefix="")
    out.add(nn.Conv2D(channels, kernel_size, padding=padding))
    out.add(nn.Activation("relu"))
    return out


class Fire(HybridBlock):
    """Squeeze to ``squeeze_channels``, then concatenate the 1x1 and 3x3
    expansions (``expand1x1_channels + expand3x3_channels`` outputs)."""

    def __init__(self, squeeze_channels, expand1x1_channels, expand3x3_channels, **kwargs):
        kwargs.setdefault("prefix", "")
        super().__init__(**kwargs)
        self.squeeze = _conv_relu(squeeze_channels, 1)
        self.expand1x1 = _conv_relu(expand1x1_channels, 1)
        self.expand3x3 = _conv_relu(expand3x3_channels, 3, 1)

    def hybrid_forward(self, F, x):
        x = self.squeeze(x)
        return F.concat(self.expand1x1(x), self.expand3x3(x), dim=1)


class SqueezeNet(HybridBlock):
    """SqueezeNet ``version`` '1.0' or '1.1' with ``classes`` outputs."""

    def __init__(self, version, classes=1000, **kwargs):
        super().__init__(**kwargs)
        if version not in ("1.0", "1.1"):
            raise ValueError("Unsupported SqueezeNet version %s: '1.0' or '1.1' expected" % version)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            add = self.features.add
            if version == "1.0":
                add(nn.Conv2D(96, kernel_size=7, strides=2))
                add(nn.Activation("relu"))
                add(nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                add(Fire(16, 64, 64))
                add(Fire(16, 64, 64))
                add(Fire(32, 128, 128))
                add(nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                add(Fire(32, 128, 128))
                add(Fire(48, 192, 192))
                add(Fire(48, 192, 192))
                add(Fire(64, 256, 256))
                add(nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                add(Fire(64, 256, 256))
            else:
                add(nn.Conv2D(64, kernel_size=3, strides=2))
                add(nn.Activation("relu"))
                add(nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                add(Fire(16, 64, 64))
                add(Fire(16, 64, 64))
                add(nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                add(Fire(32, 128, 128))
                add(Fire(32, 128, 128))
                add(nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                add(Fire(48, 192, 192))
                add(Fire(48, 192, 192))
                add(Fire(64, 256, 256))
                add(Fire(64, 256, 256))
            add(nn.Dropout(0.5))

            self.output = nn.HybridSequential(prefix="")
            self.output.add(nn.Conv2D(classes, kernel_size=1))
            self.output.add(nn.Activation("relu"))
            self.output.add(nn.AvgPool2D(13))
            self.output.add(nn.Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def get_squeezenet(version, pretrained=False, ctx=None, root=None, **kwargs):  # pylint: disable=unused-argument
    """SqueezeNet ``version`` ('1.0' or '1.1'); ``kwargs`` go to SqueezeNet."""
    _reject_pretrained(pretrained, "squeezenet%s" % version)
    return SqueezeNet(version, **kwargs)


def squeezenet1_0(**kwargs):
    """SqueezeNet 1.0."""
    return get_squeezenet("1.0", **kwargs)


def squeezenet1_1(**kwargs):
    """SqueezeNet 1.1 (2.4x less computation than 1.0, slightly fewer parameters)."""
    return get_squeezenet("1.1", **kwargs)
