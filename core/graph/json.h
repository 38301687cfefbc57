// The symbol JSON (`prefix-symbol.json`, Symbol.tojson), byte-compatible with
// MXNet 1.x as of 1.9.1 — FORMATS.md part B.
//
// Loading resolves operators through the registry, parses their attributes,
// checks every reference, and upgrades files written by older MXNet versions
// (B.6). Saving reproduces MXNet's printer byte for byte (B.7), so a file
// written by MXNet 1.9.1 loads and saves back identical.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "core/base/json_reader.h"
#include "core/graph/symbol.h"

namespace weft {

// The MXNet version Weft's files claim: major*10000 + minor*100 + patch.
constexpr int kMXNetJSONVersion = 10901;

// A graph attribute: a dmlc "any" pair `[type_name, value]` (FORMATS.md B.1).
// type is one of "int", "size_t", "str", "list_int", "list_str", "list_shape";
// value is the JSON value as read (checked against the type).
struct GraphAttr {
  std::string type;
  JSONValue value;

  static GraphAttr Int(int64_t v);
  static GraphAttr Str(const std::string& v);
  // The value of an "int"/"size_t" attribute; throws kInvalidArgument otherwise.
  int64_t AsInt() const;
};
using GraphAttrs = std::map<std::string, GraphAttr>;

// Parses a symbol file. `source` names it in error messages. Every problem
// (invalid JSON, unknown key, unknown operator, bad attribute, bad reference)
// throws weft::Error(kIO) naming the source and, where there is one, the node.
// Graph attributes go to *graph_attrs when given ("mxnet_version" as the file
// had it; absent in files older than 0.9.0).
// Note [Symbol JSON loading] in json.cc lists what is checked.
Symbol LoadSymbolJSON(const std::string& text, const std::string& source, GraphAttrs* graph_attrs = nullptr);

// The most nodes a loaded graph may have, subgraphs included: the environment
// variable WEFT_MAX_GRAPH_NODES, default 10,000,000 (Note [Graph size limit] in
// json.cc). Throws kInvalidArgument when the variable is not a positive integer.
size_t MaxGraphNodes();

// Writes the symbol as MXNet 1.9.1 would: nodes in post-order DFS from the
// outputs, all variables in arg_nodes, node_row_ptr, heads, and graph attrs
// {"mxnet_version": ["int", 10901]}. `graph_attrs` adds other graph attributes
// (e.g. is_np_shape, as read from a file); they are written before
// mxnet_version, sorted by name, and an "mxnet_version" among them is ignored.
std::string SaveSymbolJSON(const Symbol& s);
std::string SaveSymbolJSON(const Symbol& s, const GraphAttrs& graph_attrs);

}  // namespace weft
