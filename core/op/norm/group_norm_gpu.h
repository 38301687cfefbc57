// The GPU kernels of core/op/norm/group_norm.cu, attached by the op declarations
// with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/op/norm/group_norm_rules.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace nnm {
// The rows of data of shape s under p's num_groups and eps (group_norm.cc).
GroupLayout GroupLayoutOf(const Params& p, const Shape& s);
}  // namespace nnm

namespace cuda {

WEFT_GPU_KERNEL_DECL(GroupNormGpu);  // GroupNorm
WEFT_GPU_KERNEL_DECL(BackwardGroupNormGpu);  // _backward_GroupNorm

}  // namespace cuda
}  // namespace weft
