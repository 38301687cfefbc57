# Feed-forward training, prediction and checkpoints in the spirit of MXNet's
# R package (mx.model.FeedForward.create, predict, mx.model.save/load).
# A model is list(symbol, arg.params, aux.params) of class WeftFeedForwardModel;
# parameters are NDArrays named by argument.

.weft_label_names <- function(symbol, input.names) {
  setdiff(grep("label$", arguments(symbol), value = TRUE), input.names)
}

.weft_model_snapshot <- function(model) {
  copy <- function(lst) lapply(lst, function(a) weft.nd.copyto(a, weft.nd.context(a)))
  structure(list(symbol = model$symbol, arg.params = copy(model$arg.params), aux.params = copy(model$aux.params)),
            class = "WeftFeedForwardModel")
}

.weft_metric_eval <- function(metric, exec, batches, labels, input.name) {
  state <- metric$init()
  for (b in seq_len(batches$num.batches)) {
    weft.nd.copy.into(.weft_batch_view(batches$data, batches, b), exec$arg.arrays[[input.name]])
    weft.exec.forward(exec, is.train = FALSE)
    real <- .weft_batch_real(batches, b)
    pred <- as.array(exec$outputs[[1]])
    pred <- if (is.null(dim(pred))) pred[seq_len(real)] else matrix(pred, ncol = batches$batch.size)[, seq_len(real), drop = FALSE]
    first <- (b - 1) * batches$batch.size
    state <- metric$update(labels[first + seq_len(real)], pred, state)
  }
  metric$get(state)
}

# The training set as list(X samples last, y numeric, batch.size): from an
# iterator as it is, from R data checked (labels, NA/NaN) and shuffled once with
# R's generator when shuffle is TRUE (MXNet-R's array iterator does the same,
# so data sorted by class -- iris as shipped -- still trains).
.weft_training_set <- function(X, y, layout, batch.size, shuffle, what = "X") {
  if (is.weft.dataiter(X)) {
    contents <- .weft_iter_contents(X)
    contents$y <- .weft_labels(contents$y, "the iterator's label")
    return(contents)
  }
  if (is.null(y)) .weft_stop("training needs labels y (or an iterator as ", what, ")")
  y <- .weft_labels(y, if (what == "X") "y" else paste0(what, "$label"))
  X <- .weft_samples_last(X, layout, length(y))
  .weft_check_finite(X, what)
  n <- dim(X)[length(dim(X))]
  if (length(y) != n) .weft_stop(what, " has ", n, " samples but ", length(y), " labels")
  list(X = X, y = y, batch.size = min(as.integer(batch.size), n), shuffle = isTRUE(shuffle))
}

# A metric as the callbacks see it (env$metric): get() also accepts an already
# computed list(name, value), so MXNet-R callbacks that call
# env$metric$get(env$train.metric) and weft callbacks that read
# env$train.metric$value both see the current values.
.weft_callback_metric <- function(metric) {
  if (is.null(metric)) return(NULL)
  m <- metric
  m$get <- function(state) if (is.list(state) && !is.null(state$value)) state else metric$get(state)
  m
}

weft.model.FeedForward.create <- function(symbol, X, y = NULL, ctx = weft.cpu(), begin.round = 1, num.round = 10,
                                          optimizer = "sgd", initializer = weft.init.uniform(0.01),
                                          eval.data = NULL, eval.metric = NULL, epoch.end.callback = NULL,
                                          batch.end.callback = NULL, array.batch.size = 128, array.layout = "auto",
                                          arg.params = NULL, aux.params = NULL, input.names = "data",
                                          fixed.param = NULL, shuffle = TRUE, verbose = TRUE, ...) {
  symbol <- .weft_sym_check(symbol)
  ctx <- .weft_check_ctx(ctx %||% weft.cpu())
  label.names <- .weft_label_names(symbol, input.names)
  if (length(label.names) != 1) {
    .weft_stop("the symbol must have exactly one label argument (name ending in 'label'), found: ",
               if (length(label.names)) paste(label.names, collapse = ", ") else "none")
  }
  train <- .weft_training_set(X, y, array.layout, array.batch.size, shuffle)
  sample.dim <- dim(train$X)[-length(dim(train$X))]
  .weft_check_params_fit(symbol, input.names, sample.dim, arg.params)
  shapes <- list(c(sample.dim, train$batch.size), train$batch.size)
  names(shapes) <- c(input.names, label.names)
  inferred <- infer.shape(symbol, shapes)
  if (!is.null(inferred)) .weft_check_label_range(train$y, inferred$out.shapes[[1]], inferred$arg.shapes[[label.names]])
  if (isTRUE(train$shuffle)) {
    perm <- sample.int(length(train$y))
    train$X <- .weft_take_samples(train$X, perm)
    train$y <- train$y[perm]
  }
  batches <- .weft_batches(train$X, train$y, train$batch.size, ctx)
  inputs <- c(input.names, label.names)
  exec <- do.call(weft.simple.bind, c(list(symbol, ctx, grad.req = "write", fixed.param = c(inputs, fixed.param)), shapes))
  param.names <- setdiff(names(exec$arg.arrays), inputs)
  unknown <- setdiff(fixed.param, param.names)
  if (length(unknown)) .weft_stop("fixed.param names no parameter of the symbol: ", paste(unknown, collapse = ", "))

  # Initial values: given arg.params/aux.params, else the initializer.
  init <- weft.init.create(initializer, lapply(exec$arg.arrays[param.names], dim), ctx)
  for (name in names(arg.params)) init[[name]] <- arg.params[[name]]
  weft.exec.update.arg.arrays(exec, init, match.name = TRUE)
  if (!is.null(aux.params)) weft.exec.update.aux.arrays(exec, aux.params, match.name = TRUE)
  else if (length(exec$aux.arrays)) {
    weft.exec.update.aux.arrays(exec, weft.init.create(initializer, lapply(exec$aux.arrays, dim), ctx))
  }

  if (is.character(optimizer)) optimizer <- weft.opt.create(optimizer, rescale.grad = 1 / batches$batch.size, ...)
  optimizer <- weft.opt.create(optimizer)
  update.names <- setdiff(param.names, fixed.param)
  states <- lapply(seq_along(update.names), function(i) optimizer$create.state(i, exec$arg.arrays[[update.names[i]]]))
  weights <- exec$arg.arrays[update.names]
  grads <- exec$grad.arrays[update.names]

  eval.batches <- NULL
  if (!is.null(eval.data)) {
    if (!is.weft.dataiter(eval.data) && (!is.list(eval.data) || is.null(eval.data$data) || is.null(eval.data$label))) {
      .weft_stop("eval.data must be list(data = X, label = y) or a data iterator")
    }
    ev <- if (is.weft.dataiter(eval.data)) .weft_training_set(eval.data, NULL, array.layout, array.batch.size, FALSE)
          else .weft_training_set(eval.data$data, eval.data$label, array.layout, array.batch.size, FALSE, "eval.data")
    eval.batches <- .weft_batches(ev$X, ev$y, batches$batch.size, ctx)
    eval.labels <- ev$y
    if (!identical(eval.batches$sample.dim, batches$sample.dim)) .weft_stop("eval.data has a different sample shape than X")
  }
  data.arr <- exec$arg.arrays[[input.names]]
  label.arr <- exec$arg.arrays[[label.names]]
  y <- train$y
  # Views of every batch, made once: a step then costs a handful of .Calls.
  data.views <- lapply(seq_len(batches$num.batches), function(b) .weft_batch_view(batches$data, batches, b))
  label.views <- lapply(seq_len(batches$num.batches), function(b) .weft_batch_view(batches$label, batches, b))

  env <- new.env(parent = emptyenv())
  env$num.batches <- batches$num.batches
  env$metric <- .weft_callback_metric(eval.metric)
  env$model <- structure(list(symbol = symbol, arg.params = exec$arg.arrays[param.names], aux.params = exec$aux.arrays),
                         class = "WeftFeedForwardModel")
  stopped <- FALSE
  for (iteration in seq(begin.round, length.out = num.round)) {
    state <- if (is.null(eval.metric)) NULL else eval.metric$init()
    env$iteration <- iteration
    env$train.metric <- NULL
    env$eval.metric <- NULL
    for (b in seq_len(batches$num.batches)) {
      .Call(weft_r_nd_copy_to, data.views[[b]], data.arr)
      .Call(weft_r_nd_copy_to, label.views[[b]], label.arr)
      .Call(weft_r_exec_forward, exec$handle, TRUE)
      .Call(weft_r_exec_backward, exec$handle, NULL)
      for (i in seq_along(weights)) optimizer$update(i, weights[[i]], grads[[i]], states[[i]])
      if (!is.null(eval.metric)) {
        out <- .Call(weft_r_exec_outputs, exec$handle)[[1]]
        real <- .weft_batch_real(batches, b)
        pred <- as.array(out)
        pred <- if (is.null(dim(pred))) pred[seq_len(real)] else matrix(pred, ncol = batches$batch.size)[, seq_len(real), drop = FALSE]
        state <- eval.metric$update(y[(b - 1) * batches$batch.size + seq_len(real)], pred, state)
      }
      if (!is.null(batch.end.callback)) {
        # The running value of this epoch so far, as a batch callback reports it.
        env$train.metric <- if (is.null(eval.metric)) NULL else eval.metric$get(state)
        if (identical(batch.end.callback(iteration, b, env, verbose), FALSE)) {
          stopped <- TRUE
          break
        }
      }
    }
    .Call(weft_r_wait_all)
    env$train.metric <- if (is.null(eval.metric)) NULL else eval.metric$get(state)
    if (!is.null(eval.batches) && !is.null(eval.metric)) {
      eval.exec <- weft.bind(symbol, ctx, exec$arg.arrays, exec$aux.arrays, grad.req = "null")
      env$eval.metric <- .weft_metric_eval(eval.metric, eval.exec, eval.batches, eval.labels, input.names)
    }
    if (verbose && !is.null(env$train.metric)) {
      message(sprintf("[%d] Train-%s=%g%s", iteration, env$train.metric$name, env$train.metric$value,
                      if (is.null(env$eval.metric)) "" else sprintf(" Validation-%s=%g", env$eval.metric$name,
                                                                       env$eval.metric$value)))
    }
    if (stopped) break
    # nbatch is 0 at the end of an epoch, as MXNet-R calls epoch.end.callback.
    if (!is.null(epoch.end.callback) && identical(epoch.end.callback(iteration, 0, env, verbose), FALSE)) {
      break
    }
  }
  model <- if (!is.null(env$best.model)) env$best.model else .weft_model_snapshot(env$model)
  model
}

# Predictions as an R array of dim c(outputs..., samples) (R order: one column
# per sample for a classifier), computed in batches of array.batch.size.
predict.WeftFeedForwardModel <- function(object, X, ctx = weft.cpu(), array.batch.size = 128,
                                         array.layout = "auto", input.names = "data", ...) {
  ctx <- .weft_check_ctx(ctx %||% weft.cpu())
  if (is.weft.dataiter(X)) {
    X <- .weft_iter_contents(X)$X
  } else {
    X <- .weft_samples_last(X, .weft_predict_layout(object, X, array.layout, input.names))
  }
  .weft_check_finite(X)
  .weft_check_params_fit(object$symbol, input.names, dim(X)[-length(dim(X))], object$arg.params)
  batches <- .weft_batches(X, NULL, array.batch.size, ctx)
  shapes <- list(c(batches$sample.dim, batches$batch.size))
  names(shapes) <- input.names
  exec <- do.call(weft.simple.bind, c(list(object$symbol, ctx, grad.req = "null"), shapes))
  weft.exec.update.arg.arrays(exec, object$arg.params, match.name = TRUE)
  weft.exec.update.aux.arrays(exec, object$aux.params, match.name = TRUE)
  data.arr <- exec$arg.arrays[[input.names]]
  result <- NULL
  for (b in seq_len(batches$num.batches)) {
    weft.nd.copy.into(.weft_batch_view(batches$data, batches, b), data.arr)
    weft.exec.forward(exec, is.train = FALSE)
    out <- as.array(exec$outputs[[1]])
    per.sample <- length(out) / batches$batch.size
    real <- .weft_batch_real(batches, b)
    out <- matrix(out, nrow = per.sample)[, seq_len(real), drop = FALSE]
    if (is.null(result)) result <- matrix(0, per.sample, batches$n)
    result[, (b - 1) * batches$batch.size + seq_len(real)] <- out
  }
  out.dim <- dim(exec$outputs[[1]])
  if (length(out.dim) > 2) dim(result) <- c(out.dim[-length(out.dim)], batches$n)
  result
}

# "auto" for a matrix, as MXNet-R: samples in rows unless only samples in
# columns fit the model's parameters (a square matrix stays rowmajor).
.weft_predict_layout <- function(model, X, layout, input.name) {
  if (layout != "auto" || length(dim(X)) != 2 || inherits(X, "WeftNDArray")) return(layout)
  fits <- function(features) {
    shapes <- .weft_infer_for(model$symbol, input.name, features)
    !is.null(shapes) && all(vapply(names(model$arg.params), function(p) {
      is.null(shapes[[p]]) || identical(as.numeric(shapes[[p]]), as.numeric(dim(model$arg.params[[p]])))
    }, TRUE))
  }
  if (!fits(ncol(X)) && fits(nrow(X))) "colmajor" else "rowmajor"
}

print.WeftFeedForwardModel <- function(x, ...) {
  cat(sprintf("<WeftFeedForwardModel: %d parameters (%s)>\n", length(x$arg.params), paste(names(x$arg.params), collapse = ", ")))
  invisible(x)
}

# Checkpoints in the shared (MXNet 1.x) format: prefix-symbol.json and
# prefix-%04d.params with keys "arg:<name>" and "aux:<name>".
weft.model.save.checkpoint <- function(model, prefix, iteration) {
  weft.symbol.save(model$symbol, paste0(prefix, "-symbol.json"))
  params <- c(model$arg.params, model$aux.params)
  prefixed <- function(tag, lst) if (length(lst)) paste0(tag, names(lst)) else character(0)
  names(params) <- c(prefixed("arg:", model$arg.params), prefixed("aux:", model$aux.params))
  weft.nd.save(params, sprintf("%s-%04d.params", prefix, as.integer(iteration)))
  invisible(prefix)
}

weft.model.load.checkpoint <- function(prefix, iteration) {
  symbol <- weft.symbol.load(paste0(prefix, "-symbol.json"))
  params <- weft.nd.load(sprintf("%s-%04d.params", prefix, as.integer(iteration)))
  keys <- names(params)
  if (is.null(keys) || !all(grepl("^(arg|aux):", keys))) {
    .weft_raise(sprintf("%s-%04d.params: every key must start with 'arg:' or 'aux:'", prefix, as.integer(iteration)),
                "weftIOError")
  }
  arg <- params[startsWith(keys, "arg:")]
  aux <- params[startsWith(keys, "aux:")]
  names(arg) <- substring(names(arg), 5)
  names(aux) <- substring(names(aux), 5)
  structure(list(symbol = symbol, arg.params = arg, aux.params = aux), class = "WeftFeedForwardModel")
}
