"""A rank of tests/python/test_kvstore_allreduce.py: trains an MLP and a small
CNN, each with a Gluon Trainer and with a raw pushpull loop, and an MLP with
weft.mod.Module, and writes every rank's final weights to
OUT_DIR/<model>_<loop>.rank<R>.npz.

The data are the same everywhere; each global batch of --global-batch rows is
split evenly over the ranks and every update uses the global batch size, so
any number of ranks must reach the weights of one process on the whole batch.
Each rank initialises its network from a different seed: only rank 0's values
survive (init broadcasts them), so a missing broadcast fails the comparison.
Run as one process with --kvstore local it writes the reference.
"""
import argparse
import os

import numpy as np

import weft as mx
from weft import autograd, gluon


def build(model, seed):
    mx.random.seed(seed)
    net = gluon.nn.HybridSequential()
    if model == "mlp":
        net.add(gluon.nn.Dense(16, activation="relu", in_units=6), gluon.nn.Dense(16, activation="tanh", in_units=16),
                gluon.nn.Dense(3, in_units=16))
    else:
        net.add(gluon.nn.Conv2D(4, 3, in_channels=1, activation="relu"), gluon.nn.MaxPool2D(2),
                gluon.nn.Conv2D(6, 3, in_channels=4, padding=1, activation="relu"), gluon.nn.Flatten(),
                gluon.nn.Dense(3, in_units=6 * 3 * 3))
    net.initialize(mx.init.Xavier())
    return net


def make_data(model, rows):
    rng = np.random.RandomState(0)
    shape = (rows, 6) if model == "mlp" else (rows, 1, 8, 8)
    x = rng.randn(*shape).astype(np.float32)
    y = rng.randint(0, 3, size=rows).astype(np.float32)
    return x, y


def train(kind, model, loop, steps, global_batch):
    kv = mx.kv.create(kind)  # a store per run: the Trainer's keys are 0, 1, ... each time
    rank, nranks = kv.rank, kv.num_workers
    net = build(model, seed=1 + rank)
    params = [net.collect_params()[k] for k in sorted(net.collect_params().keys())]
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    x_all, y_all = make_data(model, steps * global_batch)
    per_rank = global_batch // nranks
    lr = 0.1
    if loop == "trainer":
        trainer = gluon.Trainer(params, "sgd", {"learning_rate": lr, "momentum": 0.9}, kvstore=kv)
    else:
        keys = list(range(len(params)))
        kv.init(keys, [p.data() for p in params])
        kv.pull(keys, out=[p.data() for p in params])  # rank 0's initial weights everywhere
    for step in range(steps):
        base = step * global_batch + rank * per_rank
        x = mx.nd.array(x_all[base:base + per_rank])
        y = mx.nd.array(y_all[base:base + per_rank])
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        if loop == "trainer":
            trainer.step(global_batch)
        else:
            grads = [p.grad() for p in params]
            kv.pushpull(keys, grads, out=grads)
            for p, g in zip(params, grads):
                p.set_data(p.data() - (lr / global_batch) * g)
    weights = {p.name: p.data().asnumpy() for p in params}
    kv.close()
    return rank, weights


def train_module(kind, steps, global_batch):
    """weft.mod.Module on the MLP's symbol: init_optimizer(kvstore=...) with the store."""
    kv = mx.kv.create(kind)
    rank, nranks = kv.rank, kv.num_workers
    per_rank = global_batch // nranks
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc2")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    mod = mx.mod.Module(net, data_names=["data"], label_names=["softmax_label"], context=mx.cpu())
    mod.bind(data_shapes=[("data", (per_rank, 6))], label_shapes=[("softmax_label", (per_rank,))])
    mx.random.seed(1 + rank)  # only rank 0's initial values may survive
    mod.init_params(mx.init.Xavier())
    mod.init_optimizer(kvstore=kv if kind == "allreduce" else "local", optimizer="sgd",
                       optimizer_params={"learning_rate": 0.1, "rescale_grad": 1.0 / global_batch})
    x_all, y_all = make_data("mlp", steps * global_batch)
    for step in range(steps):
        base = step * global_batch + rank * per_rank
        batch = mx.io.DataBatch(data=[mx.nd.array(x_all[base:base + per_rank])],
                                label=[mx.nd.array(y_all[base:base + per_rank])])
        mod.forward_backward(batch)
        mod.update()
    arg, _ = mod.get_params()
    weights = {k: v.asnumpy() for k, v in arg.items()}
    kv.close()
    return rank, weights


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kvstore", default="allreduce")
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--global-batch", type=int, default=8)
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    for model in ("mlp", "cnn"):
        for loop in ("trainer", "pushpull"):
            rank, weights = train(args.kvstore, model, loop, args.steps, args.global_batch)
            np.savez(os.path.join(args.out_dir, "%s_%s.rank%d.npz" % (model, loop, rank)), **weights)
    rank, weights = train_module(args.kvstore, args.steps, args.global_batch)
    np.savez(os.path.join(args.out_dir, "mlp_module.rank%d.npz" % rank), **weights)
    kv = mx.kv.create(args.kvstore)
    kv.barrier()
    print("rank %d of %d ok" % (kv.rank, kv.num_workers), flush=True)


if __name__ == "__main__":
    main()
