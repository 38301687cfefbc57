// The GPU kernels of core/op/index/legacy_index.cu, attached with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(FillElement0IndexGpu);
WEFT_GPU_KERNEL_DECL(OneHotEncodeGpu);
WEFT_GPU_KERNEL_DECL(ArgmaxChannelGpu);
WEFT_GPU_KERNEL_DECL(BatchTakeGpu);

}  // namespace cuda
}  // namespace weft
