# Dataset preparation for training and prediction: R data -> NDArrays with the
# sample axis as the library's first axis (the last R dimension), padded to
# whole batches by wrapping around to the first samples (as MXNet's array
# iterator); the padding is never counted by metrics or returned by predict.

# X as an R array whose last dimension indexes samples.
.weft_samples_last <- function(X, layout, n.labels = NULL) {
  if (inherits(X, "WeftNDArray")) X <- as.array(X)
  if (is.data.frame(X)) X <- as.matrix(X)
  if (!(is.numeric(X) || is.logical(X))) .weft_stop("X must be a numeric matrix or array, got ", class(X)[1])
  if (is.null(dim(X))) X <- matrix(X, nrow = 1)
  if (!layout %in% c("auto", "rowmajor", "colmajor")) .weft_stop("array.layout must be 'auto', 'rowmajor' or 'colmajor'")
  if (layout == "auto") {
    layout <- if (length(dim(X)) == 2 && (is.null(n.labels) || nrow(X) == n.labels)) "rowmajor" else "colmajor"
  }
  if (layout == "rowmajor") {
    if (length(dim(X)) != 2) .weft_stop("array.layout = 'rowmajor' needs a matrix (samples in rows)")
    X <- t(X)
  }
  X
}

.weft_batches <- function(X, y, batch.size, ctx) {
  d <- dim(X)
  n <- d[length(d)]
  if (n < 1) .weft_stop("the data has no samples")
  if (!is.null(y) && length(y) != n) .weft_stop("X has ", n, " samples but y has ", length(y), " labels")
  batch.size <- as.integer(batch.size)
  if (batch.size < 1) .weft_stop("array.batch.size must be positive")
  num.batches <- ceiling(n / batch.size)
  pad <- num.batches * batch.size - n
  idx <- c(seq_len(n), rep_len(seq_len(n), pad))
  per.sample <- prod(d[-length(d)])
  Xp <- array(matrix(X, nrow = per.sample)[, idx], dim = c(d[-length(d)], length(idx)))
  list(data = weft.nd.array(Xp, ctx), label = if (is.null(y)) NULL else weft.nd.array(as.numeric(y)[idx], ctx),
       n = n, batch.size = batch.size, num.batches = num.batches, sample.dim = d[-length(d)])
}

# The number of real (not padding) samples in batch b (1-based).
.weft_batch_real <- function(batches, b) min(batches$batch.size, batches$n - (b - 1) * batches$batch.size)

.weft_batch_view <- function(arr, batches, b) {
  begin <- (b - 1) * batches$batch.size
  .Call(weft_r_nd_slice, arr, begin, begin + batches$batch.size)
}
