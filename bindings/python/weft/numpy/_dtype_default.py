"""The default dtypes of ``weft.np``'s creation functions (MXNet's
``is_np_default_dtype`` switch).

Note [Default dtype switch]
~~~~~~~~~~~~~~~~~~~~~~~~~~~
MXNet 1.9.1 makes float32 arrays from Python floats and lists, and arange
float32 too, unless a script calls ``npx.set_np(dtype=True)``: then floats are
float64 and integer ranges int64, as in NumPy. The switch lives in
``weft.util`` once ``weft.npx.set_np`` lands (helper npx); until then
``_NP_DEFAULT_DTYPE`` here is the one place that holds it, and every creation
function asks ``is_np_default_dtype()`` rather than reading either directly.
"""
from .. import util as _util

_NP_DEFAULT_DTYPE = False


def is_np_default_dtype():
    """True when ``weft.np`` follows NumPy's default dtypes (float64, int64)."""
    switch = getattr(_util, "is_np_default_dtype", None)  # Note [Default dtype switch]
    if switch is not None:
        return bool(switch())
    return _NP_DEFAULT_DTYPE


def default_float():
    """The dtype name of arrays made from Python floats and lists."""
    return "float64" if is_np_default_dtype() else "float32"


def default_int():
    """The dtype name of ``arange`` with integer arguments: float32 in MXNet's
    default mode (its _npi.arange default), int64 under set_np(dtype=True)."""
    return "int64" if is_np_default_dtype() else "float32"
