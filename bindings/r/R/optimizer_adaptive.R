# Adaptive optimizers: Adam, AdamW, RMSProp, AdaGrad, AdaDelta, FTRL (see
# optimizer.R for the common scaffolding). Defaults are MXNet-R's where it has
# the optimizer (adam, rmsprop, adagrad, adadelta), else the Python binding's.

weft.opt.adam <- function(learning.rate = 0.001, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, wd = 0,
                          rescale.grad = 1, clip_gradient = -1, lr_scheduler = NULL) {
  fixed <- .weft_attr_pairs(c(list(beta1 = beta1, beta2 = beta2, epsilon = epsilon),
                              .weft_common_attrs(wd, rescale.grad, clip_gradient)))
  adam_update <- .weft_op("adam_update")
  .weft_optimizer("adam", learning.rate, lr_scheduler,
    create.state = function(index, weight) list(mean = .weft_zeros_like(weight), var = .weft_zeros_like(weight)),
    step = function(weight, grad, state, lr, t) {
      # Bias correction folded into the learning rate, as MXNet's Adam.
      lr <- lr * sqrt(1 - beta2^t) / (1 - beta1^t)
      .weft_update(adam_update, list(weight, grad, state$mean, state$var), weight, .weft_with_lr(lr, fixed))
    })
}

# Decoupled weight decay: weight <- weight * (1 - lr * wd), then Adam with wd = 0.
weft.opt.adamw <- function(learning.rate = 0.001, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, wd = 0,
                           correct_bias = TRUE, rescale.grad = 1, clip_gradient = -1, lr_scheduler = NULL) {
  fixed <- .weft_attr_pairs(c(list(beta1 = beta1, beta2 = beta2, epsilon = epsilon),
                              .weft_common_attrs(0, rescale.grad, clip_gradient)))
  adam_update <- .weft_op("adam_update")
  .weft_optimizer("adamw", learning.rate, lr_scheduler,
    create.state = function(index, weight) list(mean = .weft_zeros_like(weight), var = .weft_zeros_like(weight)),
    step = function(weight, grad, state, lr, t) {
      if (correct_bias) lr <- lr * sqrt(1 - beta2^t) / (1 - beta1^t)
      if (wd != 0) weft.nd.copy.into(weight * (1 - lr * wd), weight)
      .weft_update(adam_update, list(weight, grad, state$mean, state$var), weight, .weft_with_lr(lr, fixed))
    })
}

# rescale.grad * grad (+ wd * weight when wd is given), clipped when clip_gradient >= 0.
.weft_scaled_grad <- function(grad, weight, rescale.grad, clip_gradient, wd = 0) {
  g <- grad * rescale.grad
  if (wd != 0) g <- g + weight * wd
  if (clip_gradient >= 0) g <- weft.nd.clip(g, a_min = -clip_gradient, a_max = clip_gradient)
  g
}

# centered = TRUE (MXNet-R's default) is Graves' variant:
#   n <- gamma1 n + (1 - gamma1) g^2;  m <- gamma1 m + (1 - gamma1) g
#   delta <- gamma2 delta - lr g / sqrt(n - m^2 + epsilon);  weight <- weight + delta
# centered = FALSE is rmsprop_update: n as above, weight <- weight - lr g / sqrt(n + epsilon).
weft.opt.rmsprop <- function(learning.rate = 0.002, centered = TRUE, gamma1 = 0.95, gamma2 = 0.9, epsilon = 1e-4,
                             wd = 0, rescale.grad = 1, clip_gradient = -1, lr_scheduler = NULL, clip_weights = -1) {
  fixed <- .weft_attr_pairs(c(list(gamma1 = gamma1, epsilon = epsilon, clip_weights = clip_weights),
                              .weft_common_attrs(wd, rescale.grad, clip_gradient)))
  rmsprop_update <- .weft_op("rmsprop_update")
  .weft_optimizer("rmsprop", learning.rate, lr_scheduler,
    create.state = function(index, weight) {
      if (centered) list(n = .weft_zeros_like(weight), m = .weft_zeros_like(weight), delta = .weft_zeros_like(weight))
      else list(n = .weft_zeros_like(weight))
    },
    step = function(weight, grad, state, lr, t) {
      if (!centered) return(.weft_update(rmsprop_update, list(weight, grad, state$n), weight, .weft_with_lr(lr, fixed)))
      g <- .weft_scaled_grad(grad, weight, rescale.grad, clip_gradient, wd)
      weft.nd.copy.into(state$n * gamma1 + weft.nd.square(g) * (1 - gamma1), state$n)
      weft.nd.copy.into(state$m * gamma1 + g * (1 - gamma1), state$m)
      step <- g / weft.nd.sqrt(state$n - weft.nd.square(state$m) + epsilon) * lr
      weft.nd.copy.into(state$delta * gamma2 - step, state$delta)
      new.weight <- weight + state$delta
      if (clip_weights > 0) new.weight <- weft.nd.clip(new.weight, a_min = -clip_weights, a_max = clip_weights)
      weft.nd.copy.into(new.weight, weight)
    })
}

# history <- history + g^2; weight <- weight - lr (g / sqrt(history + epsilon) + wd weight).
weft.opt.adagrad <- function(learning.rate = 0.05, epsilon = 1e-8, wd = 0, rescale.grad = 1, clip_gradient = -1,
                             lr_scheduler = NULL) {
  .weft_optimizer("adagrad", learning.rate, lr_scheduler,
    create.state = function(index, weight) .weft_zeros_like(weight),
    step = function(weight, grad, state, lr, t) {
      g <- .weft_scaled_grad(grad, weight, rescale.grad, clip_gradient)
      weft.nd.copy.into(state + weft.nd.square(g), state)
      step <- g / weft.nd.sqrt(state + epsilon)
      if (wd != 0) step <- step + weight * wd
      weft.nd.copy.into(weight - step * lr, weight)
    })
}

# acc.g <- rho acc.g + (1 - rho) g^2; delta <- sqrt(acc.delta + epsilon) / sqrt(acc.g + epsilon) g;
# acc.delta <- rho acc.delta + (1 - rho) delta^2; weight <- weight - (delta + wd weight). No learning rate.
weft.opt.adadelta <- function(rho = 0.9, epsilon = 1e-5, wd = 0, rescale.grad = 1, clip_gradient = -1) {
  .weft_optimizer("adadelta", 1, NULL,
    create.state = function(index, weight) list(acc.g = .weft_zeros_like(weight), acc.delta = .weft_zeros_like(weight)),
    step = function(weight, grad, state, lr, t) {
      g <- .weft_scaled_grad(grad, weight, rescale.grad, clip_gradient)
      weft.nd.copy.into(state$acc.g * rho + weft.nd.square(g) * (1 - rho), state$acc.g)
      delta <- weft.nd.sqrt(state$acc.delta + epsilon) / weft.nd.sqrt(state$acc.g + epsilon) * g
      weft.nd.copy.into(state$acc.delta * rho + weft.nd.square(delta) * (1 - rho), state$acc.delta)
      if (wd != 0) delta <- delta + weight * wd
      weft.nd.copy.into(weight - delta, weight)
    })
}

# FTRL-Proximal (ftrl_update).
weft.opt.ftrl <- function(learning.rate = 0.1, lamda1 = 0.01, beta = 1, wd = 0, rescale.grad = 1, clip_gradient = -1,
                          lr_scheduler = NULL) {
  fixed <- .weft_attr_pairs(c(list(lamda1 = lamda1, beta = beta), .weft_common_attrs(wd, rescale.grad, clip_gradient)))
  ftrl_update <- .weft_op("ftrl_update")
  .weft_optimizer("ftrl", learning.rate, lr_scheduler,
    create.state = function(index, weight) list(z = .weft_zeros_like(weight), n = .weft_zeros_like(weight)),
    step = function(weight, grad, state, lr, t) {
      .weft_update(ftrl_update, list(weight, grad, state$z, state$n), weight, .weft_with_lr(lr, fixed))
    })
}
