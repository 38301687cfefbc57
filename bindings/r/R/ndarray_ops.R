# Arithmetic, comparison and math on NDArrays through registry operators.
# Two arrays of the same dim use the elementwise ops, others broadcast (the
# library's broadcasting aligns trailing library axes, i.e. leading R dims).

.weft_op_cache <- new.env(parent = emptyenv())

.weft_op <- function(name) {
  h <- .weft_op_cache[[name]]
  if (is.null(h)) {
    h <- .Call(weft_r_op_handle, name)
    assign(name, h, envir = .weft_op_cache)
  }
  h
}

.weft_invoke1 <- function(op, inputs, keys = character(0), vals = character(0)) {
  .Call(weft_r_op_invoke, .weft_op(op), inputs, keys, vals, NULL)[[1]]
}

.weft_binary_ops <- list(
  "+" = c("elemwise_add", "broadcast_add", "_plus_scalar", "_plus_scalar"),
  "-" = c("elemwise_sub", "broadcast_sub", "_minus_scalar", "_rminus_scalar"),
  "*" = c("elemwise_mul", "broadcast_mul", "_mul_scalar", "_mul_scalar"),
  "/" = c("elemwise_div", "broadcast_div", "_div_scalar", "_rdiv_scalar"),
  "^" = c("_power", "broadcast_power", "_power_scalar", "_rpower_scalar"),
  "%%" = c("_mod", "broadcast_mod", "_mod_scalar", "_rmod_scalar"),
  "==" = c("_equal", "broadcast_equal", "_equal_scalar", "_equal_scalar"),
  "!=" = c("_not_equal", "broadcast_not_equal", "_not_equal_scalar", "_not_equal_scalar"),
  ">" = c("_greater", "broadcast_greater", "_greater_scalar", "_lesser_scalar"),
  ">=" = c("_greater_equal", "broadcast_greater_equal", "_greater_equal_scalar", "_lesser_equal_scalar"),
  "<" = c("_lesser", "broadcast_lesser", "_lesser_scalar", "_greater_scalar"),
  "<=" = c("_lesser_equal", "broadcast_lesser_equal", "_lesser_equal_scalar", "_greater_equal_scalar")
)

Ops.WeftNDArray <- function(e1, e2) {
  if (missing(e2)) {
    if (.Generic == "-") return(.weft_invoke1("negative", list(e1)))
    if (.Generic == "+") return(e1)
    .weft_stop("unary ", .Generic, " is not defined for NDArrays")
  }
  ops <- .weft_binary_ops[[.Generic]]
  if (is.null(ops)) .weft_stop("operator ", .Generic, " is not defined for NDArrays")
  nd1 <- inherits(e1, "WeftNDArray")
  nd2 <- inherits(e2, "WeftNDArray")
  if (nd1 && nd2) {
    same <- identical(dim(e1), dim(e2))
    return(.weft_invoke1(if (same) ops[1] else ops[2], list(e1, e2)))
  }
  scalar <- if (nd1) e2 else e1
  if (!is.numeric(scalar) || length(scalar) != 1) {
    .weft_stop("an NDArray combines with another NDArray or one number, got ", class(scalar)[1],
               " of length ", length(scalar))
  }
  op <- if (nd1) ops[3] else ops[4]
  .weft_invoke1(op, list(if (nd1) e1 else e2), "scalar", .weft_number_string(scalar))
}

.weft_math_ops <- c(abs = "abs", sign = "sign", sqrt = "sqrt", exp = "exp", expm1 = "expm1",
                    log1p = "log1p", floor = "floor", ceiling = "ceil", round = "round",
                    cos = "cos", sin = "sin", tan = "tan", tanh = "tanh")

Math.WeftNDArray <- function(x, ...) {
  if (.Generic == "log" && length(list(...)) == 0) return(.weft_invoke1("log", list(x)))
  op <- .weft_math_ops[.Generic]
  if (is.na(op)) .weft_stop(.Generic, " is not defined for NDArrays; convert with as.array() first")
  .weft_invoke1(unname(op), list(x))
}

Summary.WeftNDArray <- function(..., na.rm = FALSE) {
  args <- list(...)
  if (length(args) != 1) .weft_stop(.Generic, " takes one NDArray")
  op <- c(sum = "sum", max = "max", min = "min", prod = "prod")[.Generic]
  if (is.na(op)) .weft_stop(.Generic, " is not defined for NDArrays")
  as.vector(.weft_invoke1(unname(op), args))
}
