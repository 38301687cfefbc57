// One node's step of the shape inference pass (core/graph/infer.cc), over
// partially known shapes (Note [Partial shapes] in infer_node.cc).
#pragma once
#include <vector>

#include "core/graph/graph.h"

namespace weft {

// Refines the shapes of node nid's input and output entries (by entry id,
// each Unknown, partial or known) from each other; true when any gained a
// dim. Throws kShape naming the node on a contradiction.
bool InferNodeShapes(const IndexedGraph& g, uint32_t nid, std::vector<Shape>* entry);

}  // namespace weft
