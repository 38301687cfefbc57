// The GPU kernels of core/op/softmax/softmax.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(SoftmaxGpu);  // softmax
WEFT_GPU_KERNEL_DECL(LogSoftmaxGpu);  // log_softmax
WEFT_GPU_KERNEL_DECL(BackwardSoftmaxGpu);  // _backward_softmax
WEFT_GPU_KERNEL_DECL(BackwardLogSoftmaxGpu);  // _backward_log_softmax
WEFT_GPU_KERNEL_DECL(SoftminGpu);  // softmin
WEFT_GPU_KERNEL_DECL(BackwardSoftminGpu);  // _backward_softmin
WEFT_GPU_KERNEL_DECL(SoftmaxActivationGpu);  // SoftmaxActivation
WEFT_GPU_KERNEL_DECL(BackwardSoftmaxActivationGpu);  // _backward_SoftmaxActivation
WEFT_GPU_KERNEL_DECL(SoftmaxOutputGpu);  // SoftmaxOutput
WEFT_GPU_KERNEL_DECL(BackwardSoftmaxOutputGpu);  // _backward_SoftmaxOutput
WEFT_GPU_KERNEL_DECL(SoftmaxCrossEntropyGpu);  // softmax_cross_entropy
WEFT_GPU_KERNEL_DECL(BackwardSoftmaxCrossEntropyGpu);  // _backward_softmax_cross_entropy

}  // namespace cuda
}  // namespace weft
