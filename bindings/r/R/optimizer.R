# Optimizers run the registry's update operators in place through op invoke
# (sgd_update, sgd_mom_update, adam_update): one engine op per parameter, no
# copy through R. An optimizer is a list with create.state(index, weight) and
# update(index, weight, grad, state). Attribute strings and operator handles are
# prepared once, so a step costs one .Call per parameter (binding overhead is
# what separates R's training time from Python's on the same engine).

.weft_update <- function(op, inputs, weight, pairs) {
  .Call(weft_r_op_invoke, op, inputs, pairs$keys, pairs$vals, list(weight))
  invisible(weight)
}

weft.opt.sgd <- function(learning.rate = 0.01, momentum = 0, wd = 0, rescale.grad = 1, clip_gradient = -1) {
  attrs <- list(lr = learning.rate, wd = wd, rescale_grad = rescale.grad, clip_gradient = clip_gradient)
  plain <- .weft_attr_pairs(attrs)
  with.momentum <- .weft_attr_pairs(c(attrs, list(momentum = momentum)))
  sgd_update <- .weft_op("sgd_update")
  sgd_mom_update <- .weft_op("sgd_mom_update")
  list(
    name = "sgd",
    create.state = function(index, weight) {
      if (momentum == 0) NULL else weft.nd.zeros(dim(weight), weft.nd.context(weight), weft.nd.dtype(weight))
    },
    update = function(index, weight, grad, state) {
      if (is.null(state)) {
        .weft_update(sgd_update, list(weight, grad), weight, plain)
      } else {
        .weft_update(sgd_mom_update, list(weight, grad, state), weight, with.momentum)
      }
    })
}

weft.opt.adam <- function(learning.rate = 0.001, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, wd = 0,
                          rescale.grad = 1, clip_gradient = -1) {
  steps <- new.env(parent = emptyenv())
  fixed <- .weft_attr_pairs(list(beta1 = beta1, beta2 = beta2, epsilon = epsilon, wd = wd,
                                 rescale_grad = rescale.grad, clip_gradient = clip_gradient))
  adam_update <- .weft_op("adam_update")
  list(
    name = "adam",
    create.state = function(index, weight) {
      list(mean = weft.nd.zeros(dim(weight), weft.nd.context(weight)),
           var = weft.nd.zeros(dim(weight), weft.nd.context(weight)))
    },
    update = function(index, weight, grad, state) {
      key <- as.character(index)
      t <- (steps[[key]] %||% 0) + 1
      assign(key, t, envir = steps)
      # Bias correction folded into the learning rate, as MXNet's Adam.
      lr <- learning.rate * sqrt(1 - beta2^t) / (1 - beta1^t)
      pairs <- list(keys = c("lr", fixed$keys), vals = c(.weft_number_string(lr), fixed$vals))
      .weft_update(adam_update, list(weight, grad, state$mean, state$var), weight, pairs)
    })
}

weft.opt.create <- function(name, ...) {
  if (is.list(name) && is.function(name$update)) return(name)
  switch(name, sgd = weft.opt.sgd(...), adam = weft.opt.adam(...),
         .weft_stop("unknown optimizer '", name, "'; expected 'sgd' or 'adam'"))
}
