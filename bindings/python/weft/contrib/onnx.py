"""weft.contrib.onnx (``mx.contrib.onnx``): MXNet 1.9.1's ONNX importer and exporter
module path; the functions are weft.onnx's (issue 40)."""
from ..onnx import export_model, get_model_metadata, import_model, import_to_gluon

__all__ = ["export_model", "get_model_metadata", "import_model", "import_to_gluon"]
