"""SGEMM GFLOP/s on the MLP's products: weft.nd.dot vs NumPy's BLAS vs the BLAS candidates.

The shapes are the GEMMs of one training step of the MLP 784-512-512-10 at batch
128 (Dense keeps its weight as (out, in), so forward is x . W^T):
  fwd     y = x . W^T           m=128 n=out k=in   (N, T)
  dgrad   dx = dy . W           m=128 n=in  k=out  (N, N)
  wgrad   dW = dy^T . x         m=out n=in  k=128  (T, N)
for the three layers (the first layer's dgrad is not needed). "step" is the
whole step's flops over the summed time of its eight products.

Columns (each measured in its own fresh process, one process per column and
thread count, the columns interleaved over --rounds rounds in alternating
order: the machine is shared, Note [Paired rounds] in gluon_vs_torch.py):
  weft        weft.nd.dot(a, b, transpose_a, transpose_b) on the library in
              WEFT_LIBRARY_PATH (or the installed one): the BLAS it was built
              with, dispatch and the engine round trip included
  numpy       NumPy's own BLAS (its scipy-openblas64 wheel), via np.matmul on
              transposed views
  openblas32  the scipy-openblas32 wheel (OpenBLAS 0.3.3x, DYNAMIC_ARCH), by
              ctypes (its symbols carry the scipy_ prefix)
  mkl         the mkl wheel's libmkl_rt, GNU OpenMP threading layer
  onednn      oneDNN's dnnl_sgemm (the libdnnl weft links), OpenMP threads
  debian      the system OpenBLAS (libopenblas-openmp-dev) the build used to link
Threads are set through each library's API (openblas_set_num_threads,
MKL_Set_Num_Threads, omp_set_num_threads), and OMP_NUM_THREADS /
OPENBLAS_NUM_THREADS / MKL_NUM_THREADS in the child's environment match.

The table gives each column's median GFLOP/s per shape and the ratio of weft
to the best column (target >= 0.90). A column whose library is missing prints
as "-". The CPU model and the BLAS kernel weft reports (weft.runtime.blas_info)
are printed first.

    PYTHONPATH=bindings/python WEFT_LIBRARY_PATH=build/libweft.so python benchmarks/gemm.py [--threads 1 2] [--rounds 3]
"""
import argparse
import ctypes
import ctypes.util
import glob
import json
import os
import statistics
import subprocess
import sys
import time

from frameworks import cpu_model  # benchmarks/frameworks.py, beside this script

SHAPES = (  # name, m, n, k, trans_a, trans_b
    ("fwd1 128x512x784", 128, 512, 784, False, True),
    ("fwd2 128x512x512", 128, 512, 512, False, True),
    ("fwd3 128x10x512", 128, 10, 512, False, True),
    ("dgrad2 128x512x512", 128, 512, 512, False, False),
    ("dgrad3 128x512x10", 128, 512, 10, False, False),
    ("wgrad1 512x784x128", 512, 784, 128, True, False),
    ("wgrad2 512x512x128", 512, 512, 128, True, False),
    ("wgrad3 10x512x128", 10, 512, 128, True, False),
)
COLUMNS = ("weft", "numpy", "openblas32", "mkl", "onednn", "debian")


def _operands(np, m, n, k, ta, tb):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
    return a, b, np.zeros((m, n), np.float32)


def _time_per_call(fn, clock, min_seconds=0.1):
    """Seconds per call: the median of 5 runs of enough calls for min_seconds, on `clock`."""
    fn()
    fn()
    reps = 1
    while True:
        t0 = clock()
        for _ in range(reps):
            fn()
        if clock() - t0 >= min_seconds / 5:
            break
        reps *= 2
    runs = []
    for _ in range(5):
        t0 = clock()
        for _ in range(reps):
            fn()
        runs.append((clock() - t0) / reps)
    return statistics.median(runs)


def _cblas_runner(np, sgemm, row_major=101, no_trans=111, trans=112):
    """fn(m, n, k, ta, tb) -> a timed closure calling a CBLAS sgemm by ctypes."""
    f = ctypes.c_float
    p = ctypes.POINTER(ctypes.c_float)
    sgemm.restype = None
    sgemm.argtypes = [ctypes.c_int] * 6 + [f, p, ctypes.c_int, p, ctypes.c_int, f, p, ctypes.c_int]

    def make(m, n, k, ta, tb):
        a, b, c = _operands(np, m, n, k, ta, tb)
        pa, pb, pc = (x.ctypes.data_as(p) for x in (a, b, c))
        args = (row_major, trans if ta else no_trans, trans if tb else no_trans, m, n, k, 1.0, pa, a.shape[1], pb,
                b.shape[1], 0.0, pc, n)
        return lambda: sgemm(*args)
    return make


def _omp_set_threads(threads):
    for name in ("libgomp.so.1", ctypes.util.find_library("gomp")):
        if name:
            try:
                ctypes.CDLL(name).omp_set_num_threads(threads)
                return
            except OSError:
                continue


def _column(name, threads):
    """(make(m, n, k, ta, tb) -> closure, description) for one column, or None when unavailable."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    if name == "weft":
        import weft  # pylint: disable=import-outside-toplevel
        from weft import nd  # pylint: disable=import-outside-toplevel
        info = weft.runtime.blas_info()

        def make(m, n, k, ta, tb):
            a, b, _ = _operands(np, m, n, k, ta, tb)
            wa, wb = nd.array(a), nd.array(b)
            return lambda: nd.dot(wa, wb, transpose_a=ta, transpose_b=tb).wait_to_read()
        return make, "%s %s (%s)" % (info["name"], info["version"], info["kernel"])
    if name == "numpy":
        libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "libscipy_openblas*"))
        desc = "numpy %s" % np.__version__
        if libs:
            lib = ctypes.CDLL(libs[0])
            for sym in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads", "openblas_set_num_threads"):
                if hasattr(lib, sym):
                    getattr(lib, sym)(threads)
                    break
            for sym in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename"):
                if hasattr(lib, sym):
                    getattr(lib, sym).restype = ctypes.c_char_p
                    desc += " (%s)" % getattr(lib, sym)().decode()
                    break

        def make(m, n, k, ta, tb):
            a, b, c = _operands(np, m, n, k, ta, tb)
            av, bv = (a.T if ta else a), (b.T if tb else b)
            return lambda: np.matmul(av, bv, out=c)
        return make, desc
    if name == "openblas32":
        try:
            import scipy_openblas32 as so  # pylint: disable=import-outside-toplevel
        except ImportError:
            return None
        lib = ctypes.CDLL(os.path.join(so.get_lib_dir(), "lib" + so.get_library() + ".so"))
        lib.scipy_openblas_set_num_threads(threads)
        lib.scipy_openblas_get_corename.restype = ctypes.c_char_p
        return _cblas_runner(np, lib.scipy_cblas_sgemm), "OpenBLAS %s (%s)" % (
            so.__version__, lib.scipy_openblas_get_corename().decode())
    if name == "mkl":
        paths = glob.glob(os.path.join(sys.prefix, "lib", "libmkl_rt.so*"))
        if not paths:
            return None
        lib = ctypes.CDLL(paths[0])
        lib.MKL_Set_Threading_Layer(3)  # MKL_THREADING_GNU: libgomp, oneDNN's OpenMP
        lib.MKL_Set_Num_Threads(threads)
        buf = ctypes.create_string_buffer(256)
        lib.MKL_Get_Version_String(buf, 256)
        return _cblas_runner(np, lib.cblas_sgemm), buf.value.decode().strip()
    if name == "onednn":
        path = ctypes.util.find_library("dnnl")
        if not path:
            return None
        lib = ctypes.CDLL(path)
        _omp_set_threads(threads)
        f, p, i64 = ctypes.c_float, ctypes.POINTER(ctypes.c_float), ctypes.c_int64
        sgemm = lib.dnnl_sgemm
        sgemm.argtypes = [ctypes.c_char, ctypes.c_char, i64, i64, i64, f, p, i64, p, i64, f, p, i64]

        class Version(ctypes.Structure):
            _fields_ = [("major", ctypes.c_int), ("minor", ctypes.c_int), ("patch", ctypes.c_int),
                        ("hash", ctypes.c_char_p), ("cpu_runtime", ctypes.c_uint), ("gpu_runtime", ctypes.c_uint)]
        lib.dnnl_version.restype = ctypes.POINTER(Version)
        v = lib.dnnl_version().contents

        def make(m, n, k, ta, tb):
            a, b, c = _operands(np, m, n, k, ta, tb)
            pa, pb, pc = (x.ctypes.data_as(p) for x in (a, b, c))
            args = (b"T" if ta else b"N", b"T" if tb else b"N", m, n, k, 1.0, pa, a.shape[1], pb, b.shape[1], 0.0,
                    pc, n)
            return lambda: sgemm(*args)
        return make, "oneDNN %d.%d.%d dnnl_sgemm" % (v.major, v.minor, v.patch)
    if name == "debian":
        arch = "x86_64-linux-gnu" if os.uname().machine == "x86_64" else "aarch64-linux-gnu"
        path = "/usr/lib/%s/openblas-openmp/libopenblas.so.0" % arch
        if not os.path.exists(path):
            return None
        lib = ctypes.CDLL(path)
        lib.openblas_set_num_threads(threads)
        _omp_set_threads(threads)
        lib.openblas_get_corename.restype = ctypes.c_char_p
        lib.openblas_get_config.restype = ctypes.c_char_p
        return _cblas_runner(np, lib.cblas_sgemm), "%s (%s)" % (lib.openblas_get_config().decode().strip(),
                                                              lib.openblas_get_corename().decode())
    raise SystemExit("unknown column " + name)


def _child(name, threads, clock_name):
    col = _column(name, threads)
    if col is None:
        print(json.dumps(None))
        return
    make, desc = col
    clock = time.process_time if clock_name == "cpu" else time.perf_counter
    gflops = {}
    for shape, m, n, k, ta, tb in SHAPES:
        gflops[shape] = 2.0 * m * n * k / _time_per_call(make(m, n, k, ta, tb), clock) / 1e9
    print(json.dumps({"desc": desc, "gflops": gflops}))



def _spawn(name, threads, clock_name):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads), WEFT_CPU_WORKER_NTHREADS="1")
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", name, "--threads", str(threads), "--clock", clock_name],
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--columns", nargs="+", default=list(COLUMNS), choices=COLUMNS)
    ap.add_argument("--clock", default="wall", choices=("wall", "cpu"),
                    help="wall: elapsed time; cpu: the process's CPU time (all its threads), which a loaded "
                         "machine's other processes disturb much less (1 thread: the same as wall on a quiet one)")
    ap.add_argument("--child", default=None)
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.threads[0], args.clock)
        return
    print("CPU: %s, %d cores; clock: %s" % (cpu_model(), os.cpu_count(), args.clock))
    for threads in args.threads:
        got = {c: [] for c in args.columns}
        desc = {}
        for r in range(args.rounds):
            order = args.columns if r % 2 == 0 else list(reversed(args.columns))
            for c in order:
                res = _spawn(c, threads, args.clock)
                if res is not None:
                    desc[c] = res["desc"]
                    got[c].append(res["gflops"])
        cols = [c for c in args.columns if got[c]]
        print("\n%d thread%s" % (threads, "" if threads == 1 else "s"))
        for c in cols:
            print("  %-11s %s" % (c, desc[c]))
        print("%-20s" % "GFLOP/s" + "".join("%12s" % c for c in cols) + "%12s" % "weft/best")
        rows = [s[0] for s in SHAPES] + ["step"]
        flops = {s[0]: 2.0 * s[1] * s[2] * s[3] for s in SHAPES}
        for row in rows:
            med = {}
            for c in cols:
                if row == "step":  # total flops over the summed per-shape times, per round
                    per_round = [sum(flops.values()) / sum(flops[s] / g[s] for s in flops) for g in got[c]]
                else:
                    per_round = [g[row] for g in got[c]]
                med[c] = statistics.median(per_round)
            line = "%-20s" % row + "".join("%12.1f" % med[c] for c in cols)
            if "weft" in med:
                line += "%12.2f" % (med["weft"] / max(med.values()))
            print(line)


if __name__ == "__main__":
    main()
