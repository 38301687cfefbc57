// Reading and writing the attribute text of MXNet's NumPy-mode nodes, for the
// symbol reader's translations (np_json_nodes.cc and np_nodes_*.cc). One copy,
// in a named namespace: the unity build compiles those files in one unit.
// Internal to core/graph.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace weft {
namespace json_numpy {

using NodeAttrs = std::map<std::string, std::string>;

// True when `key` is absent or "None".
bool IsNone(const NodeAttrs& attrs, const std::string& key);

// "(2, -1)", "[2,-1]", "2" or "(2,)" as integers; throws kIO naming op and key.
std::vector<long long> ReadInts(const std::string& op, const std::string& key, const std::string& text);

// The tuple text MXNet writes: "(2, 3)", "(2,)", "()".
std::string WriteInts(const std::vector<long long>& v);

}  // namespace json_numpy
}  // namespace weft
