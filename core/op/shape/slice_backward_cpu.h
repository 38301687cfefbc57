// CPU kernel of _backward_slice_axis (shape_backward.cc).
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// out (req)= zeros with g placed at [begin, begin + g.shape[axis]) of `axis`.
void SliceAxisBackwardCPU(const TensorView& g, int axis, int64_t begin, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
