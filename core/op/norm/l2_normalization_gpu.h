// The GPU kernels of core/op/norm/l2_normalization.cu, attached by the op
// declarations with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/norm/l2_normalization_rules.h"

namespace weft {
namespace nnm {
// The layout of data (or out_grad) of shape s under p's mode (l2_normalization.cc).
L2Layout L2LayoutOf(const Params& p, const Shape& s);
}  // namespace nnm

namespace cuda {

WEFT_GPU_KERNEL_DECL(L2NormalizationGpu);  // L2Normalization
WEFT_GPU_KERNEL_DECL(BackwardL2NormalizationGpu);  // _backward_L2Normalization

}  // namespace cuda
}  // namespace weft
