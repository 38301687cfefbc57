// Shape and type inference passes over a whole graph: known shapes flow
// forward through each op's inference and backward where an op fills its
// inputs (FullyConnected infers its weight from data); partially known shapes
// (MXNet 1.x's 0 dims) flow both ways too (Note [Partial shapes],
// core/graph/infer_node.cc).
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "core/graph/graph.h"

namespace weft {

struct ShapeInference {
  std::vector<Shape> entry;    // by IndexedGraph entry id: fully known, else Unknown()
  std::vector<Shape> partial;  // the same with what is known of the others (kUnknownDim dims)
  size_t num_unknown = 0;      // entries not fully known
};
struct TypeInference {
  std::vector<DType> entry;
  size_t num_unknown = 0;
};

// Inputs by variable name, each known, Unknown() or partial (kUnknownDim
// dims, core/graph/partial_shape.h; a 0 dim is a real zero-size dim here:
// FromLegacyShape converts MXNet's legacy 0s). A variable not given fully
// falls back to its "__shape__" attribute (legacy: a 0 dim is unknown).
// Errors from an op name the node.
ShapeInference InferShapes(const IndexedGraph& g, const std::unordered_map<std::string, Shape>& inputs);
// Variables fall back to "__dtype__"; with no information at all, float32 is
// assumed for every variable (MXNet's default) when `default_float32` is set.
TypeInference InferTypes(const IndexedGraph& g, const std::unordered_map<std::string, DType>& inputs,
                         bool default_float32 = true);

}  // namespace weft
