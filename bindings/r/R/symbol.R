# Symbols: declarative graphs composed from registry operators (the generated
# weft.symbol.<op> functions) and variables. Shapes given to and returned by
# infer.shape are in R order (Note [Dimension order]).

weft.symbol.Variable <- function(name, attr = NULL) {
  if (!is.character(name) || length(name) != 1) .weft_stop("a Variable is named by one string")
  sym <- .Call(weft_r_sym_variable, name)
  for (key in names(attr)) .Call(weft_r_sym_set_attr, sym, key, as.character(attr[[key]]))
  sym
}

weft.symbol.Group <- function(...) {
  symbols <- list(...)
  if (length(symbols) == 1 && is.list(symbols[[1]]) && !inherits(symbols[[1]], "WeftSymbol")) symbols <- symbols[[1]]
  .Call(weft_r_sym_group, symbols)
}

is.weft.symbol <- function(x) inherits(x, "WeftSymbol")

.weft_sym_check <- function(x) {
  if (!inherits(x, "WeftSymbol")) .weft_stop("expected a WeftSymbol, got ", class(x)[1])
  x
}

arguments <- function(x) UseMethod("arguments")
arguments.WeftSymbol <- function(x) .Call(weft_r_sym_list, x, 0L)

outputs <- function(x) UseMethod("outputs")
outputs.WeftSymbol <- function(x) .Call(weft_r_sym_list, x, 1L)

weft.symbol.auxiliary.states <- function(symbol) .Call(weft_r_sym_list, .weft_sym_check(symbol), 2L)

weft.symbol.inputs <- function(symbol) .Call(weft_r_sym_list, .weft_sym_check(symbol), 3L)

weft.symbol.name <- function(symbol) .Call(weft_r_sym_name, .weft_sym_check(symbol))

weft.symbol.internals <- function(symbol) .Call(weft_r_sym_internals, .weft_sym_check(symbol))

weft.symbol.children <- function(symbol) .Call(weft_r_sym_children, .weft_sym_check(symbol))

weft.symbol.attr <- function(symbol, key) .Call(weft_r_sym_get_attr, .weft_sym_check(symbol), key)

weft.symbol.attributes <- function(symbol, recursive = FALSE) {
  .Call(weft_r_sym_list_attr, .weft_sym_check(symbol), recursive)
}

weft.symbol.num.outputs <- function(symbol) .Call(weft_r_sym_num_outputs, .weft_sym_check(symbol))

# Output i (1-based) or the output named i.
`[[.WeftSymbol` <- function(x, i) {
  if (is.character(i)) {
    idx <- match(i, outputs(x))
    if (is.na(idx)) .weft_stop("symbol has no output '", i, "'; outputs: ", paste(outputs(x), collapse = ", "))
    i <- idx
  }
  n <- weft.symbol.num.outputs(x)
  if (!is.numeric(i) || length(i) != 1 || i < 1 || i > n) .weft_stop("output index must be in 1..", n)
  .Call(weft_r_sym_get_output, x, as.integer(i - 1))
}

# Re-composition: a copy whose arguments are replaced by symbols, by name.
weft.symbol.compose <- function(symbol, ...) {
  subs <- list(...)
  if (length(subs) && (is.null(names(subs)) || any(names(subs) == ""))) {
    .Call(weft_r_sym_substitute, .weft_sym_check(symbol), subs, NULL, NULL)
  } else {
    .Call(weft_r_sym_substitute, .weft_sym_check(symbol), NULL, names(subs), unname(subs))
  }
}

weft.symbol.tojson <- function(symbol) .Call(weft_r_sym_to_json, .weft_sym_check(symbol))

weft.symbol.fromjson <- function(json) .Call(weft_r_sym_from_json, json)

weft.symbol.save <- function(symbol, filename) {
  writeLines(weft.symbol.tojson(symbol), filename, useBytes = TRUE)
  invisible(filename)
}

weft.symbol.load <- function(filename) {
  if (!file.exists(filename)) .weft_raise(paste0("symbol file '", filename, "' does not exist"), "weftIOError")
  weft.symbol.fromjson(paste(readLines(filename, warn = FALSE, encoding = "UTF-8"), collapse = "\n"))
}

print.WeftSymbol <- function(x, ...) {
  if (isTRUE(.Call(weft_r_is_null_handle, x))) {
    cat("<WeftSymbol: freed handle>\n")
    return(invisible(x))
  }
  name <- weft.symbol.name(x)
  cat(sprintf("<WeftSymbol %s>\n  arguments: %s\n  outputs: %s\n", if (nzchar(name)) name else "(group)",
              paste(arguments(x), collapse = ", "), paste(outputs(x), collapse = ", ")))
  invisible(x)
}

# infer.shape(symbol, data = c(784, 128)): shapes of arguments, outputs and
# auxiliary states as named lists of R-order dims; NULL when the given shapes do
# not determine every shape.
infer.shape <- function(x, ...) UseMethod("infer.shape")

infer.shape.WeftSymbol <- function(x, ...) {
  shapes <- list(...)
  if (length(shapes) == 1 && is.list(shapes[[1]])) shapes <- shapes[[1]]
  if (length(shapes) && (is.null(names(shapes)) || any(names(shapes) == ""))) {
    .weft_stop("infer.shape takes shapes by argument name, e.g. data = c(784, 128)")
  }
  res <- .Call(weft_r_sym_infer_shape, x, names(shapes) %||% character(0),
               lapply(unname(shapes), function(s) rev(as.numeric(s))), TRUE)
  if (!res[[4]]) return(NULL)
  named <- function(lst, nm) stats::setNames(lapply(lst, rev), nm)
  list(arg.shapes = named(res[[1]], arguments(x)), out.shapes = named(res[[2]], outputs(x)),
       aux.shapes = named(res[[3]], weft.symbol.auxiliary.states(x)))
}
