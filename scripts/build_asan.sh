#!/usr/bin/env bash
# Builds libweft.so, the C/C++ tests and the fuzz targets (tests/fuzz) under
# AddressSanitizer + UndefinedBehaviorSanitizer into BUILD_DIR (argument 1,
# default build-asan/), with Debian's clang-14 (scripts/setup.sh installs it).
#
# Note [One sanitizer build]
#   One build serves the three sanitizer checks (CI's time is a budget): the
#   C/C++ tests (ctest), the Python subset run with the ASan runtime preloaded
#   (scripts/test_asan.sh), and libFuzzer (tests/fuzz), which needs clang and
#   the library compiled with its coverage hooks (-fsanitize=fuzzer-no-link; in
#   a process without libFuzzer the ASan runtime's empty hooks take them).
#   -O1 keeps the stacks readable; -fno-sanitize-recover makes every UBSan
#   report fatal, so a test cannot pass over one. No benchmarks and no TSan
#   target (the default build has that one).
#
#   Runtimes: the executables link the ASan runtime statically (libFuzzer
#   wants it first); libweft.so links none, so a Python process must preload
#   the shared one (LD_PRELOAD=$(clang-14 -print-file-name=libclang_rt.asan-x86_64.so)).
#   The C tests are linked by the C driver, hence the C++ half of UBSan's
#   runtime (-fsanitize-link-c++-runtime, needs libstdc++) named explicitly.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-asan}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
compile="$san -fsanitize=fuzzer-no-link -O1 -g1 -fno-omit-frame-pointer"
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
  -DCMAKE_C_FLAGS="$compile" -DCMAKE_CXX_FLAGS="$compile" \
  -DCMAKE_EXE_LINKER_FLAGS="$san -fsanitize-link-c++-runtime -lstdc++" \
  -DCMAKE_SHARED_LINKER_FLAGS="$san" \
  -DCMAKE_PROJECT_INCLUDE="$PWD/cmake/sanitize.cmake" \
  -DWEFT_TSAN_TESTS=OFF -DWEFT_BUILD_BENCHMARKS=OFF -DWEFT_FUZZ=ON ${WEFT_CMAKE_ARGS:-} >/dev/null
ninja -C "$build_dir" -j "${WEFT_BUILD_JOBS:-2}"
