# Data iterators, as MXNet-R's mx.io.arrayiter: an environment with
# iter.next(), value(), reset(), num.pad() and batch.size over an R array whose
# last dimension indexes samples (colmajor). The last batch is padded by
# wrapping around to the first samples; num.pad() says how many of its samples
# are padding. shuffle = TRUE permutes the samples once, when the iterator is
# made, with R's random generator (set.seed makes it reproducible), as MXNet-R.

weft.io.arrayiter <- function(data, label, batch.size = 128, shuffle = FALSE, ctx = weft.cpu()) {
  if (inherits(data, "WeftNDArray")) data <- as.array(data)
  if (is.data.frame(data)) data <- as.matrix(data)
  if (!(is.numeric(data) || is.logical(data))) .weft_stop("data must be a numeric array, got ", class(data)[1])
  if (is.null(dim(data))) data <- matrix(data, nrow = 1)
  label <- .weft_labels(label, "label")
  n <- dim(data)[length(dim(data))]
  if (length(label) != n) {
    .weft_stop("the last dimension of data (", n, ") must equal the number of labels (", length(label),
               "): samples go in the last dimension (pass t(X) for a matrix with samples in rows)")
  }
  .weft_check_finite(data, "data")
  if (!is.numeric(batch.size) || length(batch.size) != 1 || batch.size < 1) .weft_stop("batch.size must be a positive number")
  if (isTRUE(shuffle)) {
    perm <- sample.int(n)
    data <- .weft_take_samples(data, perm)
    label <- label[perm]
  }
  batches <- .weft_batches(data, label, batch.size, ctx)
  it <- new.env(parent = emptyenv())
  it$batch.size <- batches$batch.size
  it$.data <- data
  it$.label <- label
  it$.cursor <- 0L
  it$reset <- function() {
    it$.cursor <- 0L
    invisible(TRUE)
  }
  it$iter.next <- function() {
    if (it$.cursor >= batches$num.batches) return(FALSE)
    it$.cursor <- it$.cursor + 1L
    TRUE
  }
  it$value <- function() {
    if (it$.cursor < 1L) .weft_stop("call iter.next() before value()")
    list(data = .weft_batch_view(batches$data, batches, it$.cursor),
         label = .weft_batch_view(batches$label, batches, it$.cursor))
  }
  it$num.pad <- function() {
    if (it$.cursor < 1L) return(0L)
    as.integer(batches$batch.size - .weft_batch_real(batches, it$.cursor))
  }
  class(it) <- c("WeftArrayIter", "WeftDataIter")
  it
}

is.weft.dataiter <- function(x) {
  inherits(x, "WeftDataIter") || (is.environment(x) && is.function(x$iter.next) && is.function(x$value) &&
                                     is.function(x$reset))
}

print.WeftDataIter <- function(x, ...) {
  cat(sprintf("<WeftArrayIter: %d samples in batches of %d>\n", length(x$.label), x$batch.size))
  invisible(x)
}

# The samples of array X (samples last) in the order idx.
.weft_take_samples <- function(X, idx) {
  d <- dim(X)
  array(matrix(X, ncol = d[length(d)])[, idx], dim = c(d[-length(d)], length(idx)))
}

# All the samples of an iterator (padding dropped) as list(X samples last, y,
# batch.size): an arrayiter directly, any other iterator (iter.next, value,
# reset, optionally num.pad) by reading it through once.
.weft_iter_contents <- function(iter) {
  if (inherits(iter, "WeftArrayIter")) return(list(X = iter$.data, y = iter$.label, batch.size = iter$batch.size))
  iter$reset()
  xs <- list()
  ys <- list()
  batch.size <- NULL
  while (isTRUE(iter$iter.next())) {
    v <- iter$value()
    x <- as.array(v$data)
    if (is.null(dim(x))) x <- matrix(x, nrow = 1)
    n <- dim(x)[length(dim(x))]
    batch.size <- batch.size %||% n
    pad <- if (is.function(iter$num.pad)) iter$num.pad() else 0
    keep <- seq_len(n - pad)
    xs[[length(xs) + 1]] <- .weft_take_samples(x, keep)
    ys[[length(ys) + 1]] <- as.vector(as.array(v$label))[keep]
  }
  iter$reset()
  if (!length(xs)) .weft_stop("the data iterator gave no batches")
  d <- dim(xs[[1]])
  X <- array(unlist(lapply(xs, as.vector)), dim = c(d[-length(d)], sum(vapply(ys, length, 0L))))
  list(X = X, y = unlist(ys), batch.size = batch.size)
}
