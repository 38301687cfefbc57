/* NDArray glue: creation from R vectors, copies back to R, shape, views, save/load.
 *
 * Note [Dimension order]: R stores arrays column-major, the library row-major.
 * An R array of dim c(d1, ..., dn) has exactly the memory layout of a library
 * array of shape (dn, ..., d1), so the R API reverses the dimension order (as
 * MXNet's R package did) and data moves without any transposition. The glue
 * below works in library order; R/ndarray.R reverses. */
#include <stdint.h>
#include <string.h>
#include "weft_r.h"

/* Short names for the ABI's dtype codes (enum weft_dtype in c_api.h). */
#define DT_F32 WEFT_DTYPE_FLOAT32
#define DT_F64 WEFT_DTYPE_FLOAT64
#define DT_F16 WEFT_DTYPE_FLOAT16
#define DT_U8 WEFT_DTYPE_UINT8
#define DT_I32 WEFT_DTYPE_INT32
#define DT_I8 WEFT_DTYPE_INT8
#define DT_I64 WEFT_DTYPE_INT64
#define DT_BOOL WEFT_DTYPE_BOOL
#define DT_BF16 WEFT_DTYPE_BFLOAT16

static size_t item_size(int dtype) {
  switch (dtype) {
    case DT_F32: case DT_I32: return 4;
    case DT_F64: case DT_I64: return 8;
    case DT_F16: case DT_BF16: return 2;
    case DT_U8: case DT_I8: case DT_BOOL: return 1;
    default: {
      char flag[16];
      snprintf(flag, sizeof flag, "%d", dtype);
      weft_r_fail("unsupported dtype flag %s", flag);
    }
  }
  return 0;
}

static int64_t* shape_arg(SEXP shape, int* ndim) {
  if (!Rf_isNumeric(shape)) weft_r_fail("%s", "a shape is a numeric vector");
  *ndim = (int)XLENGTH(shape);
  int64_t* out = (int64_t*)R_alloc(*ndim + 1, sizeof(int64_t));
  for (int i = 0; i < *ndim; ++i) {
    double d = TYPEOF(shape) == REALSXP ? REAL(shape)[i] : (double)INTEGER(shape)[i];
    if (!(d >= 0) || d != (double)(int64_t)d) weft_r_fail("%s", "shape entries must be non-negative whole numbers");
    out[i] = (int64_t)d;
  }
  return out;
}

static int64_t num_elements(const weft_ndarray* h, int* ndim_out, const int64_t** dims_out) {
  int ndim;
  const int64_t* dims;
  weft_r_check(weft_ndarray_shape(h, &ndim, &dims));
  int64_t n = 1;
  for (int i = 0; i < ndim; ++i) n *= dims[i];
  if (ndim_out) *ndim_out = ndim;
  if (dims_out) *dims_out = dims;
  return n;
}

/* Fills a host buffer of dtype from an R numeric, integer or logical vector. */
static void* host_buffer_from_r(SEXP x, int dtype, R_xlen_t n) {
  void* buf = R_alloc(n > 0 ? n : 1, item_size(dtype));
  int is_real = TYPEOF(x) == REALSXP;
  const double* rd = is_real ? REAL(x) : NULL;
  const int* ri = is_real ? NULL : (TYPEOF(x) == LGLSXP ? LOGICAL(x) : INTEGER(x));
  for (R_xlen_t i = 0; i < n; ++i) {
    double v = is_real ? rd[i] : (ri[i] == NA_INTEGER ? R_NaN : (double)ri[i]);
    switch (dtype) {
      case DT_F32: ((float*)buf)[i] = (float)v; break;
      case DT_F64: ((double*)buf)[i] = v; break;
      case DT_U8: ((uint8_t*)buf)[i] = (uint8_t)v; break;
      case DT_I8: ((int8_t*)buf)[i] = (int8_t)v; break;
      case DT_I32: ((int32_t*)buf)[i] = (int32_t)v; break;
      case DT_I64: ((int64_t*)buf)[i] = (int64_t)v; break;
      case DT_BOOL: ((uint8_t*)buf)[i] = v != 0; break;
      default: weft_r_fail("%s", "arrays of float16/bfloat16 are created from R through Cast (dtype float32 first)");
    }
  }
  return buf;
}

/* weft_r_nd_create(shape, dtype, dev_type, dev_id): a new uninitialised array. */
SEXP weft_r_nd_create(SEXP shape, SEXP dtype, SEXP dev_type, SEXP dev_id) {
  int ndim;
  int64_t* dims = shape_arg(shape, &ndim);
  weft_ndarray* h = NULL;
  weft_r_check(weft_ndarray_create(dims, ndim, (enum weft_dtype)Rf_asInteger(dtype),
                                   (enum weft_dev_type)Rf_asInteger(dev_type), Rf_asInteger(dev_id), &h));
  return weft_r_wrap_ndarray(h);
}

/* weft_r_nd_copy_from_r(arr, x): copies R vector x (length = array size) into arr. */
SEXP weft_r_nd_copy_from_r(SEXP arr, SEXP x) {
  weft_ndarray* h = weft_r_ndarray(arr);
  if (TYPEOF(x) != REALSXP && TYPEOF(x) != INTSXP && TYPEOF(x) != LGLSXP)
    weft_r_fail("%s", "an NDArray is filled from a numeric, integer or logical vector");
  int64_t n = num_elements(h, NULL, NULL);
  if ((int64_t)XLENGTH(x) != n) {
    char detail[96];
    snprintf(detail, sizeof detail, "%lld values for an array of %lld elements", (long long)XLENGTH(x), (long long)n);
    weft_r_fail("data length does not match the array: %s", detail);
  }
  enum weft_dtype dtype;
  weft_r_check(weft_ndarray_dtype(h, &dtype));
  void* buf = host_buffer_from_r(x, dtype, n);
  weft_r_check(weft_ndarray_copy_from_host(h, buf, (size_t)n * item_size(dtype)));
  return arr;
}

/* weft_r_nd_to_r(arr): the values as an R vector in memory order (no dim). */
SEXP weft_r_nd_to_r(SEXP arr) {
  weft_ndarray* h = weft_r_ndarray(arr);
  enum weft_dtype dtype;
  weft_r_check(weft_ndarray_dtype(h, &dtype));
  int64_t n = num_elements(h, NULL, NULL);
  if (dtype == DT_F16 || dtype == DT_BF16)
    weft_r_fail("%s", "cast float16/bfloat16 arrays to float32 before reading them into R");
  size_t isz = item_size(dtype);
  void* buf = R_alloc(n > 0 ? n : 1, isz);
  weft_r_check(weft_ndarray_copy_to_host(h, buf, (size_t)n * isz));
  SEXP out;
  if (dtype == DT_BOOL) {
    out = PROTECT(Rf_allocVector(LGLSXP, n));
    for (int64_t i = 0; i < n; ++i) LOGICAL(out)[i] = ((uint8_t*)buf)[i] != 0;
  } else if (dtype == DT_I32 || dtype == DT_U8 || dtype == DT_I8) {
    out = PROTECT(Rf_allocVector(INTSXP, n));
    int* o = INTEGER(out);
    for (int64_t i = 0; i < n; ++i)
      o[i] = dtype == DT_I32 ? ((int32_t*)buf)[i] : dtype == DT_U8 ? ((uint8_t*)buf)[i] : ((int8_t*)buf)[i];
  } else {
    out = PROTECT(Rf_allocVector(REALSXP, n));
    double* o = REAL(out);
    for (int64_t i = 0; i < n; ++i)
      o[i] = dtype == DT_F32 ? ((float*)buf)[i] : dtype == DT_F64 ? ((double*)buf)[i] : (double)((int64_t*)buf)[i];
  }
  UNPROTECT(1);
  return out;
}

/* Library-order shape as a numeric vector (int64 dims may exceed R integers). */
SEXP weft_r_nd_shape(SEXP arr) {
  int ndim;
  const int64_t* dims;
  num_elements(weft_r_ndarray(arr), &ndim, &dims);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, ndim));
  for (int i = 0; i < ndim; ++i) REAL(out)[i] = (double)dims[i];
  UNPROTECT(1);
  return out;
}

SEXP weft_r_nd_dtype(SEXP arr) {
  enum weft_dtype dtype;
  weft_r_check(weft_ndarray_dtype(weft_r_ndarray(arr), &dtype));
  return Rf_ScalarInteger(dtype);
}

SEXP weft_r_nd_context(SEXP arr) {
  enum weft_dev_type dev_type;
  int dev_id;
  weft_r_check(weft_ndarray_context(weft_r_ndarray(arr), &dev_type, &dev_id));
  SEXP out = PROTECT(Rf_allocVector(INTSXP, 2));
  INTEGER(out)[0] = (int)dev_type;
  INTEGER(out)[1] = dev_id;
  UNPROTECT(1);
  return out;
}

SEXP weft_r_nd_reshape(SEXP arr, SEXP shape) {
  /* -1 is allowed here (one inferred dimension); pass it through. */
  SEXP real_shape = PROTECT(Rf_coerceVector(shape, REALSXP));
  int ndim = (int)XLENGTH(real_shape);
  int64_t* dims = (int64_t*)R_alloc(ndim + 1, sizeof(int64_t));
  for (int i = 0; i < ndim; ++i) dims[i] = (int64_t)REAL(real_shape)[i];
  UNPROTECT(1);
  weft_ndarray* out = NULL;
  weft_r_check(weft_ndarray_reshape(weft_r_ndarray(arr), dims, ndim, &out));
  return weft_r_wrap_ndarray(out);
}

/* Rows [begin, end) of the first library axis (the last R dimension): a view. */
SEXP weft_r_nd_slice(SEXP arr, SEXP begin, SEXP end) {
  weft_ndarray* out = NULL;
  weft_r_check(weft_ndarray_slice(weft_r_ndarray(arr), (int64_t)Rf_asReal(begin), (int64_t)Rf_asReal(end), &out));
  return weft_r_wrap_ndarray(out);
}

SEXP weft_r_nd_copy_to(SEXP src, SEXP dst) {
  weft_r_check(weft_ndarray_copy(weft_r_ndarray(src), weft_r_ndarray(dst)));
  return dst;
}

SEXP weft_r_nd_copy_to_context(SEXP arr, SEXP dev_type, SEXP dev_id) {
  weft_ndarray* out = NULL;
  weft_r_check(weft_ndarray_copy_to_context(weft_r_ndarray(arr), (enum weft_dev_type)Rf_asInteger(dev_type),
                                            Rf_asInteger(dev_id), &out));
  return weft_r_wrap_ndarray(out);
}

SEXP weft_r_nd_wait_to_read(SEXP arr) {
  weft_r_check(weft_ndarray_wait_to_read(weft_r_ndarray(arr)));
  return R_NilValue;
}

SEXP weft_r_nd_shares_memory(SEXP a, SEXP b) {
  int out = 0;
  weft_r_check(weft_ndarray_shares_memory(weft_r_ndarray(a), weft_r_ndarray(b), &out));
  return Rf_ScalarLogical(out);
}

/* weft_r_nd_save(fname, arrays, names or NULL) in the MXNet 1.x .params format. */
SEXP weft_r_nd_save(SEXP fname, SEXP arrays, SEXP names) {
  int n, nk;
  weft_ndarray** hs = weft_r_ndarray_list(arrays, &n);
  const char** keys = weft_r_strings(names, &nk);
  if (names != R_NilValue && nk != n) weft_r_fail("%s", "save needs one name per array");
  for (int i = 0; i < n; ++i) if (hs[i] == NULL) weft_r_fail("%s", "cannot save NULL in place of an array");
  weft_r_check(weft_ndarray_save(Rf_translateChar(STRING_ELT(fname, 0)), n, hs, keys));
  return R_NilValue;
}

/* Loads a .params file: a list of arrays, named when the file holds names. */
SEXP weft_r_nd_load(SEXP fname) {
  int n = 0, nk = 0;
  weft_ndarray** arrays = NULL;
  const char** keys = NULL;
  weft_r_check(weft_ndarray_load(Rf_translateChar(STRING_ELT(fname, 0)), &n, &arrays, &nk, &keys));
  SEXP out = PROTECT(weft_r_ndarray_vector(n, arrays));
  if (keys != NULL && nk == n) Rf_setAttrib(out, R_NamesSymbol, weft_r_string_vector(nk, keys));
  UNPROTECT(1);
  return out;
}

SEXP weft_r_wait_all(void) {
  weft_r_check(weft_wait_all());
  return R_NilValue;
}

/* Note [Engine shutdown] (core/engine/engine.h); called at R's exit (zzz.R). */
SEXP weft_r_shutdown(void) {
  weft_r_check(weft_shutdown());
  return R_NilValue;
}

SEXP weft_r_random_seed(SEXP seed) {
  double s = Rf_asReal(seed);
  if (!(s >= 0)) weft_r_fail("%s", "the seed must be a non-negative number");
  weft_r_check(weft_random_seed((uint64_t)s));
  return R_NilValue;
}

SEXP weft_r_version(void) {
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
  SET_VECTOR_ELT(out, 0, Rf_mkString(weft_version()));
  SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(weft_abi_version()));
  UNPROTECT(1);
  return out;
}

/* Memory statistics of a device: c(bytes_in_use, peak_bytes_in_use, bytes_pooled, num_allocs, num_pool_hits). */
SEXP weft_r_storage_stats(SEXP dev_type, SEXP dev_id) {
  weft_storage_stats st;
  weft_r_check(weft_storage_stats_get((enum weft_dev_type)Rf_asInteger(dev_type), Rf_asInteger(dev_id), &st));
  SEXP out = PROTECT(Rf_allocVector(REALSXP, 5));
  REAL(out)[0] = (double)st.bytes_in_use;
  REAL(out)[1] = (double)st.peak_bytes_in_use;
  REAL(out)[2] = (double)st.bytes_pooled;
  REAL(out)[3] = (double)st.num_allocs;
  REAL(out)[4] = (double)st.num_pool_hits;
  UNPROTECT(1);
  return out;
}
