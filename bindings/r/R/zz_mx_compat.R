# (Named zz_ so R sources it after the files defining the weft.* functions it renames.)
# MXNet-R compatibility: the mx.* names of MXNet's R package, with its argument
# names and defaults, so MXNet-R scripts run unchanged. Most are the weft.*
# functions under a second name; the operator functions mx.symbol.<op> and
# mx.nd.<op> are generated from the registry with weft.symbol.<op> and
# weft.nd.<op> (ops_generate.R). Where MXNet-R's defaults differ (ctx = NULL
# meaning the default device, mx.model.FeedForward.create's kvstore and
# allow.extra.params ...) the wrapper below takes them.

mx.cpu <- weft.cpu
mx.gpu <- weft.gpu
mx.ctx.default <- function(new = NULL) new %||% weft.cpu()
mx.set.seed <- weft.set.seed

mx.nd.array <- function(src.array, ctx = NULL) weft.nd.array(src.array, ctx %||% weft.cpu())
mx.nd.zeros <- function(shape, ctx = NULL) weft.nd.zeros(shape, ctx %||% weft.cpu())
mx.nd.ones <- function(shape, ctx = NULL) weft.nd.ones(shape, ctx %||% weft.cpu())
mx.nd.copyto <- weft.nd.copyto
mx.nd.save <- weft.nd.save
mx.nd.load <- weft.nd.load

mx.symbol.Variable <- weft.symbol.Variable
mx.symbol.Group <- weft.symbol.Group
mx.symbol.save <- weft.symbol.save
mx.symbol.load <- function(file.name) weft.symbol.load(file.name)
mx.symbol.load.json <- function(str) weft.symbol.fromjson(str)
mx.symbol.infer.shape <- function(symbol, ...) infer.shape(symbol, ...)

mx.simple.bind <- function(symbol, ctx, grad.req = "null", fixed.param = NULL, ...) {
  if (isTRUE(grad.req)) grad.req <- "write"
  if (identical(grad.req, FALSE)) grad.req <- "null"
  weft.simple.bind(symbol, ctx, grad.req = grad.req, fixed.param = fixed.param, ...)
}
mx.exec.forward <- function(exec, is.train = TRUE) weft.exec.forward(exec, is.train)
mx.exec.backward <- function(exec, ...) weft.exec.backward(exec, ...)
mx.exec.update.arg.arrays <- function(exec, arg.arrays, match.name = FALSE, skip.null = FALSE) {
  if (skip.null) arg.arrays <- arg.arrays[!vapply(arg.arrays, is.null, TRUE)]
  weft.exec.update.arg.arrays(exec, arg.arrays, match.name)
}
mx.exec.update.aux.arrays <- function(exec, arg.arrays, match.name = FALSE, skip.null = FALSE) {
  if (skip.null) arg.arrays <- arg.arrays[!vapply(arg.arrays, is.null, TRUE)]
  weft.exec.update.aux.arrays(exec, arg.arrays, match.name)
}

mx.io.arrayiter <- function(data, label, batch.size = 128, shuffle = FALSE) {
  weft.io.arrayiter(data, label, batch.size = batch.size, shuffle = shuffle)
}

mx.callback.log.train.metric <- function(period, logger = NULL) weft.callback.log.train.metric(period, logger)
mx.callback.save.checkpoint <- function(prefix, period = 1) weft.callback.save.checkpoint(prefix, period)
mx.callback.early.stop <- weft.callback.mx.early.stop
mx.callback.log.speedometer <- function(batch.size, frequency = 50) weft.callback.log.speedometer(batch.size, frequency)
# logger <- mx.metric.logger$new(), as MXNet-R's reference class.
mx.metric.logger <- list(new = function() weft.metric.logger())

mx.metric.accuracy <- weft.metric.accuracy
mx.metric.rmse <- weft.metric.rmse
mx.metric.mse <- weft.metric.mse
mx.metric.mae <- weft.metric.mae
mx.metric.rmsle <- weft.metric.rmsle
mx.metric.logloss <- weft.metric.logloss
mx.metric.custom <- weft.metric.mx.custom
mx.metric.top_k_accuracy <- weft.metric.top_k_accuracy(5)

mx.init.uniform <- weft.init.uniform
mx.init.normal <- weft.init.normal
mx.init.Xavier <- weft.init.Xavier
mx.init.internal.default <- weft.init.internal.default
mx.init.create <- weft.init.mx.create

mx.opt.sgd <- weft.opt.sgd
mx.opt.nag <- weft.opt.nag
mx.opt.signum <- weft.opt.signum
mx.opt.adam <- weft.opt.adam
mx.opt.adamw <- weft.opt.adamw
mx.opt.rmsprop <- weft.opt.rmsprop
mx.opt.adagrad <- weft.opt.adagrad
mx.opt.adadelta <- weft.opt.adadelta
mx.opt.ftrl <- weft.opt.ftrl
mx.opt.create <- weft.opt.create
mx.opt.get.updater <- weft.opt.get.updater

mx.model.save <- function(model, prefix, iteration) weft.model.save.checkpoint(model, prefix, iteration)
mx.model.load <- function(prefix, iteration) weft.model.load.checkpoint(prefix, iteration)

# The argument that takes the data: the one named *data, as MXNet-R finds it.
.weft_mx_data_name <- function(symbol) {
  found <- grep("data$", arguments(symbol), value = TRUE)
  if (length(found) == 1) found else "data"
}

mx.model.FeedForward.create <- function(symbol, X, y = NULL, ctx = NULL, begin.round = 1, num.round = 10,
                                        optimizer = "sgd", initializer = mx.init.uniform(0.01), eval.data = NULL,
                                        eval.metric = NULL, epoch.end.callback = NULL, batch.end.callback = NULL,
                                        array.batch.size = 128, array.layout = "auto", kvstore = "local",
                                        verbose = TRUE, arg.params = NULL, aux.params = NULL, input.names = NULL,
                                        output.names = NULL, fixed.param = NULL, allow.extra.params = FALSE,
                                        metric_cpu = TRUE, ...) {
  symbol <- .weft_sym_check(symbol)
  if (!is.null(kvstore) && !(is.character(kvstore) && kvstore %in% c("local", "device"))) {
    .weft_stop("kvstore must be 'local' or 'device' (training runs on one device)")
  }
  if (is.list(ctx) && !inherits(ctx, "WeftContext")) {
    if (length(ctx) != 1) .weft_stop("training runs on one device; give one context, got ", length(ctx))
    ctx <- ctx[[1]]
  }
  extra <- setdiff(names(arg.params), arguments(symbol))
  if (length(extra)) {
    if (!allow.extra.params) {
      .weft_stop("arg.params has parameters the symbol does not use: ", paste(extra, collapse = ", "),
                 " (allow.extra.params = TRUE ignores them)")
    }
    arg.params <- arg.params[setdiff(names(arg.params), extra)]
  }
  weft.model.FeedForward.create(symbol, X, y, ctx = ctx %||% weft.cpu(), begin.round = begin.round,
                                num.round = num.round, optimizer = optimizer, initializer = initializer,
                                eval.data = eval.data, eval.metric = eval.metric,
                                epoch.end.callback = epoch.end.callback, batch.end.callback = batch.end.callback,
                                array.batch.size = array.batch.size, array.layout = array.layout,
                                arg.params = arg.params, aux.params = aux.params,
                                input.names = input.names %||% .weft_mx_data_name(symbol), fixed.param = fixed.param,
                                verbose = verbose, ...)
}

# A multi-layer perceptron trained in one call, as MXNet-R's mx.mlp: hidden
# layers of hidden_node units with activation, optional dropout after the last,
# and an output layer of out_node units with a softmax, logistic or linear
# ("rmse") loss.
mx.mlp <- function(data, label, hidden_node = 1, out_node, dropout = NULL, activation = "tanh",
                   out_activation = "softmax", device = mx.ctx.default(), ...) {
  m <- length(hidden_node)
  if (length(activation) == 1) activation <- rep(activation, m)
  if (length(activation) != m) .weft_stop("give one activation or one per hidden layer (", m, "), got ", length(activation))
  if (!is.null(dropout) && length(dropout) != 1) .weft_stop("dropout must be one ratio")
  net <- mx.symbol.Variable("data")
  for (i in seq_len(m)) {
    net <- weft.symbol.FullyConnected(net, num_hidden = hidden_node[i])
    net <- weft.symbol.Activation(net, act_type = activation[i])
    if (i == m && !is.null(dropout)) net <- weft.symbol.Dropout(net, p = max(0, min(dropout, 1 - 1e-7)))
  }
  net <- weft.symbol.FullyConnected(net, num_hidden = out_node)
  net <- switch(out_activation,
                softmax = weft.symbol.SoftmaxOutput(net),
                logistic = weft.symbol.LogisticRegressionOutput(net),
                rmse = weft.symbol.LinearRegressionOutput(net),
                .weft_stop("out_activation must be 'softmax', 'logistic' or 'rmse', got '", out_activation, "'"))
  mx.model.FeedForward.create(net, X = data, y = label, ctx = device, ...)
}
