// Upgrade rules for symbol files written by older MXNet versions (FORMATS.md
// B.6), used by LoadSymbolJSON. Internal to core/graph.
#pragma once
#include <vector>

#include "core/graph/graph.h"

namespace weft {
namespace json_upgrade {

// MXNet's version numbers: major*10000 + minor*100 + patch.
constexpr int kVersion080 = 800;  // assumed when a file has no mxnet_version
constexpr int kVersion090 = 900;
constexpr int kVersion094 = 904;
constexpr int kVersion095 = 905;

// Rule 1, for files older than the reader, before the node's attributes are
// parsed: hidden keys written without underscores (lr_mult, ctx_group, ...)
// become __lr_mult__ etc.; "<input>_<hidden>" keys on an operator move to that
// input when it is a variable. Parses the node's other attributes (to learn
// its input names); a parse error propagates unchanged.
void FixHiddenKeys(Node* n);

// Rules 2-4, once every node is parsed and linked. `nodes` in file order.
// Rule 2 (< 0.9.0) creates missing inputs as variables <node>_<input> carrying
// a copy of the node's attributes; rule 3 (< 0.9.4) gives BatchNorm's moving
// statistics their __init__; rule 4 (< 0.9.5) drops argmax/argmin axis=-1.
// Parse errors propagate unchanged.
void UpgradeParsedNodes(const std::vector<NodePtr>& nodes, int version);

}  // namespace json_upgrade
}  // namespace weft
