"""The non-math methods and attributes of weft.np.ndarray (issue 37): NumPy's
semantics and np results (Note [Methods installed on ndarray])."""
import copy
import pickle

import numpy as onp
import pytest

import weft
from weft import np

HOST = onp.arange(24, dtype=onp.float32).reshape(2, 3, 4)


def check(x, expected):
    assert type(x) is np.ndarray, type(x)
    assert x.shape == expected.shape and x.dtype == expected.dtype, (x.shape, x.dtype)
    onp.testing.assert_array_equal(x.asnumpy(), expected)


def test_attributes():
    a = np.array(HOST)
    assert a.shape == (2, 3, 4) and isinstance(a.shape, tuple)
    assert a.ndim == 3 and a.size == 24 and a.dtype == onp.float32
    assert a.context == weft.cpu() and a.ctx == a.context and a.stype == "default"
    check(a.T, HOST.T)
    check(np.array([1.0, 2.0]).T, onp.array([1.0, 2.0], onp.float32))
    assert a.grad is None


@pytest.mark.parametrize("call,want", [
    (lambda a: a.reshape(4, 6), HOST.reshape(4, 6)),
    (lambda a: a.reshape((4, -1)), HOST.reshape((4, -1))),
    (lambda a: a.reshape(shape=(24,)), HOST.reshape(24)),
    (lambda a: a.reshape_view(6, 4), HOST.reshape(6, 4)),
    (lambda a: a.transpose(), HOST.transpose()),
    (lambda a: a.transpose(1, 0, 2), HOST.transpose(1, 0, 2)),
    (lambda a: a.transpose((2, 0, 1)), HOST.transpose((2, 0, 1))),
    (lambda a: a.swapaxes(0, 2), HOST.swapaxes(0, 2)),
    (lambda a: a.flatten(), HOST.flatten()),
    (lambda a: a[:1].squeeze(), HOST[:1].squeeze()),
    (lambda a: a[:1].squeeze(0), HOST[:1].squeeze(0)),
    (lambda a: a.expand_dims(1), onp.expand_dims(HOST, 1)),
    (lambda a: a.repeat(2, axis=-1), HOST.repeat(2, axis=-1)),
    (lambda a: a.tile((2, 1)), onp.tile(HOST, (2, 1))),
    (lambda a: a.take([1, 0], axis=1), HOST.take([1, 0], axis=1)),
    (lambda a: a.flip(0), onp.flip(HOST, 0)),
    (lambda a: a[0, :1].broadcast_to((3, 4)), onp.broadcast_to(HOST[0, :1], (3, 4))),
    (lambda a: a[0].diag(1), onp.diag(HOST[0], 1)),
    (lambda a: a.zeros_like(), onp.zeros_like(HOST)),
    (lambda a: a.ones_like(dtype="int32"), onp.ones_like(HOST, dtype=onp.int32)),
    (lambda a: a.astype("int64"), HOST.astype(onp.int64)),
    (lambda a: a.astype(np.float16), HOST.astype(onp.float16)),
    (lambda a: a.copy(), HOST.copy()),
    (lambda a: a.as_in_ctx(weft.cpu()), HOST),
    (lambda a: a.as_in_context(weft.cpu()), HOST),
    (lambda a: a.copyto(weft.cpu()), HOST),
    (lambda a: a.detach(), HOST),
])
def test_methods_match_numpy(call, want):
    check(call(np.array(HOST)), want)


def test_split_method():
    parts = np.array(HOST).split(2, axis=2)
    assert len(parts) == 2
    for p, w in zip(parts, onp.split(HOST, 2, axis=2)):
        check(p, w)


def test_copies_and_views():
    a = np.array(HOST)
    assert a.astype("float32", copy=False) is a
    b = a.astype("float32")
    b[0] = 0
    assert a.asnumpy()[0, 0, 0] == 0 and a.asnumpy()[0, 1, 1] == 5
    out = np.zeros((2, 3, 4))
    assert a.copyto(out) is out
    check(out, HOST)
    v = a.reshape(-1)
    v[1] = 50
    assert a.asnumpy()[0, 0, 1] == 50
    f = a.flatten()
    f[2] = -1
    assert a.asnumpy()[0, 0, 2] == 2


def test_host_conversions():
    a = np.array(HOST)
    assert isinstance(a.asnumpy(), onp.ndarray) and a.tolist() == HOST.tolist()
    onp.testing.assert_array_equal(onp.asarray(a), HOST)
    h = onp.from_dlpack(a)
    onp.testing.assert_array_equal(h, HOST)
    assert a.__dlpack_device__()[0] == 1  # kDLCPU
    assert a[1, 2, 3].item() == 23.0 and a[0, 0, 1].asscalar() == onp.float32(1)
    a.wait_to_read()


def test_autograd_methods():
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    x.attach_grad()
    assert type(x.grad) is np.ndarray
    with weft.autograd.record():
        y = x.T.reshape(4)[1:3]
    y.backward()
    check(x.grad, onp.array([[0, 1], [1, 0]], onp.float32))
    d = x.detach()
    assert type(d) is np.ndarray and not d._on_tape


def test_method_errors():
    a = np.array(HOST)
    with pytest.raises(TypeError, match="ndarray.astype: argument dtype"):
        a.astype("complex64")
    with pytest.raises(ValueError, match="ndarray.copyto: argument other has shape"):
        a.copyto(np.zeros((2,)))
    with pytest.raises(TypeError, match="ndarray.as_in_ctx: argument ctx"):
        a.as_in_ctx("cpu")
    with pytest.raises(ValueError, match="reshape: cannot reshape array of size 24"):
        a.reshape(5, 5)
    with pytest.raises(TypeError, match="ndarray.reshape: unknown argument"):
        a.reshape(24, reverse=True)


def test_pickle_and_copy_keep_the_class():
    for a in (np.array(HOST), np.array(2.0), np.zeros((0, 3), dtype="int32")):
        for b in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
            check(b, a.asnumpy())
