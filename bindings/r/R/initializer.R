# Initializers: functions (name, shape, ctx) -> NDArray, chosen per argument by
# its name as MXNet does: *_bias, *_beta and moving means start at 0, *_gamma
# and moving variances at 1, weights from the initializer's distribution. The
# random draws use the library's generators (_random_uniform/_random_normal),
# so weft.set.seed makes them reproducible.

.weft_init_fixed <- function(name, shape, ctx) {
  if (grepl("(bias|beta|moving_mean|running_mean)$", name)) return(weft.nd.zeros(shape, ctx))
  if (grepl("(gamma|moving_var|running_var)$", name)) return(weft.nd.ones(shape, ctx))
  NULL
}

.weft_random <- function(op, shape, ctx, attrs) {
  pairs <- .weft_attr_pairs(c(list(shape = rev(as.numeric(shape)),
                                   ctx = sprintf("%s(%d)", ctx$device, ctx$device_id)), attrs),
                            list(shape = "tuple of int"))
  .Call(weft_r_op_invoke, .weft_op(op), list(), pairs$keys, pairs$vals, NULL)[[1]]
}

weft.init.uniform <- function(scale = 0.07) {
  structure(function(name, shape, ctx = weft.cpu(), allow.unknown = FALSE) {
    .weft_init_fixed(name, shape, ctx) %||% .weft_random("_random_uniform", shape, ctx, list(low = -scale, high = scale))
  }, class = "WeftInitializer")
}

weft.init.normal <- function(sd = 0.01) {
  structure(function(name, shape, ctx = weft.cpu(), allow.unknown = FALSE) {
    .weft_init_fixed(name, shape, ctx) %||% .weft_random("_random_normal", shape, ctx, list(loc = 0, scale = sd))
  }, class = "WeftInitializer")
}

# Xavier/Glorot: scale = sqrt(magnitude / factor) with fan_in/fan_out from the
# library shape (out, in, kernel...), as MXNet's mx.init.Xavier.
weft.init.Xavier <- function(rnd_type = "uniform", factor_type = "avg", magnitude = 3) {
  if (!rnd_type %in% c("uniform", "gaussian")) .weft_stop("rnd_type must be 'uniform' or 'gaussian'")
  if (!factor_type %in% c("avg", "in", "out")) .weft_stop("factor_type must be 'avg', 'in' or 'out'")
  structure(function(name, shape, ctx = weft.cpu(), allow.unknown = FALSE) {
    fixed <- .weft_init_fixed(name, shape, ctx)
    if (!is.null(fixed)) return(fixed)
    lib_shape <- rev(shape)
    receptive <- if (length(lib_shape) > 2) prod(lib_shape[-(1:2)]) else 1
    fan_out <- lib_shape[1] * receptive
    fan_in <- if (length(lib_shape) > 1) lib_shape[2] * receptive else lib_shape[1]
    factor <- switch(factor_type, avg = (fan_in + fan_out) / 2, "in" = fan_in, out = fan_out)
    scale <- sqrt(magnitude / factor)
    if (rnd_type == "uniform") {
      .weft_random("_random_uniform", shape, ctx, list(low = -scale, high = scale))
    } else {
      .weft_random("_random_normal", shape, ctx, list(loc = 0, scale = scale))
    }
  }, class = "WeftInitializer")
}

# Initial values for every argument of symbol except the inputs, from shapes (R order).
weft.init.create <- function(initializer, shape.list, ctx = weft.cpu()) {
  if (!is.function(initializer)) .weft_stop("initializer must be weft.init.uniform(), weft.init.normal() or weft.init.Xavier()")
  out <- lapply(names(shape.list), function(name) initializer(name, shape.list[[name]], ctx))
  names(out) <- names(shape.list)
  out
}

# MXNet-R's fixed patterns: *bias, *beta, *moving_mean -> 0; *gamma, *moving_var
# -> 1; any other name is an error unless allow.unknown (then NULL).
weft.init.internal.default <- function(name, shape, ctx = weft.cpu(), allow.unknown = FALSE) {
  fixed <- .weft_init_fixed(name, shape, ctx %||% weft.cpu())
  if (!is.null(fixed) || allow.unknown) return(fixed)
  .weft_stop("no initialization pattern for '", name, "' (only *bias, *beta, *gamma, *moving_mean and *moving_var have one)")
}

# mx.init.create: values for every name of shape.array, skipping the inputs
# (names ending in data or label) when skip.unknown.
weft.init.mx.create <- function(initializer, shape.array, ctx = NULL, skip.unknown = TRUE) {
  if (skip.unknown) shape.array <- shape.array[!grepl("(data|label)$", names(shape.array))]
  weft.init.create(initializer, shape.array, ctx %||% weft.cpu())
}
