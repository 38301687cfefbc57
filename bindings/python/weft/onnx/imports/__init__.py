"""ONNX-operator -> Weft-symbol translations for the importer, one module per
family; importing this package registers them (weft/onnx/import_registry.py)."""
from . import (array_ops, detection_ops, logic_ops, math_ops, nn_ops, reduce_ops, resize_ops,  # noqa: F401
               rnn_ops, tensor_ops)
