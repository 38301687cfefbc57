#!/usr/bin/env bash
# Configures and builds libweft.so and the C/C++ tests into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${WEFT_CMAKE_ARGS:-} >/dev/null
ninja -C build -j "${WEFT_BUILD_JOBS:-2}"
