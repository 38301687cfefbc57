// The GPU kernels of core/op/norm/batch_norm_variants.cu, attached by the op
// declarations with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace nnm {
// BatchNorm's parameters for a call of _contrib_SyncBatchNorm (batch_norm_variants.cc).
Params SyncToBatchNormParams(const Params& p);
}  // namespace nnm

namespace cuda {

WEFT_GPU_KERNEL_DECL(SyncBatchNormGpu);  // _contrib_SyncBatchNorm
WEFT_GPU_KERNEL_DECL(BatchNormWithReLUGpu);  // _contrib_BatchNormWithReLU

}  // namespace cuda
}  // namespace weft
