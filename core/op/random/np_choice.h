// The CPU kernel of _npi_choice (np_choice.cc), which the GPU kernel runs on
// host copies (np_choice.cu).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace sampler {

// out[0] (int64) = `size` indices drawn from range(n) (Note [Choice by
// sampling rule] in np_choice.cc), from ctx.rng's generator; throws
// kInvalidArgument naming the op and argument for an empty population, a
// sample larger than it without replacement, or a negative or NaN weight.
void ChoiceCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace sampler
}  // namespace weft
