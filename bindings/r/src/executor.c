/* Executor glue: bind, forward, backward, outputs. The library keeps its own
 * references to bound arrays; the R handles are also kept in the executor's
 * external pointer so R objects outlive it for inspection. */
#include "weft_r.h"

/* weft_r_exec_bind(sym, dev_type, dev_id, args, grads (NULL entries), reqs, aux). */
SEXP weft_r_exec_bind(SEXP sym, SEXP dev_type, SEXP dev_id, SEXP args, SEXP grads, SEXP reqs, SEXP aux) {
  int n_args, n_grads, n_aux;
  weft_ndarray** a = weft_r_ndarray_list(args, &n_args);
  weft_ndarray** g = weft_r_ndarray_list(grads, &n_grads);
  weft_ndarray** x = weft_r_ndarray_list(aux, &n_aux);
  if (n_grads != n_args || XLENGTH(reqs) != n_args)
    weft_r_fail("%s", "bind needs one gradient (or NULL) and one grad.req per argument");
  for (int i = 0; i < n_args; ++i) if (a[i] == NULL) weft_r_fail("%s", "an argument array is NULL");
  for (int i = 0; i < n_aux; ++i) if (x[i] == NULL) weft_r_fail("%s", "an auxiliary state array is NULL");
  SEXP int_reqs = PROTECT(Rf_coerceVector(reqs, INTSXP));
  weft_executor* out = NULL;
  weft_r_check(weft_executor_bind(weft_r_symbol(sym), (enum weft_dev_type)Rf_asInteger(dev_type), Rf_asInteger(dev_id),
                                  n_args, a, g, INTEGER(int_reqs), n_aux, x, &out));
  SEXP keep = PROTECT(Rf_list3(args, grads, aux));
  SEXP res = weft_r_wrap_executor(out, keep);
  UNPROTECT(2);
  return res;
}

SEXP weft_r_exec_forward(SEXP exe, SEXP is_train) {
  weft_r_check(weft_executor_forward(weft_r_executor(exe), Rf_asLogical(is_train)));
  return R_NilValue;
}

SEXP weft_r_exec_backward(SEXP exe, SEXP head_grads) {
  int n;
  weft_ndarray** g = weft_r_ndarray_list(head_grads, &n);
  weft_r_check(weft_executor_backward(weft_r_executor(exe), n, g));
  return R_NilValue;
}

SEXP weft_r_exec_outputs(SEXP exe) {
  int n = 0;
  weft_ndarray** outs = NULL;
  weft_r_check(weft_executor_outputs(weft_r_executor(exe), &n, &outs));
  return weft_r_ndarray_vector(n, outs);
}
