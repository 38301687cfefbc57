// CPU kernels of the optimizer updates of optim_single.cc / optim_multi.cc:
// the drivers of update_drivers.h over a loop split across threads.
#include "core/op/optim/update_drivers_cpu.h"

#include "core/op/optim/update_drivers.h"  // IWYU pragma: keep (used in WEFT_OPTIM_UPDATE_KERNELS' expansion)

namespace weft {
namespace optim {
namespace {

using L = ::weft::CpuLoop;  // common/loop_policy.h

}  // namespace

#define WEFT_OPTIM_CPU_DEF(name, ...) \
  WEFT_GPU_KERNEL_DECL(name##Cpu) { __VA_ARGS__(ctx, p, in, req, out); }
WEFT_OPTIM_UPDATE_KERNELS(WEFT_OPTIM_CPU_DEF)
#undef WEFT_OPTIM_CPU_DEF

}  // namespace optim
}  // namespace weft
