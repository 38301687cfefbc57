# MXNet-R scripts run unchanged: the mx.* names, shuffling, iterators, graph.viz.

iris_net <- function() {
  data <- mx.symbol.Variable("data")
  fc1 <- mx.symbol.FullyConnected(data, num_hidden = 10)
  act1 <- mx.symbol.Activation(fc1, act_type = "relu")
  fc2 <- mx.symbol.FullyConnected(act1, num_hidden = 3)
  mx.symbol.SoftmaxOutput(fc2)
}

test_that("iris as shipped (sorted by class) trains to >= 0.9 because training shuffles, as MXNet-R", {
  X <- data.matrix(iris[, 1:4])
  y <- as.numeric(iris$Species) - 1
  for (seed in 1:3) {
    set.seed(seed)
    mx.set.seed(seed)
    model <- mx.model.FeedForward.create(iris_net(), X = X, y = y, ctx = mx.cpu(), num.round = 100,
                                         array.batch.size = 15, optimizer = "adam", learning.rate = 0.01,
                                         initializer = mx.init.Xavier(), eval.metric = mx.metric.accuracy,
                                         verbose = FALSE)
    expect_gte(mean(max.col(t(predict(model, X))) - 1 == y), 0.9)
  }
})

test_that("the batches are shuffled once with R's generator, and shuffle = FALSE keeps the order", {
  X <- data.matrix(iris[, 1:4])
  y <- as.numeric(iris$Species) - 1
  first_batch_labels <- function(...) {
    seen <- list()
    recorder <- weft.metric.custom("labels", function(label, pred) {
      seen[[length(seen) + 1]] <<- label
      0
    })
    weft.model.FeedForward.create(iris_net(), X, y, num.round = 2, array.batch.size = 50, eval.metric = recorder,
                                  verbose = FALSE, ...)
    seen
  }
  plain <- first_batch_labels(shuffle = FALSE)
  expect_equal(plain[[1]], rep(0, 50))
  set.seed(4)
  shuffled <- first_batch_labels()
  expect_gt(length(unique(shuffled[[1]])), 1)
  expect_equal(sort(unlist(shuffled[1:3])), sort(y))
  expect_equal(shuffled[[1]], shuffled[[4]])  # once, not per epoch (as MXNet-R's iterator)
  set.seed(4)
  expect_equal(first_batch_labels()[[1]], shuffled[[1]])
})

test_that("mx.symbol.* and mx.nd.* exist for every registry operator", {
  ns <- asNamespace("weft")
  generated <- .Call(weft:::weft_r_op_list)
  missing <- setdiff(c(paste0("mx.symbol.", generated), paste0("mx.nd.", generated)), ls(ns, all.names = TRUE))
  expect_equal(missing, character(0))
  expect_gt(length(generated), 150)
  expect_identical(mx.symbol.Convolution, weft.symbol.Convolution)
  expect_equal(as.array(mx.nd.exp(mx.nd.array(c(0, 1)))), exp(c(0, 1)), tolerance = 1e-6)
  expect_equal(dim(mx.nd.zeros(c(2, 3))), c(2, 3))
})

test_that("mx.mlp, mx.model.save/load, mx.callback.* and mx.metric.logger", {
  d <- blobs()
  logger <- mx.metric.logger$new()
  prefix <- file.path(tempdir(), "mxmlp")
  set.seed(2)
  mx.set.seed(2)
  msgs <- capture.output(type = "message", model <- mx.mlp(
    d$X, d$y, hidden_node = 8, out_node = 3, out_activation = "softmax", num.round = 4, array.batch.size = 50,
    learning.rate = 0.1, momentum = 0.9, eval.metric = mx.metric.accuracy,
    eval.data = list(data = d$X[1:60, ], label = d$y[1:60]),
    epoch.end.callback = mx.callback.log.train.metric(1, logger), verbose = FALSE))
  expect_length(logger$train, 4)
  expect_length(logger$eval, 4)
  expect_gt(logger$train[4], 0.9)
  mx.model.save(model, prefix, 4)
  back <- mx.model.load(prefix, 4)
  expect_equal(predict(back, d$X), predict(model, d$X))
  # kvstore and allow.extra.params as MXNet-R
  extra <- c(model$arg.params, list(unused_weight = mx.nd.ones(2)))
  expect_error(mx.model.FeedForward.create(model$symbol, d$X, d$y, arg.params = extra, num.round = 1, verbose = FALSE),
               "unused_weight")
  expect_error(mx.model.FeedForward.create(model$symbol, d$X, d$y, kvstore = "dist_sync", verbose = FALSE), "kvstore")
  stopped <- mx.model.FeedForward.create(model$symbol, d$X, d$y, num.round = 20, arg.params = model$arg.params,
                                         eval.metric = mx.metric.accuracy, verbose = FALSE,
                                         eval.data = list(data = d$X, label = d$y),
                                         epoch.end.callback = mx.callback.early.stop(eval.metric = 0.5, maximize = TRUE))
  expect_s3_class(stopped, "WeftFeedForwardModel")
})

test_that("mx.io.arrayiter pads the last batch and trains and predicts like the arrays", {
  d <- blobs()
  it <- mx.io.arrayiter(t(d$X), d$y, batch.size = 128)
  sizes <- c()
  pads <- c()
  while (it$iter.next()) {
    v <- it$value()
    sizes <- c(sizes, dim(v$data)[2])
    pads <- c(pads, it$num.pad())
  }
  expect_equal(sizes, c(128, 128, 128))
  expect_equal(pads, c(0, 0, 84))
  it$reset()
  expect_true(it$iter.next())
  expect_equal(as.array(it$value()$label), d$y[1:128])
  model <- mx.model.FeedForward.create(mlp_symbol(), it, num.round = 5, learning.rate = 0.1, momentum = 0.9,
                                       verbose = FALSE)
  expect_equal(predict(model, it), predict(model, d$X), tolerance = 1e-6)
  expect_error(mx.io.arrayiter(d$X, d$y), "last dimension")
})

test_that("mx.metric.custom hands NDArrays to feval, as MXNet-R 1.x", {
  d <- blobs()
  classes <- c()
  m <- mx.metric.custom("mean_p", function(label, pred) {
    classes <<- c(classes, class(label)[1], class(pred)[1])
    expect_equal(dim(pred)[1], 3)
    as.array(mx.nd.mean(pred))
  })
  model <- mx.model.FeedForward.create(mlp_symbol(), d$X, d$y, num.round = 1, array.batch.size = 100,
                                       eval.metric = m, verbose = FALSE)
  expect_equal(unique(classes), "WeftNDArray")
  expect_equal(mx.metric.rmsle$get(mx.metric.rmsle$update(c(0, 1), c(exp(1) - 1, 1), mx.metric.rmsle$init()))$value,
               sqrt(mean((c(1, log(2)) - log1p(c(0, 1)))^2)))
})

test_that("top_k_accuracy counts labels among the k highest outputs", {
  pred <- matrix(c(0.1, 0.2, 0.7,  0.5, 0.3, 0.2,  0.2, 0.5, 0.3), 3)  # one column per sample
  m <- weft.metric.top_k_accuracy(2)
  expect_equal(m$get(m$update(c(1, 2, 0), pred, m$init()))$value, 1 / 3)
  expect_equal(mx.metric.top_k_accuracy$get(mx.metric.top_k_accuracy$update(c(1, 2, 0), pred,
                                                                             mx.metric.top_k_accuracy$init()))$value, 1)
})

test_that("graph.viz writes the graph as DOT without DiagrammeR", {
  dot <- graph.viz(iris_net(), shape = c(4, 15), type = "dot")
  expect_s3_class(dot, "WeftGraphViz")
  text <- paste(unclass(dot), collapse = "\n")
  expect_match(text, "^digraph")
  expect_match(text, "FullyConnected\\\\n10")
  expect_match(text, "Activation\\\\nrelu")
  expect_match(text, "\\[label=\"4x15\"\\]")
  expect_false(grepl("weight|bias|label\"", gsub("\\[label=\"[0-9x]+\"\\]", "", text)))
  expect_output(print(dot), "digraph")
})

test_that("mx.init.* follow MXNet-R's patterns", {
  expect_equal(as.array(mx.init.internal.default("fc1_bias", 3, mx.cpu())), rep(0, 3))
  expect_equal(as.array(mx.init.internal.default("bn_gamma", 2, mx.cpu())), rep(1, 2))
  expect_error(mx.init.internal.default("fc1_weight", 2, mx.cpu()), "fc1_weight")
  expect_null(mx.init.internal.default("fc1_weight", 2, mx.cpu(), allow.unknown = TRUE))
  params <- mx.init.create(mx.init.uniform(0.1), list(data = c(4, 2), fc_weight = c(4, 3), softmax_label = 2))
  expect_equal(names(params), "fc_weight")
  expect_true(all(abs(as.array(params$fc_weight)) <= 0.1))
})
