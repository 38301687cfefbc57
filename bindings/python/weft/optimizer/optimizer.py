"""The Optimizer base class and its name registry (MXNet 1.x's mx.optimizer.Optimizer).

An optimizer turns (index, weight, grad, state) into an in-place update of
``weight``. Subclasses implement ``create_state`` and ``update``; the base class
keeps the learning rate (fixed or from an ``lr_scheduler``), weight decay, the
per-parameter multipliers and the update counters, and wraps float16 weights
with a float32 master copy when ``multi_precision`` is set.

Note [Update counting]
    ``_update_count(index)`` runs once per update of a weight: the weight's own
    count (``_index_update_count[index]``, starting at ``begin_num_update``) goes
    up by one and ``num_update`` becomes the largest count of any weight. The
    scheduler is asked for the rate at ``num_update``; Adam's bias correction uses
    the weight's own count. Counts are kept per device
    (``_set_current_context``), so data-parallel copies of a weight updated on
    several devices count one step, not one per device.
"""
import warnings

import numpy

from ..base import ArgumentTypeError, InvalidArgumentError
from ..ndarray import NDArray, cast

__all__ = ["Optimizer", "register", "create"]


class Optimizer:
    """Base class of the optimizers.

    Parameters
    ----------
    rescale_grad : float
        Every gradient is multiplied by this first (often 1/batch_size).
    param_idx2name : dict of int to str
        Parameter names by index; names not ending in ``_weight`` or ``_gamma``
        get ``wd_mult`` 0 (no weight decay on biases, betas ...).
    wd : float
        Weight decay (L2 coefficient).
    clip_gradient : float or None
        Clip the rescaled gradient to [-clip_gradient, clip_gradient].
    learning_rate : float or None
        The learning rate; None means 0.01, or the scheduler's ``base_lr`` when
        an lr_scheduler is given (a value given here overrides that base_lr).
    lr_scheduler : weft.lr_scheduler.LRScheduler or None
        Gives the rate at each ``num_update``.
    sym : weft.sym.Symbol or None
        Its variables' ``__lr_mult__`` / ``__wd_mult__`` attributes become the
        multipliers of those names.
    begin_num_update : int
        The update count to start from (resuming a run).
    multi_precision : bool
        Update float16 weights through a float32 master copy kept in the state.
    param_dict : dict of index to Parameter
        Objects with ``lr_mult`` and ``wd_mult`` attributes (Gluon Parameters),
        which take precedence over the other multipliers.
    """

    opt_registry = {}

    def __init__(self, rescale_grad=1.0, param_idx2name=None, wd=0.0, clip_gradient=None, learning_rate=None,
                 lr_scheduler=None, sym=None, begin_num_update=0, multi_precision=False, param_dict=None,
                 aggregate_num=0):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None and lr_scheduler.base_lr != learning_rate:
            warnings.warn("learning rate from ``lr_scheduler`` has been overwritten by ``learning_rate`` "
                          "in optimizer.", UserWarning, stacklevel=2)
            lr_scheduler.base_lr = learning_rate
        self.wd = wd
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._all_index_update_counts = {0: {}}
        self._index_update_count = self._all_index_update_counts[0]
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        # > 0: the Updater hands update_multi_precision lists of up to aggregate_num
        # weights of one dtype (MXNet's aggregated form); they are updated in turn.
        self.aggregate_num = aggregate_num
        if param_idx2name is None:
            param_idx2name = {}
        if not isinstance(param_idx2name, dict):
            raise InvalidArgumentError("param_idx2name should be a dict of param indexes to names.")
        self.idx2name = param_idx2name.copy()
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        self.set_lr_mult({})
        self.set_wd_mult({})

    # -- registry --------------------------------------------------------------------------
    @staticmethod
    def register(klass):
        """Registers an Optimizer subclass under its lower-cased class name (a decorator)."""
        if not (isinstance(klass, type) and issubclass(klass, Optimizer)):
            raise InvalidArgumentError("register expects an Optimizer subclass, got %r" % (klass,))
        name = klass.__name__.lower()
        old = Optimizer.opt_registry.get(name)
        if old is not None and old is not klass:
            warnings.warn("New optimizer %s.%s is overriding existing optimizer %s.%s"
                          % (klass.__module__, klass.__name__, old.__module__, old.__name__),
                          UserWarning, stacklevel=2)
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """An instance of the optimizer registered as name (case-insensitive)."""
        if not isinstance(name, str):
            raise ArgumentTypeError("optimizer name must be a str, got %s" % type(name).__name__)
        klass = Optimizer.opt_registry.get(name.lower())
        if klass is None:
            raise InvalidArgumentError("Cannot find optimizer %r; registered: %s"
                                       % (name, ", ".join(sorted(Optimizer.opt_registry))))
        return klass(**kwargs)

    # -- states ----------------------------------------------------------------------------
    def create_state(self, index, weight):
        """The auxiliary state of a weight (None, an NDArray or a tuple of them)."""
        return None  # pylint: disable=useless-return

    def create_state_multi_precision(self, index, weight):
        """create_state, plus a float32 master copy first when multi_precision
        applies to a float16 weight: ``(weight32, state)``."""
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy = weight.astype(numpy.float32)
            return (weight_master_copy, self.create_state(index, weight_master_copy))
        if weight.dtype == numpy.float16 and not self.multi_precision:
            warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or slow convergence. "
                          "Consider using multi_precision=True option of the optimizer", UserWarning, stacklevel=2)
        return self.create_state(index, weight)

    # -- updates ---------------------------------------------------------------------------
    def update(self, index, weight, grad, state):
        """Updates weight (in place) from grad and the weight's state."""
        raise NotImplementedError()

    def update_multi_precision(self, index, weight, grad, state):
        """update, through the float32 master copy for float16 weights when
        multi_precision is set (the state of create_state_multi_precision)."""
        if isinstance(index, (list, tuple)):  # an aggregated call (Updater with aggregate_num > 0)
            for i, w, g, s in zip(index, weight, grad, state):
                self.update_multi_precision(i, w, g, s)
            return
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy, original_state = state
            grad32 = grad.astype(numpy.float32)
            self.update(index, weight_master_copy, grad32, original_state)
            cast(weight_master_copy, dtype=weight.dtype, out=weight)
        else:
            self.update(index, weight, grad, state)

    # -- learning rate and multipliers -----------------------------------------------------
    @property
    def learning_rate(self):
        """The current rate: the scheduler's at num_update, else ``lr``."""
        if self.lr_scheduler is not None:
            return self.lr_scheduler(self.num_update)
        return self.lr

    def set_learning_rate(self, lr):
        """Sets the rate; not allowed when an lr_scheduler drives it."""
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note that "
                              "set_learning_rate can mutate the value of the learning rate of the optimizer "
                              "only when the LRScheduler of the optimizer is undefined.")
        self.lr = lr

    def set_lr_scale(self, args_lrscale):  # pylint: disable=unused-argument
        """Removed in MXNet; use set_lr_mult."""
        raise DeprecationWarning("set_lr_scale is deprecated; use set_lr_mult")

    def set_lr_mult(self, args_lr_mult):
        """Sets the learning-rate multipliers: a dict of index or name -> float,
        on top of the symbol's ``__lr_mult__`` attributes."""
        self.lr_mult = {}
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__lr_mult__" in attr[name]:
                    self.lr_mult[name] = float(attr[name]["__lr_mult__"])
        self.lr_mult.update(args_lr_mult)

    def set_wd_mult(self, args_wd_mult):
        """Sets the weight-decay multipliers: a dict of index or name -> float, on
        top of 0 for every named parameter not ending in ``_weight`` / ``_gamma``
        and the symbol's ``__wd_mult__`` attributes."""
        self.wd_mult = {}
        for name in self.idx2name.values():
            if not (name.endswith("_weight") or name.endswith("_gamma")):
                self.wd_mult[name] = 0.0
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__wd_mult__" in attr[name]:
                    self.wd_mult[name] = float(attr[name]["__wd_mult__"])
        self.wd_mult.update(args_wd_mult)

    def _set_current_context(self, device_id):
        """Switches the per-weight update counts to those of device_id (Note [Update counting])."""
        if device_id not in self._all_index_update_counts:
            self._all_index_update_counts[device_id] = {}
        self._index_update_count = self._all_index_update_counts[device_id]

    def _update_count(self, index):
        """Counts one update of each index (Note [Update counting])."""
        for idx in index if isinstance(index, (list, tuple)) else [index]:
            if idx not in self._index_update_count:
                self._index_update_count[idx] = self.begin_num_update
            self._index_update_count[idx] += 1
            self.num_update = max(self._index_update_count[idx], self.num_update)

    def _get_lrs(self, indices):
        lr = self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr
        lrs = [lr for _ in indices]
        for i, index in enumerate(indices):
            if index in self.param_dict:
                lrs[i] *= self.param_dict[index].lr_mult
            elif index in self.lr_mult:
                lrs[i] *= self.lr_mult[index]
            elif index in self.idx2name:
                lrs[i] *= self.lr_mult.get(self.idx2name[index], 1.0)
        return lrs

    def _get_lr(self, index):
        """The rate for one weight: the current rate times its lr multiplier."""
        return self._get_lrs([index])[0]

    def _get_wds(self, indices):
        wds = [self.wd for _ in indices]
        for i, index in enumerate(indices):
            if index in self.param_dict:
                wds[i] *= self.param_dict[index].wd_mult
            elif index in self.wd_mult:
                wds[i] *= self.wd_mult[index]
            elif index in self.idx2name:
                wds[i] *= self.wd_mult.get(self.idx2name[index], 1.0)
        return wds

    def _get_wd(self, index):
        """The weight decay for one weight: wd times its wd multiplier."""
        return self._get_wds([index])[0]

    def _clip_kwargs(self):
        """rescale_grad and, when set, clip_gradient, as the fused update ops take them."""
        kwargs = {"rescale_grad": self.rescale_grad}
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        return kwargs

    def __repr__(self):
        return "%s(learning_rate=%r, wd=%r, rescale_grad=%r, clip_gradient=%r)" % (
            type(self).__name__, self.lr, self.wd, self.rescale_grad, self.clip_gradient)


register = Optimizer.register
create = Optimizer.create_optimizer


def _check_arrays(weight, grad):
    if not isinstance(weight, NDArray) or not isinstance(grad, NDArray):
        raise ArgumentTypeError("optimizer update: weight and grad must be NDArrays, got %s and %s"
                                   % (type(weight).__name__, type(grad).__name__))
