"""AlexNet (Krizhevsky, "One weird trick for parallelizing convolutional
neural networks": the single-tower variant), as MXNet 1.x's Gluon model zoo
builds it: five convolutions and three max poolings, then two 4096-wide Dense
layers with dropout in ``features``, and the classifier ``output``.

224x224 inputs give 6x6x256 features (the published parameter count); the
smallest input the poolings accept is 63x63.
"""
from .._pretrained import _reject_pretrained
from ... import nn
from ...block import HybridBlock

__all__ = ["AlexNet", "alexnet"]


class AlexNet(HybridBlock):
    """AlexNet with ``classes`` outputs."""

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            with self.features.name_scope():
                self.features.add(nn.Conv2D(64, kernel_size=11, strides=4, padding=2, activation="relu"))
                self.features.add(nn.MaxPool2D(pool_size=3, strides=2))
                self.features.add(nn.Conv2D(192, kernel_size=5, padding=2, activation="relu"))
                self.features.add(nn.MaxPool2D(pool_size=3, strides=2))
                self.features.add(nn.Conv2D(384, kernel_size=3, padding=1, activation="relu"))
                self.features.add(nn.Conv2D(256, kernel_size=3, padding=1, activation="relu"))
                self.features.add(nn.Conv2D(256, kernel_size=3, padding=1, activation="relu"))
                self.features.add(nn.MaxPool2D(pool_size=3, strides=2))
                self.features.add(nn.Flatten())
                self.features.add(nn.Dense(4096, activation="relu"))
                self.features.add(nn.Dropout(0.5))
                self.features.add(nn.Dense(4096, activation="relu"))
                self.features.add(nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def alexnet(pretrained=False, ctx=None, root=None, **kwargs):  # pylint: disable=unused-argument
    """AlexNet; ``kwargs`` go to AlexNet (classes, prefix, params)."""
    _reject_pretrained(pretrained, "alexnet")
    return AlexNet(**kwargs)
