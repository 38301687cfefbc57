"""The optional ``onnx`` package, imported once for all of weft.onnx.

Note [onnx is optional]
~~~~~~~~~~~~~~~~~~~~~~~
``import weft`` must work without the ``onnx`` package (it is the optional
extra ``weft[onnx]``), yet ``weft.onnx`` is imported by ``weft`` itself so that
``mx.onnx.export_model`` resolves as in MXNet. So this module binds the names
the exporter uses to the real modules when ``onnx`` is importable and, when it
is not, to a stand-in whose every attribute access raises an ImportError that
names the extra. Nothing else in weft.onnx imports ``onnx`` directly; every
public entry point calls :func:`require` first, so the error comes before any
work is done and names the function the user called.
"""
__all__ = ["onnx", "helper", "numpy_helper", "checker", "shape_inference", "TensorProto", "ReferenceEvaluator",
           "available", "require", "newest_opset"]

_INSTALL_HINT = "pip install weft[onnx]  (or: pip install onnx onnxruntime)"


class _Missing:
    """Stands for the ``onnx`` package when it is not installed (Note [onnx is optional])."""

    def __init__(self, error):
        self._error = error

    def __getattr__(self, name):
        raise ImportError("weft.onnx needs the 'onnx' package, which is not installed (%s); install "
                          "the optional extra: %s" % (self._error, _INSTALL_HINT))


try:
    import onnx
    from onnx import checker, helper, numpy_helper, shape_inference, TensorProto
    from onnx.reference import ReferenceEvaluator
    _IMPORT_ERROR = None
except ImportError as _err:  # pragma: no cover - exercised only where onnx is absent
    _IMPORT_ERROR = _err
    onnx = checker = helper = numpy_helper = shape_inference = TensorProto = ReferenceEvaluator = _Missing(_err)


def available():
    """Whether the ``onnx`` package could be imported."""
    return _IMPORT_ERROR is None


def require(func_name):
    """Raises ImportError naming ``func_name`` and the ``weft[onnx]`` extra when
    ``onnx`` is missing."""
    if _IMPORT_ERROR is not None:
        raise ImportError("%s needs the 'onnx' package, which is not installed (%s); install the "
                          "optional extra: %s" % (func_name, _IMPORT_ERROR, _INSTALL_HINT))


def newest_opset():
    """The newest default-domain opset the installed ``onnx`` package knows."""
    return onnx.defs.onnx_opset_version()
