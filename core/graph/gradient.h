// The symbolic gradient pass (docs/DESIGN.md "Graph"): walks the graph backwards
// calling each operator's gradient rule, which emits ordinary nodes, so the
// backward graph gets the same inference, fusion and memory planning as the
// forward one. Several gradients reaching one entry are summed (add_n).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace weft {

// How a computed gradient reaches the user's array (MXNet's grad_req).
enum class GradReq : int { kNull = 0, kWrite = 1, kAdd = 3 };
GradReq ParseGradReq(const std::string& s);  // "null" | "write" | "add" (also "inplace" = write)

// Returns one entry per x: the gradient of sum_i <heads[i], head_grads[i]>
// with respect to x. An x no head depends on gets zeros_like(x). An operator on
// a path from an x to a head without a gradient rule is an error naming it.
std::vector<NodeEntry> BuildGradient(const std::vector<NodeEntry>& heads, const std::vector<NodeEntry>& head_grads,
                                     const std::vector<NodeEntry>& xs);

// Helpers for gradient rules.
// A node applying registered op `op` (name or alias); output `index` of it.
NodeEntry MakeEntry(const std::string& op, const std::string& name, std::vector<NodeEntry> inputs,
                    std::map<std::string, std::string> attrs = {}, uint32_t index = 0);
NodePtr MakeNode(const std::string& op, const std::string& name, std::vector<NodeEntry> inputs,
                 std::map<std::string, std::string> attrs = {});
// zeros_like(e), named after the node it belongs to.
NodeEntry ZerosLike(const NodeEntry& e);
// Output i of node n as an entry.
inline NodeEntry OutputOf(const NodePtr& n, uint32_t i = 0) { return NodeEntry{n, i, 0}; }

}  // namespace weft
