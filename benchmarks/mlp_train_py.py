"""Python side of benchmarks/r_vs_python.sh: writes the shared dataset, or
trains the benchmark MLP on it and prints the training time in seconds: wall
clock and CPU (all threads of the process), each the fastest of --repeat runs."""
import argparse
import os
import time

import numpy as np

N, FEATURES, CLASSES, BATCH = 10000, 100, 10, 100


def make_data(folder):
    rng = np.random.RandomState(0)
    centers = rng.normal(size=(CLASSES, FEATURES)).astype(np.float32)
    y = rng.randint(0, CLASSES, size=N)
    x = (centers[y] + rng.normal(scale=2.0, size=(N, FEATURES))).astype(np.float32)
    x.astype("<f4").tofile(os.path.join(folder, "x.bin"))  # C order (N, FEATURES)
    y.astype("<f4").tofile(os.path.join(folder, "y.bin"))


def mlp(mx):
    net = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=128, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.FullyConnected(net, num_hidden=64, name="fc2")
    net = mx.sym.Activation(net, act_type="relu", name="relu2")
    net = mx.sym.FullyConnected(net, num_hidden=CLASSES, name="fc3")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def train_executor(mx, x, y, epochs):
    """The loop weft.model.FeedForward.create runs, written in Python."""
    exe = mlp(mx).simple_bind(mx.cpu(), grad_req="write", data=(BATCH, FEATURES))
    params = [n for n in exe.arg_dict if n not in ("data", "softmax_label")]
    init = mx.init.Xavier()
    for name in params:
        init(mx.init.InitDesc(name), exe.arg_dict[name])
    moms = {n: mx.nd.zeros(exe.arg_dict[n].shape) for n in params}
    data_all, label_all = mx.nd.array(x), mx.nd.array(y)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(epochs):
        for b in range(N // BATCH):
            data_all[b * BATCH:(b + 1) * BATCH].copyto(exe.arg_dict["data"])
            label_all[b * BATCH:(b + 1) * BATCH].copyto(exe.arg_dict["softmax_label"])
            exe.forward(is_train=True)
            exe.backward()
            for name in params:
                mx.nd.sgd_mom_update(exe.arg_dict[name], exe.grad_dict[name], moms[name], out=exe.arg_dict[name],
                                     lr=0.05, momentum=0.9, rescale_grad=1.0 / BATCH)
    mx.nd.waitall()
    return time.perf_counter() - start, time.process_time() - cpu


def train_gluon(mx, x, y, epochs):
    from weft import autograd, gluon
    from weft.gluon import nn
    net = nn.HybridSequential()
    net.add(nn.Dense(128, activation="relu"), nn.Dense(64, activation="relu"), nn.Dense(CLASSES))
    net.initialize(mx.init.Xavier())
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.05, "momentum": 0.9})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    data_all, label_all = mx.nd.array(x), mx.nd.array(y)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(epochs):
        for b in range(N // BATCH):
            with autograd.record():
                loss = loss_fn(net(data_all[b * BATCH:(b + 1) * BATCH]), label_all[b * BATCH:(b + 1) * BATCH])
            loss.backward()
            trainer.step(BATCH)
    mx.nd.waitall()
    return time.perf_counter() - start, time.process_time() - cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--make-data")
    ap.add_argument("--data")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--mode", choices=["executor", "gluon"], default="executor")
    ap.add_argument("--repeat", type=int, default=3, help="report the fastest of this many runs")
    a = ap.parse_args()
    if a.make_data:
        make_data(a.make_data)
        return
    import weft as mx
    mx.random.seed(0)
    x = np.fromfile(os.path.join(a.data, "x.bin"), dtype="<f4").reshape(N, FEATURES)
    y = np.fromfile(os.path.join(a.data, "y.bin"), dtype="<f4")
    train = train_executor if a.mode == "executor" else train_gluon
    runs = [train(mx, x, y, a.epochs) for _ in range(a.repeat)]
    print("%.4f %.4f" % (min(r[0] for r in runs), min(r[1] for r in runs)))


if __name__ == "__main__":
    main()
