// The GPU kernels of core/op/fused/fused_nn.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(FusedFullyConnectedActGpu);  // _fused_fully_connected_act
WEFT_GPU_KERNEL_DECL(FusedConvolutionActGpu);  // _fused_convolution_act
WEFT_GPU_KERNEL_DECL(FusedConvolutionBnGpu);  // _fused_convolution_bn (fused_conv_bn.cu)

}  // namespace cuda
}  // namespace weft
