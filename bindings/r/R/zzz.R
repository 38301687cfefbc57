# Package load: register the namespace for error conditions, then generate one
# R function per registry operator (weft.nd.<op>, weft.symbol.<op>); see
# ops_generate.R. NAMESPACE exports them through exportPattern, which R applies
# after .onLoad has run.
.onLoad <- function(libname, pkgname) {
  ns <- environment(sys.function())
  .Call(weft_r_init, ns)
  .weft_generate_ops(ns)
  # Note [Engine shutdown] (core/engine/engine.h): at R's exit, finish the pushed
  # work and join the engine's threads before the libraries' destructors run.
  # Not in .onUnload: the package never unloads its DLL, so after
  # unloadNamespace + library() in one session the same engine would be found
  # stopped and every computation would fail.
  reg.finalizer(ns, function(e) .weft_shutdown(), onexit = TRUE)
  invisible(NULL)
}

# Stops the engine for good: pushed work is finished, later computations fail
# with an engine error (reading and freeing still work). Run at exit.
.weft_shutdown <- function() invisible(.Call(weft_r_shutdown))
