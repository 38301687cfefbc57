#!/usr/bin/env bash
# Training time of the same MLP (same data, shapes, batch size, optimizer and
# epochs) in R (weft.model.FeedForward.create) and in Python (the same
# symbol/executor loop with sgd_mom_update, and Gluon with a hybridized net and
# Trainer for reference). Both run on the same libweft.so; the difference is
# binding overhead. Prints the fastest of 3 runs of each and the R/Python ratio
# (target <= 1.2). R's time covers the whole FeedForward.create call (bind,
# data upload, initialisation); Python's covers the training loop only.
#   usage: benchmarks/r_vs_python.sh [build dir, default build] [epochs, default 10]
# Needs the R package installed where R finds it (R_LIBS), e.g. by
# scripts/test_r.sh's steps or: WEFT_LIB_DIR=build R CMD INSTALL -l LIB bindings/r
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=$(cd "${1:-build}" && pwd)
EPOCHS=${2:-10}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export WEFT_LIBRARY_PATH=$BUILD_DIR/libweft.so PYTHONPATH=$PWD/bindings/python${PYTHONPATH:+:$PYTHONPATH}
python3 benchmarks/mlp_train_py.py --make-data "$WORK"
py_exec=$(python3 benchmarks/mlp_train_py.py --data "$WORK" --epochs "$EPOCHS" --mode executor)
py_gluon=$(python3 benchmarks/mlp_train_py.py --data "$WORK" --epochs "$EPOCHS" --mode gluon)
r_time=$(Rscript --vanilla benchmarks/mlp_train_r.R "$WORK" "$EPOCHS")
python3 - "$r_time" "$py_exec" "$py_gluon" "$EPOCHS" <<'PY'
import sys
r, py_exec, py_gluon = (list(map(float, a.split())) for a in sys.argv[1:4])
print("MLP 100-128-64-10, 10000 samples, batch 100, SGD momentum, %s epochs (fastest of 3)" % sys.argv[4])
print("                                 wall s   CPU s   R/this wall  R/this CPU")
print("  R  FeedForward.create        %8.3f %7.3f" % tuple(r))
for name, t in (("Python symbol executor loop", py_exec), ("Python Gluon (hybridized)  ", py_gluon)):
    print("  %s  %8.3f %7.3f   %9.2f  %10.2f" % (name, t[0], t[1], r[0] / t[0], r[1] / t[1]))
print("target: R / Python executor loop <= 1.2")
PY
