// MXNet 1.9.1 NumPy-mode random, creation and norm operators that a legacy
// Weft operator computes, read from symbol files as that operator (Note
// [NumPy-mode random and norm nodes] in np_nodes_nplinalg.cc). Internal to
// core/graph; called from json_numpy::ToLegacy (np_json_nodes.cc).
#pragma once
#include <map>
#include <string>

namespace weft {
namespace json_numpy {

// Same contract as ToLegacy: for one of this file's operators, rewrites
// `attrs` to the legacy operator's parameters, sets *legacy and returns true;
// throws kIO naming the node's operator and attribute for a value the legacy
// operator cannot express. Returns false for any other name.
bool NplinalgToLegacy(const std::string& op, std::map<std::string, std::string>* attrs, std::string* legacy);

}  // namespace json_numpy
}  // namespace weft
