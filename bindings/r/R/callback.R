# Training callbacks, as MXNet's R package: function(iteration, nbatch, env,
# verbose) called after each batch (batch.end.callback) or epoch
# (epoch.end.callback). env holds the training state: env$model (symbol,
# arg.params, aux.params), env$train.metric and env$eval.metric (list(name,
# value) or NULL), env$num.batches. A callback returning FALSE stops training.

# A text progress bar over the batches of each epoch (utils::txtProgressBar).
weft.callback.progress.bar <- function(style = 3) {
  bar <- NULL
  function(iteration, nbatch, env, verbose = TRUE) {
    if (nbatch == 1 || is.null(bar)) bar <<- txtProgressBar(min = 0, max = env$num.batches, style = style)
    setTxtProgressBar(bar, nbatch)
    if (nbatch == env$num.batches) {
      close(bar)
      bar <<- NULL
    }
    TRUE
  }
}

weft.callback.log.train.metric <- function(period = 1) {
  function(iteration, nbatch, env, verbose = TRUE) {
    if (iteration %% period == 0 && !is.null(env$train.metric)) {
      msg <- sprintf("[%d] Train-%s=%g", iteration, env$train.metric$name, env$train.metric$value)
      if (!is.null(env$eval.metric)) msg <- paste0(msg, sprintf(" Validation-%s=%g", env$eval.metric$name, env$eval.metric$value))
      message(msg)
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
