#!/usr/bin/env bash
# The sanitizer checks of issue 22, on the one ASan + UBSan build (Note [One
# sanitizer build] in scripts/build_asan.sh), into BUILD_DIR (default
# build-asan/):
#   1. the C/C++ tests and the fuzz corpora's replay (ctest);
#   2. each fuzz target for WEFT_FUZZ_SECONDS (default 20) from its corpus;
#   3. a core subset of the Python tests (loaders, NDArray, symbol/executor,
#      autograd, predictor, every op's harness case, the hostile-input and
#      round-trip tests, the RecordIO readers, control flow, inference
#      folding) with the ASan runtime preloaded
#      into Python (detect_leaks=0: CPython's own allocations are not ours).
# Every sanitizer report is fatal (-fno-sanitize-recover, halt_on_error).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-asan}
start=$SECONDS
bash scripts/build_asan.sh "$build_dir"
echo "== ASan build took $((SECONDS - start)) s"
t0=$SECONDS
# allocator_may_return_null: tests of huge shapes expect the library's
# OutOfMemoryError, which ASan's allocator would otherwise pre-empt.
ASAN_OPTIONS="allocator_may_return_null=1:detect_stack_use_after_return=1" UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$build_dir" --output-on-failure -j 2
echo "== ASan ctest took $((SECONDS - t0)) s"
t0=$SECONDS
bash scripts/fuzz.sh "$build_dir" "${WEFT_FUZZ_SECONDS:-20}"
echo "== fuzzing took $((SECONDS - t0)) s"
t0=$SECONDS
runtime=$(clang-14 -print-file-name=libclang_rt.asan-x86_64.so)
LD_PRELOAD="$runtime" ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1" UBSAN_OPTIONS=print_stacktrace=1 \
  PYTHONPATH="$PWD/bindings/python" WEFT_LIBRARY_PATH="$PWD/$build_dir/libweft.so" \
  python3 -m pytest -q -p no:cacheprovider \
    tests/python/test_params_format.py tests/python/test_ndarray.py tests/python/test_symbol.py \
    tests/python/test_executor.py tests/python/test_autograd.py tests/python/test_predictor.py \
    tests/python/test_cached_op.py tests/python/test_hostile_input.py tests/python/test_errors.py \
    tests/python/test_nn_more_ops.py tests/python/test_spatial_ops.py \
    tests/python/test_op_harness.py tests/python/test_hostile_roundtrip.py tests/python/test_hostile_attributes.py \
    tests/python/test_io_image_record_native.py tests/python/test_recordio.py \
    tests/python/test_control_flow_symbolic.py tests/python/test_inference_folding.py
echo "== ASan Python subset took $((SECONDS - t0)) s"
