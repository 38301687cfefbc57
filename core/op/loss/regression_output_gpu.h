// The GPU kernels of core/op/loss/regression_output.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(LinearRegressionOutputGpu);  // LinearRegressionOutput
WEFT_GPU_KERNEL_DECL(MAERegressionOutputGpu);  // MAERegressionOutput
WEFT_GPU_KERNEL_DECL(LogisticRegressionOutputGpu);  // LogisticRegressionOutput
WEFT_GPU_KERNEL_DECL(BackwardLinearRegOutGpu);  // _backward_linear_reg_out
WEFT_GPU_KERNEL_DECL(BackwardMaeRegOutGpu);  // _backward_mae_reg_out
WEFT_GPU_KERNEL_DECL(BackwardLogisticRegOutGpu);  // _backward_logistic_reg_out

}  // namespace cuda
}  // namespace weft
