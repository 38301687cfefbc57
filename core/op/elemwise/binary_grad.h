// MXNet's gradient rules of the arithmetic binary ops, shared by the same-shape
// (binary.cc), scalar (scalar.cc) and broadcast (broadcast.cc) declarations.
#pragma once
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace weft {

// Gradients (lhs, rhs) of the arithmetic binary op `what` ("add", "sub",
// "mul", "div", "power", "maximum", "minimum", "mod", "hypot") with output gradient g,
// MXNet's rules (maximum sends ties to lhs, mod's rhs gets -floor(lhs / rhs)).
// broadcast: the broadcast_* form; products are broadcast and each gradient is
// summed back to its input's shape.
std::vector<NodeEntry> BinaryArithmeticGradient(const NodePtr& n, const NodeEntry& g, const std::string& what,
                                                bool broadcast);

}  // namespace weft
