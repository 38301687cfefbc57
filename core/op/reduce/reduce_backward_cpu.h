// CPU kernels of the reduction backward ops (reduce_backward.cc): sums back to
// a broadcast input's shape and broadcasts back over reduced axes.
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// out (req)= g summed over the axes along which out's shape was broadcast to
// g's (out left-padded with 1s to g's ndim; every dim equals g's or is 1).
void SumToShapeCPU(const TensorView& g, OpReq req, const TensorView& out);

// out (req)= scale * g broadcast over the dims flagged in `reduced` (one flag
// per dim of out); g holds the kept dims in order.
void BroadcastReducedCPU(const TensorView& g, const std::vector<bool>& reduced, double scale, OpReq req,
                         const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
