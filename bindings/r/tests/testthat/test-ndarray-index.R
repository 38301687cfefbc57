test_that("[ and [<- index NDArrays in R's dimension order", {
  m <- matrix(1:6, 2, 3)
  a <- weft.nd.array(m)
  expect_equal(as.array(a[1]), 1)
  expect_equal(as.array(a[2, ]), m[2, ])
  expect_equal(as.array(a[, 2:3]), m[, 2:3])
  expect_equal(dim(a[1, , drop = FALSE]), c(1, 3))
  expect_s3_class(a[1, 2], "WeftNDArray")
  alias <- a
  a[2, 3] <- 60
  a[1, ] <- c(-1, -2, -3)
  expect_equal(as.array(alias), matrix(c(-1, 2, -2, 4, -3, 60), 2))  # written in place
  a[, 1] <- weft.nd.array(c(7, 8))
  expect_equal(as.array(a)[, 1], c(7, 8))
  v <- weft.nd.array(c(5, 6, 7))
  expect_equal(as.array(v[c(TRUE, FALSE, TRUE)]), c(5, 7))
  expect_error(a[integer(0)], "no element")
})

test_that("%*% is R's matrix product on NDArrays", {
  x <- matrix(c(1, 2, 3, 4, 5, 6), 2, 3)
  y <- matrix(c(1, 0, 2, 1, 3, -1), 3, 2)
  expect_equal(as.array(weft.nd.array(x) %*% weft.nd.array(y)), x %*% y)
  expect_equal(as.array(weft.nd.array(x) %*% y), x %*% y)
  expect_equal(as.array(x %*% weft.nd.array(y)), x %*% y)
  expect_equal(as.array(weft.nd.array(x) %*% weft.nd.array(c(1, 1, 1))), x %*% c(1, 1, 1))
  expect_equal(x %*% y, base::`%*%`(x, y))  # plain R matrices are untouched
  expect_error(weft.nd.array(x) %*% weft.nd.array(x), "non-conformable", class = "weftShapeError")
})
