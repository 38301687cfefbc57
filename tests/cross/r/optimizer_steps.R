# R leg of tests/cross/test_r_optimizers_cross.py: three updates of a fixed
# weight by each optimizer (R's argument names), and learning-rate schedules at
# updates 1..20. Prints "name value value ..." lines.  usage: Rscript optimizer_steps.R
library(weft)
w0 <- c(0.5, -1, 2, 0.1)
grads <- list(c(0.2, -0.4, 1, 0.05), c(-0.1, 0.3, 0.5, -0.2), c(0.4, 0.1, -0.6, 0.3))
steps <- function(opt) {
  weight <- weft.nd.array(w0)
  updater <- weft.opt.get.updater(opt, list(weight))
  for (g in grads) updater(list(weight), list(weft.nd.array(g)))
  as.array(weight)
}
emit <- function(name, values) cat(name, sprintf("%.9g", values), "\n")
common <- list(wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3)
opts <- list(
  sgd = weft.opt.sgd(learning.rate = 0.1, momentum = 0.9, wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3),
  nag = weft.opt.nag(learning.rate = 0.1, momentum = 0.9, wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3),
  signum = weft.opt.signum(learning.rate = 0.1, momentum = 0.9, wd_lh = 0.01, wd = 0.01, rescale.grad = 0.5),
  adam = weft.opt.adam(learning.rate = 0.1, wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3),
  adamw = weft.opt.adamw(learning.rate = 0.1, wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3),
  rmsprop = weft.opt.rmsprop(learning.rate = 0.1, centered = FALSE, gamma1 = 0.9, epsilon = 1e-8, wd = 0.01,
                             rescale.grad = 0.5, clip_gradient = 0.3),
  rmsprop_centered = weft.opt.rmsprop(learning.rate = 0.1, centered = TRUE, gamma1 = 0.95, gamma2 = 0.9, epsilon = 1e-4,
                                      wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3),
  adagrad = weft.opt.adagrad(learning.rate = 0.1, epsilon = 1e-7, wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3),
  adadelta = weft.opt.adadelta(rho = 0.9, epsilon = 1e-5, wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3),
  ftrl = weft.opt.ftrl(learning.rate = 0.1, lamda1 = 0.01, beta = 1, wd = 0.01, rescale.grad = 0.5, clip_gradient = 0.3),
  sgd_factor = weft.opt.sgd(learning.rate = 0.1, lr_scheduler = weft.lr_scheduler.FactorScheduler(step = 1, factor = 0.5)))
for (name in names(opts)) emit(name, steps(opts[[name]]))
n <- 1:20
emit("factor", vapply(n, weft.lr_scheduler.FactorScheduler(step = 3, factor = 0.7, stop_factor_lr = 0.02), 0, base.lr = 0.1))
emit("multifactor", vapply(n, weft.lr_scheduler.MultiFactorScheduler(step = c(4, 9, 15), factor = 0.5), 0, base.lr = 0.1))
emit("poly", vapply(n, weft.lr_scheduler.PolyScheduler(max_update = 15, pwr = 2, final_lr = 0.001, warmup_steps = 3,
                                                       warmup_begin_lr = 0.01), 0, base.lr = 0.1))
emit("cosine", vapply(n, weft.lr_scheduler.CosineScheduler(max_update = 15, final_lr = 0.001, warmup_steps = 3,
                                                           warmup_mode = "constant", warmup_begin_lr = 0.02), 0, base.lr = 0.1))
