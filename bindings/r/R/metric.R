# Evaluation metrics on R values: label is a vector (one per sample), pred the
# network output as an R matrix of dim c(outputs, samples) (R order). A metric
# is a list of init(), update(label, pred, state) and get(state).

weft.metric.custom <- function(name, feval) {
  list(name = name,
       init = function() c(sum = 0, n = 0),
       update = function(label, pred, state) state + c(feval(label, pred), 1),
       get = function(state) list(name = name, value = state[["sum"]] / max(state[["n"]], 1)))
}

# Averaged over samples (not batches): the state counts samples.
.weft_metric_samples <- function(name, per_sample) {
  list(name = name,
       init = function() c(sum = 0, n = 0),
       update = function(label, pred, state) {
         v <- per_sample(as.vector(label), pred)
         state + c(sum(v), length(v))
       },
       get = function(state) list(name = name, value = state[["sum"]] / max(state[["n"]], 1)))
}

weft.metric.accuracy <- .weft_metric_samples("accuracy", function(label, pred) {
  pred <- if (is.null(dim(pred)) || nrow(pred) == 1) as.vector(pred) > 0.5 else max.col(t(pred)) - 1
  as.numeric(pred == label)
})

weft.metric.mse <- .weft_metric_samples("mse", function(label, pred) (as.vector(pred) - label)^2)

weft.metric.mae <- .weft_metric_samples("mae", function(label, pred) abs(as.vector(pred) - label))

weft.metric.rmse <- {
  m <- weft.metric.mse
  m$name <- "rmse"
  m$get <- function(state) list(name = "rmse", value = sqrt(state[["sum"]] / max(state[["n"]], 1)))
  m
}

weft.metric.logloss <- .weft_metric_samples("logloss", function(label, pred) {
  p <- pred[cbind(as.integer(label) + 1, seq_along(label))]
  -log(pmax(p, 1e-15))
})

# Root mean squared logarithmic error: sqrt(mean((log(1 + pred) - log(1 + label))^2)).
weft.metric.rmsle <- {
  m <- .weft_metric_samples("rmsle", function(label, pred) (log1p(as.vector(pred)) - log1p(label))^2)
  m$get <- function(state) list(name = "rmsle", value = sqrt(state[["sum"]] / max(state[["n"]], 1)))
  m
}

# MXNet-R 1.x's custom metric: feval(label, pred) gets the batch's labels
# (dim c(samples)) and predictions (dim c(outputs, samples)) as NDArrays, as
# MXNet-R passes them, and returns one number; the metric is the mean over
# batches.
weft.metric.mx.custom <- function(name, feval) {
  if (!is.function(feval)) .weft_stop("feval must be a function(label, pred)")
  list(name = name,
       init = function() c(sum = 0, n = 0),
       update = function(label, pred, state) {
         value <- feval(weft.nd.array(as.vector(label)), weft.nd.array(pred))
         value <- as.numeric(if (inherits(value, "WeftNDArray")) as.array(value) else value)
         if (length(value) != 1) .weft_stop("the metric '", name, "' must return one number, got ", length(value))
         state + c(value, 1)
       },
       get = function(state) list(name = name, value = state[["sum"]] / max(state[["n"]], 1)))
}

# The share of samples whose label is among the top_k highest outputs.
weft.metric.top_k_accuracy <- function(top_k = 5) {
  .weft_metric_samples("top_k_accuracy", function(label, pred) {
    if (is.null(dim(pred)) || nrow(pred) < 2) .weft_stop("top_k_accuracy needs one output per class")
    k <- min(top_k, nrow(pred))
    vapply(seq_along(label), function(i) as.numeric((label[i] + 1) %in% order(pred[, i], decreasing = TRUE)[seq_len(k)]), 0)
  })
}
