// GPU kernels of all_finite, multi_all_finite and multi_sum_sq (multi_check.cu).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(AllFiniteGpu);       // all_finite
WEFT_GPU_KERNEL_DECL(MultiAllFiniteGpu);  // multi_all_finite
WEFT_GPU_KERNEL_DECL(MultiSumSqGpu);      // multi_sum_sq

}  // namespace cuda
}  // namespace weft
