// CPU kernels of UpSampling (nearest neighbour) and its backward ops.
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

// out (N, C, OH, OW) (req)= the inputs (N, Ci, OH/s, OW/s) repeated s x s,
// each input with its own integer scale s; concatenated along channels, or
// summed (all inputs then have out's channels).
void UpSamplingNearestForward(const std::vector<TensorView>& in, bool sum, OpReq req, const TensorView& out);
// gin[k] (req[k])= the s x s block sums of gout over input k's channels.
void UpSamplingNearestBackward(const TensorView& gout, bool sum, const std::vector<OpReq>& req,
                               const std::vector<TensorView>& gin);

}  // namespace nnx_cpu
}  // namespace weft
