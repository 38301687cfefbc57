"""The environment rewritten on the main thread while kernels run on engine workers: the
pattern of every pytest run (pytest sets PYTEST_CURRENT_TEST at each test phase while the
library works) and of any program that calls setenv on its own thread while Weft computes.

LLVM's OpenMP (libomp, linked by the clang ASan build) copies the whole environment at its
first call in a process; when that first call was a kernel's, on an engine worker, a variable
the main thread lengthened in between overran the copy (issue 35's heap-buffer-overflow WRITE
of 108 bytes). The engine's constructor now makes that first call on the thread that makes the
engine, before any worker exists (Note [OpenMP reads the environment once] in
core/engine/fork_handlers.cc), so OpenMP's copy is never made behind the main thread's back.
The child pushes the process's first kernels (OpenMP fills and elementwise ops with two kernel
threads, a matrix product, a oneDNN convolution) and rewrites a variable 40,000 times in
all while they run. Under the ASan library (CI's ASan core subset) any report kills the
child and lands in the run's log_path; on any library the results are checked.

The environment is written only from the main thread here, as pytest writes it: setenv is
not thread-safe against a getenv on another thread (POSIX; glibc marks it MT-Unsafe), so a
second thread rewriting it while the main thread makes the engine is the caller's race, not
the library's (docs/ASAN_PYTHON_RUNS.md, 2026-12-08: the 161-byte WRITE on T0).
"""
import os
import subprocess
import sys
import textwrap

from sanitizer_time import time_limit

CHILD = textwrap.dedent("""
    import os, sys
    import numpy as np
    import weft as mx

    rounds, writes = int(sys.argv[1]), int(sys.argv[2])
    count = 0

    def rewrite(times):
        # Lengths 1..300 in turn: a copy measured before a rewrite and made after it overruns.
        global count
        for _ in range(times):
            os.environ["WEFT_TEST_ENV_CHURN"] = "x" * (1 + (count * 37) % 300)
            count += 1

    a = mx.nd.zeros((512, 1024))   # the process's first kernel, pushed to an engine worker
    b = a + 1
    rewrite(10 * writes)           # ... while it runs (long enough to span it on a loaded machine)
    m = mx.nd.ones((64, 64))
    x, w = mx.nd.ones((1, 3, 16, 16)), mx.nd.ones((4, 3, 3, 3))
    total = 0.0
    for k in range(rounds):
        c = b * (k + 1)
        d = mx.nd.dot(m, m)
        y = mx.nd.Convolution(x, w, kernel=(3, 3), num_filter=4, no_bias=True)
        rewrite(writes)
        assert c.asnumpy().min() == c.asnumpy().max() == k + 1, k
        assert np.all(d.asnumpy() == 64.0) and np.all(y.asnumpy() == 27.0), k
        total += c.sum().asscalar()
    print("rounds", rounds, "writes", count, "total", int(total))
""")


def test_environment_rewritten_on_main_thread_while_kernels_run():
    rounds, writes = 10, 2000
    # Two kernel threads, so ParallelFor opens OpenMP teams on the workers on any machine (on 2
    # CPUs the budget gives one, and a one-thread ParallelFor never calls OpenMP).
    env = dict(os.environ, WEFT_OMP_THREADS="2", WEFT_CPU_WORKER_NTHREADS="2")
    env.pop("WEFT_TEST_ENV_CHURN", None)
    # 120 s: a few seconds on the release library; 31 s with the ASan runtime preloaded at load ~15.
    r = subprocess.run([sys.executable, "-c", CHILD, str(rounds), str(writes)], env=env,
                       capture_output=True, text=True, timeout=time_limit(120))
    assert r.returncode == 0, r.stderr[-3000:]
    total = 512 * 1024 * sum(range(1, rounds + 1))
    assert r.stdout.split() == ["rounds", str(rounds), "writes", str(writes * (rounds + 10)),
                                "total", str(total)], r.stdout + r.stderr[-3000:]
