// Declaration rules that depend on an op's parameters and that OpDef has no
// field for (kept out of op_def.h, which every op includes): set once at
// registration, read by the passes. Used by Custom (core/op/custom/), whose
// aux states and accepted attributes come from the user's CustomOpProp.
#pragma once
#include <functional>
#include <vector>

#include "core/op/op_def.h"

namespace weft {

// The inputs op writes for these parameters: the rule set for op, else
// OpDef::mutate_inputs.
std::vector<int> MutateInputs(const OpDef& op, const Params& p);
void SetMutateInputsRule(const OpDef& op, std::function<std::vector<int>(const Params&)> rule);

// Ops that accept any attribute besides their declared parameters (kept in
// Params::raw() only): Custom passes the user's keyword arguments as strings.
bool TakesFreeAttributes(const OpDef& op);
void SetTakesFreeAttributes(const OpDef& op);

}  // namespace weft
