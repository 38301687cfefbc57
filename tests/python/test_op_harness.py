"""The operator registry harness (docs/STYLE.md "Tests"): every registered operator
(weft_op_list canonical names) must have cases in tests/python/op_cases; each
case runs forward through weft.nd.<op> and is compared with its NumPy reference.

One parametrised test per operator, so a missing case fails under the op's name.
Outputs are compared with np.testing.assert_allclose(rtol, atol) after checking
shapes and dtypes (a case may set ``check_dtype = False``), then ``case.check``
runs when set.

In-place variants: for every op whose schema declares in-place pairs ("inplace":
[[input, output], ...]), the op's first case runs again with ``out=`` holding the
paired input array itself (outputs not in the pair get fresh arrays), and the
results must equal the out-of-place run within the case's tolerance.
"""
import json
import zlib

import numpy as np
import pytest

import weft
from op_cases import CASES

OPS = weft.base.op_names()
INPLACE = {}  # op -> [(input index, output index), ...] from the schema's "inplace"
NEEDS_RNG = set()
for _name in OPS:
    _schema = json.loads(weft.base.op_schema(_name))
    if _schema.get("inplace"):
        INPLACE[_name] = [tuple(p) for p in _schema["inplace"]]
        if _schema.get("needs_rng"):
            NEEDS_RNG.add(_name)


def _host(x):
    """A numpy array that assert_allclose can handle (bfloat16 bits -> float32, bool -> int8)."""
    x = np.asarray(x)
    if x.dtype == weft.dtypes.bfloat16 and x.dtype.names:
        return (np.ascontiguousarray(x).view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    if x.dtype == np.bool_:
        return x.astype(np.int8)
    return x


def _run_case(op, case, index):
    label = "%s case %d%s" % (op, index, (" (%s)" % case.name) if case.name else "")
    rng = np.random.default_rng(zlib.crc32(("%s/%d" % (op, index)).encode()))
    xs = case.make_inputs(rng)
    inputs = [weft.nd.array(x, dtype=x.dtype) for x in xs]
    result = (case.call or getattr(weft.nd, op))(*inputs, **case.attrs)
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    got = [o.asnumpy() for o in (inputs if case.compare_inputs else outs)]
    if case.ref is not None:
        ref_attrs = dict(case.attrs) if case.ref_takes_attrs else {}
        ref = case.ref(*xs, **ref_attrs, **case.ref_kwargs)
        refs = list(ref) if isinstance(ref, (tuple, list)) else [ref]
        assert len(got) == len(refs), "%s: %d outputs, reference has %d" % (label, len(got), len(refs))
        for k, (g, r) in enumerate(zip(got, refs)):
            r = np.asarray(r)
            what = "%s output %d" % (label, k)
            assert g.shape == r.shape, "%s: shape %s, reference %s" % (what, g.shape, r.shape)
            if getattr(case, "check_dtype", True):
                assert g.dtype == r.dtype, "%s: dtype %s, reference %s" % (what, g.dtype, r.dtype)
            np.testing.assert_allclose(_host(g), _host(r), rtol=case.rtol, atol=case.atol, err_msg=what)
    if case.check is not None:
        case.check(got, xs, case.attrs)


@pytest.mark.parametrize("op", OPS)
def test_op(op):
    cases = CASES.get(op)
    if not cases:
        pytest.fail("operator '%s' is registered but has no case in tests/python/op_cases" % op)
    for i, case in enumerate(cases):
        _run_case(op, case, i)
    weft.nd.waitall()


def test_cases_name_registered_ops():
    stale = sorted(set(CASES) - set(OPS))
    assert not stale, "cases for operators that are not registered (canonical names): %s" % stale


def _reseed(op):
    """Random ops draw the same values in every run compared below (a draw that
    happened to agree twice, e.g. a coin flip, must not pass or fail by luck)."""
    if op in NEEDS_RNG:
        weft.random.seed(1234)


def _inplace_check(op):
    """Runs op's first case with out= aliased to each declared in-place input.

    Returns the number of pairs checked (0: no pair fits the case, e.g. the paired input's
    shape or dtype differs from the output's, or the case has fewer inputs)."""
    case = CASES[op][0]
    xs = case.make_inputs(np.random.default_rng(zlib.crc32(("%s/0" % op).encode())))

    def out_of_place():
        _reseed(op)
        ref = getattr(weft.nd, op)(*[weft.nd.array(x, dtype=x.dtype) for x in xs], **case.attrs)
        return [o.asnumpy() for o in (list(ref) if isinstance(ref, (list, tuple)) else [ref])]
    want = out_of_place()
    if op in NEEDS_RNG and not all(np.array_equal(_host(a), _host(b)) for a, b in zip(want, out_of_place())):
        return 0  # this case draws random numbers (e.g. training-mode Dropout): runs cannot be compared
    checked = 0
    for i, k in INPLACE[op]:
        if i >= len(xs) or k >= len(want):
            continue
        if xs[i].shape != want[k].shape or xs[i].dtype != want[k].dtype:
            continue
        inputs = [weft.nd.array(x, dtype=x.dtype) for x in xs]  # fresh copies: the op overwrites inputs[i]
        outs = [weft.nd.zeros(w.shape, dtype=w.dtype) if j != k else inputs[i] for j, w in enumerate(want)]
        _reseed(op)
        getattr(weft.nd, op)(*inputs, out=outs[0] if len(outs) == 1 else outs, **case.attrs)
        for j, (o, w) in enumerate(zip(outs, want)):
            what = "%s in-place (input %d -> output %d), output %d" % (op, i, k, j)
            g = o.asnumpy()
            assert g.shape == w.shape and g.dtype == w.dtype, "%s: %s %s, out-of-place %s %s" % (
                what, g.shape, g.dtype, w.shape, w.dtype)
            np.testing.assert_allclose(_host(g), _host(w), rtol=case.rtol, atol=case.atol, err_msg=what)
        checked += 1
    return checked


def test_inplace_variants():
    """Every op with schema in-place pairs: first case, out= the paired input, equals out-of-place."""
    assert INPLACE, "no operator declares in-place pairs"
    failures, skipped = [], []
    for op in sorted(INPLACE):
        if not CASES.get(op):
            continue  # test_op reports the missing case
        try:
            if not _inplace_check(op):
                skipped.append(op)
        except Exception as e:  # pylint: disable=broad-except
            failures.append("%s: %s: %s" % (op, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
    weft.nd.waitall()
    assert not failures, "in-place variants differ or fail:\n  " + "\n  ".join(failures)
    covered = 1 - len(skipped) / len(INPLACE)
    assert covered >= 0.8, "only %.0f%% of %d in-place ops checked; skipped (case does not fit): %s" % (
        100 * covered, len(INPLACE), skipped)
