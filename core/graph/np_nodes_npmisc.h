// The "npmisc" group of MXNet 1.9.1's NumPy-mode operators (issue 37) that a
// symbol file can name and that Weft reads as another operator (Note
// [NumPy-mode image nodes read as image ops] in np_nodes_npmisc.cc). Internal
// to core/graph; called from json_numpy::ToLegacy (np_json_nodes.cc).
#pragma once
#include <map>
#include <string>

namespace weft {
namespace np_nodes_npmisc {

// Same contract as json_numpy::ToLegacy: for one of this file's operators,
// rewrites `attrs` to the parameters of the operator that computes it, sets
// *legacy to that operator's name and returns true; throws kIO naming the
// node's op and attribute for a value that operator cannot express. Returns
// false for any other name.
bool ToLegacy(const std::string& op, std::map<std::string, std::string>* attrs, std::string* legacy);

}  // namespace np_nodes_npmisc
}  // namespace weft
