"""d2l's LeNet (chapter 7.6, "Dive into Deep Learning", MXNet edition) in NumPy mode,
with the book's code and only the import changed.

    python examples/d2l_lenet_np.py [--epochs N] [--batch-size B] [--lr LR] [--no-hybridize]
                                    [--synthetic N] [--workers W] [--data-dir DIR]

It reads Fashion-MNIST from DIR, by default MXNet's folder ($MXNET_HOME, else
~/.mxnet, then datasets/fashion-mnist: the four gzip idx files its download
leaves, which an offline user can place by hand). Without them, or with --synthetic N, it trains on
N generated Fashion-MNIST-shaped images (28x28 uint8, 10 classes, each class a
different bright band, so the net has something to learn). A text progress bar
shows each epoch; the last line gives the loss, the train and test accuracy and
the examples per second. ``main(argv)`` runs it from Python and returns the
final (loss, train accuracy, test accuracy) (the tests run a short version).
"""
import argparse
import os
import sys
import time

import numpy as onp

try:
    import weft  # noqa: F401
except ImportError:  # run from a source checkout without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "bindings", "python"))
from weft import autograd, gluon, init, np, npx  # the book's import, with weft for mxnet
from weft.gluon import nn
from weft.gluon.data.vision import datasets

npx.set_np()


def lenet(hybrid):
    """The book's LeNet, verbatim (as a HybridSequential when it is to be hybridized)."""
    net = nn.HybridSequential() if hybrid else nn.Sequential()
    net.add(nn.Conv2D(channels=6, kernel_size=5, padding=2, activation="sigmoid"),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=5, activation="sigmoid"),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Dense(120, activation="sigmoid"),
            nn.Dense(84, activation="sigmoid"),
            nn.Dense(10))
    return net


def synthetic_fashion_mnist(n, seed):
    """n images shaped like Fashion-MNIST's, with labels a net can learn."""
    rng = onp.random.RandomState(seed)
    labels = rng.randint(0, 10, n).astype("int32")
    images = rng.randint(0, 80, (n, 28, 28, 1)).astype("uint8")
    for k, lab in enumerate(labels):
        images[k, 2 + 2 * lab:6 + 2 * lab, :, 0] += 170
    return gluon.data.ArrayDataset(np.array(images, dtype="uint8"), labels)


def load_data_fashion_mnist(batch_size, synthetic, workers, root=None):
    """d2l.load_data_fashion_mnist; generated data when asked or when the files are absent."""
    trans = gluon.data.vision.transforms.ToTensor()
    try:
        if synthetic:
            raise FileNotFoundError("synthetic data asked for")
        where = {} if root is None else {"root": root}
        train, test = datasets.FashionMNIST(train=True, **where), datasets.FashionMNIST(train=False, **where)
        source = "Fashion-MNIST files"
    except (OSError, FileNotFoundError):
        n = synthetic or 2048
        train, test = synthetic_fashion_mnist(n, 0), synthetic_fashion_mnist(max(n // 4, 64), 1)
        source = "%d generated Fashion-MNIST-shaped images" % n
    return (gluon.data.DataLoader(train.transform_first(trans), batch_size, shuffle=True, num_workers=workers),
            gluon.data.DataLoader(test.transform_first(trans), batch_size, shuffle=False, num_workers=workers),
            source)


def accuracy(y_hat, y):
    """d2l.accuracy: the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.astype(y.dtype) == y
    return float(cmp.astype(y.dtype).sum())


def evaluate_accuracy(net, data_iter):
    correct = total = 0.0
    for X, y in data_iter:
        correct += accuracy(net(X), y)
        total += y.size
    return correct / total


def progress(epoch, epochs, done, count, text=""):
    width = 30
    filled = int(width * done / max(count, 1))
    sys.stdout.write("\repoch %d/%d [%s%s] %d/%d %s" % (epoch + 1, epochs, "=" * filled, " " * (width - filled),
                                                      done, count, text))
    sys.stdout.flush()


def train_ch6(net, train_iter, test_iter, num_epochs, lr):
    """d2l.train_ch6 with a progress bar instead of the animator."""
    net.initialize(force_reinit=True, init=init.Xavier())
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": lr})
    count = len(train_iter)
    for epoch in range(num_epochs):
        total_loss = correct = seen = 0.0
        start = time.time()
        for i, (X, y) in enumerate(train_iter):
            with autograd.record():
                y_hat = net(X)
                l = loss(y_hat, y)
            l.backward()
            trainer.step(X.shape[0])
            total_loss += float(l.sum())
            correct += accuracy(y_hat, y)
            seen += y.size
            progress(epoch, num_epochs, i + 1, count, "loss %.3f" % (total_loss / seen))
        speed = seen / (time.time() - start)
        test_acc = evaluate_accuracy(net, test_iter)
        progress(epoch, num_epochs, count, count, "loss %.3f, train acc %.3f, test acc %.3f, %.0f examples/sec\n"
                 % (total_loss / seen, correct / seen, test_acc, speed))
    return total_loss / seen, correct / seen, test_acc


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.9)
    parser.add_argument("--no-hybridize", action="store_true")
    parser.add_argument("--synthetic", type=int, default=0, help="train on N generated images")
    parser.add_argument("--workers", type=int, default=0, help="DataLoader worker processes")
    parser.add_argument("--data-dir", default=None, help="the folder of the Fashion-MNIST files")
    args = parser.parse_args(argv)
    npx.random.seed(0)
    train_iter, test_iter, source = load_data_fashion_mnist(args.batch_size, args.synthetic, args.workers,
                                                           args.data_dir)
    print("LeNet in NumPy mode on %s (%s)" % (source, "imperative" if args.no_hybridize else "hybridized"))
    net = lenet(not args.no_hybridize)
    if not args.no_hybridize:
        net.hybridize()
    return train_ch6(net, train_iter, test_iter, args.epochs, args.lr)


if __name__ == "__main__":
    main()
