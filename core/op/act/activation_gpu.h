// The GPU kernels of core/op/act/activation.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ActivationGpu);  // Activation
WEFT_GPU_KERNEL_DECL(BackwardActivationGpu);  // _backward_Activation
WEFT_GPU_KERNEL_DECL(LeakyReLUGpu);  // LeakyReLU
WEFT_GPU_KERNEL_DECL(BackwardLeakyReLUGpu);  // _backward_LeakyReLU

}  // namespace cuda
}  // namespace weft
