"""End to end with Gluon: train a small CNN on scikit-learn's bundled 8x8 digits,
export it, reload it with SymbolBlock.imports and check the predictions match.

    python examples/digits_demo.py [--epochs N] [--out DIR] [--min-accuracy A]

The data ships with scikit-learn (sklearn.datasets.load_digits, 1797 images, no
download); the split is deterministic (every 5th image of each class is a test
image) and every random draw is seeded, so the run is reproducible. Training
uses gluon.contrib.estimator.Estimator with Adam and a cosine learning-rate
schedule (a tqdm progress bar when tqdm is installed and the output is a
terminal) and keeps the last two per-epoch checkpoints written through
``net.export``; the curves go to ``DIR/digits-curves.png`` when matplotlib is
installed. Exits 1 when the test accuracy is below --min-accuracy or the
reloaded model predicts any class differently, 2 without scikit-learn.
``main(argv)`` runs it from Python (the tests run a two-epoch version).
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

try:
    import weft as mx
except ImportError:  # run from a source checkout without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "bindings", "python"))
    import weft as mx
from weft import gluon
from weft.gluon import nn
from weft.gluon.contrib.estimator import CheckpointHandler, Estimator, LoggingHandler

SEED = 42


def load_digits_split():
    """(x_train, y_train, x_test, y_test): images as float32 (N, 1, 8, 8) in [0, 1]."""
    from sklearn.datasets import load_digits  # pylint: disable=import-outside-toplevel
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None, :, :]
    y = digits.target.astype(np.float32)
    test = np.zeros(len(y), dtype=bool)
    for c in range(10):
        idx = np.flatnonzero(y == c)
        test[idx[::5]] = True
    return x[~test], y[~test], x[test], y[test]


def build_net():
    net = nn.HybridSequential(prefix="digits_")
    with net.name_scope():
        net.add(nn.Conv2D(32, kernel_size=3, padding=1),   # 32 x 8 x 8
                nn.Activation("relu"),
                nn.MaxPool2D(pool_size=2),                  # 32 x 4 x 4
                nn.Conv2D(64, kernel_size=3, padding=1),    # 64 x 4 x 4
                nn.Activation("relu"),
                nn.MaxPool2D(pool_size=2),                  # 64 x 2 x 2
                nn.Flatten(),
                nn.Dense(128, activation="relu"),
                nn.Dropout(0.25),
                nn.Dense(10))
    return net


def predict(net, x, batch_size=256):
    """Class scores of net over x (a numpy array), batch by batch."""
    out = [net(mx.nd.array(x[i:i + batch_size])).asnumpy() for i in range(0, len(x), batch_size)]
    return np.concatenate(out)


def main(argv=None):
    """Runs the demo; returns the process exit status (0 on success)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--out", default=None, help="output folder (default: a new temporary folder)")
    parser.add_argument("--min-accuracy", type=float, default=0.97, help="fail below this test accuracy (0: off)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--no-progress", action="store_true", help="plain lines instead of a progress bar")
    args = parser.parse_args(argv)

    start = time.time()
    np.random.seed(args.seed)       # DataLoader's shuffling
    mx.random.seed(args.seed)       # parameter initialization
    out_dir = args.out or tempfile.mkdtemp(prefix="weft-digits-")
    os.makedirs(out_dir, exist_ok=True)

    try:
        x_train, y_train, x_test, y_test = load_digits_split()
    except ImportError:
        print("this demo needs scikit-learn for its bundled digits: pip install scikit-learn", file=sys.stderr)
        return 2
    print("digits: %d training and %d test images of 8x8" % (len(x_train), len(x_test)))
    train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(x_train, y_train), batch_size=args.batch_size,
                                       shuffle=True)
    test_data = gluon.data.DataLoader(gluon.data.ArrayDataset(x_test, y_test), batch_size=256)

    net = build_net()
    net.initialize(mx.init.Xavier())
    net.hybridize()
    schedule = mx.lr_scheduler.CosineScheduler(max_update=args.epochs * len(train_data), base_lr=args.lr,
                                               final_lr=args.lr / 100)
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": args.lr, "lr_scheduler": schedule})
    est = Estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss(), train_metrics=mx.metric.Accuracy(),
                    trainer=trainer)
    checkpoints = CheckpointHandler(out_dir, model_prefix="digits", max_checkpoints=2)
    est.fit(train_data, val_data=test_data, epochs=args.epochs,
            event_handlers=[checkpoints, LoggingHandler(progress_bar=False if args.no_progress else None)])

    scores = predict(net, x_test)
    accuracy = float((scores.argmax(axis=1) == y_test).mean())

    # export, reload as a SymbolBlock and compare
    prefix = os.path.join(out_dir, "digits")
    net.export(prefix, epoch=args.epochs)
    loaded = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], "%s-%04d.params" % (prefix, args.epochs))
    reloaded = predict(loaded, x_test)
    same = bool(np.array_equal(scores.argmax(axis=1), reloaded.argmax(axis=1)))
    max_diff = float(np.abs(scores - reloaded).max())

    curves = est.plot_history(os.path.join(out_dir, "digits-curves.png"))
    print("exported %s-symbol.json and %s-%04d.params" % (prefix, prefix, args.epochs))
    print("reloaded with SymbolBlock.imports: predictions %s (largest score difference %.2g)"
          % ("identical" if same else "DIFFER", max_diff))
    if curves:
        print("training curves: %s" % curves)
    print("test accuracy: %.4f (%d/%d) in %.1f s" % (accuracy, round(accuracy * len(y_test)), len(y_test),
                                                       time.time() - start))
    if not same:
        print("FAILED: the reloaded model predicts differently", file=sys.stderr)
        return 1
    if accuracy < args.min_accuracy:
        print("FAILED: test accuracy %.4f < %.2f" % (accuracy, args.min_accuracy), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
