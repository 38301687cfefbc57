/* Library handles as R external pointers. Each carries a class attribute and a
 * C finalizer (run at garbage collection and at R exit), so no R user frees
 * anything by hand. A finalized pointer is cleared, and using it raises an error
 * instead of touching freed memory. */
#include "weft_r.h"

static void finalize_ndarray(SEXP p) {
  weft_ndarray_free((weft_ndarray*)R_ExternalPtrAddr(p));
  R_ClearExternalPtr(p);
}
static void finalize_symbol(SEXP p) {
  weft_symbol_free((weft_symbol*)R_ExternalPtrAddr(p));
  R_ClearExternalPtr(p);
}
static void finalize_executor(SEXP p) {
  weft_executor_free((weft_executor*)R_ExternalPtrAddr(p));
  R_ClearExternalPtr(p);
}

static SEXP wrap(void* h, const char* klass, SEXP tag, SEXP prot, R_CFinalizer_t fin) {
  SEXP p = PROTECT(R_MakeExternalPtr(h, tag, prot));
  R_RegisterCFinalizerEx(p, fin, TRUE);
  Rf_setAttrib(p, R_ClassSymbol, Rf_mkString(klass));
  UNPROTECT(1);
  return p;
}

SEXP weft_r_wrap_ndarray(weft_ndarray* h) {
  return wrap(h, "WeftNDArray", Rf_install("weft_ndarray"), R_NilValue, finalize_ndarray);
}
SEXP weft_r_wrap_symbol(weft_symbol* h) {
  return wrap(h, "WeftSymbol", Rf_install("weft_symbol"), R_NilValue, finalize_symbol);
}
SEXP weft_r_wrap_executor(weft_executor* h, SEXP keep_alive) {
  return wrap(h, "WeftExecutorHandle", Rf_install("weft_executor"), keep_alive, finalize_executor);
}

static void* unwrap(SEXP x, const char* tag, const char* what) {
  if (TYPEOF(x) != EXTPTRSXP || R_ExternalPtrTag(x) != Rf_install(tag))
    weft_r_fail("expected a %s", what);
  void* h = R_ExternalPtrAddr(x);
  if (h == NULL) weft_r_fail("the %s was already freed (a handle saved from another R session?)", what);
  return h;
}

weft_ndarray* weft_r_ndarray(SEXP x) { return (weft_ndarray*)unwrap(x, "weft_ndarray", "WeftNDArray"); }
weft_symbol* weft_r_symbol(SEXP x) { return (weft_symbol*)unwrap(x, "weft_symbol", "WeftSymbol"); }
weft_executor* weft_r_executor(SEXP x) { return (weft_executor*)unwrap(x, "weft_executor", "WeftExecutor"); }

const weft_op* weft_r_op(SEXP x) {
  if (TYPEOF(x) == EXTPTRSXP && R_ExternalPtrTag(x) == Rf_install("weft_op")) return R_ExternalPtrAddr(x);
  if (!Rf_isString(x) || XLENGTH(x) != 1) weft_r_fail("%s", "an operator is named by one string");
  const weft_op* op = NULL;
  weft_r_check(weft_op_find(CHAR(STRING_ELT(x, 0)), &op));
  return op;
}

/* Registry entries are static in the library: no finalizer. */
SEXP weft_r_op_handle(SEXP name) {
  const weft_op* op = weft_r_op(name);
  return R_MakeExternalPtr((void*)op, Rf_install("weft_op"), R_NilValue);
}

SEXP weft_r_is_null_handle(SEXP x) {
  return Rf_ScalarLogical(TYPEOF(x) != EXTPTRSXP || R_ExternalPtrAddr(x) == NULL);
}

weft_ndarray** weft_r_ndarray_list(SEXP list, int* n) {
  if (list == R_NilValue) { *n = 0; return NULL; }
  if (TYPEOF(list) != VECSXP) weft_r_fail("%s", "expected a list of WeftNDArray");
  *n = (int)XLENGTH(list);
  weft_ndarray** out = (weft_ndarray**)R_alloc(*n + 1, sizeof(weft_ndarray*));
  for (int i = 0; i < *n; ++i) {
    SEXP e = VECTOR_ELT(list, i);
    out[i] = e == R_NilValue ? NULL : weft_r_ndarray(e);
  }
  return out;
}

weft_symbol** weft_r_symbol_list(SEXP list, int* n) {
  if (list == R_NilValue) { *n = 0; return NULL; }
  if (TYPEOF(list) != VECSXP) weft_r_fail("%s", "expected a list of WeftSymbol");
  *n = (int)XLENGTH(list);
  weft_symbol** out = (weft_symbol**)R_alloc(*n + 1, sizeof(weft_symbol*));
  for (int i = 0; i < *n; ++i) out[i] = weft_r_symbol(VECTOR_ELT(list, i));
  return out;
}

const char** weft_r_strings(SEXP chr, int* n) {
  if (chr == R_NilValue) { *n = 0; return NULL; }
  if (!Rf_isString(chr)) weft_r_fail("%s", "expected a character vector");
  *n = (int)XLENGTH(chr);
  const char** out = (const char**)R_alloc(*n + 1, sizeof(char*));
  for (int i = 0; i < *n; ++i) {
    if (STRING_ELT(chr, i) == NA_STRING) weft_r_fail("%s", "NA is not a valid name or attribute value");
    out[i] = Rf_translateCharUTF8(STRING_ELT(chr, i));
  }
  return out;
}

SEXP weft_r_ndarray_vector(int n, weft_ndarray** arrays) {
  /* Wrap every handle first so none leaks if an allocation fails midway. */
  SEXP out = PROTECT(Rf_allocVector(VECSXP, n));
  for (int i = 0; i < n; ++i) SET_VECTOR_ELT(out, i, weft_r_wrap_ndarray(arrays[i]));
  UNPROTECT(1);
  return out;
}

SEXP weft_r_string_vector(int n, const char* const* strings) {
  SEXP out = PROTECT(Rf_allocVector(STRSXP, n));
  for (int i = 0; i < n; ++i) SET_STRING_ELT(out, i, Rf_mkCharCE(strings[i], CE_UTF8));
  UNPROTECT(1);
  return out;
}
