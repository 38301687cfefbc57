// The GPU kernels of core/op/optim/optimizer_update.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(SgdUpdateGpu);  // sgd_update
WEFT_GPU_KERNEL_DECL(SgdMomUpdateGpu);  // sgd_mom_update
WEFT_GPU_KERNEL_DECL(NagMomUpdateGpu);  // nag_mom_update
WEFT_GPU_KERNEL_DECL(AdamUpdateGpu);  // adam_update
WEFT_GPU_KERNEL_DECL(RmspropUpdateGpu);  // rmsprop_update
WEFT_GPU_KERNEL_DECL(FtrlUpdateGpu);  // ftrl_update
WEFT_GPU_KERNEL_DECL(SignumUpdateGpu);  // signum_update
WEFT_GPU_KERNEL_DECL(SignsgdUpdateGpu);  // signsgd_update

}  // namespace cuda
}  // namespace weft
