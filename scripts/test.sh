#!/usr/bin/env bash
# Runs the tests, by stage. With no argument: every stage in order (what CI runs,
# .ci/run): set-up, the build, C++ (GoogleTest, incl. the ThreadSanitizer engine
# build) and the plain-C ABI tests, the Go module and server (go vet, go test,
# -race) and its fuzzers, the R package (testthat, R CMD check), the Julia
# package when julia is installed, the aarch64 predictor, the CUDA build
# (compiled; its C++ tests run without a GPU), the Python package installed with
# pip and pytest (Python tests and the cross-language tests, which use the Go
# commands and the R package built above; the README walkthroughs build their
# own against the installed package, with no build/, as a user after
# scripts/demo.sh would), the GPU tests on the host emulation of
# the GPU path, and the AddressSanitizer + UBSan build with its C/C++ tests, the
# fuzz corpora's replay and the core of the Python tests.
#
# With stage names, only those, in the order given, e.g.
#   bash scripts/test.sh build cpp        # build/, then ctest
#   bash scripts/test.sh python           # pytest against build/ (built before)
# Stages: setup build cpp go fuzz-go r julia aarch64 cuda python gpu asan.
# A stage run alone expects what the stages before it make (build/ for all but
# setup, build and asan; the Go commands and the R package for python's
# cross-language tests). To run a single test file, see CONTRIBUTING.md.
set -euo pipefail
cd "$(dirname "$0")/.."

STAGES=(setup build cpp go fuzz-go r julia aarch64 cuda python gpu asan)

# Every build goes through ccache: the CUDA build's C++ files compile exactly as
# the CPU build's (Note [CUDA usage requirements] in CMakeLists.txt), so they are
# cache hits. Paths are made relative to the checkout (base dir) so build/ and
# build-cuda/ hash alike; depend mode needs no extra preprocessor pass on a miss.
# The cache lives in the build tree, never in the user's.
# Called before each stage, as setup may be what installs ccache.
ccache_on=0
use_ccache() {
  if [ "$ccache_on" = 0 ] && command -v ccache >/dev/null 2>&1; then
    ccache_on=1
    export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}" CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 \
           CCACHE_DEPEND=1 CCACHE_SLOPPINESS=pch_defines,time_macros CCACHE_MAXSIZE=4G
    export WEFT_CMAKE_ARGS="${WEFT_CMAKE_ARGS:-} -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  fi
}

stage_setup() {
  bash scripts/setup.sh
}

stage_build() {
  local t0=$SECONDS
  bash scripts/build.sh
  echo "== build took $((SECONDS - t0)) s"
}

stage_cpp() {
  echo "== Dead project includes in core/ (scripts/check_includes.py: include-what-you-use, all of core/)"
  local t0=$SECONDS
  python3 scripts/check_includes.py
  echo "== include check took $((SECONDS - t0)) s"
  echo "== C++ and C tests (ctest)"
  ctest --test-dir build --output-on-failure -j 2
}

stage_go() {
  echo "== Go module, weft-serve, weft-predict (scripts/test_go.sh)"
  bash scripts/test_go.sh build
}

stage_fuzz_go() {
  echo "== weft-serve's request decoders and gRPC inputs under Go's fuzzer, 10 s each (scripts/fuzz_go.sh; issues 22, 42)"
  local t0=$SECONDS
  # Two fuzz tests at a time, one a core (Note [Fuzz targets side by side] in scripts/fuzz.sh).
  WEFT_FUZZ_JOBS=${WEFT_FUZZ_JOBS:-2} bash scripts/fuzz_go.sh build 10
  echo "== Go fuzzing took $((SECONDS - t0)) s"
}

stage_r() {
  echo "== R packages weft and mxnet (scripts/test_r.sh)"
  bash scripts/test_r.sh build
}

stage_julia() {
  echo "== Julia tests (Weft.jl)"
  if command -v julia >/dev/null 2>&1; then
    WEFT_LIBRARY_PATH="$PWD/build/libweft.so" julia --project=bindings/julia -e 'using Pkg; Pkg.test()'
  else
    echo "SKIP Weft.jl tests: julia is not installed on this machine (tests/python/test_julia_static.py checks the sources)"
  fi
}

stage_aarch64() {
  echo "== dependency-free predictor for aarch64 (scripts/build_predict_aarch64.sh; run under qemu by pytest)"
  local t0=$SECONDS
  bash scripts/build_predict_aarch64.sh
  echo "== aarch64 predictor build took $((SECONDS - t0)) s"
}

# Note [CUDA compile check as PTX]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CI's machine has no GPU: its CUDA stage checks that every kernel compiles
# (nvcc's host and device front ends, cicc's code generation to PTX, the link)
# and runs the C++ tests with the GPU tests skipping. Real sm_90 code adds
# ptxas, over a third of nvcc's CPU time, for code no CI test runs. Measured per
# family (one nvcc call each, CPU-s user+sys, code=[compute_90,sm_90] against
# code=[compute_90]): elemwise 33.5 -> 24.9, linalg 18.8 -> 12.7, reduce
# 52.0 -> 27.7; these three are 2,894 of the 9,970 lines of .cu, so over the
# 24 families about 360 -> 225 CPU-s, ~1 min of CI's two cores. What CI no longer checks: ptxas's own
# limits (registers against __launch_bounds__, static shared memory over
# 48 KB, its warnings) and SASS generation; scripts/build_cuda.sh (sm_80 and
# sm_90, what the GPU machines run) still meets them.
stage_cuda() {
  echo "== CUDA build (scripts/build_cuda.sh): compiled, C++ tests run without a GPU"
  # Note [CUDA compile check as PTX]: CI's machine has no GPU, so its CUDA build is
  # a compile check, and PTX for compute_90 (CMake's 90-virtual) is all of that
  # check but ptxas; scripts/build_cuda.sh alone builds real sm_80 and sm_90 code
  # for the GPU machines.
  WEFT_CMAKE_ARGS="${WEFT_CMAKE_ARGS:-} -DCMAKE_CUDA_ARCHITECTURES=${WEFT_CI_CUDA_ARCHS:-90-virtual}" \
    bash scripts/build_cuda.sh build-cuda
  if command -v ccache >/dev/null 2>&1; then ccache --show-stats | grep -iE "hits|misses" | head -n 4 || true; fi
}

stage_python() {
  echo "== pip install ./bindings/python (libweft.so from build/, WEFT_CMAKE_BUILD_DIR)"
  # build/ is current (the build stage), so the package takes its libweft.so
  # instead of compiling the library a third time; scripts/demo.sh installs the
  # package the way a user does, with its own build.
  WEFT_CMAKE_BUILD_DIR="$PWD/build" python3 -m pip install -q --disable-pip-version-check ./bindings/python
  echo "== Python and cross-language tests (pytest, against the installed package)"
  WEFT_GO_BIN_DIR="$PWD/build/go-bin" WEFT_R_LIBS="$PWD/build/r-lib" \
    python3 -m pytest -q tests/python tests/cross -p no:cacheprovider
}

stage_gpu() {
  echo "== GPU tests (tests/gpu) on two emulated GPUs: the GPU kernels and lanes, run on the host"
  WEFT_GPU_EMULATE=2 python3 -m pytest -q tests/gpu -p no:cacheprovider
  if [ -f build-cuda/libweft.so ]; then
    echo "== GPU tests against the CUDA build (they run on a GPU machine; here they skip, saying why)"
    WEFT_LIBRARY_PATH="$PWD/build-cuda/libweft.so" python3 -m pytest -q -rs tests/gpu -p no:cacheprovider | tail -n 3
  fi
}

stage_asan() {
  echo "== AddressSanitizer + UBSan (scripts/build_asan.sh; issue 22): the library and the C/C++ tests with the fuzz corpora's replay, each fuzz target for 10 s, then the Python core subset"
  local t0=$SECONDS
  bash scripts/build_asan.sh build-asan
  ASAN_OPTIONS="allocator_may_return_null=1:detect_stack_use_after_return=1" UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j 2
  # Two targets at a time, one a core (Note [Fuzz targets side by side] in scripts/fuzz.sh).
  WEFT_FUZZ_JOBS=${WEFT_FUZZ_JOBS:-2} WEFT_FUZZ_TIMEOUT=10 bash scripts/fuzz.sh build-asan 10
  # The core of the Python tests on the ASan library (issue 35 point 6c; Note [ASan
  # core subset] in scripts/test_asan_python.sh has the list and why), failing on
  # any sanitizer report; scripts/test_asan.sh runs the full list.
  local t1=$SECONDS
  WEFT_ASAN_SUBSET=core bash scripts/test_asan_python.sh build-asan
  echo "== the ASan Python core subset took $((SECONDS - t1)) s"
  echo "== the sanitizer step took $((SECONDS - t0)) s"
}

if [ $# -eq 0 ]; then
  set -- "${STAGES[@]}"
fi
for s in "$@"; do
  case " ${STAGES[*]} " in
    *" $s "*) ;;
    *) echo "scripts/test.sh: unknown stage '$s' (stages: ${STAGES[*]})" >&2; exit 2 ;;
  esac
done
start=$SECONDS
for s in "$@"; do
  use_ccache
  "stage_${s//-/_}"
done
echo "== all tests took $((SECONDS - start)) s"
