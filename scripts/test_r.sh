#!/usr/bin/env bash
# Tests the R package against a built library: installs bindings/r (from a
# temporary copy), runs its testthat tests, installs and tests the thin `mxnet`
# package (bindings/r-mxnet: library(mxnet) for MXNet-R scripts), then R CMD
# build + R CMD check --no-manual of both (failing on any ERROR or WARNING). Both
# stay installed in <build dir>/r-lib for the cross-language tests:
#   WEFT_R_LIBS=build/r-lib python3 -m pytest tests/cross/test_r_cross.py
#   usage: scripts/test_r.sh [build dir, default build]
# Needs r-base-core, r-base-dev and r-cran-testthat; run after scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=$(cd "${1:-build}" && pwd)
[ -f "$BUILD_DIR/libweft.so" ] || { echo "test_r.sh: $BUILD_DIR/libweft.so not found (run scripts/build.sh)" >&2; exit 1; }
command -v Rscript >/dev/null || { echo "test_r.sh: Rscript not found (apt-get install r-base-core r-base-dev r-cran-testthat)" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export WEFT_LIB_DIR=$BUILD_DIR WEFT_INCLUDE_DIR=$ROOT/capi/include WEFT_HOME=$ROOT
export R_LIBS=$BUILD_DIR/r-lib
# The MXNet 1.9.1 files the loaders are checked against sit beside the checkout.
export WEFT_FIXTURES=${WEFT_FIXTURES:-$ROOT/../shared/fixtures}
rm -rf "$R_LIBS"
mkdir -p "$R_LIBS"
# Build from a copy so the checkout stays clean (configure writes src/Makevars).
cp -r bindings/r "$WORK/weft"
(cd "$WORK/weft" && ./cleanup)

start=$SECONDS
echo "== R CMD INSTALL"
R CMD INSTALL --no-test-load -l "$R_LIBS" "$WORK/weft" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; exit 1; }
echo "== testthat"
(cd "$WORK/weft/tests" && Rscript -e 'library(testthat); library(weft); test_dir("testthat", reporter = "summary", stop_on_failure = TRUE)')
# The thin `mxnet` package (library(mxnet) for MXNet-R scripts; issue 42 point 5)
# into the same library, beside weft, so the cross-language tests find both.
echo "== mxnet package: R CMD INSTALL + testthat"
cp -r bindings/r-mxnet "$WORK/mxnet"
R CMD INSTALL -l "$R_LIBS" "$WORK/mxnet" >"$WORK/install-mxnet.log" 2>&1 || { cat "$WORK/install-mxnet.log"; exit 1; }
(cd "$WORK/mxnet/tests" && Rscript -e 'library(testthat); library(mxnet); test_dir("testthat", reporter = "summary", stop_on_failure = TRUE)')
# R CMD build + check --no-manual of both packages, failing on any ERROR or
# WARNING; the tests already ran above, so the check looks at the package
# itself (code, docs, install, examples). mxnet's check installs it again
# against the weft installed above (its configure documents weft's exports,
# tools/gen_reexports.R); about 15 s of CPU.
check_package() {
  local pkg=$1
  echo "== R CMD build / check $pkg"
  (cd "$WORK/$pkg" && ./cleanup)
  (cd "$WORK" && R CMD build --no-build-vignettes --no-manual "$pkg" >"build-$pkg.log" 2>&1) || { cat "$WORK/build-$pkg.log"; exit 1; }
  local tarball
  tarball=$(ls "$WORK/${pkg}"_*.tar.gz)
  (cd "$WORK" && _R_CHECK_FORCE_SUGGESTS_=false R CMD check --no-manual --no-tests "$tarball" >"check-$pkg.log" 2>&1) || true
  grep -vE "^\* (checking|this is|using).* OK$" "$WORK/check-$pkg.log" || true
  if grep -qE "^Status: .*(ERROR|WARNING)" "$WORK/check-$pkg.log" || ! grep -q "^Status:" "$WORK/check-$pkg.log"; then
    echo "test_r.sh: R CMD check of $pkg reported an ERROR or WARNING" >&2
    exit 1
  fi
}
check_package weft
check_package mxnet
echo "== R package tests passed in $((SECONDS - start)) s"
