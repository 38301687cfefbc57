// The CPU kernels of core/op/optim/optim_more_cpu.cc (one per row of
// WEFT_OPTIM_MORE_KERNELS), attached by optim_single.cc / optim_multi.cc.
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/optim/optim_more_list.h"

namespace weft {
namespace optim {

#define WEFT_OPTIM_CPU_DECL(name, ...) WEFT_GPU_KERNEL_DECL(name##Cpu);
WEFT_OPTIM_MORE_KERNELS(WEFT_OPTIM_CPU_DECL)
#undef WEFT_OPTIM_CPU_DECL

}  // namespace optim
}  // namespace weft
