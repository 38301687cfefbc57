// Readers of the declaration rules that depend on an op's parameters or that
// have a default (Note [Op attributes on the declaration] in op_def.h): the
// op's builder sets them, the passes read them here.
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {

// The inputs op writes for these parameters: OpDef::mutate_inputs_fn when
// set (Custom's aux states come from the user's CustomOpProp), else
// OpDef::mutate_inputs.
std::vector<int> MutateInputs(const OpDef& op, const Params& p);

// OpDef::takes_free_attributes (Custom).
inline bool TakesFreeAttributes(const OpDef& op) { return op.takes_free_attributes; }

// The slots that share one shape: the op's set_same_shape, else every input
// and output of an op without its own infer_shape, else none.
const SameShapeSlots& SameShapeOf(const OpDef& op);

}  // namespace weft
