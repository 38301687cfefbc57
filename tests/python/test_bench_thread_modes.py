"""benchmarks/thread_modes.py, the thread settings of benchmarks/gluon_vs_torch.py --mode: out of
the box strips every thread variable, the fixed modes set them all, and the busy neighbour is a
nice-19 process pinned to one CPU that is gone when the block ends."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks"))
import thread_modes  # noqa: E402  pylint: disable=wrong-import-position,import-error


def test_oob_sets_no_thread_variable():
    inherited = {name: "7" for name in thread_modes.THREAD_VARIABLES}
    inherited["PATH"] = "/bin"
    for mode in ("oob", "busy"):
        env = thread_modes.env_for(mode, inherited)
        assert env == {"PATH": "/bin"}
        assert thread_modes.mode_threads(mode) is None
    assert inherited["OMP_NUM_THREADS"] == "7"  # the caller's dict is left as it was


def test_fixed_modes_set_every_count():
    for mode, n in (("1thread", "1"), ("2threads", "2")):
        env = thread_modes.env_for(mode, {"OMP_WAIT_POLICY": "ACTIVE"})
        assert "OMP_WAIT_POLICY" not in env
        assert env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == env["MKL_NUM_THREADS"] == n
        assert env["WEFT_CPU_WORKER_NTHREADS"] == env["MXNET_CPU_WORKER_NTHREADS"] == "1"
        assert thread_modes.mode_threads(mode) == int(n)


def _children():
    me = str(os.getpid())
    out = set()
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % pid, encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if pid.isdigit() and fields[1] == me:
            out.add(int(pid))
    return out


def test_the_neighbour_is_nice_pinned_and_killed():
    before = _children()
    with thread_modes.neighbour(True) as cpu:
        assert cpu in os.sched_getaffinity(0)
        new = _children() - before
        assert len(new) == 1
        pid = new.pop()
        assert os.sched_getaffinity(pid) == {cpu}
        assert os.getpriority(os.PRIO_PROCESS, pid) == 19
    assert not os.path.exists("/proc/%d" % pid)
    with thread_modes.neighbour(False) as cpu:
        assert cpu is None and _children() == before
