# Bad training input gets a clear error (or, for factors, a clear mapping),
# and conditions name the user's call.

test_that("factor labels become 0..k-1 with a message", {
  X <- data.matrix(iris[, 1:4])
  expect_message(model <- weft.model.FeedForward.create(mlp_symbol(classes = 3), X, iris$Species, num.round = 1,
                                                        verbose = FALSE),
                 "'setosa' -> 0, 'versicolor' -> 1, 'virginica' -> 2")
  expect_s3_class(model, "WeftFeedForwardModel")
  expect_error(weft.model.FeedForward.create(mlp_symbol(), X, as.character(iris$Species), verbose = FALSE),
               "character", class = "weftInvalidArgumentError")
})

test_that("labels outside the network's classes are refused", {
  d <- blobs()
  e <- expect_error(weft.model.FeedForward.create(mlp_symbol(), d$X, d$y + 1, verbose = FALSE),
                    "label 3 \\(sample 3\\).*3 classes.*0\\.\\.2", class = "weftInvalidArgumentError")
  expect_error(weft.model.FeedForward.create(mlp_symbol(), d$X, d$y + 0.5, verbose = FALSE), "whole numbers")
  expect_error(weft.model.FeedForward.create(mlp_symbol(), d$X, -d$y, verbose = FALSE), "0\\.\\.2")
})

test_that("NA, NaN and Inf in X or y are refused, naming the first sample", {
  d <- blobs()
  X <- d$X
  X[7, 2] <- NaN
  expect_error(weft.model.FeedForward.create(mlp_symbol(), X, d$y, verbose = FALSE), "NA/NaN/Inf.*sample 7")
  y <- d$y
  y[9] <- NA
  expect_error(weft.model.FeedForward.create(mlp_symbol(), d$X, y, verbose = FALSE), "NA/NaN/Inf label.*label 9")
  model <- weft.model.FeedForward.create(mlp_symbol(), d$X, d$y, num.round = 1, verbose = FALSE)
  X[7, 2] <- Inf
  expect_error(predict(model, X), "sample 7")
  expect_error(weft.model.FeedForward.create(mlp_symbol(), d$X, d$y, verbose = FALSE,
                                             eval.data = list(data = X, label = d$y)), "eval.data has")
})

test_that("a wrong feature count names the expected and given counts, with the user's call", {
  d <- blobs()
  model <- weft.model.FeedForward.create(mlp_symbol(), d$X, d$y, num.round = 1, verbose = FALSE)
  wide <- cbind(d$X, 1)
  e <- tryCatch(predict(model, wide), error = function(e) e)
  expect_s3_class(e, "weftShapeError")
  expect_match(conditionMessage(e), "X has 3 features per sample but the model expects 2")
  expect_equal(deparse(conditionCall(e))[1], "predict(model, wide)")
  # array.layout = "auto" takes samples in columns when only that fits, as MXNet-R.
  expect_equal(predict(model, t(d$X[1:5, ])), predict(model, d$X[1:5, ]))
  e <- tryCatch(weft.model.FeedForward.create(mlp_symbol(), wide, d$y, arg.params = model$arg.params,
                                              verbose = FALSE), error = function(e) e)
  expect_match(conditionMessage(e), "3 features per sample but the model expects 2")
  expect_match(deparse(conditionCall(e))[1], "^weft.model.FeedForward.create\\(")
})

test_that("conditions show the user's call, not internal helpers", {
  calls <- function(expr) deparse(conditionCall(tryCatch(expr, error = function(e) e)))[1]
  expect_equal(calls(weft.nd.zeros(2, dtype = "float7")), "weft.nd.zeros(2, dtype = \"float7\")")
  a <- weft.nd.ones(c(2, 3))
  expect_equal(calls(weft.nd.dot(a, a)), "weft.nd.dot(a, a)")
  expect_false(grepl(".weft_", calls(weft.model.FeedForward.create(mlp_symbol(), blobs()$X, NULL))))
})

test_that("weft.version() is one version string", {
  v <- weft.version()
  expect_type(v, "character")
  expect_length(v, 1)
  expect_match(v, "^[0-9]+\\.[0-9]+")
  expect_type(weft.abi.version(), "integer")
})
