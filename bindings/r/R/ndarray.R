# NDArray: an external pointer to a library array (class WeftNDArray), freed by
# its finalizer at garbage collection.
#
# Dimension order (Note [Dimension order] in src/ndarray.c): an R array of
# dim c(d1, ..., dn) holds its values column-major, which is the memory layout
# of a row-major library array of shape (dn, ..., d1). The R API therefore
# reports and accepts dimensions in R order -- dim() of an NDArray is the
# reverse of the library's shape, as in MXNet's R package -- and values move
# between R and the library without a transposition. A matrix of n samples as
# columns (dim c(features, n)) is a library batch of shape (n, features).

weft.nd.array <- function(src.array, ctx = weft.cpu(), dtype = "float32") {
  ctx <- .weft_check_ctx(ctx)
  if (inherits(src.array, "WeftNDArray")) return(weft.nd.copyto(src.array, ctx))
  if (!(is.numeric(src.array) || is.logical(src.array))) {
    .weft_stop("weft.nd.array needs a numeric or logical vector, matrix or array, got ", class(src.array)[1])
  }
  d <- dim(src.array)
  if (is.null(d)) d <- length(src.array)
  arr <- .Call(weft_r_nd_create, rev(as.numeric(d)), .weft_dtype_flag(dtype), ctx$device_typeid, ctx$device_id)
  .Call(weft_r_nd_copy_from_r, arr, as.vector(src.array))
  arr
}

# Shapes in R order, e.g. weft.nd.zeros(c(3, 2)) has dim c(3, 2).
.weft_nd_empty <- function(shape, ctx = weft.cpu(), dtype = "float32") {
  ctx <- .weft_check_ctx(ctx)
  .Call(weft_r_nd_create, rev(as.numeric(shape)), .weft_dtype_flag(dtype), ctx$device_typeid, ctx$device_id)
}

.weft_nd_fill <- function(shape, value, ctx, dtype) {
  arr <- .weft_nd_empty(shape, ctx, dtype)
  .Call(weft_r_nd_copy_from_r, arr, rep(value, prod(shape)))
  arr
}

weft.nd.zeros <- function(shape, ctx = weft.cpu(), dtype = "float32") .weft_nd_fill(shape, 0, ctx, dtype)

weft.nd.ones <- function(shape, ctx = weft.cpu(), dtype = "float32") .weft_nd_fill(shape, 1, ctx, dtype)

weft.nd.copyto <- function(src, ctx) {
  ctx <- .weft_check_ctx(ctx)
  .Call(weft_r_nd_copy_to_context, .weft_nd_check(src), ctx$device_typeid, ctx$device_id)
}

is.weft.ndarray <- function(x) inherits(x, "WeftNDArray")

.weft_nd_check <- function(x, what = "argument") {
  if (!inherits(x, "WeftNDArray")) .weft_stop(what, " must be a WeftNDArray, got ", class(x)[1])
  x
}

as.array.WeftNDArray <- function(x, ...) {
  values <- .Call(weft_r_nd_to_r, x)
  d <- dim.WeftNDArray(x)
  if (length(d) >= 2) dim(values) <- d
  values
}

as.matrix.WeftNDArray <- function(x, ...) {
  d <- dim.WeftNDArray(x)
  if (length(d) != 2) .weft_stop("as.matrix needs a 2-d NDArray, this one has dim c(", paste(d, collapse = ", "), ")")
  as.array.WeftNDArray(x)
}

as.vector.WeftNDArray <- function(x, mode = "any") as.vector(.Call(weft_r_nd_to_r, x), mode)

as.double.WeftNDArray <- function(x, ...) as.double(.Call(weft_r_nd_to_r, x))

dim.WeftNDArray <- function(x) rev(.Call(weft_r_nd_shape, x))

length.WeftNDArray <- function(x) prod(.Call(weft_r_nd_shape, x))

weft.nd.dtype <- function(x) .weft_dtype_name(.Call(weft_r_nd_dtype, .weft_nd_check(x)))

weft.nd.context <- function(x) {
  ctx <- .Call(weft_r_nd_context, .weft_nd_check(x))
  if (ctx[1] == 2L) weft.gpu(ctx[2]) else weft.cpu(ctx[2])
}

print.WeftNDArray <- function(x, ...) {
  if (isTRUE(.Call(weft_r_is_null_handle, x))) {
    cat("<WeftNDArray: freed handle>\n")
    return(invisible(x))
  }
  cat(sprintf("<WeftNDArray %s %s on %s>\n", paste(dim(x), collapse = "x"), weft.nd.dtype(x),
              weft.nd.context(x)$device))
  print(as.array(x), ...)
  invisible(x)
}

# A view with new dimensions (R order; one entry may be -1).
weft.nd.reshape.view <- function(x, shape) .Call(weft_r_nd_reshape, .weft_nd_check(x), rev(as.numeric(shape)))

# A view of indices [begin, end] (1-based, inclusive) of the last R dimension --
# the library's first axis, whose slices are contiguous.
weft.nd.slice.last <- function(x, begin, end) {
  .Call(weft_r_nd_slice, .weft_nd_check(x), begin - 1, end)
}

# Copies src into dst (same dim; dtype converted) and returns dst.
weft.nd.copy.into <- function(src, dst) .Call(weft_r_nd_copy_to, .weft_nd_check(src), .weft_nd_check(dst))

# Sets dst's values from an R vector/array of the same length.
weft.nd.set.values <- function(dst, values) .Call(weft_r_nd_copy_from_r, .weft_nd_check(dst), as.vector(values))

weft.nd.shares.memory <- function(a, b) .Call(weft_r_nd_shares_memory, .weft_nd_check(a), .weft_nd_check(b))

weft.nd.wait.all <- function() invisible(.Call(weft_r_wait_all))

weft.set.seed <- function(seed) invisible(.Call(weft_r_random_seed, seed))

# The library's version, e.g. "0.1.0"; weft.abi.version() is its C ABI number.
weft.version <- function() .Call(weft_r_version)[[1]]

weft.abi.version <- function() as.integer(.Call(weft_r_version)[[2]])

# Saves a (named) list of NDArrays in the MXNet 1.x .params format.
weft.nd.save <- function(ndarray, filename) {
  if (inherits(ndarray, "WeftNDArray")) ndarray <- list(ndarray)
  if (!is.list(ndarray)) .weft_stop("weft.nd.save needs an NDArray or a list of them")
  keys <- names(ndarray)
  if (!is.null(keys) && any(keys == "")) .weft_stop("weft.nd.save: either name every array or none")
  .Call(weft_r_nd_save, path.expand(filename), unname(ndarray), keys)
  invisible(filename)
}

weft.nd.load <- function(filename) .Call(weft_r_nd_load, path.expand(filename))

# Memory of a device as the library's storage layer counts it (bytes).
weft.storage.stats <- function(ctx = weft.cpu()) {
  ctx <- .weft_check_ctx(ctx)
  s <- .Call(weft_r_storage_stats, ctx$device_typeid, ctx$device_id)
  names(s) <- c("bytes.in.use", "peak.bytes.in.use", "bytes.pooled", "num.allocs", "num.pool.hits")
  s
}
