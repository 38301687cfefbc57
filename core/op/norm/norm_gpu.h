// The GPU kernels of core/op/norm/norm.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(BatchNormGpu);  // BatchNorm
WEFT_GPU_KERNEL_DECL(BackwardBatchNormGpu);  // _backward_BatchNorm
WEFT_GPU_KERNEL_DECL(LayerNormGpu);  // LayerNorm
WEFT_GPU_KERNEL_DECL(BackwardLayerNormGpu);  // _backward_LayerNorm
WEFT_GPU_KERNEL_DECL(InstanceNormGpu);  // InstanceNorm
WEFT_GPU_KERNEL_DECL(BackwardInstanceNormGpu);  // _backward_InstanceNorm

}  // namespace cuda
}  // namespace weft
