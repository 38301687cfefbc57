# The engine's profiler (MXNet's mx.profiler): every engine op recorded, a
# Chrome trace file and MXNet's aggregate table.

# Configures with MXNet 1.9.1's keys: weft.profiler.config(profile_all = TRUE,
# filename = "trace.json", continuous_dump = FALSE, aggregate_stats = TRUE).
weft.profiler.config <- function(...) {
  args <- list(...)
  if (length(args) == 0) return(invisible(NULL))
  if (is.null(names(args)) || any(names(args) == "")) stop("weft.profiler.config: every argument must be named")
  values <- vapply(args, function(v) {
    if (is.logical(v)) (if (isTRUE(v)) "True" else "False") else as.character(v)
  }, character(1))
  invisible(.Call(weft_r_profiler_set_config, names(args), unname(values)))
}

# "run" starts recording, "stop" stops it.
weft.profiler.state <- function(state = "stop") {
  if (!(identical(state, "run") || identical(state, "stop"))) {
    stop(sprintf("weft.profiler.state: state must be 'run' or 'stop', got '%s'", format(state)))
  }
  invisible(.Call(weft_r_profiler_set_state, identical(state, "run")))
}

weft.profiler.pause <- function() invisible(.Call(weft_r_profiler_pause, TRUE))
weft.profiler.resume <- function() invisible(.Call(weft_r_profiler_pause, FALSE))

# Writes the trace of what ran since the last finished dump to the configured file.
weft.profiler.dump <- function(finished = TRUE) invisible(.Call(weft_r_profiler_dump, isTRUE(finished)))

# MXNet's aggregate table (format "json": its JSON form), sorted by total time.
weft.profiler.dumps <- function(reset = FALSE, format = "table") {
  if (!(format %in% c("table", "json"))) stop(sprintf("weft.profiler.dumps: format must be 'table' or 'json', got '%s'", format))
  .Call(weft_r_profiler_dumps, isTRUE(reset), identical(format, "json"))
}
