# Every optimizer and learning-rate schedule of the Python binding, checked
# against their formulas and by training.

one_step <- function(opt, w, g, steps = 1) {
  weight <- weft.nd.array(w)
  grad <- weft.nd.array(g)
  updater <- weft.opt.get.updater(opt, list(weight))
  for (i in seq_len(steps)) updater(list(weight), list(grad))
  as.array(weight)
}

test_that("every optimizer name trains the blobs", {
  d <- blobs()
  settings <- list(sgd = list(learning.rate = 0.1, momentum = 0.9), nag = list(learning.rate = 0.1, momentum = 0.9),
                   signum = list(learning.rate = 0.01), adam = list(learning.rate = 0.01),
                   adamw = list(learning.rate = 0.01, wd = 0.01), rmsprop = list(learning.rate = 0.01),
                   RMSProp = list(learning.rate = 0.01, centered = FALSE), adagrad = list(learning.rate = 0.1),
                   adadelta = list(), ftrl = list(learning.rate = 0.5, lamda1 = 0.001))
  for (name in names(settings)) {
    set.seed(1)
    weft.set.seed(1)
    model <- do.call(weft.model.FeedForward.create,
                     c(list(mlp_symbol(), d$X, d$y, num.round = 8, array.batch.size = 30, optimizer = name,
                            initializer = weft.init.Xavier(), verbose = FALSE), settings[[name]]))
    acc <- mean(max.col(t(predict(model, d$X))) - 1 == d$y)
    expect_gt(acc, 0.85, label = paste(name, "accuracy"))
  }
  expect_error(weft.opt.create("lbfgs"), "rmsprop")
})

test_that("the composed optimizers follow their formulas", {
  w <- c(0.5, -1, 2)
  g <- c(0.2, -0.4, 1)
  # AdaGrad: history = g^2; w - lr * (g / sqrt(history + eps) + wd * w)
  expect_equal(one_step(weft.opt.adagrad(learning.rate = 0.1, wd = 0.01), w, g),
               w - 0.1 * (g / sqrt(g^2 + 1e-8) + 0.01 * w), tolerance = 1e-6)
  # AdaDelta: acc.g = (1 - rho) g^2; delta = sqrt(eps) / sqrt(acc.g + eps) * g
  acc.g <- 0.1 * g^2
  expect_equal(one_step(weft.opt.adadelta(), w, g), w - sqrt(1e-5) / sqrt(acc.g + 1e-5) * g, tolerance = 1e-6)
  # Centered RMSProp, two steps (Graves 2013)
  n <- 0; m <- 0; delta <- 0; ww <- w
  for (i in 1:2) {
    n <- 0.95 * n + 0.05 * g^2
    m <- 0.95 * m + 0.05 * g
    delta <- 0.9 * delta - 0.002 * g / sqrt(n - m^2 + 1e-4)
    ww <- ww + delta
  }
  expect_equal(one_step(weft.opt.rmsprop(), w, g, steps = 2), ww, tolerance = 1e-5)
  # Plain RMSProp (rmsprop_update)
  expect_equal(one_step(weft.opt.rmsprop(learning.rate = 0.01, centered = FALSE, gamma1 = 0.9, epsilon = 1e-8), w, g),
               w - 0.01 * g / sqrt(0.1 * g^2 + 1e-8), tolerance = 1e-5)
  # AdamW: decoupled decay with the bias-corrected rate, then Adam with wd = 0
  lr <- 0.01 * sqrt(1 - 0.999) / (1 - 0.9)
  w1 <- w * (1 - lr * 0.1)
  expect_equal(one_step(weft.opt.adamw(learning.rate = 0.01, wd = 0.1), w, g),
               w1 - lr * (0.1 * g) / (sqrt(0.001 * g^2) + 1e-8), tolerance = 1e-5)
  # NAG and Signum
  expect_equal(one_step(weft.opt.nag(learning.rate = 0.1, momentum = 0.9), w, g), w - 0.1 * (g + 0.9 * g),
               tolerance = 1e-6)
  expect_equal(one_step(weft.opt.signum(learning.rate = 0.1, momentum = 0), w, g), w - 0.1 * sign(g), tolerance = 1e-6)
})

test_that("learning-rate schedules match MXNet's formulas and drive the optimizer", {
  f <- weft.lr_scheduler.FactorScheduler(step = 2, factor = 0.5, stop_factor_lr = 0.01)
  expect_equal(vapply(1:9, function(n) f(n, 0.1), 0), c(0.1, 0.1, 0.05, 0.05, 0.025, 0.025, 0.0125, 0.0125, 0.01))
  mf <- weft.lr_scheduler.MultiFactorScheduler(step = c(2, 5), factor = 0.1)
  expect_equal(vapply(1:6, function(n) mf(n, 1), 0), c(1, 1, 0.1, 0.1, 0.1, 0.01))
  p <- weft.lr_scheduler.PolyScheduler(max_update = 10, base_lr = 1, pwr = 2, warmup_steps = 2, warmup_begin_lr = 0.5)
  expect_equal(c(p(0), p(1), p(6), p(10), p(12)), c(0.5, 0.75, (1 - 4 / 8)^2, 0, 0))
  cs <- weft.lr_scheduler.CosineScheduler(max_update = 4, final_lr = 0.1)
  expect_equal(cs(2, 1), 0.1 + 0.9 * (1 + cos(pi * 2 / 4)) / 2)
  expect_error(weft.lr_scheduler.FactorScheduler(step = 2, factor = 2), "<= 1")
  # sgd with a schedule: each update uses the scheduled rate (w -= lr_t * g).
  opt <- weft.opt.sgd(learning.rate = 1, lr_scheduler = weft.lr_scheduler.FactorScheduler(step = 1, factor = 0.5))
  expect_equal(one_step(opt, 0, 1, steps = 3), -(1 + 0.5 + 0.25), tolerance = 1e-6)
  # An MXNet-R style schedule: function(optimizerEnv) setting env$lr.
  halve <- function(env) env$lr <- 2^-(env$num_update - 1)
  expect_equal(one_step(weft.opt.sgd(learning.rate = 1, lr_scheduler = halve), 0, 1, steps = 3), -1.75, tolerance = 1e-6)
  expect_message(mxf <- mx.lr_scheduler.FactorScheduler(step = 1, factor_val = 0.5), NA)
  expect_message({mxf(1, 1); mxf(2, 1)}, "learning rate is changed to 0.5")
})
