// The GPU kernels of core/op/loss/loss_misc.cu, attached by the op declarations
// with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(SmoothL1Gpu);          // smooth_l1
WEFT_GPU_KERNEL_DECL(BackwardSmoothL1Gpu);  // _backward_smooth_l1
WEFT_GPU_KERNEL_DECL(BackwardMakeLossGpu);  // _backward_MakeLoss

}  // namespace cuda
}  // namespace weft
