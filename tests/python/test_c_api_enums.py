"""c_api.h's enum weft_dtype / enum weft_dev_type are generated from the core's
lists (scripts/gen_c_api_enums.py from core/base/dtype.h and context.h): the
header must hold exactly what the generator writes, the codes are MXNet's and
never change, and the Python binding's tables agree with them."""
import importlib.util
import os
import subprocess
import sys

import cffi
import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
SCRIPT = os.path.join(ROOT, "scripts", "gen_c_api_enums.py")
HEADER = os.path.join(ROOT, "capi", "include", "weft", "c_api.h")

# The ABI's codes (MXNet's). Entries may be added; none may change.
KNOWN_DTYPES = {"UNKNOWN": -1, "FLOAT32": 0, "FLOAT64": 1, "FLOAT16": 2, "UINT8": 3, "INT32": 4, "INT8": 5,
                "INT64": 6, "BOOL": 7, "BFLOAT16": 12}
KNOWN_DEV_TYPES = {"CPU": 1, "GPU": 2, "CPU_PINNED": 3, "CPU_SHARED": 5}


def _gen():
    spec = importlib.util.spec_from_file_location("gen_c_api_enums", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


@pytest.fixture(scope="module")
def sources():
    gen = _gen()
    return gen, _read(gen.DTYPE_H), _read(gen.CONTEXT_H), _read(HEADER)


def _enum_values(header_text):
    ffi = cffi.FFI()
    ffi.cdef(_block(header_text))
    lib = ffi.dlopen(None)  # enum constants need no symbol
    return {n: getattr(lib, n) for n in dir(lib)}


def _block(header_text):
    return _gen().split_header(header_text)[1]


def test_header_holds_the_generated_enums(sources):
    gen, dtype_h, context_h, header = sources
    assert _block(header) == gen.generate(dtype_h, context_h), \
        "c_api.h's enums differ from core/base/dtype.h / context.h: run python3 scripts/gen_c_api_enums.py"
    r = subprocess.run([sys.executable, SCRIPT, "--check"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def test_a_changed_list_is_detected(sources):
    gen, dtype_h, context_h, header = sources
    added = dtype_h.replace('X(kBFloat16, "bfloat16", 12, 2)', 'X(kBFloat16, "bfloat16", 12, 2) \\\n  X(kInt16, "int16", 8, 2)')
    assert added != dtype_h
    assert "WEFT_DTYPE_INT16 = 8" in gen.generate(added, context_h)
    assert gen.generate(added, context_h) != _block(header)
    renumbered = dtype_h.replace('X(kInt64, "int64", 6, 8)', 'X(kInt64, "int64", 9, 8)')
    assert renumbered != dtype_h and gen.generate(renumbered, context_h) != _block(header)
    more_devices = context_h.replace("kCPUShared = 5", "kCPUShared = 5, kNPU = 6")
    assert more_devices != context_h and "WEFT_DEV_TYPE_NPU = 6" in gen.generate(dtype_h, more_devices)
    with pytest.raises(ValueError, match="WEFT_DTYPE_LIST"):
        gen.generate("no list here", context_h)
    with pytest.raises(ValueError, match="DevType"):
        gen.generate(dtype_h, "no enum here")


def test_codes_are_mxnets_and_int_sized(sources):
    values = _enum_values(sources[3])
    for name, code in KNOWN_DTYPES.items():
        assert values["WEFT_DTYPE_" + name] == code, name
    for name, code in KNOWN_DEV_TYPES.items():
        assert values["WEFT_DEV_TYPE_" + name] == code, name
    ffi = cffi.FFI()
    ffi.cdef(_block(sources[3]))
    assert ffi.sizeof("enum weft_dtype") == ffi.sizeof("int") == ffi.sizeof("enum weft_dev_type")
    assert ffi.cast("enum weft_dtype", -1) == ffi.cast("enum weft_dtype", values["WEFT_DTYPE_UNKNOWN"])


def test_python_tables_agree_with_the_header(sources):
    import weft
    values = _enum_values(sources[3])
    dtypes = {n[len("WEFT_DTYPE_"):].lower(): v for n, v in values.items()
              if n.startswith("WEFT_DTYPE_") and n not in ("WEFT_DTYPE_UNKNOWN", "WEFT_DTYPE_MAX_ENUM")}
    assert dtypes == weft.dtypes.NAME_TO_FLAG
    devs = {n[len("WEFT_DEV_TYPE_"):].lower(): v for n, v in values.items()
            if n.startswith("WEFT_DEV_TYPE_") and n != "WEFT_DEV_TYPE_MAX_ENUM"}
    assert devs == weft.Context.devstr2type
    # The binding's own cffi declarations carry the enums too.
    assert weft.base.ffi.typeof("enum weft_dtype").kind == "enum"
    a = weft.nd.zeros((2,), dtype="bfloat16", ctx=weft.cpu(1))
    assert a._dtype_flag == values["WEFT_DTYPE_BFLOAT16"] and a.context == weft.cpu(1)


def _header_dtypes(header_text):
    return {n[len("WEFT_DTYPE_"):].lower(): v for n, v in _enum_values(header_text).items()
            if n.startswith("WEFT_DTYPE_") and n not in ("WEFT_DTYPE_UNKNOWN", "WEFT_DTYPE_MAX_ENUM")}


def test_binding_dtype_tables_agree_with_the_header(sources):
    """Go, R and Julia keep name -> code tables of their own; each must be the header's."""
    import re
    want = _header_dtypes(sources[3])
    go = _read(os.path.join(ROOT, "bindings", "go", "dtype.go"))
    go_values = {c: int(v) for c, v in re.findall(r"^\s*(\w+)\s+DType\s*=\s*(\d+)", go, flags=re.M)}
    go_names = dict(re.findall(r"(\w+):\s*\{\"(\w+)\",", go))
    assert {name: go_values[c] for c, name in go_names.items()} == want, "bindings/go/dtype.go"
    r_src = _read(os.path.join(ROOT, "bindings", "r", "R", "dtypes.R"))
    r_block = re.search(r"\.weft_dtype_flags\s*<-\s*c\(([^)]*)\)", r_src).group(1)
    assert {n: int(v) for n, v in re.findall(r"(\w+)\s*=\s*(\d+)L", r_block)} == want, "bindings/r/R/dtypes.R"
    jl = _read(os.path.join(ROOT, "bindings", "julia", "src", "dtypes.jl"))
    jl_block = re.search(r"const DTYPE_NAME = Dict\{Int,String\}\(([^)]*)\)", jl).group(1)
    assert {n: int(v) for v, n in re.findall(r"(\d+)\s*=>\s*\"(\w+)\"", jl_block)} == want, \
        "bindings/julia/src/dtypes.jl"
