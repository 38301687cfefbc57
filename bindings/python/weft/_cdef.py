"""Reads the C ABI declarations for cffi from capi/include/weft/c_api.h.

Shared by the import-time loader (ABI mode) and the install-time builder of
the API-mode module (``weft._weft_ffi``), so both see exactly the header's
declarations between the markers ``WEFT-CDEF-BEGIN`` and ``WEFT-CDEF-END``,
followed by those of the predict API (c_predict_api.h, beside c_api.h) between
``WEFT-PRED-CDEF-BEGIN`` and ``WEFT-PRED-CDEF-END``.

The API-mode module also carries a few small C helpers (``wpy_*``) that keep
the per-op Python hot path free of cffi allocations: declared in
``_wpy_helpers.h`` and defined in ``_wpy_helpers.c`` beside this file (both
shipped in the package); ``weft.base`` provides pure-Python twins for ABI mode.
"""
import hashlib
import os
import re

BEGIN_MARK = "WEFT-CDEF-BEGIN"
END_MARK = "WEFT-CDEF-END"
PRED_BEGIN_MARK = "WEFT-PRED-CDEF-BEGIN"
PRED_END_MARK = "WEFT-PRED-CDEF-END"
PREDICT_HEADER_NAME = "c_predict_api.h"

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
HELPER_HEADER = os.path.join(_PKG_DIR, "_wpy_helpers.h")
HELPER_SOURCE = os.path.join(_PKG_DIR, "_wpy_helpers.c")
# bindings/python/weft -> repository root
REPO_ROOT = os.path.normpath(os.path.join(_PKG_DIR, os.pardir, os.pardir, os.pardir))


def header_candidates():
    """Places the header may be, in order: the copy shipped in the package,
    then the source tree."""
    return [
        os.path.join(_PKG_DIR, "include", "weft", "c_api.h"),
        os.path.join(REPO_ROOT, "capi", "include", "weft", "c_api.h"),
    ]


def find_header():
    for path in header_candidates():
        if os.path.isfile(path):
            return path
    raise OSError("weft: cannot find c_api.h (looked in %s)" % ", ".join(header_candidates()))


def extract_cdef(text, begin_mark=BEGIN_MARK, end_mark=END_MARK, header_name="c_api.h"):
    """The declarations between the markers, without comments, preprocessor
    lines and the WEFT_API macro token, ready for cffi.FFI().cdef()."""
    lines = text.splitlines()
    try:
        begin = next(i for i, l in enumerate(lines) if begin_mark in l)
        end = next(i for i in range(begin + 1, len(lines)) if end_mark in lines[i])
    except StopIteration:
        raise ValueError("%s: markers %s/%s not found" % (header_name, begin_mark, end_mark)) from None
    # The markers sit on comment lines of their own: take what lies between.
    return _declarations_only("\n".join(lines[begin + 1:end]) + "\n")


def _declarations_only(body):
    """C text without comments, preprocessor lines and WEFT_API tokens."""
    body = re.sub(r"/\*.*?\*/", " ", body, flags=re.S)
    body = re.sub(r"//[^\n]*", " ", body)
    body = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith("#"))
    return re.sub(r"\bWEFT_API\b", " ", body)


def predict_header_beside(c_api_path):
    """c_predict_api.h in the folder of the given c_api.h (both headers are
    installed together), or None when it is not there."""
    path = os.path.join(os.path.dirname(os.path.abspath(c_api_path)), PREDICT_HEADER_NAME)
    return path if os.path.isfile(path) else None


def extract_predict_cdef(text):
    """The predict API's declarations, less weft_last_error (c_api.h declares
    it already, and cffi rejects a second declaration)."""
    body = extract_cdef(text, PRED_BEGIN_MARK, PRED_END_MARK, PREDICT_HEADER_NAME)
    body, n = re.subn(r"const\s+char\s*\*\s*weft_last_error\s*\(\s*void\s*\)\s*;", " ", body)
    if n != 1:
        raise ValueError("%s: expected one declaration of weft_last_error" % PREDICT_HEADER_NAME)
    return body


def combined_cdef(c_api_text, predict_text=None):
    """What the binding declares: c_api.h's section, then (when the predict
    header is there) c_predict_api.h's."""
    cdef = extract_cdef(c_api_text)
    if predict_text is not None:
        cdef += extract_predict_cdef(predict_text)
    return cdef


def read_cdef(path=None):
    """The combined declarations of the c_api.h at path (default: find_header())
    and of the c_predict_api.h beside it."""
    path = path or find_header()
    with open(path, "r", encoding="utf-8") as f:
        text = f.read()
    pred_path = predict_header_beside(path)
    pred_text = None
    if pred_path is not None:
        with open(pred_path, "r", encoding="utf-8") as f:
            pred_text = f.read()
    return combined_cdef(text, pred_text)


def _read_text(path):
    with open(path, "r", encoding="utf-8") as f:
        return f.read()


def helper_cdef():
    """The wpy_* declarations of _wpy_helpers.h, ready for cffi.FFI().cdef()."""
    return _declarations_only(_read_text(HELPER_HEADER))


def cdef_hash(cdef):
    """Identifies one version of the declarations (and of the helpers)."""
    h = hashlib.sha1()
    h.update(cdef.encode("utf-8"))
    h.update(_read_text(HELPER_HEADER).encode("utf-8"))
    h.update(_read_text(HELPER_SOURCE).encode("utf-8"))
    return h.hexdigest()[:16]
