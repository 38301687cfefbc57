#!/usr/bin/env bash
# The first demo: builds and installs weft, then runs examples/demo.py.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 -m pip install -q --disable-pip-version-check ./bindings/python
python3 examples/demo.py
