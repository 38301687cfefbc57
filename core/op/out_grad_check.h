// Shape checks for backward ops that read out_grad as their forward's output.
#pragma once
#include <vector>

#include "core/base/shape.h"
#include "core/opdef/params.h"

namespace weft {

// A backward op whose kernel reads out_grad as `forward`'s output 0 for the forward inputs fwd_in:
// throws kShape unless out_grad has that shape (the forward's inference runs on p's attributes).
// Defined in op_util.cc.
void CheckOutGradOfForward(const Params& p, const char* forward, std::vector<Shape> fwd_in, const Shape& out_grad);

}  // namespace weft
