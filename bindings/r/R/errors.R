# Library errors as R conditions. The C glue calls .weft_raise with the library's
# message and a class derived from the weft_status code, so callers can write
# tryCatch(expr, weftShapeError = function(e) ...) or catch every library error
# with weftError.
#
# The condition's call is the user's call into the package (the outermost frame
# running a function of this namespace), e.g. weft.model.FeedForward.create(...)
# or predict(model, X), never an internal helper such as .weft_stop(...), so
# the "Error in <call>:" line R prints points at the user's own code.
.weft_raise <- function(message, class) {
  cond <- structure(class = c(class, "weftError", "error", "condition"),
                    list(message = message, call = .weft_user_call()))
  stop(cond)
}

.weft_user_call <- function() {
  ns <- topenv(environment(.weft_user_call))
  for (i in seq_len(sys.nframe())) {
    env <- environment(sys.function(i))
    if (!is.null(env) && identical(topenv(env), ns)) {
      # An S3 method: show the generic call the user wrote (predict(model, X)).
      if (i > 1 && .weft_is_generic(sys.function(i - 1))) return(sys.call(i - 1))
      return(sys.call(i))
    }
  }
  NULL
}

.weft_is_generic <- function(f) !is.primitive(f) && "UseMethod" %in% all.names(body(f))

# Argument checks of the R layer raise the same condition classes.
.weft_stop <- function(...) {
  .weft_raise(paste0(...), "weftInvalidArgumentError")
}
