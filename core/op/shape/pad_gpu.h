// The GPU kernels of core/op/shape/pad.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(PadGpu);  // Pad
WEFT_GPU_KERNEL_DECL(BackwardPadGpu);  // _backward_Pad

}  // namespace cuda
}  // namespace weft
