# Executors: a Symbol bound to arrays on a device. An executor is an environment
# (class WeftExecutor) holding its handle and named lists arg.arrays,
# grad.arrays, aux.arrays and, after a forward pass, outputs.

.weft_grad_req_codes <- c(null = 0L, write = 1L, add = 3L)

.weft_grad_req <- function(grad.req, arg.names) {
  if (length(grad.req) == 1 && is.null(names(grad.req))) grad.req <- rep(grad.req, length(arg.names))
  if (!is.null(names(grad.req))) {
    full <- rep("null", length(arg.names))
    names(full) <- arg.names
    full[names(grad.req)] <- grad.req
    grad.req <- full
  }
  if (length(grad.req) != length(arg.names)) .weft_stop("grad.req needs one entry per argument")
  codes <- .weft_grad_req_codes[grad.req]
  if (anyNA(codes)) .weft_stop("grad.req must be 'null', 'write' or 'add'")
  unname(codes)
}

# Binds symbol to given arrays (named lists by argument / auxiliary state name).
weft.bind <- function(symbol, ctx = weft.cpu(), arg.arrays, aux.arrays = list(), grad.arrays = NULL,
                      grad.req = "null") {
  symbol <- .weft_sym_check(symbol)
  ctx <- .weft_check_ctx(ctx)
  arg.names <- arguments(symbol)
  aux.names <- weft.symbol.auxiliary.states(symbol)
  missing.args <- setdiff(arg.names, names(arg.arrays))
  if (length(missing.args)) .weft_stop("weft.bind: no array for argument(s) ", paste(missing.args, collapse = ", "))
  missing.aux <- setdiff(aux.names, names(aux.arrays))
  if (length(missing.aux)) .weft_stop("weft.bind: no array for auxiliary state(s) ", paste(missing.aux, collapse = ", "))
  reqs <- .weft_grad_req(grad.req, arg.names)
  arg.arrays <- arg.arrays[arg.names]
  aux.arrays <- aux.arrays[aux.names]
  grads <- stats::setNames(vector("list", length(arg.names)), arg.names)
  for (i in seq_along(arg.names)) {
    if (reqs[i] != 0L) {
      g <- if (!is.null(grad.arrays)) grad.arrays[[arg.names[i]]] else NULL
      grads[i] <- list(if (is.null(g)) weft.nd.zeros(dim(arg.arrays[[i]]), ctx, weft.nd.dtype(arg.arrays[[i]])) else g)
    }
  }
  handle <- .Call(weft_r_exec_bind, symbol, ctx$device_typeid, ctx$device_id, unname(arg.arrays), unname(grads),
                  reqs, unname(aux.arrays))
  exec <- new.env(parent = emptyenv())
  exec$handle <- handle
  exec$symbol <- symbol
  exec$ctx <- ctx
  exec$arg.arrays <- arg.arrays
  exec$grad.arrays <- grads
  exec$aux.arrays <- aux.arrays
  exec$outputs <- NULL
  # MXNet-R's names for the same lists.
  exec$ref.arg.arrays <- arg.arrays
  exec$ref.grad.arrays <- grads
  exec$ref.aux.arrays <- aux.arrays
  class(exec) <- "WeftExecutor"
  exec
}

# Allocates arrays from shapes given by name (R order) and binds.
weft.simple.bind <- function(symbol, ctx = weft.cpu(), grad.req = "null", fixed.param = NULL, dtype = "float32",
                             ...) {
  symbol <- .weft_sym_check(symbol)
  shapes <- infer.shape(symbol, ...)
  if (is.null(shapes)) {
    .weft_stop("weft.simple.bind: the given shapes (", paste(names(list(...)), collapse = ", "),
               ") do not determine every argument shape of the symbol; arguments: ",
               paste(arguments(symbol), collapse = ", "))
  }
  arg.arrays <- lapply(shapes$arg.shapes, function(s) weft.nd.zeros(s, ctx, dtype))
  aux.arrays <- lapply(shapes$aux.shapes, function(s) weft.nd.zeros(s, ctx, dtype))
  arg.names <- names(arg.arrays)
  reqs <- if (length(grad.req) == 1 && is.null(names(grad.req))) rep(grad.req, length(arg.names)) else grad.req
  if (is.null(names(reqs))) names(reqs) <- arg.names
  reqs[intersect(fixed.param, arg.names)] <- "null"
  weft.bind(symbol, ctx, arg.arrays, aux.arrays, grad.req = reqs[arg.names])
}

weft.exec.forward <- function(exec, is.train = FALSE) {
  .Call(weft_r_exec_forward, exec$handle, is.train)
  exec$outputs <- stats::setNames(.Call(weft_r_exec_outputs, exec$handle), outputs(exec$symbol))
  exec$ref.outputs <- exec$outputs
  invisible(exec)
}

# out.grads: NULL (ones for every output) or a list of NDArrays, one per output.
weft.exec.backward <- function(exec, out.grads = NULL) {
  if (inherits(out.grads, "WeftNDArray")) out.grads <- list(out.grads)
  .Call(weft_r_exec_backward, exec$handle, out.grads)
  invisible(exec)
}

# Copies values (NDArrays or R arrays, by name) into the executor's argument or
# auxiliary arrays; unknown names are an error unless skip.null/match.name allow.
.weft_exec_update <- function(targets, values, match.name, what) {
  for (name in names(values)) {
    dst <- targets[[name]]
    if (is.null(dst)) {
      if (match.name) next
      .weft_stop("executor has no ", what, " named '", name, "'")
    }
    v <- values[[name]]
    if (is.null(v)) next
    if (!identical(as.numeric(dim(v) %||% length(v)), as.numeric(dim(dst)))) {
      .weft_stop(what, " '", name, "' has dim c(", paste(dim(dst), collapse = ", "), ") but the value has dim c(",
                 paste(dim(v) %||% length(v), collapse = ", "), ")")
    }
    if (inherits(v, "WeftNDArray")) weft.nd.copy.into(v, dst) else weft.nd.set.values(dst, v)
  }
}

weft.exec.update.arg.arrays <- function(exec, arg.arrays, match.name = FALSE) {
  .weft_exec_update(exec$arg.arrays, arg.arrays, match.name, "argument")
  invisible(exec)
}

weft.exec.update.aux.arrays <- function(exec, aux.arrays, match.name = FALSE) {
  .weft_exec_update(exec$aux.arrays, aux.arrays, match.name, "auxiliary state")
  invisible(exec)
}

print.WeftExecutor <- function(x, ...) {
  cat(sprintf("<WeftExecutor on %s: arguments %s>\n", x$ctx$device, paste(names(x$arg.arrays), collapse = ", ")))
  invisible(x)
}
