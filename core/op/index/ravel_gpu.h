// The GPU kernels of core/op/index/ravel.cu, attached with set_compute_gpu(WEFT_GPU(...))
// (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(RavelMultiIndexGpu);
WEFT_GPU_KERNEL_DECL(UnravelIndexGpu);

}  // namespace cuda
}  // namespace weft
