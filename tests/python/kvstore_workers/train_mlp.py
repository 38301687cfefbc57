"""A worker of tests/python/test_kvstore_dist.py: trains a small MLP with a Gluon
Trainer on a fixed data set and writes the final weights (rank 0) to --out.

The data set is the same everywhere; each global batch of --global-batch rows
is split evenly over the workers (and, with --devices > 1, over the devices of
a worker), and every step is trainer.step(global batch). So any number of
workers must reach the weights of one process on the whole batch.
Run without a launcher (kvstore 'local', one device) it is that reference.
"""
import argparse

import numpy as np

import weft as mx
from weft import autograd, gluon


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kvstore", default="local")
    p.add_argument("--optimizer", default="sgd")
    p.add_argument("--update-on-kvstore", choices=("auto", "yes", "no"), default="auto")
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--global-batch", type=int, default=8)
    p.add_argument("--devices", type=int, default=1)
    p.add_argument("--out", default=None)
    p.add_argument("--forever", action="store_true", help="train until killed (fault tests)")
    args = p.parse_args()

    kv = mx.kv.create(args.kvstore)
    rank, nworkers = kv.rank, kv.num_workers
    ctxs = [mx.cpu(i) for i in range(args.devices)]
    mx.random.seed(1)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(8, activation="relu", in_units=5), gluon.nn.Dense(1, in_units=8))
    net.initialize(mx.init.Xavier(), ctx=ctxs)
    opt_params = {"learning_rate": 0.05}
    if args.optimizer == "sgd":
        opt_params["momentum"] = args.momentum
    update = {"auto": None, "yes": True, "no": False}[args.update_on_kvstore]
    trainer = gluon.Trainer(net.collect_params(), args.optimizer, opt_params, kvstore=kv, update_on_kvstore=update)
    loss_fn = gluon.loss.L2Loss()

    rng = np.random.RandomState(0)
    true_w = rng.randn(5, 1)
    x_all = rng.randn(args.steps * args.global_batch, 5).astype(np.float32)
    y_all = (x_all @ true_w + 0.1 * rng.randn(len(x_all), 1)).astype(np.float32)
    per_worker = args.global_batch // nworkers

    def full_loss():
        preds = net(mx.nd.array(x_all, ctx=ctxs[0]))
        return float(loss_fn(preds, mx.nd.array(y_all, ctx=ctxs[0])).mean().asscalar())

    start_loss = full_loss()
    step = 0
    print("worker %d ready" % rank, flush=True)
    while step < args.steps or args.forever:
        base = (step % args.steps) * args.global_batch + rank * per_worker
        x = mx.nd.array(x_all[base:base + per_worker])
        y = mx.nd.array(y_all[base:base + per_worker])
        xs = gluon.utils.split_and_load(x, ctxs)
        ys = gluon.utils.split_and_load(y, ctxs)
        with autograd.record():
            losses = [loss_fn(net(xi), yi) for xi, yi in zip(xs, ys)]
        for loss in losses:
            loss.backward()
        trainer.step(args.global_batch)
        step += 1
    if kv.type.startswith("dist") and trainer._update_on_kvstore:  # pylint: disable=protected-access
        # every worker ends on the servers' final weights (async workers stop at different
        # times); without update_on_kvstore the servers hold gradient sums instead
        kv.barrier()
        for i, prm in enumerate(trainer._params):  # pylint: disable=protected-access
            kv.pull(i, prm.list_data())
    params = {name: prm.data(ctxs[0]).asnumpy() for name, prm in net.collect_params().items()}
    if args.out and rank == 0:
        np.savez(args.out, **params)
    print("worker %d done after %d steps: loss %.6f -> %.6f" % (rank, step, start_loss, full_loss()), flush=True)


if __name__ == "__main__":
    main()
