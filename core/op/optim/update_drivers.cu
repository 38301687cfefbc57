// GPU kernels of the optimizer updates of optim_single.cc / optim_multi.cc:
// the drivers of update_drivers.h (Note [One optimizer rule]) over Launch.
// float32/float64 storage (as every GPU kernel here, Note in gpu_kernel.h);
// float16/bfloat16 weights throw a DTypeError naming the GPU.
#include "core/op/optim/update_drivers_gpu.h"

#include "core/op/common/gpu_loop.h"
#include "core/op/optim/update_drivers.h"  // IWYU pragma: keep (used in WEFT_OPTIM_UPDATE_KERNELS' expansion)

namespace weft {
namespace cuda {
namespace {

using L = GpuLoop;  // common/gpu_loop.h

}  // namespace

using namespace ::weft::optim;  // NOLINT(build/namespaces): the drivers of update_drivers.h

#define WEFT_OPTIM_GPU_DEF(name, ...) \
  WEFT_GPU_KERNEL_DECL(name##Gpu) { __VA_ARGS__(ctx, p, in, req, out); }
WEFT_OPTIM_UPDATE_KERNELS(WEFT_OPTIM_GPU_DEF)
#undef WEFT_OPTIM_GPU_DEF

}  // namespace cuda
}  // namespace weft
