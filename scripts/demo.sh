#!/usr/bin/env bash
# The end-to-end demo: builds and installs weft, then trains a small CNN on
# scikit-learn's bundled 8x8 digits with Gluon (progress bar, >= 97% test
# accuracy), exports it, reloads the files with SymbolBlock.imports and checks
# the predictions agree (examples/digits_demo.py); then serves the exported
# model with the Go server weft-serve on localhost, sends the test digits over
# HTTP and prints the accuracy (examples/serve_demo.py); then the engine/symbol
# tour (examples/demo.py).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 -m pip install -q --disable-pip-version-check ./bindings/python
python3 examples/digits_demo.py --out build/digits-demo
python3 examples/serve_demo.py --models build/digits-demo
python3 examples/demo.py
