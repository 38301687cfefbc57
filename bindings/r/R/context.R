#' Device contexts.
weft.cpu <- function(dev.id = 0) {
  structure(list(device = "cpu", device_typeid = 1L, device_id = as.integer(dev.id)), class = "WeftContext")
}

weft.gpu <- function(dev.id = 0) {
  structure(list(device = "gpu", device_typeid = 2L, device_id = as.integer(dev.id)), class = "WeftContext")
}

print.WeftContext <- function(x, ...) {
  cat(sprintf("%s(%d)\n", x$device, x$device_id))
  invisible(x)
}

.weft_check_ctx <- function(ctx) {
  if (!inherits(ctx, "WeftContext")) .weft_stop("ctx must be weft.cpu() or weft.gpu(), got ", class(ctx)[1])
  ctx
}
