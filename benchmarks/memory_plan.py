"""Memory planning report: AlexNet, VGG-16, Inception-BN and ResNet-50.

For each net (benchmarks/nets.py), batch 64 at 224x224, float32, it prints the
internal memory of the graph a bind would run, planned four ways (naive: one
buffer per entry; inplace; coshare; both — docs/DESIGN.md "Memory planning"), for
forward only (a prediction bind) and forward+backward (every parameter gets a
gradient, data and label do not), plus the lower bound (the largest set of
entries live at once under the executor's schedule).

What is counted: every entry the planner places — outputs of operator nodes,
including the forward results the backward pass reads and the gradients of
internal entries. Not counted: arguments (weights, data, label), auxiliary
states, the gradients of arguments and the graph outputs, which are arrays the
user owns. Nothing is allocated: weft.executor.plan_memory runs the bind's
passes only.

The strategy columns are measured with fusion off (WEFT_FUSION=0), so they
compare the planner alone on the same graph; the last column is what a default
bind allocates (fusion on, plan "both") — fusion removes entries, so its naive
figure is smaller too.

Targets: both >= 3.5x smaller than naive (forward), >= 2x (forward+backward),
and within 15% of the lower bound.

    PYTHONPATH=bindings/python python benchmarks/memory_plan.py [--batch 64]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nets  # noqa: E402  pylint: disable=wrong-import-position

from weft.executor import plan_memory  # noqa: E402  pylint: disable=wrong-import-position

STRATEGIES = ("naive", "inplace", "coshare", "both")


def _plan(sym, strategy, training, batch, fusion):
    os.environ["WEFT_FUSION"] = "1" if fusion else "0"
    return plan_memory(sym, strategy, training, data=(batch, 3, 224, 224), softmax_label=(batch,))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batch", type=int, default=64)
    args = ap.parse_args()
    mb = float(1 << 20)
    print("internal memory in MB, batch %d, 224x224, float32" % args.batch)
    print("%-13s %-8s %9s %9s %9s %9s %9s %8s %8s %13s" % ("net", "pass", "naive", "inplace", "coshare", "both",
                                                          "bound", "nv/both", "both/lb", "fused+both"))
    failures = []
    for name, build in nets.NETS.items():
        sym = build()
        for training in (False, True):
            r = {s: _plan(sym, s, training, args.batch, False) for s in STRATEGIES}
            fused = _plan(sym, "both", training, args.batch, True)
            naive, both = r["naive"]["planned_bytes"], r["both"]["planned_bytes"]
            bound = r["both"]["lower_bound_bytes"]
            ratio, slack = naive / both, both / bound
            pass_name = "fwd+bwd" if training else "fwd"
            print("%-13s %-8s %9.0f %9.0f %9.0f %9.0f %9.0f %7.2fx %8.3f %13.0f"
                  % (name, pass_name, naive / mb, r["inplace"]["planned_bytes"] / mb,
                     r["coshare"]["planned_bytes"] / mb, both / mb, bound / mb, ratio, slack,
                     fused["planned_bytes"] / mb))
            if ratio < (2.0 if training else 3.5):
                failures.append("%s %s: both is only %.2fx smaller than naive" % (name, pass_name, ratio))
            if slack > 1.15:
                failures.append("%s %s: both is %.1f%% over the lower bound" % (name, pass_name, 100 * (slack - 1)))
    os.environ.pop("WEFT_FUSION", None)
    print("targets (fwd >= 3.5x, fwd+bwd >= 2x, both within 15%% of the bound): %s"
          % ("met" if not failures else "NOT met: " + "; ".join(failures)))


if __name__ == "__main__":
    main()
