"""Reads the C ABI declarations for cffi from capi/include/weft/c_api.h.

Shared by the import-time loader (ABI mode) and the install-time builder of
the API-mode module (``weft._weft_ffi``), so both see exactly the header's
declarations between the markers ``WEFT-CDEF-BEGIN`` and ``WEFT-CDEF-END``,
followed by those of the predict API (c_predict_api.h, beside c_api.h) between
``WEFT-PRED-CDEF-BEGIN`` and ``WEFT-PRED-CDEF-END``.

The API-mode module also carries a few small C helpers (``wpy_*``) that keep
the per-op Python hot path free of cffi allocations; their declarations and
sources live here, and ``weft.base`` provides pure-Python twins for ABI mode.
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
    body = "\n".join(lines[begin + 1:end]) + "\n"
    body = re.sub(r"/\*.*?\*/", " ", body, flags=re.S)
    body = re.sub(r"//[^\n]*", " ", body)
    body = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith("#"))
    body = re.sub(r"\bWEFT_API\b", " ", body)
    return body


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


def cdef_hash(cdef):
    """Identifies one version of the declarations (and of the helpers)."""
    h = hashlib.sha1()
    h.update(cdef.encode("utf-8"))
    h.update(HELPER_CDEF.encode("utf-8"))
    h.update(HELPER_SRC.encode("utf-8"))
    return h.hexdigest()[:16]


# ---- helpers compiled into the API-mode module ---------------------------------
# Attributes travel as one bytes object "key\0value\0key\0value" plus a count:
# cffi passes a bytes argument to `const char*` without copying, which is far
# cheaper than building two `char*[]` arrays per call.
HELPER_CDEF = """
const char* wpy_cdef_hash(void);
weft_ndarray* wpy_invoke0(const weft_op* op, int nattr, const char* attrs);
weft_ndarray* wpy_invoke1(const weft_op* op, weft_ndarray* a, int nattr, const char* attrs);
weft_ndarray* wpy_invoke2(const weft_op* op, weft_ndarray* a, weft_ndarray* b, int nattr, const char* attrs);
weft_ndarray* wpy_invokeN(const weft_op* op, int nin, weft_ndarray* const* ins, int nattr, const char* attrs);
int wpy_into1(const weft_op* op, weft_ndarray* a, weft_ndarray* out, int nattr, const char* attrs);
int wpy_into2(const weft_op* op, weft_ndarray* a, weft_ndarray* b, weft_ndarray* out, int nattr, const char* attrs);
int wpy_intoN(const weft_op* op, int nin, weft_ndarray* const* ins, int nout, weft_ndarray* const* outs,
              int nattr, const char* attrs);
int wpy_status(void);
int wpy_nout(void);
weft_ndarray* wpy_out(int i);
int wpy_ndim(const weft_ndarray* a);
const int64_t* wpy_dims(const weft_ndarray* a);
int wpy_dtype(const weft_ndarray* a);
int wpy_ctx(const weft_ndarray* a);
"""

HELPER_SRC = r"""
#include <stdlib.h>
#include <string.h>

static __thread int wpy_last_status;
static __thread int wpy_last_nout;
static __thread weft_ndarray** wpy_last_outs;

#define WPY_STACK_ATTRS 32

static int wpy_run(const weft_op* op, int nin, weft_ndarray* const* ins, int* nout,
                   weft_ndarray*** outs, int nattr, const char* attrs) {
  const char* kbuf[WPY_STACK_ATTRS];
  const char* vbuf[WPY_STACK_ATTRS];
  const char** keys = kbuf;
  const char** vals = vbuf;
  int i, rc;
  if (nattr > WPY_STACK_ATTRS) {
    keys = (const char**)malloc(sizeof(char*) * (size_t)nattr);
    vals = (const char**)malloc(sizeof(char*) * (size_t)nattr);
    if (!keys || !vals) { free(keys); free(vals); return WEFT_ERR_OUT_OF_MEMORY; }
  }
  for (i = 0; i < nattr; ++i) {
    keys[i] = attrs; attrs += strlen(attrs) + 1;
    vals[i] = attrs; attrs += strlen(attrs) + 1;
  }
  rc = weft_op_invoke(op, nin, ins, nout, outs, nattr, nattr ? keys : NULL, nattr ? vals : NULL);
  if (keys != kbuf) { free(keys); free(vals); }
  return rc;
}

const char* wpy_cdef_hash(void) { return WPY_CDEF_HASH; }

weft_ndarray* wpy_invokeN(const weft_op* op, int nin, weft_ndarray* const* ins, int nattr, const char* attrs) {
  int nout = 0;
  weft_ndarray** outs = NULL;
  int rc = wpy_run(op, nin, ins, &nout, &outs, nattr, attrs);
  wpy_last_status = rc;
  if (rc != 0) { wpy_last_nout = 0; return NULL; }
  wpy_last_nout = nout;
  wpy_last_outs = outs;
  return nout > 0 ? outs[0] : NULL;
}
weft_ndarray* wpy_invoke0(const weft_op* op, int nattr, const char* attrs) {
  return wpy_invokeN(op, 0, NULL, nattr, attrs);
}
weft_ndarray* wpy_invoke1(const weft_op* op, weft_ndarray* a, int nattr, const char* attrs) {
  return wpy_invokeN(op, 1, &a, nattr, attrs);
}
weft_ndarray* wpy_invoke2(const weft_op* op, weft_ndarray* a, weft_ndarray* b, int nattr, const char* attrs) {
  weft_ndarray* ins[2];
  ins[0] = a; ins[1] = b;
  return wpy_invokeN(op, 2, ins, nattr, attrs);
}
int wpy_intoN(const weft_op* op, int nin, weft_ndarray* const* ins, int nout, weft_ndarray* const* outs,
              int nattr, const char* attrs) {
  weft_ndarray** o = (weft_ndarray**)outs;
  int n = nout;
  return wpy_run(op, nin, ins, &n, &o, nattr, attrs);
}
int wpy_into1(const weft_op* op, weft_ndarray* a, weft_ndarray* out, int nattr, const char* attrs) {
  return wpy_intoN(op, 1, &a, 1, &out, nattr, attrs);
}
int wpy_into2(const weft_op* op, weft_ndarray* a, weft_ndarray* b, weft_ndarray* out, int nattr, const char* attrs) {
  weft_ndarray* ins[2];
  ins[0] = a; ins[1] = b;
  return wpy_intoN(op, 2, ins, 1, &out, nattr, attrs);
}
int wpy_status(void) { return wpy_last_status; }
int wpy_nout(void) { return wpy_last_nout; }
weft_ndarray* wpy_out(int i) { return (i >= 0 && i < wpy_last_nout) ? wpy_last_outs[i] : NULL; }

int wpy_ndim(const weft_ndarray* a) {
  int ndim = -1;
  const int64_t* shape = NULL;
  if (weft_ndarray_shape(a, &ndim, &shape) != 0) return -1;
  return ndim;
}
const int64_t* wpy_dims(const weft_ndarray* a) {
  int ndim = -1;
  const int64_t* shape = NULL;
  if (weft_ndarray_shape(a, &ndim, &shape) != 0) return NULL;
  return shape;
}
int wpy_dtype(const weft_ndarray* a) {
  int t = -1;
  if (weft_ndarray_dtype(a, &t) != 0) return -1;
  return t;
}
int wpy_ctx(const weft_ndarray* a) {
  int dt = 0, id = 0;
  if (weft_ndarray_context(a, &dt, &id) != 0) return -1;
  return dt * 65536 + id;
}
"""
