"""Graphs MXNet 1.9.1 wrote in NumPy mode with _npi_einsum, _npi_tensorinv and
_npi_tensorsolve (issue 37's "npeinsum" group, point 3) load in Weft and compute what MXNet
computed: values, shapes and dtypes forward, and MXNet's input gradients for a fixed head
gradient backward.

tests/python/mxnet_written/np_nodes_npeinsum/ holds one graph per case as MXNet wrote it and,
in data.params, the inputs, MXNet's outputs, the head gradients and MXNet's input gradients
(its make_with_mxnet.py). The three are Weft operators under MXNet's names
(core/op/dense/np_einsum.cc, core/op/linalg/np_tensor_solve.cc)."""
import glob
import json
import os

import numpy as onp
import pytest

import weft
from weft import npx
from weft.base import MXNetError

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_nodes_npeinsum")
DATA = {k: v.asnumpy() for k, v in npx.load(os.path.join(HERE, "data.params")).items()}
CASES = sorted(os.path.basename(p)[:-len("-symbol.json")] for p in glob.glob(os.path.join(HERE, "*-symbol.json")))
# The group's names the fixture graphs hold.
WRITTEN_BY_MXNET = ("_npi_einsum", "_npi_tensorinv", "_npi_tensorsolve")


def _of(case, kind):
    prefix = "%s/%s:" % (case, kind)
    return {k[len(prefix):]: v for k, v in DATA.items() if k.startswith(prefix)}


def _ops(case):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        return [n["op"] for n in json.load(f)["nodes"] if n["op"] != "null"]


def _bind(case, grads=False):
    args = {k: weft.nd.array(v, dtype=v.dtype) for k, v in _of(case, "arg").items()}
    args_grad = {k: weft.nd.zeros(v.shape, dtype=v.dtype) for k, v in args.items()} if grads else None
    sym = weft.sym.load(os.path.join(HERE, case + "-symbol.json"))
    return sym.bind(weft.cpu(), args, args_grad=args_grad), args_grad


def _tol(dtype):
    if dtype == onp.float32:
        return dict(rtol=1e-5, atol=1e-6)
    if dtype == onp.float64:
        return dict(rtol=1e-10, atol=1e-12)
    return dict(rtol=0, atol=0)


def test_the_fixtures_hold_the_groups_names():
    assert len(CASES) == 17
    assert {op for c in CASES for op in _ops(c)} == set(WRITTEN_BY_MXNET)
    for name in WRITTEN_BY_MXNET:
        assert weft.base.op_exists(name)


@pytest.mark.parametrize("case", CASES)
def test_forward_equals_mxnets(case):
    exe, _ = _bind(case)
    outs = exe.forward()
    want = _of(case, "out")
    assert len(outs) == len(want) == 1
    got, w = outs[0].asnumpy(), want["0"]
    assert got.dtype == w.dtype and got.shape == w.shape, (case, got.dtype, got.shape, w.dtype, w.shape)
    onp.testing.assert_allclose(got, w, **_tol(w.dtype))


# Note [einsum's broadcast gradient in MXNet 1.9.1]
# MXNet 1.9.1's einsum backward does not sum an operand's gradient over the dimensions that
# operand broadcast: in '...jk,...kl->...jl' with t (2, 3, 4) and u (1, 4, 3), u's gradient
# it stores is not the sum over t's two batches (checked there). Weft's is the derivative
# (checked by finite differences in tests/cpp/gradient_check_test.cc, "broadcast ellipsis"),
# so for that input the test compares with the adjoint of MXNet's own forward.
def _ellipsis_adjoint(ins, head):
    t, u = ins["t"].astype("float64"), ins["u"].astype("float64")
    return {"u": (onp.swapaxes(t, 1, 2) @ head.astype("float64")).sum(axis=0, keepdims=True)}


ADJOINT_INSTEAD = {"einsum_ellipsis": _ellipsis_adjoint}


def test_mxnet_einsum_broadcast_gradient_is_not_the_derivative():
    ins, head = _of("einsum_ellipsis", "arg"), _of("einsum_ellipsis", "head")["0"]
    assert not onp.allclose(_of("einsum_ellipsis", "grad")["u"], _ellipsis_adjoint(ins, head)["u"])


@pytest.mark.parametrize("case", [c for c in CASES if _of(c, "grad")])
def test_backward_equals_mxnets(case):
    exe, grads = _bind(case, grads=True)
    exe.forward(is_train=True)
    head = _of(case, "head")["0"]
    exe.backward([weft.nd.array(head, dtype=head.dtype)])
    want = _of(case, "grad")
    if case in ADJOINT_INSTEAD:
        for k, v in ADJOINT_INSTEAD[case](_of(case, "arg"), head).items():
            want[k] = v.astype(want[k].dtype)
    assert set(grads) == set(want)
    for k, g in grads.items():
        assert g.dtype == want[k].dtype and g.shape == want[k].shape
        tol = dict(rtol=1e-4, atol=1e-5) if want[k].dtype == onp.float32 else dict(rtol=1e-9, atol=1e-10)
        onp.testing.assert_allclose(g.asnumpy(), want[k], err_msg=case + " " + k, **tol)


def _einsum(subscripts, *arrays):
    xs = [weft.nd.array(onp.asarray(a, dtype="float32")) for a in arrays]
    return weft.nd._npi_einsum(*xs, num_args=len(xs), subscripts=subscripts).asnumpy()


@pytest.mark.parametrize("subscripts,shapes,what", [
    ("ij,jk->ik", [(2, 3), (4, 5)], "length"),
    ("ij,jk", [(2, 3)], "operands"),
    ("ijk", [(2, 3)], "does not fit"),
    ("i.j", [(2, 2)], "letters"),
    ("...i->i", [(2, 3)], "'...'"),
    ("ij->jj", [(2, 2)], "more than once"),
    ("i->ij", [(2,)], "in no input"),
    ("i->i->i", [(2,)], "'->'"),
    ("i1", [(2, 2)], "letters"),
])
def test_bad_subscripts_name_the_operator(subscripts, shapes, what):
    # MXNet refuses these too (checked with MXNet 1.9.1), with its own messages
    with pytest.raises(MXNetError, match="_npi_einsum") as err:
        _einsum(subscripts, *[onp.ones(s) for s in shapes])
    assert what in str(err.value)


def test_einsum_refuses_more_labels_than_the_kernel_holds():
    letters = "abcdefghijklmnopqrstu"  # 21 labels, each of length 1
    with pytest.raises(MXNetError, match="_npi_einsum.*at most 20"):
        _einsum(letters, onp.ones([1] * len(letters)))


def test_tensorinv_and_tensorsolve_errors_name_the_operator():
    a = weft.nd.array(onp.ones((6, 2, 3), dtype="float32"))
    with pytest.raises(MXNetError, match="_npi_tensorinv.*'ind' must be positive"):
        weft.nd._npi_tensorinv(a, ind=0).asnumpy()
    with pytest.raises(MXNetError, match="_npi_tensorinv.*not square"):
        weft.nd._npi_tensorinv(a, ind=3).asnumpy()
    with pytest.raises(MXNetError, match="_npi_tensorsolve.*do not fit"):
        weft.nd._npi_tensorsolve(a, weft.nd.ones((5,))).asnumpy()
    with pytest.raises(MXNetError, match="_npi_tensorsolve.*'a_axes'"):
        weft.nd._npi_tensorsolve(a, weft.nd.ones((6,)), a_axes=(3,)).asnumpy()


def test_traced_einsum_writes_mxnets_node_and_equals_numpy():
    a, b = weft.sym.var("a").as_np_ndarray(), weft.sym.var("b").as_np_ndarray()
    s = weft.sym.np.einsum("bij,bjk->bik", a, b, optimize=True)
    nodes = [n for n in json.loads(s.tojson())["nodes"] if n["op"] != "null"]
    assert [(n["op"], n["attrs"]) for n in nodes] == [
        ("_npi_einsum", {"subscripts": "bij,bjk->bik", "num_args": "2", "optimize": "1"})]
    x, y = onp.arange(12.0).reshape(2, 2, 3), onp.arange(18.0).reshape(2, 3, 3) / 7
    exe = s.bind(weft.cpu(), {"a": weft.nd.array(x, dtype="float64"), "b": weft.nd.array(y, dtype="float64")})
    onp.testing.assert_allclose(exe.forward()[0].asnumpy(), onp.einsum("bij,bjk->bik", x, y), rtol=1e-12)
    with pytest.raises(TypeError, match="einsum: the first argument must be the subscripts"):
        weft.sym.np.einsum(a, b)
