"""Linear algebra: the operators registered as ``_linalg_<x>``, exposed as
``weft.nd.linalg.<x>`` (``gemm``, ``potrf``, ``inverse`` ...; filled at import by
weft._namespaces, as MXNet's ``mx.nd.linalg``)."""
