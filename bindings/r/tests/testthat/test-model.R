test_that("FeedForward.create trains an MLP with SGD momentum and predicts", {
  d <- blobs()
  weft.set.seed(1)
  model <- weft.model.FeedForward.create(mlp_symbol(), d$X, d$y, num.round = 8, array.batch.size = 32,
                                         optimizer = "sgd", learning.rate = 0.1, momentum = 0.9, wd = 1e-4,
                                         initializer = weft.init.Xavier(), eval.metric = weft.metric.accuracy,
                                         verbose = FALSE)
  p <- predict(model, d$X)
  expect_equal(dim(p), c(3, nrow(d$X)))
  expect_equal(colSums(p), rep(1, nrow(d$X)), tolerance = 1e-5)
  expect_gt(mean(max.col(t(p)) - 1 == d$y), 0.95)
  # Batch size does not change predictions (padding is dropped).
  expect_equal(predict(model, d$X, array.batch.size = 7), p, tolerance = 1e-6)
})

test_that("adam, normal init, callbacks and the progress bar", {
  d <- blobs()
  batches <- 0
  epochs <- c()
  out <- capture.output(model <- weft.model.FeedForward.create(
    mlp_symbol(), d$X, d$y, num.round = 3, array.batch.size = 50, optimizer = "adam", learning.rate = 0.01,
    initializer = weft.init.normal(0.1), eval.metric = weft.metric.accuracy, verbose = FALSE,
    batch.end.callback = function(iteration, nbatch, env, verbose) { batches <<- batches + 1; TRUE },
    epoch.end.callback = function(iteration, nbatch, env, verbose) { epochs <<- c(epochs, env$train.metric$value); TRUE }))
  expect_equal(batches, 3 * 6)
  expect_length(epochs, 3)
  expect_gt(epochs[3], 0.9)
  bar <- capture.output(weft.model.FeedForward.create(mlp_symbol(), d$X, d$y, num.round = 1, array.batch.size = 100,
                                                      batch.end.callback = weft.callback.progress.bar(), verbose = FALSE))
  expect_match(paste(bar, collapse = ""), "100%")
})

test_that("a callback returning FALSE and early stopping stop training", {
  d <- blobs()
  seen <- 0
  weft.model.FeedForward.create(mlp_symbol(), d$X, d$y, num.round = 10, array.batch.size = 50, verbose = FALSE,
                                epoch.end.callback = function(iteration, nbatch, env, verbose) {
                                  seen <<- iteration
                                  iteration < 2
                                })
  expect_equal(seen, 2)
  msgs <- capture.output(type = "message", model <- weft.model.FeedForward.create(
    mlp_symbol(), d$X, d$y, num.round = 50, array.batch.size = 50, learning.rate = 0.1, eval.metric = weft.metric.accuracy,
    eval.data = list(data = d$X[1:60, ], label = d$y[1:60]), verbose = TRUE,
    epoch.end.callback = weft.callback.early.stop(bad.steps = 2, maximize = TRUE, threshold = 0.99)))
  expect_match(paste(msgs, collapse = "\n"), "Early stop")
  expect_s3_class(model, "WeftFeedForwardModel")
})

test_that("regression with rmse and a LinearRegressionOutput", {
  set.seed(3)
  X <- matrix(runif(400), 200, 2)
  y <- 2 * X[, 1] - X[, 2] + 0.5
  net <- weft.symbol.FullyConnected(weft.symbol.Variable("data"), num_hidden = 1, name = "fc")
  net <- weft.symbol.LinearRegressionOutput(net, name = "lro")
  model <- weft.model.FeedForward.create(net, X, y, num.round = 60, array.batch.size = 20, learning.rate = 0.1,
                                         momentum = 0.9, eval.metric = weft.metric.rmse, verbose = FALSE)
  p <- predict(model, X)
  expect_lt(sqrt(mean((as.vector(p) - y)^2)), 0.05)
})

test_that("checkpoints use the shared format and reload to the same predictions", {
  d <- blobs()
  model <- weft.model.FeedForward.create(mlp_symbol(), d$X, d$y, num.round = 2, array.batch.size = 32, verbose = FALSE)
  prefix <- file.path(tempdir(), "mlp")
  weft.model.save.checkpoint(model, prefix, 3)
  expect_true(file.exists(paste0(prefix, "-symbol.json")))
  raw <- weft.nd.load(paste0(prefix, "-0003.params"))
  expect_setequal(names(raw), c("arg:fc1_weight", "arg:fc1_bias", "arg:fc2_weight", "arg:fc2_bias"))
  back <- weft.model.load.checkpoint(prefix, 3)
  expect_equal(predict(back, d$X), predict(model, d$X))
  expect_error(weft.model.load.checkpoint(prefix, 4), class = "weftError")
  bad <- file.path(tempdir(), "bad")
  weft.symbol.save(mlp_symbol(), paste0(bad, "-symbol.json"))
  weft.nd.save(list(w = weft.nd.ones(2)), paste0(bad, "-0001.params"))
  expect_error(weft.model.load.checkpoint(bad, 1), "arg:")
})

test_that("training arguments are checked", {
  d <- blobs()
  expect_error(weft.model.FeedForward.create(mlp_symbol(), d$X, d$y[1:10], verbose = FALSE), "labels|samples")
  expect_error(weft.model.FeedForward.create(mlp_symbol(), d$X, d$y, optimizer = "lbfgs", verbose = FALSE),
               "unknown optimizer")
  expect_error(weft.model.FeedForward.create(weft.symbol.Variable("data"), d$X, d$y, verbose = FALSE), "label")
})
