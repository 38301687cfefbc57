"""MXNet-operator -> ONNX translations, one module per operator family; importing
this package registers them all (weft/onnx/registry.py)."""
from . import (activation, attention, boxes, conv_pool, creation, detection, elemwise,  # noqa: F401
               indexing, linalg, normalization, random, reduce, resize, rnn, sequence, shape_ops)
