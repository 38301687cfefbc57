// The GPU kernels of core/op/optim/update_drivers.cu (one per row of
// WEFT_OPTIM_UPDATE_KERNELS), attached by optim_single.cc / optim_multi.cc with
// set_compute_gpu(WEFT_GPU(...)) (Note [GPU kernels] in core/opdef/op_def.h).
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/optim/update_kernels.h"

namespace weft {
namespace cuda {

#define WEFT_OPTIM_GPU_DECL(name, ...) WEFT_GPU_KERNEL_DECL(name##Gpu);
WEFT_OPTIM_UPDATE_KERNELS(WEFT_OPTIM_GPU_DECL)
#undef WEFT_OPTIM_GPU_DECL

}  // namespace cuda
}  // namespace weft
