# Note [Engine shutdown] (core/engine/engine.h). Shutdown is final for a
# process, so each check runs in an Rscript of its own.
run_r <- function(code) {
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)),
                                  stdout = TRUE, stderr = TRUE))
  list(status = if (is.null(attr(out, "status"))) 0L else attr(out, "status"), out = paste(out, collapse = "\n"))
}

test_that("after shutdown a computation fails with an engine error, reading still works", {
  r <- run_r(paste(
    "suppressMessages(library(weft))",
    "a <- weft.nd.array(matrix(as.numeric(1:6), 2, 3))",
    "weft:::.weft_shutdown(); weft:::.weft_shutdown()",
    "e <- tryCatch({ weft.nd.dot(a, a, transpose_b = TRUE); 'no error' }, weftEngineError = function(e) conditionMessage(e))",
    "cat('message:', e, '\\n'); cat('sum:', sum(as.array(a)), '\\n')", sep = "\n"))
  expect_equal(r$status, 0L, info = r$out)
  expect_match(r$out, "message: .*engine was shut down", info = r$out)
  expect_match(r$out, "sum: 21", info = r$out)
})

test_that("R exits cleanly with computations nobody waited for", {
  r <- run_r(paste(
    "suppressMessages(library(weft))",
    "x <- weft.nd.array(matrix(runif(256 * 256), 256, 256))",
    "for (i in 1:4) y <- weft.nd.dot(x, x)",
    "cat('pushed\\n')", sep = "\n"))
  expect_equal(r$status, 0L, info = r$out)
  expect_match(r$out, "pushed", info = r$out)
})
