// The CPU kernels of core/op/optim/update_drivers_cpu.cc (one per row of
// WEFT_OPTIM_UPDATE_KERNELS), attached by optim_single.cc / optim_multi.cc.
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/optim/update_kernels.h"

namespace weft {
namespace optim {

#define WEFT_OPTIM_CPU_DECL(name, ...) WEFT_GPU_KERNEL_DECL(name##Cpu);
WEFT_OPTIM_UPDATE_KERNELS(WEFT_OPTIM_CPU_DECL)
#undef WEFT_OPTIM_CPU_DECL

}  // namespace optim
}  // namespace weft
