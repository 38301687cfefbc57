"""A rank of tests/python/test_kvstore_allreduce.py's fault tests.

--mode kill   trains with pushpull; rank 1 kills itself (SIGKILL) at step 3
--mode hang   rank 1 stops calling collectives (sleeps); the others must time out
--mode model  rank 1's second parameter has another shape
--mode size   rank 1 was started for 3 workers (WEFT_NUM_WORKER=3)
The refusals are printed as "refused: <message>" (the script goes on to exit 0).
"""
import argparse
import os
import signal
import time

import weft as mx
from weft.base import InvalidArgumentError


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True, choices=("kill", "hang", "model", "size"))
    args = ap.parse_args()
    world_rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
    if args.mode == "size" and world_rank == 1:
        os.environ["WEFT_NUM_WORKER"] = "3"
    try:
        kv = mx.kv.create("allreduce")
        shapes = [(4, 3), (5,) if (args.mode == "model" and kv.rank == 1) else (4,)]
        kv.init([0, 1], [mx.nd.ones(s) for s in shapes])
    except InvalidArgumentError as exc:
        print("refused: %s" % exc, flush=True)
        return
    grads = [mx.nd.ones(s) for s in shapes]
    for step in range(1000):
        if step == 3 and kv.rank == 1:
            if args.mode == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            if args.mode == "hang":
                print("rank 1 stops calling collectives", flush=True)
                time.sleep(600)
        kv.pushpull([0, 1], grads, out=grads)
        grads[0].wait_to_read()
        print("rank %d step %d" % (kv.rank, step), flush=True)
        time.sleep(0.05)


if __name__ == "__main__":
    main()
