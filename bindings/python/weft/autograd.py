"""Imperative automatic differentiation (MXNet's ``mxnet.autograd``).

    x = nd.array([[1, 2], [3, 4]]); x.attach_grad()
    with autograd.record():
        y = (x * x).sum()
    y.backward()            # x.grad == 2 * x

While recording, every operator whose inputs are on the tape (arrays with
``attach_grad``, or results of recorded operators) is recorded by the core as
a graph node; ``backward`` runs the same symbolic gradient pass as
``Symbol`` executors over that graph and pushes the gradient operators to the
engine — nothing here waits. Recording and training flags are per thread.
"""
# pylint: disable=protected-access
import atexit

from .base import ArgumentTypeError, InvalidArgumentError, check_call, ffi, lib
from .ndarray.creation import zeros
from .ndarray.ndarray_class import NDArray, _wrap

__all__ = ["record", "pause", "train_mode", "predict_mode", "is_recording", "is_training", "set_recording",
           "set_training", "mark_variables", "backward", "grad", "Function"]

_GRAD_REQ = {"null": 0, "write": 1, "add": 3, "inplace": 1}


def set_recording(is_recording):
    """Sets recording on or off for this thread; returns the previous state."""
    prev = ffi.new("int*")
    check_call(lib.weft_autograd_set_recording(1 if is_recording else 0, prev))
    return bool(prev[0])


def set_training(train_mode):  # pylint: disable=redefined-outer-name
    """Sets training mode (Dropout, BatchNorm batch statistics) for this thread; returns the previous state."""
    prev = ffi.new("int*")
    check_call(lib.weft_autograd_set_training(1 if train_mode else 0, prev))
    return bool(prev[0])


def is_recording():
    """True inside ``record()`` (and not inside ``pause()``)."""
    v = ffi.new("int*")
    check_call(lib.weft_autograd_is_recording(v))
    return bool(v[0])


def is_training():
    """True when operators run in training mode."""
    v = ffi.new("int*")
    check_call(lib.weft_autograd_is_training(v))
    return bool(v[0])


class _RecordingStateScope:
    """Sets recording and/or training on entry and restores both on exit."""

    def __init__(self, is_record, train_mode):  # pylint: disable=redefined-outer-name
        self._enter_is_record = is_record
        self._enter_train_mode = train_mode
        self._prev_is_record = None
        self._prev_train_mode = None

    def __enter__(self):
        if self._enter_is_record is not None:
            self._prev_is_record = set_recording(self._enter_is_record)
        if self._enter_train_mode is not None:
            self._prev_train_mode = set_training(self._enter_train_mode)
        return self

    def __exit__(self, *exc):
        if self._enter_is_record is not None and self._prev_is_record != self._enter_is_record:
            set_recording(self._prev_is_record)
        if self._enter_train_mode is not None and self._prev_train_mode != self._enter_train_mode:
            set_training(self._prev_train_mode)
        return False


def record(train_mode=True):  # pylint: disable=redefined-outer-name
    """Scope in which operators are recorded for ``backward`` (training mode by default)."""
    return _RecordingStateScope(True, train_mode)


def pause(train_mode=False):  # pylint: disable=redefined-outer-name
    """Scope in which nothing is recorded (inference mode by default)."""
    return _RecordingStateScope(False, train_mode)


def train_mode():
    """Scope: operators run in training mode; recording is unchanged."""
    return _RecordingStateScope(None, True)


def predict_mode():
    """Scope: operators run in inference mode; recording is unchanged."""
    return _RecordingStateScope(None, False)


def _ndarrays(what, xs):
    if isinstance(xs, NDArray):
        return [xs]
    if not isinstance(xs, (list, tuple)):
        raise ArgumentTypeError("%s must be an NDArray or a list of NDArrays, got %s" % (what, type(xs).__name__))
    for x in xs:
        if not isinstance(x, NDArray):
            raise ArgumentTypeError("%s must hold NDArrays, got %s" % (what, type(x).__name__))
    return list(xs)


def mark_variables(variables, gradients, grad_reqs="write"):
    """Marks arrays as variables to differentiate: each gradient goes into the
    matching array of ``gradients`` ('write' overwrites, 'add' accumulates,
    'null' computes none). ``NDArray.attach_grad`` is the usual way."""
    variables = _ndarrays("variables", variables)
    gradients = _ndarrays("gradients", gradients)
    if len(variables) != len(gradients):
        raise InvalidArgumentError("mark_variables: %d variables but %d gradient arrays"
                                   % (len(variables), len(gradients)))
    if isinstance(grad_reqs, str):
        grad_reqs = [grad_reqs] * len(variables)
    if len(grad_reqs) != len(variables):
        raise InvalidArgumentError("mark_variables: %d grad_reqs for %d variables" % (len(grad_reqs), len(variables)))
    for r in grad_reqs:
        if r not in _GRAD_REQ:
            raise InvalidArgumentError("grad_req must be 'write', 'add' or 'null', got %r" % (r,))
    n = len(variables)
    check_call(lib.weft_autograd_mark_variables(
        n, ffi.new("weft_ndarray*[]", [v.handle for v in variables]),
        ffi.new("int[]", [_GRAD_REQ[r] for r in grad_reqs]),
        ffi.new("weft_ndarray*[]", [g.handle for g in gradients])))
    for v, g, r in zip(variables, gradients, grad_reqs):
        v._grad = None if r == "null" else g


def _run_backward(heads, head_grads, variables, retain_graph, create_graph, train_mode):  # pylint: disable=redefined-outer-name
    heads = _ndarrays("heads", heads)
    if head_grads is None:
        head_grads = [None] * len(heads)
    else:
        head_grads = [head_grads] if not isinstance(head_grads, (list, tuple)) else list(head_grads)
        if len(head_grads) != len(heads):
            raise InvalidArgumentError("backward: %d heads but %d head gradients" % (len(heads), len(head_grads)))
        for g in head_grads:
            if g is not None:
                _ndarrays("head_grads", g)
    c_heads = ffi.new("weft_ndarray*[]", [h.handle for h in heads])
    c_hg = ffi.new("weft_ndarray*[]", [g.handle if g is not None else ffi.NULL for g in head_grads])
    c_vars = ffi.new("weft_ndarray*[]", [v.handle for v in variables]) if variables else ffi.NULL
    n = ffi.new("int*")
    out = ffi.new("weft_ndarray***")
    del _PENDING_ERROR[:]
    try:
        check_call(lib.weft_autograd_backward(len(heads), c_heads, c_hg, len(variables), c_vars,
                                              1 if retain_graph else 0, 1 if create_graph else 0,
                                              1 if train_mode else 0, n, out))
    except Exception:
        if _PENDING_ERROR:  # the user's Function.backward raised: show that error
            raise _PENDING_ERROR.pop() from None
        raise
    return [_wrap(out[0][i]) for i in range(n[0])]


def backward(heads, head_grads=None, retain_graph=False, train_mode=True):  # pylint: disable=redefined-outer-name
    """Computes the gradients of ``heads`` with respect to every variable marked
    with ``attach_grad`` and stores them in the variables' ``.grad``.
    ``head_grads`` defaults to ones. Without ``retain_graph`` the recorded graph
    is released and cannot be differentiated again."""
    _run_backward(heads, head_grads, [], retain_graph, False, train_mode)


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False, train_mode=True):  # pylint: disable=redefined-outer-name
    """Returns the gradients of ``heads`` with respect to ``variables`` (a list,
    or one NDArray for one) without touching their ``.grad``. With
    ``create_graph`` the gradients are themselves recorded, so they can be
    differentiated again (where the gradient operators have gradients)."""
    single = not isinstance(variables, (list, tuple))
    variables = _ndarrays("variables", variables)
    if retain_graph is None:
        retain_graph = create_graph
    res = _run_backward(heads, head_grads, variables, retain_graph, create_graph, train_mode)
    # Each gradient has its variable's class: a weft.np.ndarray's is a weft.np.ndarray (MXNet 1.9.1
    # returns classic NDArrays here, which its NumPy mode then cannot mix with np arrays; 2.0 fixed
    # that). The subclass adds no slots (Note [One array, two classes]), so re-classing is free.
    for v, g in zip(variables, res):
        if v.__class__ is not NDArray and g.__class__ is NDArray:
            g.__class__ = v.__class__
    return res[0] if single else res


# ---- custom functions -------------------------------------------------------------------------------------
# Note [Function ids]
# The core records a Function as one tape node holding an integer id; at
# backward it calls _function_backward with that id on the thread running
# backward, and _function_release when the node dies. _LIVE maps ids to the
# Function objects (whose saved tensors backward needs) until then. An error
# raised in the user's backward is kept here and re-raised by backward().
_LIVE = {}
_NEXT_ID = [0]
_PENDING_ERROR = []


@ffi.callback("int(int64_t, int, weft_ndarray* const*, int, weft_ndarray**)")
def _function_backward(fid, n_out, out_grads, n_in, in_grads):
    try:
        func = _LIVE[fid]
        grads = []
        for i in range(n_out):  # borrowed handles: wrap detached copies we own
            h = ffi.new("weft_ndarray**")
            check_call(lib.weft_ndarray_detach(out_grads[i], h))
            grads.append(_wrap(h[0]))
        with pause():
            res = func.backward(*grads)
        res = [res] if isinstance(res, NDArray) else list(res)
        if len(res) != n_in:
            raise InvalidArgumentError("Function.backward returned %d gradients for %d inputs" % (len(res), n_in))
        for i, g in enumerate(res):
            if not isinstance(g, NDArray):
                raise ArgumentTypeError("Function.backward must return NDArrays, got %s" % type(g).__name__)
            h = ffi.new("weft_ndarray**")
            check_call(lib.weft_ndarray_detach(g.handle, h))
            in_grads[i] = h[0]
        return 0
    except BaseException as e:  # pylint: disable=broad-except
        _PENDING_ERROR.append(e)
        return 1


@ffi.callback("void(int64_t)")
def _function_release(fid, _live=_LIVE):  # bound early: module globals may be gone at interpreter exit
    _live.pop(fid, None)


_CALLBACKS_SET = []


def _unregister_callbacks(_lib=lib, _null=ffi.NULL):
    """At exit, before the interpreter tears down: the core must not call into Python any more."""
    _lib.weft_autograd_set_function_callbacks(_null, _null)


def _ensure_callbacks():
    if not _CALLBACKS_SET:
        check_call(lib.weft_autograd_set_function_callbacks(_function_backward, _function_release))
        atexit.register(_unregister_callbacks)
        _CALLBACKS_SET.append(True)


class Function:
    """A differentiable operation written in Python (MXNet's ``autograd.Function``)::

        class Sigmoid(autograd.Function):
            def forward(self, x):
                y = 1 / (1 + nd.exp(-x))
                self.save_for_backward(y)
                return y
            def backward(self, dy):
                y, = self.saved_tensors
                return dy * y * (1 - y)

        y = Sigmoid()(x)

    ``forward`` runs with recording paused; when an input is on the tape the
    outputs are recorded as one node whose gradient is ``backward`` (one
    gradient per input, in order), called during ``autograd.backward`` on the
    same thread. A Function object is used for one call."""

    def __init__(self):
        self._used = False
        self.saved_tensors = ()

    def save_for_backward(self, *args):
        self.saved_tensors = args

    def forward(self, *inputs):
        raise NotImplementedError("Function.forward")

    def backward(self, *output_grads):
        raise NotImplementedError("Function.backward")

    def __call__(self, *inputs):
        if self._used:
            raise InvalidArgumentError("a Function object can be called once; create a new one per call")
        self._used = True
        for x in inputs:
            if not isinstance(x, NDArray):
                raise ArgumentTypeError("Function inputs must be NDArrays, got %s" % type(x).__name__)
        with pause(train_mode=is_training()):
            outputs = self.forward(*inputs)
        single = isinstance(outputs, NDArray)
        outs = [outputs] if single else list(outputs)
        for o in outs:
            if not isinstance(o, NDArray):
                raise ArgumentTypeError("Function.forward must return NDArrays, got %s" % type(o).__name__)
        if is_recording():
            _ensure_callbacks()
            fid = _NEXT_ID[0]
            _NEXT_ID[0] += 1
            _LIVE[fid] = self
            check_call(lib.weft_autograd_record_function(
                fid, len(inputs), ffi.new("weft_ndarray*[]", [x.handle for x in inputs]) if inputs else ffi.NULL,
                len(outs), ffi.new("weft_ndarray*[]", [o.handle for o in outs])))
        return outputs


# ---- NDArray's autograd methods --------------------------------------------------------------------------
_backward = backward  # the module function, which the method named backward below calls


class NDArrayAutogradMethods:
    """Holder of NDArray.attach_grad and NDArray.backward, copied onto the class by
    weft/__init__.py (Note [NDArray leaf] in weft/ndarray/ndarray_class.py)."""

    def attach_grad(self, grad_req="write", stype=None):
        """Makes this array a variable for ``autograd``: a zero gradient array of
        the same shape and dtype is attached as ``.grad`` ('write' overwrites it
        at each backward, 'add' accumulates, 'null' computes none)."""
        if stype not in (None, "default"):
            raise InvalidArgumentError("attach_grad: only the dense ('default') storage type is supported")
        g = zeros(self.shape, ctx=self.context, dtype=self._dtype_flag)
        mark_variables([self], [g], grad_req)

    def backward(self, out_grad=None, retain_graph=False, train_mode=True):
        """``autograd.backward([self], [out_grad])``."""
        _backward([self], None if out_grad is None else [out_grad], retain_graph=retain_graph,
                  train_mode=train_mode)
