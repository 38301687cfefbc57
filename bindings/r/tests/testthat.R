library(testthat)
library(weft)
test_check("weft")
