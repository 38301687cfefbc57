"""Losses for training (MXNet 1.x's ``mxnet.gluon.loss``).

Every loss is a HybridBlock called as ``loss(pred, label[, sample_weight])``
and returns one value per sample: the element losses times ``sample_weight``
(broadcast) times the scalar ``weight``, averaged over every axis except
``batch_axis``. So ``L2Loss()(pred, label)`` on (N, k) arrays has shape (N,).
Exceptions, as in MXNet: CosineEmbeddingLoss returns (N, 1) and
PoissonNLLLoss the mean over everything.

Labels are reshaped to the prediction's shape first where MXNet does so (a
label of shape (N,) for a prediction of (N, 1)). In a hybridized loss that needs
the ``reshape_like`` operator; where the registry has none, the label must
already have the prediction's shape (a mismatch fails shape inference).
"""
# pylint: disable=arguments-differ,too-many-arguments
import math
import numbers

from ..base import InvalidArgumentError
from .. import ndarray as _nd
from .block import HybridBlock

__all__ = ["Loss", "L2Loss", "L1Loss", "SigmoidBinaryCrossEntropyLoss", "SigmoidBCELoss",
           "SoftmaxCrossEntropyLoss", "SoftmaxCELoss", "KLDivLoss", "HuberLoss", "HingeLoss",
           "SquaredHingeLoss", "LogisticLoss", "TripletLoss", "PoissonNLLLoss", "CosineEmbeddingLoss",
           "CTCLoss", "SDMLLoss"]


def _apply_weighting(F, loss, weight=None, sample_weight=None):
    """loss * sample_weight (broadcast) * weight (a number)."""
    if sample_weight is not None:
        loss = F.broadcast_mul(loss, sample_weight)
    if weight is not None:
        if not isinstance(weight, numbers.Number):
            raise InvalidArgumentError("loss weight must be a number, got %s" % type(weight).__name__)
        loss = loss * weight
    return loss


def _reshape_like(F, x, y):
    """x with y's shape (same number of elements)."""
    if F is _nd:
        return x.reshape(y.shape)
    if hasattr(F, "reshape_like"):
        return F.reshape_like(x, y)
    return x  # see the module doc: shape inference rejects a mismatch


def _per_sample(F, loss, batch_axis):
    return F.mean(loss, axis=batch_axis, exclude=True)


def _softplus(F, x):
    return F.Activation(x, act_type="softrelu")


class Loss(HybridBlock):
    """Base class of the losses.

    Parameters
    ----------
    weight : float or None
        Global scalar the loss is multiplied by.
    batch_axis : int
        The axis that indexes samples; the result keeps only this axis.
    """

    def __init__(self, weight, batch_axis, **kwargs):
        super().__init__(**kwargs)
        self._weight = weight
        self._batch_axis = batch_axis

    def __repr__(self):
        return "{name}(batch_axis={_batch_axis}, w={_weight})".format(name=self.__class__.__name__,
                                                                      **self.__dict__)

    def hybrid_forward(self, F, x, *args, **kwargs):
        """Overridden by each loss: ``hybrid_forward(F, pred, label, sample_weight=None)``."""
        raise NotImplementedError


class L2Loss(Loss):
    """``0.5 * weight * (label - pred)^2``, averaged per sample."""

    def __init__(self, weight=1., batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.square(label - pred)
        loss = _apply_weighting(F, loss, self._weight / 2, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


class L1Loss(Loss):
    """``|label - pred|``, averaged per sample."""

    def __init__(self, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.abs(label - pred)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


class SigmoidBinaryCrossEntropyLoss(Loss):
    """Binary cross-entropy with labels in [0, 1].

    ``from_sigmoid=False`` (default): pred holds logits and the loss is computed
    stably as ``max(x, 0) - x*z + log(1 + exp(-|x|))``. ``from_sigmoid=True``:
    pred holds probabilities. ``pos_weight`` (a forward argument, as in MXNet,
    broadcastable to pred) scales the positive term.
    """

    def __init__(self, from_sigmoid=False, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_sigmoid = from_sigmoid

    def hybrid_forward(self, F, pred, label, sample_weight=None, pos_weight=None):
        label = _reshape_like(F, label, pred)
        if not self._from_sigmoid:
            if pos_weight is None:
                loss = F.relu(pred) - pred * label + _softplus(F, -F.abs(pred))
            else:
                # (1 - z) * x + (1 + (p - 1) * z) * log(1 + exp(-x)), with log(1 + exp(-x)) written stably
                log_weight = 1 + F.broadcast_mul(pos_weight - 1, label)
                loss = pred - pred * label + log_weight * (_softplus(F, -F.abs(pred)) + F.relu(-pred))
        else:
            eps = 1e-12
            pos = F.log(pred + eps) * label
            if pos_weight is not None:
                pos = F.broadcast_mul(pos, pos_weight)
            loss = -(pos + F.log(1. - pred + eps) * (1. - label))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


SigmoidBCELoss = SigmoidBinaryCrossEntropyLoss


class SoftmaxCrossEntropyLoss(Loss):
    """Softmax cross-entropy: ``-sum(label * log_softmax(pred, axis))``.

    sparse_label=True (default): label holds class indices (pred's shape without
    ``axis``); False: label is a distribution of pred's shape. from_logits=True:
    pred already holds log-probabilities.
    """

    def __init__(self, axis=-1, sparse_label=True, from_logits=False, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._axis = axis
        self._sparse_label = sparse_label
        self._from_logits = from_logits

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = F.log_softmax(pred, axis=self._axis)
        if self._sparse_label:
            loss = -F.pick(pred, label, axis=self._axis, keepdims=True)
        else:
            label = _reshape_like(F, label, pred)
            loss = -F.sum(pred * label, axis=self._axis, keepdims=True)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


SoftmaxCELoss = SoftmaxCrossEntropyLoss


class KLDivLoss(Loss):
    """Kullback-Leibler divergence ``label * (log(label) - pred)``.

    from_logits=True (default): pred holds log-probabilities; False: pred holds
    scores and log_softmax over ``axis`` is applied first.
    """

    def __init__(self, from_logits=True, axis=-1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._axis = axis

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = F.log_softmax(pred, axis=self._axis)
        loss = label * (F.log(label + 1e-12) - pred)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


class HuberLoss(Loss):
    """Smoothed L1: ``0.5/rho * d^2`` where ``|d| <= rho``, else ``|d| - 0.5*rho``."""

    def __init__(self, rho=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._rho = rho

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.abs(label - pred)
        loss = F.where(loss > self._rho, loss - 0.5 * self._rho, (0.5 / self._rho) * F.square(loss))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


class HingeLoss(Loss):
    """``max(0, margin - pred * label)`` with labels in {-1, 1}."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.relu(self._margin - pred * label)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


class SquaredHingeLoss(Loss):
    """``max(0, margin - pred * label)^2`` with labels in {-1, 1}."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.square(F.relu(self._margin - pred * label))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


class LogisticLoss(Loss):
    """``log(1 + exp(-pred * label))``; label_format 'signed' ({-1, 1}) or 'binary' ({0, 1})."""

    def __init__(self, weight=None, batch_axis=0, label_format="signed", **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        if label_format not in ("signed", "binary"):
            raise InvalidArgumentError("label_format must be 'signed' or 'binary', got %r" % (label_format,))
        self._label_format = label_format

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        if self._label_format == "signed":
            label = (label + 1.0) / 2.0
        loss = F.relu(pred) - pred * label + _softplus(F, -F.abs(pred))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _per_sample(F, loss, self._batch_axis)


class TripletLoss(Loss):
    """``max(0, |pos - pred|^2 - |neg - pred|^2 + margin)``, the squares summed per sample."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, positive, negative, sample_weight=None):
        positive = _reshape_like(F, positive, pred)
        negative = _reshape_like(F, negative, pred)
        loss = F.sum(F.square(positive - pred) - F.square(negative - pred), axis=self._batch_axis, exclude=True)
        loss = F.relu(loss + self._margin)
        return _apply_weighting(F, loss, self._weight, sample_weight)


class PoissonNLLLoss(Loss):
    """Poisson negative log-likelihood, averaged over every element (as in MXNet).

    from_logits=True: pred is log(rate), loss ``exp(pred) - target*pred``; False:
    pred is the rate, loss ``pred - target*log(pred + epsilon)``. compute_full
    adds Stirling's approximation of ``log(target!)`` for targets > 1.
    """

    def __init__(self, weight=None, from_logits=True, batch_axis=0, compute_full=False, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._compute_full = compute_full

    def hybrid_forward(self, F, pred, target, sample_weight=None, epsilon=1e-08):
        target = _reshape_like(F, target, pred)
        if self._from_logits:
            loss = F.exp(pred) - target * pred
        else:
            loss = pred - target * F.log(pred + epsilon)
        if self._compute_full:
            stirling = target * F.log(target) - target + 0.5 * F.log(2 * target * math.pi)
            loss = loss + stirling * (target > 1)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return F.mean(loss)


class CosineEmbeddingLoss(Loss):
    """``1 - cos(x1, x2)`` for label 1, ``max(0, cos(x1, x2) - margin)`` for label -1.

    Called as ``loss(input1, input2, label[, sample_weight])``; the cosine is taken
    over the last axis and the result has shape (N, 1), as in MXNet.
    """

    def __init__(self, weight=None, batch_axis=0, margin=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, input1, input2, label, sample_weight=None):
        input1 = _reshape_like(F, input1, input2)
        label = label.reshape((-1, 1))
        cos_sim = self._cosine_similarity(F, input1, input2)
        y_1 = label == 1
        y_minus_1 = label == -1
        loss = (1 - cos_sim) * y_1 + F.relu(y_minus_1 * (cos_sim - self._margin))
        return _apply_weighting(F, loss, self._weight, sample_weight)

    @staticmethod
    def _cosine_similarity(F, x, y, axis=-1):
        x_norm = F.norm(x, axis=axis).reshape((-1, 1))
        y_norm = F.norm(y, axis=axis).reshape((-1, 1))
        x_dot_y = F.sum(x * y, axis=axis).reshape((-1, 1))
        eps = 1e-12
        return x_dot_y / (F.relu(x_norm * y_norm - eps) + eps)  # max(|x||y|, eps)


class CTCLoss(Loss):
    """Connectionist Temporal Classification loss (MXNet 1.9.1's gluon.loss.CTCLoss).

    ``layout`` ('NTC' or 'TNC') is pred's layout, ``label_layout`` ('NT' or 'TN')
    label's. The last class of pred's alphabet is the blank; labels shorter than
    the label length are padded with -1 (or given their lengths in
    ``label_lengths``). Returns one loss per sample, shape (N,).
    """

    def __init__(self, layout="NTC", label_layout="NT", weight=None, **kwargs):
        if layout not in ("NTC", "TNC"):
            raise InvalidArgumentError("CTCLoss: layout must be 'NTC' or 'TNC', got %r" % (layout,))
        if label_layout not in ("NT", "TN"):
            raise InvalidArgumentError("CTCLoss: label_layout must be 'NT' or 'TN', got %r" % (label_layout,))
        self._layout = layout
        self._label_layout = label_layout
        super().__init__(weight, label_layout.find("N"), **kwargs)

    def hybrid_forward(self, F, pred, label, pred_lengths=None, label_lengths=None, sample_weight=None):
        if self._layout == "NTC":
            pred = F.swapaxes(pred, 0, 1)  # the op reads (T, N, C)
        if self._batch_axis == 1:
            label = F.swapaxes(label, 0, 1)
        loss = F.CTCLoss(pred, label, pred_lengths, label_lengths,
                         use_data_lengths=pred_lengths is not None,
                         use_label_lengths=label_lengths is not None,
                         blank_label="last")
        return _apply_weighting(F, loss, self._weight, sample_weight)


class SDMLLoss(Loss):
    """Batchwise Smoothed Deep Metric Learning loss (MXNet 1.9.1's gluon.loss.SDMLLoss).

    x1[i] and x2[i] are a positive pair, every other x2[j] a negative for x1[i].
    With D[i, j] = ||x1[i] - x2[j]||^2 and smoothed labels
    L = eye(B) * (1 - s) + (1 - eye(B)) * s / (B - 1), the loss of sample i is
    ``B * mean_j(L[i, j] * (log L[i, j] - log_softmax(-D, axis=1)[i, j]))``
    (KL divergence; the factor B undoes KLDivLoss's mean, as in MXNet).
    Like MXNet's it reads the batch size from x1.shape, so it runs imperatively.
    """

    def __init__(self, smoothing_parameter=0.3, weight=1., batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self.kl_loss = KLDivLoss(from_logits=True)
        self.smoothing_parameter = smoothing_parameter

    def _compute_distances(self, F, x1, x2):
        squared_diffs = (F.expand_dims(x1, 1) - F.expand_dims(x2, 0)) ** 2
        return squared_diffs.sum(axis=2)

    def _compute_labels(self, F, batch_size):
        gold = F.eye(batch_size)
        return gold * (1 - self.smoothing_parameter) + (1 - gold) * self.smoothing_parameter / (batch_size - 1)

    def hybrid_forward(self, F, x1, x2):
        shape = getattr(x1, "shape", None)
        if shape is None:
            raise InvalidArgumentError("SDMLLoss: needs x1's batch size, so it runs imperatively only "
                                       "(as MXNet's); do not hybridize it")
        if len(shape) != 2 or tuple(x2.shape) != tuple(shape):
            raise InvalidArgumentError("SDMLLoss: x1 and x2 must both be (batch_size, dim), got %s and %s"
                                       % (tuple(shape), tuple(x2.shape)))
        batch_size = shape[0]
        if batch_size < 2:
            raise InvalidArgumentError("SDMLLoss: needs a batch of at least 2 pairs, got %d" % batch_size)
        labels = self._compute_labels(F, batch_size)
        distances = self._compute_distances(F, x1, x2)
        log_probabilities = F.log_softmax(-distances, axis=1)
        return self.kl_loss(log_probabilities, labels.as_in_context(distances.context)) * batch_size
