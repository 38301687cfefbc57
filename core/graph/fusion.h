// The fusion pass (docs/DESIGN.md "Graph"): chains of elementwise operators become
// one _fused_elemwise node (a * b + 1 runs as one pass over memory), and a
// FullyConnected or Convolution whose output only feeds an Activation becomes
// one _fused_fully_connected_act / _fused_convolution_act node, and a
// Convolution + BatchNorm (+ residual add) (+ Activation) chain one
// _fused_convolution_bn node. The rules are
// Note [Fusion rules] in fusion.cc.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "core/graph/graph.h"
#include "core/graph/infer.h"

namespace weft {

struct FusionStats {
  int elementwise_groups = 0;     // _fused_elemwise nodes made
  int elementwise_ops_fused = 0;  // operator nodes they replace
  int nn_act_fused = 0;           // layer + Activation pairs made one node
  int conv_bn_fused = 0;          // Convolution + BatchNorm (+ add) (+ Activation) chains made one node
};

// WEFT_FUSION: "0" turns the pass off; anything else, or unset, leaves it on.
// Read on every call.
bool FusionEnabled();

// Rewrites the graph reachable from g.outputs() and returns new heads, one per
// g.outputs() entry in the same order. `types` and `shapes` are inference
// results for g. `phase` has one int per node id of g (0 forward, 1 backward,
// ...; empty: all 0): nodes of different phases are never merged into one
// node. Every node of the result that is not a node of g (fused nodes, and
// copies of nodes whose inputs were rewritten) is reported in *new_phase with
// its phase; nodes of g that need no change are reused as they are. Entries
// listed in `keep` (entry ids of g; empty: none) stay outputs of some node, as
// do graph outputs. g's nodes are never modified. Deterministic.
std::vector<NodeEntry> FuseGraph(const IndexedGraph& g, const ShapeInference& shapes, const TypeInference& types,
                                 const std::vector<int>& phase, const std::vector<bool>& keep,
                                 std::unordered_map<const Node*, int>* new_phase, FusionStats* stats);

// Canonical names of the elementwise-class operators the pass can express in
// a _fused_elemwise program (the others are left alone). For tests.
std::vector<std::string> FusableElementwiseOps();

}  // namespace weft
