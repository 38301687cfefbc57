// The GPU kernels of core/op/index/index_copy.cu, attached with set_compute_gpu(WEFT_GPU(...))
// (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(IndexCopyGpu);
WEFT_GPU_KERNEL_DECL(BackwardIndexCopyGpu);

}  // namespace cuda
}  // namespace weft
