"""The MXNet 1.x layers of issue 17 (helper nn) beyond the harness: names and
namespaces, outputs as MXNet exposes them, gradients through autograd against
finite differences of NumPy references (CTCLoss from the textbook recursion in
op_cases/nn_more.py), the training-time state updates (IdentityAttachKLSparseReg's
moving average, _contrib_SyncBatchNorm's moving statistics), and bad input
rejected at the call with a message naming the op, the argument and what was
expected."""
import numpy as np
import pytest

import weft as mx
from weft import autograd
from op_cases.nn_more import ctc64, gn64, im2col64, l2_64, selfatt_qk64
from op_cases.nn_ref import fd

RNG = np.random.default_rng(17)


def _grad(op, arrays, wrt, head, **attrs):
    """d sum(op(*arrays) * head) / d arrays[wrt] through autograd."""
    xs = [mx.nd.array(a, dtype=a.dtype) for a in arrays]
    xs[wrt].attach_grad()
    with autograd.record():
        y = op(*xs, **attrs)
    y.backward(mx.nd.array(head, dtype=head.dtype))
    return xs[wrt].grad.asnumpy()


# ---- names ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["SequenceReverse", "L2Normalization", "GroupNorm", "SVMOutput", "CTCLoss",
                                  "ctc_loss", "IdentityAttachKLSparseReg", "im2col", "col2im", "BatchNorm_v1",
                                  "Convolution_v1", "Pooling_v1"])
def test_nd_and_sym_names(name):
    assert callable(getattr(mx.nd, name)) and callable(getattr(mx.sym, name))


@pytest.mark.parametrize("name", ["CTCLoss", "ctc_loss", "SyncBatchNorm", "BatchNormWithReLU", "SparseEmbedding",
                                  "interleaved_matmul_selfatt_qk", "interleaved_matmul_selfatt_valatt",
                                  "interleaved_matmul_encdec_qk", "interleaved_matmul_encdec_valatt"])
def test_contrib_names(name):
    assert callable(getattr(mx.nd.contrib, name)) and callable(getattr(mx.sym.contrib, name))


def test_v1_aliases_compute_like_their_successors():
    x = mx.nd.array(RNG.uniform(-1, 1, size=(1, 2, 4, 4)).astype(np.float32))
    a = mx.nd.Pooling_v1(x, kernel=(2, 2), stride=(2, 2), pool_type="max")
    b = mx.nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max")
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


# ---- outputs ----------------------------------------------------------------------------------------------


def test_hidden_outputs_as_mxnet():
    x = mx.sym.Variable("x")
    assert mx.sym.L2Normalization(x).list_outputs() == ["l2normalization0_output"] or \
        len(mx.sym.L2Normalization(x).list_outputs()) == 1
    assert len(mx.sym.CTCLoss(x, mx.sym.Variable("l")).list_outputs()) == 1
    assert len(mx.sym.GroupNorm(x, output_mean_var=True).list_outputs()) == 3
    d = RNG.uniform(size=(2, 4, 3)).astype(np.float32)
    outs = mx.nd.GroupNorm(mx.nd.array(d), mx.nd.ones((2,)), mx.nd.zeros((2,)), num_groups=2, output_mean_var=True)
    assert [o.shape for o in outs] == [(2, 4, 3), (2, 2), (2, 2)]
    np.testing.assert_allclose(outs[2].asnumpy(), np.sqrt(d.reshape(2, 2, -1).var(-1) + 1e-5), rtol=1e-5)


def test_symbolic_inference():
    args, outs, _ = mx.sym.CTCLoss(mx.sym.Variable("data"), mx.sym.Variable("label"), use_data_lengths=True,
                                   name="ctc").infer_shape(data=(7, 3, 5), label=(3, 2))
    assert outs == [(3,)] and args[2] == (3,)
    args, outs, _ = mx.sym.GroupNorm(mx.sym.Variable("x"), num_groups=2, name="gn").infer_shape(x=(2, 4, 5))
    assert args[1:] == [(2,), (2,)] and outs == [(2, 4, 5)]
    _, outs, _ = mx.sym.im2col(mx.sym.Variable("x"), kernel=(3, 3), pad=(1, 1)).infer_shape(x=(2, 3, 5, 6))
    assert outs == [(2, 27, 30)]
    _, outs, _ = mx.sym.contrib.interleaved_matmul_encdec_qk(
        mx.sym.Variable("q"), mx.sym.Variable("kv"), heads=4).infer_shape(q=(5, 2, 16), kv=(7, 2, 32))
    assert outs == [(8, 5, 7)]


# ---- gradients --------------------------------------------------------------------------------------------


def test_ctc_loss_gradient_matches_finite_differences():
    data = RNG.uniform(-1, 1, size=(6, 2, 4))
    label = np.array([[1, 2, 2], [3, 1, 0]], np.float64)
    head = np.array([0.7, -1.3])
    got = _grad(mx.nd.ctc_loss, [data, label], 0, head)
    want = fd(lambda d: ctc64(d, label), [data], 0, head)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
    # the loss itself against the reference
    out = mx.nd.contrib.CTCLoss(mx.nd.array(data, dtype=np.float64), mx.nd.array(label, dtype=np.float64))
    np.testing.assert_allclose(out.asnumpy(), ctc64(data, label), rtol=1e-10)


def test_ctc_loss_lengths_gradient():
    data = RNG.uniform(-1, 1, size=(5, 2, 4))
    label = np.array([[0, 1, 0], [2, 2, 1]], np.float64)
    dl, ll = np.array([5.0, 3.0]), np.array([2.0, 2.0])
    head = np.array([1.0, 2.0])
    got = _grad(mx.nd.ctc_loss, [data, label, dl, ll], 0, head, use_data_lengths=True, use_label_lengths=True,
                blank_label="last")
    want = fd(lambda d: ctc64(d, label, dl, ll, "last"), [data], 0, head)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
    assert np.all(got[3:, 1] == 0), "steps past a sequence's length take no gradient"


def test_group_norm_and_l2_gradients():
    x = RNG.uniform(-1, 1, size=(2, 4, 3))
    gamma, beta = RNG.uniform(0.5, 1.5, size=2), RNG.uniform(-1, 1, size=2)
    head = RNG.uniform(-1, 1, size=x.shape)
    got = _grad(mx.nd.GroupNorm, [x, gamma, beta], 1, head, num_groups=2)
    np.testing.assert_allclose(got, fd(lambda g: gn64(x, g, beta, 2), [gamma], 0, head), rtol=1e-5, atol=1e-7)
    got = _grad(mx.nd.L2Normalization, [x], 0, head, mode="channel")
    np.testing.assert_allclose(got, fd(lambda a: l2_64(a, "channel"), [x], 0, head), rtol=1e-5, atol=1e-7)


def test_attention_and_im2col_gradients():
    qkv = RNG.uniform(-1, 1, size=(3, 2, 12))
    head = RNG.uniform(-1, 1, size=(4, 3, 3))
    got = _grad(mx.nd.contrib.interleaved_matmul_selfatt_qk, [qkv], 0, head, heads=2)
    np.testing.assert_allclose(got, fd(lambda a: selfatt_qk64(a, 2), [qkv], 0, head), rtol=1e-5, atol=1e-7)
    x = RNG.uniform(-1, 1, size=(1, 2, 4, 5))
    head = RNG.uniform(-1, 1, size=im2col64(x, (2, 3), (2, 1)).shape)
    got = _grad(mx.nd.im2col, [x], 0, head, kernel=(2, 3), stride=(2, 1))
    np.testing.assert_allclose(got, fd(lambda a: im2col64(a, (2, 3), (2, 1)), [x], 0, head), rtol=1e-5, atol=1e-7)


def test_sequence_reverse_gradient_with_lengths():
    x = RNG.uniform(size=(4, 2, 3))
    lengths = np.array([3.0, 1.0])
    head = RNG.uniform(size=x.shape)
    got = _grad(mx.nd.SequenceReverse, [x, lengths], 0, head, use_sequence_length=True)
    want = head.copy()
    want[:3, 0] = head[:3, 0][::-1]
    np.testing.assert_allclose(got, want)


def test_svm_output_gradient_is_mxnets_hinge_gradient():
    x = np.array([[0.5, -2.0, 0.2], [1.5, 0.1, -0.9]])
    label = np.array([0.0, 2.0])
    got = _grad(mx.nd.SVMOutput, [x, label], 0, np.ones_like(x) * 5.0)  # the head gradient is ignored
    want = np.array([[-2 * 0.5, 0.0, 2 * 1.2], [2 * 2.5, 2 * 1.1, -2 * 1.9]])
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_kl_sparse_reg_updates_moving_average_and_adds_penalty():
    x = RNG.uniform(0.1, 0.9, size=(4, 3))
    avg = mx.nd.array(np.full(3, 0.5), dtype=np.float64)
    xa = mx.nd.array(x, dtype=np.float64)
    xa.attach_grad()
    with autograd.record():
        y = mx.nd.IdentityAttachKLSparseReg(xa, avg, sparseness_target=0.2, penalty=0.1, momentum=0.8)
    np.testing.assert_allclose(y.asnumpy(), x)
    y.backward(mx.nd.ones((4, 3), dtype=np.float64))
    ma = 0.8 * 0.5 + 0.2 * x.mean(axis=0)
    np.testing.assert_allclose(avg.asnumpy(), ma, rtol=1e-12)
    np.testing.assert_allclose(xa.grad.asnumpy(), 1 + 0.1 * (-0.2 / ma + 0.8 / (1 - ma)) + np.zeros((4, 1)),
                               rtol=1e-12)


def test_batch_norm_with_relu_gradient_masks_negative_outputs():
    x = RNG.uniform(-2, 2, size=(4, 3))
    params = [np.ones(3), np.zeros(3), np.zeros(3), np.ones(3)]
    head = RNG.uniform(-1, 1, size=x.shape)
    xs = [mx.nd.array(a, dtype=np.float64) for a in [x] + params]
    xs[0].attach_grad()
    with autograd.record():
        y = mx.nd.contrib.BatchNormWithReLU(*xs, fix_gamma=False)
    y.backward(mx.nd.array(head, dtype=np.float64))
    assert np.all(y.asnumpy() >= 0)
    xb = [mx.nd.array(a, dtype=np.float64) for a in [x] + params]
    xb[0].attach_grad()
    with autograd.record():
        z = mx.nd.BatchNorm(*xb, fix_gamma=False)
    z.backward(mx.nd.array(head * (z.asnumpy() > 0), dtype=np.float64))
    np.testing.assert_allclose(xs[0].grad.asnumpy(), xb[0].grad.asnumpy(), rtol=1e-10, atol=1e-12)


def test_sync_batch_norm_training_updates_moving_statistics():
    x = RNG.uniform(-1, 1, size=(4, 2, 3))
    mm, mv = mx.nd.zeros((2,), dtype=np.float64), mx.nd.ones((2,), dtype=np.float64)
    with autograd.record():
        mx.nd.contrib.SyncBatchNorm(mx.nd.array(x, dtype=np.float64), mx.nd.ones((2,), dtype=np.float64),
                                    mx.nd.zeros((2,), dtype=np.float64), mm, mv, key="s", momentum=0.5)
    np.testing.assert_allclose(mm.asnumpy(), 0.5 * x.mean(axis=(0, 2)), rtol=1e-10)
    np.testing.assert_allclose(mv.asnumpy(), 0.5 + 0.5 * x.var(axis=(0, 2)), rtol=1e-10)


# ---- bad input --------------------------------------------------------------------------------------------


def _raises(err, match, fn, *args, **kw):
    with pytest.raises(err, match=match):
        out = fn(*args, **kw)
        (out[0] if isinstance(out, (list, tuple)) else out).asnumpy()


def test_bad_shapes_are_rejected_naming_the_op_and_argument():
    z = mx.nd.zeros
    _raises(mx.ShapeError, r"SequenceReverse.*'data'.*at least 2 dims", mx.nd.SequenceReverse, z((4,)))
    _raises(mx.ShapeError, r"SequenceReverse.*'sequence_length'", mx.nd.SequenceReverse, z((4, 3)), z((2,)),
            use_sequence_length=True)
    _raises(mx.ShapeError, r"L2Normalization.*'data'.*at least 3 dims.*'channel'", mx.nd.L2Normalization,
            z((2, 3)), mode="channel")
    _raises(mx.ShapeError, r"GroupNorm.*'data'.*not divisible by num_groups=4", mx.nd.GroupNorm, z((2, 6, 3)),
            z((4,)), z((4,)), num_groups=4)
    _raises(mx.ShapeError, r"GroupNorm.*'gamma'", mx.nd.GroupNorm, z((2, 6, 3)), z((6,)), z((2,)), num_groups=2)
    _raises(mx.ShapeError, r"SVMOutput.*'label'", mx.nd.SVMOutput, z((3, 4)), z((4,)))
    _raises(mx.ShapeError, r"CTCLoss.*'data'.*3-D", mx.nd.CTCLoss, z((3, 4)), z((3, 2)))
    _raises(mx.ShapeError, r"CTCLoss.*'label'.*batch_size 2", mx.nd.CTCLoss, z((5, 2, 4)), z((3, 2)))
    _raises(mx.ShapeError, r"IdentityAttachKLSparseReg.*'moving_avg'", mx.nd.IdentityAttachKLSparseReg,
            z((3, 4)), z((3,)))
    _raises(mx.ShapeError, r"im2col.*spatial axes", mx.nd.im2col, z((2, 3, 5)), kernel=(2, 2))
    _raises(mx.ShapeError, r"col2im.*blocks", mx.nd.col2im, z((1, 8, 5)), output_size=(3, 3), kernel=(2, 2))
    _raises(mx.ShapeError, r"interleaved_matmul_selfatt_qk.*'queries_keys_values'.*multiple of 3 \* heads",
            mx.nd.contrib.interleaved_matmul_selfatt_qk, z((3, 2, 10)), heads=2)
    _raises(mx.ShapeError, r"interleaved_matmul_selfatt_valatt.*'attention'", mx.nd.contrib.interleaved_matmul_selfatt_valatt,
            z((3, 2, 12)), z((4, 3, 2)), heads=2)
    _raises(mx.ShapeError, r"interleaved_matmul_encdec_qk.*'keys_values'", mx.nd.contrib.interleaved_matmul_encdec_qk,
            z((3, 2, 4)), z((4, 2, 6)), heads=2)
    _raises(mx.ShapeError, r"SyncBatchNorm.*gamma", mx.nd.contrib.SyncBatchNorm, z((2, 3, 4)), z((2,)), z((3,)),
            z((3,)), z((3,)), key="k")


def test_bad_attributes_and_dtypes_are_rejected():
    z = mx.nd.zeros
    _raises(mx.InvalidArgumentError, r"SequenceReverse.*'axis'.*0", mx.nd.SequenceReverse, z((4, 3)), axis=1)
    _raises(mx.InvalidArgumentError, r"L2Normalization.*mode", mx.nd.L2Normalization, z((2, 3)), mode="row")
    _raises(mx.InvalidArgumentError, r"GroupNorm.*'num_groups'.*>= 1", mx.nd.GroupNorm, z((2, 6, 3)), z((0,)),
            z((0,)), num_groups=0)
    _raises(mx.InvalidArgumentError, r"IdentityAttachKLSparseReg.*'momentum'.*\[0, 1\]",
            mx.nd.IdentityAttachKLSparseReg, z((3, 4)), z((4,)), momentum=1.5)
    _raises(mx.InvalidArgumentError, r"im2col.*'stride'.*2 entries", mx.nd.im2col, z((1, 1, 4, 4)), kernel=(2, 2),
            stride=(1, 1, 1))
    _raises(mx.InvalidArgumentError, r"col2im.*'output_size'", mx.nd.col2im, z((1, 4, 4)), output_size=(3,),
            kernel=(2, 2))
    _raises(mx.InvalidArgumentError, r"heads.*>= 1", mx.nd.contrib.interleaved_matmul_selfatt_qk, z((3, 2, 12)),
            heads=0)
    _raises(mx.InvalidArgumentError, r"key", mx.nd.contrib.SyncBatchNorm, z((2, 3)), z((3,)), z((3,)), z((3,)),
            z((3,)))
    _raises(mx.InvalidArgumentError, r"blank_label", mx.nd.CTCLoss, z((5, 2, 4)), z((2, 2)), blank_label="middle")
    _raises(mx.DTypeError, r"L2Normalization.*'data'.*floating", mx.nd.L2Normalization, z((2, 3), dtype=np.int32))
    _raises(mx.DTypeError, r"CTCLoss.*'data'.*floating", mx.nd.CTCLoss, z((5, 2, 4), dtype=np.int32), z((2, 2)))
    _raises(mx.DTypeError, r"interleaved_matmul_encdec_valatt.*float32 or float64",
            mx.nd.contrib.interleaved_matmul_encdec_valatt, z((4, 2, 8), dtype=np.float16),
            z((4, 3, 4), dtype=np.float16), heads=2)
