"""weft.runtime.blas_info(): which CPU BLAS the library runs (Note [Which BLAS]), checked against
the library the loaded libweft.so really resolves its GEMM from, and the GEMM/LAPACK paths of that
BLAS checked against NumPy on the MLP's shapes (forward and both backward products)."""
import ctypes
import os

import numpy as np
import pytest

import weft as mx
from weft import base, runtime


def test_blas_info_names_the_linked_library_and_its_kernel():
    info = runtime.blas_info()
    assert info["name"] == "OpenBLAS"
    assert info["config"].startswith("OpenBLAS " + info["version"]) and info["version"][:2] == "0."
    assert info["kernel"] and info["kernel"].lower() != "unknown"
    assert info["threads"] >= 1
    assert info["threading"] in ("openmp-callback", "openmp", "pthreads")
    # the path is the one the dynamic linker resolved cblas_sgemm from: it is open in this process
    assert os.path.isfile(info["library"])
    with open("/proc/self/maps", encoding="utf-8") as f:
        assert os.path.realpath(info["library"]) in {os.path.realpath(l.split()[-1]) for l in f if "/" in l}
    # and the ELF needs that library (the wheel's libscipy_openblas or the system libopenblas)
    soname = os.path.basename(info["library"])
    assert any(soname.startswith(n) or n.startswith(soname.split(".so")[0]) for n in runtime._elf_needed(base.LIB_PATH))
    assert runtime.Features().is_enabled("BLAS_OPEN")


def test_the_wheel_reports_its_own_corename():
    info = runtime.blas_info()
    if "scipy_openblas" not in os.path.basename(info["library"]):
        # The package requires the wheel (pyproject.toml), so where it is installed the
        # library must have linked it; only a build without it may use the system OpenBLAS.
        try:
            import scipy_openblas32  # noqa: F401
        except ImportError:
            pytest.skip("this build links the system OpenBLAS (the scipy-openblas32 wheel is not installed)")
        if os.environ.get("WEFT_SYSTEM_BLAS_EXPECTED") != "1":
            pytest.fail("scipy-openblas32 is installed but libweft.so (%s) links %s"
                        % (base.LIB_PATH, info["library"]))
        pytest.skip("built with -DWEFT_SYSTEM_BLAS=ON (WEFT_SYSTEM_BLAS_EXPECTED=1)")
    lib = ctypes.CDLL(info["library"])
    lib.scipy_openblas_get_corename.restype = ctypes.c_char_p
    assert lib.scipy_openblas_get_corename().decode() == info["kernel"]
    # on the OpenMP team (Note [BLAS threads]) whenever the library has oneDNN's OpenMP
    if runtime.Features().is_enabled("OPENMP"):
        assert info["threading"] == "openmp-callback"


@pytest.mark.parametrize("m,n,k,ta,tb", [
    (128, 512, 784, False, True),   # forward x . W^T
    (128, 784, 512, False, False),  # data gradient dy . W
    (512, 784, 128, True, False),   # weight gradient dy^T . x
    (3, 5, 1, False, False),
])
def test_dot_matches_numpy_on_the_mlp_shapes(m, n, k, ta, tb):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
    got = mx.nd.dot(mx.nd.array(a), mx.nd.array(b), transpose_a=ta, transpose_b=tb).asnumpy()
    want = (a.T if ta else a).astype(np.float64) @ (b.T if tb else b).astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


def test_lapack_through_the_prefixed_symbols():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((6, 6))
    spd = x @ x.T + 6 * np.eye(6)
    for dtype in (np.float32, np.float64):
        a = mx.nd.array(spd.astype(dtype), dtype=dtype)
        l = mx.nd.linalg.potrf(a).asnumpy()
        np.testing.assert_allclose(l, np.linalg.cholesky(spd), rtol=1e-4, atol=1e-4)
        inv = mx.nd.linalg.inverse(a).asnumpy()
        np.testing.assert_allclose(inv, np.linalg.inv(spd), rtol=1e-3, atol=1e-4)
