test_that("log.train.metric as a batch callback prints this epoch's running value", {
  d <- blobs()
  epoch.values <- c()
  msgs <- capture.output(type = "message", model <- weft.model.FeedForward.create(
    mlp_symbol(), d$X, d$y, num.round = 3, array.batch.size = 100, learning.rate = 0.1, momentum = 0.9,
    eval.metric = weft.metric.accuracy, verbose = TRUE, batch.end.callback = weft.callback.log.train.metric(3),
    epoch.end.callback = function(iteration, nbatch, env, verbose) {
      expect_equal(nbatch, 0)
      epoch.values <<- c(epoch.values, env$train.metric$value)
      TRUE
    }))
  msgs <- grep("Batch", msgs, value = TRUE)
  expect_length(msgs, 3)  # batch 3 of each epoch
  printed <- as.numeric(sub(".*Train-accuracy=", "", msgs))
  expect_equal(printed, epoch.values, tolerance = 1e-5)  # the last batch's running value is the epoch's
  expect_match(msgs[2], "^\\[2\\] Batch \\[3\\]")
})

test_that("per-batch values are the running values of the current epoch", {
  d <- blobs()
  running <- list()
  weft.model.FeedForward.create(
    mlp_symbol(), d$X, d$y, num.round = 2, array.batch.size = 100, learning.rate = 0.1, eval.metric = weft.metric.accuracy,
    verbose = FALSE, batch.end.callback = function(iteration, nbatch, env, verbose) {
      # MXNet-R callbacks call env$metric$get(env$train.metric).
      running[[length(running) + 1]] <<- c(iteration, nbatch, env$metric$get(env$train.metric)$value)
      TRUE
    })
  running <- do.call(rbind, running)
  expect_equal(running[, 1:2], cbind(rep(1:2, each = 3), rep(1:3, 2)), ignore_attr = TRUE)
  expect_true(all(running[, 3] >= 0 & running[, 3] <= 1))
})

test_that("log.speedometer reports samples per second", {
  d <- blobs()
  msgs <- capture.output(type = "message", model <- weft.model.FeedForward.create(
    mlp_symbol(), d$X, d$y, num.round = 1, array.batch.size = 10, verbose = TRUE, eval.metric = weft.metric.accuracy,
    batch.end.callback = weft.callback.log.speedometer(10, frequency = 10)))
  msgs <- grep("Speed", msgs, value = TRUE)
  expect_length(msgs, 2)  # batches 11 and 21 of 30
  expect_match(msgs[1], "Batch \\[11\\] Speed: [0-9.]+ samples/sec Train-accuracy=")
})
