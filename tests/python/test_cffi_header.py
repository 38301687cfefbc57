"""The cdef section of c_api.h parses with cffi (docs/STYLE.md: keep the declarations
parseable by cffi.FFI().cdef()), and the binding's helper declarations fit it."""
import os

import cffi
import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
HEADER = os.path.join(ROOT, "capi", "include", "weft", "c_api.h")


def _cdef_module():
    import importlib.util
    path = os.path.join(ROOT, "bindings", "python", "weft", "_cdef.py")
    spec = importlib.util.spec_from_file_location("_weft_cdef_test", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _section(text):
    lines = text.splitlines()
    begin = next(i for i, l in enumerate(lines) if "WEFT-CDEF-BEGIN" in l)
    end = next(i for i in range(begin + 1, len(lines)) if "WEFT-CDEF-END" in lines[i])
    body = "\n".join(lines[begin + 1:end])
    return body.replace("WEFT_API", "")


def test_header_has_markers():
    text = open(HEADER, encoding="utf-8").read()
    assert "WEFT-CDEF-BEGIN" in text and "WEFT-CDEF-END" in text


def test_cdef_section_parses_with_plain_stripping():
    """Only the WEFT_API tokens need removing (comments are fine for cffi)."""
    ffi = cffi.FFI()
    ffi.cdef(_section(open(HEADER, encoding="utf-8").read()))
    assert ffi.typeof("weft_ndarray*").kind == "pointer"
    assert ffi.typeof("enum weft_status").kind == "enum"


def test_cdef_functions_resolve_in_the_library():
    import weft
    ffi = cffi.FFI()
    ffi.cdef(_section(open(HEADER, encoding="utf-8").read()))
    lib = ffi.dlopen(weft.base.LIB_PATH)
    for fn in ("weft_last_error", "weft_op_invoke", "weft_ndarray_create", "weft_ndarray_free",
               "weft_ndarray_load_from_buffer", "weft_wait_all"):
        assert ffi.typeof(getattr(lib, fn)).kind == "function"


def test_binding_cdef_parses_with_helpers():
    cd = _cdef_module()
    cdef = cd.read_cdef(HEADER)
    assert "WEFT_API" not in cdef
    ffi = cffi.FFI()
    ffi.cdef(cdef + cd.helper_cdef())
    assert ffi.typeof("weft_ndarray*").kind == "pointer"
    assert int(ffi.sizeof("weft_storage_stats")) == 5 * 8


def test_helpers_are_c_that_matches_its_header():
    """_wpy_helpers.c compiles as C against c_api.h and its own header, so the
    declarations cffi reads are the ones the definitions have."""
    import shutil
    import subprocess
    import sysconfig

    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    cc = shutil.which(cc) or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler on this machine (CI builds the library, so it has one)")
    src = os.path.join(ROOT, "bindings", "python", "weft", "_wpy_helpers.c")
    r = subprocess.run([cc, "-std=c99", "-fsyntax-only", "-Wall", "-Werror", "-I", os.path.join(ROOT, "capi", "include"),
                        '-DWPY_CDEF_HASH="0"', src], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    # The builder has to define the hash (it is how weft.base spots a stale module).
    r = subprocess.run([cc, "-fsyntax-only", "-I", os.path.join(ROOT, "capi", "include"), src],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "WPY_CDEF_HASH" in r.stderr


def test_status_enum_matches_error_classes():
    import weft
    ffi = cffi.FFI()
    ffi.cdef(_section(open(HEADER, encoding="utf-8").read()))
    lib = ffi.dlopen(None)  # enum constants need no symbol
    expected = {
        "WEFT_ERR_INVALID_ARGUMENT": weft.InvalidArgumentError, "WEFT_ERR_SHAPE": weft.ShapeError,
        "WEFT_ERR_DTYPE": weft.DTypeError, "WEFT_ERR_OUT_OF_MEMORY": weft.OutOfMemoryError,
        "WEFT_ERR_NOT_FOUND": weft.NotFoundError, "WEFT_ERR_ENGINE": weft.EngineError,
        "WEFT_ERR_IO": weft.WeftIOError, "WEFT_ERR_INTERNAL": weft.InternalError,
    }
    for name, cls in expected.items():
        err = weft.base.error_for(getattr(lib, name), "m")
        assert type(err) is cls, name
        assert isinstance(err, weft.WeftError)


@pytest.mark.parametrize("mode", ["loaded"])
def test_loaded_library_matches_header(mode):
    import weft
    assert weft.base.lib.weft_abi_version() >= weft.base.HEADER_ABI_VERSION
    assert weft.base.version()


def test_abi_mode_fallback_works():
    """WEFT_CFFI_MODE=abi forces ffi.dlopen (what a development tree without the
    compiled module, or with a stale one, uses): the same calls work there."""
    import subprocess
    import sys

    import weft
    code = ("import weft, numpy as np\n"
            "assert not weft.base.API_MODE\n"
            "x = weft.nd.array([1.0, 2.0])\n"
            "x += 1\n"
            "y = weft.nd.concat(x * 2, x, dim=0)\n"
            "assert y.asnumpy().tolist() == [4.0, 6.0, 2.0, 3.0], y\n"
            "p = weft.nd.split(weft.nd.ones((2, 4)), num_outputs=2, axis=1)\n"
            "assert len(p) == 2 and p[1].shape == (2, 2)\n")
    env = dict(os.environ, WEFT_CFFI_MODE="abi", WEFT_LIBRARY_PATH=weft.base.LIB_PATH)
    pkg = os.path.dirname(os.path.dirname(weft.__file__))
    env["PYTHONPATH"] = pkg + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
