"""The rest of mx.test_utils: sparse builders refuse (dense only), matrix generators, hybridize check."""
import numpy as np
import pytest

import weft as mx
from weft import gluon, test_utils as tu
from weft.base import InvalidArgumentError


@pytest.mark.parametrize("stype", ["csr", "row_sparse"])
def test_sparse_storage_types_are_refused_saying_weft_is_dense(stype):
    for call in (lambda: tu.rand_ndarray((3, 4), stype=stype), lambda: tu.rand_sparse_ndarray((3, 4), stype),
                 lambda: tu.create_sparse_array((3, 4), stype), lambda: tu.create_sparse_array_zd((3, 4), stype, 0.5)):
        with pytest.raises(InvalidArgumentError, match="dense.*%s" % stype):
            call()
    with pytest.raises(InvalidArgumentError, match="dense"):
        tu.shuffle_csr_column_indices(None)


def test_default_stype_is_a_dense_random_array():
    a = tu.rand_ndarray((3, 4), stype="default")
    assert a.shape == (3, 4) and a.dtype == np.float32


def test_matrix_generators():
    np.random.seed(0)
    q = tu.new_orthonormal_matrix_2d(5)
    np.testing.assert_allclose(q.T @ q, np.eye(5), atol=1e-10)
    m = tu.new_matrix_with_real_eigvals_nd((2, 3, 4, 4))
    assert m.shape == (2, 3, 4, 4)
    assert np.all(np.abs(np.linalg.eigvals(m).imag) < 1e-8)
    s = tu.new_sym_matrix_with_real_eigvals_nd((3, 4, 4))
    np.testing.assert_allclose(s, np.swapaxes(s, -1, -2), atol=1e-10)
    np.testing.assert_array_equal(tu.get_identity_mat(3).asnumpy(), np.eye(3))
    assert tu.get_identity_mat_batch(3).shape == (2, 3, 3)
    assert isinstance(tu.is_aarch64_run(), bool)


def test_check_gluon_hybridize_consistency_passes_and_catches_a_wrong_reference():
    def build(prefix):
        net = gluon.nn.HybridSequential(prefix=prefix)
        with net.name_scope():
            net.add(gluon.nn.Dense(3, in_units=4))
        return net

    data = [mx.nd.array(np.random.RandomState(0).rand(2, 4))]
    tu.check_gluon_hybridize_consistency(build, data)
    with pytest.raises(AssertionError):
        tu.check_gluon_hybridize_consistency(build, data, numpy_func=lambda x: np.zeros((2, 3)) + 100)


def test_download_model_and_paths_without_a_network(tmp_path):
    assert tu.download_model("no-such-model", str(tmp_path)) == (None, 0)
    with pytest.raises(mx.base.MXNetError, match="resnet-18-symbol.json"):
        tu.download_model("imagenet1k-resnet-18", str(tmp_path))
    assert tu.get_im2rec_path().endswith("im2rec.py")


def test_every_public_mxnet_test_utils_name_exists():
    # MXNet 1.9.1's own public functions (dir(mxnet.test_utils)); get_mnist_pkl is left out on
    # purpose: it unpickles a downloaded file, and weft's loaders never run code from files.
    names = """DummyIter almost_equal assert_allclose assert_almost_equal assert_almost_equal_ignore_nan
    assert_almost_equal_with_err assert_exception assign_each assign_each2 checkShapes check_consistency
    check_gluon_hybridize_consistency check_numeric_gradient check_speed check_symbolic_backward
    check_symbolic_forward chi_square_check collapse_sum_like compare_ndarray_tuple compare_optimizer
    create_2d_tensor create_sparse_array create_sparse_array_zd create_vector default_atols default_context
    default_dtype default_numeric_eps default_rtols discard_stderr download download_model effective_dtype
    environment gen_buckets_probs_with_ppf get_atol get_bz2_data get_cifar10 get_etol get_identity_mat
    get_identity_mat_batch get_im2rec_path get_mnist get_mnist_iterator get_mnist_ubyte get_rtol
    get_tolerance get_tols get_zip_data has_tvm_ops is_aarch64_run is_cd_run is_op_runnable list_gpus
    locationError mean_check new_matrix_with_real_eigvals_2d new_matrix_with_real_eigvals_nd
    new_orthonormal_matrix_2d new_sym_matrix_with_real_eigvals_2d new_sym_matrix_with_real_eigvals_nd
    np_reduce numeric_grad rand_coord_2d rand_ndarray rand_shape_2d rand_shape_3d rand_shape_nd
    rand_sparse_ndarray random_arrays random_sample random_uniform_arrays retry same same_array
    same_symbol_structure set_default_context shuffle_csr_column_indices simple_forward var_check
    verify_generator""".split()
    missing = [n for n in names if not hasattr(tu, n)]
    assert not missing, missing
