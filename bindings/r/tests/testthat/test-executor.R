test_that("forward and backward of a bound linear layer match R", {
  data <- weft.symbol.Variable("data")
  fc <- weft.symbol.FullyConnected(data, num_hidden = 2, name = "fc")
  exe <- weft.simple.bind(fc, grad.req = "write", data = c(3, 4))
  expect_equal(dim(exe$arg.arrays$fc_weight), c(3, 2))
  X <- matrix(seq(0.1, 1.2, by = 0.1), 3, 4)  # 4 samples as columns
  W <- matrix(c(1, 2, 3, -1, 0, 1), 3, 2)     # R-order weight: library (2, 3)
  b <- c(0.5, -0.5)
  weft.exec.update.arg.arrays(exe, list(data = X, fc_weight = W, fc_bias = b))
  weft.exec.forward(exe, is.train = TRUE)
  expected <- t(W) %*% X + b                  # dim c(2, 4): outputs x samples
  expect_equal(as.array(exe$outputs[[1]]), expected, tolerance = 1e-6)
  weft.exec.backward(exe, list(weft.nd.ones(c(2, 4))))
  expect_equal(as.array(exe$grad.arrays$fc_bias), c(4, 4))
  expect_equal(as.array(exe$grad.arrays$fc_weight), matrix(rowSums(X), 3, 2), tolerance = 1e-6)
  expect_error(weft.exec.update.arg.arrays(exe, list(data = matrix(0, 2, 2))), "has dim")
  expect_error(weft.exec.update.arg.arrays(exe, list(nope = 1)), "no argument named")
})

test_that("bind checks its arrays", {
  fc <- weft.symbol.FullyConnected(weft.symbol.Variable("data"), num_hidden = 2, name = "fc")
  expect_error(weft.bind(fc, weft.cpu(), list(data = weft.nd.zeros(c(3, 4)))), "no array for argument")
  expect_error(weft.simple.bind(fc), "do not determine")
  expect_error(weft.bind(fc, weft.cpu(), list(data = weft.nd.zeros(c(3, 4)), fc_weight = weft.nd.zeros(c(5, 2)),
                                              fc_bias = weft.nd.zeros(2))), class = "weftError")
})

test_that("executors and their arrays are freed by the garbage collector", {
  in_use <- function() {
    gc()
    weft.nd.wait.all()
    weft.storage.stats()[["bytes.in.use"]]
  }
  fc <- weft.symbol.FullyConnected(weft.symbol.Variable("data"), num_hidden = 512, name = "fc")
  before <- in_use()
  exe <- weft.simple.bind(fc, grad.req = "write", data = c(512, 64))
  weft.exec.forward(exe, is.train = TRUE)
  weft.exec.backward(exe)
  expect_gt(in_use() - before, 2 * 512 * 512 * 4)  # weight and its gradient at least
  rm(exe)
  expect_lt(in_use() - before, 64 * 1024)
})
