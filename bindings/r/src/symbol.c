/* Symbol glue: variables, composition, listing, attributes, JSON and shape
 * inference. Shapes here are in library order (see Note [Dimension order]). */
#include "weft_r.h"

SEXP weft_r_sym_variable(SEXP name) {
  weft_symbol* out = NULL;
  weft_r_check(weft_symbol_create_variable(Rf_translateCharUTF8(STRING_ELT(name, 0)), &out));
  return weft_r_wrap_symbol(out);
}

/* weft_r_sym_compose(op, name or NULL, keys, vals, args, kw_names, kw_args). */
SEXP weft_r_sym_compose(SEXP op, SEXP name, SEXP keys, SEXP vals, SEXP args, SEXP kw_names, SEXP kw_args) {
  const weft_op* h = weft_r_op(op);
  int n_keys, n_vals, n_args, n_kw, n_kw_args;
  const char** k = weft_r_strings(keys, &n_keys);
  const char** v = weft_r_strings(vals, &n_vals);
  weft_symbol** a = weft_r_symbol_list(args, &n_args);
  const char** kn = weft_r_strings(kw_names, &n_kw);
  weft_symbol** ka = weft_r_symbol_list(kw_args, &n_kw_args);
  if (n_keys != n_vals || n_kw != n_kw_args) weft_r_fail("%s", "names and values differ in length");
  const char* nm = name == R_NilValue ? NULL : Rf_translateCharUTF8(STRING_ELT(name, 0));
  weft_symbol* out = NULL;
  weft_r_check(weft_symbol_compose(h, nm, n_keys, k, v, n_args, a, n_kw, kn, ka, &out));
  return weft_r_wrap_symbol(out);
}

SEXP weft_r_sym_substitute(SEXP sym, SEXP args, SEXP kw_names, SEXP kw_args) {
  int n_args, n_kw, n_kw_args;
  weft_symbol** a = weft_r_symbol_list(args, &n_args);
  const char** kn = weft_r_strings(kw_names, &n_kw);
  weft_symbol** ka = weft_r_symbol_list(kw_args, &n_kw_args);
  if (n_kw != n_kw_args) weft_r_fail("%s", "names and values differ in length");
  weft_symbol* out = NULL;
  weft_r_check(weft_symbol_substitute(weft_r_symbol(sym), n_args, a, n_kw, kn, ka, &out));
  return weft_r_wrap_symbol(out);
}

SEXP weft_r_sym_group(SEXP symbols) {
  int n;
  weft_symbol** s = weft_r_symbol_list(symbols, &n);
  weft_symbol* out = NULL;
  weft_r_check(weft_symbol_group(n, s, &out));
  return weft_r_wrap_symbol(out);
}

SEXP weft_r_sym_num_outputs(SEXP sym) {
  int n = 0;
  weft_r_check(weft_symbol_num_outputs(weft_r_symbol(sym), &n));
  return Rf_ScalarInteger(n);
}

/* index is 0-based here; R/symbol.R converts. */
SEXP weft_r_sym_get_output(SEXP sym, SEXP index) {
  weft_symbol* out = NULL;
  weft_r_check(weft_symbol_get_output(weft_r_symbol(sym), Rf_asInteger(index), &out));
  return weft_r_wrap_symbol(out);
}

SEXP weft_r_sym_internals(SEXP sym) {
  weft_symbol* out = NULL;
  weft_r_check(weft_symbol_get_internals(weft_r_symbol(sym), &out));
  return weft_r_wrap_symbol(out);
}

SEXP weft_r_sym_children(SEXP sym) {
  weft_symbol* out = NULL;
  weft_r_check(weft_symbol_get_children(weft_r_symbol(sym), &out));
  return out == NULL ? R_NilValue : weft_r_wrap_symbol(out);
}

/* which: 0 arguments, 1 outputs, 2 auxiliary states, 3 all inputs. */
SEXP weft_r_sym_list(SEXP sym, SEXP which) {
  int n = 0;
  const char** names = NULL;
  weft_r_check(weft_symbol_list(weft_r_symbol(sym), Rf_asInteger(which), &n, &names));
  return weft_r_string_vector(n, names);
}

SEXP weft_r_sym_name(SEXP sym) {
  const char* name = NULL;
  weft_r_check(weft_symbol_name(weft_r_symbol(sym), &name));
  return Rf_mkString(name);
}

SEXP weft_r_sym_get_attr(SEXP sym, SEXP key) {
  const char* value = NULL;
  int found = 0;
  weft_r_check(weft_symbol_get_attr(weft_r_symbol(sym), Rf_translateCharUTF8(STRING_ELT(key, 0)), &value, &found));
  return found ? Rf_mkString(value) : R_NilValue;
}

SEXP weft_r_sym_set_attr(SEXP sym, SEXP key, SEXP value) {
  weft_r_check(weft_symbol_set_attr(weft_r_symbol(sym), Rf_translateCharUTF8(STRING_ELT(key, 0)),
                                    Rf_translateCharUTF8(STRING_ELT(value, 0))));
  return sym;
}

/* A named character vector of attributes. */
SEXP weft_r_sym_list_attr(SEXP sym, SEXP recursive) {
  int n = 0;
  const char** pairs = NULL;
  weft_r_check(weft_symbol_list_attr(weft_r_symbol(sym), Rf_asLogical(recursive), &n, &pairs));
  SEXP values = PROTECT(Rf_allocVector(STRSXP, n));
  SEXP keys = PROTECT(Rf_allocVector(STRSXP, n));
  for (int i = 0; i < n; ++i) {
    SET_STRING_ELT(keys, i, Rf_mkCharCE(pairs[2 * i], CE_UTF8));
    SET_STRING_ELT(values, i, Rf_mkCharCE(pairs[2 * i + 1], CE_UTF8));
  }
  Rf_setAttrib(values, R_NamesSymbol, keys);
  UNPROTECT(2);
  return values;
}

SEXP weft_r_sym_to_json(SEXP sym) {
  const char* json = NULL;
  weft_r_check(weft_symbol_to_json(weft_r_symbol(sym), &json));
  return Rf_mkString(json);
}

SEXP weft_r_sym_from_json(SEXP json) {
  if (!Rf_isString(json) || XLENGTH(json) != 1) weft_r_fail("%s", "symbol JSON must be one string");
  weft_symbol* out = NULL;
  weft_r_check(weft_symbol_from_json(Rf_translateCharUTF8(STRING_ELT(json, 0)), &out));
  return weft_r_wrap_symbol(out);
}

static SEXP shape_list(int n, const int* ndims, const int64_t* const* dims) {
  SEXP out = PROTECT(Rf_allocVector(VECSXP, n));
  for (int i = 0; i < n; ++i) {
    if (ndims[i] < 0) continue;  /* unknown: NULL */
    SEXP s = Rf_allocVector(REALSXP, ndims[i]);
    SET_VECTOR_ELT(out, i, s);
    for (int j = 0; j < ndims[i]; ++j) REAL(s)[j] = (double)dims[i][j];
  }
  UNPROTECT(1);
  return out;
}

/* weft_r_sym_infer_shape(sym, names, shapes (list of numeric, library order), partial):
 * list(arg, out, aux (unnamed lists, NULL when unknown), complete). */
SEXP weft_r_sym_infer_shape(SEXP sym, SEXP names, SEXP shapes, SEXP partial) {
  int n_names;
  const char** nm = weft_r_strings(names, &n_names);
  if (TYPEOF(shapes) != VECSXP || XLENGTH(shapes) != n_names) weft_r_fail("%s", "one shape per name is needed");
  int* ndims = (int*)R_alloc(n_names + 1, sizeof(int));
  int64_t* offsets = (int64_t*)R_alloc(n_names + 1, sizeof(int64_t));
  int64_t total = 0;
  for (int i = 0; i < n_names; ++i) {
    SEXP s = VECTOR_ELT(shapes, i);
    if (!Rf_isNumeric(s)) weft_r_fail("the shape of '%s' is not numeric", nm[i]);
    ndims[i] = (int)XLENGTH(s);
    offsets[i] = total;
    total += ndims[i];
  }
  int64_t* data = (int64_t*)R_alloc(total + 1, sizeof(int64_t));
  for (int i = 0; i < n_names; ++i) {
    SEXP s = VECTOR_ELT(shapes, i);
    for (int j = 0; j < ndims[i]; ++j)
      data[offsets[i] + j] = TYPEOF(s) == REALSXP ? (int64_t)REAL(s)[j] : (int64_t)INTEGER(s)[j];
  }
  int complete = 0, n_arg, n_out, n_aux;
  const int *arg_nd, *out_nd, *aux_nd;
  const int64_t *const *arg_d, *const *out_d, *const *aux_d;
  weft_r_check(weft_symbol_infer_shape(weft_r_symbol(sym), n_names, nm, ndims, data, offsets, Rf_asLogical(partial),
                                       &complete, &n_arg, &arg_nd, &arg_d, &n_out, &out_nd, &out_d, &n_aux, &aux_nd,
                                       &aux_d));
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 4));
  SET_VECTOR_ELT(out, 0, shape_list(n_arg, arg_nd, arg_d));
  SET_VECTOR_ELT(out, 1, shape_list(n_out, out_nd, out_d));
  SET_VECTOR_ELT(out, 2, shape_list(n_aux, aux_nd, aux_d));
  SET_VECTOR_ELT(out, 3, Rf_ScalarLogical(complete));
  UNPROTECT(1);
  return out;
}
