// MXNet 1.9.1 NumPy-mode operators with no Weft operator of their own, read
// from symbol files as the legacy operator that computes them (Note
// [NumPy-mode nodes read as legacy ones] in np_json_nodes.cc). Internal to
// core/graph (LoadSymbolJSON).
#pragma once
#include <map>
#include <string>

namespace weft {
namespace json_numpy {

// When `op` is one of those operators: rewrites `attrs` to the legacy
// operator's parameters, sets *legacy to its name and returns true; throws
// kIO naming the attribute for a value the legacy operator cannot express.
// Returns false for any other name.
//
// A translation may ask for one node of its own before each of the node's
// inputs (Note [Nodes the reader adds]): *before names its operator (empty:
// none) and holds its attributes.
struct InputNode {
  std::string op;
  std::map<std::string, std::string> attrs;
};
bool ToLegacy(const std::string& op, std::map<std::string, std::string>* attrs, std::string* legacy,
              InputNode* before);

}  // namespace json_numpy
}  // namespace weft
