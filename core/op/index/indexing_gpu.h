// The GPU kernels of core/op/index/indexing.cu, attached by the op declarations with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace cuda {

WEFT_GPU_KERNEL_DECL(TakeGpu);  // take
WEFT_GPU_KERNEL_DECL(BackwardTakeGpu);  // _backward_take
WEFT_GPU_KERNEL_DECL(PickGpu);  // pick
WEFT_GPU_KERNEL_DECL(BackwardPickGpu);  // _backward_pick
WEFT_GPU_KERNEL_DECL(OneHotGpu);  // one_hot
WEFT_GPU_KERNEL_DECL(GatherNdGpu);  // gather_nd
WEFT_GPU_KERNEL_DECL(BackwardGatherNdGpu);  // _backward_gather_nd
WEFT_GPU_KERNEL_DECL(ScatterSetNdGpu);  // _scatter_set_nd

}  // namespace cuda
}  // namespace weft
