/* Registration of the .Call entry points (R_useDynamicSymbols off: only these). */
#include <R_ext/Rdynload.h>
#include "weft_r.h"

#define DECL(name, n) extern SEXP name();
#define ENTRY(name, n) {#name, (DL_FUNC)&name, n},
#define WEFT_R_ENTRIES(X)                                                                    \
  X(weft_r_init, 1) X(weft_r_op_handle, 1) X(weft_r_is_null_handle, 1)                        \
  X(weft_r_nd_create, 4) X(weft_r_nd_copy_from_r, 2) X(weft_r_nd_to_r, 1) X(weft_r_nd_shape, 1) \
  X(weft_r_nd_dtype, 1) X(weft_r_nd_context, 1) X(weft_r_nd_reshape, 2) X(weft_r_nd_slice, 3)   \
  X(weft_r_nd_copy_to, 2) X(weft_r_nd_copy_to_context, 3) X(weft_r_nd_wait_to_read, 1)          \
  X(weft_r_nd_shares_memory, 2) X(weft_r_nd_save, 3) X(weft_r_nd_load, 1) X(weft_r_wait_all, 0) \
  X(weft_r_shutdown, 0)                                                                        \
  X(weft_r_random_seed, 1) X(weft_r_version, 0) X(weft_r_json_parse_string, 1)                  \
  X(weft_r_op_list, 0) X(weft_r_op_schema, 1) X(weft_r_op_invoke, 5)                            \
  X(weft_r_sym_variable, 1) X(weft_r_sym_compose, 7) X(weft_r_sym_substitute, 4)                \
  X(weft_r_sym_group, 1) X(weft_r_sym_num_outputs, 1) X(weft_r_sym_get_output, 2)               \
  X(weft_r_sym_internals, 1) X(weft_r_sym_children, 1) X(weft_r_sym_list, 2)                    \
  X(weft_r_sym_name, 1) X(weft_r_sym_get_attr, 2) X(weft_r_sym_set_attr, 3)                     \
  X(weft_r_sym_list_attr, 2) X(weft_r_sym_to_json, 1) X(weft_r_sym_from_json, 1)                \
  X(weft_r_sym_infer_shape, 4) X(weft_r_exec_bind, 7) X(weft_r_exec_forward, 2)                 \
  X(weft_r_exec_backward, 2) X(weft_r_exec_outputs, 1) X(weft_r_storage_stats, 2)           \
  X(weft_r_profiler_set_config, 2) X(weft_r_profiler_set_state, 1) X(weft_r_profiler_pause, 1)  \
  X(weft_r_profiler_dump, 1) X(weft_r_profiler_dumps, 2)

WEFT_R_ENTRIES(DECL)

static const R_CallMethodDef call_methods[] = {WEFT_R_ENTRIES(ENTRY){NULL, NULL, 0}};

void R_init_weft(DllInfo* dll) {
  R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
}
