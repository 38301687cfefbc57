// The GPU kernels of core/op/spatial/pooling_lrn.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(PoolingGpu);  // Pooling
WEFT_GPU_KERNEL_DECL(BackwardPoolingGpu);  // _backward_Pooling
WEFT_GPU_KERNEL_DECL(LRNGpu);  // LRN
WEFT_GPU_KERNEL_DECL(BackwardLRNGpu);  // _backward_LRN

}  // namespace cuda
}  // namespace weft
