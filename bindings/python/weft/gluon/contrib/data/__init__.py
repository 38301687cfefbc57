"""weft.gluon.contrib.data: MXNet 1.x's ``mxnet.gluon.contrib.data``: the
IntervalSampler and the WikiText-2 / WikiText-103 language-model datasets."""
from . import sampler, text
from .sampler import IntervalSampler
from .text import WikiText2, WikiText103

__all__ = ["sampler", "text", "IntervalSampler", "WikiText2", "WikiText103"]
