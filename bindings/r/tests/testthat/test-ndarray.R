test_that("R arrays round-trip with reversed dimensions and no transposition", {
  x <- array(as.numeric(1:24), dim = c(2, 3, 4))
  a <- weft.nd.array(x)
  expect_equal(dim(a), c(2, 3, 4))
  expect_equal(as.array(a), x)
  # The library sees shape (4, 3, 2): its first axis is R's last dimension, so
  # slicing the library's rows picks R's last index.
  s <- weft.nd.slice.last(a, 2, 3)
  expect_equal(dim(s), c(2, 3, 2))
  expect_equal(as.array(s), x[, , 2:3])
  expect_true(weft.nd.shares.memory(a, s))
})

test_that("vectors, integer and logical data and dtypes convert", {
  v <- weft.nd.array(c(1.5, -2, 3))
  expect_equal(dim(v), 3)
  expect_equal(as.array(v), c(1.5, -2, 3))
  i <- weft.nd.array(1:4, dtype = "int32")
  expect_equal(weft.nd.dtype(i), "int32")
  expect_identical(as.array(i), 1:4)
  d <- weft.nd.array(c(0.1, 0.2), dtype = "float64")
  expect_identical(as.array(d), c(0.1, 0.2))
  expect_equal(weft.nd.dtype(weft.nd.zeros(c(2, 2))), "float32")
  expect_error(weft.nd.array(1, dtype = "float128"), class = "weftInvalidArgumentError")
  expect_error(weft.nd.array("a"), "numeric or logical")
})

test_that("zeros, ones, reshape and copies", {
  z <- weft.nd.zeros(c(3, 2))
  expect_equal(as.array(z), matrix(0, 3, 2))
  o <- weft.nd.ones(c(2, 5))
  expect_equal(sum(as.array(o)), 10)
  r <- weft.nd.reshape.view(weft.nd.array(matrix(1:6, 2, 3)), c(3, 2))
  expect_equal(as.array(r), matrix(1:6, 3, 2))
  dst <- weft.nd.zeros(c(3, 2))
  weft.nd.copy.into(r, dst)
  expect_equal(as.array(dst), matrix(1:6, 3, 2))
  weft.nd.set.values(dst, 6:1)
  expect_equal(as.vector(dst), as.numeric(6:1))
  expect_error(weft.nd.set.values(dst, 1:5), "data length")
})

test_that("arithmetic operators match R", {
  x <- matrix(c(1, 2, 3, 4, 5, 6), 2, 3)
  y <- matrix(c(6, 5, 4, 3, 2, 1), 2, 3)
  a <- weft.nd.array(x)
  b <- weft.nd.array(y)
  expect_equal(as.array(a + b), x + y)
  expect_equal(as.array(a - b), x - y)
  expect_equal(as.array(a * b), x * y)
  expect_equal(as.array(a / b), x / y, tolerance = 1e-6)
  expect_equal(as.array(a^2), x^2)
  expect_equal(as.array(2 - a), 2 - x)
  expect_equal(as.array(12 / a), 12 / x, tolerance = 1e-6)
  expect_equal(as.array(-a), -x)
  expect_equal(as.array(a > 3), (x > 3) * 1)  # comparisons give 0/1 arrays, as in MXNet
  expect_equal(as.array(exp(a)), exp(x), tolerance = 1e-5)
  expect_equal(sum(a), 21)
  # Broadcasting: a column vector in R order stretches along the last dimension.
  col <- weft.nd.array(matrix(c(10, 20), 2, 1))
  expect_equal(as.array(a + col), x + c(10, 20))
})

test_that("library errors are R conditions with the library's message", {
  a <- weft.nd.zeros(c(2, 3))
  b <- weft.nd.zeros(c(4, 4))
  err <- tryCatch(weft.nd.elemwise_add(a, b), error = function(e) e)
  expect_s3_class(err, "weftShapeError")
  expect_s3_class(err, "weftError")
  expect_match(conditionMessage(err), "elemwise_add")
  expect_match(conditionMessage(err), "same shape")
  expect_error(weft.nd.FullyConnected(a), class = "weftError")
  expect_error(weft.nd.load(tempfile()), class = "weftError")
})

test_that("handles are freed by the garbage collector", {
  in_use <- function() {
    gc()
    weft.nd.wait.all()
    weft.storage.stats()[["bytes.in.use"]]
  }
  before <- in_use()
  kept <- lapply(1:50, function(i) weft.nd.zeros(c(256, 256)))  # 50 x 256 KiB
  expect_gte(in_use() - before, 50 * 256 * 256 * 4)
  rm(kept)
  expect_lt(in_use() - before, 256 * 256 * 4)
  for (i in 1:50) weft.nd.zeros(c(256, 256))
  expect_lt(in_use() - before, 256 * 256 * 4)
  # A handle restored from a saved workspace is a NULL pointer: a clear error.
  f <- tempfile(fileext = ".rds")
  saveRDS(weft.nd.ones(2), f)
  stale <- readRDS(f)
  expect_error(as.array(stale), "already freed")
})

test_that("save and load use the .params format, with and without names", {
  f <- tempfile(fileext = ".params")
  weft.nd.save(list(w = weft.nd.array(matrix(1:4, 2)), b = weft.nd.array(c(5, 6))), f)
  back <- weft.nd.load(f)
  expect_equal(names(back), c("w", "b"))
  expect_equal(as.array(back$w), matrix(1:4, 2))
  weft.nd.save(list(weft.nd.array(1:3)), f)
  back <- weft.nd.load(f)
  expect_null(names(back))
  expect_equal(as.array(back[[1]]), 1:3)
})

test_that("files written by MXNet 1.9.1 load", {
  fixtures <- Sys.getenv("WEFT_FIXTURES", "/work/shared/fixtures")
  files <- list.files(fixtures, pattern = "\\.params$", full.names = TRUE, recursive = TRUE)
  skip_if(length(files) == 0, "no MXNet fixtures (set WEFT_FIXTURES to the fixtures folder)")
  loaded <- weft.nd.load(files[1])
  expect_true(length(loaded) > 0)
  expect_true(all(vapply(loaded, is.weft.ndarray, TRUE)))
})
