"""BatchProcessor: what the Estimator does with one batch (MXNet 1.9.1's
``mxnet.gluon.contrib.estimator.batch_processor``). Subclass it and pass
``Estimator(..., batch_processor=MyProcessor())`` to change the forward or
backward step (several losses, a custom split) without rewriting fit."""
from .... import autograd
from ....base import InvalidArgumentError
from ...utils import split_and_load

__all__ = ["BatchProcessor"]


class BatchProcessor:
    """The default: a batch is ``(data, label)``, split across the estimator's
    contexts along batch_axis."""

    def _get_data_and_label(self, batch, ctx, batch_axis=0):
        if not isinstance(batch, (list, tuple)) or len(batch) < 2:
            raise InvalidArgumentError("Estimator: each batch must be a (data, label) pair, got %s"
                                       % type(batch).__name__)
        data = split_and_load(batch[0], ctx, batch_axis=batch_axis, even_split=False)
        label = split_and_load(batch[1], ctx, batch_axis=batch_axis, even_split=False)
        return data, label

    def evaluate_batch(self, estimator, val_batch, batch_axis=0):
        """val_net's forward and val_loss on one batch: (data, label, pred, loss),
        each a list per device. The estimator updates its validation metrics."""
        data, label = self._get_data_and_label(val_batch, estimator.context, batch_axis)
        pred = [estimator.val_net(x) for x in data]
        loss = [estimator.val_loss(y_hat, y) for y_hat, y in zip(pred, label)]
        return data, label, pred, loss

    def fit_batch(self, estimator, train_batch, batch_axis=0):
        """Forward and loss under autograd.record(), then backward:
        (data, label, pred, loss), each a list per device."""
        data, label = self._get_data_and_label(train_batch, estimator.context, batch_axis)
        with autograd.record():
            pred = [estimator.net(x) for x in data]
            loss = [estimator.loss(y_hat, y) for y_hat, y in zip(pred, label)]
        for l in loss:
            l.backward()
        return data, label, pred, loss
