// The CPU kernel of _npx_constraint_check (np_constraint_check.cc), which the
// GPU kernel runs on host copies (np_constraint_check.cu).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace reduce_np {

// out[0] (a 0-d bool) = every element of in[0] is true; throws kInvalidArgument
// with the node's `msg` otherwise.
void ConstraintCheckCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace reduce_np
}  // namespace weft
