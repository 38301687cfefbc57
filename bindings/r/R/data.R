# Dataset preparation for training and prediction: R data -> NDArrays with the
# sample axis as the library's first axis (the last R dimension), padded to
# whole batches by wrapping around to the first samples (as MXNet's array
# iterator); the padding is never counted by metrics or returned by predict.
# Labels and inputs are checked first: factor labels become 0..k-1 (with a
# message naming the mapping), NA/NaN/Inf values and labels outside the
# network's classes are refused with the position of the first bad value.

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

# Labels as a numeric vector: a factor maps its levels to 0..k-1 (reported),
# logicals to 0/1; characters and non-finite labels are refused.
.weft_labels <- function(y, what = "y") {
  if (is.data.frame(y)) {
    if (ncol(y) != 1) .weft_stop(what, " must be a vector of labels, got a data frame with ", ncol(y), " columns")
    y <- y[[1]]
  }
  if (is.factor(y)) {
    lv <- levels(y)
    shown <- if (length(lv) > 10) c(sprintf("'%s' -> %d", lv[1:10], 0:9), "...") else sprintf("'%s' -> %d", lv, seq_along(lv) - 1)
    message(what, " is a factor; its levels are used as the labels ", paste(shown, collapse = ", "))
    y <- as.integer(y) - 1
  } else if (is.character(y)) {
    .weft_stop(what, " is a character vector; give numeric labels (0..k-1 for k classes) or a factor")
  } else if (!(is.numeric(y) || is.logical(y))) {
    .weft_stop(what, " must be numeric labels or a factor, got ", class(y)[1])
  }
  y <- as.numeric(y)
  bad <- which(!is.finite(y))
  if (length(bad)) .weft_stop(what, " has ", length(bad), " NA/NaN/Inf label(s); the first is label ", bad[1])
  y
}

# Refuses NA/NaN/Inf in X (samples last), naming the first bad sample.
.weft_check_finite <- function(X, what = "X") {
  bad <- which(!is.finite(X))
  if (!length(bad)) return(invisible(X))
  d <- dim(X)
  per.sample <- if (is.null(d)) 1 else prod(d[-length(d)])
  sample <- (bad[1] - 1) %/% per.sample + 1
  .weft_stop(what, " has ", length(bad), " NA/NaN/Inf value(s); the first is in sample ", sample,
             " (value ", format(X[bad[1]]), "); remove or impute them before training or predicting")
}

# Classification labels must be whole numbers in 0..k-1 when the network's
# output has k > 1 classes per sample and its label one value per sample
# (SoftmaxOutput and the like).
.weft_check_label_range <- function(y, out.shape, label.shape) {
  if (length(label.shape) != 1 || length(out.shape) != 2 || out.shape[1] < 2) return(invisible(y))
  k <- out.shape[1]
  bad <- which(y != round(y) | y < 0 | y > k - 1)
  if (length(bad)) {
    .weft_stop("label ", format(y[bad[1]]), " (sample ", bad[1], ") is not a class of the network: its output has ", k,
               " classes, so labels must be whole numbers 0..", k - 1, " (", length(bad), " label(s) outside)")
  }
  invisible(y)
}

# The model's parameters must fit input samples of dim sample.dim; a mismatch
# names the expected and given feature counts.
.weft_check_params_fit <- function(symbol, input.name, sample.dim, params, what = "X") {
  if (!length(params)) return(invisible(TRUE))
  shapes <- .weft_infer_for(symbol, input.name, sample.dim)
  if (is.null(shapes)) return(invisible(TRUE))  # left to the bind, which names the argument
  wrong <- Filter(function(name) !is.null(shapes[[name]]) && !identical(as.numeric(shapes[[name]]), as.numeric(dim(params[[name]]))),
                  names(params))
  if (!length(wrong)) return(invisible(TRUE))
  name <- wrong[1]
  have <- dim(params[[name]])
  detail <- sprintf("its parameter '%s' has dim c(%s), not c(%s)", name, paste(have, collapse = ", "),
                    paste(shapes[[name]], collapse = ", "))
  if (length(sample.dim) == 1) {
    fits <- function(f) {
      s <- .weft_infer_for(symbol, input.name, f)
      !is.null(s) && all(vapply(names(params), function(p) is.null(s[[p]]) || identical(as.numeric(s[[p]]), as.numeric(dim(params[[p]]))), TRUE))
    }
    expected <- Filter(fits, unique(as.numeric(have)))
    want <- if (length(expected)) sprintf("the model expects %g", expected[1]) else "the model expects another number"
    .weft_raise(sprintf("%s has %g features per sample but %s (%s)", what, sample.dim, want, detail), "weftShapeError")
  }
  .weft_raise(sprintf("%s has samples of dim c(%s), which the model does not fit: %s", what,
                      paste(sample.dim, collapse = ", "), detail), "weftShapeError")
}

.weft_infer_for <- function(symbol, input.name, sample.dim) {
  shapes <- list(c(sample.dim, 1))
  names(shapes) <- input.name
  res <- tryCatch(infer.shape(symbol, shapes), weftError = function(e) NULL)
  res$arg.shapes
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
