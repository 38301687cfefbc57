"""IntervalSampler, where MXNet 1.x has it (``gluon.contrib.data.sampler``);
the same class as ``weft.gluon.data.IntervalSampler``."""
from ...data.sampler import IntervalSampler

__all__ = ["IntervalSampler"]
