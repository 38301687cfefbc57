// CPU kernels of _npi_boolean_mask_assign_tensor and its value gradient
// (np_mask_assign_tensor.cc), which the GPU kernels run on host copies
// (np_mask_assign_tensor.cu).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace index_np {

// out[0] = data (in[0]) with value (in[2]) written where mask (in[1]) selects.
void MaskAssignTensorCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                             const std::vector<OpReq>& req, const std::vector<TensorView>& out);

// out[0] = out_grad (in[0]) summed onto value's (in[2]) shape over the selection.
void MaskAssignTensorValueGrad(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                               const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace index_np
}  // namespace weft
