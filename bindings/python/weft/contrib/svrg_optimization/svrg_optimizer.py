"""SVRGOptimizer: the optimizer SVRGModule installs (MXNet 1.9.1's
mx.contrib.svrg_optimization.svrg_optimizer).

Note [SVRG full-gradient keys]
    SVRGModule keeps, besides each parameter ``w``, a KVStore entry ``w_full`` that
    sums the full gradients of all devices and workers. SVRGOptimizer dispatches on
    the parameter's name: ``*_full`` entries are *assigned* the pushed value
    (_AssignmentOptimizer: the store then holds the sum), every other parameter is
    updated by the wrapped default optimizer.
"""
from ... import optimizer as opt
from ...base import InvalidArgumentError

__all__ = ["SVRGOptimizer"]


@opt.register
class _AssignmentOptimizer(opt.Optimizer):
    """weight := grad; only for SVRGModule's full-gradient entries (Note [SVRG full-gradient keys])."""

    def update(self, index, weight, grad, state):
        weight[:] = grad


@opt.register
class _SVRGOptimizer(opt.Optimizer):
    """Updates ``*_full`` entries by assignment and every other parameter with
    default_optimizer (a name, created with the keyword arguments, or an Optimizer).

    Parameters
    ----------
    default_optimizer : str or Optimizer
    **kwargs
        The Optimizer base arguments (learning_rate, wd, rescale_grad, param_idx2name,
        ...) configure this optimizer; all of them are passed to a default
        optimizer created by name.
    """

    _BASE_PARAMS = ("rescale_grad", "param_idx2name", "wd", "clip_gradient", "learning_rate", "lr_scheduler", "sym",
                    "begin_num_update", "multi_precision", "param_dict")

    def __init__(self, default_optimizer, **kwargs):
        super().__init__(**self._check_params(**kwargs))
        if isinstance(default_optimizer, str):
            self.default_opt = opt.create(default_optimizer, **kwargs)
        elif isinstance(default_optimizer, opt.Optimizer):
            self.default_opt = default_optimizer
        else:
            raise InvalidArgumentError("SVRGOptimizer: default_optimizer must be a name or an Optimizer, got %s"
                                       % type(default_optimizer).__name__)
        self.aux_opt = opt.create(_AssignmentOptimizer.__name__)

    @classmethod
    def _check_params(cls, **kwargs):
        return {k: v for k, v in kwargs.items() if k in cls._BASE_PARAMS}

    def _check_index(self, index):
        if index in self.idx2name.values():
            return index  # a KVStore key (the parameter's name)
        if index not in self.idx2name:
            raise InvalidArgumentError("SVRGOptimizer: no parameter name for index %r (param_idx2name must name "
                                       "every index)" % (index,))
        return self.idx2name[index]

    def _pick(self, index):
        return self.aux_opt if "full" in self._check_index(index) else self.default_opt

    def update(self, index, weight, grad, state):
        self._pick(index).update(index, weight, grad, state)

    def update_multi_precision(self, index, weight, grad, state):
        self._pick(index).update_multi_precision(index, weight, grad, state)

    def create_state(self, index, weight):
        return self._pick(index).create_state(index, weight)

    def create_state_multi_precision(self, index, weight):
        return self._pick(index).create_state_multi_precision(index, weight)


SVRGOptimizer = _SVRGOptimizer  # MXNet registers it as _SVRGOptimizer and documents it as SVRGOptimizer
