"""MXNet 1.x's Module API end to end: train the small CNN of digits_demo.py, written
as a Symbol, with ``mx.mod.Module.fit`` on scikit-learn's bundled 8x8 digits,
checkpoint it with ``mx.callback.do_checkpoint``, reload it with
``mx.mod.Module.load`` and check the reloaded model predicts the same classes.

    python examples/module_digits.py [--epochs N] [--net cnn|mlp] [--out DIR] [--min-accuracy A] [--contexts K]

Same data split as digits_demo.py (every 5th image of each class is a test
image), same optimizer (Adam, cosine schedule from 0.003), batches from
``mx.io.NDArrayIter`` (shuffled each epoch), seeded, so the run is reproducible. ``--contexts 2`` trains data-parallel on cpu(0) and cpu(1).
Exits 1 when the test accuracy is below --min-accuracy or the reloaded model
disagrees, 2 without scikit-learn. ``main(argv)`` returns the test accuracy
(tests/python/test_module_digits.py runs it).
"""
import argparse
import logging
import os
import sys
import tempfile

import numpy as np

try:
    import weft as mx
except ImportError:  # run from a source checkout without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "bindings", "python"))
    import weft as mx

SEED = 42


def load_digits_split():
    """(x_train, y_train, x_test, y_test): images as float32 (N, 1, 8, 8) in [0, 1]."""
    from sklearn.datasets import load_digits  # pylint: disable=import-outside-toplevel
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None, :, :]
    y = digits.target.astype(np.float32)
    test = np.zeros(len(y), dtype=bool)
    for c in range(10):
        test[np.flatnonzero(y == c)[::5]] = True
    return x[~test], y[~test], x[test], y[test]


def build_symbol(kind="cnn"):
    """The Gluon demo's CNN, or ("mlp") one hidden layer of 512 (FullyConnected flattens the images)."""
    data = mx.sym.var("data")
    if kind == "mlp":
        net = mx.sym.FullyConnected(data, num_hidden=512, name="fc1")
        net = mx.sym.Activation(net, act_type="relu", name="relu1")
        net = mx.sym.FullyConnected(net, num_hidden=10, name="fc2")
        return mx.sym.SoftmaxOutput(net, name="softmax")
    net = data
    for i, filters in enumerate((32, 64), start=1):
        net = mx.sym.Convolution(net, num_filter=filters, kernel=(3, 3), pad=(1, 1), name="conv%d" % i)
        net = mx.sym.Activation(net, act_type="relu", name="relu%d" % i)
        net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool%d" % i)
    net = mx.sym.Flatten(net, name="flatten")
    net = mx.sym.FullyConnected(net, num_hidden=128, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu3")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--contexts", type=int, default=1)
    parser.add_argument("--net", choices=("cnn", "mlp"), default="cnn",
                        help="cnn: the Gluon demo's network; mlp: a faster one-hidden-layer network")
    parser.add_argument("--out", default=None, help="folder for the checkpoints (default: a temporary one)")
    parser.add_argument("--min-accuracy", type=float, default=0.97)
    args = parser.parse_args(argv)
    try:
        x_train, y_train, x_test, y_test = load_digits_split()
    except ImportError:
        print("module_digits: needs scikit-learn (pip install scikit-learn)", file=sys.stderr)
        sys.exit(2)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    mx.random.seed(SEED)
    np.random.seed(SEED)
    # NDArrayIter's defaults as MXNet's: the last batch is padded, and predict drops the padding
    train = mx.io.NDArrayIter(x_train, y_train, args.batch_size, shuffle=True)
    test = mx.io.NDArrayIter(x_test, y_test, args.batch_size)
    batches_per_epoch = -(-len(x_train) // args.batch_size)
    schedule = mx.lr_scheduler.CosineScheduler(max_update=args.epochs * batches_per_epoch, base_lr=args.lr,
                                               final_lr=args.lr / 100)
    out = args.out or tempfile.mkdtemp(prefix="weft-module-digits-")
    prefix = os.path.join(out, "digits")
    mod = mx.mod.Module(build_symbol(args.net), context=[mx.cpu(i) for i in range(args.contexts)])
    mod.fit(train, eval_data=test, eval_metric="acc", num_epoch=args.epochs, optimizer="adam",
            optimizer_params={"learning_rate": args.lr, "lr_scheduler": schedule}, initializer=mx.init.Xavier(),
            batch_end_callback=mx.callback.Speedometer(args.batch_size, 20),
            epoch_end_callback=mx.callback.do_checkpoint(prefix, period=args.epochs))
    # predict drops the padding of the last batch, so this is the accuracy over the test images exactly
    classes = mod.predict(test).asnumpy().argmax(axis=1)
    accuracy = float((classes == y_test).mean())
    reloaded = mx.mod.Module.load(prefix, args.epochs)
    reloaded.bind(data_shapes=test.provide_data, label_shapes=test.provide_label, for_training=False)
    same = bool((reloaded.predict(test).asnumpy().argmax(axis=1) == classes).all())
    print("test accuracy %.4f over %d images; checkpoint %s-%04d.params reloaded: %s"
          % (accuracy, len(y_test), prefix, args.epochs, "same predictions" if same else "DIFFERENT predictions"))
    if accuracy < args.min_accuracy or not same:
        sys.exit(1)
    return accuracy


if __name__ == "__main__":
    main()
