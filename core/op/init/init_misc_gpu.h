// The GPU kernels of core/op/init/init_misc.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ArangeGpu);  // _arange
WEFT_GPU_KERNEL_DECL(EyeGpu);  // _eye

}  // namespace cuda
}  // namespace weft
