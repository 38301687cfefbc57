/* The engine's profiler (c_api.h "profiler"): switched from R. */
#include "weft_r.h"

SEXP weft_r_profiler_set_config(SEXP keys, SEXP values) {
  int nk = 0, nv = 0;
  const char** k = weft_r_strings(keys, &nk);
  const char** v = weft_r_strings(values, &nv);
  if (nk != nv) weft_r_fail("%s", "profiler config: keys and values differ in length");
  weft_r_check(weft_profiler_set_config(nk, k, v));
  return R_NilValue;
}

SEXP weft_r_profiler_set_state(SEXP run) {
  weft_r_check(weft_profiler_set_state(Rf_asLogical(run) == TRUE ? 1 : 0));
  return R_NilValue;
}

SEXP weft_r_profiler_pause(SEXP paused) {
  weft_r_check(weft_profiler_pause(Rf_asLogical(paused) == TRUE ? 1 : 0));
  return R_NilValue;
}

SEXP weft_r_profiler_dump(SEXP finished) {
  weft_r_check(weft_profiler_dump(Rf_asLogical(finished) == TRUE ? 1 : 0));
  return R_NilValue;
}

SEXP weft_r_profiler_dumps(SEXP reset, SEXP json) {
  const char* out = NULL;
  weft_r_check(weft_profiler_dumps(Rf_asLogical(reset) == TRUE ? 1 : 0, Rf_asLogical(json) == TRUE ? 1 : 0, 0, 0,
                                   &out));
  return Rf_mkString(out);
}
