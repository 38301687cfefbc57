"""The operator registry harness (STYLE.md "Tests"): every registered operator
(weft_op_list canonical names) must have cases in tests/python/op_cases; each
case runs forward through weft.nd.<op> and is compared with its NumPy reference.

One parametrised test per operator, so a missing case fails under the op's name.
Outputs are compared with np.testing.assert_allclose(rtol, atol) after checking
shapes and dtypes (a case may set ``check_dtype = False``), then ``case.check``
runs when set.
"""
import zlib

import numpy as np
import pytest

import weft
from op_cases import CASES

OPS = weft.base.op_names()


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
    result = getattr(weft.nd, op)(*inputs, **case.attrs)
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    got = [o.asnumpy() for o in outs]
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
