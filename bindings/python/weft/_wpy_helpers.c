/* The wpy_* helpers of the API-mode module weft._weft_ffi (declared and
 * explained in _wpy_helpers.h). weft/_build_ffi.py compiles this file with
 * WPY_CDEF_HASH defined to the hash of the declarations it was built from. */
#include <stdlib.h>
#include <string.h>

#include "_wpy_helpers.h"

#ifndef WPY_CDEF_HASH
#error "WPY_CDEF_HASH is defined by the builder (weft/_build_ffi.py)"
#endif

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
  enum weft_dtype t = WEFT_DTYPE_UNKNOWN;
  if (weft_ndarray_dtype(a, &t) != 0) return -1;
  return (int)t;
}
int wpy_ctx(const weft_ndarray* a) {
  enum weft_dev_type dt = WEFT_DEV_TYPE_CPU;
  int id = 0;
  if (weft_ndarray_context(a, &dt, &id) != 0) return -1;
  return (int)dt * 65536 + id;
}
