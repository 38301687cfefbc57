"""Symbol functions of the ``_contrib_<x>`` operators, as ``weft.sym.contrib.<x>`` (filled at import)."""
