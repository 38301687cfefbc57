"""The front end of Note [In-place axpy fusion] (core/ndarray/axpy_fusion.h):
``w -= lr * g`` and ``w += lr * g`` as one kernel when ``lr * g`` is a temporary.

The core can fuse the pending multiply into the in-place update only when the
multiply's output is dropped right after; only the interpreter knows that. The
in-place dunder asks ``is_temporary(other)``: its reference count is that of
an operand the interpreter alone holds (the count is measured once at import
on a probe class, so it follows the running CPython) and the caller's current
instruction is the in-place operator itself (an explicit ``w.__isub__(t)``
with a named ``t`` can have the same count). Anything else -- another
interpreter, a count that does not tell the two apart -- turns fusion off.
"""
# pylint: disable=protected-access
import sys

from ..base import error_for, ffi, lib

_getrefcount = sys.getrefcount
_getframe = sys._getframe


def _signature(frame):
    """(opcode, oparg) bytes of the instruction a frame is executing."""
    code, i = frame.f_code.co_code, frame.f_lasti
    return (code[i], code[i + 1]) if 0 <= i < len(code) - 1 else None


def _observe(other, _rc=_getrefcount, _frame=_getframe):
    """What is_temporary looks at, called the same way (from an in-place dunder)."""
    return _rc(other), _signature(_frame(2))


def _calibrate():
    """(refcount of a temporary operand, {kind: caller signature}) or None."""
    seen = []

    class Probe:  # its dunders have the shape of arithmetic's in-place methods
        __slots__ = ()

        def __isub__(self, other, _a=None, _b=None, _c=None):
            seen.append(_observe(other))
            return self

        def __iadd__(self, other, _a=None, _b=None, _c=None):
            seen.append(_observe(other))
            return self

    p = Probe()
    p -= Probe()
    named = Probe()
    p -= named
    p += Probe()
    p.__isub__(Probe())
    p.__isub__(named)
    (tmp_sub, sig_sub), (named_sub, _), (tmp_add, sig_add), (_, sig_call), _ = seen
    # A named operand (w -= t) must count more than a temporary; an explicit
    # w.__isub__(t) may count the same, and the caller's instruction tells it.
    if tmp_sub != tmp_add or named_sub <= tmp_sub:
        return None
    if sig_sub is None or sig_add is None or sig_call in (sig_sub, sig_add) or sig_sub == sig_add:
        return None
    return tmp_sub, {"subtract": sig_sub, "add": sig_add}


try:
    _CAL = _calibrate()
except Exception:  # pylint: disable=broad-except
    _CAL = None

ENABLED = _CAL is not None and hasattr(lib, "weft_ndarray_fuse_scaled_update")
_TEMP_REFS = _CAL[0] if ENABLED else -1
_SIGS = _CAL[1] if ENABLED else {}


def is_temporary(other, kind, _rc=_getrefcount, _frame=_getframe):
    """True when ``other``, an operand of the in-place dunder that called this,
    is held by the interpreter alone and that dunder runs as the operator."""
    if _rc(other) != _TEMP_REFS:
        return False
    return _signature(_frame(2)) == _SIGS.get(kind)


_fused = [0]  # updates run fused so far (tests read it: fused_count)


def fused_count():
    """How many in-place updates this process ran as one fused kernel."""
    return _fused[0]


def fuse(w, t, kind, _new=ffi.new, _fn=getattr(lib, "weft_ndarray_fuse_scaled_update", None), _n=_fused):
    """w (+|-)= t as one kernel when t is a pending float32 scalar multiply;
    False when the core declined (run the two ops)."""
    fused = _new("int*")
    rc = _fn(w.handle, t.handle, 1 if kind == "add" else -1, fused)
    if rc:
        raise error_for(rc)
    if fused[0] == 1:
        _n[0] += 1
        return True
    return False
