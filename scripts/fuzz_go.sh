#!/usr/bin/env bash
# Runs weft-serve's fuzz tests (every Fuzz* in bindings/go/cmd/weft-serve/
# *_fuzz_test.go: the REST request decoders, the gRPC inputs) with Go's native
# fuzzer for SECONDS each:
#   scripts/fuzz_go.sh [BUILD_DIR] [SECONDS]   (defaults build/, 10 s)
# BUILD_DIR holds libweft.so (cgo links it; scripts/build.sh). A failing input
# is written by Go under cmd/weft-serve/testdata/fuzz/<Test>/, which plain
# `go test` (scripts/test_go.sh) replays from then on: commit it with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(cd "${1:-build}" && pwd)
seconds=${2:-10}
bash scripts/go_vendor.sh
export CGO_ENABLED=1 GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=vendor
export GOCACHE="$build_dir/go-cache" GOPATH="$build_dir/go-path"
export CGO_LDFLAGS="-L$build_dir -Wl,-rpath,$build_dir"
cd bindings/go
for t in $(cat cmd/weft-serve/*_fuzz_test.go | grep -o '^func Fuzz[A-Za-z0-9]*' | cut -d' ' -f2); do
  start=$SECONDS
  # -parallel 1: one fuzzing worker (the machine is shared; CI has 2 cores).
  out=$(go test -run '^$' -fuzz "^$t\$" -fuzztime "${seconds}s" -parallel 1 ./cmd/weft-serve 2>&1) || {
    echo "$out" | tail -n 30
    echo "fuzz_go.sh: $t FAILED (the input is under bindings/go/cmd/weft-serve/testdata/fuzz/$t/)" >&2
    exit 1
  }
  echo "fuzz $t: $(echo "$out" | grep -a -o 'elapsed: .*' | tail -n 1) ($((SECONDS - start)) s)"
done
