/* Operator registry glue: the listing and schemas that R/ops_generate.R turns into
 * weft.nd.<op> and weft.symbol.<op> at package load, and imperative invocation. */
#include "weft_r.h"

SEXP weft_r_op_list(void) {
  int n = 0;
  const char** names = NULL;
  weft_r_check(weft_op_list(&n, &names));
  return weft_r_string_vector(n, names);
}

/* The parsed schema of one operator (a named list, see weft_op_schema). */
SEXP weft_r_op_schema(SEXP name) {
  const char* json = NULL;
  weft_r_check(weft_op_schema(weft_r_op(name), &json));
  return weft_r_json_parse(json);
}

/* weft_r_op_invoke(op, inputs, keys, vals, out): runs op on a list of NDArrays
 * with string attributes. With out (a list of NDArrays) the results are written
 * there and out is returned; otherwise a list of new NDArrays. */
SEXP weft_r_op_invoke(SEXP op, SEXP inputs, SEXP keys, SEXP vals, SEXP out) {
  const weft_op* h = weft_r_op(op);
  int n_in, n_keys, n_vals, n_out = 0;
  weft_ndarray** in = weft_r_ndarray_list(inputs, &n_in);
  for (int i = 0; i < n_in; ++i) if (in[i] == NULL) weft_r_fail("%s", "an operator input is NULL");
  const char** k = weft_r_strings(keys, &n_keys);
  const char** v = weft_r_strings(vals, &n_vals);
  if (n_keys != n_vals) weft_r_fail("%s", "attribute keys and values differ in length");
  weft_ndarray** outputs = NULL;
  if (out != R_NilValue) {
    outputs = weft_r_ndarray_list(out, &n_out);
    for (int i = 0; i < n_out; ++i) if (outputs[i] == NULL) weft_r_fail("%s", "an out= array is NULL");
    weft_r_check(weft_op_invoke(h, n_in, in, &n_out, &outputs, n_keys, k, v));
    return out;
  }
  weft_r_check(weft_op_invoke(h, n_in, in, &n_out, &outputs, n_keys, k, v));
  return weft_r_ndarray_vector(n_out, outputs);
}
