"""Note [In-place axpy fusion]: ``w -= lr * g`` / ``w += lr * g`` run as one
kernel when ``lr * g`` is a float32 temporary whose multiply has not started,
and as the two ops everywhere else, with the same result either way.

To make "has not started" certain, g is the output of a custom op that blocks
on an event until the update is pushed (the multiply waits on g)."""
import os
import threading

import numpy as np
import pytest

import weft as mx
from weft.ndarray import axpy

pytestmark = pytest.mark.skipif(os.environ.get("WEFT_ENGINE") == "naive" or not axpy.ENABLED,
                                reason="the naive engine runs every op as it is pushed (nothing is pending "
                                       "to fuse); fusion also needs a CPython whose operand counts tell "
                                       "temporaries apart (weft.ndarray.axpy.ENABLED)")

_gates = {}


class _Held(mx.operator.CustomOp):
    """Identity that waits for its gate: ops reading the output stay pending until then."""

    def __init__(self, key):
        super().__init__()
        self.key = key

    def forward(self, is_train, req, in_data, out_data, aux):
        assert _gates[self.key].wait(30), "the test never released the held array"
        self.assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0])


@mx.operator.register("test_axpy_held")
class _HeldProp(mx.operator.CustomOpProp):
    def __init__(self, key="0"):
        super().__init__(need_top_grad=True)
        self.key = key

    def infer_type(self, in_type):
        return in_type, in_type, []

    def create_operator(self, ctx, shapes, dtypes):
        return _Held(self.key)


class _Hold:
    """with _Hold(values) as g: g is an NDArray of values that is written only
    when the block exits (so everything pushed on g inside stays pending)."""

    def __init__(self, values):
        self.values = values
        self.key = str(len(_gates))
        _gates[self.key] = threading.Event()

    def __enter__(self):
        return mx.nd.Custom(mx.nd.array(self.values, dtype=self.values.dtype), op_type="test_axpy_held",
                            key=self.key)

    def __exit__(self, *exc):
        _gates[self.key].set()
        mx.nd.waitall()


def _data(shape=(4, 5), dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape).astype(dtype)


def test_sub_and_add_fuse_and_match_the_two_ops_bit_for_bit():
    w0, g0 = _data()
    w, v = mx.nd.array(w0), mx.nd.array(w0)
    before = axpy.fused_count()
    with _Hold(g0) as g:
        w -= 0.1 * g
        v += g * 0.25
    assert axpy.fused_count() == before + 2
    np.testing.assert_array_equal(w.asnumpy(), w0 - np.float32(0.1) * g0)
    np.testing.assert_array_equal(v.asnumpy(), w0 + np.float32(0.25) * g0)


def test_a_named_temporary_is_not_fused_and_stays_readable():
    w0, g0 = _data()
    w, u = mx.nd.array(w0), mx.nd.array(w0)
    before = axpy.fused_count()
    with _Hold(g0) as g:
        t = 0.5 * g
        w -= t
        s = 2.0 * g
        u.__isub__(s)  # an explicit call with a named operand: not the operator
    assert axpy.fused_count() == before
    np.testing.assert_array_equal(t.asnumpy(), np.float32(0.5) * g0)
    np.testing.assert_array_equal(s.asnumpy(), np.float32(2.0) * g0)
    np.testing.assert_array_equal(w.asnumpy(), w0 - np.float32(0.5) * g0)
    np.testing.assert_array_equal(u.asnumpy(), w0 - np.float32(2.0) * g0)


def test_a_temporary_held_elsewhere_is_materialised():
    w0, g0 = _data()
    w, u = mx.nd.array(w0), mx.nd.array(w0)
    stash, views = [], []

    def keep(t):
        stash.append(t)
        return t

    def view(t):
        views.append(t[1:3])
        return t

    before = axpy.fused_count()
    with _Hold(g0) as g:
        w -= keep(0.5 * g)
        u -= view(0.5 * g)
    assert axpy.fused_count() == before
    np.testing.assert_array_equal(stash[0].asnumpy(), np.float32(0.5) * g0)
    np.testing.assert_array_equal(views[0].asnumpy(), np.float32(0.5) * g0[1:3])
    np.testing.assert_array_equal(w.asnumpy(), w0 - np.float32(0.5) * g0)
    np.testing.assert_array_equal(u.asnumpy(), w0 - np.float32(0.5) * g0)


def test_a_write_pushed_between_the_multiply_and_the_update_is_not_reordered():
    w0, g0 = _data()
    w = mx.nd.array(w0)

    def scaled_then_overwritten(g):
        t = 0.5 * g
        g[:] = 7.0  # pushed after the multiply: the multiply must see the old g
        return t

    before = axpy.fused_count()
    with _Hold(g0) as g:
        w -= scaled_then_overwritten(g)
    assert axpy.fused_count() == before
    np.testing.assert_array_equal(w.asnumpy(), w0 - np.float32(0.5) * g0)


def test_recording_is_not_fused_and_records_the_two_ops():
    w0, g0 = _data()
    x = mx.nd.array(g0)
    x.attach_grad()
    before = axpy.fused_count()
    with mx.autograd.record():
        y = mx.nd.array(w0) * 1.0
        y -= 3.0 * x
        loss = y.sum()
    loss.backward()
    assert axpy.fused_count() == before
    np.testing.assert_allclose(y.asnumpy(), w0 - np.float32(3.0) * g0, rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), np.full(g0.shape, -3.0, np.float32))


def test_views_fuse_and_write_only_their_rows():
    w0, g0 = _data((6, 3))
    w = mx.nd.array(w0)
    before = axpy.fused_count()
    with _Hold(g0) as g:
        w[1:3] -= 0.5 * g[3:5]
    assert axpy.fused_count() == before + 1
    want = w0.copy()
    want[1:3] -= np.float32(0.5) * g0[3:5]
    np.testing.assert_array_equal(w.asnumpy(), want)


def test_overlapping_update_and_operand():
    a0, _ = _data((6, 3))
    before = axpy.fused_count()
    with _Hold(a0) as a:
        a[0:3] -= 0.5 * a[1:4]  # partial overlap: the temporary is needed
    assert axpy.fused_count() == before
    want = a0.copy()
    want[0:3] -= np.float32(0.5) * a0[1:4].copy()
    np.testing.assert_array_equal(a.asnumpy(), want)
    with _Hold(a0) as b:
        b -= 0.25 * b  # the same memory exactly: element i reads and writes only i
    assert axpy.fused_count() == before + 1
    np.testing.assert_array_equal(b.asnumpy(), a0 - np.float32(0.25) * a0)


@pytest.mark.parametrize("wdt,gdt", [("float64", "float64"), ("float16", "float16"), ("int32", "int32"),
                                     ("float32", "float64"), ("float64", "float32")])
def test_other_dtypes_take_the_two_op_path(wdt, gdt):
    w0, g0 = _data()
    w0, g0 = (w0 * 4).astype(wdt), (g0 * 4).astype(gdt)

    def two_ops():
        w = mx.nd.array(w0, dtype=wdt)
        with _Hold(g0) as g:
            t = 0.5 * g
            w -= t
        return w.asnumpy()

    def one_expression():
        w = mx.nd.array(w0, dtype=wdt)
        with _Hold(g0) as g:
            w -= 0.5 * g
        return w.asnumpy()

    before = axpy.fused_count()
    try:
        want = two_ops()
    except mx.base.WeftError as e:
        with pytest.raises(type(e)):
            one_expression()
    else:
        np.testing.assert_array_equal(one_expression(), want)
    assert axpy.fused_count() == before


def test_non_finite_scalars_are_not_fused():
    w0, g0 = _data()
    w = mx.nd.array(w0)
    before = axpy.fused_count()
    with _Hold(g0) as g:
        w -= float("inf") * g
    assert axpy.fused_count() == before
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(w.asnumpy(), w0 - np.float32("inf") * g0)
