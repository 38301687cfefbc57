"""Builds the API-mode cffi module ``weft._weft_ffi`` (C helpers + direct calls).

Used by setup.py at install time. For the development tree run
``python bindings/python/weft/_build_ffi.py`` to build it next to this file;
``weft.base`` uses it only while its recorded declaration hash matches the
header, and falls back to ABI mode otherwise.

The module is linked against nothing: weft.base loads libweft.so with
RTLD_GLOBAL before importing it, so its symbols bind to whichever library the
search order picked.
"""
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_cdef_module():
    spec = importlib.util.spec_from_file_location("_weft_cdef_for_build", os.path.join(_HERE, "_cdef.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make_ffi(header_path=None):
    """The cffi builder for weft._weft_ffi from the header at header_path."""
    import cffi  # pylint: disable=import-outside-toplevel

    cd = _load_cdef_module()
    header_path = header_path or cd.find_header()
    cdef = cd.read_cdef(header_path)  # c_api.h, then the c_predict_api.h beside it
    include_dir = os.path.dirname(os.path.dirname(os.path.abspath(header_path)))
    ffi = cffi.FFI()
    ffi.cdef(cdef + cd.HELPER_CDEF)
    includes = '#include "weft/c_api.h"\n'
    if cd.predict_header_beside(header_path):
        includes += '#include "weft/c_predict_api.h"\n'
    source = includes + ('#define WPY_CDEF_HASH "%s"\n' % cd.cdef_hash(cdef)) + cd.HELPER_SRC
    ffi.set_source("weft._weft_ffi", source, include_dirs=[include_dir], extra_compile_args=["-O2"])
    return ffi


def build_inplace():
    """Compiles weft/_weft_ffi*.so next to this file (development tree)."""
    import glob  # pylint: disable=import-outside-toplevel
    import shutil  # pylint: disable=import-outside-toplevel
    import tempfile  # pylint: disable=import-outside-toplevel

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
