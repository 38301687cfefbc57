# R values as the library's attribute strings (the text MXNet's JSON holds):
# TRUE -> "True", 3 -> "3", 0.001 -> "0.001", c(2, 3) -> "(2,3)", "relu" -> "relu".
# Values are passed in the library's order: a shape or axis attribute of an
# operator is written as the library (and MXNet's Python API) reads it.
.weft_attr_string <- function(value, type = "") {
  if (is.character(value)) {
    if (length(value) != 1) .weft_stop("a string attribute must be one string")
    return(value)
  }
  if (is.logical(value)) {
    if (length(value) != 1 || is.na(value)) .weft_stop("a logical attribute must be TRUE or FALSE")
    return(if (value) "True" else "False")
  }
  if (is.numeric(value)) {
    text <- vapply(value, .weft_number_string, "")
    if (length(value) == 1 && !identical(type, "tuple of int")) return(text)
    if (length(value) == 1) return(paste0("(", text, ",)"))
    return(paste0("(", paste(text, collapse = ","), ")"))
  }
  .weft_stop("cannot pass a ", class(value)[1], " as an operator attribute")
}

.weft_number_string <- function(x) {
  if (is.na(x)) .weft_stop("NA is not a valid attribute value")
  if (x == round(x) && abs(x) < 1e15) return(format(x, scientific = FALSE, trim = TRUE))
  format(x, digits = 17, trim = TRUE)
}

# A named list of attribute values (NULL entries dropped) -> list(keys, vals).
.weft_attr_pairs <- function(attrs, types = NULL) {
  attrs <- attrs[!vapply(attrs, is.null, TRUE)]
  keys <- names(attrs)
  vals <- vapply(seq_along(attrs), function(i) {
    .weft_attr_string(attrs[[i]], if (is.null(types)) "" else types[[keys[i]]] %||% "")
  }, "")
  list(keys = if (length(keys)) keys else character(0), vals = vals)
}

`%||%` <- function(a, b) if (is.null(a)) b else a
