# Learning-rate schedules, as MXNet 1.x's mx.lr_scheduler (and the Python
# binding's weft.lr_scheduler): a scheduler is function(num_update, base.lr)
# returning the rate for the num_update-th update (the largest number of updates
# any weight has had, counted from 1). base.lr is the optimizer's learning.rate
# unless the scheduler was given its own base_lr. Every schedule can start with
# warmup_steps updates rising linearly from warmup_begin_lr ('linear') or
# holding it ('constant'). The closed forms below equal MXNet's stateful
# schedulers for non-decreasing num_update, which is how optimizers call them.

.weft_lr_scheduler <- function(rate, base_lr, warmup_steps, warmup_begin_lr, warmup_mode) {
  if (!warmup_mode %in% c("linear", "constant")) .weft_stop("warmup_mode must be 'linear' or 'constant'")
  if (warmup_steps < 0) .weft_stop("warmup_steps must be >= 0")
  structure(function(num_update, base.lr = 0.01) {
    base <- base_lr %||% base.lr
    if (warmup_begin_lr > base) .weft_stop("the base learning rate (", base, ") must be >= warmup_begin_lr (", warmup_begin_lr, ")")
    if (num_update < warmup_steps) {
      if (warmup_mode == "constant") return(warmup_begin_lr)
      return(warmup_begin_lr + (base - warmup_begin_lr) * num_update / warmup_steps)
    }
    rate(num_update, base)
  }, class = "WeftLRScheduler")
}

weft.lr_scheduler.FactorScheduler <- function(step, factor = 1, stop_factor_lr = 1e-8, base_lr = NULL, warmup_steps = 0,
                                              warmup_begin_lr = 0, warmup_mode = "linear") {
  if (!is.numeric(step) || length(step) != 1 || step < 1) .weft_stop("step must be one number >= 1")
  if (factor > 1) .weft_stop("factor must be <= 1 so the learning rate decreases")
  .weft_lr_scheduler(function(n, base) max(base * factor^max(0, floor((n - 1) / step)), stop_factor_lr),
                     base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
}

weft.lr_scheduler.MultiFactorScheduler <- function(step, factor = 1, base_lr = NULL, warmup_steps = 0,
                                                   warmup_begin_lr = 0, warmup_mode = "linear") {
  if (!is.numeric(step) || !length(step) || any(step < 1) || is.unsorted(step, strictly = TRUE)) {
    .weft_stop("step must be increasing update counts, each >= 1")
  }
  if (factor > 1) .weft_stop("factor must be <= 1 so the learning rate decreases")
  .weft_lr_scheduler(function(n, base) base * factor^sum(n > step), base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
}

weft.lr_scheduler.PolyScheduler <- function(max_update, base_lr = NULL, pwr = 2, final_lr = 0, warmup_steps = 0,
                                            warmup_begin_lr = 0, warmup_mode = "linear") {
  if (max_update < 1) .weft_stop("max_update must be >= 1")
  .weft_lr_scheduler(function(n, base) {
    if (n > max_update) return(final_lr)
    final_lr + (base - final_lr) * (1 - (n - warmup_steps) / (max_update - warmup_steps))^pwr
  }, base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
}

weft.lr_scheduler.CosineScheduler <- function(max_update, base_lr = NULL, final_lr = 0, warmup_steps = 0,
                                              warmup_begin_lr = 0, warmup_mode = "linear") {
  if (max_update < 1) .weft_stop("max_update must be >= 1")
  .weft_lr_scheduler(function(n, base) {
    if (n > max_update) return(final_lr)
    final_lr + (base - final_lr) * (1 + cos(pi * (n - warmup_steps) / (max_update - warmup_steps))) / 2
  }, base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
}

# MXNet-R's names and arguments (factor_val; verbose reports each change).
mx.lr_scheduler.FactorScheduler <- function(step, factor_val, stop_factor_lr = 1e-8, verbose = TRUE) {
  .weft_verbose_scheduler(weft.lr_scheduler.FactorScheduler(step, factor_val, stop_factor_lr), verbose)
}

mx.lr_scheduler.MultiFactorScheduler <- function(step, factor_val, stop_factor_lr = 1e-8, verbose = TRUE) {
  inner <- weft.lr_scheduler.MultiFactorScheduler(step, factor_val)
  .weft_verbose_scheduler(structure(function(num_update, base.lr = 0.01) max(inner(num_update, base.lr), stop_factor_lr),
                                    class = "WeftLRScheduler"), verbose)
}

.weft_verbose_scheduler <- function(scheduler, verbose) {
  last <- NULL
  structure(function(num_update, base.lr = 0.01) {
    lr <- scheduler(num_update, base.lr)
    if (verbose && !is.null(last) && lr != last) message(sprintf("Update[%d]: learning rate is changed to %g", num_update, lr))
    last <<- lr
    lr
  }, class = "WeftLRScheduler")
}

# The rate for the optimizer's next update: a WeftLRScheduler, or an MXNet-R
# style function(optimizerEnv) that reads env$num_update and sets env$lr.
.weft_scheduled_lr <- function(scheduler, env) {
  if (is.null(scheduler)) return(env$lr)
  if (inherits(scheduler, "WeftLRScheduler")) return(scheduler(env$num_update, env$base.lr))
  if (!is.function(scheduler)) .weft_stop("lr_scheduler must be a weft.lr_scheduler.* or a function(optimizerEnv)")
  scheduler(env)
  env$lr
}
