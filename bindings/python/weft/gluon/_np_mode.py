"""Gluon in NumPy mode (issue 39): where a Block's arrays change class.

Note [Gluon in NumPy mode]
~~~~~~~~~~~~~~~~~~~~~~~~~~
After ``npx.set_np()`` MXNet 1.9.1's Gluon takes and returns ``mx.np.ndarray``
everywhere; it gets there by giving each built-in layer a second body
(``F.npx.fully_connected if is_np_array() else F.FullyConnected``) and by
checking in ``Block.__call__`` that every output is an np array
(``_check_all_np_ndarrays``). Weft keeps one body per layer: the built-in
layers are written against ``weft.nd`` (legacy semantics: ``reshape`` with 0
and -2, keepdims reductions, the ``F.Op`` names), and ``Block.__call__`` is the
one place that switches classes around such a body. When NumPy mode is on and
the block that runs is a *legacy body* (its ``forward``, or its
``hybrid_forward`` under ``HybridBlock.forward``, is defined inside the weft
package), the inputs are handed to it as ``weft.nd.NDArray`` and its outputs
come back as ``weft.np.ndarray``. ``HybridBlock.forward`` applies the same rule
to weft's ``hybrid_forward`` itself, so a user subclass that overrides
``forward`` and calls ``super().forward(x)`` gets np arrays back. Both conversions are ``_clone``: a second
Python object over the same engine chunk (no copy; the autograd entry and the
fresh-gradient flag live on the chunk, so gradients still reach the caller's
arrays). A clone rather than re-classing in place, because an output may be an
object someone else holds (an input passed through, a parameter's array).

User code keeps NumPy semantics: a ``forward(self, X)`` or a
``hybrid_forward(self, F, X)`` written outside weft gets np arrays (and np
parameters from ``Parameter.data()``), as in MXNet. Containers whose body only
chains children (``Sequential``, ``HybridSequential``) set ``_np_passthrough``
so a user child among them still sees np arrays; a ``Lambda``/``HybridLambda``
over a Python function sets ``_np_user_body``: its body is the user's.

As in MXNet, a block that returns a legacy array in NumPy mode is an error
(``check_all_np``): typically user code calling ``F.relu`` instead of
``F.npx.relu``. The reverse too: an np array fed to a built-in layer while
NumPy mode is off is a TypeError (``check_no_np``; MXNet's legacy operators
refuse np arrays), which is what forgetting ``npx.set_np()`` looks like.

``hybridize()`` traces in NumPy mode as MXNet does: a user ``hybrid_forward``
gets ``_Symbol``s (``weft.sym.np``'s NumPy-semantics symbols, whose operators
compose MXNet's ``_npi_*`` operators: Note [NumPy-semantics symbols] in
``symbol/numpy/_symbol.py``) and ``F.np``/``F.npx`` are ``weft.sym.np``/
``weft.sym.npx``; a built-in child in that trace is a legacy body like any
other, so the same rule hands it legacy Symbols and re-classes what it
returns (``as_nd``/``as_np`` convert Symbols too: a second Python object over
the same graph outputs, never a copy of a node). The traced graph is a
``_Symbol``, so ``export()`` writes it with MXNet's NumPy-mode operator names
(``_npx_fully_connected``, ``_npi_add`` ...); the compiled graph's outputs are
re-classed by the same rule.
"""
# pylint: disable=protected-access
import functools
import weakref

from ..ndarray import NDArray
from ..numpy._array import _clone, ndarray as _np_ndarray
from ..symbol import Symbol
from ..symbol.numpy._symbol import _Symbol, as_legacy_symbol, as_np_symbol
from ..util import is_np_array

__all__ = ["is_legacy_body", "is_legacy_hybrid_forward", "as_nd", "as_np", "check_all_np", "check_no_np",
           "np_unroll"]

_WEFT_PREFIX = "weft."


# class -> {method name: whether the method the class runs is defined in weft}; weak, so classes
# made at run time (in a function, a test) can still be freed
_WEFT_DEFINED = weakref.WeakKeyDictionary()


def _weft_defined(cls, name):
    per_class = _WEFT_DEFINED.get(cls)
    if per_class is None:
        per_class = _WEFT_DEFINED[cls] = {}
    found = per_class.get(name)
    if found is None:
        klass = next((k for k in cls.__mro__ if name in k.__dict__), None)
        if name == "forward" and klass is not None and klass.__module__ == "weft.gluon.block" \
                and klass.__name__ == "HybridBlock":
            klass = next((k for k in cls.__mro__ if "hybrid_forward" in k.__dict__), None)  # it only dispatches
        found = per_class[name] = klass is not None and klass.__module__.startswith(_WEFT_PREFIX)
    return found


def _container_or_user(block):
    return getattr(block, "_np_passthrough", False) or getattr(block, "_np_user_body", False)


def is_legacy_body(block):
    """Whether the code ``block.__call__`` runs (its forward, or the hybrid_forward
    HybridBlock.forward dispatches to) is one of weft's legacy-semantics bodies (see
    Note [Gluon in NumPy mode])."""
    return not _container_or_user(block) and _weft_defined(type(block), "forward")


def is_legacy_hybrid_forward(block):
    """Whether the block's hybrid_forward is weft's (also when a user subclass
    overrides forward and calls ``super().forward``)."""
    return not _container_or_user(block) and _weft_defined(type(block), "hybrid_forward")


def _convert(x, cls, to_sym):
    if isinstance(x, NDArray):
        return x if x.__class__ is cls else _clone(x, cls)
    if isinstance(x, Symbol):
        return to_sym(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_convert(i, cls, to_sym) for i in x)
    return x


def as_nd(args):
    """args (arrays, symbols, lists, tuples, anything) with every array a weft.nd.NDArray
    and every symbol a legacy Symbol."""
    return _convert(args, NDArray, as_legacy_symbol)


def as_np(out):
    """out (an array or symbol, or nested lists/tuples) with every array a weft.np.ndarray
    and every symbol a _Symbol."""
    return _convert(out, _np_ndarray, as_np_symbol)


def check_all_np(out, block):
    """MXNet's _check_all_np_ndarrays: a legacy array among a block's outputs in
    NumPy mode raises TypeError naming the block."""
    if isinstance(out, Symbol):
        if not isinstance(out, _Symbol):
            raise TypeError("Block's output ndarrays/symbols must be of type `weft.numpy.ndarray` or "
                            "`weft.symbol.numpy._Symbol` in NumPy mode (npx.set_np()), while block %s returned a "
                            "legacy Symbol: use F.np/F.npx in hybrid_forward, or convert with .as_np_ndarray()"
                            % block.name)
    elif isinstance(out, NDArray):
        if not isinstance(out, _np_ndarray):
            raise TypeError("Block's output ndarrays/symbols must be of type `weft.numpy.ndarray` in NumPy mode "
                            "(npx.set_np()), while block %s returned %s: use np/npx functions (F.np/F.npx in "
                            "hybrid_forward), or convert with .as_np_ndarray()"
                            % (block.name, type(out).__module__ + "." + type(out).__name__))
    elif isinstance(out, (list, tuple)):
        for i in out:
            check_all_np(i, block)


def check_no_np(args, block):
    """A weft.np.ndarray among the inputs of a legacy body while NumPy mode is off
    raises TypeError naming the block (MXNet's legacy operators refuse them)."""
    for a in args:
        if isinstance(a, (list, tuple)):
            check_no_np(a, block)
        elif isinstance(a, _np_ndarray):
            raise TypeError("Block %s received a weft.numpy.ndarray while NumPy mode is off: call npx.set_np() "
                            "before using np arrays with Gluon, or convert the input with .as_nd_ndarray()"
                            % block.name)


def _has_np(x):
    if isinstance(x, (list, tuple)):
        return any(_has_np(i) for i in x)
    return isinstance(x, _np_ndarray)


def np_unroll(unroll):
    """Wraps a recurrent cell's ``unroll`` (a method called directly, not through
    ``Block.__call__``) by the same rule: np inputs in NumPy mode run the legacy
    body on nd arrays and come back as np arrays. A nested unroll (a stack or
    bidirectional cell unrolling its children) gets nd inputs and converts nothing."""
    @functools.wraps(unroll)
    def wrapped(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None, valid_length=None):
        if not (is_np_array() and _has_np(inputs)):
            return unroll(self, length, inputs, begin_state, layout, merge_outputs, valid_length)
        return as_np(unroll(self, length, as_nd(inputs), as_nd(begin_state), layout, merge_outputs,
                            as_nd(valid_length)))
    return wrapped
