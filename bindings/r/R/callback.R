# Training callbacks, as MXNet's R package: function(iteration, nbatch, env,
# verbose) called after each batch (batch.end.callback, nbatch = 1, 2, ...) or
# epoch (epoch.end.callback, nbatch = 0 as in MXNet-R). env holds the training
# state: env$model (symbol, arg.params, aux.params), env$train.metric (this
# epoch's value so far: list(name, value) or NULL), env$eval.metric (the
# validation value at the end of an epoch), env$metric (the metric; its get()
# also accepts env$train.metric, as MXNet-R callbacks call it) and
# env$num.batches. A callback returning FALSE stops training.

# A text progress bar over the batches of each epoch (utils::txtProgressBar).
weft.callback.progress.bar <- function(style = 3) {
  bar <- NULL
  function(iteration, nbatch, env, verbose = TRUE) {
    if (nbatch == 0) return(TRUE)
    if (nbatch == 1 || is.null(bar)) bar <<- txtProgressBar(min = 0, max = env$num.batches, style = style)
    setTxtProgressBar(bar, nbatch)
    if (nbatch == env$num.batches) {
      close(bar)
      bar <<- NULL
    }
    TRUE
  }
}

# As a batch callback it reports this epoch's running value every period
# batches; as an epoch callback (nbatch 0) it records the epoch's training and
# validation values every period epochs (which training prints when verbose). A logger (weft.metric.logger()) collects the
# values reported in $train and $eval.
weft.callback.log.train.metric <- function(period = 1, logger = NULL) {
  if (!is.null(logger) && !inherits(logger, "WeftMetricLogger")) .weft_stop("logger must come from weft.metric.logger()")
  function(iteration, nbatch, env, verbose = TRUE) {
    train <- env$train.metric
    if (is.null(train)) return(TRUE)
    if (nbatch > 0) {
      if (nbatch %% period != 0) return(TRUE)
      if (verbose) message(sprintf("[%d] Batch [%d] Train-%s=%g", iteration, nbatch, train$name, train$value))
      if (!is.null(logger)) logger$train <- c(logger$train, train$value)
      return(TRUE)
    }
    # At the end of an epoch training itself prints the values (verbose), as MXNet-R.
    if (iteration %% period != 0) return(TRUE)
    if (!is.null(logger)) {
      logger$train <- c(logger$train, train$value)
      if (!is.null(env$eval.metric)) logger$eval <- c(logger$eval, env$eval.metric$value)
    }
    TRUE
  }
}

# Where log.train.metric keeps the values it reports: $train and $eval.
weft.metric.logger <- function() {
  logger <- new.env(parent = emptyenv())
  logger$train <- numeric(0)
  logger$eval <- numeric(0)
  class(logger) <- "WeftMetricLogger"
  logger
}

# Samples per second over the last frequency batches, with the running metric.
weft.callback.log.speedometer <- function(batch.size, frequency = 50) {
  tic <- NULL
  function(iteration, nbatch, env, verbose = TRUE) {
    if (nbatch == 0) return(TRUE)
    if (nbatch == 1 || is.null(tic)) {
      tic <<- Sys.time()
      return(TRUE)
    }
    if ((nbatch - 1) %% frequency == 0) {
      secs <- as.double(difftime(Sys.time(), tic, units = "secs"))
      speed <- frequency * batch.size / max(secs, 1e-9)
      metric <- if (is.null(env$train.metric)) "" else sprintf(" Train-%s=%g", env$train.metric$name, env$train.metric$value)
      if (verbose) message(sprintf("Batch [%d] Speed: %.1f samples/sec%s", nbatch, speed, metric))
      tic <<- Sys.time()
    }
    TRUE
  }
}

weft.callback.save.checkpoint <- function(prefix, period = 1) {
  function(iteration, nbatch, env, verbose = TRUE) {
    if (iteration %% period == 0) {
      weft.model.save.checkpoint(env$model, prefix, iteration)
      if (verbose) message(sprintf("Model checkpoint saved to %s-%04d.params", prefix, iteration))
    }
    TRUE
  }
}

# Stops when the metric (validation if present, else training) has not
# improved for bad.steps epochs, or crosses a threshold; keeps the best model
# in env$best.model (FeedForward.create returns it when stopping early).
weft.callback.early.stop <- function(bad.steps = 3, maximize = FALSE, threshold = NULL, use.eval = TRUE) {
  best <- NULL
  bad <- 0
  function(iteration, nbatch, env, verbose = TRUE) {
    m <- if (use.eval && !is.null(env$eval.metric)) env$eval.metric else env$train.metric
    if (is.null(m)) .weft_stop("early stopping needs an eval.metric")
    v <- m$value
    if (!is.null(threshold) && ((maximize && v >= threshold) || (!maximize && v <= threshold))) {
      if (verbose) message(sprintf("Early stop at epoch %d: %s=%g reached the threshold", iteration, m$name, v))
      return(FALSE)
    }
    if (is.null(best) || (maximize && v > best) || (!maximize && v < best)) {
      best <<- v
      bad <<- 0
      env$best.model <- .weft_model_snapshot(env$model)
      env$best.iteration <- iteration
      return(TRUE)
    }
    bad <<- bad + 1
    if (bad >= bad.steps) {
      if (verbose) message(sprintf("Early stop at epoch %d: %s did not improve for %d epochs (best %g at epoch %d)",
                                   iteration, m$name, bad, best, env$best.iteration))
      return(FALSE)
    }
    TRUE
  }
}

# MXNet-R's early stopping: stop once the training (train.metric) or
# validation (eval.metric) value passes a hard threshold (below it, or above it
# when maximize), or once the validation value has not improved for bad.steps
# epochs. Training returns the model of the epoch it stopped at, as MXNet-R.
weft.callback.mx.early.stop <- function(train.metric = NULL, eval.metric = NULL, bad.steps = NULL, maximize = FALSE,
                                        verbose = FALSE) {
  best <- NULL
  since.best <- 0
  passed <- function(v, threshold) if (maximize) v > threshold else v < threshold
  function(iteration, nbatch, env, verbose.arg = verbose) {
    if (!is.null(train.metric) && !is.null(env$train.metric) && passed(env$train.metric$value, train.metric)) {
      if (verbose) message(sprintf("Early stop at epoch %d: Train-%s=%g passed %g", iteration, env$train.metric$name,
                                   env$train.metric$value, train.metric))
      return(FALSE)
    }
    ev <- env$eval.metric
    if (!is.null(eval.metric) && !is.null(ev) && passed(ev$value, eval.metric)) {
      if (verbose) message(sprintf("Early stop at epoch %d: Validation-%s=%g passed %g", iteration, ev$name, ev$value, eval.metric))
      return(FALSE)
    }
    if (!is.null(bad.steps) && !is.null(ev)) {
      if (is.null(best) || (maximize && ev$value > best$value) || (!maximize && ev$value < best$value)) {
        best <<- list(value = ev$value, iteration = iteration)
        since.best <<- 0
      } else {
        since.best <<- since.best + 1
        if (since.best >= bad.steps) {
          if (verbose) message(sprintf("Best score=%g, iteration [%d]", best$value, best$iteration))
          return(FALSE)
        }
      }
    }
    TRUE
  }
}
