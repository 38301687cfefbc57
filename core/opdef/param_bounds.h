// Bounds on count-like operator attributes, applied by Params::Parse to every
// op before any inference, allocation or loop sees the value. See
// Note [Bounded attributes] in param_bounds.cc.
#pragma once

namespace weft {

class OpDef;
struct ParamSpec;
struct ParamValue;

// Throws kInvalidArgument naming the op, the parameter and the allowed range
// when a parameter whose name is in the table is out of it.
void CheckParamBounds(const OpDef& op, const ParamSpec& spec, const ParamValue& v);

}  // namespace weft
