# graph.viz, as MXNet-R: the symbol's graph in Graphviz DOT, one box per
# operator (coloured by kind, labelled with its main attributes) and the data
# inputs; weights, biases, other parameters and labels are left out, as MXNet-R does.
# With shape = the input shapes (R order) the edges carry each tensor's dim.
# Returns DiagrammeR::grViz(dot) when the DiagrammeR package is installed and
# type = "graph"; otherwise (or with type = "dot") the DOT text, an object of
# class WeftGraphViz that prints as DOT and can be written to a file and drawn
# with `dot -Tsvg`.

.weft_viz_colors <- c(FullyConnected = "#fb8072", Convolution = "#fb8072", Deconvolution = "#fb8072",
                      Activation = "#ffffb3", LeakyReLU = "#ffffb3", BatchNorm = "#bebada", Pooling = "#80b1d3",
                      Concat = "#fdb462", Flatten = "#fdb462", Reshape = "#fdb462", SoftmaxOutput = "#b3de69",
                      LinearRegressionOutput = "#b3de69", LogisticRegressionOutput = "#b3de69", null = "#8dd3c7")

.weft_viz_label <- function(node) {
  a <- node$attrs %||% list()
  detail <- switch(node$op,
    FullyConnected = a$num_hidden,
    Convolution = paste0(a$kernel %||% "", "/", a$stride %||% "(1)", ", ", a$num_filter %||% ""),
    Activation = a$act_type,
    LeakyReLU = a$act_type,
    Pooling = paste0(a$pool_type %||% "max", ", ", a$kernel %||% "", "/", a$stride %||% "(1)"),
    Dropout = a$p,
    NULL)
  text <- if (node$op == "null") node$name else if (is.null(detail)) node$op else paste0(node$op, "\\n", detail)
  gsub("\"", "\\\\\"", text)
}

.weft_viz_dot <- function(symbol, shape, direction) {
  graph <- .Call(weft_r_json_parse_string, weft.symbol.tojson(symbol))
  nodes <- graph$nodes
  is.param <- function(node) node$op == "null" && grepl("(weight|bias|gamma|beta|moving_mean|moving_var|label)$", node$name)
  shapes <- NULL
  if (!is.null(shape)) {
    if (!is.list(shape)) shape <- list(data = shape)
    internals <- weft.symbol.internals(symbol)
    inferred <- infer.shape(internals, shape)
    if (is.null(inferred)) .weft_stop("graph.viz: shape does not determine every shape of the symbol")
    shapes <- c(inferred$arg.shapes, inferred$out.shapes, inferred$aux.shapes)
  }
  tensor.dim <- function(node) {
    key <- if (node$op == "null") node$name else paste0(node$name, "_output")
    s <- shapes[[key]]
    if (is.null(s)) "" else sprintf(" [label=\"%s\"]", paste(s, collapse = "x"))
  }
  lines <- c("digraph plot {", sprintf("  rankdir=%s;", if (direction == "LR") "LR" else "TB"),
             "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];")
  for (i in seq_along(nodes)) {
    node <- nodes[[i]]
    if (is.param(node)) next
    color <- .weft_viz_colors[node$op]
    if (is.na(color)) color <- "#fccde5"
    lines <- c(lines, sprintf("  n%d [label=\"%s\", fillcolor=\"%s\"];", i - 1, .weft_viz_label(node), color))
  }
  for (i in seq_along(nodes)) {
    for (input in nodes[[i]]$inputs) {
      from <- as.integer(input[[1]])
      if (is.param(nodes[[from + 1]])) next
      lines <- c(lines, sprintf("  n%d -> n%d%s;", from, i - 1, tensor.dim(nodes[[from + 1]])))
    }
  }
  paste(c(lines, "}"), collapse = "\n")
}

graph.viz <- function(symbol, shape = NULL, direction = "TD", type = "graph", graph.width.px = NULL,
                      graph.height.px = NULL) {
  symbol <- .weft_sym_check(symbol)
  if (!direction %in% c("TD", "LR")) .weft_stop("direction must be 'TD' or 'LR'")
  if (!type %in% c("graph", "dot")) .weft_stop("type must be 'graph' or 'dot'")
  dot <- .weft_viz_dot(symbol, shape, direction)
  if (type == "graph" && requireNamespace("DiagrammeR", quietly = TRUE)) {
    return(DiagrammeR::grViz(dot, width = graph.width.px, height = graph.height.px))
  }
  structure(dot, class = "WeftGraphViz")
}

print.WeftGraphViz <- function(x, ...) {
  cat(unclass(x), "\n", sep = "")
  invisible(x)
}
