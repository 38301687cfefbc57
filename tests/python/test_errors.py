"""Bad input raises the right weft exception class with a message that names the
operator (or file) and the argument, never crashes the interpreter, and leaves
the engine working (docs/DESIGN.md "Bad input")."""
import numpy as np
import pytest

import weft
import weft.nd as nd


@pytest.fixture(autouse=True)
def engine_still_works():
    yield
    # After every error: new work runs and gives the right answer.
    a = nd.array([1.0, 2.0, 3.0])
    b = (a * 2 + 1).asnumpy()
    np.testing.assert_array_equal(b, [3, 5, 7])
    nd.waitall()


def _raises(cls, fn, *words):
    with pytest.raises(cls) as info:
        fn()
        nd.waitall()
    msg = str(info.value)
    for w in words:
        assert w in msg, "%r not in %r" % (w, msg)
    assert isinstance(info.value, weft.WeftError)
    return info.value


def test_error_classes_and_bases():
    assert issubclass(weft.WeftError, Exception)
    for cls, base in [(weft.InvalidArgumentError, ValueError), (weft.ShapeError, ValueError),
                      (weft.DTypeError, TypeError), (weft.OutOfMemoryError, MemoryError),
                      (weft.NotFoundError, LookupError), (weft.EngineError, RuntimeError),
                      (weft.WeftIOError, OSError), (weft.InternalError, RuntimeError),
                      (weft.ArgumentTypeError, TypeError)]:
        assert issubclass(cls, weft.WeftError) and issubclass(cls, base)


def test_check_call_maps_status_codes():
    for rc, cls in [(1, weft.InvalidArgumentError), (2, weft.ShapeError), (3, weft.DTypeError),
                    (4, weft.OutOfMemoryError), (5, weft.NotFoundError), (6, weft.EngineError),
                    (7, weft.WeftIOError), (8, weft.InternalError)]:
        with pytest.raises(cls):
            weft.base.check_call(rc)
    weft.base.check_call(0)


def test_wrong_shape():
    a, b = nd.ones((2, 3)), nd.ones((4, 5))
    _raises(weft.ShapeError, lambda: nd.elemwise_add(a, b), "elemwise_add", "lhs", "rhs")
    _raises(weft.ShapeError, lambda: nd.broadcast_mul(a, b), "broadcast_mul")
    _raises(weft.ShapeError, lambda: a + b, "broadcast_add")
    _raises(weft.ShapeError, lambda: nd.dot(a, a), "dot")


def test_wrong_shape_for_out():
    a = nd.ones((2, 3))
    out = nd.zeros((3, 3))
    _raises(weft.ShapeError, lambda: nd.elemwise_add(a, a, out=out), "elemwise_add")
    np.testing.assert_array_equal(out.asnumpy(), np.zeros((3, 3)))  # not corrupted


def test_wrong_dtype():
    a, i = nd.ones((2, 3)), nd.ones((2, 3), dtype="int32")
    _raises(weft.DTypeError, lambda: nd.elemwise_add(a, i), "elemwise_add", "rhs", "int32")
    _raises(weft.DTypeError, lambda: nd.empty((2,), dtype="complex64"), "complex64")


def test_unknown_attribute_name():
    a = nd.ones((2, 3))
    err = _raises(weft.ArgumentTypeError, lambda: nd.sum(a, foo=1), "sum", "foo")
    assert isinstance(err, TypeError) and isinstance(err, weft.InvalidArgumentError)
    # The core checks names too (a call that bypasses the generated signature).
    _raises(weft.InvalidArgumentError, lambda: weft.nd.ndarray._call("sum", [a], foo=1), "sum", "foo")


def test_bad_attribute_value():
    a = nd.ones((2, 3))
    _raises(weft.InvalidArgumentError, lambda: nd.sum(a, axis="abc"), "sum", "axis", "abc")
    _raises(weft.InvalidArgumentError, lambda: nd.sum(a, axis=5), "sum", "axis")
    _raises(weft.InvalidArgumentError, lambda: nd.clip(a, a_min="x", a_max=1.0), "clip", "a_min")
    _raises(weft.InvalidArgumentError, lambda: nd.Cast(a, dtype="float128"), "Cast", "dtype")


def test_missing_required_attribute():
    i = nd.ones((2, 3), dtype="int32")
    _raises(weft.InvalidArgumentError, lambda: nd.one_hot(i), "one_hot", "depth")


def test_non_ndarray_input():
    a = nd.ones((2, 3))
    err = _raises(weft.ArgumentTypeError, lambda: nd.elemwise_add(a, 3), "elemwise_add", "rhs", "int")
    assert isinstance(err, TypeError)
    _raises(weft.ArgumentTypeError, lambda: nd.elemwise_add(a, np.ones((2, 3))), "elemwise_add", "rhs", "ndarray")
    _raises(weft.ArgumentTypeError, lambda: nd.concat(a, [1, 2], dim=0), "Concat")
    _raises(weft.ArgumentTypeError, lambda: nd.elemwise_add(a, a, out=np.zeros((2, 3))), "elemwise_add", "out")
    with pytest.raises(TypeError):  # NotImplemented from the operator: Python's own TypeError
        a + "x"
    _raises(weft.ArgumentTypeError, lambda: nd.add(a, "x"), "add", "str")


def test_unknown_op():
    _raises(weft.NotFoundError, lambda: weft.base.op_handle("no_such_operator"), "no_such_operator")
    assert isinstance(pytest.raises(weft.NotFoundError, weft.base.op_handle, "nope").value, LookupError)
    with pytest.raises(AttributeError):
        nd.no_such_operator  # noqa: B018


def test_bad_context():
    _raises(weft.InvalidArgumentError, lambda: weft.Context("tpu", 0), "tpu")
    _raises(weft.InvalidArgumentError, lambda: weft.cpu(-1), "-1")
    _raises(weft.InvalidArgumentError, lambda: nd.zeros((2,), ctx=weft.gpu(0)), "gpu(0)")
    _raises(weft.InvalidArgumentError, lambda: nd.ones((2,)).copyto(weft.gpu(0)), "gpu(0)")
    _raises(weft.InvalidArgumentError, lambda: nd.empty((2,), ctx=weft.cpu(100000)), "100000")


def test_corrupt_buffer_and_file(tmp_path):
    _raises(weft.WeftIOError, lambda: nd.load_frombuffer(b"garbage bytes, not an NDArray file......"), "buffer")
    _raises(weft.WeftIOError, lambda: nd.load_frombuffer(b""))
    path = tmp_path / "garbage.params"
    path.write_bytes(np.random.default_rng(0).integers(0, 256, 200, dtype=np.uint8).tobytes())
    _raises(weft.WeftIOError, lambda: nd.load(str(path)), "garbage.params")
    _raises(weft.WeftIOError, lambda: nd.load(str(tmp_path / "missing.params")), "missing.params")
    with pytest.raises(weft.ArgumentTypeError):
        nd.load_frombuffer("text")


def test_truncated_file(tmp_path):
    path = tmp_path / "t.params"
    nd.save(str(path), {"w": nd.ones((4, 4))})
    data = path.read_bytes()
    for n in (10, 40, len(data) - 3):
        path.write_bytes(data[:n])
        _raises(weft.WeftIOError, lambda: nd.load(str(path)), "t.params")


def test_save_bad_arguments(tmp_path):
    with pytest.raises(weft.ArgumentTypeError):
        nd.save(str(tmp_path / "x"), [np.ones(3)])
    with pytest.raises(weft.ArgumentTypeError):
        nd.save(str(tmp_path / "x"), {1: nd.ones(3)})
    _raises(weft.WeftIOError, lambda: nd.save(str(tmp_path / "no_dir" / "x.params"), [nd.ones(2)]), "x.params")


def test_bad_indexing_and_assignment():
    a = nd.ones((2, 3))
    with pytest.raises(IndexError):
        a[5]
    with pytest.raises(IndexError):
        a[0, 0, 0]
    with pytest.raises(IndexError):
        a[:, [7]]
    with pytest.raises(weft.ShapeError):
        a[:] = np.ones((4,))
    with pytest.raises(TypeError):
        a[0] = "text"
    np.testing.assert_array_equal(a.asnumpy(), np.ones((2, 3)))


def test_bad_reshape_and_dtype_names():
    a = nd.ones((2, 3))
    _raises(weft.ShapeError, lambda: a.reshape(4, 2))
    _raises(weft.InvalidArgumentError, lambda: a.reshape(-1, -1))
    _raises(weft.DTypeError, lambda: a.astype("not_a_dtype"))


def test_error_inside_a_running_op_surfaces_at_the_next_wait():
    a = nd.array([1.0, 2.0, 3.0])
    bad = nd.take(a, nd.array([7], dtype="int32"), mode="raise")  # detected by the kernel
    ok = a + 1
    with pytest.raises(weft.WeftError) as info:
        bad.asnumpy()
    assert "take" in str(info.value)
    np.testing.assert_array_equal(ok.asnumpy(), [2, 3, 4])
    nd.waitall()  # asnumpy already reported take's error; waitall does not repeat it
    bad2 = nd.gather_nd(a, nd.array([[9]], dtype="int32"))
    del bad2
    with pytest.raises(weft.WeftError, match="gather_nd"):
        nd.waitall()
    nd.waitall()  # the error was reported once


def test_many_errors_in_a_row_do_not_leak_or_crash():
    a, b = nd.ones((2, 3)), nd.ones((3, 2))
    for _ in range(500):
        with pytest.raises(weft.ShapeError):
            nd.elemwise_add(a, b)
    assert (a + 1).asnumpy().sum() == 12


def test_huge_shape_is_an_error_not_a_wrapped_size():
    _raises(weft.OutOfMemoryError, lambda: nd.zeros((2 ** 62, 4)), "(4611686018427387904, 4)")
    _raises(weft.OutOfMemoryError, lambda: nd.empty((2 ** 40, 2 ** 10)))
