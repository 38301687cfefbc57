#!/usr/bin/env bash
# Runs every test: C++ (GoogleTest, incl. the ThreadSanitizer engine build), the
# plain-C ABI tests, then the Python package installed with pip, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
start=$SECONDS
bash scripts/build.sh
echo "== build took $((SECONDS - start)) s"
echo "== C++ and C tests (ctest)"
ctest --test-dir build --output-on-failure -j 2
echo "== pip install ./bindings/python"
python3 -m pip install -q --disable-pip-version-check ./bindings/python
echo "== Python tests (pytest, against the installed package)"
python3 -m pytest -q tests/python -p no:cacheprovider
