"""weft.test_utils: MXNet's testing helpers, their tolerances and messages."""
import gzip
import importlib.util
import os
import struct

import numpy as np
import pytest

import weft as mx
from weft import test_utils as tu


def test_default_tolerances_per_dtype():
    assert tu.default_dtype() is np.float32
    assert tu.get_tols(np.zeros(2, np.float32), np.zeros(2, np.float32), None, None) == (1e-4, 1e-3)
    assert tu.get_tols(np.zeros(2, np.float64), np.zeros(2, np.float64), None, None) == (1e-5, 1e-20)
    # the looser of the two dtypes wins
    assert tu.get_tols(np.zeros(2, np.float16), np.zeros(2, np.float64), None, None) == (1e-2, 1e-1)
    assert tu.get_tols(np.zeros(2, np.int32), np.zeros(2, np.int32), None, None) == (0, 0)
    # a dict gives tolerances per dtype; a number overrides
    assert tu.get_tols(np.zeros(1, np.float32), np.zeros(1, np.float32), {np.dtype(np.float32): 0.5}, 2) == (0.5, 2)
    # a Python float compares as float64
    assert tu.get_tols(1.0, 1.0, None, None) == (1e-5, 1e-20)


def test_assert_almost_equal_passes_within_tolerance():
    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    tu.assert_almost_equal(a, a + 5e-4)                  # atol 1e-3 for float32
    tu.assert_almost_equal(mx.nd.array(a), a * (1 + 5e-5))  # NDArray against numpy
    tu.assert_almost_equal(np.array([True, False]), np.array([True, False]))
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(a.astype(np.float64), a.astype(np.float64) + 1e-4)  # float64 is tight


def test_assert_almost_equal_message_names_the_worst_element(capsys):
    a = np.zeros((2, 3), dtype=np.float32)
    b = a.copy()
    b[1, 2] = 1.0
    b[0, 0] = 0.01
    with pytest.raises(AssertionError) as err:
        tu.assert_almost_equal(a, b, names=("mine", "ref"))
    msg = str(err.value)
    # |a-b| / (atol + rtol |b|) at (1, 2): 1 / (1e-3 + 1e-4) ~ 909.09
    assert "Error 909.090909 exceeds tolerance rtol=1.000000e-04, atol=1.000000e-03 (mismatch 33.333333%)." in msg
    assert "Location of maximum error: (1, 2), mine=0.00000000, ref=1.00000000" in msg
    printed = capsys.readouterr().out
    assert "*** Maximum errors for vector of size 6:  rtol=0.0001, atol=0.001" in printed
    assert "  1: Error 909.090909  Location of error: (1, 2)" in printed


def test_almost_equal_same_and_exceptions():
    assert tu.almost_equal(np.ones(3), np.ones(3) + 1e-6)  # MXNet's get_rtol default 1e-5
    assert not tu.almost_equal(np.ones(3), np.ones(3) + 1e-3)
    assert tu.same(mx.nd.array([1, 2]), np.array([1, 2], dtype=np.float32))
    assert not tu.same(np.array([1, 2]), np.array([1, 3]))
    tu.assert_exception(lambda: 1 / 0, ZeroDivisionError)
    with pytest.raises(AssertionError):
        tu.assert_exception(lambda: None, ValueError)
    tu.assert_almost_equal_ignore_nan(np.array([np.nan, 1.0]), np.array([5.0, 1.0]))
    tu.assert_almost_equal_with_err(np.array([0.0, 0, 0, 1]), np.zeros(4), etol=0.3)
    with pytest.raises(AssertionError, match="etol"):
        tu.assert_almost_equal_with_err(np.array([0.0, 0, 1, 1]), np.zeros(4), etol=0.3)


def test_random_helpers_shapes_and_dtypes():
    np.random.seed(0)
    assert tu.random_arrays((2, 3)).shape == (2, 3) and tu.random_arrays((2, 3)).dtype == np.float32
    a, b = tu.random_arrays((1,), ())
    assert a.shape == (1,) and b.shape == ()
    for _ in range(20):
        s2, s3, sn = tu.rand_shape_2d(3, 4), tu.rand_shape_3d(2, 2, 2), tu.rand_shape_nd(4, dim=3)
        assert 1 <= s2[0] <= 3 and 1 <= s2[1] <= 4 and all(1 <= d <= 2 for d in s3)
        assert len(sn) == 4 and all(1 <= d <= 3 for d in sn)
    assert 0 in {tu.rand_shape_2d(1, 1, allow_zero_size=True)[0] for _ in range(50)}
    arr = tu.rand_ndarray((3, 2), dtype="float64", ctx=mx.cpu(1))
    assert arr.shape == (3, 2) and arr.dtype == np.float64 and arr.context == mx.cpu(1)
    with pytest.raises(mx.base.MXNetError, match="dense"):
        tu.rand_ndarray((2, 2), stype="csr")
    (u,) = tu.random_uniform_arrays((100,), low=2, high=3)
    assert u.min() >= 2 and u.max() < 3


def test_default_context_follows_set_default_context():
    assert tu.default_context() == mx.current_context()
    with mx.cpu(0):
        tu.set_default_context(mx.cpu(1))
        assert tu.default_context() == mx.cpu(1)
        assert mx.nd.zeros((1,)).context == mx.cpu(1)
    assert tu.default_context() == mx.cpu(0)


def test_check_symbolic_forward_and_backward():
    lhs, rhs = mx.sym.var("lhs"), mx.sym.var("rhs")
    mat1 = np.array([[1, 2], [3, 4]], dtype=np.float32)
    mat2 = np.array([[5, 6], [7, 8]], dtype=np.float32)
    out = tu.check_symbolic_forward(mx.sym.dot(lhs, rhs), [mat1, mat2], [np.array([[19, 22], [43, 50]])])
    assert out[0].shape == (2, 2)
    with pytest.raises(AssertionError, match="EXPECTED_dot"):
        tu.check_symbolic_forward(mx.sym.dot(lhs, rhs), [mat1, mat2], [np.zeros((2, 2))])
    prod = lhs * rhs
    ograd = np.ones((2, 2), dtype=np.float32) * 2
    for req in ("write", "add", "null"):
        expected = [ograd * mat2, ograd * mat1]
        tu.check_symbolic_backward(prod, {"lhs": mat1, "rhs": mat2}, [ograd], expected, grad_req=req)
    with pytest.raises(AssertionError, match="BACKWARD_rhs"):
        tu.check_symbolic_backward(prod, [mat1, mat2], [ograd], [ograd * mat2, ograd * mat2])


def test_check_numeric_gradient_accepts_right_and_rejects_wrong_gradients():
    np.random.seed(1)
    x = mx.sym.var("x")
    loc = [np.random.uniform(0.5, 1.5, size=(3, 4)).astype(np.float64)]
    tu.check_numeric_gradient(mx.sym.tanh(x) * x, loc, dtype=np.float64)
    tu.check_numeric_gradient(mx.sym.FullyConnected(x, num_hidden=2, name="fc"),
                              [loc[0], np.random.randn(2, 4), np.random.randn(2)], dtype=np.float64)
    # BlockGrad's backward is zero, its finite differences are not
    with pytest.raises(AssertionError, match="NUMERICAL_x"):
        tu.check_numeric_gradient(mx.sym.BlockGrad(x) * x, loc, dtype=np.float64)
    with pytest.raises(ValueError, match="do not match"):
        tu.check_numeric_gradient(mx.sym.tanh(x), {"y": loc[0]})


def test_check_consistency_across_devices_and_dtypes():
    np.random.seed(2)
    sym = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
    ctx_list = [{"ctx": mx.cpu(0), "data": (2, 4), "type_dict": {"data": np.float64}},
                {"ctx": mx.cpu(1), "data": (2, 4), "type_dict": {"data": np.float32}}]
    gt = tu.check_consistency(sym, ctx_list)
    assert gt["fc_output"].dtype == np.float64 and "fc_weight" in gt
    wrong = np.zeros((2, 3))
    with pytest.raises(AssertionError):
        tu.check_consistency(sym, ctx_list, ground_truth={"fc_output": wrong}, grad_req="null")


def test_environment_sets_and_restores():
    os.environ.pop("WEFT_TEST_UTILS_A", None)
    os.environ["WEFT_TEST_UTILS_B"] = "keep"
    with tu.environment({"WEFT_TEST_UTILS_A": "1", "WEFT_TEST_UTILS_B": None}):
        assert os.environ["WEFT_TEST_UTILS_A"] == "1" and "WEFT_TEST_UTILS_B" not in os.environ
    assert "WEFT_TEST_UTILS_A" not in os.environ and os.environ["WEFT_TEST_UTILS_B"] == "keep"
    with tu.environment("WEFT_TEST_UTILS_B", "x"):
        assert os.environ["WEFT_TEST_UTILS_B"] == "x"
    assert os.environ.pop("WEFT_TEST_UTILS_B") == "keep"


def test_discard_stderr_silences_file_descriptor_2(tmp_path):
    # fd 2 itself is redirected (C++ writes there): check with a file standing in for stderr
    target = open(tmp_path / "err.txt", "w+", encoding="utf-8")  # pylint: disable=consider-using-with
    saved_fd = os.dup(2)
    try:
        os.dup2(target.fileno(), 2)
        os.write(2, b"before\n")
        with tu.discard_stderr():
            os.write(2, b"hidden\n")
        os.write(2, b"after\n")
    finally:
        os.dup2(saved_fd, 2)
        os.close(saved_fd)
    target.seek(0)
    assert target.read() == "before\nafter\n"
    target.close()


def _write_idx(path, arr, compress):
    header = struct.pack(">HBB", 0, 8, arr.ndim) + struct.pack(">" + "I" * arr.ndim, *arr.shape)
    data = header + arr.astype(np.uint8).tobytes()
    if compress:
        with gzip.open(str(path) + ".gz", "wb") as f:
            f.write(data)
    else:
        with open(path, "wb") as f:
            f.write(data)


def test_get_mnist_reads_local_files(tmp_path):
    rng = np.random.RandomState(0)
    images = {"train": rng.randint(0, 256, size=(5, 28, 28)), "t10k": rng.randint(0, 256, size=(3, 28, 28))}
    labels = {"train": rng.randint(0, 10, size=5), "t10k": rng.randint(0, 10, size=3)}
    for part in ("train", "t10k"):
        _write_idx(tmp_path / ("%s-images-idx3-ubyte" % part), images[part], compress=True)
        _write_idx(tmp_path / ("%s-labels-idx1-ubyte" % part), labels[part], compress=part == "train")
    data = tu.get_mnist(str(tmp_path))
    assert data["train_data"].shape == (5, 1, 28, 28) and data["train_data"].dtype == np.float32
    np.testing.assert_allclose(data["test_data"][:, 0], images["t10k"] / 255.0, rtol=1e-6)
    np.testing.assert_array_equal(data["train_label"], labels["train"])
    assert data["test_label"].dtype == np.int8
    tu.get_mnist_ubyte(str(tmp_path))
    assert os.path.exists(tmp_path / "train-images-idx3-ubyte")
    train, val = tu.get_mnist_iterator(2, (784,), path=str(tmp_path))
    first = next(iter(train))
    assert first.data[0].shape == (2, 784) and next(iter(val)).data[0].shape == (2, 784)
    dummy = tu.DummyIter(train)
    assert next(dummy) is next(dummy) and dummy.provide_data == train.provide_data
    with pytest.raises(mx.base.MXNetError, match="downloads nothing"):
        tu.get_mnist(str(tmp_path / "missing"))
    (tmp_path / "bad").mkdir()
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                 "t10k-labels-idx1-ubyte"):
        (tmp_path / "bad" / name).write_bytes(b"\x01\x02\x08\x03" + b"\x00" * 12)
    with pytest.raises(mx.base.MXNetError, match="not an idx file"):
        tu.get_mnist(str(tmp_path / "bad"))


def test_statistics_helpers_and_same_array():
    np.random.seed(3)
    assert tu.mean_check(lambda n: np.random.normal(0, 1.0, size=n), 0, 1.0, nsamples=100000)
    assert not tu.mean_check(lambda n: np.random.normal(0.5, 1.0, size=n), 0, 1.0, nsamples=100000)
    assert tu.var_check(lambda n: np.random.normal(0, 2.0, size=n), 2.0, nsamples=100000)
    buckets, probs = tu.gen_buckets_probs_with_ppf(lambda p: p * 10, 4)
    assert buckets[1] == (2.5, 5.0) and probs == [0.25] * 4
    a = mx.nd.ones((3,))
    assert tu.same_array(a, a[:]) and not tu.same_array(a, a.copy())
    assert list(tu.list_gpus()) == list(range(mx.context.num_gpus()))
    np.testing.assert_array_equal(tu.np_reduce(np.arange(6).reshape(2, 3), [0, 1], True, np.sum), [[15]])


@pytest.mark.skipif(importlib.util.find_spec("scipy") is None,
                    reason="chi_square_check needs scipy (installed in CI with scikit-learn)")
def test_optimizer_and_generator_checks():
    mx.random.seed(0)
    np.random.seed(0)
    sgd = lambda: mx.optimizer.SGD(learning_rate=0.1, momentum=0.9)  # noqa: E731
    tu.compare_optimizer(sgd(), sgd(), (3, 4), np.float32)
    tu.compare_optimizer(sgd(), sgd(), [(2,), (3, 2)], np.float32, ntensors=2)
    with pytest.raises(AssertionError):
        tu.compare_optimizer(sgd(), mx.optimizer.SGD(learning_rate=0.2, momentum=0.9), (3, 4), np.float32)
    uniform = lambda n: np.random.uniform(size=n)  # noqa: E731
    buckets, probs = tu.gen_buckets_probs_with_ppf(lambda p: p, 5)
    p, obs, expected = tu.chi_square_check(uniform, buckets, probs, nsamples=20000)
    assert obs.sum() == 20000 and list(expected) == [4000] * 5 and 0 <= p <= 1
    tu.verify_generator(uniform, buckets, probs, nsamples=20000)
    with pytest.raises(AssertionError, match="Generator test fails"):
        tu.verify_generator(lambda n: np.random.uniform(size=n) ** 2, buckets, probs, nsamples=20000)
    p, obs, _ = tu.chi_square_check(lambda n: np.random.randint(0, 2, size=n), [0, 1], [0.5, 0.5], nsamples=1000)
    assert obs.sum() == 1000


def test_small_helpers():
    x = mx.sym.var("x")
    np.testing.assert_array_equal(tu.simple_forward(x * 2 + 1, x=np.array([1.0, 2.0])), [3, 5])
    assert tu.same_symbol_structure(mx.sym.relu(x), mx.sym.relu(mx.sym.var("y")))
    assert not tu.same_symbol_structure(mx.sym.relu(x), mx.sym.sigmoid(x))
    np.testing.assert_array_equal(tu.assign_each(np.array([1.0, 4.0]), np.sqrt), [1, 2])
    np.testing.assert_array_equal(tu.assign_each2(np.array([1, 2]), np.array([3, 4]), lambda a, b: a * b), [3, 8])
    assert tu.almost_equal_ignore_nan(np.array([np.nan, 1.0]), np.array([0.0, 1.0]))
    np.testing.assert_array_equal(tu.create_2d_tensor(3, 2).asnumpy(), [[0, 0], [1, 1], [2, 2]])
    np.testing.assert_array_equal(tu.create_vector(4).asnumpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(tu.collapse_sum_like(np.ones((2, 3, 4)), (3, 1)), np.full((3, 1), 8.0))
    calls = []

    @tu.retry(3)
    def flaky():
        calls.append(1)
        assert len(calls) >= 2

    flaky()
    assert len(calls) == 2
    os.environ.pop("WEFT_TU_VAR", None)
    assert tu.set_env_var("WEFT_TU_VAR", "1", default_val="unset") == "unset"
    assert os.environ.pop("WEFT_TU_VAR") == "1"
    tu.compare_ndarray_tuple((mx.nd.ones((2,)), None), (np.ones(2), mx.nd.zeros((2,))))


def test_local_archives_and_download_without_network(tmp_path):
    import bz2  # pylint: disable=import-outside-toplevel
    import zipfile  # pylint: disable=import-outside-toplevel
    url = "https://example.invalid/data/kdda.t.bz2"
    with pytest.raises(mx.base.MXNetError, match="downloads nothing.*kdda.t.bz2"):
        tu.download(url, dirname=str(tmp_path))
    (tmp_path / "kdda.t.bz2").write_bytes(bz2.compress(b"1 1:0.5\n"))
    assert tu.download(url, dirname=str(tmp_path)) == str(tmp_path / "kdda.t.bz2")
    tu.get_bz2_data(str(tmp_path), "kdda.t", url, "kdda.t.bz2")
    assert (tmp_path / "kdda.t").read_bytes() == b"1 1:0.5\n" and not (tmp_path / "kdda.t.bz2").exists()
    with zipfile.ZipFile(tmp_path / "d.zip", "w") as zf:
        zf.writestr("inner/a.txt", "hello")
    tu.get_zip_data(str(tmp_path), "https://example.invalid/d.zip", "d.zip")
    assert (tmp_path / "inner" / "a.txt").read_text() == "hello"
    os.environ.pop("WEFT_TU_ENV", None)
    with tu.EnvManager("WEFT_TU_ENV", "on"):
        assert os.environ["WEFT_TU_ENV"] == "on"
    assert "WEFT_TU_ENV" not in os.environ
    assert tu.has_tvm_ops() is False and tu.is_op_runnable() is True
    with tu.environment("CD_JOB", "1"):
        assert tu.is_cd_run()
