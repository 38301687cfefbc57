#!/usr/bin/env bash
# Builds the CUDA variant (-DWEFT_USE_CUDA=ON, sm_80 + sm_90) into build-cuda/
# and runs its C++ tests. On a machine without a GPU the CPU tests run and the
# GPU tests skip, saying so (the GPU code path itself is tested on the host
# emulation, tests/gpu). Skips with a message when nvcc is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-cuda}
if ! command -v nvcc >/dev/null 2>&1; then
  echo "SKIP CUDA build: nvcc is not installed on this machine"
  exit 0
fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_USE_CUDA=ON -DWEFT_TSAN_TESTS=OFF \
  -DWEFT_BUILD_BENCHMARKS=OFF ${WEFT_CMAKE_ARGS:-} >/dev/null
t0=$SECONDS
ninja -C "$dir" -j "${WEFT_BUILD_JOBS:-2}" weft weft_cpp_tests
echo "== CUDA build took $((SECONDS - t0)) s"
"$dir/tests/weft_cpp_tests" --gtest_brief=1
