"""The thread budget (Note [Thread budget] in core/base/thread_budget.cc, issue 38): what the
library decides with no thread variable set, how the user's variables override it, and the
OpenMP wait policy the binding gives libgomp (Note [OpenMP wait policy] in weft/base.py). Each
case runs a fresh interpreter, since the budget is decided once per process."""
import json
import os
import subprocess
import sys

import pytest

from weft import runtime

# Every variable the budget or libgomp reads: a case starts from none of them.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "WEFT_OMP_THREADS", "WEFT_CPU_WORKER_NTHREADS", "OPENBLAS_NUM_THREADS",
                    "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OMP_DISPLAY_ENV")

_PROBE = """
import json
import weft as mx
from weft import runtime
a = mx.nd.ones((64, 64))
mx.nd.dot(a, a).wait_to_read()  # the BLAS and the engine have run
out = runtime.thread_budget()
out["blas_info_threads"] = runtime.blas_info()["threads"]
print(json.dumps(out))
"""


def _run(extra_env=None, cpus=None, code=_PROBE):
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    env.update(extra_env or {})
    preexec = (lambda: os.sched_setaffinity(0, cpus)) if cpus is not None else None
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300,
                         preexec_fn=preexec, check=False)
    assert out.returncode == 0, out.stderr
    return out


def _budget(extra_env=None, cpus=None):
    return json.loads(_run(extra_env, cpus).stdout.strip().splitlines()[-1])


def test_out_of_the_box_one_worker_with_a_team_of_all_but_one_cpu():
    b = _budget()
    assert 1 <= b["usable_cpus"] <= len(os.sched_getaffinity(0))
    assert b["cpu_workers"] == 1 and b["cpu_workers_from"] == "budget"
    assert b["kernel_threads"] == max(1, b["usable_cpus"] - 1) and b["kernel_threads_from"] == "budget"
    assert b["cpu_workers"] * b["kernel_threads"] <= b["usable_cpus"]
    assert b["blas_threads"] == b["kernel_threads"] == b["blas_info_threads"]
    assert b["wait_policy"] == "OMP_WAIT_POLICY=PASSIVE"


def test_the_affinity_mask_caps_the_budget():
    b = _budget(cpus={min(os.sched_getaffinity(0))})
    assert b["usable_cpus"] == 1 and b["kernel_threads"] == 1 and b["cpu_workers"] == 1


def test_omp_num_threads_overrides_the_team_and_the_blas():
    b = _budget({"OMP_NUM_THREADS": "1"})
    assert b["kernel_threads"] == 1 and b["kernel_threads_from"] == "OMP_NUM_THREADS"
    assert b["blas_threads"] == 1 == b["blas_info_threads"]
    b = _budget({"OMP_NUM_THREADS": "3"})  # more than the CPUs, if the user says so
    assert b["kernel_threads"] == 3


def test_weft_variables_win():
    b = _budget({"OMP_NUM_THREADS": "3", "WEFT_OMP_THREADS": "1", "WEFT_CPU_WORKER_NTHREADS": "2",
                 "OPENBLAS_NUM_THREADS": "2"})
    assert (b["kernel_threads"], b["kernel_threads_from"]) == (1, "WEFT_OMP_THREADS")
    assert (b["cpu_workers"], b["cpu_workers_from"]) == (2, "WEFT_CPU_WORKER_NTHREADS")
    assert (b["blas_threads"], b["blas_threads_from"]) == (2, "OPENBLAS_NUM_THREADS") and b["blas_info_threads"] == 2


def test_workers_alone_share_the_cpus():
    b = _budget({"WEFT_CPU_WORKER_NTHREADS": "2"})
    assert b["cpu_workers"] == 2 and b["kernel_threads"] == max(1, (b["usable_cpus"] - 1) // 2)


def test_a_bad_value_is_ignored():
    b = _budget({"OMP_NUM_THREADS": "lots", "WEFT_CPU_WORKER_NTHREADS": "0"})
    assert b["kernel_threads_from"] == "budget" and b["cpu_workers"] == 1


def test_libgomp_starts_passive_unless_the_user_chose():
    # OMP_DISPLAY_ENV makes libgomp print the policy it read, in its constructor: proof
    # that the variable was set before libgomp initialised, not only reported.
    if not runtime.Features().is_enabled("OPENMP"):
        pytest.skip("this build has no OpenMP (the dependency-free build): no libgomp to configure")
    code = "import weft"
    out = _run({"OMP_DISPLAY_ENV": "TRUE"}, code=code)
    assert "OPENMP DISPLAY ENVIRONMENT" in out.stderr, out.stderr[-500:]
    assert "OMP_WAIT_POLICY = 'PASSIVE'" in out.stderr
    out = _run({"OMP_DISPLAY_ENV": "TRUE", "OMP_WAIT_POLICY": "ACTIVE"}, code=code)
    assert "OMP_WAIT_POLICY = 'ACTIVE'" in out.stderr
    assert _budget({"GOMP_SPINCOUNT": "1000"})["wait_policy"] == "GOMP_SPINCOUNT=1000"


_CONV_TEAM_PROBE = """
import glob, json
import weft as mx
data = mx.nd.ones((1, 16, 32, 32))
weight = mx.nd.ones((16, 16, 3, 3))
for _ in range(3):
    mx.nd.Convolution(data, weight, kernel=(3, 3), num_filter=16, no_bias=True).wait_to_read()
# libgomp's team threads take the name of the thread that opened the team: the
# engine's CPU worker, "cpu(0)/0".
names = [open(t + "/comm").read().strip() for t in glob.glob("/proc/self/task/*")]
print(json.dumps({"workers": names.count("cpu(0)/0")}))
"""


def test_a_convolution_keeps_to_the_budgets_team():
    # Note [oneDNN threads are fixed at creation] (core/op/common/dnnl_common.cc): oneDNN
    # takes a primitive's team size from the creating thread's OpenMP count, so the count
    # must be set before the first convolution is made, not only before it runs. With a
    # team of 1, the one CPU worker must not open a team of libgomp's default (every CPU).
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one usable CPU: libgomp's default team is 1 as well, so nothing can tell")
    if not runtime.Features().is_enabled("MKLDNN"):
        pytest.skip("this build has no oneDNN (the dependency-free build): no oneDNN primitive to create")
    out = _run({"WEFT_OMP_THREADS": "1"}, code=_CONV_TEAM_PROBE)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"workers": 1}


_HOST_COPY_PROBE = """
import glob, json
import numpy as np
import weft as mx
a = mx.nd.array(np.arange(12, dtype=np.float32).reshape(3, 4))
for _ in range(3):
    a[:] = np.ones((3, 4), dtype=np.float32)  # into an array nothing else uses
total = float((a * 2).sum().asscalar())
names = [open(t + "/comm").read().strip() for t in glob.glob("/proc/self/task/*")]
print(json.dumps({"total": total, "copy_lanes": names.count("cpu(0)-copy/0")}))
"""


def test_a_host_copy_into_an_idle_array_needs_no_copy_lane():
    # NDArray::SyncCopyFromHost (core/ndarray/ndarray.cc) copies on the calling thread when
    # nothing reads or writes the array, as a small op runs at push (Note [Small ops run at
    # push]); the copy lane's thread, started at its first op, is not even started then.
    out = _run(code=_HOST_COPY_PROBE)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"total": 24.0, "copy_lanes": 0}
