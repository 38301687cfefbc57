// The GPU kernels of core/op/optim/optim_more.cu (one per row of
// WEFT_OPTIM_MORE_KERNELS), attached by optim_single.cc / optim_multi.cc with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/optim/optim_more_list.h"

namespace weft {
namespace cuda {

#define WEFT_OPTIM_GPU_DECL(name, ...) WEFT_GPU_KERNEL_DECL(name##Gpu);
WEFT_OPTIM_MORE_KERNELS(WEFT_OPTIM_GPU_DECL)
#undef WEFT_OPTIM_GPU_DECL

}  // namespace cuda
}  // namespace weft
