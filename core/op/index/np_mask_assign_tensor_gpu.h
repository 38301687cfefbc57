// GPU kernels of _npi_boolean_mask_assign_tensor and its value gradient
// (np_mask_assign_tensor.cu), attached by np_mask_assign_tensor.cc.
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(NpMaskAssignTensorGpu);           // _npi_boolean_mask_assign_tensor
WEFT_GPU_KERNEL_DECL(NpMaskAssignTensorValueGradGpu);  // _backward_npi_boolean_mask_assign_tensor

}  // namespace cuda
}  // namespace weft
