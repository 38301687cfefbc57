"""The thread settings a comparison benchmark runs each framework under, the busy
neighbour, and what the kernels in use are (issue 38 point 4).

Modes (--mode):
  1thread   OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=MKL_NUM_THREADS=1, one engine worker
            (WEFT_/MXNET_CPU_WORKER_NTHREADS=1), torch.set_num_threads(1)
  2threads  the same with 2
  oob       out of the box: every thread variable is removed from the child's
            environment (THREAD_VARIABLES), so each framework runs its own defaults
  busy      oob, beside a busy neighbour: a `nice -n 19` busy loop pinned to one CPU for
            the duration of the mode's measurements (bounded: it ends by itself after
            NEIGHBOUR_MAX_S, and is killed when the mode is done) -- a laptop, a CI
            runner, a notebook next to a data job
"""
import contextlib
import os
import re
import subprocess
import sys

MODES = ("1thread", "2threads", "oob", "busy")

# Everything that sets a thread count or an OpenMP wait policy in weft, MXNet, PyTorch,
# OpenBLAS, MKL or OpenMP: out of the box means none of them.
THREAD_VARIABLES = (
    "OMP_NUM_THREADS", "OMP_WAIT_POLICY", "OMP_PROC_BIND", "OMP_PLACES", "OMP_DYNAMIC", "GOMP_SPINCOUNT",
    "OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "MKL_NUM_THREADS", "KMP_BLOCKTIME", "KMP_AFFINITY",
    "WEFT_CPU_WORKER_NTHREADS", "WEFT_OMP_THREADS", "MXNET_CPU_WORKER_NTHREADS", "MXNET_OMP_MAX_THREADS",
    "MXNET_CPU_PRIORITY_NTHREADS",
)

NEIGHBOUR_MAX_S = 3600  # the busy loop's own bound, should the benchmark die without killing it


def mode_threads(mode):
    """The thread count a mode fixes (1 or 2), or None where the frameworks choose."""
    return {"1thread": 1, "2threads": 2}.get(mode)


def env_for(mode, base_env):
    """The child environment of a mode, from base_env (a dict; not changed)."""
    env = {k: v for k, v in base_env.items() if k not in THREAD_VARIABLES}
    n = mode_threads(mode)
    if n is not None:
        env.update(OMP_NUM_THREADS=str(n), OPENBLAS_NUM_THREADS=str(n), MKL_NUM_THREADS=str(n),
                   WEFT_CPU_WORKER_NTHREADS="1", MXNET_CPU_WORKER_NTHREADS="1")
    return env


def _pin_and_nice(cpu):
    def run():
        os.sched_setaffinity(0, {cpu})
        os.nice(19)
    return run


@contextlib.contextmanager
def neighbour(active):
    """A busy loop at nice 19 on the last CPU this process may use, while the block runs
    (when `active`); yields its CPU number, or None."""
    if not active:
        yield None
        return
    cpu = max(os.sched_getaffinity(0))
    code = "import time\nend = time.time() + %d\nwhile time.time() < end:\n    pass\n" % NEIGHBOUR_MAX_S
    proc = subprocess.Popen([sys.executable, "-c", code], preexec_fn=_pin_and_nice(cpu),  # pylint: disable=subprocess-popen-preexec-fn
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        yield cpu
    finally:
        proc.kill()
        proc.wait()


# A small convolution in weft or MXNet (the same Gluon/NDArray code), run with oneDNN's
# verbose output on: its info lines name the ISA oneDNN dispatches to, its exec line the
# convolution kernel.
# ResNet-18's first stage: a 3x3 64-channel layer at 56x56 (batch 1), called three times so that
# kernels chosen from a weight's third use on (weft's Winograd, Note [Winograd from the third use]
# in core/op/layer/convolution_dnnl.cc) show too; and a 3x3 layer of 16 channels.
_CONV_PROBE = """
import sys
mx = __import__(sys.argv[1])
x = mx.nd.ones((1, 64, 56, 56)); w = mx.nd.ones((64, 64, 3, 3))
for _ in range(3):
    mx.nd.Convolution(x, w, kernel=(3, 3), pad=(1, 1), num_filter=64, no_bias=True).wait_to_read()
x = mx.nd.ones((8, 16, 28, 28)); w = mx.nd.ones((32, 16, 3, 3))
mx.nd.Convolution(x, w, kernel=(3, 3), num_filter=32, no_bias=True).wait_to_read()
"""


def onednn_kernels(python, module, env):
    """'oneDNN vX, isa <ISA>, conv <impls>' for `module` (weft or mxnet) under `python`, or why not."""
    env = dict(env, ONEDNN_VERBOSE="1", DNNL_VERBOSE="1", MKLDNN_VERBOSE="1")
    try:
        out = subprocess.run([python, "-c", _CONV_PROBE, module], env=env, capture_output=True, text=True,
                             timeout=300).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return "unknown (%s)" % e
    version = re.search(r"(?:onednn|dnnl|mkldnn)_verbose,info,(oneDNN v[\w.]+|DNNL v[\w.]+)", out)
    isa = re.search(r"_verbose,info,cpu,isa:([^\n]+)", out)
    convs = []  # every convolution kernel the probe ran, in order of first use
    for impl in re.findall(r"_verbose,exec,cpu,convolution,([^,]+),", out):
        if impl not in convs:
            convs.append(impl)
    if not (version or isa or convs):
        return "no oneDNN verbose output"
    return "%s, isa %s, conv %s" % (version.group(1) if version else "oneDNN", isa.group(1).strip() if isa else "?",
                                    " + ".join(convs) if convs else "?")
