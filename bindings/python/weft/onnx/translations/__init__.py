"""MXNet-operator -> ONNX translations, one module per operator family; importing
this package registers them all (weft/onnx/registry.py)."""
from . import (activation, attention, conv_pool, elemwise, indexing, linalg, normalization, reduce,  # noqa: F401
               resize, rnn, shape_ops)
