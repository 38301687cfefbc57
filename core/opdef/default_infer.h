// The inference rules an OpDef falls back to when it declares none (every input
// and output the same shape, the same dtype), and the checked slot assignment
// they and the op families' own inference share.
//
// Note [Default inference in the schema layer]
// OpDef::InferShape/InferType call SameShapeInfer/SameTypeInfer when an op sets
// no rule of its own, so these belong to the schema (core/opdef), not to the op
// families' helpers (core/op/op_util.h, which re-exports them): with them here
// core/opdef includes nothing above core/base, and the graph can read the schema
// without reaching up into core/op.
#pragma once
#include <string>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {

// Sets (*v)[i] = s when unknown, else checks equality. `what` names the slot in
// errors, e.g. "FullyConnected: input 'weight'".
void AssignShape(std::vector<Shape>* v, size_t i, const Shape& s, const std::string& what);
void AssignType(std::vector<DType>* v, size_t i, DType t, const std::string& what);

// Inference: every input and output has the same shape (elementwise ops).
bool SameShapeInfer(const OpDef& op, const Params& p, std::vector<Shape>* in, std::vector<Shape>* out);
// Inference: every input and output has the same dtype (the default rule).
bool SameTypeInfer(const OpDef& op, const Params& p, std::vector<DType>* in, std::vector<DType>* out);

}  // namespace weft
