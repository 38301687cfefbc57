// The GPU kernels of core/op/elemwise/broadcast.cu, attached by the op
// declarations with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in
// core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(BroadcastToGpu);    // broadcast_to
WEFT_GPU_KERNEL_DECL(BroadcastAxisGpu);  // broadcast_axis
WEFT_GPU_KERNEL_DECL(BroadcastLikeGpu);  // broadcast_like

}  // namespace cuda
}  // namespace weft
