"""What the comparison benchmarks share: which interpreter runs each framework,
and the machine line they print first.

Each framework runs in its own process, under its own interpreter: PyTorch and
MXNet 1.9.1 (which needs numpy<1.24) live in virtual environments of their own,
never in weft's (weft's tests must not see them). The interpreter of a framework
is, in order: the script's --torch-python / --mxnet-python option, the
WEFT_TORCH_PYTHON / WEFT_MXNET_PYTHON environment variable, else this
interpreter. A framework its interpreter cannot import is left out of the
table with a note, never silently.

    python3 -m venv venv-torch && venv-torch/bin/pip install torch numpy
    python3 -m venv venv-mx && venv-mx/bin/pip install mxnet==1.9.1 'numpy<1.24'
    python benchmarks/gluon_vs_torch.py --torch-python venv-torch/bin/python --mxnet-python venv-mx/bin/python
"""
import os
import subprocess
import sys

_MODULE = {"torch": "torch", "mxnet": "mxnet"}
_ENV = {"torch": "WEFT_TORCH_PYTHON", "mxnet": "WEFT_MXNET_PYTHON"}


def add_options(ap):
    """Adds --torch-python and --mxnet-python to an argparse parser."""
    ap.add_argument("--torch-python", default=None,
                    help="interpreter that imports torch (default: $WEFT_TORCH_PYTHON, else this one)")
    ap.add_argument("--mxnet-python", default=None,
                    help="interpreter that imports mxnet 1.9.1 (default: $WEFT_MXNET_PYTHON, else this one)")


def python_for(framework, args=None):
    """The interpreter that runs `framework` ("weft" and "numpy": this one)."""
    if framework not in _MODULE:
        return sys.executable
    given = getattr(args, framework + "_python", None) if args is not None else None
    return given or os.environ.get(_ENV[framework]) or sys.executable


def child_env(framework, **extra):
    """os.environ plus extra; a foreign interpreter does not see weft's PYTHONPATH."""
    env = dict(os.environ, **extra)
    if framework in _MODULE:
        env.pop("PYTHONPATH", None)
    return env


def available(framework, args=None):
    """(True, version) when the framework's interpreter imports it, else (False, why)."""
    if framework not in _MODULE:
        return True, ""
    py = python_for(framework, args)
    try:
        out = subprocess.run([py, "-c", "import %s as m; print(m.__version__)" % _MODULE[framework]],
                             env=child_env(framework), capture_output=True, text=True, timeout=300)
    except OSError as e:
        return False, "%s: %s" % (py, e)
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["exit %d" % out.returncode])[-1]
        return False, "%s cannot import %s (%s)" % (py, _MODULE[framework], last)
    return True, out.stdout.strip()


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return os.uname().machine


def machine_line():
    """'CPU: <model>, <n> cores; BLAS: OpenBLAS <version> (<kernel>, <threading>)'."""
    import weft  # pylint: disable=import-outside-toplevel
    info = weft.runtime.blas_info()
    return "CPU: %s, %d cores visible; BLAS: %s %s (kernel %s, %s)" % (
        cpu_model(), len(os.sched_getaffinity(0)), info["name"], info["version"], info["kernel"], info["threading"])
