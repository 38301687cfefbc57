// The readers of core/opdef/op_rules.h.
#include "core/opdef/op_rules.h"

namespace weft {

std::vector<int> MutateInputs(const OpDef& op, const Params& p) {
  return op.mutate_inputs_fn ? op.mutate_inputs_fn(p) : op.mutate_inputs;
}

const SameShapeSlots& SameShapeOf(const OpDef& op) {
  static const SameShapeSlots* const kNone = new SameShapeSlots();
  static const SameShapeSlots* const kAll = new SameShapeSlots(SameShapeSlots::All());
  if (op.has_same_shape) return op.same_shape;
  return op.infer_shape ? *kNone : *kAll;
}

}  // namespace weft
