// The GPU kernels of core/op/layer/convolution.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ConvolutionGpu);  // Convolution
WEFT_GPU_KERNEL_DECL(BackwardConvolutionGpu);  // _backward_Convolution
WEFT_GPU_KERNEL_DECL(DeconvolutionGpu);  // Deconvolution
WEFT_GPU_KERNEL_DECL(BackwardDeconvolutionGpu);  // _backward_Deconvolution

}  // namespace cuda
}  // namespace weft
