# Optimizers, as MXNet's R package: an optimizer is a list with
# create.state(index, weight) and update(index, weight, grad, state), which
# changes weight in place. The fused ones run the registry's update operators
# (sgd_update, sgd_mom_update, nag_mom_update, signum_update, adam_update,
# rmsprop_update, ftrl_update) through op invoke, one engine op per parameter and
# no copy through R; the others (centered RMSProp, AdaGrad, AdaDelta) are the
# Python binding's formulas in NDArray operations. Names and defaults follow
# MXNet-R (learning.rate, wd, rescale.grad, clip_gradient, lr_scheduler).

.weft_update <- function(op, inputs, weight, pairs) {
  .Call(weft_r_op_invoke, op, inputs, pairs$keys, pairs$vals, list(weight))
  invisible(weight)
}

# Shared by every optimizer: per-weight update counts, num_update (their
# maximum, as MXNet's Optimizer) and the learning rate from lr_scheduler.
# step(weight, grad, state, lr, t) does the arithmetic; t counts this weight's
# updates from 1.
.weft_optimizer <- function(name, learning.rate, lr_scheduler, create.state, step) {
  if (!is.numeric(learning.rate) || length(learning.rate) != 1 || is.na(learning.rate)) {
    .weft_stop("learning.rate must be one number")
  }
  env <- new.env(parent = emptyenv())
  env$lr <- learning.rate
  env$base.lr <- learning.rate
  env$num_update <- 0
  env$count <- 0
  counts <- new.env(parent = emptyenv())
  list(name = name, env = env, create.state = create.state,
       update = function(index, weight, grad, state) {
         key <- as.character(index)
         t <- (counts[[key]] %||% 0) + 1
         assign(key, t, envir = counts)
         env$num_update <- max(env$num_update, t)
         step(weight, grad, state, .weft_scheduled_lr(lr_scheduler, env), t)
         invisible(weight)
       })
}

.weft_zeros_like <- function(weight) weft.nd.zeros(dim(weight), weft.nd.context(weight), weft.nd.dtype(weight))

# The attribute strings with lr in front (lr changes per update, the rest not).
.weft_with_lr <- function(lr, fixed) list(keys = c("lr", fixed$keys), vals = c(.weft_number_string(lr), fixed$vals))

.weft_common_attrs <- function(wd, rescale.grad, clip_gradient) {
  list(wd = wd, rescale_grad = rescale.grad, clip_gradient = clip_gradient)
}

weft.opt.sgd <- function(learning.rate = 0.01, momentum = 0, wd = 0, rescale.grad = 1, clip_gradient = -1,
                         lr_scheduler = NULL) {
  common <- .weft_common_attrs(wd, rescale.grad, clip_gradient)
  plain <- .weft_attr_pairs(common)
  with.momentum <- .weft_attr_pairs(c(common, list(momentum = momentum)))
  sgd_update <- .weft_op("sgd_update")
  sgd_mom_update <- .weft_op("sgd_mom_update")
  .weft_optimizer("sgd", learning.rate, lr_scheduler,
    create.state = function(index, weight) if (momentum == 0) NULL else .weft_zeros_like(weight),
    step = function(weight, grad, state, lr, t) {
      if (is.null(state)) .weft_update(sgd_update, list(weight, grad), weight, .weft_with_lr(lr, plain))
      else .weft_update(sgd_mom_update, list(weight, grad, state), weight, .weft_with_lr(lr, with.momentum))
    })
}

# Nesterov momentum (nag_mom_update; sgd_update without momentum).
weft.opt.nag <- function(learning.rate = 0.01, momentum = 0, wd = 0, rescale.grad = 1, clip_gradient = -1,
                         lr_scheduler = NULL) {
  common <- .weft_common_attrs(wd, rescale.grad, clip_gradient)
  plain <- .weft_attr_pairs(common)
  with.momentum <- .weft_attr_pairs(c(common, list(momentum = momentum)))
  sgd_update <- .weft_op("sgd_update")
  nag_mom_update <- .weft_op("nag_mom_update")
  .weft_optimizer("nag", learning.rate, lr_scheduler,
    create.state = function(index, weight) if (momentum == 0) NULL else .weft_zeros_like(weight),
    step = function(weight, grad, state, lr, t) {
      if (is.null(state)) .weft_update(sgd_update, list(weight, grad), weight, .weft_with_lr(lr, plain))
      else .weft_update(nag_mom_update, list(weight, grad, state), weight, .weft_with_lr(lr, with.momentum))
    })
}

# Signum (signum_update); with momentum 0 it is SignSGD (signsgd_update).
weft.opt.signum <- function(learning.rate = 0.01, momentum = 0.9, wd_lh = 0, wd = 0, rescale.grad = 1,
                            clip_gradient = -1, lr_scheduler = NULL) {
  common <- .weft_common_attrs(wd, rescale.grad, clip_gradient)
  plain <- .weft_attr_pairs(common)
  with.momentum <- .weft_attr_pairs(c(common, list(momentum = momentum, wd_lh = wd_lh)))
  signsgd_update <- .weft_op("signsgd_update")
  signum_update <- .weft_op("signum_update")
  .weft_optimizer("signum", learning.rate, lr_scheduler,
    create.state = function(index, weight) if (momentum == 0) NULL else .weft_zeros_like(weight),
    step = function(weight, grad, state, lr, t) {
      if (is.null(state)) .weft_update(signsgd_update, list(weight, grad), weight, .weft_with_lr(lr, plain))
      else .weft_update(signum_update, list(weight, grad, state), weight, .weft_with_lr(lr, with.momentum))
    })
}

.weft_optimizers <- c("sgd", "nag", "signum", "adam", "adamw", "rmsprop", "adagrad", "adadelta", "ftrl")

# An optimizer by name (case-insensitive, as MXNet's registry) with its options.
weft.opt.create <- function(name, ...) {
  if (is.list(name) && is.function(name$update)) return(name)
  if (!is.character(name) || length(name) != 1) .weft_stop("optimizer must be a name or an optimizer object")
  key <- tolower(name)
  if (!key %in% .weft_optimizers) {
    .weft_stop("unknown optimizer '", name, "'; expected one of ", paste(.weft_optimizers, collapse = ", "))
  }
  do.call(get(paste0("weft.opt.", key)), list(...))
}

# function(weights, grads) applying optimizer to each weight whose gradient is
# not NULL (in place), returning the weights, as mx.opt.get.updater.
weft.opt.get.updater <- function(optimizer, weights, ctx = NULL) {
  optimizer <- weft.opt.create(optimizer)
  states <- lapply(seq_along(weights), function(i) {
    if (is.null(weights[[i]])) NULL else optimizer$create.state(i, weights[[i]])
  })
  function(weight, grad) {
    if (length(weight) != length(states) || length(grad) != length(states)) {
      .weft_stop("the updater was made for ", length(states), " weights, got ", length(weight), " weights and ",
                 length(grad), " gradients")
    }
    for (i in seq_along(weight)) {
      if (!is.null(grad[[i]]) && !is.null(weight[[i]])) optimizer$update(i, weight[[i]], grad[[i]], states[[i]])
    }
    weight
  }
}
