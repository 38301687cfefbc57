test_that("every registry operator has weft.nd and weft.symbol functions with its arguments", {
  ns <- asNamespace("weft")
  ops <- .Call(weft:::weft_r_op_list)
  expect_gt(length(ops), 50)
  for (op in ops) {
    nd <- get0(paste0("weft.nd.", op), envir = ns)
    sym <- get0(paste0("weft.symbol.", op), envir = ns)
    expect_true(is.function(nd), info = op)
    expect_true(is.function(sym), info = op)
    schema <- .Call(weft:::weft_r_op_schema, op)
    params <- vapply(schema$params, function(p) p$name, "")
    expect_true(all(params %in% names(formals(nd))), info = op)
    expect_true(all(c(params, "name", "attr") %in% names(formals(sym))), info = op)
  }
  expect_true("weft.nd.FullyConnected" %in% getNamespaceExports("weft"))
  expect_true("weft.symbol.ElementWiseSum" %in% getNamespaceExports("weft"))  # an alias of add_n
})

test_that("generated imperative operators compute", {
  x <- matrix(c(-1, 2, -3, 4), 2, 2)
  a <- weft.nd.array(x)
  expect_equal(as.array(weft.nd.relu(a)), pmax(x, 0))
  expect_equal(as.array(weft.nd.add_n(a, a, a)), 3 * x)
  expect_equal(as.array(weft.nd.add_n(list(a, a))), 2 * x)
  # FullyConnected on a batch of 2 samples (R columns) with 3 features.
  data <- weft.nd.array(matrix(1:6, 3, 2))
  w <- weft.nd.array(matrix(c(1, 0, 0, 0, 1, 0), 3, 2))  # library weight (2, 3)
  out <- weft.nd.FullyConnected(data, w, num_hidden = 2, no_bias = TRUE)
  expect_equal(as.array(out), matrix(c(1, 2, 4, 5), 2, 2))
  # out= writes in place.
  dst <- weft.nd.zeros(c(2, 2))
  weft.nd.relu(a, out = dst)
  expect_equal(as.array(dst), pmax(x, 0))
  expect_error(weft.nd.relu(x), "must be a WeftNDArray")
})

test_that("attribute values are written as the library reads them", {
  expect_equal(weft:::.weft_attr_string(TRUE), "True")
  expect_equal(weft:::.weft_attr_string(100000), "100000")
  expect_equal(weft:::.weft_attr_string(0.001), "0.001")
  expect_equal(weft:::.weft_attr_string(c(2, 3)), "(2,3)")
  expect_equal(weft:::.weft_attr_string(4, "tuple of int"), "(4,)")
  expect_error(weft:::.weft_attr_string(list()), "cannot pass")
})

test_that("the JSON reader handles the schema grammar and rejects bad text", {
  parse <- function(s) .Call(weft:::weft_r_json_parse_string, s)
  v <- parse('{"a": [1, 2.5, -3e2], "b": {"c": null, "d": true}, "s": "x\\n\\u00e9\\"q"}')
  expect_equal(unlist(v$a), c(1, 2.5, -300))
  expect_null(v$b$c)
  expect_true(v$b$d)
  expect_equal(v$s, "x\n\u00e9\"q")
  expect_equal(length(parse("[]")), 0)
  expect_error(parse('{"a": [1, 2}'), "malformed JSON")
  expect_error(parse('"open'), "unterminated")
  expect_error(parse("[1] x"), "trailing")
})
