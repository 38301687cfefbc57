#!/usr/bin/env bash
# Fills bindings/go/vendor/ (git-ignored) with the Go packages weft-serve's gRPC
# API needs, copied from Debian 12's packaged sources under /usr/share/gocode/src
# (scripts/setup.sh installs them: golang-google-grpc-dev and what it depends on),
# and writes vendor/modules.txt to match bindings/go/go.mod.
#   bash scripts/go_vendor.sh        (idempotent; WEFT_GOCODE=DIR names another source tree)
# scripts/build_go.sh, test_go.sh and fuzz_go.sh run it, then build with -mod=vendor.
#
# Note [Vendoring Debian's gRPC]: the build machines cannot download Go modules
# (GOPROXY=off). Debian ships gRPC-Go 1.33.3 and its dependencies as source in
# the old GOPATH layout; `-mod=mod` with `replace` directives cannot use them,
# because gRPC's and genproto's go.mod (go 1.11, so unpruned) name modules
# Debian does not ship (envoyproxy, cncf/udpa, x/lint, ...) and the go command
# wants every go.mod of the graph. In vendor mode the go command reads only
# vendor/modules.txt, so copying the packages that are imported (the list comes
# from `go list -deps` in GOPATH mode over Debian's tree) is enough. The versions
# below are Debian's, written into go.mod's require block; a Debian update that
# changes them needs both updated (the go command reports the mismatch).
set -euo pipefail
cd "$(dirname "$0")/.."
src=${WEFT_GOCODE:-/usr/share/gocode/src}
if [ ! -d "$src/google.golang.org/grpc" ] || [ ! -d "$src/google.golang.org/protobuf" ]; then
  echo "go_vendor.sh: no gRPC-Go sources under $src (scripts/setup.sh installs golang-google-grpc-dev)" >&2
  exit 1
fi
if ! grep -q google.golang.org/protobuf "$src/github.com/golang/protobuf/go.mod" 2>/dev/null; then
  echo "go_vendor.sh: $src/github.com/golang/protobuf is not the 1.5 API gRPC needs" \
       "(apt-get install golang-github-golang-protobuf-1-5-dev; scripts/setup.sh does)" >&2
  exit 1
fi
# Module path, version (Debian's), go directive of its go.mod. Keep in step with go.mod.
modules="google.golang.org/grpc v1.33.3 1.11
google.golang.org/protobuf v1.28.1 1.11
github.com/golang/protobuf v1.5.2 1.9
google.golang.org/genproto v0.0.0-20200413115906-b5235f65be36 1.11
golang.org/x/net v0.7.0 1.17
golang.org/x/sys v0.3.0 1.17
golang.org/x/text v0.7.0 1.17"
# The packages weft-serve and its tests import; go list adds what they import.
roots="google.golang.org/grpc google.golang.org/grpc/codes google.golang.org/grpc/status
  google.golang.org/grpc/keepalive google.golang.org/grpc/test/bufconn
  google.golang.org/protobuf/reflect/protoreflect google.golang.org/protobuf/runtime/protoimpl
  google.golang.org/protobuf/proto"
vendor=bindings/go/vendor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# GOPATH mode reads Debian's tree as it is laid out (GOPATH=$src/../..).
pkgs=$(cd "$tmp" && GO111MODULE=off GOPATH="$(dirname "$src")" GOFLAGS= GOTOOLCHAIN=local GOCACHE="$tmp/cache" \
  go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' $roots)
mkdir -p "$tmp/vendor"
: >"$tmp/vendor/modules.txt"
while read -r mod version gover; do
  printf '# %s %s\n## explicit; go %s\n' "$mod" "$version" "$gover" >>"$tmp/vendor/modules.txt"
  for p in $pkgs; do
    case "$p" in "$mod" | "$mod"/*) ;; *) continue ;; esac
    echo "$p" >>"$tmp/vendor/modules.txt"
    mkdir -p "$tmp/vendor/$p"
    # A package is its directory's files, not its subdirectories, tests or testdata.
    find "$src/$p" -maxdepth 1 -type f ! -name '*_test.go' -exec cp {} "$tmp/vendor/$p/" \;
  done
  for f in LICENSE NOTICE PATENTS; do
    if [ -f "$src/$mod/$f" ]; then mkdir -p "$tmp/vendor/$mod" && cp "$src/$mod/$f" "$tmp/vendor/$mod/"; fi
  done
done <<<"$modules"
for p in $pkgs; do
  grep -qx "$p" "$tmp/vendor/modules.txt" || { echo "go_vendor.sh: $p is in no module listed here" >&2; exit 1; }
done
if [ -f "$vendor/modules.txt" ] && diff -rq "$tmp/vendor" "$vendor" >/dev/null 2>&1; then
  exit 0
fi
rm -rf "$vendor"
mv "$tmp/vendor" "$vendor"
echo "go_vendor.sh: $vendor: $(echo "$pkgs" | wc -l) packages from $src"
