// Ops whose output shape depends on the values of their inputs, not only on
// their shapes (contrib.boolean_mask): Note [Data-dependent output shapes].
// Kept out of op_def.h (which every op includes); read by the imperative path
// (core/ndarray/imperative.cc), the executor's bind (a clear refusal) and
// CachedOp (such a graph runs op by op).
//
// Note [Data-dependent output shapes]
// The op's infer_shape leaves its outputs unknown (it still checks what it can
// from the input shapes). Imperatively, InvokeImpl then waits for the inputs
// the rule reads (`reads`), hands the rule host views of them (a GPU input is
// copied to the host first), and sizes the outputs from its answer before
// pushing the kernel, which gets those outputs like any op. A bound executor
// plans memory once for fixed shapes, so bind refuses such a graph, as MXNet
// 1.9.1 does; a hybridized block (CachedOp) runs it op by op, MXNet's
// dynamic-shape CachedOp.
#pragma once
#include <functional>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {

struct DynamicShapeRule {
  std::vector<int> reads;  // the inputs whose values decide the shapes
  // in_shapes: every input's shape; values[i] views input i on the host for
  // i in reads (data == nullptr for the others). Returns the output shapes.
  std::function<std::vector<Shape>(const Params&, const std::vector<Shape>& in_shapes,
                                   const std::vector<TensorView>& values)>
      shapes;
};

// nullptr when op's output shapes follow from its input shapes.
const DynamicShapeRule* FindDynamicShapeRule(const OpDef& op);
void SetDynamicShapeRule(const OpDef& op, DynamicShapeRule rule);

}  // namespace weft
