# Writes man/reexports.Rd: the documentation of every name library(mxnet)
# re-exports from weft, in the form roxygen2 gives re-exports (one \alias per
# name, a link to weft's own page for each). Run by ../configure, so at every
# R CMD INSTALL (and R CMD check's install) the page lists exactly the names
# .onLoad copies (Note [mxnet re-exports weft] in R/mxnet.R) from the weft
# installed beside this package: weft's exports include one mx.nd.<op> /
# mx.symbol.<op> per operator of the library's registry, which grows, so no
# list written by hand would stay right (and an \alias cannot come from an Rd
# \Sexpr). Usage: Rscript tools/gen_reexports.R <Rd file>
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) stop("usage: Rscript gen_reexports.R <Rd file>")
# The same selection as .onLoad: weft's exports that do not start with a dot.
names <- sort(grep("^[.]", getNamespaceExports("weft"), value = TRUE, invert = TRUE))
if (!length(names)) stop("gen_reexports.R: the installed weft package exports nothing")
rd_escape <- function(text) gsub("([\\\\%{}])", "\\\\\\1", text)
# Each link names weft's Rd file holding the topic (\link[pkg:file]), as
# roxygen2 writes them: that form resolves in every R version's help.
files <- readRDS(file.path(find.package("weft"), "help", "aliases.rds"))[names]
undocumented <- names[is.na(files)]
if (length(undocumented)) stop("gen_reexports.R: weft documents no page for ", paste(undocumented, collapse = ", "))
links <- sprintf("\\code{\\link[weft:%s]{%s}}", files, rd_escape(names))
lines <- c(
  "% Generated at install by tools/gen_reexports.R from the installed weft package: do not edit.",
  "\\docType{import}",
  "\\name{reexports}",
  "\\alias{reexports}",
  sprintf("\\alias{%s}", rd_escape(names)),
  "\\title{Objects exported from other packages}",
  "\\keyword{internal}",
  "\\description{",
  "These objects are imported from other packages. Follow the links",
  "below to see their documentation.",
  "",
  "\\describe{",
  paste0("  \\item{weft}{", paste(links, collapse = ", "), "}"),
  "}}")
writeLines(lines, args[1], useBytes = TRUE)
cat(sprintf("gen_reexports.R: documented %d names re-exported from weft in %s\n", length(names), args[1]))
