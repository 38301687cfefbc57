/* The wpy_* helpers compiled into the API-mode module weft._weft_ffi (built by
 * weft/_build_ffi.py from _wpy_helpers.c). They keep the per-op Python hot path
 * free of cffi allocations; weft.base has pure-Python twins for ABI mode.
 *
 * Attributes travel as one bytes object "key\0value\0key\0value" plus a count:
 * cffi passes a bytes argument to `const char*` without copying, which is far
 * cheaper than building two `char*[]` arrays per call.
 *
 * weft._cdef reads the declarations below as cffi cdef text (comments and
 * preprocessor lines dropped), so they stay plain C declarations. */
#ifndef WEFT_WPY_HELPERS_H_
#define WEFT_WPY_HELPERS_H_
#include "weft/c_api.h"

/* The hash of the declarations this module was built from (weft._cdef.cdef_hash). */
const char* wpy_cdef_hash(void);
/* weft_op_invoke with 0, 1, 2 or nin inputs: the first new output (NULL on
 * failure or when there is none); wpy_status / wpy_nout / wpy_out tell more. */
weft_ndarray* wpy_invoke0(const weft_op* op, int nattr, const char* attrs);
weft_ndarray* wpy_invoke1(const weft_op* op, weft_ndarray* a, int nattr, const char* attrs);
weft_ndarray* wpy_invoke2(const weft_op* op, weft_ndarray* a, weft_ndarray* b, int nattr, const char* attrs);
weft_ndarray* wpy_invokeN(const weft_op* op, int nin, weft_ndarray* const* ins, int nattr, const char* attrs);
/* weft_op_invoke writing into given outputs (out=); returns the status. */
int wpy_into1(const weft_op* op, weft_ndarray* a, weft_ndarray* out, int nattr, const char* attrs);
int wpy_into2(const weft_op* op, weft_ndarray* a, weft_ndarray* b, weft_ndarray* out, int nattr, const char* attrs);
int wpy_intoN(const weft_op* op, int nin, weft_ndarray* const* ins, int nout, weft_ndarray* const* outs,
              int nattr, const char* attrs);
/* This thread's last wpy_invoke*: its status, its output count, output i. */
int wpy_status(void);
int wpy_nout(void);
weft_ndarray* wpy_out(int i);
/* Array properties, -1 (NULL for wpy_dims) on a bad handle; wpy_ctx is
 * dev_type * 65536 + dev_id. */
int wpy_ndim(const weft_ndarray* a);
const int64_t* wpy_dims(const weft_ndarray* a);
int wpy_dtype(const weft_ndarray* a);
int wpy_ctx(const weft_ndarray* a);

#endif /* WEFT_WPY_HELPERS_H_ */
