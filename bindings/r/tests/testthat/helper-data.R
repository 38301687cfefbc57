# A fixed, easily separable 3-class dataset: samples in rows (R's convention).
blobs <- function(n = 300, seed = 7) {
  set.seed(seed)
  centers <- matrix(c(2, 0, -1, 1.7, -1, -1.7), 2)
  cls <- rep(0:2, length.out = n)
  X <- t(centers[, cls + 1]) + matrix(rnorm(2 * n, sd = 0.5), n, 2)
  list(X = X, y = cls)
}

mlp_symbol <- function(hidden = 16, classes = 3) {
  net <- weft.symbol.FullyConnected(weft.symbol.Variable("data"), num_hidden = hidden, name = "fc1")
  net <- weft.symbol.Activation(net, act_type = "relu", name = "relu1")
  net <- weft.symbol.FullyConnected(net, num_hidden = classes, name = "fc2")
  weft.symbol.SoftmaxOutput(net, name = "softmax")
}
