"""The table of ONNX-operator -> Weft-symbol translations the importer uses,
keyed by ONNX op type (default domain). A translation is ``fn(ctx, node)``:
``node`` is the ONNX NodeProto, ``ctx`` an ImportContext (importer.py) that
gives the Weft symbols of its inputs, constant values and parsed attributes;
it returns the Weft symbol (or list of symbols) of the node's outputs."""
__all__ = ["register_import", "lookup_import", "imported_ops"]

_TABLE = {}


def register_import(*op_types):
    def wrap(fn):
        for op in op_types:
            if op in _TABLE:
                raise ValueError("weft.onnx: ONNX operator %s is registered twice for import" % op)
            _TABLE[op] = fn
        return fn
    return wrap


def lookup_import(op_type):
    return _TABLE.get(op_type)


def imported_ops():
    """Sorted ONNX op types the importer translates."""
    return sorted(_TABLE)
