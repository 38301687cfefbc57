"""The table of MXNet-operator -> ONNX translations, keyed by operator name,
with a translation chosen per target opset.

Note [Translations per opset]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
ONNX changes operators between opsets (Squeeze takes its axes as an input
from 13, ReduceMean from 18, Softmax stops flattening to 2-D at 13,
LayerNormalization appears at 17). A translation is registered with the
first opset it is valid for; exporting at opset ``v`` uses, for each
operator, the registration with the greatest ``since <= v``. Most
differences are absorbed by the opset-aware helpers of the graph builder
(weft/onnx/graph_builder.py), so most operators have a single registration
``since=12`` (MXNet 1.9.1's lowest exporting opset).
"""
__all__ = ["MIN_OPSET", "DEFAULT_OPSET", "register", "lookup", "supported_ops"]

MIN_OPSET = 12
DEFAULT_OPSET = 13

# op name -> list of (since_opset, translate function), kept sorted by since_opset.
_TABLE = {}


def register(*op_names, since=MIN_OPSET):
    """Decorator: ``fn(builder, node)`` translates every operator in ``op_names``
    from opset ``since`` on (Note [Translations per opset])."""
    def wrap(fn):
        for name in op_names:
            entries = _TABLE.setdefault(name, [])
            if any(s == since for s, _ in entries):
                raise ValueError("weft.onnx: a translation of %s from opset %d is registered twice"
                                 % (name, since))
            entries.append((since, fn))
            entries.sort(key=lambda e: e[0])
        return fn
    return wrap


def lookup(op_name, opset):
    """The translation of ``op_name`` for ``opset``, or None when there is none."""
    best = None
    for since, fn in _TABLE.get(op_name, ()):
        if since <= opset:
            best = fn
    return best


def supported_ops(opset):
    """Sorted names of the operators that have a translation at ``opset``."""
    return sorted(name for name in _TABLE if lookup(name, opset) is not None)
