#!/usr/bin/env bash
# Runs weft-serve's fuzz tests (every Fuzz* in bindings/go/cmd/weft-serve/
# *_fuzz_test.go: the REST request decoders, the gRPC inputs) with Go's native
# fuzzer for SECONDS each:
#   scripts/fuzz_go.sh [BUILD_DIR] [SECONDS]   (defaults build/, 10 s)
# BUILD_DIR holds libweft.so (cgo links it; scripts/build.sh). A failing input
# is written by Go under cmd/weft-serve/testdata/fuzz/<Test>/, which plain
# `go test` (scripts/test_go.sh) replays from then on: commit it with the fix.
# WEFT_FUZZ_JOBS=N: N fuzz tests at a time after the first (default 1): Note
# [Fuzz targets side by side] in scripts/fuzz.sh. The first runs alone, as it
# compiles the fuzzing-instrumented test binary that the others then find in
# the build cache (two at once would both compile it).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(cd "${1:-build}" && pwd)
seconds=${2:-10}
bash scripts/go_vendor.sh
export CGO_ENABLED=1 GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=vendor
export GOCACHE="$build_dir/go-cache" GOPATH="$build_dir/go-path"
export CGO_LDFLAGS="-L$build_dir -Wl,-rpath,$build_dir"
cd bindings/go
fuzz_one() {
  local t=$1 start=$SECONDS out
  # -parallel 1: one fuzzing worker (the machine is shared; CI has 2 cores).
  out=$(go test -run '^$' -fuzz "^$t\$" -fuzztime "${seconds}s" -parallel 1 ./cmd/weft-serve 2>&1) || {
    echo "$out" | tail -n 30
    echo "fuzz_go.sh: $t FAILED (the input is under bindings/go/cmd/weft-serve/testdata/fuzz/$t/)"
    return 1
  }
  echo "fuzz $t: $(echo "$out" | grep -a -o 'elapsed: .*' | tail -n 1) ($((SECONDS - start)) s)"
}
jobs=${WEFT_FUZZ_JOBS:-1}
summaries=$(mktemp -d)
trap 'rm -rf "$summaries"' EXIT
status=0
running=0
# As scripts/fuzz.sh: each test's lines printed whole when it ends.
finish_one() {
  local rc=0
  wait -n || rc=$?
  running=$((running - 1))
  for f in "$summaries"/*.done; do
    [ -e "$f" ] || continue
    cat "${f%.done}.out"
    rm -f "$f" "${f%.done}.out"
  done
  [ "$rc" = 0 ] || status=1
}
first=1
for t in $(cat cmd/weft-serve/*_fuzz_test.go | grep -o '^func Fuzz[A-Za-z0-9]*' | cut -d' ' -f2); do
  if [ "$first" = 1 ]; then
    first=0
    fuzz_one "$t" || exit 1
    continue
  fi
  [ "$running" -lt "$jobs" ] || finish_one
  { rc=0; fuzz_one "$t" >"$summaries/$t.out" 2>&1 || rc=$?; touch "$summaries/$t.done"; exit $rc; } &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do finish_one; done
[ "$status" = 0 ] || echo "fuzz_go.sh: a fuzz test FAILED (above)" >&2
exit $status
