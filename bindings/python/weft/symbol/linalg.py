"""Symbol functions of the ``_linalg_<x>`` operators, as ``weft.sym.linalg.<x>``
(filled at import by weft._namespaces, as MXNet's ``mx.sym.linalg``)."""
