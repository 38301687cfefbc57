// The GPU kernels of core/op/init/init.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(ZerosGpu);  // _zeros
WEFT_GPU_KERNEL_DECL(OnesGpu);  // _ones
WEFT_GPU_KERNEL_DECL(FullGpu);  // _full
WEFT_GPU_KERNEL_DECL(ZerosLikeGpu);  // zeros_like
WEFT_GPU_KERNEL_DECL(OnesLikeGpu);  // ones_like

}  // namespace cuda
}  // namespace weft
