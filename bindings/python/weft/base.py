"""Library loading, the cffi handle (``ffi``, ``lib``) and error mapping.

The shared library is searched, in order, at
  1. the environment variable ``WEFT_LIBRARY_PATH`` (a file, or a folder holding libweft.so),
  2. ``weft/lib/libweft.so`` inside this package (what ``pip install`` ships),
  3. ``<repo>/build/libweft.so`` (the development tree).

Two cffi modes, same Python-visible functions:
  * API mode: ``weft._weft_ffi``, compiled at install time from the header plus
    the small ``wpy_*`` helpers of ``weft/_wpy_helpers.c``. It is linked against nothing:
    the library found above is loaded first with RTLD_GLOBAL and the module's
    symbols bind to it, so the search order holds in both modes. Used only when
    its recorded declaration hash matches the header found now.
  * ABI mode (``ffi.dlopen``): the fallback for the development tree; the
    ``wpy_*`` helpers are then pure-Python twins defined below.
"""
import atexit
import ctypes
import os
import re
import sys
import threading

from . import _cdef

__all__ = [
    "WeftError", "InvalidArgumentError", "ShapeError", "DTypeError", "OutOfMemoryError",
    "NotFoundError", "EngineError", "WeftIOError", "InternalError", "ArgumentTypeError",
    "check_call", "ffi", "lib", "LIB_PATH", "API_MODE", "MXNetError", "NotImplementedForSymbol",
]


# ---- errors -------------------------------------------------------------------
class WeftError(Exception):
    """Base class of every error raised by weft (an error status from the C ABI)."""


class InvalidArgumentError(WeftError, ValueError):
    """A bad argument or attribute value (WEFT_ERR_INVALID_ARGUMENT)."""


class ShapeError(WeftError, ValueError):
    """Shapes that do not fit the operator (WEFT_ERR_SHAPE)."""


class DTypeError(WeftError, TypeError):
    """A dtype the operator does not accept (WEFT_ERR_DTYPE)."""


class OutOfMemoryError(WeftError, MemoryError):
    """An allocation failed (WEFT_ERR_OUT_OF_MEMORY)."""


class NotFoundError(WeftError, LookupError):
    """An unknown operator or name (WEFT_ERR_NOT_FOUND)."""


class EngineError(WeftError, RuntimeError):
    """An operation failed while the engine ran it (WEFT_ERR_ENGINE)."""


class WeftIOError(WeftError, OSError):
    """A file could not be read or written, or is damaged (WEFT_ERR_IO)."""


class InternalError(WeftError, RuntimeError):
    """A bug in weft (WEFT_ERR_INTERNAL)."""


class ArgumentTypeError(InvalidArgumentError, TypeError):
    """Raised by the binding itself, before any C call, for an argument of the
    wrong Python type (a non-NDArray input) or an unknown keyword argument.
    It is both a ``TypeError`` (what Python raises for such calls) and a
    ``weft.InvalidArgumentError``."""


class NotImplementedForSymbol(WeftError, NotImplementedError):
    """A method that only NDArray has, called on a Symbol (``sym.asscalar()``);
    MXNet's ``mxnet.base.NotImplementedForSymbol``, with its message:
    'Function asscalar is not implemented for Symbol and only available in NDArray.'"""

    def __init__(self, function, alias=None, *args):
        self.function = getattr(function, "__name__", str(function))
        self.alias = alias
        self.arg_types = [str(type(a)) for a in args]
        msg = "Function %s" % self.function
        if alias:
            msg += ' (namely operator "%s")' % alias
        if self.arg_types:
            msg += " with arguments (%s)" % ", ".join(self.arg_types)
        super().__init__(msg + " is not implemented for Symbol and only available in NDArray.")

    def __reduce__(self):  # pickles (multiprocessing) as the same message
        return (type(self), (self.function, self.alias))


# MXNet's name for the base error class: ``except mx.base.MXNetError`` written for
# MXNet catches every weft error (each class below derives from WeftError).
MXNetError = WeftError

_STATUS_ERRORS = {
    1: InvalidArgumentError,
    2: ShapeError,
    3: DTypeError,
    4: OutOfMemoryError,
    5: NotFoundError,
    6: EngineError,
    7: WeftIOError,
    8: InternalError,
}


# ---- library ------------------------------------------------------------------
_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
LIB_NAME = "libweft.so"


def library_candidates():
    """Where the library is looked for, in order (see the module doc)."""
    out = []
    env = os.environ.get("WEFT_LIBRARY_PATH")
    if env:
        out.append(os.path.join(env, LIB_NAME) if os.path.isdir(env) else env)
    out.append(os.path.join(_PKG_DIR, "lib", LIB_NAME))
    out.append(os.path.join(_cdef.REPO_ROOT, "build", LIB_NAME))
    return out


def find_library():
    env = os.environ.get("WEFT_LIBRARY_PATH")
    cands = library_candidates()
    if env:  # an explicit choice is never silently replaced by another library
        if not os.path.isfile(cands[0]):
            raise ImportError("weft: WEFT_LIBRARY_PATH=%r does not name libweft.so" % env)
        return cands[0]
    for path in cands:
        if os.path.isfile(path):
            return path
    raise ImportError(
        "weft: cannot find %s; looked at %s. Build it (cmake -S <repo> -B <repo>/build && "
        "cmake --build <repo>/build --target weft), install the package with pip, or set "
        "WEFT_LIBRARY_PATH." % (LIB_NAME, ", ".join(cands)))


LIB_PATH = find_library()
HEADER_PATH = _cdef.find_header()
with open(HEADER_PATH, "r", encoding="utf-8") as _f:
    _HEADER_TEXT = _f.read()
_CDEF = _cdef.read_cdef(HEADER_PATH)  # c_api.h, then the c_predict_api.h beside it
_CDEF_HASH = _cdef.cdef_hash(_CDEF)
_m = re.search(r"#define\s+WEFT_ABI_VERSION\s+(\d+)", _HEADER_TEXT)
HEADER_ABI_VERSION = int(_m.group(1)) if _m else 0


# Note [OpenMP wait policy]
# libgomp reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, in its constructor, which runs
# when the library below is loaded (libgomp is its dependency, so it is initialised
# before libweft's own code could set anything). Left alone, an idle OpenMP thread spins
# for GOMP_SPINCOUNT=300000 iterations (milliseconds) after every parallel region; on a
# shared machine that spin takes the core from the neighbours and from the team's own
# preempted threads (issue 38). So, when the user set neither variable, the binding asks
# for a passive wait before loading: idle team threads sleep at once (a futex wake costs
# microseconds, and ParallelFor only forks for work that pays for it, Note [ParallelFor
# threads]). What libgomp got is reported by weft.runtime.thread_budget()["wait_policy"].
# The variable stays in os.environ, so child processes inherit the same policy. A process
# that loaded libgomp before weft (another library) keeps the policy it started with.
WAIT_POLICY_DEFAULT = ("OMP_WAIT_POLICY", "PASSIVE")
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ[WAIT_POLICY_DEFAULT[0]] = WAIT_POLICY_DEFAULT[1]

# Loaded once with RTLD_GLOBAL so the API-mode module's undefined symbols bind here.
_GLOBAL_HANDLE = ctypes.CDLL(LIB_PATH, mode=ctypes.RTLD_GLOBAL)


def _load_api_module():
    if os.environ.get("WEFT_CFFI_MODE", "").lower() == "abi":
        return None
    try:
        # The API-mode module is optional (built by pip install, absent in a source tree or with
        # WEFT_CFFI_MODE=abi): imported here, where its absence falls back to ABI mode.
        from . import _weft_ffi  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    try:
        if _weft_ffi.ffi.string(_weft_ffi.lib.wpy_cdef_hash()).decode() != _CDEF_HASH:
            return None  # built from another header: the declarations may differ
    except Exception:  # pylint: disable=broad-except
        return None
    return _weft_ffi


_api = _load_api_module()
if _api is not None:
    API_MODE = True
    ffi = _api.ffi
    lib = _api.lib
else:
    import cffi  # pylint: disable=import-outside-toplevel

    API_MODE = False
    ffi = cffi.FFI()
    ffi.cdef(_CDEF)
    lib = ffi.dlopen(LIB_PATH)

NULL = ffi.NULL

if lib.weft_abi_version() < HEADER_ABI_VERSION:
    raise ImportError("weft: %s has ABI version %d, older than the header's %d (%s)"
                      % (LIB_PATH, lib.weft_abi_version(), HEADER_ABI_VERSION, HEADER_PATH))


def _shutdown_engine(_lib=lib, _ffi=ffi, _stderr=sys.stderr):
    """At interpreter exit: finish the pushed work and join the engine's workers before any
    library's destructors run (Note [Engine shutdown] in core/engine/engine.h). Registered
    here, when the library loads, so it runs after the atexit handlers of later imports and
    of the script (Python runs them last registered first), which may still push work."""
    if _lib.weft_shutdown() != 0:
        _stderr.write("weft: shutdown at exit failed: %s\n"
                      % _ffi.string(_lib.weft_last_error()).decode("utf-8", "replace"))


atexit.register(_shutdown_engine)


def last_error():
    return ffi.string(lib.weft_last_error()).decode("utf-8", "replace")


def error_for(rc, msg=None):
    """The exception for status rc (message: weft_last_error() unless given)."""
    cls = _STATUS_ERRORS.get(rc, WeftError)
    return cls(last_error() if msg is None else msg)


def check_call(rc):
    """Raises the weft exception for a non-zero status from the C ABI."""
    if rc:
        raise error_for(rc)


def check_str(s, what):
    """Refuses a str holding a NUL, which the C ABI would cut short (Note [C
    strings] in core/base/c_string.h: the rule and its message live in the
    library, which cannot see past a NUL, so it is found here)."""
    if "\0" in s:
        b = s.encode("utf-8", "surrogateescape")
        check_call(lib.weft_check_string(b, len(b), what.encode("utf-8", "replace")))
    return s


def c_str(s, what):
    """s (str) as UTF-8 bytes for the C ABI, refused if it holds a NUL."""
    return check_str(s, what).encode("utf-8")


# ---- hot-path helpers -----------------------------------------------------------
# Attributes travel as one bytes object b"key\0value\0key\0value" plus a count.
if API_MODE:
    invoke0 = lib.wpy_invoke0
    invoke1 = lib.wpy_invoke1
    invoke2 = lib.wpy_invoke2
    invokeN = lib.wpy_invokeN
    into1 = lib.wpy_into1
    into2 = lib.wpy_into2
    intoN = lib.wpy_intoN
    last_status = lib.wpy_status
    last_nout = lib.wpy_nout
    out_at = lib.wpy_out
    h_ndim = lib.wpy_ndim
    h_dims = lib.wpy_dims
    h_dtype = lib.wpy_dtype
    h_ctx = lib.wpy_ctx
else:
    _tls = threading.local()
    _new = ffi.new
    _op_invoke = lib.weft_op_invoke
    _ATTR_CACHE = {}  # attrs bytes -> (keys, vals, keep): loops reuse the same attributes

    def _split_attrs(nattr, attrs):
        if not nattr:
            return NULL, NULL, None
        try:
            return _ATTR_CACHE[attrs]
        except KeyError:
            pass
        parts = attrs.split(b"\0")
        cs = [_new("char[]", p) for p in parts[:2 * nattr]]
        keys = _new("const char*[]", cs[0::2])
        vals = _new("const char*[]", cs[1::2])
        if len(_ATTR_CACHE) > 1024:
            _ATTR_CACHE.clear()
        entry = _ATTR_CACHE[attrs] = (keys, vals, cs)
        return entry

    def _bufs():
        try:
            return _tls.bufs
        except AttributeError:
            b = _tls.bufs = (_new("int*"), _new("weft_ndarray***"))
            return b

    def invokeN(op, nin, ins, nattr, attrs):
        # keep holds the strings during the call (another thread may clear the cache)
        keys, vals, keep = _split_attrs(nattr, attrs)
        nout, outs = _bufs()
        nout[0] = 0
        rc = _op_invoke(op, nin, ins if nin else NULL, nout, outs, nattr, keys, vals)
        del keep
        _tls.status = rc
        if rc:
            _tls.outs = ()
            return NULL
        n = nout[0]
        if n == 1:
            h = outs[0][0]
            _tls.outs = (h,)
            return h
        _tls.outs = tuple(outs[0][i] for i in range(n))
        return _tls.outs[0] if n else NULL

    def invoke0(op, nattr, attrs):
        return invokeN(op, 0, NULL, nattr, attrs)

    def invoke1(op, a, nattr, attrs):
        return invokeN(op, 1, [a], nattr, attrs)

    def invoke2(op, a, b, nattr, attrs):
        return invokeN(op, 2, [a, b], nattr, attrs)

    def intoN(op, nin, ins, nout, outs, nattr, attrs):
        keys, vals, keep = _split_attrs(nattr, attrs)
        pn = _new("int*", nout)
        po = _new("weft_ndarray**[1]")
        arr = _new("weft_ndarray*[]", list(outs))
        po[0] = arr
        rc = _op_invoke(op, nin, ins if nin else NULL, pn, po, nattr, keys, vals)
        del keep
        return rc

    def into1(op, a, out, nattr, attrs):
        return intoN(op, 1, [a], 1, [out], nattr, attrs)

    def into2(op, a, b, out, nattr, attrs):
        return intoN(op, 2, [a, b], 1, [out], nattr, attrs)

    def last_status():
        return getattr(_tls, "status", 0)

    def last_nout():
        return len(getattr(_tls, "outs", ()))

    def out_at(i):
        outs = getattr(_tls, "outs", ())
        return outs[i] if 0 <= i < len(outs) else NULL

    def h_ndim(h):
        nd = _new("int*")
        shp = _new("int64_t**")
        return nd[0] if lib.weft_ndarray_shape(h, nd, shp) == 0 else -1

    def h_dims(h):
        nd = _new("int*")
        shp = _new("int64_t**")
        return shp[0] if lib.weft_ndarray_shape(h, nd, shp) == 0 else NULL

    def h_dtype(h):
        t = _new("enum weft_dtype*")
        return t[0] if lib.weft_ndarray_dtype(h, t) == 0 else -1

    def h_ctx(h):
        dt = _new("enum weft_dev_type*")
        di = _new("int*")
        return dt[0] * 65536 + di[0] if lib.weft_ndarray_context(h, dt, di) == 0 else -1


def raise_last(what=None):
    """Raises for the last helper call's status; returns None when it succeeded
    (a call that legitimately produced no output)."""
    rc = last_status()
    if rc:
        msg = last_error()
        raise _STATUS_ERRORS.get(rc, WeftError)(msg)


# ---- operator handles -----------------------------------------------------------
_OP_CACHE = {}


def op_handle(name):
    """The registry handle for an operator name or alias (cached)."""
    h = _OP_CACHE.get(name)
    if h is None:
        p = ffi.new("const weft_op**")
        check_call(lib.weft_op_find(name.encode("utf-8"), p))
        h = _OP_CACHE[name] = p[0]
    return h


def op_exists(name):
    if name in _OP_CACHE:
        return True
    p = ffi.new("const weft_op**")
    if lib.weft_op_find(name.encode("utf-8"), p) == 0:
        _OP_CACHE[name] = p[0]
        return True
    return False


def op_names():
    """Canonical operator names, sorted (weft_op_list)."""
    n = ffi.new("int*")
    names = ffi.new("const char***")
    check_call(lib.weft_op_list(n, names))
    return [ffi.string(names[0][i]).decode("utf-8") for i in range(n[0])]


def op_schema(name_or_handle):
    """The schema JSON text of an operator."""
    h = op_handle(name_or_handle) if isinstance(name_or_handle, str) else name_or_handle
    js = ffi.new("const char**")
    check_call(lib.weft_op_schema(h, js))
    return ffi.string(js[0]).decode("utf-8")


def version():
    return ffi.string(lib.weft_version()).decode()


# ---- MXNet 1.9.1's mx.base helpers that scripts import --------------------------------------------
import numpy as _np  # noqa: E402  (only these helpers need it)

numeric_types = (float, int, _np.generic)
string_types = (str,)
integer_types = (int, _np.int32, _np.int64)
mx_real_t = _np.float32  # MXNet's default real type (base.py: mx_real_t = _np.float32)


def _as_list(obj):
    """obj if it is a list or tuple, else [obj] (MXNet's base._as_list, which its legacy
    test_operator.py imports at module level)."""
    if isinstance(obj, (list, tuple)):
        return obj
    return [obj]


def py_str(x):
    """bytes -> str (MXNet's py_str)."""
    return x.decode("utf-8") if isinstance(x, bytes) else x


def data_dir_default():
    """~/.mxnet, where MXNet keeps downloaded models and data."""
    return os.path.join(os.path.expanduser("~"), ".mxnet")


def data_dir():
    """MXNET_HOME, else data_dir_default()."""
    return os.getenv("MXNET_HOME", data_dir_default())
