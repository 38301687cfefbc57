// The GPU kernels of core/op/loss/kl_sparse_reg.cu, attached by the op declarations
// with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(IdentityAttachKLSparseRegGpu);  // IdentityAttachKLSparseReg
WEFT_GPU_KERNEL_DECL(BackwardIdentityAttachKLSparseRegGpu);  // _backward_IdentityAttachKLSparseReg

}  // namespace cuda
}  // namespace weft
