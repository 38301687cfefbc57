"""MXNet 1.x's smaller surface: mx.base.MXNetError, mx.runtime.Features, mx.engine.bulk,
mx.util helpers, mx.random.seed(ctx=...)."""
import os
import shutil
import subprocess

import numpy as np
import pytest

import weft as mx
from weft import base, runtime


def test_every_weft_error_is_an_mxnet_error():
    assert mx.base.MXNetError is mx.WeftError is mx.MXNetError
    for cls in list(base._STATUS_ERRORS.values()) + [base.ArgumentTypeError]:  # pylint: disable=protected-access
        assert issubclass(cls, mx.base.MXNetError), cls
    try:  # the classic MXNet except clause catches a real failure from the C ABI
        mx.nd.dot(mx.nd.ones((2, 3)), mx.nd.ones((2, 3))).wait_to_read()
    except mx.base.MXNetError as err:
        assert "dot" in str(err) or "shape" in str(err).lower()
    else:
        pytest.fail("dot of (2,3) and (2,3) did not raise")


def test_features_api():
    features = runtime.Features()
    assert runtime.Features() is features  # made once, as MXNet's
    assert [f.name for f in runtime.feature_list()] == list(features.keys())
    assert features.is_enabled("cuda") == (mx.context.gpu_backend() == "cuda")
    assert features.is_enabled("INT64_TENSOR_SIZE")
    with pytest.raises(RuntimeError, match="Feature 'NO_SUCH' is unknown, known features are"):
        features.is_enabled("no_such")
    assert repr(runtime.Feature("X", True)) == "\u2714 X" and repr(runtime.Feature("Y", False)) == "\u2716 Y"
    assert repr(features).startswith("[") and "BLAS_OPEN" in repr(features)


@pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf (binutils, installed by scripts/setup.sh) "
                                                            "is the independent reference")
def test_linked_features_match_readelf():
    out = subprocess.run(["readelf", "-d", base.LIB_PATH], check=True, capture_output=True, text=True).stdout
    needed = [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]
    assert runtime._elf_needed(base.LIB_PATH) == needed  # pylint: disable=protected-access
    features = runtime.Features()
    assert features.is_enabled("BLAS_OPEN") == any(n.startswith(("libopenblas", "libscipy_openblas")) for n in needed)
    assert features.is_enabled("MKLDNN") == any(n.startswith("libdnnl") for n in needed)
    assert features.is_enabled("DIST_KVSTORE") == any(n.startswith("libzmq") for n in needed)
    assert features.is_enabled("OPENMP") == any(n.startswith(("libgomp", "libomp")) for n in needed)


@pytest.mark.skipif(shutil.which("nm") is None, reason="nm (binutils, installed by scripts/setup.sh) "
                                                      "is the independent reference")
def test_sanitizer_features_match_the_dynamic_symbols():
    # The ASan build of scripts/build_asan.sh links no sanitizer runtime, so only its imported
    # symbols tell (Note [Where the features come from]); under that build this test sees True.
    out = subprocess.run(["nm", "-D", base.LIB_PATH], check=True, capture_output=True, text=True).stdout
    names = {line.split()[-1] for line in out.splitlines() if line.strip()}
    needed = runtime._elf_needed(base.LIB_PATH)  # pylint: disable=protected-access
    features = runtime.Features()
    assert features.is_enabled("ASAN") == ("__asan_init" in names or any(n.startswith("libasan") for n in needed))
    assert features.is_enabled("TSAN") == ("__tsan_init" in names or any(n.startswith("libtsan") for n in needed))
    assert features.is_enabled("UBSAN") == (any(n.startswith("__ubsan_handle_") for n in names)
                                            or any(n.startswith("libubsan") for n in needed))


CLANG = shutil.which("clang-14") or shutil.which("clang")


@pytest.mark.skipif(CLANG is None, reason="clang (clang-14, installed by scripts/setup.sh) builds the "
                                          "sanitized libraries this test reads")
@pytest.mark.parametrize("flags,want", [
    ([], set()),
    (["-fsanitize=address,undefined"], {"ASAN", "UBSAN"}),
    (["-fsanitize=thread"], {"TSAN"}),
])
def test_sanitizers_found_in_a_library_without_their_runtime(tmp_path, flags, want):
    # clang links no sanitizer runtime into a shared library, as in the ASan build of libweft.so:
    # a DT_NEEDED reading alone called that build unsanitized.
    src = tmp_path / "f.c"
    src.write_text("int f(int *p, int s) { return p[1] << s; }\n")
    lib = tmp_path / "libf.so"
    subprocess.run([CLANG, "-shared", "-fPIC", "-O1"] + flags + ["-o", str(lib), str(src)], check=True,
                   capture_output=True)
    found = runtime._linked_features(str(lib))  # pylint: disable=protected-access
    assert {k for k in ("ASAN", "TSAN", "UBSAN", "LSAN") if found[k]} == want, found


def test_elf_reader_rejects_other_files(tmp_path):
    (tmp_path / "x.so").write_bytes(b"not an elf")
    with pytest.raises(mx.base.MXNetError, match="not an ELF"):
        runtime._elf_needed(str(tmp_path / "x.so"))  # pylint: disable=protected-access


def test_engine_bulk_scopes_and_restores():
    first = mx.engine.set_bulk_size(4)
    assert mx.engine.set_bulk_size(first) == 4
    with mx.engine.bulk(10):
        assert mx.engine.set_bulk_size(10) == 10
        x = mx.nd.ones((3,))
        for _ in range(5):
            x = x * 2
        np.testing.assert_array_equal(x.asnumpy(), [32, 32, 32])  # results do not depend on bulking
    assert mx.engine.set_bulk_size(first) == first
    with pytest.raises(mx.base.MXNetError, match="size"):
        mx.engine.set_bulk_size(-1)


def test_util_helpers(tmp_path):
    d = tmp_path / "a" / "b"
    mx.util.makedirs(str(d))
    mx.util.makedirs(str(d))  # exists: no error
    assert d.is_dir()
    assert mx.util.is_np_array() is False and mx.util.is_np_shape() is False  # off until set_np()
    mx.npx.set_np()
    try:
        assert mx.util.is_np_array() is True and mx.util.is_np_shape() is True
    finally:
        mx.npx.reset_np()
    assert mx.util.get_gpu_count() == mx.context.num_gpus()
    mx.util.setenv("WEFT_UTIL_TEST", "3")
    assert mx.util.getenv("WEFT_UTIL_TEST") == "3" == os.environ["WEFT_UTIL_TEST"]
    mx.util.setenv("WEFT_UTIL_TEST", None)
    assert mx.util.getenv("WEFT_UTIL_TEST") is None


def test_random_seed_accepts_ctx():
    mx.random.seed(7, ctx=mx.cpu(0))
    a = mx.nd.random.uniform(shape=(4,)).asnumpy()
    mx.random.seed(7, ctx="all")
    b = mx.nd.random.uniform(shape=(4,)).asnumpy()
    np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match="ctx"):
        mx.random.seed(7, ctx="gpu")
