"""mx.contrib.tensorboard: LogMetricsCallback, training metrics as TensorBoard scalars (MXNet 1.9.1).

Note [TensorBoard writers]
    MXNet writes through mxboard, which needs MXNet itself. Weft takes the first of
    tensorboardX, torch.utils.tensorboard and mxboard that imports; they share
    ``SummaryWriter(logdir).add_scalar(tag, value, global_step)``. None installed is an
    ImportError naming them, raised when the callback is created (MXNet only logs an
    error there and fails later, at the first call).
"""
import importlib

from ..base import InvalidArgumentError

__all__ = ["LogMetricsCallback"]

_WRITERS = ("tensorboardX", "torch.utils.tensorboard", "mxboard")


def _summary_writer_class():
    for module in _WRITERS:
        try:
            return importlib.import_module(module).SummaryWriter
        except ImportError:
            continue
    raise ImportError("LogMetricsCallback needs a TensorBoard writer: install tensorboardX "
                      "(`pip install tensorboardX`) or PyTorch (torch.utils.tensorboard); none of %s imports"
                      % ", ".join(_WRITERS))


class LogMetricsCallback:
    """A batch- or epoch-end callback for Module.fit writing each metric of
    ``param.eval_metric`` as a scalar at step ``param.epoch``.

    Parameters
    ----------
    logging_dir : str
        The TensorBoard log folder.
    prefix : str or None
        Tags are ``prefix-<metric name>`` (e.g. 'train', 'eval'), else the metric name.

    Examples
    --------
    >>> batch_end_callbacks = [mx.contrib.tensorboard.LogMetricsCallback('logs/train', 'train')]
    """

    def __init__(self, logging_dir, prefix=None):
        if not isinstance(logging_dir, str) or not logging_dir:
            raise InvalidArgumentError("LogMetricsCallback: logging_dir must be a folder path, got %r"
                                       % (logging_dir,))
        self.prefix = prefix
        self.summary_writer = _summary_writer_class()(logging_dir)

    def __call__(self, param):
        """Writes param.eval_metric's values (nothing when it is None)."""
        if param.eval_metric is None:
            return
        for name, value in param.eval_metric.get_name_value():
            if self.prefix is not None:
                name = "%s-%s" % (self.prefix, name)
            self.summary_writer.add_scalar(name, value, global_step=param.epoch)
