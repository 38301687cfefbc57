// The GPU kernels of core/op/shape/concat_slice.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ConcatGpu);  // Concat
WEFT_GPU_KERNEL_DECL(BackwardConcatGpu);  // _backward_Concat
WEFT_GPU_KERNEL_DECL(StackGpu);  // stack
WEFT_GPU_KERNEL_DECL(SliceChannelGpu);  // SliceChannel
WEFT_GPU_KERNEL_DECL(SliceGpu);  // slice
WEFT_GPU_KERNEL_DECL(SliceAxisGpu);  // slice_axis
WEFT_GPU_KERNEL_DECL(BackwardSliceAxisGpu);  // _backward_slice_axis
WEFT_GPU_KERNEL_DECL(SliceAssignGpu);  // _slice_assign
WEFT_GPU_KERNEL_DECL(SliceAssignScalarGpu);  // _slice_assign_scalar

}  // namespace cuda
}  // namespace weft
