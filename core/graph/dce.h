// Dead-code elimination (docs/DESIGN.md "Graph passes"). Two levels:
//  * nodes: a graph is what its heads reach, so pruning the heads a bind does
//    not need (a prediction bind asks only for some outputs) drops every node
//    that only they needed — PruneHeads;
//  * entries: a live node may still have outputs no one reads (a first layer's
//    input gradient, a BatchNorm's saved statistics at inference) — DeadEntries
//    finds them so the executor asks the kernel not to write them (OpReq
//    kNull), which skips the work where the kernel can (Convolution and
//    FullyConnected backward skip the data-gradient product).
#pragma once
#include <cstddef>
#include <vector>

#include "core/graph/graph.h"

namespace weft {

struct DceStats {
  size_t nodes_before = 0, nodes_after = 0;
};

// The heads listed in `keep` (indices into heads, in that order); stats count
// the operator nodes reachable before and after.
std::vector<NodeEntry> PruneHeads(const std::vector<NodeEntry>& heads, const std::vector<size_t>& keep,
                                  DceStats* stats = nullptr);

// One flag per entry of g: produced by an operator node, read by no node and
// not a graph output.
std::vector<bool> DeadEntries(const IndexedGraph& g);

}  // namespace weft
