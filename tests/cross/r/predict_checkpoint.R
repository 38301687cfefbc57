# R leg of the Python -> R test: loads a checkpoint written by another binding,
# predicts a float32 C-order input of the given shape and writes the result as
# float64 in C order.  usage: Rscript predict_checkpoint.R <prefix> <epoch> <in.bin> <d1,d2,...> <out.bin>
library(weft)
a <- commandArgs(trailingOnly = TRUE)
shape <- as.numeric(strsplit(a[4], ",")[[1]])
values <- readBin(a[3], "double", n = prod(shape), size = 4, endian = "little")
# C order (n, features...) is R order c(rev(features), n): samples in the last dimension.
x <- array(values, dim = rev(shape))
model <- weft.model.load.checkpoint(a[1], as.integer(a[2]))
pred <- predict(model, x, array.layout = "colmajor", array.batch.size = shape[1])
writeBin(as.vector(pred), a[5], size = 8, endian = "little")
