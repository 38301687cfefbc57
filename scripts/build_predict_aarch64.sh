#!/usr/bin/env bash
# Cross-compiles the dependency-free predictor for aarch64 (cmake/predict.cmake):
# build-aarch64/weft-predict-portable, linked -static, and libweft_predict.a.
# tests/python/test_portable_predict_aarch64.py runs the binary under
# qemu-aarch64-static. Needs only g++-aarch64-linux-gnu, cmake and ninja (or
# make). Prints the build time and the binary's size.
#   WEFT_AARCH64_BUILD_DIR (default build-aarch64), WEFT_BUILD_JOBS (default 2),
#   WEFT_AARCH64_CMAKE_ARGS (extra CMake arguments, e.g. a compiler launcher).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${WEFT_AARCH64_BUILD_DIR:-build-aarch64}
JOBS=${WEFT_BUILD_JOBS:-2}
if ! command -v aarch64-linux-gnu-g++ >/dev/null; then
  echo "build_predict_aarch64.sh: aarch64-linux-gnu-g++ not found (apt-get install g++-aarch64-linux-gnu)" >&2
  exit 1
fi
GEN=()
if command -v ninja >/dev/null && { [ ! -f "$BUILD_DIR/CMakeCache.txt" ] || [ -f "$BUILD_DIR/build.ninja" ]; }; then
  GEN=(-G Ninja)
fi
start=$SECONDS
cmake -S . -B "$BUILD_DIR" "${GEN[@]}" -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
  -DWEFT_PORTABLE=ON -DWEFT_PREDICT_STATIC=ON -DCMAKE_BUILD_TYPE=Release ${WEFT_AARCH64_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" --target weft-predict-portable weft_predict -j "$JOBS"
bin="$BUILD_DIR/weft-predict-portable"
stripped=$(mktemp)
aarch64-linux-gnu-strip -o "$stripped" "$bin"
echo "== aarch64 predictor built in $((SECONDS - start)) s: $bin ($(stat -c %s "$bin") bytes, $(stat -c %s "$stripped") stripped)"
rm -f "$stripped"
