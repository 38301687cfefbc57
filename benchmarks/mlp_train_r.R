# R side of benchmarks/r_vs_python.sh: trains the benchmark MLP with
# weft.model.FeedForward.create and prints the training time in seconds
# (wall clock and CPU, each the fastest of three runs).
#   usage: Rscript mlp_train_r.R <data folder> <epochs>
library(weft)
a <- commandArgs(trailingOnly = TRUE)
n <- 10000
features <- 100
epochs <- as.integer(a[2])
# x.bin is C order (n, features): in R order that is a features x n array.
x <- matrix(readBin(file.path(a[1], "x.bin"), "double", n = n * features, size = 4, endian = "little"), features, n)
y <- readBin(file.path(a[1], "y.bin"), "double", n = n, size = 4, endian = "little")
weft.set.seed(0)
net <- weft.symbol.FullyConnected(weft.symbol.Variable("data"), num_hidden = 128, name = "fc1")
net <- weft.symbol.Activation(net, act_type = "relu", name = "relu1")
net <- weft.symbol.FullyConnected(net, num_hidden = 64, name = "fc2")
net <- weft.symbol.Activation(net, act_type = "relu", name = "relu2")
net <- weft.symbol.FullyConnected(net, num_hidden = 10, name = "fc3")
net <- weft.symbol.SoftmaxOutput(net, name = "softmax")
# The whole call is timed (binding, data upload and initialisation included);
# the fastest of three runs is reported, as on the Python side.
runs <- vapply(1:3, function(i) {
  t <- system.time(weft.model.FeedForward.create(net, x, y, num.round = epochs, array.batch.size = 100,
                                                 array.layout = "colmajor", optimizer = "sgd", learning.rate = 0.05,
                                                 momentum = 0.9, initializer = weft.init.Xavier(), verbose = FALSE))
  c(t[["elapsed"]], t[["user.self"]] + t[["sys.self"]])  # CPU of every thread of the process
}, c(0, 0))
cat(sprintf("%.4f %.4f\n", min(runs[1, ]), min(runs[2, ])))
