"""weft.onnx.get_operator_support: the operator-support table."""
from . import imports, translations  # noqa: F401  (registers every translation)
from ._deps import newest_opset, require
from .import_registry import imported_ops
from .registry import MIN_OPSET, supported_ops

__all__ = ["get_operator_support", "get_import_support"]


def get_operator_support(opset_version=None):
    """Sorted names of the MXNet operators that export at ``opset_version``
    (default: the newest the installed onnx package knows, as in MXNet 1.9.1;
    export_model itself defaults to opset 13)."""
    require("weft.onnx.get_operator_support")
    newest = newest_opset()
    if opset_version is None:
        opset_version = newest
    if not isinstance(opset_version, int) or isinstance(opset_version, bool):
        raise TypeError("weft.onnx.get_operator_support: opset_version must be an int, not %s"
                        % type(opset_version).__name__)
    if opset_version < MIN_OPSET:
        # MXNet 1.9.1 lists nothing below its lowest exporting opset.
        return []
    return supported_ops(min(opset_version, newest))




def get_import_support():
    """Sorted ONNX operator types import_model translates (Weft extension)."""
    # Constant nodes are read by the importer's driver itself, not by a translation.
    return sorted(set(imported_ops()) | {"Constant"})
