"""What this build of the library has (MXNet 1.x's ``mx.runtime``): ``Features()``,
``feature_list()``, ``Feature``.

Note [Where the features come from]
    MXNet compiles a table of flags into the library. Weft's C ABI has no such
    table, so the facts come from what the library does expose, without running
    anything from it:
      * CUDA: ``weft_gpu_device_count``'s backend is "cuda" (not the host emulation);
      * INT64_TENSOR_SIZE: the ABI's shapes are int64_t (``weft_ndarray_create``);
      * every other feature: the shared libraries the loaded ``libweft.so`` is linked
        against (the DT_NEEDED entries of its ELF dynamic section, read here):
        OpenBLAS / MKL / ATLAS (BLAS_*), LAPACK, oneDNN (MKLDNN, MXNet's name),
        OpenMP, ZeroMQ (DIST_KVSTORE: the parameter-server transport), cuBLAS,
        cuDNN, NCCL, NVRTC (CUDA_RTC), TensorRT, OpenCV, jemalloc, and the
        sanitizer runtimes (ASAN, TSAN, UBSAN, LSAN; names MXNet does not have);
      * ASAN, TSAN, UBSAN also from the names of its dynamic symbol table: a
        library compiled with clang's -fsanitize links no sanitizer runtime (the
        process preloads it: Note [One sanitizer build] in scripts/build_asan.sh),
        so no DT_NEEDED entry names one, but its instrumented code calls
        ``__asan_init``, ``__tsan_init`` and ``__ubsan_handle_*``, which it imports
        by name. Tests whose watchdogs time a child process read ASAN to allow
        for the build's slowdown (tests/python/sanitizer_time.py).
    Features MXNet lists that none of these can tell (the CPU_* instruction sets,
    F16C, SSE, DEBUG, PROFILER, SIGNAL_HANDLER, CXX14, TVM_OP, CAFFE, BLAS_APPLE)
    are not listed: ``is_enabled`` raises for them instead of guessing.
"""
import collections
import struct

from . import base

__all__ = ["Feature", "feature_list", "Features", "blas_info", "thread_budget"]

# feature name -> prefixes of the sonames that mean it is built in
_LINKED_FEATURES = (
    ("BLAS_OPEN", ("libopenblas", "libscipy_openblas")),
    ("BLAS_MKL", ("libmkl_rt", "libmkl_core")),
    ("BLAS_ATLAS", ("libatlas", "libsatlas", "libtatlas")),
    ("LAPACK", ("liblapack", "libmkl_rt", "libscipy_openblas")),
    ("MKLDNN", ("libdnnl", "libmkldnn")),
    ("OPENMP", ("libgomp", "libomp", "libiomp5")),
    ("DIST_KVSTORE", ("libzmq",)),
    ("CUBLAS", ("libcublas",)),
    ("CUDNN", ("libcudnn",)),
    ("NCCL", ("libnccl",)),
    ("CUDA_RTC", ("libnvrtc",)),
    ("TENSORRT", ("libnvinfer",)),
    ("OPENCV", ("libopencv_core", "libopencv_world")),
    ("JEMALLOC", ("libjemalloc",)),
    ("ASAN", ("libasan",)),
    ("TSAN", ("libtsan",)),
    ("UBSAN", ("libubsan",)),
    ("LSAN", ("liblsan",)),
)

# feature name -> a symbol name (or, ending in '_', a name prefix) that code compiled with the
# sanitizer imports, whether or not the library is linked against its runtime
_INSTRUMENTED_FEATURES = (
    ("ASAN", b"__asan_init"),
    ("TSAN", b"__tsan_init"),
    ("UBSAN", b"__ubsan_handle_"),
)


def _elf_needed(path):
    """The DT_NEEDED sonames of an ELF shared library (64- or 32-bit, either byte order)."""
    return _elf_dynamic(path)[0]


def _elf_dynamic(path):
    """(DT_NEEDED sonames, the dynamic string table's bytes) of an ELF shared library. The
    string table holds the names of every symbol the library exports or imports."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        raise base.WeftIOError("runtime: %s is not an ELF shared library" % path)
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    if is64:
        shoff, = struct.unpack_from(end + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(end + "HH", data, 0x3A)
        sec_fmt, dyn_fmt = end + "IIQQQQIIQQ", end + "qQ"
    else:
        shoff, = struct.unpack_from(end + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(end + "HH", data, 0x2E)
        sec_fmt, dyn_fmt = end + "IIIIIIIIII", end + "iI"
    sections = [struct.unpack_from(sec_fmt, data, shoff + i * shentsize) for i in range(shnum)]
    needed = []
    dynstr = b""
    for sec in sections:
        sh_type, sh_offset, sh_size, sh_link = sec[1], sec[4], sec[5], sec[6]
        if sh_type != 6:  # SHT_DYNAMIC
            continue
        strtab_offset = sections[sh_link][4]
        dynstr = data[strtab_offset:strtab_offset + sections[sh_link][5]]
        entry_size = struct.calcsize(dyn_fmt)
        for off in range(sh_offset, sh_offset + sh_size, entry_size):
            tag, value = struct.unpack_from(dyn_fmt, data, off)
            if tag == 0:  # DT_NULL
                break
            if tag == 1:  # DT_NEEDED
                stop = data.index(b"\0", strtab_offset + value)
                needed.append(data[strtab_offset + value:stop].decode("ascii", "replace"))
    return needed, dynstr


def _linked_features(path):
    """{feature name: enabled} for what the ELF library at path is linked against or, for the
    sanitizers, instrumented with (Note [Where the features come from])."""
    needed, dynstr = _elf_dynamic(path)
    found = {name: any(lib.startswith(prefixes) for lib in needed) for name, prefixes in _LINKED_FEATURES}
    for name, symbol in _INSTRUMENTED_FEATURES:
        # Names in the table are NUL-separated: match a whole name, or a prefix ending in '_'.
        key = b"\0" + symbol + (b"" if symbol.endswith(b"_") else b"\0")
        found[name] = found[name] or key in dynstr
    return found


def blas_info():
    """The CPU BLAS the library runs (C ABI ``weft_blas_info``, Note [Which BLAS]), as a dict:
    ``name`` ("OpenBLAS"), ``version``, ``config`` (its build options), ``kernel`` (the kernel
    family it chose for this CPU, e.g. "Haswell", "SkylakeX", "SapphireRapids"), ``library`` (the
    shared library's path), ``threading`` ("openmp-callback": its jobs run on the OpenMP team that
    oneDNN and the kernels use; "openmp"; "pthreads") and ``threads``."""
    strs = [base.ffi.new("const char**") for _ in range(5)]
    threads = base.ffi.new("int*")
    base.check_call(base.lib.weft_blas_info(*strs, threads))
    name, config, kernel, library, threading = (base.ffi.string(p[0]).decode("utf-8", "replace") for p in strs)
    config = config.strip()
    words = config.split()
    version = words[1] if len(words) > 1 and words[0] == name else ""
    return {"name": name, "version": version, "config": config, "kernel": kernel, "library": library,
            "threading": threading, "threads": threads[0]}


def thread_budget():
    """The threads the library computes on (C ABI ``weft_thread_budget``, Note [Thread budget]
    in core/base/thread_budget.cc), decided once when the library first needs them, as a dict:
    ``usable_cpus`` (the affinity mask's CPUs capped by the cgroup CPU quota), ``cpu_workers``
    (the engine's CPU compute workers), ``kernel_threads`` (each kernel's OpenMP team),
    ``blas_threads`` (OpenBLAS's), ``cpu_workers_from`` / ``kernel_threads_from`` /
    ``blas_threads_from`` (``"budget"``, or the environment variable that set the count:
    WEFT_CPU_WORKER_NTHREADS, WEFT_OMP_THREADS, OMP_NUM_THREADS, OPENBLAS_NUM_THREADS) and
    ``wait_policy`` (what OpenMP was started with, Note [OpenMP wait policy] in weft/base.py)."""
    ints = [base.ffi.new("int*") for _ in range(4)]
    strs = [base.ffi.new("const char**") for _ in range(4)]
    base.check_call(base.lib.weft_thread_budget(*ints, *strs))
    names = ("usable_cpus", "cpu_workers", "kernel_threads", "blas_threads")
    out = {k: p[0] for k, p in zip(names, ints)}
    for k, p in zip(("cpu_workers_from", "kernel_threads_from", "blas_threads_from", "wait_policy"), strs):
        out[k] = base.ffi.string(p[0]).decode("utf-8", "replace")
    return out


class Feature:
    """A feature of the build: ``name`` and ``enabled``."""

    __slots__ = ("name", "enabled")

    def __init__(self, name, enabled):
        self.name = name
        self.enabled = bool(enabled)

    def __repr__(self):
        return ("\u2714 %s" if self.enabled else "\u2716 %s") % self.name


def feature_list():
    """The features this build can report on, each enabled or not (Note [Where the features come from])."""
    count, backend = base.ffi.new("int*"), base.ffi.new("const char**")
    base.check_call(base.lib.weft_gpu_device_count(count, backend))
    cuda = base.ffi.string(backend[0]).decode() == "cuda"
    linked = _linked_features(base.LIB_PATH)
    features = [Feature("CUDA", cuda)]
    for name, _ in _LINKED_FEATURES:
        features.append(Feature(name, linked[name]))
    features.append(Feature("INT64_TENSOR_SIZE", True))
    return features


class Features(collections.OrderedDict):
    """{name: Feature} of the build, made once (``Features().is_enabled('CUDA')``)."""

    instance = None

    def __new__(cls):
        if cls.instance is None:
            cls.instance = super().__new__(cls)
            collections.OrderedDict.__init__(cls.instance, [(f.name, f) for f in feature_list()])
        return cls.instance

    def __init__(self):  # pylint: disable=super-init-not-called
        pass  # filled once in __new__

    def __repr__(self):
        return str(list(self.values()))

    def is_enabled(self, feature_name):
        """True when the build has the feature; RuntimeError for a name it cannot report on."""
        feature_name = feature_name.upper()
        if feature_name not in self:
            raise RuntimeError("Feature '%s' is unknown, known features are: %s"
                               % (feature_name, list(self.keys())))
        return self[feature_name].enabled
