// Shape and type inference passes over a whole graph: known shapes flow
// forward through each op's inference and backward where an op fills its
// inputs (FullyConnected infers its weight from data).
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "core/graph/graph.h"

namespace weft {

struct ShapeInference {
  std::vector<Shape> entry;  // by IndexedGraph entry id
  size_t num_unknown = 0;    // entries still unknown
};
struct TypeInference {
  std::vector<DType> entry;
  size_t num_unknown = 0;
};

// Inputs by variable name; variables without one fall back to their
// "__shape__" attribute when it is fully known (legacy: a 0 dim is unknown).
// Errors from an op name the node.
ShapeInference InferShapes(const IndexedGraph& g, const std::unordered_map<std::string, Shape>& inputs);
// Variables fall back to "__dtype__"; with no information at all, float32 is
// assumed for every variable (MXNet's default) when `default_float32` is set.
TypeInference InferTypes(const IndexedGraph& g, const std::unordered_map<std::string, DType>& inputs,
                         bool default_float32 = true);

}  // namespace weft
