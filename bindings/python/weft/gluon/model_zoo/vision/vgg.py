"""VGG 11/13/16/19, with or without BatchNorm (Simonyan and Zisserman, "Very
Deep Convolutional Networks for Large-Scale Image Recognition"), as MXNet
1.x's Gluon model zoo builds them.

``features`` holds the 3x3 convolution stages (each ending in a 2x2 max
pooling) and the two 4096-wide Dense layers with dropout; ``output`` is the
classifier. The Dense layers infer their input width at the first forward, so
the published parameter counts hold for 224x224 inputs (7x7 after the five
poolings); smaller inputs (at least 32x32) run with narrower first Dense layers.
"""
from .._pretrained import _reject_pretrained
from ... import nn
from ...block import HybridBlock
from ....initializer import Xavier

__all__ = ["VGG", "vgg11", "vgg13", "vgg16", "vgg19", "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn", "get_vgg"]


class VGG(HybridBlock):
    """``layers``: convolutions per stage; ``filters``: each stage's width;
    ``batch_norm``: BatchNorm after every convolution."""

    def __init__(self, layers, filters, classes=1000, batch_norm=False, **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(filters):
            raise ValueError("VGG: layers and filters must have the same length, got %d and %d"
                             % (len(layers), len(filters)))
        with self.name_scope():
            self.features = self._make_features(layers, filters, batch_norm)
            for _ in range(2):
                self.features.add(nn.Dense(4096, activation="relu", weight_initializer="normal",
                                           bias_initializer="zeros"))
                self.features.add(nn.Dropout(rate=0.5))
            self.output = nn.Dense(classes, weight_initializer="normal", bias_initializer="zeros")

    @staticmethod
    def _make_features(layers, filters, batch_norm):
        features = nn.HybridSequential(prefix="")
        for num, width in zip(layers, filters):
            for _ in range(num):
                features.add(nn.Conv2D(width, kernel_size=3, padding=1,
                                       weight_initializer=Xavier(rnd_type="gaussian", factor_type="out",
                                                                 magnitude=2),
                                       bias_initializer="zeros"))
                if batch_norm:
                    features.add(nn.BatchNorm())
                features.add(nn.Activation("relu"))
            features.add(nn.MaxPool2D(strides=2))
        return features

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# depth -> (convolutions per stage, stage widths)
VGG_SPEC = {
    11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]),
    13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
    16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]),
    19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512]),
}


def get_vgg(num_layers, pretrained=False, ctx=None, root=None, **kwargs):  # pylint: disable=unused-argument
    """VGG of depth ``num_layers`` (11, 13, 16, 19); ``kwargs`` go to VGG
    (classes, batch_norm, prefix, params)."""
    if num_layers not in VGG_SPEC:
        raise ValueError("Invalid number of layers: %d. Options are %s" % (num_layers, sorted(VGG_SPEC)))
    _reject_pretrained(pretrained, "vgg%d%s" % (num_layers, "_bn" if kwargs.get("batch_norm") else ""))
    layers, filters = VGG_SPEC[num_layers]
    return VGG(layers, filters, **kwargs)


def vgg11(**kwargs):
    """VGG-11."""
    return get_vgg(11, **kwargs)


def vgg13(**kwargs):
    """VGG-13."""
    return get_vgg(13, **kwargs)


def vgg16(**kwargs):
    """VGG-16."""
    return get_vgg(16, **kwargs)


def vgg19(**kwargs):
    """VGG-19."""
    return get_vgg(19, **kwargs)


def vgg11_bn(**kwargs):
    """VGG-11 with BatchNorm."""
    kwargs["batch_norm"] = True
    return get_vgg(11, **kwargs)


def vgg13_bn(**kwargs):
    """VGG-13 with BatchNorm."""
    kwargs["batch_norm"] = True
    return get_vgg(13, **kwargs)


def vgg16_bn(**kwargs):
    """VGG-16 with BatchNorm."""
    kwargs["batch_norm"] = True
    return get_vgg(16, **kwargs)


def vgg19_bn(**kwargs):
    """VGG-19 with BatchNorm."""
    kwargs["batch_norm"] = True
    return get_vgg(19, **kwargs)
