"""weft.onnx: export Weft (and MXNet 1.x) models to ONNX, as MXNet 1.9.1's mx.onnx,
and import ONNX models, as its mx.contrib.onnx (import_model, import_to_gluon,
get_model_metadata; weft.contrib does not exist yet, so they live here).

    import weft as mx
    mx.onnx.export_model('resnet18-symbol.json', 'resnet18-0000.params',
                         in_shapes=[(1, 3, 224, 224)], onnx_file_path='resnet18.onnx')
    mx.onnx.get_operator_support(13)

Needs the optional ``onnx`` package (``pip install weft[onnx]``); ``import
weft`` works without it (Note [onnx is optional] in _deps.py).
"""
from .exporter import export_model
from .importer import get_model_metadata, import_model, import_to_gluon
from .support import get_import_support, get_operator_support

__all__ = ["export_model", "get_operator_support", "import_model", "import_to_gluon", "get_model_metadata",
           "get_import_support"]
