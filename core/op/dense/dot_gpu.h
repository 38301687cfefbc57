// The GPU kernels of core/op/dense/dot.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(DotGpu);  // dot
WEFT_GPU_KERNEL_DECL(BatchDotGpu);  // batch_dot
WEFT_GPU_KERNEL_DECL(BackwardDotGpu);  // _backward_dot
WEFT_GPU_KERNEL_DECL(BackwardBatchDotGpu);  // _backward_batch_dot

}  // namespace cuda
}  // namespace weft
