"""Graphs MXNet 1.9.1 wrote in NumPy mode with issue 37's npeig names (point 3) load in Weft and
compute what MXNet computed: _npi_eigh, _npi_eigvalsh, _npi_pinv and _npi_pinv_scalar_rcond,
Weft operators under MXNet's names (core/op/linalg/np_eigh.cc, np_pinv.cc).

tests/python/mxnet_written/np_nodes_npeig/ holds one graph per case as MXNet wrote it and, in
data.params, the inputs, MXNet's outputs and MXNet's input gradients (its make_with_mxnet.py).
MXNet 1.9.1's gradients of these four are zeros (MakeZeroGradNodes); Weft's are the true ones
(Note [Gradients of eigh, eigvalsh and pinv]), checked here against finite differences of
NumPy's functions in float64."""
import glob
import json
import os

import numpy as onp
import pytest

import weft
from weft import npx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mxnet_written", "np_nodes_npeig")
DATA = npx.load(os.path.join(HERE, "data.params"))

CASES = {"eigh": "_npi_eigh", "eigh_upper_batch": "_npi_eigh", "eigh_f64": "_npi_eigh", "eigh_int": "_npi_eigh",
         "eigvalsh": "_npi_eigvalsh", "eigvalsh_upper_batch": "_npi_eigvalsh",
         "eigvalsh_lower_batch": "_npi_eigvalsh", "pinv": "_npi_pinv_scalar_rcond",
         "pinv_rcond": "_npi_pinv_scalar_rcond", "pinv_rank2": "_npi_pinv_scalar_rcond",
         "pinv_array_rcond": "_npi_pinv", "pinv_0d_rcond": "_npi_pinv"}
NAMES = ["_npi_eigh", "_npi_eigvalsh", "_npi_pinv", "_npi_pinv_scalar_rcond"]


def _sym(case):
    return weft.sym.load(os.path.join(HERE, case + "-symbol.json"))


def _mx(case, kind):
    prefix = "%s/%s:" % (case, kind)
    return {k[len(prefix):]: v.asnumpy() for k, v in DATA.items() if k.startswith(prefix)}


def _bind(case, grads=False):
    args = {k: weft.nd.array(v, dtype=v.dtype) for k, v in _mx(case, "arg").items()}
    args_grad = {k: weft.nd.zeros(v.shape, dtype=v.dtype) for k, v in args.items()} if grads else None
    return _sym(case).bind(weft.cpu(), args, args_grad=args_grad), args_grad


def _node(case):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        return [n for n in json.load(f)["nodes"] if n["op"] != "null"]


def test_every_case_has_its_files():
    written = {os.path.basename(p)[:-len("-symbol.json")] for p in glob.glob(os.path.join(HERE, "*-symbol.json"))}
    assert written == set(CASES)
    for case, op in CASES.items():
        assert [n["op"] for n in _node(case)] == [op]  # as MXNet wrote it: its own NumPy-mode name


@pytest.mark.parametrize("name", NAMES)
def test_the_names_are_weft_operators(name):
    assert weft.base.op_exists(name)


@pytest.mark.parametrize("case", sorted(CASES))
def test_forward_equals_mxnets(case):
    exe, _ = _bind(case)
    outs = exe.forward()
    want = _mx(case, "out")
    assert len(outs) == len(want)
    for k, o in enumerate(outs):
        w, got = want[str(k)], o.asnumpy()
        assert got.dtype == w.dtype and got.shape == w.shape, (k, got.dtype, got.shape)
        # LAPACK builds differ in the last bits; eigenvectors carry MXNet's sign rule on both sides
        tol = dict(rtol=2e-5, atol=2e-5) if w.dtype == onp.float32 else dict(rtol=1e-10, atol=1e-12)
        onp.testing.assert_allclose(got, w, **tol)


def _symmetrized(f):
    """f of A read as symmetric: the function whose gradient eigh's and eigvalsh's rules give."""
    return lambda a: f((a + onp.swapaxes(a, -1, -2)) / 2)


def _eigh_np(a):
    w, v = onp.linalg.eigh(a)
    k = onp.argmax(onp.abs(v), axis=-2)[..., None, :]
    return w, v * onp.sign(onp.take_along_axis(v, k, axis=-2))


def _reference_loss(case):
    """sum of the outputs (the all-ones head) as a function of the first input, in float64."""
    node = _node(case)[0]
    attrs = node.get("attrs", {})
    if node["op"] == "_npi_eigh":
        return _symmetrized(lambda a: sum(x.sum() for x in _eigh_np(a)))
    if node["op"] == "_npi_eigvalsh":
        return _symmetrized(lambda a: onp.linalg.eigvalsh(a).sum())
    args = _mx(case, "arg")
    if node["op"] == "_npi_pinv":
        rcond = args[[n for n in args if n not in ("tall", "wide")][0]].astype(onp.float64)
    else:
        rcond = float(attrs["rcond"])
    return lambda a: onp.linalg.pinv(a, rcond).sum()


def _finite_differences(f, a, eps=1e-6):
    g = onp.zeros_like(a)
    for idx in onp.ndindex(*a.shape):
        x = a.copy()
        x[idx] += eps
        fp = f(x)
        x[idx] -= 2 * eps
        g[idx] = (fp - f(x)) / (2 * eps)
    return g


@pytest.mark.parametrize("case", sorted(c for c in CASES if _mx(c, "grad")))
def test_backward_is_the_true_gradient_where_mxnets_is_zero(case):
    want_mx = _mx(case, "grad")
    assert all((g == 0).all() for g in want_mx.values())  # MXNet 1.9.1's MakeZeroGradNodes
    exe, grads = _bind(case, grads=True)
    outs = exe.forward(is_train=True)
    exe.backward([weft.nd.ones(o.shape, dtype=o.dtype) for o in outs])
    args = _mx(case, "arg")
    first = _node(case)[0]["inputs"][0][0]
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        a_name = json.load(f)["nodes"][first]["name"]
    ref = _finite_differences(_reference_loss(case), args[a_name].astype(onp.float64))
    got = grads[a_name].asnumpy()
    assert got.dtype == args[a_name].dtype
    tol = 2e-3 if got.dtype == onp.float32 else 1e-6
    onp.testing.assert_allclose(got, ref, rtol=tol, atol=tol)
    for name in grads:
        if name != a_name:  # rcond: the result is piecewise constant in it
            assert (grads[name].asnumpy() == 0).all()


def _with_attrs(case, **attrs):
    with open(os.path.join(HERE, case + "-symbol.json")) as f:
        graph = json.load(f)
    for node in graph["nodes"]:
        if node["op"] != "null":
            node["attrs"].update(attrs)
    return weft.sym.load_json(json.dumps(graph))


def test_hermitian_pinv_reads_the_lower_triangle_as_numpy():
    # MXNet 1.9.1's front end refuses hermitian=True; its operator takes it (Note [Pseudo-inverse])
    a = _mx("eigvalsh_lower_batch", "arg")["b"][0].astype(onp.float32)  # not symmetric
    a = onp.concatenate([a, a[:, :2]], axis=1)[:, :3]
    exe = _with_attrs("pinv", hermitian="True").bind(weft.cpu(), {"wide": weft.nd.array(a)})
    got = exe.forward()[0].asnumpy()
    onp.testing.assert_allclose(got, onp.linalg.pinv(a.astype(onp.float64), hermitian=True), rtol=1e-4, atol=1e-5)
    with pytest.raises(weft.base.ShapeError, match=r"_npi_pinv_scalar_rcond: input 'A' must be a \(batch of\) square"):
        _with_attrs("pinv", hermitian="True").bind(weft.cpu(), {"wide": weft.nd.zeros((3, 5))}).forward()


def test_bad_input_is_refused_naming_the_operator_and_argument():
    with pytest.raises(weft.base.DTypeError, match=r"_npi_eigh: input 'A' has dtype float16"):
        _bind_args("eigh", s=weft.nd.zeros((3, 3), dtype="float16"))
    with pytest.raises(weft.base.ShapeError, match=r"_npi_eigvalsh: input 'A' must be a \(batch of\) square"):
        _bind_args("eigvalsh", s=weft.nd.zeros((3, 4)))
    with pytest.raises(weft.base.ShapeError, match=r"_npi_pinv: input 'rcond' of shape \(3,\) does not broadcast"):
        _bind_args("pinv_array_rcond", tall=weft.nd.zeros((2, 4, 3)), rc=weft.nd.zeros((3,)))
    with pytest.raises(weft.base.InvalidArgumentError, match=r"_npi_eigh: input 'A' \(matrix 1 of the batch\) "
                                                             r"contains inf or NaN"):
        b = onp.zeros((2, 3, 3))
        b[1, 2, 0] = onp.nan
        _bind_args("eigh_upper_batch", b=weft.nd.array(_flip(b))).forward()[0].asnumpy()
    with pytest.raises(weft.base.WeftIOError, match=r"UPLO"):
        _with_attrs("eigh", UPLO="X")


def _flip(b):
    """b's NaN moved into the upper triangle, the one UPLO='U' reads."""
    return onp.swapaxes(b, -1, -2)


def _bind_args(case, **arrays):
    return _sym(case).bind(weft.cpu(), arrays)


def test_a_nan_outside_the_read_triangle_is_ignored():
    b = onp.tile(onp.eye(3), (2, 1, 1))
    b[1, 2, 0] = onp.nan  # lower triangle; UPLO='U' reads the upper one
    w = _bind_args("eigvalsh_upper_batch", b=weft.nd.array(b)).forward()[0].asnumpy()
    onp.testing.assert_array_equal(w, onp.ones((2, 3)))


def test_weft_np_linalg_runs_these_operators():
    # weft.np.linalg's eigh/eigvalsh/pinv are these ops: integer input gives float64, as MXNet's
    ints = _mx("eigh_int", "arg")["ints"]
    w, v = weft.np.linalg.eigh(weft.np.array(ints, dtype=ints.dtype))
    assert w.dtype == v.dtype == onp.float64
    onp.testing.assert_allclose(v.asnumpy(), _mx("eigh_int", "out")["1"], rtol=1e-10, atol=1e-12)
    w = weft.np.linalg.eigvalsh(weft.np.array(ints, dtype=ints.dtype), UPLO="u")
    onp.testing.assert_allclose(w.asnumpy(), _mx("eigh_int", "out")["0"], rtol=1e-10)
    tall, rc = _mx("pinv_array_rcond", "arg")["tall"], _mx("pinv_array_rcond", "arg")["rc"]
    got = weft.np.linalg.pinv(weft.np.array(tall), rcond=weft.np.array(rc))
    onp.testing.assert_allclose(got.asnumpy(), _mx("pinv_array_rcond", "out")["0"], rtol=2e-5, atol=2e-5)
    with pytest.raises(ValueError, match=r"pinv: argument 'rcond' of shape \(3,\) does not broadcast"):
        weft.np.linalg.pinv(weft.np.array(tall), rcond=weft.np.array(onp.ones(3, dtype=onp.float32)))
    with pytest.raises(TypeError, match=r"pinv: argument 'a' has dtype int64"):
        weft.np.linalg.pinv(weft.np.array(ints, dtype=ints.dtype))
