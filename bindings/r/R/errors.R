# Library errors as R conditions. The C glue calls .weft_raise with the library's
# message and a class derived from the weft_status code, so callers can write
# tryCatch(expr, weftShapeError = function(e) ...) or catch every library error
# with weftError.
.weft_raise <- function(message, class) {
  cond <- structure(class = c(class, "weftError", "error", "condition"),
                    list(message = message, call = sys.call(-1)))
  stop(cond)
}

# Argument checks of the R layer raise the same condition classes.
.weft_stop <- function(...) {
  .weft_raise(paste0(...), "weftInvalidArgumentError")
}
