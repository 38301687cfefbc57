// The "npshape" group of MXNet 1.9.1's NumPy-mode operators (issue 37) that a
// symbol file can name and that Weft reads as another operator (Note [NumPy-mode
// shape nodes read as other nodes] in np_nodes_npshape.cc). Internal to
// core/graph: json_numpy::ToLegacy (np_json_nodes.cc) asks it first.
#pragma once
#include <map>
#include <string>

#include "core/graph/np_json_nodes.h"

namespace weft {
namespace np_nodes_npshape {

// When `op` is one of those names: rewrites `attrs` to the parameters of the
// operator that computes it, sets *legacy to that operator's name and returns
// true; throws kIO naming the node's op and attribute for a value that operator
// cannot express. Returns false for any other name. *before: as for
// json_numpy::ToLegacy (np_json_nodes.h).
bool ToLegacy(const std::string& op, std::map<std::string, std::string>* attrs, std::string* legacy,
              json_numpy::InputNode* before);

}  // namespace np_nodes_npshape
}  // namespace weft
