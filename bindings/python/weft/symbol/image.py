"""Symbol functions of the ``_image_<x>`` operators, as ``weft.sym.image.<x>``
(filled at import by weft._namespaces, as MXNet's ``mx.sym.image``)."""
