"""Imperative control flow: ``weft.nd.contrib.foreach``, ``while_loop`` and ``cond``.

As in MXNet 1.9.1 (``mx.nd.contrib``), these are Python functions over NDArrays,
not registry operators: the loop runs in Python and each step calls ordinary
operators (indexing, the user's body, ``stack``/``concat``), so under
``weft.autograd.record()`` every step is recorded and gradients flow through
the loop to the data, the initial states and anything the body closes over.

Arguments follow MXNet: data, states and loop variables are an NDArray or
(nested) lists of NDArrays; the outputs of a step are regrouped into the same
nesting after stacking. Bad arguments raise ``InvalidArgumentError`` (a
``ValueError``) with MXNet's message.

The symbolic twins (``weft.sym.contrib.foreach`` ..., also what a hybridized
HybridBlock's ``F.contrib.foreach`` calls) build the subgraph operators
``_foreach``, ``_while_loop`` and ``_cond``: weft/symbol/control_flow.py.
"""
from .. import _nest
from ..base import InvalidArgumentError, WeftError
from . import op
from .creation import zeros
from .ndarray_class import NDArray

__all__ = ["foreach", "while_loop", "cond"]


def _flatten(args, what):
    return _nest.flatten(args, NDArray, what)


_regroup = _nest.regroup




def _stack_along_0(items):
    """``stack`` of the NDArrays items along a new axis 0 (recorded by autograd)."""
    return op.stack(*items, axis=0)


def _to_python_scalar(value, type_, name):
    """value (an NDArray of one element, a NumPy value or a Python number) as type_."""
    if hasattr(value, "asscalar"):
        value = value.asscalar()  # an array of several elements raises here, as in MXNet
    try:
        return type_(value)
    except Exception:  # pylint: disable=broad-except
        raise InvalidArgumentError("Cannot convert %s to python %s" % (name, type_.__name__)) from None


def foreach(body, data, init_states):
    """Runs ``out, states = body(data_i, states)`` for each slice ``data_i`` of
    data along axis 0 (MXNet's ``mx.nd.contrib.foreach``).

    data: an NDArray, or a list of NDArrays with the same length on axis 0
    (body then gets the list of their i-th slices). init_states: an NDArray or
    nested lists of NDArrays, passed to the first step as given. out: an
    NDArray or nested lists of NDArrays, of the same structure and shapes at
    every step.

    Returns (outputs, states): outputs is out's structure with each element
    the per-step outputs stacked along a new axis 0; states is what the last
    step returned (init_states when data has no rows is an error, as the
    outputs' structure is unknown).

    >>> step = lambda x, states: (x + states[0], [x + states[0]])
    >>> outs, states = foreach(step, nd.array([1, 2, 3]), [nd.array([0])])  # outs: [1 3 6]
    """
    flat_data, _ = _flatten(data, "foreach input")
    _flatten(init_states, "foreach states")
    data_is_array = isinstance(data, NDArray)
    if not data_is_array:
        if not flat_data:
            raise InvalidArgumentError("foreach: data should be an NDArray or a non-empty list of NDArrays")
        if not all(isinstance(d, NDArray) for d in data):
            raise InvalidArgumentError("foreach: data should be an NDArray or a list of NDArrays, "
                                       "not nested lists")
    for d in flat_data:
        if d.ndim == 0:
            raise InvalidArgumentError("foreach: data must have an axis 0 to iterate over, got shape %s"
                                       % (d.shape,))
    num_iters = flat_data[0].shape[0]
    lengths = [d.shape[0] for d in flat_data]
    if any(n != num_iters for n in lengths):
        raise InvalidArgumentError("foreach: the arrays of data must have the same length on axis 0, got %s"
                                   % lengths)
    if num_iters == 0:
        raise InvalidArgumentError("foreach: data has no element on axis 0, so body never runs and the "
                                   "outputs cannot be formed")
    states = init_states
    steps = []
    out_fmt = None
    for i in range(num_iters):
        eles = flat_data[0][i] if data_is_array else [d[i] for d in flat_data]
        result = body(eles, states)
        if not isinstance(result, (list, tuple)) or len(result) != 2:
            raise InvalidArgumentError("foreach: body must return a pair (outputs, states), got %s"
                                       % type(result).__name__)
        outs, states = result
        flat_outs, fmt = _flatten(outs, "foreach output")
        if out_fmt is None:
            out_fmt = fmt
        elif fmt != out_fmt:
            raise InvalidArgumentError("foreach: body returned outputs of structure %s at step %d, "
                                       "but %s at step 0" % (fmt, i, out_fmt))
        steps.append(flat_outs)
    stacked = [_stack_along_0(items) for items in zip(*steps)]
    outputs, _ = _regroup(stacked, out_fmt)
    return outputs, states


def _as_list(obj):
    return obj if isinstance(obj, (list, tuple)) else [obj]


def while_loop(cond, func, loop_vars, max_iterations=None):  # pylint: disable=redefined-outer-name
    """Runs ``step_output, loop_vars = func(*loop_vars)`` while
    ``cond(*loop_vars)`` is true, at most max_iterations times (MXNet's
    ``mx.nd.contrib.while_loop``).

    cond returns a one-element NDArray (or a Python value), read as a bool.
    func returns (step_output, new_loop_vars): each an NDArray, nested lists of
    NDArrays or None; new_loop_vars has as many elements as loop_vars.

    Returns (outputs, final loop_vars): outputs is step_output's structure
    with each element the per-step outputs stacked along axis 0 and padded to
    max_iterations rows (MXNet leaves the padding undefined; here it is zeros),
    or [] when no step ran; loop_vars is an NDArray when an NDArray was given.

    >>> cond = lambda i, s: i <= 5
    >>> func = lambda i, s: ([i + s], [i + 1, s + i])
    >>> outs, (i, s) = while_loop(cond, func, (nd.array([0]), nd.array([1])), max_iterations=10)
    >>> # outs[0]: 1 2 4 7 11 16 then 4 rows of padding (shape (10, 1)); i = 6, s = 16
    """
    if max_iterations is None:
        raise InvalidArgumentError("max_iterations should be specified")
    max_iterations = _to_python_scalar(max_iterations, int, "max_iteration")
    if max_iterations < 0:
        raise InvalidArgumentError("max_iterations should be non-negative, got %d" % max_iterations)
    single_var = isinstance(loop_vars, NDArray)
    if not single_var:
        if not isinstance(loop_vars, (list, tuple)):
            raise InvalidArgumentError("loop_vars must be an NDArray or (nested) list of NDArray, but got %s "
                                       "of type %s" % (str(loop_vars), str(type(loop_vars))))
        if len(loop_vars) == 0:
            raise InvalidArgumentError("loop_vars should contain at least one element")
    loop_vars = _as_list(loop_vars)

    steps = []
    out_fmt = None
    while len(steps) < max_iterations and \
            _to_python_scalar(cond(*loop_vars), bool, "Return value of cond"):
        result = func(*loop_vars)
        if not isinstance(result, (list, tuple)) or len(result) != 2:
            raise InvalidArgumentError("while_loop: func must return a pair (step_output, new_loop_vars), "
                                       "got %s" % type(result).__name__)
        step_output, new_vars = result
        step_output = [] if step_output is None else step_output
        new_vars = _as_list([] if new_vars is None else new_vars)
        if len(new_vars) != len(loop_vars):
            raise InvalidArgumentError("The length of loop_vars should be consistent during the loop")
        loop_vars = list(new_vars)
        flat_out, out_fmt = _flatten(step_output, "while output")
        if steps and len(flat_out) != len(steps[0]):
            raise InvalidArgumentError("Number of elements in step_output should be the same in each step")
        steps.append(flat_out)

    stacked = []
    for k, items in enumerate(zip(*steps), 1):
        items = [x.expand_dims(0) for x in items]
        if len(steps) != max_iterations:
            first = items[0]
            items.append(zeros((max_iterations - len(steps),) + tuple(first.shape[1:]),
                               ctx=first.context, dtype=first.dtype))
        try:
            stacked.append(op.concat(*items, dim=0))
        except (WeftError, ValueError):
            raise InvalidArgumentError("\n".join(
                ["Shapes of %d-th elements in step_outputs are inconsistent, which are:" % k]
                + ["  Step %d, shape is %s" % (i, str(x.shape)) for i, x in enumerate(items)])) from None
    if out_fmt is not None:
        stacked, _ = _regroup(stacked, out_fmt)
    return stacked, (loop_vars[0] if single_var else loop_vars)


def cond(pred, then_func, else_func):
    """Returns ``then_func()`` when pred (a one-element NDArray, or a Python
    value) is true, else ``else_func()`` (MXNet's ``mx.nd.contrib.cond``).
    Only the branch taken runs (and, under autograd, is recorded).

    >>> a, b = nd.array([1]), nd.array([2])
    >>> cond(a * b < 5, lambda: (a + 5) * (b + 5), lambda: (a - 5) * (b - 5))  # [42.]
    """
    if _to_python_scalar(pred, bool, "pred"):
        return then_func()
    return else_func()
