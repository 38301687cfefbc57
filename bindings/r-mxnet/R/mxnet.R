# Note [mxnet re-exports weft]: MXNet-R scripts begin with library(mxnet). The
# names they use -- mx.nd.array, mx.symbol.Variable, mx.model.FeedForward.create,
# mx.io.arrayiter, and one mx.symbol.<op> / mx.nd.<op> per registry operator --
# are weft's (bindings/r/R/zz_mx_compat.R), and the operator functions exist only
# once weft's namespace has loaded (weft's .onLoad generates them from the
# library's registry). So they cannot be listed in this NAMESPACE; instead
# .onLoad binds each of weft's exports into this namespace, and the NAMESPACE's
# exportPattern, which R applies after .onLoad, exports them. The bound values
# are weft's own functions (their environment is weft's namespace), so nothing
# runs twice and weft's S3 methods (predict, print, Ops ...) apply unchanged.
# Their documentation is man/reexports.Rd, written from the same list by
# configure (tools/gen_reexports.R) when the package is installed.
.onLoad <- function(libname, pkgname) {
  ns <- environment(sys.function())
  for (name in getNamespaceExports("weft")) {
    if (!startsWith(name, ".")) assign(name, getExportedValue("weft", name), envir = ns)
  }
  invisible(NULL)
}
