"""fork() after operators ran: the parent's fork returns and the child has a
working engine (Note [Engine and fork], Note [Fork handler order] in
core/engine/fork_handlers.cc). Under LLVM's OpenMP (the clang ASan build) such
a fork used to spin forever in the engine's prepare handler, so the check runs
in a child interpreter with a time limit: a hang fails the test instead of the
test run."""
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import os
    import weft as mx
    a = mx.nd.ones((64, 64))
    (mx.nd.dot(a, a) + 1).wait_to_read()   # engine workers ran OpenMP regions
    x, w = mx.nd.ones((1, 3, 16, 16)), mx.nd.ones((4, 3, 3, 3))
    mx.nd.Convolution(x, w, kernel=(3, 3), num_filter=4, no_bias=True).wait_to_read()
    pid = os.fork()
    if pid == 0:   # the child's engine runs operators
        os._exit(0 if mx.nd.ones((4, 4)).sum().asscalar() == 16 else 3)
    _, status = os.waitpid(pid, 0)
    print("child", os.waitstatus_to_exitcode(status), "parent", (mx.nd.ones((2, 2)) * 2).sum().asscalar())
""")


def test_fork_after_openmp_ops_returns_and_both_sides_compute():
    # 120 s: the child interpreter imports weft, under ASan in CI's sanitizer step (about 10 s loaded).
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["child", "0", "parent", "8.0"], r.stdout + r.stderr[-2000:]
