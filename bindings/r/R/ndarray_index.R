# Indexing and matrix products on NDArrays in R (and MXNet-R) dimension order:
# x[i, j], x[i] <- v and a %*% b mean what they mean on as.array(x), so R code
# written for matrices works on NDArrays. x[...] returns a new NDArray (same
# device and dtype); x[...] <- value writes into x itself, so every reference to
# the array (an executor's argument, a model parameter) sees the new values.

`[.WeftNDArray` <- function(x, ..., drop = TRUE) {
  values <- as.array.WeftNDArray(x)
  picked <- if (is.null(dim(values))) values[...] else values[..., drop = drop]
  if (!length(picked)) .weft_stop("the index selects no element; an NDArray cannot be empty")
  weft.nd.array(picked, weft.nd.context(x), weft.nd.dtype(x))
}

`[<-.WeftNDArray` <- function(x, ..., value) {
  if (inherits(value, "WeftNDArray")) value <- as.array.WeftNDArray(value)
  if (!(is.numeric(value) || is.logical(value))) .weft_stop("an NDArray takes numbers, got ", class(value)[1])
  values <- as.array.WeftNDArray(x)
  values[...] <- value
  .Call(weft_r_nd_copy_from_r, x, as.vector(values))
  x
}

# a %*% b with an NDArray operand: c(m, k) %*% c(k, n) is c(m, n). In the
# library's row-major shapes that is dot(b, a): (n, k) . (k, m) = (n, m). A
# 1-d operand is a row vector on the left and a column vector on the right, as
# for R vectors. R (before 4.4) dispatches %*% only on S4 objects, so the
# package exports a %*% that handles NDArrays and calls base::`%*%` otherwise
# (attaching the package reports it as masking base's).
`%*%` <- function(x, y) {
  if (inherits(x, "WeftNDArray") || inherits(y, "WeftNDArray")) return(.weft_matmul(x, y))
  base::`%*%`(x, y)
}

.weft_matmul <- function(x, y) {
  ctx <- weft.nd.context(if (inherits(x, "WeftNDArray")) x else y)
  as.nd <- function(v) if (inherits(v, "WeftNDArray")) v else weft.nd.array(as.array(v), ctx)
  x <- as.nd(x)
  y <- as.nd(y)
  if (length(dim(x)) == 1) x <- weft.nd.reshape.view(x, c(1, length(x)))
  if (length(dim(y)) == 1) y <- weft.nd.reshape.view(y, c(length(y), 1))
  dx <- dim(x)
  dy <- dim(y)
  if (length(dx) != 2 || length(dy) != 2 || dx[2] != dy[1]) {
    .weft_raise(sprintf("non-conformable arguments: dim c(%s) %%*%% dim c(%s)", paste(dx, collapse = ", "),
                        paste(dy, collapse = ", ")), "weftShapeError")
  }
  weft.nd.dot(y, x)
}
