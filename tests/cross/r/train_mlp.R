# R leg of tests/cross/test_r_cross.py: trains a small MLP on a fixed dataset
# with a fixed seed, saves a checkpoint (prefix-symbol.json, prefix-0003.params),
# and writes the test input (float32, C order (n, 2)) and R's predictions
# (float64, C order (n, 3)).  usage: Rscript train_mlp.R <out dir>
library(weft)
out <- commandArgs(trailingOnly = TRUE)[1]
set.seed(11)
weft.set.seed(11)
n <- 120
centers <- matrix(c(2, 0, -1, 1.7, -1, -1.7), 2)
y <- rep(0:2, length.out = n)
X <- t(centers[, y + 1]) + matrix(rnorm(2 * n, sd = 0.6), n, 2)
net <- weft.symbol.FullyConnected(weft.symbol.Variable("data"), num_hidden = 16, name = "fc1")
net <- weft.symbol.Activation(net, act_type = "tanh", name = "act1")
net <- weft.symbol.FullyConnected(net, num_hidden = 3, name = "fc2")
net <- weft.symbol.SoftmaxOutput(net, name = "softmax")
model <- weft.model.FeedForward.create(net, X, y, num.round = 3, array.batch.size = 16, optimizer = "sgd",
                                       learning.rate = 0.2, momentum = 0.9, initializer = weft.init.Xavier(),
                                       verbose = FALSE)
weft.model.save.checkpoint(model, file.path(out, "rmlp"), 3)
test <- X[1:8, ]
writeBin(as.vector(t(test)), file.path(out, "in.bin"), size = 4, endian = "little")
pred <- predict(model, test)                # dim c(3, 8): C order (8, 3) in memory
writeBin(as.vector(pred), file.path(out, "r_pred.bin"), size = 8, endian = "little")
# The same parameters under a loss-free "deploy" symbol (softmax of fc2), the
# form serving code often exports.
deploy <- model
deploy$symbol <- weft.symbol.softmax(weft.symbol.internals(model$symbol)[["fc2_output"]], name = "prob")
weft.model.save.checkpoint(deploy, file.path(out, "rmlp-deploy"), 3)
