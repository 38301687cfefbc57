"""A worker of tests/python/test_kvstore_dist.py exercising the KVStore API of a
dist store directly (run under weft.launch). With --go FILE it waits, after the
first round, until FILE exists (the test meanwhile sends bad messages to the
server) and then checks that the server still answers correctly."""
import argparse
import os
import time

import numpy as np

import weft as mx


def check(cond, what):
    if not cond:
        raise SystemExit("api_worker: check failed: " + what)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--type", default="dist_sync")
    p.add_argument("--go", default=None)
    args = p.parse_args()
    kv = mx.kv.create(args.type)
    rank, n = kv.rank, kv.num_workers
    check(kv.type == args.type, "type")
    expected_total = n * (n + 1) / 2  # sum of (rank + 1)

    # str keys, a small and a big key (split across servers when the bound is small)
    kv.init("small", mx.nd.ones((4, 5)))
    kv.init("big", mx.nd.zeros((3001,)))
    out = mx.nd.zeros((4, 5))
    kv.pull("small", out=out)
    check(np.all(out.asnumpy() == 1), "init value pulled")

    # push from two devices per worker: summed locally, then across workers
    kv.push("small", [mx.nd.ones((4, 5), ctx=mx.cpu(0)) * (rank + 1), mx.nd.ones((4, 5), ctx=mx.cpu(1))])
    outs = [mx.nd.zeros((4, 5), ctx=mx.cpu(0)), mx.nd.zeros((4, 5), ctx=mx.cpu(1))]
    kv.pull("small", out=outs)
    for o in outs:
        check(np.allclose(o.asnumpy(), expected_total + n), "sum of pushes: %s" % o.asnumpy()[0, 0])

    big = mx.nd.arange(3001) * (rank + 1)
    kv.pushpull("big", big)
    check(np.allclose(big.asnumpy(), np.arange(3001) * expected_total), "big key pushpull")

    # the optimizer runs on the servers
    kv.set_optimizer(mx.optimizer.create("sgd", learning_rate=0.5))
    kv.push("small", mx.nd.ones((4, 5)))
    kv.pull("small", out=out)
    check(np.allclose(out.asnumpy(), expected_total + n - 0.5 * n), "sgd on the servers")

    try:
        kv.push("small", mx.nd.ones((2, 2)))
        check(False, "a wrong shape must fail")
    except mx.ShapeError as exc:
        check("key 'small'" in str(exc), "the error names the key: %s" % exc)

    kv.barrier()
    print("worker %d ready" % rank, flush=True)
    if args.go:
        deadline = time.time() + 60
        while not os.path.exists(args.go):
            check(time.time() < deadline, "the test never created %s" % args.go)
            time.sleep(0.05)
        before = out.asnumpy().copy()
        kv.push("small", mx.nd.ones((4, 5)))
        kv.pull("small", out=out)
        check(np.allclose(out.asnumpy(), before - 0.5 * n), "the server still serves after bad input")
    kv.barrier()
    print("worker %d ok" % rank, flush=True)


if __name__ == "__main__":
    main()
