// The GPU kernels of core/op/loss/svm_output.cu, attached by the op declarations
// with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(SVMOutputGpu);  // SVMOutput
WEFT_GPU_KERNEL_DECL(BackwardSVMOutputGpu);  // _backward_SVMOutput

}  // namespace cuda
}  // namespace weft
