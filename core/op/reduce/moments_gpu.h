// GPU kernels of moments and _backward_moments (moments.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(MomentsGpu);          // moments
WEFT_GPU_KERNEL_DECL(BackwardMomentsGpu);  // _backward_moments

}  // namespace cuda
}  // namespace weft
