"""The optimizer updates of core/op/optim/optim_single.cc and optim_multi.cc:
the states they update in place (MXNet's FMutateInputs) against the NumPy
references of tests/python/op_cases/optim_more.py, the symbolic view of
those states (auxiliary states, partial shapes), and bad input rejected at
the call with a message naming the op, the argument and what was expected."""
import numpy as np
import pytest

import weft
from op_cases import optim_more as ref

F16, F32, F64 = np.float16, np.float32, np.float64


def nd(x, dtype=None):
    x = np.asarray(x)
    return weft.nd.array(x, dtype=dtype or x.dtype)


def rng():
    return np.random.default_rng(17)


def test_ftml_states_and_out_is_weight():
    r = rng()
    w, g = r.uniform(-1, 1, (3, 4)), r.uniform(-1, 1, (3, 4))
    d, v, z = r.uniform(0.5, 1.5, (3, 4)), r.uniform(0.5, 1.5, (3, 4)), r.uniform(-1, 1, (3, 4))
    arrs = [nd(x, F64) for x in (w, g, d, v, z)]
    weft.nd.ftml_update(*arrs, lr=0.1, t=2, wd=0.01, out=arrs[0])
    want, states = ref.ftml(w, g, d, v, z, lr=0.1, t=2, wd=0.01)
    np.testing.assert_allclose(arrs[0].asnumpy(), want, rtol=1e-12)
    for a, s in zip(arrs[2:], states):
        np.testing.assert_allclose(a.asnumpy(), s, rtol=1e-12)


def test_rmspropalex_states():
    r = rng()
    w, g = r.uniform(-1, 1, (5,)), r.uniform(-1, 1, (5,))
    n, gs, delta = r.uniform(1, 2, (5,)), r.uniform(-0.5, 0.5, (5,)), r.uniform(-1, 1, (5,))
    arrs = [nd(x, F64) for x in (w, g, n, gs, delta)]
    out = weft.nd.rmspropalex_update(*arrs, lr=0.1, gamma2=0.5)
    want, states = ref.rmspropalex(w, g, n, gs, delta, lr=0.1, gamma2=0.5)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-12)
    for a, s in zip(arrs[2:], states):
        np.testing.assert_allclose(a.asnumpy(), s, rtol=1e-12)


def test_lamb_two_phases_match_multi_lamb():
    r = rng()
    w, g = r.uniform(-1, 1, (4, 3)), r.uniform(-1, 1, (4, 3))
    mean, var = r.uniform(-1, 1, (4, 3)), r.uniform(0.5, 1.5, (4, 3))
    a = [nd(x, F64) for x in (w, g, mean, var)]
    gdir = weft.nd.lamb_update_phase1(*a, t=3, wd=0.01)
    r1 = nd([np.linalg.norm(w)], F64)
    r2 = nd([np.linalg.norm(gdir.asnumpy())], F64)
    new = weft.nd.lamb_update_phase2(a[0], gdir, r1, r2, lr=0.1)
    b = [nd(x, F64) for x in (w, g, mean, var)]
    multi = weft.nd._contrib_multi_lamb_update(*b, learning_rates=(0.1,), wds=(0.01,), step_count=(3,),
                                               num_tensors=1)
    multi = multi[0] if isinstance(multi, (list, tuple)) else multi
    np.testing.assert_allclose(multi.asnumpy(), new.asnumpy(), rtol=1e-10)
    np.testing.assert_allclose(b[2].asnumpy(), a[2].asnumpy(), rtol=1e-12)
    np.testing.assert_allclose(b[3].asnumpy(), a[3].asnumpy(), rtol=1e-12)


def test_mp_sgd_mom_updates_master_and_momentum():
    r = rng()
    w32 = r.uniform(-1, 1, (6,)).astype(F32)
    w = w32.astype(F16)
    w32 = w.astype(F32)
    g = r.uniform(-1, 1, (6,)).astype(F16)
    mom = r.uniform(-1, 1, (6,)).astype(F32)
    arrs = [nd(w), nd(g), nd(mom), nd(w32)]
    weft.nd.mp_sgd_mom_update(*arrs, lr=0.1, momentum=0.9, wd=0.01, out=arrs[0])
    want, new_mom = ref.sgd_mom(w32, g, mom, lr=0.1, momentum=0.9, wd=0.01)
    np.testing.assert_allclose(arrs[3].asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(arrs[2].asnumpy(), new_mom, rtol=1e-5, atol=1e-7)
    assert arrs[0].dtype == F16
    np.testing.assert_array_equal(arrs[0].asnumpy(), want.astype(F32).astype(F16))


def test_multi_mp_sgd_mom_updates_every_group():
    r = rng()
    xs, masters, moms = [], [], []
    for shape in [(2, 3), (4,)]:
        w = r.uniform(-1, 1, shape).astype(F16)
        g = r.uniform(-1, 1, shape).astype(F16)
        m = r.uniform(-1, 1, shape).astype(F32)
        xs += [nd(w), nd(g), nd(m), nd(w.astype(F32))]
        masters.append((w.astype(F32), g, m))
    outs = weft.nd.multi_mp_sgd_mom_update(*xs, lrs=(0.1, 0.2), wds=(0.0, 0.1), momentum=0.5, num_weights=2,
                                           out=[xs[0], xs[4]])
    for k, (w32, g, m) in enumerate(masters):
        want, new_m = ref.sgd_mom(w32, g, m, lr=(0.1, 0.2)[k], momentum=0.5, wd=(0.0, 0.1)[k])
        np.testing.assert_allclose(xs[4 * k + 3].asnumpy(), want, rtol=1e-5)
        np.testing.assert_allclose(xs[4 * k + 2].asnumpy(), new_m, rtol=1e-5, atol=1e-7)
        np.testing.assert_array_equal(xs[4 * k].asnumpy(), want.astype(F32).astype(F16))
    del outs


def test_adamw_skip_keeps_states():
    r = rng()
    w, g = r.uniform(-1, 1, (3,)), r.uniform(-1, 1, (3,))
    mean, var = r.uniform(-1, 1, (3,)), r.uniform(0.5, 1, (3,))
    arrs = [nd(x, F32) for x in (w, g, mean, var)] + [nd([np.nan], F32)]
    out = weft.nd._contrib_adamw_update(*arrs, lr=0.1, eta=1.0)
    np.testing.assert_array_equal(out.asnumpy(), w.astype(F32))
    np.testing.assert_array_equal(arrs[2].asnumpy(), mean.astype(F32))
    arrs[4] = nd([0.5], F32)
    weft.nd._contrib_adamw_update(*arrs, lr=0.1, eta=1.0, wd=0.1)
    _, (m, v) = ref.adamw(w, g, mean, var, 0.5, lr=0.1, eta=1.0, wd=0.1)
    np.testing.assert_allclose(arrs[2].asnumpy(), m, rtol=1e-5)
    np.testing.assert_allclose(arrs[3].asnumpy(), v, rtol=1e-5)


def test_group_adagrad_history():
    r = rng()
    w, g, h = r.uniform(-1, 1, (4, 3)), r.uniform(-1, 1, (4, 3)), r.uniform(0, 1, (4, 1))
    arrs = [nd(x, F64) for x in (w, g, h)]
    weft.nd.contrib.group_adagrad_update(*arrs, lr=0.1, out=arrs[0])
    want, (hist,) = ref.group_adagrad(w, g, h, lr=0.1)
    np.testing.assert_allclose(arrs[0].asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(arrs[2].asnumpy(), hist, rtol=1e-12)


def test_states_are_auxiliary_and_partial_shapes_infer():
    w, g, m = weft.sym.var("w"), weft.sym.var("g"), weft.sym.var("m")
    s = weft.sym.multi_sgd_mom_update(w, g, m, weft.sym.var("w1"), weft.sym.var("g1"), weft.sym.var("m1"),
                                      lrs=(0.1, 0.1), wds=(0, 0), num_weights=2)
    assert s.list_auxiliary_states() == ["m", "m1"]
    assert len(s.list_outputs()) == 2
    # The weights' shapes come from the gradients (backward), the outputs' from the groups (forward).
    args, outs, aux = s.infer_shape(g=(2, 3), g1=(5,))
    assert args == [(2, 3), (2, 3), (5,), (5,)]
    assert outs == [(2, 3), (5,)]
    assert aux == [(2, 3), (5,)]
    _, outs, _ = s.infer_shape_partial(g=(2, 3))
    assert outs[0] == (2, 3) and not outs[1]
    f = weft.sym.ftml_update(w, g, weft.sym.var("d"), weft.sym.var("v"), weft.sym.var("z"), lr=0.1, t=1)
    _, outs, aux = f.infer_shape(w=(2, 2))
    assert outs == [(2, 2)] and aux == [(2, 2)] * 3


# ---- bad input -------------------------------------------------------------
def test_mismatched_shapes_name_op_and_input():
    a, b = weft.nd.ones((3, 4)), weft.nd.ones((4, 3))
    with pytest.raises(weft.MXNetError, match=r"ftml_update.*input 'v'.*\(3, 4\)"):
        weft.nd.ftml_update(a, a, a, b, a, lr=0.1, t=1)
    with pytest.raises(weft.MXNetError, match=r"multi_sgd_update.*input 'grad_1'"):
        weft.nd.multi_sgd_update(a, a, a, b, lrs=(0.1, 0.1), wds=(0, 0), num_weights=2)
    with pytest.raises(weft.MXNetError, match=r"lamb_update_phase2.*input 'r1'.*\(1,\)"):
        weft.nd.lamb_update_phase2(a, a, weft.nd.ones((2,)), weft.nd.ones((1,)), lr=0.1)
    with pytest.raises(weft.MXNetError, match=r"_contrib_group_adagrad_update.*input 'history'.*\(3, 1\)"):
        weft.nd.contrib.group_adagrad_update(a, a, weft.nd.ones((3,)), lr=0.1)


def test_bad_num_weights_and_tuples():
    a = weft.nd.ones((2,))
    with pytest.raises(weft.MXNetError, match=r"multi_sgd_update.*expected 4 input"):
        weft.nd.multi_sgd_update(a, a, lrs=(0.1, 0.1), wds=(0, 0), num_weights=2)
    with pytest.raises(weft.MXNetError, match=r"multi_sgd_update.*'lrs' must have num_weights = 1 entries, got 2"):
        weft.nd.multi_sgd_update(a, a, lrs=(0.1, 0.2), wds=(0,))
    with pytest.raises(weft.MXNetError, match=r"num_weights' must be at least 1"):
        weft.nd.multi_sgd_update(a, a, lrs=(), wds=(), num_weights=0)
    with pytest.raises(weft.MXNetError, match=r"_contrib_multi_lamb_update.*'step_count' must have num_tensors = 1"):
        weft.nd.contrib.multi_lamb_update(a, a, a, a, learning_rates=(0.1,), wds=(0.0,), step_count=(1, 2))
    with pytest.raises(weft.MXNetError, match=r"ftml_update.*'t'.*at least 1"):
        weft.nd.ftml_update(a, a, a, a, a, lr=0.1, t=0)


def test_bad_dtypes_name_op_and_input():
    w16 = weft.nd.ones((2,), dtype=F16)
    with pytest.raises(weft.MXNetError, match=r"mp_sgd_update.*input 'weight32'.*float32"):
        weft.nd.mp_sgd_update(w16, w16, w16, lr=0.1)
    i32 = weft.nd.ones((2,), dtype=np.int32)
    with pytest.raises(weft.MXNetError, match=r"ftml_update.*floating"):
        weft.nd.ftml_update(i32, i32, i32, i32, i32, lr=0.1, t=1)
    bf = weft.nd.ones((2,), dtype=weft.dtypes.bfloat16)
    with pytest.raises(weft.MXNetError, match=r"multi_lars.*float16, float32 or float64.*bfloat16"):
        weft.nd.multi_lars(bf, bf, bf, bf, eta=0.1, eps=1e-8)
    a = weft.nd.ones((2,))
    with pytest.raises(weft.MXNetError, match=r"preloaded_multi_sgd_update.*input 'lrs'.*float32"):
        weft.nd.preloaded_multi_sgd_update(a, a, weft.nd.ones((1,), dtype=F64), weft.nd.ones((1,)))


def test_missing_required_parameter():
    a = weft.nd.ones((2,))
    with pytest.raises(weft.MXNetError, match=r"_contrib_adamw_update.*eta"):
        weft.nd._contrib_adamw_update(a, a, a, a, weft.nd.ones((1,)), lr=0.1)
