"""Calling registry operators by name from Python: op handles resolved once,
``invoke`` (shared by the generated functions and the helpers; one cffi call
on the hot path), ``_call`` with keyword attributes and ``_scalar_call``."""
# pylint: disable=protected-access,invalid-name
import json

from ..base import op_schema
from ..base import (ArgumentTypeError, NotFoundError, WeftError, error_for, ffi, op_exists, op_handle,
                    raise_last)
from ..base import into1, into2, intoN, invoke0, invoke1, invoke2, invokeN, last_nout, out_at
from .attr_text import _Null, _scalar_attr, attr_str
from .ndarray_class import NDArray, _new_obj, _wrap

_NULL = ffi.NULL


_OPS = {}  # name -> handle or None when the registry lacks it


def _op(name):
    try:
        h = _OPS[name]
    except KeyError:
        h = _OPS[name] = op_handle(name) if op_exists(name) else None
    if h is None:
        raise NotFoundError("operator '%s' is not registered in this build of weft" % name)
    return h


def has_op(name):
    if name not in _OPS:
        _OPS[name] = op_handle(name) if op_exists(name) else None
    return _OPS[name] is not None


def _fail(opname):
    """After a helper returned NULL: raise the stored error (or report no output)."""
    raise_last()
    raise WeftError("%s: the operator returned no output" % opname)


def invoke(op, opname, ins, pieces, out):
    """Runs op on input handles with attribute pieces ['key\\0value', ...].

    Returns a new NDArray, a list of them (several visible outputs), or ``out``.
    Shared by the generated functions and the helpers."""
    n = len(pieces)
    blob = "\0".join(pieces).encode() if n else b""
    nin = len(ins)
    if out is None:
        if nin == 1:
            h = invoke1(op, ins[0], n, blob)
        elif nin == 2:
            h = invoke2(op, ins[0], ins[1], n, blob)
        elif nin == 0:
            h = invoke0(op, n, blob)
        else:
            h = invokeN(op, nin, ins, n, blob)
        if not h:
            raise_last()
            return [] if last_nout() == 0 else None
        k = last_nout()
        if k == 1:
            o = _new_obj(NDArray)
            o.handle = h
            return o
        return [_wrap(out_at(i)) for i in range(k)]
    oc = out.__class__
    if oc is NDArray or isinstance(out, NDArray):
        if nin == 1:
            rc = into1(op, ins[0], out.handle, n, blob)
        elif nin == 2:
            rc = into2(op, ins[0], ins[1], out.handle, n, blob)
        else:
            rc = intoN(op, nin, ins if nin else _NULL, 1, [out.handle], n, blob)
    elif oc is list or oc is tuple:
        for o in out:
            if not isinstance(o, NDArray):
                raise ArgumentTypeError("%s: out= must hold NDArrays, got %s" % (opname, type(o).__name__))
        if not out:
            raise ArgumentTypeError("%s: out= is an empty list" % opname)
        rc = intoN(op, nin, ins if nin else _NULL, len(out), [o.handle for o in out], n, blob)
    else:
        raise ArgumentTypeError("%s: out= must be an NDArray or a list of NDArrays, got %s"
                                % (opname, type(out).__name__))
    if rc:
        raise error_for(rc)
    return out


def _call(opname, inputs, out=None, **attrs):
    """Calls a registry op by name: inputs are NDArrays, attrs keyword values."""
    op = _op(opname)
    ins = []
    for i, x in enumerate(inputs):
        if not isinstance(x, NDArray):
            raise ArgumentTypeError("%s: input %d must be an NDArray, got %s" % (opname, i, type(x).__name__))
        ins.append(x.handle)
    # MXNet's imperative functions accept a symbol-style name= and ignore it.
    pieces = [k + "\0" + attr_str(v) for k, v in attrs.items() if v is not _Null and k != "name"]
    return invoke(op, opname, ins, pieces, out)


def _scalar_call(opname, x, scalar, out=None):
    op = _op(opname)
    blob = _scalar_attr(scalar)
    if out is None:
        h = invoke1(op, x.handle, 1, blob)
        if not h:
            _fail(opname)
        return _wrap(h)
    rc = into1(op, x.handle, out.handle, 1, blob)
    if rc:
        raise error_for(rc)
    return out


_PARAM_NAMES = {}


def _param_names(opname):
    if opname not in _PARAM_NAMES:
        _PARAM_NAMES[opname] = {p["name"] for p in json.loads(op_schema(opname))["params"]} \
            if has_op(opname) else set()
    return _PARAM_NAMES[opname]
