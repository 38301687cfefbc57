// The GPU kernels of core/op/custom/custom.cu, attached by the declarations in
// custom.cc with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(CustomGpu);          // Custom
WEFT_GPU_KERNEL_DECL(CustomBackwardGpu);  // _backward_Custom

}  // namespace cuda
}  // namespace weft
