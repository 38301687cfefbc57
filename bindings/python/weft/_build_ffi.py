"""Builds the API-mode cffi module ``weft._weft_ffi``: direct calls into the C ABI
plus the C helpers of ``_wpy_helpers.c`` (declared in ``_wpy_helpers.h``).

Used by setup.py at install time. For the development tree run
``python bindings/python/weft/_build_ffi.py`` to build it next to this file;
``weft.base`` uses it only while its recorded declaration hash matches the
header, and falls back to ABI mode otherwise.

The module is linked against nothing: weft.base loads libweft.so with
RTLD_GLOBAL before importing it, so its symbols bind to whichever library the
search order picked.
"""
import glob
import importlib.util
import os
import shutil
import sys
import tempfile

import cffi

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_cdef_module():
    spec = importlib.util.spec_from_file_location("_weft_cdef_for_build", os.path.join(_HERE, "_cdef.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _settings(cd, header_path):
    """(cdef text, preamble, compiler settings) for weft._weft_ffi built from
    the header at header_path and the helpers in _wpy_helpers.{h,c}."""
    cdef = cd.read_cdef(header_path)  # c_api.h, then the c_predict_api.h beside it
    include_dir = os.path.dirname(os.path.dirname(os.path.abspath(header_path)))
    preamble = '#include "weft/c_api.h"\n'
    if cd.predict_header_beside(header_path):
        preamble += '#include "weft/c_predict_api.h"\n'
    preamble += '#include "_wpy_helpers.h"\n'
    settings = {
        "sources": [cd.HELPER_SOURCE],  # its own translation unit
        "include_dirs": [include_dir, os.path.dirname(cd.HELPER_HEADER)],
        "define_macros": [("WPY_CDEF_HASH", '"%s"' % cd.cdef_hash(cdef))],
        "extra_compile_args": ["-O2"],
    }
    return cdef, preamble, settings


def extension_settings(header_path=None):
    """The compiler settings of weft._weft_ffi (sources besides cffi's generated
    file, include_dirs, define_macros, extra_compile_args), for setup.py."""
    cd = _load_cdef_module()
    return _settings(cd, header_path or cd.find_header())[2]


def make_ffi(header_path=None):
    """The cffi builder for weft._weft_ffi from the header at header_path."""

    cd = _load_cdef_module()
    cdef, preamble, settings = _settings(cd, header_path or cd.find_header())
    ffi = cffi.FFI()
    ffi.cdef(cdef + cd.helper_cdef())
    ffi.set_source("weft._weft_ffi", preamble, **settings)
    return ffi


def build_inplace():
    """Compiles weft/_weft_ffi*.so next to this file (development tree)."""

    ffi = make_ffi()
    with tempfile.TemporaryDirectory() as tmp:
        built = ffi.compile(tmpdir=tmp, verbose=False)
        for old in glob.glob(os.path.join(_HERE, "_weft_ffi*.so")):
            os.remove(old)
        dst = os.path.join(_HERE, os.path.basename(built))
        shutil.copy2(built, dst)
    return dst


if __name__ == "__main__":
    print(build_inplace())
    sys.exit(0)
