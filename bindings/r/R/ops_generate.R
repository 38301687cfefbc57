# One R function per registry operator, built at package load from
# weft_op_list + weft_op_schema (the registry is the single source of truth, as
# MXNet's R package did with its operator listing):
#   weft.nd.<op>(<inputs>, <params>, out = NULL)      runs the op on NDArrays now;
#   weft.symbol.<op>(<inputs>, <params>, name = NULL, attr = NULL) composes a Symbol;
#   mx.nd.<op> and mx.symbol.<op> are the same functions under MXNet-R's names.
# Aliases get the same functions. Variadic operators (add_n, Concat, stack ...)
# take their inputs through `...` (or one list) and fill their count parameter.
# Parameters default to NULL, which leaves the library's documented default.
# The generated functions are documented by man/weft-op-<op>.Rd, written from the
# same registry by tools/gen_op_docs.R when the package is installed.

.weft_op_spec <- function(schema, handle) {
  params <- vapply(schema$params, function(p) p$name, "")
  types <- lapply(schema$params, function(p) p$type)
  names(types) <- params
  list(name = schema$name, handle = handle, inputs = as.character(unlist(schema$inputs)),
       params = params, types = types, variadic = schema$variadic)
}

.weft_formals <- function(spec, tail) {
  inputs <- if (is.null(spec$variadic)) {
    stats::setNames(rep(list(NULL), length(spec$inputs)), spec$inputs)
  } else {
    alist(... = )
  }
  params <- stats::setNames(rep(list(NULL), length(spec$params)), spec$params)
  as.pairlist(c(inputs, params, tail))
}

.weft_make_function <- function(spec, tail, caller, ns) {
  env <- new.env(parent = ns)
  env$.spec <- spec
  f <- function() NULL
  formals(f) <- .weft_formals(spec, tail)
  body(f) <- substitute(CALLER(.spec, environment()), list(CALLER = as.name(caller)))
  environment(f) <- env
  f
}

.weft_generate_ops <- function(ns) {
  for (op in .Call(weft_r_op_list)) {
    schema <- .Call(weft_r_op_schema, op)
    spec <- .weft_op_spec(schema, .Call(weft_r_op_handle, op))
    for (alias in unique(c(op, as.character(unlist(schema$aliases))))) {
      nd_name <- paste0("weft.nd.", alias)
      sym_name <- paste0("weft.symbol.", alias)
      # Hand-written functions (weft.nd.array, weft.symbol.Variable ...) win.
      if (!exists(nd_name, envir = ns, inherits = FALSE)) {
        assign(nd_name, .weft_make_function(spec, list(out = NULL), ".weft_nd_call", ns), envir = ns)
      }
      if (!exists(sym_name, envir = ns, inherits = FALSE)) {
        assign(sym_name, .weft_make_function(spec, list(name = NULL, attr = NULL), ".weft_symbol_call", ns),
               envir = ns)
      }
      # MXNet-R's names for the same functions (zz_mx_compat.R), unless written by hand there.
      for (pair in list(c(paste0("mx.nd.", alias), nd_name), c(paste0("mx.symbol.", alias), sym_name))) {
        if (!exists(pair[1], envir = ns, inherits = FALSE)) assign(pair[1], get(pair[2], envir = ns), envir = ns)
      }
    }
  }
}

# The op's inputs from a generated function's frame: named inputs (NULL dropped),
# or the variadic `...` (one list is accepted in its place).
.weft_call_inputs <- function(spec, env) {
  if (is.null(spec$variadic)) {
    inputs <- mget(spec$inputs, envir = env)
    return(inputs[!vapply(inputs, is.null, TRUE)])
  }
  dots <- eval(quote(list(...)), env)
  if (length(dots) == 1 && is.list(dots[[1]]) && !inherits(dots[[1]], c("WeftNDArray", "WeftSymbol"))) {
    dots <- dots[[1]]
  }
  dots
}

.weft_call_attrs <- function(spec, env, n_inputs) {
  attrs <- mget(spec$params, envir = env)
  if (!is.null(spec$variadic) && is.null(attrs[[spec$variadic]])) attrs[[spec$variadic]] <- n_inputs
  .weft_attr_pairs(attrs, spec$types)
}

.weft_nd_call <- function(spec, env) {
  inputs <- .weft_call_inputs(spec, env)
  for (i in seq_along(inputs)) {
    if (!inherits(inputs[[i]], "WeftNDArray")) {
      .weft_stop("weft.nd.", spec$name, ": input '", names(inputs)[i] %||% i, "' must be a WeftNDArray, got ",
                 class(inputs[[i]])[1])
    }
  }
  pairs <- .weft_call_attrs(spec, env, length(inputs))
  out <- get("out", envir = env)
  if (inherits(out, "WeftNDArray")) out <- list(out)
  res <- .Call(weft_r_op_invoke, spec$handle, unname(inputs), pairs$keys, pairs$vals, out)
  if (length(res) == 1) res[[1]] else res
}

.weft_symbol_call <- function(spec, env) {
  inputs <- .weft_call_inputs(spec, env)
  for (i in seq_along(inputs)) {
    if (!inherits(inputs[[i]], "WeftSymbol")) {
      .weft_stop("weft.symbol.", spec$name, ": input '", names(inputs)[i] %||% i, "' must be a WeftSymbol, got ",
                 class(inputs[[i]])[1])
    }
  }
  pairs <- .weft_call_attrs(spec, env, length(inputs))
  name <- get("name", envir = env)
  if (is.null(name)) name <- .weft_auto_name(spec$name)
  if (!(is.character(name) && length(name) == 1)) .weft_stop("name must be one string")
  if (is.null(spec$variadic)) {
    sym <- .Call(weft_r_sym_compose, spec$handle, name, pairs$keys, pairs$vals, NULL, names(inputs), unname(inputs))
  } else {
    sym <- .Call(weft_r_sym_compose, spec$handle, name, pairs$keys, pairs$vals, unname(inputs), NULL, NULL)
  }
  attr <- get("attr", envir = env)
  for (key in names(attr)) .Call(weft_r_sym_set_attr, sym, key, as.character(attr[[key]]))
  sym
}

# Node names for unnamed compositions, as MXNet's NameManager: the lower-cased
# operator name and a per-operator counter (fullyconnected0, fullyconnected1 ...).
.weft_name_counts <- new.env(parent = emptyenv())

.weft_auto_name <- function(op) {
  hint <- tolower(op)
  n <- .weft_name_counts[[hint]] %||% 0L
  assign(hint, n + 1L, envir = .weft_name_counts)
  paste0(hint, n)
}
