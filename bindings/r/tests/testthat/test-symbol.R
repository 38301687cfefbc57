mlp <- function() {
  data <- weft.symbol.Variable("data")
  fc1 <- weft.symbol.FullyConnected(data, num_hidden = 8, name = "fc1")
  act <- weft.symbol.Activation(fc1, act_type = "relu", name = "relu1")
  fc2 <- weft.symbol.FullyConnected(act, num_hidden = 3, name = "fc2")
  weft.symbol.SoftmaxOutput(fc2, name = "sm")
}

test_that("composition names arguments and outputs", {
  net <- mlp()
  expect_equal(arguments(net), c("data", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias", "sm_label"))
  expect_equal(outputs(net), "sm_output")
  expect_equal(weft.symbol.name(net), "sm")
  auto <- weft.symbol.FullyConnected(weft.symbol.Variable("x"), num_hidden = 2)
  expect_match(weft.symbol.name(auto), "^fullyconnected[0-9]+$")
  internals <- weft.symbol.internals(net)
  expect_true("fc1_output" %in% outputs(internals))
  expect_equal(outputs(internals[["relu1_output"]]), "relu1_output")
})

test_that("named inputs and re-composition", {
  w <- weft.symbol.Variable("my_weight")
  fc <- weft.symbol.FullyConnected(data = weft.symbol.Variable("data"), weight = w, num_hidden = 4, name = "fc")
  expect_equal(arguments(fc), c("data", "my_weight", "fc_bias"))
  other <- weft.symbol.compose(fc, data = weft.symbol.Variable("input"))
  expect_equal(arguments(other), c("input", "my_weight", "fc_bias"))
  g <- weft.symbol.Group(fc, weft.symbol.Variable("z"))
  expect_equal(weft.symbol.num.outputs(g), 2)
})

test_that("infer.shape works in R order", {
  s <- infer.shape(mlp(), data = c(10, 4))
  expect_equal(s$arg.shapes$fc1_weight, c(10, 8))
  expect_equal(s$arg.shapes$fc2_bias, 3)
  expect_equal(s$arg.shapes$sm_label, 4)
  expect_equal(s$out.shapes$sm_output, c(3, 4))
  expect_null(infer.shape(weft.symbol.elemwise_add(weft.symbol.Variable("a"), weft.symbol.Variable("b"))))
  expect_error(infer.shape(mlp(), c(10, 4)), "by argument name")
})

test_that("symbols save and load as MXNet JSON", {
  net <- mlp()
  f <- tempfile(fileext = ".json")
  weft.symbol.save(net, f)
  back <- weft.symbol.load(f)
  expect_equal(arguments(back), arguments(net))
  expect_identical(weft.symbol.tojson(back), weft.symbol.tojson(net))
  expect_match(weft.symbol.tojson(net), '"op": "FullyConnected"', fixed = TRUE)
  expect_error(weft.symbol.fromjson("{not json"), class = "weftError")
  expect_error(weft.symbol.load(tempfile()), class = "weftIOError")
})

test_that("attributes", {
  v <- weft.symbol.Variable("data", attr = list(lr_mult = "0.5"))
  expect_equal(weft.symbol.attr(v, "lr_mult"), "0.5")
  expect_null(weft.symbol.attr(v, "nothing"))
  fc <- weft.symbol.FullyConnected(v, num_hidden = 2, name = "fc", attr = list("__ctx_group__" = "dev1"))
  expect_equal(weft.symbol.attributes(fc)[["__ctx_group__"]], "dev1")
})
