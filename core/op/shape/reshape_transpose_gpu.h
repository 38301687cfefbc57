// The GPU kernels of core/op/shape/reshape_transpose.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ReshapeGpu);  // Reshape
WEFT_GPU_KERNEL_DECL(FlattenGpu);  // Flatten
WEFT_GPU_KERNEL_DECL(ExpandDimsGpu);  // expand_dims
WEFT_GPU_KERNEL_DECL(SqueezeGpu);  // squeeze
WEFT_GPU_KERNEL_DECL(BackwardReshapeGpu);  // _backward_reshape
WEFT_GPU_KERNEL_DECL(TransposeGpu);  // transpose

}  // namespace cuda
}  // namespace weft
