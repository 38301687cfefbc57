// The GPU kernels of core/op/layer/fully_connected.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(FullyConnectedGpu);  // FullyConnected
WEFT_GPU_KERNEL_DECL(BackwardFullyConnectedGpu);  // _backward_FullyConnected

}  // namespace cuda
}  // namespace weft
