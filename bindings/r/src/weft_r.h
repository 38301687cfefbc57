/* Shared declarations of the R glue over the Weft C ABI (capi/include/weft/c_api.h).
 * Every handle crosses into R as an external pointer with a finalizer, so R's
 * garbage collector frees library objects; every failing library call raises
 * an R condition of class c("weft<Kind>Error", "weftError", "error", "condition"). */
#ifndef WEFT_R_H_
#define WEFT_R_H_

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>
#include <weft/c_api.h>

/* Raises the library's last error as an R condition when status != 0. */
void weft_r_check(int status);
/* Raises an argument error (class weftInvalidArgumentError) with a formatted message. */
void weft_r_fail(const char* fmt, const char* detail);

SEXP weft_r_wrap_ndarray(weft_ndarray* h);
SEXP weft_r_wrap_symbol(weft_symbol* h);
SEXP weft_r_wrap_executor(weft_executor* h, SEXP keep_alive);
weft_ndarray* weft_r_ndarray(SEXP x);
weft_symbol* weft_r_symbol(SEXP x);
weft_executor* weft_r_executor(SEXP x);
const weft_op* weft_r_op(SEXP name_or_ptr);

/* A list of R handles as a C array of library handles (R_alloc'd; NULL list entries stay NULL). */
weft_ndarray** weft_r_ndarray_list(SEXP list, int* n);
weft_symbol** weft_r_symbol_list(SEXP list, int* n);
/* A character vector as C strings (R_alloc'd). */
const char** weft_r_strings(SEXP chr, int* n);
/* n new library handles as an R list of NDArrays. */
SEXP weft_r_ndarray_vector(int n, weft_ndarray** arrays);
/* n C strings as a character vector. */
SEXP weft_r_string_vector(int n, const char* const* strings);

/* JSON text to R values (objects: named lists, arrays: lists, null: NULL). */
SEXP weft_r_json_parse(const char* text);

#endif
