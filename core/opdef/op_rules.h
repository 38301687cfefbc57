// Declaration rules that depend on an op's parameters and that OpDef has no
// field for (kept out of op_def.h, which every op includes): set once at
// registration, read by the passes. Used by Custom (core/op/custom/), whose
// aux states and accepted attributes come from the user's CustomOpProp.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {

// The inputs op writes for these parameters: the rule set for op, else
// OpDef::mutate_inputs.
std::vector<int> MutateInputs(const OpDef& op, const Params& p);
void SetMutateInputsRule(const OpDef& op, std::function<std::vector<int>(const Params&)> rule);

// Ops that accept any attribute besides their declared parameters (kept in
// Params::raw() only): Custom passes the user's keyword arguments as strings.
bool TakesFreeAttributes(const OpDef& op);
void SetTakesFreeAttributes(const OpDef& op);

// Inputs and outputs that always share one shape whatever the parameters
// (elementwise ops, activations, softmax, a norm's data and output): graph
// inference unifies their dims both ways, so a partially known shape flows
// backward through them too (Note [Partial shapes], core/graph/infer_node.cc).
// An op without its own infer_shape (SameShapeInfer: every input and output)
// needs no rule.
struct SameShapeSlots {
  std::vector<int> inputs;
  std::vector<int> outputs;
  bool all = false;  // every input and output (a variadic op's too)
  static SameShapeSlots All() {
    SameShapeSlots s;
    s.all = true;
    return s;
  }
  // Input 0 and output 0 (an activation's or a norm's data and output).
  static SameShapeSlots Data() { return SameShapeSlots{{0}, {0}, false}; }
};
const SameShapeSlots& SameShapeOf(const OpDef& op);
void SetSameShape(const OpDef& op, SameShapeSlots slots);
// By name, for an op declared with WEFT_REGISTER_OP, after it in the same file:
//   [[maybe_unused]] const bool kWhereSame = SetSameShape("where", SameShapeSlots{{1, 2}, {0}});
bool SetSameShape(const std::string& op_name, SameShapeSlots slots);

}  // namespace weft
