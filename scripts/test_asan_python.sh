#!/usr/bin/env bash
# Python tests against the ASan + UBSan libweft.so of BUILD_DIR (argument 1,
# default build-asan/; scripts/build_asan.sh builds it), with the ASan runtime
# preloaded into Python (Note [One sanitizer build] in scripts/build_asan.sh).
# Extra arguments go to pytest. WEFT_ASAN_SUBSET picks the list (both live only
# here):
#   all  (default; scripts/test_asan.sh, step 3): loaders, NDArray,
#        symbol/executor, autograd, predictor, every op's harness case, the
#        hostile-input and round-trip tests, the RecordIO readers, control flow,
#        inference folding, the float-to-int edge cases, and every op on
#        degenerate input (UBSan-clean: 11,399 variants, 0 reports);
#   core (CI's sanitizer step, scripts/test.sh): Note [ASan core subset];
#   everything: every tests/python/test_*.py (issue 35 point 6b; run it in
#        chunks with scripts/test_asan_python_chunks.sh, Note [Whole suite
#        under ASan] there);
#   files: the files named in WEFT_ASAN_FILES (space-separated), so a chunk or
#        a repeat of some files runs without editing this script.
# Every sanitizer report fails the run (Note [Sanitizer reports fail the run]).
# WEFT_ASAN_REPORT_DIR, when set, is where the sanitizer logs go and stay
# (default: a temporary folder removed at exit), so that a run in the
# background leaves its reports to read afterwards.
#
# Note [ASan core subset]
# ~~~~~~~~~~~~~~~~~~~~~~~
# CI's minutes are a budget, and under ASan every file pays about 6 s of
# `import weft` (an instrumented 85 MB library) and runs 2-3 times slower, so
# CI runs one pytest process over the files where library memory is handled
# from Python: NDArray creation, views, copies and save/load (test_ndarray),
# the engine's error paths (test_errors), autograd, symbol composition and
# the executor's bind/forward/backward (test_symbol, test_executor), Gluon's
# blocks, layers and trainer, its DataLoader with worker processes
# (test_gluon_data), the C++ and Python ImageRecordIter pipelines, ImageIter
# and RecordIO (test_io_image_record_native/_iter, test_image, test_recordio:
# the decode pool writes samples into batch arrays from its own threads),
# .params files written by MXNet 1.9.1 (test_params_format), and fork() after
# operators ran (test_engine_fork; under the clang build's libomp such a fork
# hung, and with it every DataLoader with workers: Note [Fork handler order]).
# About 2 min on the shared 2-core machine at load ~13; the op-by-op passes
# stay in the full list.
#
# Added after the whole suite ran clean under ASan (issue 35 point 6b, runs in
# docs/ASAN_PYTHON_RUNS.md), for the engine-worker and C-memory paths the list
# above missed: Python custom operators, whose callbacks run on engine workers
# over op buffers wrapped as NDArrays (test_custom_op, 68 s of tests under the
# full ASan build at load ~20 here), DLPack's borrowed and lent memory and its
# owners' lifetimes (test_dlpack, 4 s), CachedOp's inline runs (test_cached_op,
# 3 s), second-order autograd's taped graphs (test_autograd_second_order,
# 17 s), the fused RNN kernels' parameter packing (test_gluon_rnn, 6 s), the
# local KVStore's merge buffers (test_kvstore_local) and the Python data
# iterators (test_io_iters), and test_np_linalg (5 s), whose empty-batch
# cholesky and eigh passed NULL to memcpy (UBSan, fixed in factor.cc). Together about 100 s of test time at load ~20,
# where the core list takes about 100 s at load ~13 and 18 s on an idle CI
# machine: a fraction of a minute added to CI (whole CI about 33 of its ~40
# minutes). Left out for time: test_clean_exit (24 fresh interpreters per
# test, 381 s with the runtime preloaded), test_deep_graph (300,000-node
# chains: 686 s of tests on the ASan build, its watchdogs scaled for it by Note
# [Watchdogs under ASan]), the ONNX
# exports (the zoo exports alone take over 800 s), and the op-by-op passes.
#
# Added with the Open MPI suppression (issue 35; scripts/asan_openmpi.supp):
# test_kvstore_allreduce, the allreduce KVStore under a real mpirun whose ranks
# load the ASan library and its MPI plugin (9 passed, 0 reports, 310 s of tests
# at load ~18 here; each test starts 2-4 ranks, each paying ASan's `import
# weft`: about a minute on CI's idle 2 cores by the ratio above), and
# test_runtime_surface (8 s), whose ASAN feature check sees the True side only
# under this build (runtime.Features reads the library's imported
# __asan_init; tests' watchdogs rely on it, Note [Watchdogs under ASan]).
#
# Added for issue 35 point 6b: test_env_writes_during_kernels, one child that
# runs kernels on engine workers (OpenMP teams, a GEMM, a oneDNN convolution)
# while its main thread rewrites a variable 40,000 times, as pytest rewrites
# PYTEST_CURRENT_TEST (Note [OpenMP reads the environment once] in
# core/engine/fork_handlers.cc). One child's `import weft` and a second of
# kernels: the whole pytest run used 5.7 s of CPU with the ASan runtime over
# the release library (the test 31 s of wall time at load ~15 here); the ASan
# build was not at hand to time: at its 2-3x, an estimated 10-15 s on CI.
#
# Note [Sanitizer reports fail the run]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The library is built with -fno-sanitize-recover and ASan halts on its first
# error, so a report in the pytest process kills it. A test that runs a child
# Python (the child inherits LD_PRELOAD) may expect it to fail, though, and a
# report there would pass unseen; so every report goes to a file (log_path;
# ASan and UBSan share one, the runtimes share their flags), and a report in
# any file fails the run after pytest, with its text printed. detect_leaks=0: CPython never frees much of what it allocates
# (interned strings, static types, module state) by design, so LeakSanitizer
# would report CPython, not us; the C/C++ tests and the fuzzers keep leak
# detection on.
#
# Note [Symbolizer without the preload]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# To print a report's stack, the ASan runtime starts llvm-symbolizer, which
# inherits LD_PRELOAD and so runs under the ASan runtime too; under clang-14
# such a symbolizer hangs (a futex wait, seen here) and outlives its reporting
# process while holding that process's stderr. A test whose child reports then
# waits for the child's output forever (subprocess.run with capture_output):
# a hang instead of a failure, and an orphaned symbolizer. So the runtime is
# pointed at a wrapper that drops LD_PRELOAD before running the symbolizer.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-asan}
shift $(( $# > 0 ? 1 : 0 ))
case "$build_dir" in /*) lib="$build_dir/libweft.so" ;; *) lib="$PWD/$build_dir/libweft.so" ;; esac
[ -f "$lib" ] || { echo "test_asan_python.sh: $lib not built (scripts/build_asan.sh)" >&2; exit 1; }
runtime=$(clang-14 -print-file-name=libclang_rt.asan-x86_64.so)
case "${WEFT_ASAN_SUBSET:-all}" in
  core)
    files=(tests/python/test_ndarray.py tests/python/test_errors.py tests/python/test_autograd.py
           tests/python/test_symbol.py tests/python/test_executor.py tests/python/test_gluon_block.py
           tests/python/test_gluon_nn.py tests/python/test_gluon_trainer.py tests/python/test_gluon_data.py
           tests/python/test_io_image_record_native.py tests/python/test_io_image_record_iter.py
           tests/python/test_image.py tests/python/test_recordio.py tests/python/test_params_format.py
           tests/python/test_engine_fork.py tests/python/test_custom_op.py tests/python/test_dlpack.py
           tests/python/test_cached_op.py tests/python/test_autograd_second_order.py
           tests/python/test_gluon_rnn.py tests/python/test_kvstore_local.py tests/python/test_io_iters.py
           tests/python/test_np_linalg.py tests/python/test_runtime_surface.py
           tests/python/test_kvstore_allreduce.py tests/python/test_env_writes_during_kernels.py) ;;
  all)
    files=(tests/python/test_params_format.py tests/python/test_ndarray.py tests/python/test_symbol.py
           tests/python/test_executor.py tests/python/test_autograd.py tests/python/test_predictor.py
           tests/python/test_cached_op.py tests/python/test_hostile_input.py tests/python/test_errors.py
           tests/python/test_nn_more_ops.py tests/python/test_spatial_ops.py
           tests/python/test_op_harness.py tests/python/test_hostile_roundtrip.py tests/python/test_hostile_attributes.py
           tests/python/test_io_image_record_native.py tests/python/test_recordio.py
           tests/python/test_control_flow_symbolic.py tests/python/test_inference_folding.py
           tests/python/test_nul_names.py tests/python/test_float_to_int_edges.py tests/python/test_op_degenerate.py
           tests/python/test_engine_fork.py) ;;
  everything)
    files=(tests/python/test_*.py) ;;
  files)
    read -r -a files <<< "${WEFT_ASAN_FILES:-}"
    [ "${#files[@]}" -gt 0 ] || { echo "test_asan_python.sh: WEFT_ASAN_SUBSET=files needs WEFT_ASAN_FILES" >&2; exit 2; } ;;
  *) echo "test_asan_python.sh: WEFT_ASAN_SUBSET is core, all, everything or files, not '$WEFT_ASAN_SUBSET'" >&2; exit 2 ;;
esac
if [ -n "${WEFT_ASAN_REPORT_DIR:-}" ]; then
  reports=$WEFT_ASAN_REPORT_DIR
  mkdir -p "$reports"
else
  reports=$(mktemp -d)
  trap 'rm -rf "$reports"' EXIT
fi
symbolizer=$(command -v llvm-symbolizer-14 || command -v llvm-symbolizer)
[ -n "$symbolizer" ] || { echo "test_asan_python.sh: no llvm-symbolizer (scripts/setup.sh installs clang-14)" >&2; exit 1; }
printf '#!/bin/sh\nunset LD_PRELOAD\nexec "%s" "$@"\n' "$symbolizer" > "$reports/llvm-symbolizer"
chmod +x "$reports/llvm-symbolizer"
# allocator_may_return_null: tests of huge shapes expect the library's
# OutOfMemoryError, which ASan's allocator would otherwise pre-empt.
# suppressions: Open MPI's own use-after-free in mpirun, by the one function
# that makes it (Note [Open MPI's own use-after-free] in scripts/asan_openmpi.supp).
# WEFT_ASAN_EXTRA_OPTIONS, when set, is appended (e.g. detect_stack_use_after_return=1
# for a hunt; docs/ASAN_PYTHON_RUNS.md).
# max_allocation_size_mb: the degenerate-input pass (test_op_degenerate.py) caps
# its workers' address space in a release build; under ASan (whose shadow memory
# no such cap fits) this bounds allocations instead, so an op that believes a
# 2**31-element attribute fails at once rather than filling 8 GB past the watchdog.
rc=0
LD_PRELOAD="$runtime" \
  ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=3072:suppressions=$PWD/scripts/asan_openmpi.supp:log_path=$reports/report:external_symbolizer_path=$reports/llvm-symbolizer${WEFT_ASAN_EXTRA_OPTIONS:+:$WEFT_ASAN_EXTRA_OPTIONS}" \
  UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports/report:external_symbolizer_path=$reports/llvm-symbolizer" \
  PYTHONPATH="$PWD/bindings/python" WEFT_LIBRARY_PATH="$lib" \
  python3 -m pytest -q -p no:cacheprovider "$@" "${files[@]}" || rc=$?
found=0
for f in "$reports"/report.*; do
  [ -e "$f" ] || continue
  echo "== test_asan_python.sh: sanitizer output in $(basename "$f"):"
  cat "$f"
  if grep -q -E 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$f"; then found=1; fi
done
[ "$found" = 0 ] || { echo "test_asan_python.sh: sanitizer report(s) above" >&2; exit 1; }
exit "$rc"
