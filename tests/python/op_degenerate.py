"""Degenerate-input variants of every registered operator (issue 22, point 3).

tests/python/test_op_degenerate.py runs this file as a subprocess worker; it is
also runnable by hand to look at one op:

    python3 tests/python/op_degenerate.py take          # every variant of take
    python3 tests/python/op_degenerate.py --list take   # their names only

From each op's first harness case (tests/python/op_cases) it derives variants:
every input with a zero-size leading or last dim, a zero-size input with a
2**62 dim (the product of the other dims would overflow int64), float inputs
filled with NaN / +-Inf / +-1e30 and integer inputs with their dtype's limits
or -1 (ops that compute indices or counts from data), all inputs zero-size at
once, and attribute limits (int and tuple-of-int attributes at 0, 1, -1, 2**31
and 2**62; kernel/stride/dilate/pad at those values even when the case leaves
them at their defaults; float attributes at NaN / Inf). Zero-size variants of
ops with a gradient run backward too.

Each variant must return a result or raise a WeftError subclass. The worker
prints one JSON line before and one after each variant, so the parent can name
the variant that killed the process with a signal or hung (faulthandler's
watchdog ends a variant that runs longer than WATCHDOG_S).
"""
import faulthandler
import json
import os
import resource
import sys
import zlib

import numpy as np

HUGE = 2 ** 62
WATCHDOG_S = 20
# Address-space cap for the worker: an op that believes a huge shape must fail
# to allocate (OutOfMemoryError), not page the machine to death.
ADDRESS_SPACE = 3 << 30
ZERO_SIZE_KINDS = ("zero_lead", "zero_last", "huge", "huge_mid", "all_zero_lead", "all_zero_last")
# Tuple attributes an op with a kernel has even when its case leaves them unset.
WINDOW_ATTRS = ("kernel", "stride", "dilate", "pad")


def _float_kinds(dtype):
    return dtype.kind == "f" or dtype.names is not None  # bfloat16 is a structured void type


def _fill(x, value):
    """x's shape and dtype, every element `value` (bfloat16: the float32 value's high bits)."""
    if x.dtype.names is not None:
        bits = (np.array(value, np.float32).view(np.uint32) >> 16).astype(np.uint16)
        return np.full(x.shape, bits, np.uint16).view(x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.full(x.shape, value, dtype=x.dtype)


def _input_variants(xs):
    """(name, inputs) pairs; an input is a numpy array or a (shape, dtype) zero-size spec."""
    out = []
    for i, x in enumerate(xs):
        s = list(x.shape)
        if s:
            out.append(("zero_lead[%d]" % i, _with(xs, i, ([0] + s[1:], x.dtype))))
            if len(s) >= 2:
                out.append(("zero_last[%d]" % i, _with(xs, i, (s[:-1] + [0], x.dtype))))
                out.append(("huge[%d]" % i, _with(xs, i, ([0] + s[1:-1] + [HUGE], x.dtype))))
            if len(s) >= 3:
                out.append(("huge_mid[%d]" % i, _with(xs, i, ([0] + s[1:2] + [HUGE] + s[3:], x.dtype))))
        if x.size == 0:
            continue
        if _float_kinds(x.dtype):
            for tag, v in (("nan", np.nan), ("inf", np.inf), ("-inf", -np.inf), ("1e30", 1e30), ("-1e30", -1e30)):
                out.append(("%s[%d]" % (tag, i), _with(xs, i, _fill(x, v))))
        elif x.dtype.kind in "iu":
            info = np.iinfo(x.dtype)
            for tag, v in (("max", info.max), ("min", info.min), ("-1", -1)):
                if v >= info.min:
                    out.append(("%s[%d]" % (tag, i), _with(xs, i, _fill(x, v))))
    if len(xs) > 1:
        if all(x.ndim >= 1 for x in xs):
            out.append(("all_zero_lead", [([0] + list(x.shape[1:]), x.dtype) for x in xs]))
        if all(x.ndim >= 2 for x in xs):
            out.append(("all_zero_last", [(list(x.shape[:-1]) + [0], x.dtype) for x in xs]))
    return out


def _with(xs, i, replacement):
    ys = list(xs)
    ys[i] = replacement
    return ys


def _attr_variants(schema, attrs):
    """(name, attrs) pairs with one attribute at a limit."""
    types = {p["name"]: p["type"] for p in schema["params"]}
    keys = [k for k in attrs if k in types]
    kernel = attrs.get("kernel")
    if isinstance(kernel, (tuple, list)) and kernel:
        keys += [k for k in WINDOW_ATTRS if k in types and k not in attrs]
    out = []
    for k in keys:
        t, v = types[k], attrs.get(k)
        if t == "int" and not isinstance(v, bool):
            values = (0, 1, -1, 2 ** 31, HUGE)
        elif t == "tuple of int":
            n = len(v) if isinstance(v, (tuple, list)) else len(kernel) if k in WINDOW_ATTRS else 1
            values = [(e,) * max(n, 1) for e in (0, 1, -1, 2 ** 31, HUGE)] + [()]
        elif t == "float":
            values = (float("nan"), float("inf"), float("-inf"))
        else:
            continue
        for value in values:
            if value == v:
                continue
            b = dict(attrs)
            b[k] = value
            out.append(("%s=%r" % (k, value), b))
    return out


def variants(op, schema, case, index=0):
    """Every (name, inputs, attrs, backward) of op derived from its harness case `index`."""
    rng = np.random.default_rng(zlib.crc32(("%s/%d" % (op, index)).encode()))
    xs = case.make_inputs(rng)
    out = []
    for name, inputs in _input_variants(xs):
        zero = name.split("[")[0] in ZERO_SIZE_KINDS
        out.append((name, inputs, case.attrs, False))
        if zero and schema["has_gradient"]:
            out.append((name + " backward", inputs, case.attrs, True))
    for name, attrs in _attr_variants(schema, case.attrs):
        out.append((name, xs, attrs, False))
    return out


def _array(weft, x):
    if isinstance(x, tuple):
        shape, dtype = x
        return weft.nd.zeros(tuple(shape), dtype=dtype)
    return weft.nd.array(x, dtype=x.dtype)


def run_variant(weft, op, inputs, attrs, backward):
    """Runs one variant; returns None or raises what the op raised."""
    arrays = [_array(weft, x) for x in inputs]
    fn = getattr(weft.nd, op)
    if not backward:
        result = fn(*arrays, **attrs)
        outs = list(result) if isinstance(result, (list, tuple)) else [result]
        for o in outs:
            o.wait_to_read()
            if 0 < o.size <= 1 << 16:
                o.asnumpy()
        weft.nd.waitall()
        return
    grads = [a for a in arrays if np.dtype(a.dtype).kind == "f"]
    for a in grads:
        a.attach_grad()
    with weft.autograd.record():
        result = fn(*arrays, **attrs)
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    heads = [o for o in outs if np.dtype(o.dtype).kind == "f"]
    if heads and grads:
        weft.autograd.backward(heads, [weft.nd.ones(h.shape, dtype=h.dtype) for h in heads])
        for a in grads:
            a.grad.wait_to_read()
    weft.nd.waitall()


def all_variants(weft, cases, ops):
    """[(op, name, inputs, attrs, backward)] in a fixed order."""
    out = []
    for op in ops:
        if not cases.get(op):
            continue
        schema = json.loads(weft.base.op_schema(op))
        for v in variants(op, schema, cases[op][0]):
            out.append((op,) + v)
    return out


def _emit(record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def main(argv):
    """op_degenerate.py [--list] [--start N] OP...: runs the variants of OPs from the Nth on."""
    listing = "--list" in argv
    argv = [a for a in argv if a != "--list"]
    start = 0
    if argv[:1] == ["--start"]:
        start, argv = int(argv[1]), argv[2:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        # Under AddressSanitizer (scripts/test_asan.sh) the cap would refuse ASan's shadow
        # memory; ASAN_OPTIONS=max_allocation_size_mb bounds allocations there instead.
        pass
    else:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    faulthandler.enable()
    import weft
    from op_cases import CASES
    from weft.base import WeftError
    todo = all_variants(weft, CASES, argv or weft.base.op_names())
    if listing:
        for op, name, *_ in todo:
            print(op, name)
        return 0
    for k in range(start, len(todo)):
        op, name, inputs, attrs, backward = todo[k]
        _emit({"i": k, "op": op, "variant": name, "begin": True})
        faulthandler.dump_traceback_later(WATCHDOG_S, exit=True)
        try:
            run_variant(weft, op, inputs, attrs, backward)
            status, detail = "ok", ""
        except WeftError as e:
            status, detail = "error", "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        except Exception as e:  # pylint: disable=broad-except
            status, detail = "foreign", "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        faulthandler.cancel_dump_traceback_later()
        _emit({"i": k, "op": op, "variant": name, "status": status, "detail": detail})
    _emit({"done": len(todo)})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
