"""The scheduler / server node of a distributed job: ``python -m weft.kvstore.server``
with WEFT_ROLE=scheduler or server (and the other WEFT_* variables that
``weft.launch`` sets). Exits 0 when the job ends normally, 1 when a node died.
"""
import os
import sys

from ..base import check_call, ffi, lib

__all__ = ["role", "run_node", "run_node_if_requested"]


def role():
    """'worker', 'server', 'scheduler', or '' outside a launched job."""
    out = ffi.new("const char**")
    check_call(lib.weft_kvstore_role(out))
    return ffi.string(out[0]).decode()


def run_node():
    """Runs this process's scheduler or server until the job ends; returns the exit status."""
    status = ffi.new("int*")
    check_call(lib.weft_kvstore_run_node(status))
    return status[0]


def run_node_if_requested():
    """MXNet's behaviour: a server or scheduler process that imports weft runs its node and exits."""
    if (os.environ.get("WEFT_ROLE") or os.environ.get("DMLC_ROLE")) not in ("server", "scheduler"):
        return  # the usual case: no C call at import
    if role() in ("server", "scheduler"):
        sys.stdout.flush()
        sys.exit(run_node())


if __name__ == "__main__":
    # Reached only when WEFT_ROLE is unset or "worker" (otherwise importing weft ran the node).
    sys.stderr.write("weft.kvstore.server: WEFT_ROLE must be 'server' or 'scheduler' (got %r); "
                     "start jobs with python -m weft.launch\n" % (role() or None))
    sys.exit(2)
