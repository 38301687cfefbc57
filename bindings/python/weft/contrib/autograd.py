"""mx.contrib.autograd: MXNet's first (deprecated, still imported) autograd interface,
over weft.autograd (MXNet 1.9.1's python/mxnet/contrib/autograd.py).

Here "training" means recording and training mode together: ``train_section()`` is
``autograd.record()``, ``test_section()`` is ``autograd.pause()``.
"""
import functools

from .. import autograd as _ag
from ..base import ArgumentTypeError
from ..ndarray import NDArray, zeros_like

__all__ = ["set_is_training", "train_section", "test_section", "mark_variables", "backward",
           "compute_gradient", "grad_and_loss", "grad", "TrainingStateScope"]


def set_is_training(is_train):
    """Turns training mode and recording on or off together; returns the previous
    recording state (MXNet sets training, then recording, and returns the second's)."""
    _ag.set_training(bool(is_train))
    return _ag.set_recording(bool(is_train))


class TrainingStateScope:
    """Scope that sets the training state on entry and restores it on exit."""

    def __init__(self, enter_state):
        self._enter_state = enter_state
        self._prev = None

    def __enter__(self):
        self._prev = set_is_training(self._enter_state)

    def __exit__(self, ptype, value, trace):
        if self._prev != self._enter_state:
            set_is_training(self._prev)


def train_section():
    """Scope in which operators are recorded, in training mode."""
    return TrainingStateScope(True)


def test_section():
    """Scope in which nothing is recorded, in inference mode."""
    return TrainingStateScope(False)


def mark_variables(variables, gradients, grad_reqs="write"):
    """Marks arrays as variables whose gradients go into ``gradients`` (see weft.autograd.mark_variables)."""
    _ag.mark_variables(variables, gradients, grad_reqs)


def backward(outputs, out_grads=None, retain_graph=False):
    """Computes the gradients of outputs into the marked variables' gradient arrays."""
    _ag.backward(outputs, out_grads, retain_graph=retain_graph)


def compute_gradient(outputs):
    """Deprecated in MXNet: backward(outputs)."""
    backward(outputs)


def grad_and_loss(func, argnum=None):
    """func wrapped to return (gradients of its output with respect to its arguments
    — those at ``argnum``, an int or list, or all — and its output)."""
    @functools.wraps(func)
    def wrapped(*args):
        variables = args
        if argnum is not None:
            argnum_ = argnum if isinstance(argnum, list) else [argnum]
            variables = [args[i] for i in argnum_]
        for x in variables:
            if not isinstance(x, NDArray):
                raise ArgumentTypeError("grad_and_loss: type of autograd input should be NDArray, got %s"
                                        % type(x).__name__)
        grads = [zeros_like(x) for x in variables]
        mark_variables(variables, grads)
        with train_section():
            outputs = func(*args)
        compute_gradient([outputs] if isinstance(outputs, NDArray) else outputs)
        return grads, outputs
    return wrapped


def grad(func, argnum=None):
    """func wrapped to return only the gradients of grad_and_loss(func, argnum)."""
    grad_with_loss_func = grad_and_loss(func, argnum)

    @functools.wraps(grad_with_loss_func)
    def wrapped(*args):
        return grad_with_loss_func(*args)[0]
    return wrapped
