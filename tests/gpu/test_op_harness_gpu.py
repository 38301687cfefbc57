"""The registry harness on gpu(0) (issue 9): every registered operator has a GPU
kernel, and each harness case (tests/python/op_cases) gives on gpu(0) what the
CPU kernel gives, within the case's tolerance.

GPU kernels cover float32/float64 and the integer dtypes; a case with a
float16/bfloat16 input must fail on GPU with a DTypeError naming the dtype
(checked, not skipped). Ops that draw random numbers cannot equal the CPU's
draws: their GPU outputs are checked for shape, dtype and the case's own
check (statistics), and for reproducibility under one seed."""
import json
import zlib

import numpy as np
import pytest

import weft
from op_cases import CASES

OPS = weft.base.op_names()
SCHEMA = {op: json.loads(weft.base.op_schema(op)) for op in OPS}
GPU = weft.gpu(0)
HALF = {np.dtype(np.float16)}
if hasattr(weft.dtypes, "bfloat16"):
    HALF.add(np.dtype(weft.dtypes.bfloat16))


def _host(x):
    x = np.asarray(x)
    if x.dtype.names:  # bfloat16 bits
        return (np.ascontiguousarray(x).view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    if x.dtype == np.bool_:
        return x.astype(np.int8)
    return x


SCHEMA_PARAMS = {op: SCHEMA[op].get("params", []) for op in OPS}


def _run(op, case, xs, ctx):
    inputs = [weft.nd.array(x, dtype=x.dtype, ctx=ctx) for x in xs]
    attrs = dict(case.attrs)
    if not xs and any(p["name"] == "ctx" for p in SCHEMA_PARAMS[op]):
        attrs["ctx"] = str(ctx)
    result = (case.call or getattr(weft.nd, op))(*inputs, **attrs)
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    for o in outs:
        assert o.context == ctx, "%s: output on %s, expected %s" % (op, o.context, ctx)
    return [o.asnumpy() for o in (inputs if case.compare_inputs else outs)]


def test_every_op_has_a_gpu_kernel():
    missing = sorted(op for op in OPS if not SCHEMA[op].get("gpu"))
    assert not missing, "%d operators have no GPU kernel: %s" % (len(missing), missing)


@pytest.mark.parametrize("op", OPS)
def test_op_gpu_matches_cpu(op):
    cases = CASES.get(op)
    assert cases, "operator '%s' has no harness case" % op
    random_op = SCHEMA[op].get("needs_rng", False)
    for index, case in enumerate(cases):
        label = "%s case %d%s" % (op, index, (" (%s)" % case.name) if case.name else "")
        xs = case.make_inputs(np.random.default_rng(zlib.crc32(("%s/%d" % (op, index)).encode())))
        half_out = str(case.attrs.get("dtype", "")) in ("float16", "bfloat16")
        if half_out or any(x.dtype in HALF for x in xs):
            with pytest.raises(weft.DTypeError, match="GPU"):
                _run(op, case, xs, GPU)
            continue
        got = _run(op, case, xs, GPU)
        if random_op:
            weft.random.seed(7)
            again_a = _run(op, case, xs, GPU)
            weft.random.seed(7)
            again_b = _run(op, case, xs, GPU)
            for a, b in zip(again_a, again_b):
                np.testing.assert_array_equal(_host(a), _host(b), err_msg=label + ": not reproducible under one seed")
        want = _run(op, case, xs, weft.cpu(0))
        assert len(got) == len(want), "%s: %d outputs on GPU, %d on CPU" % (label, len(got), len(want))
        for k, (g, w) in enumerate(zip(got, want)):
            what = "%s output %d" % (label, k)
            assert g.shape == w.shape and g.dtype == w.dtype, "%s: GPU %s %s, CPU %s %s" % (
                what, g.shape, g.dtype, w.shape, w.dtype)
            if random_op:
                continue
            np.testing.assert_allclose(_host(g), _host(w), rtol=max(case.rtol, 1e-5), atol=max(case.atol, 1e-6),
                                       err_msg=what + " (GPU vs CPU)")
        if case.check is not None:
            case.check(got, xs, case.attrs)
    weft.nd.waitall()
