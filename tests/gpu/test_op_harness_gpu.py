"""The registry harness on gpu(0) (issue 9): every registered operator has a GPU
kernel, and each harness case (tests/python/op_cases) gives on gpu(0) what the
CPU kernel gives, within the case's tolerance.

GPU kernels cover float32/float64, float16/bfloat16 (stored in 16 bits,
computed in float: Note [16-bit floats on GPU] in core/op/common/half_hd.h)
and the integer dtypes. A case with a float16/bfloat16 input must match the
CPU kernel within a 16-bit tolerance (HALF_TOL, or the case's own if looser),
and every case whose floating inputs are float32 (or float64) is also run
derived in float16 (those inputs and a float32 `dtype` cast) and compared with the
CPU's float16 result; where the CPU kernel itself lacks float16, with the CPU's
float32 result on the same rounded inputs. The ops of F32_F64_ONLY stay
float32/float64 on GPU and must fail their 16-bit runs with a DTypeError
naming the op. Ops that draw random numbers cannot equal the CPU's draws:
their GPU outputs are checked for shape, dtype and the case's own check
(statistics), and for reproducibility under one seed."""
import json
import re
import zlib

import numpy as np
import pytest

import weft
from op_cases import CASES

OPS = weft.base.op_names()
SCHEMA = {op: json.loads(weft.base.op_schema(op)) for op in OPS}
GPU = weft.gpu(0)
F16 = np.dtype(np.float16)
BF16 = np.dtype(weft.dtypes.bfloat16)
HALF = {F16, BF16}
# rtol = atol of a 16-bit comparison: a few units in the last place of each format.
HALF_TOL = {F16: 1e-2, BF16: 3e-2}


def f32_f64_only(op):
    """The ops without 16-bit GPU kernels, and why. They fail a float16 or
    bfloat16 run with a DTypeError naming the op (CPU and GPU alike)."""
    # MXNet's linear-algebra operators (la_op: MSHADOW_SGL_DBL_TYPE_SWITCH) are
    # float32/float64 only; so are this registry's CPU kernels (LAPACK, blas3).
    if op.startswith(("_linalg_", "linalg_", "_backward_linalg_")) or op in ("khatri_rao", "_backward_khatri_rao"):
        return True
    # The np.linalg ops of the same family (core/op/linalg/np_*.cc): LAPACK on the CPU as well.
    if op in ("_npi_svd", "_backward_npi_svd", "_npi_solve", "_backward_npi_solve", "_npi_eig", "_npi_eigvals",
              "_npi_eigh", "_npi_eigvalsh", "_npi_pinv", "_npi_pinv_scalar_rcond"):
        return True
    # The CPU RNN kernels are float32/float64 only (rnn_cpu.cc), so a 16-bit GPU
    # RNN would have no reference here; the GPU kernel keeps the CPU's types.
    return op in ("RNN", "_backward_RNN")


F32_F64_ONLY = sorted(op for op in OPS if f32_f64_only(op))


def _host(x):
    x = np.asarray(x)
    if x.dtype.names:  # bfloat16 bits
        return (np.ascontiguousarray(x).view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    if x.dtype == BF16 or x.dtype == F16:
        return x.astype(np.float32)
    if x.dtype == np.bool_:
        return x.astype(np.int8)
    return x


SCHEMA_PARAMS = {op: SCHEMA[op].get("params", []) for op in OPS}


def _has_param(op, name):
    return any(p["name"] == name for p in SCHEMA_PARAMS[op])


def _run(op, attrs, call, compare_inputs, xs, ctx):
    inputs = [weft.nd.array(x, dtype=x.dtype, ctx=ctx) for x in xs]
    attrs = dict(attrs)
    if not xs and _has_param(op, "ctx"):
        attrs["ctx"] = str(ctx)
    result = (call or getattr(weft.nd, op))(*inputs, **attrs)
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    for o in outs:
        assert o.context == ctx, "%s: output on %s, expected %s" % (op, o.context, ctx)
    return [o.asnumpy() for o in (inputs if compare_inputs else outs)]


def _half_of(case, xs):
    """The 16-bit dtype a case runs in (its inputs' or its `dtype` attr), or None."""
    dt = str(case.attrs.get("dtype", ""))
    if dt in ("float16", "bfloat16"):
        return F16 if dt == "float16" else BF16
    for x in xs:
        if x.dtype in HALF:
            return x.dtype
    return None


def _derived_f16(op, case, xs):
    """The ways to run the case in float16, most float16 first: (xs, attrs)
    triples (the last: whether float16 and wider inputs mix), empty when the case has nothing float32/float64 to turn into
    float16. All such inputs (and a float32/float64 `dtype`) become float16; then also a missing
    `dtype` set to float16; then only the first one or two of those inputs, or
    those shaped like the first, for the ops whose other inputs stay float32
    (BatchNorm's parameters and statistics, the mp_* updates' master weights
    and states)."""
    if any(x.dtype in HALF for x in xs):
        return []
    dt = case.attrs.get("dtype")
    if dt is not None and str(dt) not in ("float32", "float64"):
        return []
    attrs = dict(case.attrs)
    if dt is not None:
        attrs["dtype"] = "float16"
    # float64 too: the gradient ops' cases are mostly float64
    f32 = [i for i, x in enumerate(xs) if x.dtype in (np.float32, np.float64)]
    if not f32 and dt is None:
        # an op without inputs whose dtype defaults to float32 (_zeros, the samplers, ...)
        return [([], dict(attrs, dtype="float16"), False)] if not xs and _has_param(op, "dtype") else []

    def half(which):
        return [x.astype(np.float16) if i in which else x for i, x in enumerate(xs)]

    runs = [(half(f32), attrs, False)]
    if dt is None and _has_param(op, "dtype"):
        runs.append((half(f32), dict(attrs, dtype="float16"), False))
    for k in (1, 2):
        if len(f32) > k:
            runs.append((half(f32[:k]), attrs, True))
    # the inputs shaped like the first in float16, the other floating ones in
    # float32 (_backward_BatchNorm: out_grad and data, then its statistics)
    like = [i for i in f32 if xs[i].shape == xs[0].shape]
    if f32 and 0 < len(like) < len(f32):
        rest = [x.astype(np.float16) if i in like else (x.astype(np.float32) if i in f32 else x)
                for i, x in enumerate(xs)]
        runs.append((rest, attrs, True))
    return runs


def _compare(label, got, want, rtol, atol, random_op, same_dtype=True):
    assert len(got) == len(want), "%s: %d outputs on GPU, %d on CPU" % (label, len(got), len(want))
    for k, (g, w) in enumerate(zip(got, want)):
        what = "%s output %d" % (label, k)
        assert g.shape == w.shape, "%s: GPU shape %s, CPU %s" % (what, g.shape, w.shape)
        if same_dtype:
            assert g.dtype == w.dtype, "%s: GPU dtype %s, CPU %s" % (what, g.dtype, w.dtype)
        if random_op:
            continue
        np.testing.assert_allclose(_host(g), _host(w), rtol=rtol, atol=atol, err_msg=what + " (GPU vs CPU)")


def _check_gpu(op, case, label, xs, attrs, half, derived=False, mixed=False):
    """Runs the case on gpu(0) and the CPU and compares them. Returns False when
    a derived float16 run is not one the op takes: both devices refuse it with
    the same DTypeError (type inference, or a CPU kernel and its GPU twin that
    are float32/float64 alike), or the CPU refuses a run that mixes float16
    with wider inputs (no reference)."""
    random_op = SCHEMA[op].get("needs_rng", False)
    run = lambda x, ctx: _run(op, attrs, case.call, case.compare_inputs, x, ctx)  # noqa: E731
    if half is not None and op in F32_F64_ONLY:
        with pytest.raises(weft.DTypeError, match=re.escape(op)):
            run(xs, GPU)
        return True
    cpu_error = None
    try:
        want = run(xs, weft.cpu(0))
    except weft.DTypeError as e:
        if half is None:
            raise
        cpu_error = str(e)
    except weft.base.WeftError:
        if mixed:
            return False
        raise
    if cpu_error is not None and derived:
        try:
            run(xs, GPU)
        except weft.DTypeError as e:
            if str(e) == cpu_error:
                return False
            raise
    got = run(xs, GPU)
    if random_op:
        weft.random.seed(7)
        again_a = run(xs, GPU)
        weft.random.seed(7)
        again_b = run(xs, GPU)
        for a, b in zip(again_a, again_b):
            np.testing.assert_array_equal(_host(a), _host(b), err_msg=label + ": not reproducible under one seed")
    rtol, atol = max(case.rtol, 1e-5), max(case.atol, 1e-6)
    if half is not None:
        rtol, atol = max(case.rtol, HALF_TOL[half]), max(case.atol, HALF_TOL[half])
    same_dtype = True
    if cpu_error is not None:
        # The CPU kernel lacks this 16-bit dtype (its GPU twin has it): the
        # reference is the CPU's float32 run on the same (rounded) inputs.
        xs32 = [_host(x) if x.dtype in HALF else x for x in xs]
        attrs32 = dict(attrs)
        if "dtype" in attrs32 and str(attrs32["dtype"]) in ("float16", "bfloat16"):
            attrs32["dtype"] = "float32"
        want = _run(op, attrs32, case.call, case.compare_inputs, xs32, weft.cpu(0))
        same_dtype = False
    _compare(label, got, want, rtol, atol, random_op, same_dtype)
    if case.check is not None and not derived:
        case.check(got, xs, attrs)
    return True


# Filled by test_op_gpu_matches_cpu: the ops whose float16 runs on GPU were compared.
F16_COMPARED = set()


@pytest.mark.parametrize("op", OPS)
def test_op_gpu_matches_cpu(op):
    cases = CASES.get(op)
    assert cases, "operator '%s' has no harness case" % op
    for index, case in enumerate(cases):
        label = "%s case %d%s" % (op, index, (" (%s)" % case.name) if case.name else "")
        xs = case.make_inputs(np.random.default_rng(zlib.crc32(("%s/%d" % (op, index)).encode())))
        half = _half_of(case, xs)
        _check_gpu(op, case, label, xs, case.attrs, half)
        if half is not None:
            F16_COMPARED.add(op)
        for xs16, attrs16, mixed in _derived_f16(op, case, xs):
            if _check_gpu(op, case, label + " [float16]", xs16, attrs16, F16, derived=True, mixed=mixed):
                F16_COMPARED.add(op)
                break
    weft.nd.waitall()


def test_every_op_has_a_gpu_kernel():
    missing = sorted(op for op in OPS if not SCHEMA[op].get("gpu"))
    assert not missing, "%d operators have no GPU kernel: %s" % (len(missing), missing)


def test_f32_f64_only_ops_exist():
    # The list names registered ops (a renamed op must not silently leave it).
    assert "_linalg_potrf" in F32_F64_ONLY and "RNN" in F32_F64_ONLY and "khatri_rao" in F32_F64_ONLY
