"""MXNet 1.9.1's ``gluon.contrib.nn`` layers: Concurrent, HybridConcurrent,
Identity, SyncBatchNorm (one process) and PixelShuffle1D/2D/3D.

The pixel shuffles are MXNet's reshape / transpose sequences (Reshape's special
codes 0, -3, -4), so they trace into symbols and hybridize.
"""
from .... import ndarray
from ....base import InvalidArgumentError
from ... import nn
from ...block import HybridBlock

__all__ = ["Concurrent", "HybridConcurrent", "Identity", "SyncBatchNorm", "PixelShuffle1D", "PixelShuffle2D",
           "PixelShuffle3D"]


class Concurrent(nn.Sequential):
    """Runs every child on the same input and concatenates their outputs along
    ``axis`` (default -1), e.g. the branches of an Inception block."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def forward(self, x):
        return ndarray.concat(*[block(x) for block in self._children.values()], dim=self.axis)


class HybridConcurrent(nn.HybridSequential):
    """Concurrent whose children are HybridBlocks, so it can be hybridized."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):  # pylint: disable=arguments-differ
        return F.concat(*[block(x) for block in self._children.values()], dim=self.axis)


class Identity(HybridBlock):
    """Returns its input (a placeholder branch of a Concurrent, e.g. a residual)."""

    def hybrid_forward(self, F, x):
        return x


class SyncBatchNorm(nn.BatchNorm):
    """Cross-device batch normalization (MXNet's contrib SyncBatchNorm), for a
    single process on one device, where it is BatchNorm: the statistics of the
    whole batch are those of the one device's batch. ``num_devices`` above 1
    needs a cross-device reduction of the statistics this build does not have,
    and is rejected rather than silently normalizing per device.

    Parameters
    ----------
    in_channels : int
        Number of channels; 0 infers it at the first call.
    num_devices : int or None
        Devices the batch is split over (None or 1).
    momentum, epsilon, center, scale, use_global_stats, beta_initializer, gamma_initializer,
    running_mean_initializer, running_variance_initializer
        As BatchNorm (channel axis 1).
    """

    def __init__(self, in_channels=0, num_devices=None, momentum=0.9, epsilon=1e-5, center=True, scale=True,
                 use_global_stats=False, beta_initializer="zeros", gamma_initializer="ones",
                 running_mean_initializer="zeros", running_variance_initializer="ones", **kwargs):
        if num_devices not in (None, 1):
            raise InvalidArgumentError("SyncBatchNorm: num_devices=%r is not supported; this build synchronises "
                                       "nothing across devices (use num_devices=None or 1, one device)"
                                       % (num_devices,))
        super().__init__(axis=1, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
                         use_global_stats=use_global_stats, beta_initializer=beta_initializer,
                         gamma_initializer=gamma_initializer, running_mean_initializer=running_mean_initializer,
                         running_variance_initializer=running_variance_initializer, in_channels=in_channels,
                         **kwargs)
        self.num_devices = 1


def _factors(factor, n, what):
    if isinstance(factor, int):
        factor = (factor,) * n
    factor = tuple(int(f) for f in factor)
    if len(factor) != n or any(f < 1 for f in factor):
        raise InvalidArgumentError("%s: factor must be a positive int or %d positive ints, got %r"
                                   % (what, n, factor))
    return factor


class PixelShuffle1D(HybridBlock):
    """(N, f*C, W) -> (N, C, W*f): channels become positions along W."""

    def __init__(self, factor):
        super().__init__()
        (self._factor,) = _factors(factor, 1, "PixelShuffle1D")

    def hybrid_forward(self, F, x):
        f = self._factor
        x = F.reshape(x, (0, -4, -1, f, 0))  # (N, C, f, W)
        x = F.transpose(x, (0, 1, 3, 2))     # (N, C, W, f)
        return F.reshape(x, (0, 0, -3))      # (N, C, W*f)

    def __repr__(self):
        return "{}({})".format(self.__class__.__name__, self._factor)


class PixelShuffle2D(HybridBlock):
    """(N, f1*f2*C, H, W) -> (N, C, H*f1, W*f2) (Shi et al., 2016)."""

    def __init__(self, factor):
        super().__init__()
        self._factors = _factors(factor, 2, "PixelShuffle2D")

    def hybrid_forward(self, F, x):
        f1, f2 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2, 0, 0))  # (N, C, f1*f2, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2, 0, 0))    # (N, C, f1, f2, H, W)
        x = F.transpose(x, (0, 1, 4, 2, 5, 3))        # (N, C, H, f1, W, f2)
        return F.reshape(x, (0, 0, -3, -3))           # (N, C, H*f1, W*f2)

    def __repr__(self):
        return "{}({})".format(self.__class__.__name__, self._factors)


class PixelShuffle3D(HybridBlock):
    """(N, f1*f2*f3*C, D, H, W) -> (N, C, D*f1, H*f2, W*f3)."""

    def __init__(self, factor):
        super().__init__()
        self._factors = _factors(factor, 3, "PixelShuffle3D")

    def hybrid_forward(self, F, x):
        f1, f2, f3 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2 * f3, 0, 0, 0))  # (N, C, f1*f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2 * f3, 0, 0, 0))    # (N, C, f1, f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, 0, -4, f2, f3, 0, 0, 0))      # (N, C, f1, f2, f3, D, H, W)
        x = F.transpose(x, (0, 1, 5, 2, 6, 3, 7, 4))          # (N, C, D, f1, H, f2, W, f3)
        return F.reshape(x, (0, 0, -3, -3, -3))               # (N, C, D*f1, H*f2, W*f3)

    def __repr__(self):
        return "{}({})".format(self.__class__.__name__, self._factors)
