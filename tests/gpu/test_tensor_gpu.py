"""GPU kernels of the tensor ops (core/op/shape/reshape_transpose.cu,
concat_slice.cu, indexing.cu, embedding_pad.cu, sequence_upsampling.cu,
broadcast_reduce.cu) on paths the registry harness does not reach: backward
operators through autograd (with grad_req='add', so the backward kernels run
under kAddTo), repeated indices in the scatters, overlapping slice
assignment, norm's out_dtype and reductions larger than the harness cases.
Every result is compared with the CPU kernels'."""
import numpy as np
import pytest

import weft
from weft import autograd, nd

G0 = weft.gpu(0)
CPU = weft.cpu(0)


def _arr(x, ctx):
    return nd.array(x, dtype=x.dtype, ctx=ctx)


def _grads(ctx, fn, xs, heads, passes=2):
    """fn's outputs and the inputs' gradients accumulated over `passes`
    backward passes (grad_req='add': the backward kernels run under kAddTo)."""
    xs_nd = [_arr(x, ctx) for x in xs]
    for x in xs_nd:
        x.attach_grad(grad_req="add")
    for _ in range(passes):
        with autograd.record():
            out = fn(*xs_nd)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        autograd.backward(outs, [_arr(h, ctx) for h in heads])
    return [o.asnumpy() for o in outs] + [x.grad.asnumpy() for x in xs_nd]


RNG = np.random.default_rng(3)
X234 = RNG.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
X64 = RNG.uniform(-1, 1, (3, 5)).astype(np.float64)

# (name, fn, inputs, output shapes)
GRAD_CASES = [
    ("Reshape", lambda x: nd.Reshape(x, shape=(4, -1)), [X234], [(4, 6)]),
    ("transpose", lambda x: nd.transpose(x, axes=(1, 2, 0)), [X234], [(3, 4, 2)]),
    ("Concat", lambda a, b: nd.Concat(a, b, num_args=2, dim=1), [X234, X234[:, :2]], [(2, 5, 4)]),
    ("stack", lambda a, b: nd.stack(a, b, num_args=2, axis=1), [X64, X64 * 2], [(3, 2, 5)]),
    ("split", lambda x: nd.split(x, num_outputs=2, axis=2), [X234], [(2, 3, 2), (2, 3, 2)]),
    ("slice", lambda x: nd.slice(x, begin=(None, 2, 0), end=(None, 0, 4), step=(1, -1, 2)), [X234], [(2, 2, 2)]),
    ("slice_axis", lambda x: nd.slice_axis(x, axis=1, begin=1, end=3), [X234], [(2, 2, 4)]),
    ("take", lambda x: nd.take(x, nd.array(np.array([2, 0, 2, 2, -1], np.float32), ctx=x.context), axis=1),
     [X234], [(2, 5, 4)]),
    ("pick", lambda x: nd.pick(x, nd.array(np.array([[0, 3, 1], [2, 2, 7]], np.int32), ctx=x.context), axis=2),
     [X234], [(2, 3)]),
    ("gather_nd", lambda x: nd.gather_nd(x, nd.array(np.array([[1, 1, 0, -1], [2, 2, 0, 1]], np.int64),
                                                      ctx=x.context)), [X234], [(4, 4)]),
    ("Embedding", lambda w: nd.Embedding(nd.array(np.array([[1, 4, 1], [9, -3, 1]], np.float32), ctx=w.context), w,
                                         input_dim=5, output_dim=3),
     [RNG.uniform(-1, 1, (5, 3)).astype(np.float32)], [(2, 3, 3)]),
    ("Pad_constant", lambda x: nd.Pad(x, mode="constant", pad_width=(0, 1, 2, 0, 1, 1), constant_value=2.5),
     [X234], [(3, 5, 6)]),
    ("Pad_edge", lambda x: nd.Pad(x, mode="edge", pad_width=(1, 1, 2, 1, 3, 2)), [X234], [(4, 6, 9)]),
    ("Pad_reflect", lambda x: nd.Pad(x, mode="reflect", pad_width=(1, 0, 2, 2, 3, 1)), [X64.reshape(3, 5, 1)[:, :, :]
                                                                                       .repeat(4, axis=2)],
     [(4, 9, 8)]),
    ("SequenceMask", lambda x: nd.SequenceMask(x, nd.array(np.array([1, 3.7], np.float64), ctx=x.context),
                                               use_sequence_length=True, value=-1.0, axis=1), [X234], [(2, 3, 4)]),
    ("SequenceLast", lambda x: nd.SequenceLast(x, nd.array(np.array([0, 2, 5, 1], np.int32), ctx=x.context),
                                               use_sequence_length=True, axis=0), [X234.transpose(1, 2, 0).copy()],
     [(4, 2)]),
    ("UpSampling_concat", lambda a, b: nd.UpSampling(a, b, scale=2, sample_type="nearest", num_args=2),
     [RNG.uniform(-1, 1, (2, 2, 3, 3)).astype(np.float32), RNG.uniform(-1, 1, (2, 1, 6, 6)).astype(np.float32)],
     [(2, 3, 6, 6)]),
    ("UpSampling_sum", lambda a, b: nd.UpSampling(a, b, scale=2, sample_type="nearest", num_args=2,
                                                  multi_input_mode="sum"),
     [RNG.uniform(-1, 1, (1, 2, 2, 2)).astype(np.float64), RNG.uniform(-1, 1, (1, 2, 4, 4)).astype(np.float64)],
     [(1, 2, 4, 4)]),
    ("broadcast_to", lambda x: nd.broadcast_to(x, shape=(3, 2, 4)), [X234[:1, :2, :]], [(3, 2, 4)]),
    ("broadcast_like", lambda a, b: nd.broadcast_like(a, b), [X64[:, :1], X64], [(3, 5)]),
    ("sum", lambda x: nd.sum(x, axis=(0, 2), keepdims=True), [X234], [(1, 3, 1)]),
    ("mean", lambda x: nd.mean(x, axis=1, exclude=True), [X234], [(3,)]),
    ("max", lambda x: nd.max(x, axis=2), [X234], [(2, 3)]),
    ("prod", lambda x: nd.prod(x, axis=0), [X64], [(5,)]),
    ("norm", lambda x: nd.norm(x, ord=2, axis=(1, 2)), [X234], [(2,)]),
]


@pytest.mark.parametrize("name,fn,xs,shapes", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_backward_matches_cpu(name, fn, xs, shapes):
    heads = [RNG.uniform(-1, 1, s).astype(xs[0].dtype) for s in shapes]
    want = _grads(CPU, fn, xs, heads)
    got = _grads(G0, fn, xs, heads)
    tol = 1e-5 if xs[0].dtype == np.float32 else 1e-12
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and g.dtype == w.dtype, "%s result %d" % (name, k)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg="%s result %d (GPU vs CPU)" % (name, k))


def _both(fn):
    return fn(G0), fn(CPU)


def test_large_reductions_match_cpu():
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, (37, 129, 11)).astype(np.float32)
    xi = rng.integers(-100, 100, (300, 41)).astype(np.int8)
    for axis in [None, (0,), (1,), (0, 2), (2,)]:
        for op in ["sum", "mean", "max", "min", "norm"]:
            g, c = _both(lambda ctx: getattr(nd, op)(_arr(x, ctx), axis=axis).asnumpy())
            np.testing.assert_allclose(g, c, rtol=1e-5, atol=1e-5, err_msg="%s axis=%s" % (op, axis))
    for op in ["sum", "prod", "max", "min", "argmax", "argmin"]:
        kw = {"axis": 0}
        g, c = _both(lambda ctx: getattr(nd, op)(_arr(xi, ctx), **kw).asnumpy())
        np.testing.assert_array_equal(g, c, err_msg=op + " int8 (wraps like the CPU)")


def test_norm_out_dtype_matches_cpu():
    x = np.random.default_rng(6).uniform(-3, 3, (4, 7)).astype(np.float32)
    for out_dtype in ["float64", "int32", "uint8"]:
        g, c = _both(lambda ctx: nd.norm(_arr(x, ctx), ord=1, axis=1, out_dtype=out_dtype).asnumpy())
        assert g.dtype == c.dtype
        np.testing.assert_allclose(g, c, rtol=1e-6, err_msg=out_dtype)


def test_scatter_set_nd_later_duplicates_win():
    lhs = np.arange(12, dtype=np.int32).reshape(3, 4)
    idx = np.array([[0, 2, 0], [1, 3, 1]], dtype=np.int64)
    rhs = np.array([100, 200, 300], dtype=np.int32)

    def run(ctx):
        a = _arr(lhs, ctx)
        nd._scatter_set_nd(a, _arr(rhs, ctx), _arr(idx, ctx), out=a)
        return a.asnumpy()
    g, c = _both(run)
    np.testing.assert_array_equal(g, c)
    assert g[0, 1] == 300


def test_slice_assign_from_an_overlapping_view():
    x = np.arange(20, dtype=np.float64).reshape(5, 4)

    def run(ctx):
        a = _arr(x, ctx)
        a[1:] = a[:-1]
        return a.asnumpy()
    g, c = _both(run)
    np.testing.assert_array_equal(g, c)
    np.testing.assert_array_equal(g[1:], x[:-1])


def test_half_precision_copies_move_the_bits():
    x = np.arange(6, dtype=np.float16).reshape(2, 3) / np.float16(3)
    for dt in ("float16", "bfloat16"):
        got = nd.transpose(nd.array(x, dtype=dt).copyto(G0)).asnumpy()
        want = nd.transpose(nd.array(x, dtype=dt)).asnumpy()
        np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint16),
                                      np.ascontiguousarray(want).view(np.uint16))
