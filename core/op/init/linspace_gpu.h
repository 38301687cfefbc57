// The GPU kernel of core/op/init/linspace.cu (_linspace), attached with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(LinspaceGpu);

}  // namespace cuda
}  // namespace weft
