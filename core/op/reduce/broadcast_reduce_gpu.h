// The GPU kernels of core/op/reduce/broadcast_reduce.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(BroadcastBackwardGpu);  // _broadcast_backward
WEFT_GPU_KERNEL_DECL(BackwardSumGpu);  // _backward_sum
WEFT_GPU_KERNEL_DECL(BackwardMeanGpu);  // _backward_mean
WEFT_GPU_KERNEL_DECL(SumGpu);  // sum
WEFT_GPU_KERNEL_DECL(MeanGpu);  // mean
WEFT_GPU_KERNEL_DECL(ProdGpu);  // prod
WEFT_GPU_KERNEL_DECL(MaxGpu);  // max
WEFT_GPU_KERNEL_DECL(MinGpu);  // min
WEFT_GPU_KERNEL_DECL(NansumGpu);  // nansum
WEFT_GPU_KERNEL_DECL(NanprodGpu);  // nanprod
WEFT_GPU_KERNEL_DECL(NormGpu);  // norm
WEFT_GPU_KERNEL_DECL(ArgmaxGpu);  // argmax
WEFT_GPU_KERNEL_DECL(ArgminGpu);  // argmin

}  // namespace cuda
}  // namespace weft
