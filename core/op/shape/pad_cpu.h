// CPU kernels of Pad: constant, edge and reflect padding of any rank, and the
// gradient (edge and reflect add the padded entries back onto their sources).
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

enum class PadMode : int { kConstant, kEdge, kReflect };

// y (req)= x padded by `before` entries at the start of each dim (y's shape
// gives the end); reflect needs every pad smaller than its dim.
void PadForward(const TensorView& x, const std::vector<int64_t>& before, PadMode mode, double value, OpReq req,
                const TensorView& y);
// gx (req)= gradient of the above from gy.
void PadBackward(const TensorView& gy, const std::vector<int64_t>& before, PadMode mode, OpReq req,
                 const TensorView& gx);

}  // namespace nnx_cpu
}  // namespace weft
