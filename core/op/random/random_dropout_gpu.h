// The GPU kernels of core/op/random/random_dropout.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(RandomUniformGpu);  // _random_uniform
WEFT_GPU_KERNEL_DECL(RandomNormalGpu);  // _random_normal
WEFT_GPU_KERNEL_DECL(RandomRandintGpu);  // _random_randint
WEFT_GPU_KERNEL_DECL(DropoutGpu);  // Dropout
WEFT_GPU_KERNEL_DECL(BackwardDropoutGpu);  // _backward_Dropout

}  // namespace cuda
}  // namespace weft
