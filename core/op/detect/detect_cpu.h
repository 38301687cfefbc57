// The CPU kernels of core/op/detect/detect_cpu.cc (one per row of
// WEFT_DETECT_KERNELS), and the host-side settings the drivers read.
#pragma once
#include "core/op/detect/detect_kernels.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace detect {

#define WEFT_DETECT_CPU_DECL(name, ...) WEFT_GPU_KERNEL_DECL(name##Cpu);
WEFT_DETECT_KERNELS(WEFT_DETECT_CPU_DECL)
#undef WEFT_DETECT_CPU_DECL

}  // namespace detect
}  // namespace weft
