"""Key-value stores for data-parallel training (MXNet 1.x's ``mx.kv``).

``weft.kv.create(name)`` with name

* ``'local'`` / ``'device'`` -- one process, several devices (level 1): pushed
  values are summed across devices, then the updater runs; ``'local'`` keeps
  weights on cpu(0), ``'device'`` on the device of the initial value;
* ``'dist_sync'``, ``'dist_async'``, ``'dist_device_sync'`` -- parameter
  servers over ZeroMQ (level 2), in processes started by
  ``python -m weft.launch -n WORKERS -s SERVERS -- python train.py``.
* ``'allreduce'`` -- no servers: every worker keeps the weights and the
  gradients are summed over the workers with MPI collectives (system Open
  MPI through the plugin libweft_mpi.so, loaded when the store is made), in
  a job started by ``mpirun -np N python train.py`` (or ``python -m
  weft.launch --launcher mpi -n N -s 0 -- python train.py``; ``srun`` with
  PMIx). Rank and world size are MPI's; init broadcasts rank 0's values.
  WEFT_ALLREDUCE_BUCKET_BYTES (default 4 MiB) sets the fusion bucket,
  WEFT_ALLREDUCE_TIMEOUT (seconds, default 300) how long a collective may
  wait before the job is aborted on every rank.

Environment (set by the launcher; MXNet's DMLC_* names work too): WEFT_ROLE,
WEFT_PS_ROOT_URI, WEFT_PS_ROOT_PORT, WEFT_NUM_WORKER, WEFT_NUM_SERVER;
WEFT_PS_TIMEOUT (seconds before a silent node counts as dead and the whole job
stops with an error, default 60), WEFT_NODE_HOST (the address a node
advertises), WEFT_NODE_PORT (a server's port), WEFT_PS_MAX_MESSAGE_BYTES,
WEFT_KVSTORE_BIGARRAY_BOUND (core/kvstore/ps_config.h).

Roles. The launcher runs the scheduler and the servers as
``python -m weft.kvstore.server`` (WEFT_ROLE=scheduler / server). As in MXNet,
importing weft in a process whose WEFT_ROLE (or DMLC_ROLE) is ``server`` or
``scheduler`` also runs that node and exits when the job ends, so a launcher
that starts the user's script for every role works as well. Under mpirun,
srun or a Kubernetes Indexed Job with WEFT_NUM_SERVER set and no WEFT_ROLE,
the role comes from the rank (weft.cluster_env): rank 0 the scheduler, the
next WEFT_NUM_SERVER ranks the servers, the rest workers.
"""
from .kvstore import KVStore, create
from .server import run_node_if_requested as _run_node_if_requested
from ..cluster_env import assign_roles as _assign_roles

__all__ = ["KVStore", "create"]

_assign_roles()  # under mpirun / srun / an Indexed Job with WEFT_NUM_SERVER set: the PS role from the rank
_run_node_if_requested()
