# Package load: register the namespace for error conditions, then generate one
# R function per registry operator (weft.nd.<op>, weft.symbol.<op>); see
# ops_generate.R. NAMESPACE exports them through exportPattern, which R applies
# after .onLoad has run.
.onLoad <- function(libname, pkgname) {
  ns <- environment(sys.function())
  .Call(weft_r_init, ns)
  .weft_generate_ops(ns)
  invisible(NULL)
}
