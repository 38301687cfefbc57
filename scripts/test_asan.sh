#!/usr/bin/env bash
# The sanitizer checks of issue 22, on the one ASan + UBSan build (Note [One
# sanitizer build] in scripts/build_asan.sh), into BUILD_DIR (default
# build-asan/):
#   1. the C/C++ tests and the fuzz corpora's replay (ctest);
#   2. each fuzz target for WEFT_FUZZ_SECONDS (default 20) from its corpus;
#   3. the Python tests' full sanitizer list with the ASan runtime preloaded
#      into Python (scripts/test_asan_python.sh, which holds the lists; CI runs
#      its smaller core list).
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
bash scripts/test_asan_python.sh "$build_dir"
echo "== ASan Python subset took $((SECONDS - t0)) s"
