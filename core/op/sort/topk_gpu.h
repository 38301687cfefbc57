// The GPU kernels of core/op/sort/topk.cu, attached by the declarations in
// topk.cc with set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(TopKGpu);
WEFT_GPU_KERNEL_DECL(SortGpu);
WEFT_GPU_KERNEL_DECL(ArgSortGpu);
WEFT_GPU_KERNEL_DECL(BackwardTopKGpu);

}  // namespace cuda
}  // namespace weft
