"""MXNet's ``mx.libinfo``: where the C library and its headers are, for scripts
and build files written for MXNet 1.9.1 (``mx.libinfo.find_lib_path()[0]``,
``find_include_path()``). The library that plays libmxnet.so's part is the
libweft.so this package loads (``weft.base.LIB_PATH``), and the headers are
``weft/c_api.h`` and ``weft/c_predict_api.h`` -- Weft's C ABI, not MXNet's.
``python -m weft.config`` prints the compiler and linker flags for them.

Not imported by weft.config (``python -m weft.config`` would then find itself
already imported by the package); both read weft.base.
"""
import os

from .base import HEADER_PATH, LIB_PATH

__all__ = ["find_lib_path", "find_include_path", "find_conf_path", "__version__"]

__version__ = "0.1.0"


def find_lib_path(prefix="libmxnet"):
    """A list holding the path of the shared library ``prefix`` names: ``libmxnet``
    (MXNet's default) and ``libweft`` name libweft.so; any other prefix is looked
    for as ``<prefix>.so`` beside it (the plugins: ``libweft_mpi``, ``libweft_nccl``).
    Raises RuntimeError, as MXNet, when there is none."""
    if not isinstance(prefix, str):
        raise TypeError("find_lib_path: prefix must be a str, got %s" % type(prefix).__name__)
    lib = os.path.realpath(LIB_PATH)
    if prefix in ("libmxnet", "libweft"):
        return [lib]
    candidate = os.path.join(os.path.dirname(lib), prefix + ".so")
    if os.path.isfile(candidate):
        return [candidate]
    raise RuntimeError("find_lib_path: cannot find the library %r.\nList of candidates:\n%s" % (prefix, candidate))


def find_include_path():
    """The folder that holds ``weft/c_api.h`` (MXNet's returns the one holding ``mxnet/``)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(HEADER_PATH)))


def find_conf_path(prefix="tvmop"):
    """MXNet's TVM-operator configuration: Weft has no TVM operators, so, as MXNet
    built without them, there is none to find."""
    raise RuntimeError("find_conf_path: cannot find the %r config: Weft has no TVM operators "
                       "(MXNet's USE_TVM_OP build option)" % prefix)
