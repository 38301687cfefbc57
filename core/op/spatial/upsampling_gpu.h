// The GPU kernels of core/op/spatial/upsampling.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(UpSamplingGpu);  // UpSampling
WEFT_GPU_KERNEL_DECL(BackwardUpSamplingGpu);  // _backward_UpSampling
WEFT_GPU_KERNEL_DECL(BackwardUpSamplingMultiGpu);  // _backward_UpSampling_multi

}  // namespace cuda
}  // namespace weft
