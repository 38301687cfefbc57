# MXNet-R names that do not start with mx. and that weft spells its own way
# (is.weft.ndarray, weft.symbol.internals ...): defined here, so scripts written
# for MXNet's R package find them after library(mxnet). Each is the weft
# function under MXNet-R's name and argument names.

is.mx.ndarray <- function(src.array) weft::is.weft.ndarray(src.array)
is.mx.symbol <- function(x) weft::is.weft.symbol(x)
is.mx.context <- function(x) inherits(x, "WeftContext")
# weft's iterators (mx.io.arrayiter and the iterators it wraps) carry this class.
is.mx.dataiter <- function(x) inherits(x, "WeftDataIter")
internals <- function(x) weft::weft.symbol.internals(x)
children <- function(x) weft::weft.symbol.children(x)
ctx <- function(nd) weft::weft.nd.context(nd)
