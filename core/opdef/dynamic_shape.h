// Ops whose output shape depends on the values of their inputs, not only on
// their shapes (contrib.boolean_mask): Note [Data-dependent output shapes].
// The op's declaration sets the rule (OpDef::set_dynamic_shape); it is read
// by the imperative path (core/ndarray/imperative.cc), the executor's bind (a
// clear refusal) and CachedOp (such a graph runs op by op).
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
#include "core/opdef/op_def.h"

namespace weft {

// nullptr when op's output shapes follow from its input shapes.
inline const DynamicShapeRule* FindDynamicShapeRule(const OpDef& op) {
  return op.dynamic_shape.shapes ? &op.dynamic_shape : nullptr;
}

}  // namespace weft
