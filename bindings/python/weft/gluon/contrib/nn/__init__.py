"""weft.gluon.contrib.nn (MXNet 1.9.1's ``gluon.contrib.nn``): Concurrent,
HybridConcurrent, Identity, SyncBatchNorm and PixelShuffle1D/2D/3D."""
from .basic_layers import *  # noqa: F401,F403
from .basic_layers import __all__  # noqa: F401
