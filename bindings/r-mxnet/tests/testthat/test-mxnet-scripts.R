# library(mxnet) / require(mxnet) run MXNet-R scripts unchanged (issue 42 point 5):
# the mxnet package re-exports weft's namespace (Note [mxnet re-exports weft]).

# A classic MXNet-R training script (the MXNet-R README's MLP, on generated data
# as R users write it), run by a fresh Rscript so that `require(mxnet)` really is
# what loads everything. It prints the test accuracy and the first prediction.
classic_script <- '
require(mxnet)
set.seed(0)
n <- 100
centers <- rbind(c(-2, -2, 0, 1), c(2, -1, 1, -1), c(0, 2, -1, 0))
train.x <- do.call(rbind, lapply(1:3, function(k) matrix(rnorm(n * 4, mean = centers[k, ]), ncol = 4, byrow = TRUE)))
train.y <- rep(0:2, each = n)
test.x <- do.call(rbind, lapply(1:3, function(k) matrix(rnorm(20 * 4, mean = centers[k, ]), ncol = 4, byrow = TRUE)))
test.y <- rep(0:2, each = 20)

data <- mx.symbol.Variable("data")
fc1 <- mx.symbol.FullyConnected(data, name = "fc1", num_hidden = 16)
act1 <- mx.symbol.Activation(fc1, name = "relu1", act_type = "relu")
fc2 <- mx.symbol.FullyConnected(act1, name = "fc2", num_hidden = 3)
softmax <- mx.symbol.SoftmaxOutput(fc2, name = "sm")

mx.set.seed(0)
model <- mx.model.FeedForward.create(softmax, X = train.x, y = train.y, ctx = mx.cpu(), num.round = 10,
                                     array.batch.size = 20, learning.rate = 0.07, momentum = 0.9,
                                     eval.metric = mx.metric.accuracy, initializer = mx.init.uniform(0.07),
                                     epoch.end.callback = mx.callback.log.train.metric(100))
preds <- predict(model, test.x)
pred.label <- max.col(t(preds)) - 1
cat(sprintf("accuracy %.4f\\n", mean(pred.label == test.y)))
cat("dim", dim(preds), "\\n")

# The same network from an iterator over column-major data, as MXNet-R examples feed it.
train.iter <- mx.io.arrayiter(data = t(train.x), label = train.y, batch.size = 20, shuffle = TRUE)
mx.set.seed(0)
model2 <- mx.model.FeedForward.create(softmax, X = train.iter, ctx = mx.cpu(), num.round = 10,
                                      learning.rate = 0.07, momentum = 0.9, eval.metric = mx.metric.accuracy,
                                      initializer = mx.init.uniform(0.07))
cat(sprintf("iterator accuracy %.4f\\n", mean(max.col(t(predict(model2, test.x))) - 1 == test.y)))
a <- mx.nd.array(matrix(1:6, nrow = 2))
cat("ndarray", as.array(a * 2 + 1), "\\n")
'

# MXNet-R's names that weft spells otherwise, defined by the mxnet package itself.
mxnet_own <- c("is.mx.ndarray", "is.mx.symbol", "is.mx.context", "is.mx.dataiter", "internals", "children", "ctx")

run_script <- function(text) {
  path <- tempfile(fileext = ".R")
  writeLines(text, path)
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", shQuote(path)),
                                  stdout = TRUE, stderr = TRUE,
                                  env = paste0("R_LIBS=", paste(.libPaths(), collapse = ":"))))
  status <- attr(out, "status")
  list(out = out, status = if (is.null(status)) 0L else status)
}

test_that("a classic MXNet-R MLP script starting with require(mxnet) trains, predicts and scores", {
  res <- run_script(classic_script)
  expect_equal(res$status, 0L, info = paste(res$out, collapse = "\n"))
  acc <- as.numeric(sub("accuracy ", "", grep("^accuracy ", res$out, value = TRUE)))
  expect_gte(acc, 0.9)
  expect_true("dim 3 60 " %in% res$out)  # predict: one column per sample, as MXNet-R
  iter_acc <- as.numeric(sub("iterator accuracy ", "", grep("^iterator accuracy ", res$out, value = TRUE)))
  expect_gte(iter_acc, 0.9)
  expect_true("ndarray 3 5 7 9 11 13 " %in% res$out)
  # log.train.metric prints the epoch's training accuracy, as MXNet-R does.
  expect_true(any(grepl("Train-accuracy", res$out)))
})

test_that("library(mxnet) alone attaches the mx.* names; weft stays unattached", {
  res <- run_script(paste(
    "library(mxnet)",
    "stopifnot(!'package:weft' %in% search())",
    "stopifnot(is.function(mx.symbol.Convolution), is.function(mx.nd.exp), is.function(mx.io.arrayiter))",
    "cat('exports', length(getNamespaceExports('mxnet')), length(getNamespaceExports('weft')), '\\n')",
    sep = "\n"))
  expect_equal(res$status, 0L, info = paste(res$out, collapse = "\n"))
  counts <- as.integer(strsplit(sub("^exports ", "", grep("^exports", res$out, value = TRUE)), " ")[[1]])
  expect_equal(counts[1], counts[2] + length(mxnet_own))
})

test_that("every weft export is mxnet's, the same function", {
  weft_names <- getNamespaceExports("weft")
  expect_setequal(getNamespaceExports("mxnet"), c(weft_names[!startsWith(weft_names, ".")], mxnet_own))
  generated <- .Call(weft:::weft_r_op_list)
  expect_gt(length(generated), 150)
  for (name in c(paste0("mx.symbol.", generated), paste0("mx.nd.", generated))) {
    expect_identical(getExportedValue("mxnet", name), getExportedValue("weft", name), label = name)
  }
  for (name in c("mx.nd.array", "mx.symbol.Variable", "mx.model.FeedForward.create", "mx.io.arrayiter", "mx.mlp",
                 "mx.model.save", "mx.model.load", "mx.cpu", "mx.set.seed", "graph.viz", "infer.shape")) {
    expect_identical(getExportedValue("mxnet", name), getExportedValue("weft", name), label = name)
  }
  expect_identical(mxnet::mx.nd.array, weft::mx.nd.array)
})

test_that("MXNet-R's own spellings: is.mx.*, internals, children, ctx", {
  a <- mx.nd.array(1:3)
  expect_true(is.mx.ndarray(a))
  expect_false(is.mx.ndarray(1:3))
  data <- mx.symbol.Variable("data")
  fc <- mx.symbol.FullyConnected(data, num_hidden = 2, name = "fc")
  net <- mx.symbol.Activation(fc, act_type = "relu", name = "relu")
  expect_true(is.mx.symbol(net))
  expect_false(is.mx.symbol(a))
  expect_true(is.mx.context(mx.cpu()))
  expect_false(is.mx.context("cpu"))
  expect_true(is.mx.context(ctx(a)))
  expect_equal(ctx(a)$device, "cpu")
  it <- mx.io.arrayiter(matrix(1:6, nrow = 2), c(0, 1, 0), batch.size = 1)
  expect_true(is.mx.dataiter(it))
  expect_false(is.mx.dataiter(list()))
  expect_true("fc_output" %in% outputs(internals(net)))
  expect_equal(outputs(children(net)), "fc_output")
  expect_error(internals(a))
})
