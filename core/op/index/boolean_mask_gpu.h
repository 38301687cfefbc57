// GPU kernels of _contrib_boolean_mask and its backward (boolean_mask.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(BooleanMaskGpu);
WEFT_GPU_KERNEL_DECL(BackwardBooleanMaskGpu);

}  // namespace cuda
}  // namespace weft
